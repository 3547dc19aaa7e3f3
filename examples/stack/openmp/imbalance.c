/* An OpenMP program with a known delimiter, for the OpenMP runtimes of `archscope stack`: ROUNDS
 * parallel loops with a static schedule over iterations whose cost is uneven (the first half of
 * the iterations costs 1, the second half 3: at 2 threads the shares are 1:3), so the thread with
 * the cheap half waits at each loop's barrier (omp_barrier: its spin phase, KMP_BLOCKTIME or
 * GOMP_SPINCOUNT, then its sleep). At 2 threads a round lasts 3 units of which 4 are work:
 * S = 4/3 and the barrier takes 2/3 of the bar. Built by the tests with each compiler:
 *   gcc -O2 -g -fopenmp -o imbalance-gcc examples/stack/openmp/imbalance.c      (libgomp)
 *   clang -O2 -g -fopenmp -o imbalance-clang examples/stack/openmp/imbalance.c  (libomp, OMPT)
 * Usage: imbalance [ROUNDS] (default 100; a round is about 2.5 ms of work). */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t work(uint64_t x, int units)
{
	for (int u = 0; u < units; u++)
		for (int i = 0; i < 10000; i++) /* not affine: no compiler folds it */
			x = (x ^ (x >> 29)) * 6364136223846793005u + 1442695040888963407u;
	return x;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 100;
	if (rounds < 1) {
		fprintf(stderr, "usage: %s [ROUNDS]\n", argv[0]);
		return 2;
	}
	enum { ITERS = 64 };
	uint64_t acc = 0;
	for (int r = 0; r < rounds; r++) {
		uint64_t part[ITERS];
#pragma omp parallel for schedule(static)
		for (int i = 0; i < ITERS; i++)
			part[i] = work((uint64_t)(i + r), i < ITERS / 2 ? 1 : 3);
		for (int i = 0; i < ITERS; i++)
			acc += part[i] & 1;
	}
	printf("openmp imbalance: %d rounds on %d threads, %llu odd\n", rounds, omp_get_max_threads(),
	       (unsigned long long)acc);
	return 0;
}
