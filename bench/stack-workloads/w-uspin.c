/* A workload for bench/stack-accept.sh, written apart from examples/stack/ (see that script). */
#include "common.h"
static atomic_int flag; static double acc;
static void *fn(void *a) { (void)a; long iters = 400000 / T;
	for (long i = 0; i < iters; i++) { double v = spin_work(200);
		for (;;) { while (atomic_load_explicit(&flag, memory_order_relaxed)) __builtin_ia32_pause();
			if (!atomic_exchange_explicit(&flag, 1, memory_order_acquire)) break; }
		acc += spin_work(600) + v; atomic_store_explicit(&flag, 0, memory_order_release); }
	return NULL; }
int main(int c, char **v) { T = c > 1 ? atoi(v[1]) : 1; run_threads(fn); printf("%g\n", acc); return 0; }
