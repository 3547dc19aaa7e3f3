/* A workload for bench/stack-accept.sh, written apart from examples/stack/ (see that script). */
#include "common.h"
static void *fn(void *a) { (void)a; sink = spin_work(300000000L / T); return NULL; }
int main(int c, char **v) { T = c > 1 ? atoi(v[1]) : 1; run_threads(fn); return 0; }
