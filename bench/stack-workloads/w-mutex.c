/* A workload for bench/stack-accept.sh, written apart from examples/stack/ (see that script). */
#include "common.h"
static pthread_mutex_t lk = PTHREAD_MUTEX_INITIALIZER; static double acc;
static void *fn(void *a) { (void)a; long iters = 4000 / T;
	for (long i = 0; i < iters; i++) { double v = spin_work(20000); pthread_mutex_lock(&lk); acc += spin_work(60000) + v; pthread_mutex_unlock(&lk); }
	return NULL; }
int main(int c, char **v) { T = c > 1 ? atoi(v[1]) : 1; run_threads(fn); printf("%g\n", acc); return 0; }
