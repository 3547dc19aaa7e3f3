/* A program whose two marked regions have known bottlenecks, for `archscope stack --regions`
 * (tests/cli/t0644): in each of THREADS threads (default 2), "lock" takes a pthread spin lock
 * 40 times and holds it for 1 ms of the thread's CPU each time (the other threads spin for it),
 * then, after a barrier outside every region, "work" computes UNITS ms (default 100) of the
 * thread's CPU alone, on its own data. Arguments: THREADS [UNITS]. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "archscope-marker.h"

static pthread_spinlock_t lock;
static pthread_barrier_t between;
static double units_ms = 100;
static _Thread_local volatile unsigned long sink;

static double thread_cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Computes until this thread has run ms on a CPU (not wall time: the machine may be loaded). */
static void compute_ms(double ms)
{
	double end = thread_cpu_ms() + ms;
	while (thread_cpu_ms() < end)
		for (int i = 0; i < 1000; i++)
			sink += (unsigned long)i;
}

static void *body(void *arg)
{
	(void)arg;
	ARCHSCOPE_REGION_BEGIN("lock");
	for (int i = 0; i < 40; i++) {
		pthread_spin_lock(&lock);
		compute_ms(1);
		pthread_spin_unlock(&lock);
	}
	ARCHSCOPE_REGION_END("lock");
	pthread_barrier_wait(&between);
	ARCHSCOPE_REGION_BEGIN("work");
	compute_ms(units_ms);
	ARCHSCOPE_REGION_END("work");
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	if (argc > 2)
		units_ms = atof(argv[2]);
	if (n < 1 || n > 256 || !(units_ms >= 0 && units_ms <= 1e6)) {
		fprintf(stderr, "usage: stack THREADS [UNITS]: 1 to 256 threads, UNITS ms of work\n");
		return 2;
	}
	pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE);
	pthread_barrier_init(&between, NULL, (unsigned)n);
	pthread_t t[256];
	for (int i = 1; i < n; i++)
		if (pthread_create(&t[i], NULL, body, NULL) != 0)
			return 1;
	body(NULL);
	for (int i = 1; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
