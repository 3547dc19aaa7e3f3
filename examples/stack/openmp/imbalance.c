/* An OpenMP program with a known delimiter, for the OpenMP runtimes of `archscope stack`:
 * "imbalance [ROUNDS [MODE]]", ROUNDS rounds (default 100, about 2.5 ms of work each) of
 *   barrier   a parallel loop with a static schedule over iterations whose cost is uneven (the
 *             first half costs 1, the second half 3: at 2 threads the shares are 1:3), so the
 *             thread with the cheap half waits at the loop's barrier (omp_barrier: its spin phase,
 *             KMP_BLOCKTIME or GOMP_SPINCOUNT, then its sleep). At 2 threads a round lasts 3 units
 *             of which 4 are work: S = 4/3, the barrier 2/3 of the bar;
 *   critical  the same loop, evenly split, with two thirds of each iteration's work in a critical
 *             section (omp_lock: the threads queue for it);
 *   taskwait  one thread makes two tasks per round, of cost 1 and 3, and waits for them with
 *             taskwait (omp_taskwait), the others run them.
 * Built by the tests with each compiler:
 *   gcc -O2 -g -fopenmp -o imbalance-gcc examples/stack/openmp/imbalance.c      (libgomp)
 *   clang -O2 -g -fopenmp -o imbalance-clang examples/stack/openmp/imbalance.c  (libomp, OMPT) */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t work(uint64_t x, int units)
{
	for (int u = 0; u < units; u++)
		for (int i = 0; i < 10000; i++) /* not affine: no compiler folds it */
			x = (x ^ (x >> 29)) * 6364136223846793005u + 1442695040888963407u;
	return x;
}

enum { ITERS = 64 };

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 100;
	const char *mode = argc > 2 ? argv[2] : "barrier";
	if (rounds < 1 || (strcmp(mode, "barrier") && strcmp(mode, "critical") && strcmp(mode, "taskwait"))) {
		fprintf(stderr, "usage: %s [ROUNDS [barrier|critical|taskwait]]\n", argv[0]);
		return 2;
	}
	uint64_t acc = 0, shared = 0;
	for (int r = 0; r < rounds; r++) {
		uint64_t part[ITERS];
		if (!strcmp(mode, "barrier")) {
#pragma omp parallel for schedule(static)
			for (int i = 0; i < ITERS; i++)
				part[i] = work((uint64_t)(i + r), i < ITERS / 2 ? 1 : 3);
		} else if (!strcmp(mode, "critical")) {
#pragma omp parallel for schedule(static)
			for (int i = 0; i < ITERS; i++) {
				uint64_t x = work((uint64_t)(i + r), 1);
#pragma omp critical
				shared += work(x, 2); /* a sum: the same whatever order the threads come in */
				part[i] = x;
			}
		} else {
#pragma omp parallel
#pragma omp single
			{
#if defined(__clang__)
				enum { nseed = 3 }; /* clang takes no variably-modified firstprivate */
#else
				int nseed = 2 + r % 3; /* a VLA firstprivate: gcc copies the task's arguments
							* with a copy function (GOMP_task's cpyfn) */
#endif
				uint64_t seed[nseed];
				for (int k = 0; k < nseed; k++)
					seed[k] = (uint64_t)(r + k);
				for (int t = 0; t < 2; t++) {
#pragma omp task firstprivate(t, seed) shared(part)
					part[t] = work(seed[nseed - 1] + (uint64_t)t, t ? 3 * ITERS / 2 : ITERS / 2);
				}
#pragma omp taskwait
				for (int i = 2; i < ITERS; i++)
					part[i] = part[i & 1];
			}
		}
		for (int i = 0; i < ITERS; i++)
			acc += part[i] & 1;
	}
	printf("openmp %s: %d rounds on %d threads, %llu odd, %llu\n", mode, rounds, omp_get_max_threads(),
	       (unsigned long long)acc, (unsigned long long)(shared & 1));
	return 0;
}
