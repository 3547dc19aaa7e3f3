/* An OpenMP program of the usual kind, for bench/stack-real.sh (built there with gcc -fopenmp,
 * libgomp, and clang -fopenmp, libomp): a 2-D Jacobi sweep of a 1024 x 1024 grid, rows split with
 * a static schedule, SWEEPS sweeps (one parallel region each, with its barrier), and a residual
 * reduced over the threads every 10 sweeps. The same work at any thread count.
 * Usage: omp-jacobi [SWEEPS] (default 200). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define SIDE 1024

int main(int argc, char **argv)
{
	int sweeps = argc > 1 ? atoi(argv[1]) : 200;
	double *a = calloc((size_t)SIDE * SIDE, sizeof(double)), *b = calloc((size_t)SIDE * SIDE, sizeof(double));
	if (!a || !b || sweeps < 1)
		return 2;
	for (int j = 0; j < SIDE; j++)
		a[j] = b[j] = 1.0; /* a hot edge */
	double res = 0;
	for (int s = 0; s < sweeps; s++) {
		double r = 0;
#pragma omp parallel for schedule(static) reduction(+ : r)
		for (int i = 1; i < SIDE - 1; i++)
			for (int j = 1; j < SIDE - 1; j++) {
				double v = 0.25 * (a[(i - 1) * SIDE + j] + a[(i + 1) * SIDE + j] + a[i * SIDE + j - 1] +
						   a[i * SIDE + j + 1]);
				if (s % 10 == 0)
					r += fabs(v - a[i * SIDE + j]);
				b[i * SIDE + j] = v;
			}
		double *t = a;
		a = b;
		b = t;
		if (s % 10 == 0)
			res = r;
	}
	printf("jacobi: %d sweeps, residual %.6e, centre %.6e\n", sweeps, res, a[SIDE / 2 * SIDE + SIDE / 2]);
	free(a);
	free(b);
	return 0;
}
