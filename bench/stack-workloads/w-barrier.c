/* A workload for bench/stack-accept.sh, written apart from examples/stack/ (see that script). */
#include "common.h"
static pthread_barrier_t b;
/* 200 steps of 1.6 M units in all; each step one thread (rotating) gets three shares */
static void *fn(void *a) { long id = (long)a; double x = 0;
	for (int s = 0; s < 200; s++) { long w = 1600000 / (T + 2); if (s % T == id) w *= 3; x += spin_work(w); pthread_barrier_wait(&b); }
	sink = x; return NULL; }
int main(int c, char **v) { T = c > 1 ? atoi(v[1]) : 1; pthread_barrier_init(&b, NULL, T); run_threads(fn); return 0; }
