/* A workload for bench/stack-accept.sh, written apart from examples/stack/ (see that script). */
#include "common.h"
#include <string.h>
static double *arr; static long n = 32L << 20;
static void *fn(void *a) { long id = (long)a, lo = n / T * id, hi = n / T * (id + 1); double s = 0;
	memset(arr + lo, 0, (size_t)(hi - lo) * sizeof(double));
	for (int p = 0; p < 6; p++) for (long i = lo; i < hi; i++) s += arr[i] += 1.0;
	sink = s; return NULL; }
int main(int c, char **v) { T = c > 1 ? atoi(v[1]) : 1; arr = malloc((size_t)n * sizeof(double)); run_threads(fn); return 0; }
