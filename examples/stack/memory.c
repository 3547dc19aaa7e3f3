/* Memory-bound: each thread streams through its part of arrays far larger than the caches, so the
 * threads share the memory bandwidth (work_inflation: tier 0 sees no wait).
 * "memory THREADS [UNITS [MIB]]": UNITS / 100 sweeps over three arrays of MIB MiB (default 32). */
#include "common.h"

#define MIB (1024L * 1024L)
static double *a, *b, *c;
static long n;

static void *worker(void *arg)
{
	long id = (long)arg, lo = n * id / example_threads, hi = n * (id + 1) / example_threads;
	for (long i = lo; i < hi; i++) /* first touch by the thread that uses the data */
		a[i] = b[i] = c[i] = (double)i;
	long sweeps = example_units / 100;
	for (long s = 0; s < sweeps; s++)
		for (long i = lo; i < hi; i++)
			a[i] = b[i] + 1.5 * c[i];
	return NULL;
}

int main(int argc, char **argv)
{
	example_args(argc, argv);
	long mib = argc > 3 ? atol(argv[3]) : 32; /* 3 x 32 MiB: beyond the last-level caches of most CPUs */
	if (mib < 1) {
		fprintf(stderr, "memory: bad size\n");
		return 2;
	}
	n = mib * MIB / (long)sizeof(double);
	a = malloc((size_t)n * sizeof(double));
	b = malloc((size_t)n * sizeof(double));
	c = malloc((size_t)n * sizeof(double));
	if (!a || !b || !c) {
		fprintf(stderr, "memory: out of memory\n");
		return 1;
	}
	example_fork_join(worker);
	printf("memory: a[1] = %g\n", a[1]);
	return 0;
}
