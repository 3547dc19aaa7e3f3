/* whatif's OpenMP case (issue 49 item 2): a parallel loop with a static schedule over iterations
 * of uneven cost (the first half 1 unit, the second 3), so at 2 threads one thread does 3/4 of the
 * work and the other waits at the loop's implicit barrier for half of each round. The work's line
 * is the one worth optimizing; the barrier wait (in libgomp or libomp, spinning under
 * OMP_WAIT_POLICY=active) is hot in a profile but never worth it. Usage: openmp-imbalance [ROUNDS]
 * (default 200, about 5 ms of work each). Built by CMake with each OpenMP runtime the machine has:
 * whatif-openmp-imbalance-gcc (libgomp) and whatif-openmp-imbalance-clang (libomp). */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { ITERS = 64 };

__attribute__((noinline)) static uint64_t work(uint64_t x, int units)
{
	for (int i = 0; i < units * 10000; i++) x = (x ^ (x >> 29)) * 6364136223846793005u + 1442695040888963407u; /* the work */
	return x;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 200;
	if (rounds < 1) {
		fprintf(stderr, "usage: %s [ROUNDS > 0]\n", argv[0]);
		return 2;
	}
	uint64_t acc = 0;
	for (int r = 0; r < rounds; r++) {
		uint64_t part[ITERS];
#pragma omp parallel for schedule(static)
		for (int i = 0; i < ITERS; i++)
			part[i] = work((uint64_t)(i + r), i < ITERS / 2 ? 1 : 3);
		for (int i = 0; i < ITERS; i++)
			acc += part[i] & 1;
	}
	printf("openmp-imbalance: %d rounds on %d threads, %llu odd\n", rounds, omp_get_max_threads(),
	       (unsigned long long)acc);
	return 0;
}
