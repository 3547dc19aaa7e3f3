/* The cache-hierarchy probe (BlackjackBench §3.1.2): the curve of latency per access against the
 * buffer size of a page-segmented random chase, and the levels, sizes and latencies it shows. */
#ifndef ARCHSCOPE_PROBE_CACHES_H
#define ARCHSCOPE_PROBE_CACHES_H

#include "probe/memory.h"

/* Latency of a page-segmented random chase against buffer size, from 1 KiB until the curve has
 * been flat for over an octave at >= 4x the last step (capped at max_bytes). */
int probe_caches_run(const struct probe_opts *o, size_t line, size_t max_bytes, struct probe_curve *out,
		     struct as_error *err);

struct probe_cache_level {
	struct probe_answer size;     /* B; os_reported: the OS's data cache of this level */
	struct probe_answer latency;  /* ns: the smallest latency in the level's QT cluster */
	double latency_cy;            /* at the measured clock; NAN without one */
	double qt_max_x;              /* the paper's size: the largest buffer in the cluster */
	size_t points;
};

/* How the probe runs; NULL to probe_caches_find takes huge pages and max_bytes 0. */
struct probe_caches_params {
	enum huge_policy huge;
	size_t max_bytes;             /* 0: 256 MiB quick, else 1 GiB; at most a quarter of the free memory */
};

struct probe_caches_result {
	int nlevels;
	struct probe_cache_level level[PROBE_MAX_LEVELS];
	struct probe_answer memory;   /* ns: the largest buffer's latency, NAN when no memory plateau
				       * was reached within max_bytes: the page-local pattern (the lines
				       * of a 4 KiB page one after another in random order, so DRAM pages
				       * stay open and prefetchers help), JSON caches.memory_latency */
	double memory_cy;             /* NAN without a memory plateau or a measured clock */
	struct probe_answer memory_random; /* ns: fully random chase over memory_random_bytes on huge
					    * pages (probe_caches_random); NAN when not measured */
	double memory_random_cy;
	size_t memory_random_bytes;
	double memory_random_huge;    /* fraction of that buffer on huge pages (NAN: unknown) */
	double clock_ghz;             /* the clock the cycles are at: clock_window_between() of the brackets, else
				       * env->clock_ghz; 0: none measured */
	double window_ghz[2];         /* the clock brackets before and after the run (0: none) */
	size_t line_bytes;            /* the slot spacing */
	int line_assumed;             /* no line size could be measured: 64 B assumed */
	enum huge_policy huge;
	int passes;
	size_t max_bytes;
	struct probe_curve curve;     /* x: buffer size in bytes */
	double *monotone_ns;          /* the monotone curve the levels come from (curve.n points) */
	int *cluster;                 /* per point: its QT cluster of the monotone curve (plots) */
};

void probe_caches_result_init(struct probe_caches_result *r);
void probe_caches_result_release(struct probe_caches_result *r);

/* Measures the curve (first the line size, probe_line_need, when env has none) and answers: QT
 * clusters of the monotone curve are the levels, each level's size its edge halfway to the next
 * (steps_hierarchy), the last plateau memory. Records env->nlevels, level_bytes, level_ns and
 * memory_ns. *out is initialised here; release it also after an error. progress may be NULL.
 * Returns 0 or a negative errno (err says what failed). */
int probe_caches_find(struct probe_env *env, probe_progress_fn *progress, const struct probe_caches_params *params,
		      struct probe_caches_result *out, struct as_error *err);

/* The statistics of probe_caches_find on r->curve, already measured (recorded curves in tests),
 * with env->clock_ghz for cycles: fills the levels and records them in env; env->topo may be
 * NULL. 0 or -ENOMEM. */
int probe_caches_analyze(struct probe_env *env, struct probe_caches_result *r);

/* The memory latency of the other pattern, beside the caches curve's page-local one: every line
 * of a buffer of max(1 GiB, r->curve's largest size) (256 MiB with quick; at most a quarter of the
 * available memory) on huge pages in one random cycle, so every access opens another DRAM page and
 * no prefetcher can follow (2 MiB pages keep the TLB out of it). Fills r->memory_random (with
 * cycles at r->clock_ghz). Costs about 3 s for 1 GiB (linking 16 M lines in random order). 0 or
 * a negative errno (err says what failed). */
int probe_caches_random(struct probe_env *env, probe_progress_fn *progress, struct probe_caches_result *r,
			struct as_error *err);

/* The cache levels later probes build on: nothing when env has them, else a quick caches probe
 * whose levels are recorded in env (its evidence dropped). 0 or the probe's negative errno. */
int probe_caches_need(struct probe_env *env, probe_progress_fn *progress, struct as_error *err);

#endif
