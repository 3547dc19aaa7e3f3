/* The coherence unit, a second witness of the cache line that prefetchers cannot fool: two
 * threads pinned to different CPUs each increment their own counter, the counters D bytes apart.
 * While D is below the coherence unit both counters share a line, which moves between the cores on
 * every increment; from D = line size on they do not, and the increments run at core speed. */
#ifndef ARCHSCOPE_PROBE_SHARING_H
#define ARCHSCOPE_PROBE_SHARING_H

#include <stdint.h>

#include "common/error.h"

#define SHARING_MAX_POINTS 16

struct sharing_curve {
	int n;
	double d_bytes[SHARING_MAX_POINTS];   /* 8, 16, 32, ..., 1024 */
	double min_ns[SHARING_MAX_POINTS];    /* per increment of the slower thread, fastest repetition */
	double median_ns[SHARING_MAX_POINTS]; /* the same, median repetition: the answer's curve, since
					       * a repetition where the hypervisor stopped one thread
					       * shows no contention and would be the fastest */
};

/* Runs D = 8 .. 1024 B (powers of two) with the threads on cpu_a and cpu_b (different CPUs),
 * reps repetitions per point; in each both threads increment during the same window_ns. *stop (may be NULL) ends the sweep
 * early with the points measured so far. Returns 0 or a negative errno. */
int probe_sharing_run(int cpu_a, int cpu_b, int reps, uint64_t window_ns, volatile int *stop,
		      struct sharing_curve *out, struct as_error *err);

#endif
