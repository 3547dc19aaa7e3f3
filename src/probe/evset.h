/* The ways of a physically indexed level when pages do not keep set alignment (virtual machines,
 * no huge pages): the pages that conflict in the level are found by measurement (an eviction set),
 * never from physical addresses, and the K sweep of §3.1.3 runs on them. */
#ifndef ARCHSCOPE_PROBE_EVSET_H
#define ARCHSCOPE_PROBE_EVSET_H

#include "probe/memory.h"

struct probe_evset_result {
	double ways;              /* ways the K sweep shows, NAN when none */
	double confidence;        /* of the sweep's step, 0 when the check failed */
	int class_pages;          /* pages found that map to one set group of the level (congruent) */
	int minimal_pages;        /* size of the smallest self-evicting set found: ways + 1 */
	double hit_ns, miss_ns;   /* the check: walk over minimal - 1 pages, and over all minimal */
	int tests;                /* walks timed */
	struct probe_curve curve; /* x: K congruent pages (plus the L1 flushers), y: ns per access */
	char reason[200];         /* why no answer, when ways is NAN */
};

void probe_evset_result_init(struct probe_evset_result *r);
void probe_evset_result_release(struct probe_evset_result *r);

/* Finds one class of congruent pages for the level of level_bytes whose misses go to next_ns: a
 * pool of 2 x level_bytes of 4 KiB pages in random order, the shortest prefix that overflows some
 * set (a prefix search), reduced to the pages that make it overflow (the smallest self-evicting
 * set, ways + 1 pages), checked (the whole set misses, every one-smaller subset hits), extended
 * from the pool, then swept with K congruent pages beside flusher pages that keep the lower level
 * missing. lower_ways: the lower level's ways (NAN: unknown). 0 with an answer or a reason, or a
 * negative errno. */
int probe_evset_ways(const struct probe_opts *o, size_t level_bytes, size_t line, double next_ns, double lower_ways,
		     struct probe_evset_result *out, struct as_error *err);

/* The same search with the walks answered by walk (ns per access of a cyclic walk over the pages
 * listed, page numbers below npool) instead of timed: the tests run it on simulated caches. */
typedef double probe_evset_walk_fn(void *ctx, const size_t *pages, size_t n);
int probe_evset_search(probe_evset_walk_fn *walk, void *ctx, const struct probe_opts *o, size_t npool, double next_ns,
		       double lower_ways, struct probe_evset_result *out, struct as_error *err);

/* The decision rule on one walk's time, shared with the tests: a set overflows when its time per
 * access exceeds base_ns by more than the fraction tau. */
int probe_evset_overflows(double walk_ns, double base_ns, double tau);

/* The ways a K sweep shows (y[k-1]: ns per access with K = k congruent pages): the K before the
 * first point that stands above the median of the points before it by max(15 %, 3 tau) and after
 * which every point does; NAN when none. *step: that point's rise over the median. */
double probe_evset_sweep_ways(const double *y, size_t n, double tau, double *step);

#endif
