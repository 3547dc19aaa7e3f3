/* What the examples of `archscope stack` share: arguments, a unit of compute work, and a
 * fork-join driver. Each example is one program with one known scaling delimiter. */
#ifndef STACK_EXAMPLE_COMMON_H
#define STACK_EXAMPLE_COMMON_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Work units a 1-thread run does in about 0.2 s on a 2020s core; argv[2] scales it. */
#define EXAMPLE_UNITS 2000

static int example_threads = 1;
static long example_units = EXAMPLE_UNITS;

/* "PROGRAM THREADS [UNITS]" */
static inline void example_args(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s THREADS [UNITS]\n", argv[0]);
		exit(2);
	}
	example_threads = atoi(argv[1]);
	if (argc > 2)
		example_units = atol(argv[2]);
	if (example_threads < 1 || example_threads > 1024 || example_units < 1) {
		fprintf(stderr, "%s: bad arguments\n", argv[0]);
		exit(2);
	}
}

/* About 100 us of dependent integer work (iters 40000); the result keeps the compiler from
 * removing it. */
static inline uint64_t example_work_n(uint64_t x, int iters)
{
	for (int i = 0; i < iters; i++)
		x = x * 6364136223846793005u + 1442695040888963407u;
	return x;
}

static inline uint64_t example_work(uint64_t x)
{
	return example_work_n(x, 40000);
}

/* Work between two critical sections, long enough (half a unit, ~50 us) for a woken waiter to
 * take the lock even in a VM that wakes idle CPUs slowly: without it an unfair lock goes back to
 * the thread that just released it, one thread finishes first and the wait shows as imbalance
 * instead of at the lock. The lock is then held two thirds of the time. */
static inline uint64_t example_work_between(uint64_t x)
{
	return example_work_n(x, 20000);
}

/* Runs fn(i) on example_threads threads and joins them. */
static inline void example_fork_join(void *(*fn)(void *))
{
	pthread_t th[1024];
	for (long i = 0; i < example_threads; i++)
		if (pthread_create(&th[i], NULL, fn, (void *)i) != 0) {
			perror("pthread_create");
			exit(1);
		}
	for (int i = 0; i < example_threads; i++)
		pthread_join(th[i], NULL);
}

/* Prints how many threads' results are odd: output that depends on every result, so the compiler
 * keeps the work, and that is the same in every run. */
static inline void example_print_odd(const char *name, const uint64_t *result)
{
	uint64_t odd = 0;
	for (int i = 0; i < example_threads; i++)
		odd += result[i] & 1;
	printf("%s: %ld units done, %llu odd results\n", name, example_units, (unsigned long long)odd);
}

#endif
