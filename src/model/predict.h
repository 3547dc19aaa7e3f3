/* Cache predictors (paper §2.4): where the data of one cache line of work comes from. Both the
 * layer conditions (lc.c) and the cache simulator (sim.c) fill a cache_traffic, which
 * the models (ecm.c, roofline.c) turn into cycles. "Per cache line of work" = the iterations
 * of the innermost loop that write one cache line of results: 8 for double, 16 for float. */
#ifndef ARCHSCOPE_MODEL_PREDICT_H
#define ARCHSCOPE_MODEL_PREDICT_H

#include "machine/machine.h"
#include "model/kernel.h"

struct level_traffic {
	char name[16];
	double size_bytes;          /* the share of one core (shared caches divided among the cores) */
	/* accesses per iteration of the innermost loop */
	double loads, stores, hits, misses;
	/* cache lines per cache line of work: fetched from the next level, and written back to it */
	double lines_in, lines_out;
};

struct cache_traffic {
	int nlevels;                /* cache levels, L1 first */
	struct level_traffic level[MACHINE_MAX_LEVELS];
	double iterations_per_cl;   /* innermost iterations per cache line of work */
};

/* The cache size one of `cores` cores gets at level L (shared levels are divided). */
double predict_share(const struct machine_level *L, int cores);

#endif
