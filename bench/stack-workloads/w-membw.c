/* A workload for bench/stack-accept.sh: memory-bandwidth bound. w-memory.c turned out to be bound
 * by its own reduction chain (s += ..., one add latency per element), so it scales on a core that
 * keeps its memory busy; this one streams a = b + s * c over three 128 MiB arrays with no chain, so
 * N threads share the memory bandwidth. Written by the session that had read the stack code (see
 * the closing note); strong-scaled like the others. */
#include "common.h"
#include <string.h>
static double *a, *b, *c; static long n = 16L << 20;
static void *fn(void *arg) { long id = (long)arg, lo = n / T * id, hi = id == T - 1 ? n : n / T * (id + 1);
	for (long i = lo; i < hi; i++) { a[i] = 0; b[i] = 1.0; c[i] = 2.0; }
	for (int p = 0; p < 8; p++) for (long i = lo; i < hi; i++) a[i] = b[i] + 1.5 * c[i];
	sink = a[lo]; return NULL; }
int main(int argc, char **argv) { T = argc > 1 ? atoi(argv[1]) : 1; if (T < 1 || T > 256) return 2;
	a = malloc((size_t)n * sizeof(double)); b = malloc((size_t)n * sizeof(double)); c = malloc((size_t)n * sizeof(double));
	if (!a || !b || !c) return 3; run_threads(fn); return 0; }
