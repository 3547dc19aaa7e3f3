/* A workload for bench/stack-accept.sh, written apart from examples/stack/ (see that script). */
#include "common.h"
static void *fn(void *a) { long id = (long)a; long shares = (long)T * (T + 1) / 2;
	sink = spin_work(300000000L / shares * (id + 1)); return NULL; }
int main(int c, char **v) { T = c > 1 ? atoi(v[1]) : 1; run_threads(fn); return 0; }
