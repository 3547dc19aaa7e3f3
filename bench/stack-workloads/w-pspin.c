/* A workload for bench/stack-accept.sh, written apart from examples/stack/ (see that script). */
#include "common.h"
static pthread_spinlock_t lk; static double acc;
static void *fn(void *a) { (void)a; long iters = 400000 / T;
	for (long i = 0; i < iters; i++) { double v = spin_work(200); pthread_spin_lock(&lk); acc += spin_work(600) + v; pthread_spin_unlock(&lk); }
	return NULL; }
int main(int c, char **v) { T = c > 1 ? atoi(v[1]) : 1; pthread_spin_init(&lk, 0); run_threads(fn); printf("%g\n", acc); return 0; }
