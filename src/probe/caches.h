/* The cache-hierarchy probe (BlackjackBench §3.1.2): the curve of latency per access against the
 * buffer size of a page-segmented random chase, and the levels, sizes and latencies it shows. */
#ifndef ARCHSCOPE_PROBE_CACHES_H
#define ARCHSCOPE_PROBE_CACHES_H

#include "probe/memory.h"

/* Latency of a page-segmented random chase against buffer size, from 1 KiB until the curve has
 * been flat for over an octave at >= 4x the last step (capped at max_bytes). */
int probe_caches_run(const struct probe_opts *o, size_t line, size_t max_bytes, struct probe_curve *out,
		     struct as_error *err);

/* How the probe runs; NULL to probe_caches_find takes huge pages and max_bytes 0. */
struct probe_caches_params {
	enum huge_policy huge;
	size_t max_bytes;             /* 0: 256 MiB quick, else 1 GiB; at most a quarter of the free memory */
};

/* What the caches probe measures before it answers (the record keeps a copy of the curve as its
 * evidence, and the settings). */
struct probe_caches_work {
	size_t line_bytes;            /* the slot spacing */
	enum huge_policy huge;
	int passes;
	double window_ghz[2];         /* the clock brackets before and after the run (0: none) */
	struct probe_curve curve;     /* x: buffer size in bytes */
};

/* Measures the curve (first the line size, probe_line_need, when env has none) and answers into
 * rec (probe_caches_analyze). progress may be NULL. Returns 0 or a negative errno (err says what
 * failed; the group then stays as it was in rec). */
int probe_caches_find(struct probe_env *env, probe_progress_fn *progress, const struct probe_caches_params *params,
		      struct machine_probes *rec, struct as_error *err);

/* The statistics of probe_caches_find on w->curve, already measured (recorded curves in tests),
 * with the clock of w's brackets (else env->clock_ghz) for cycles: QT clusters of the monotone
 * curve are the levels, each level's size its edge halfway to the next (steps_hierarchy), the last
 * plateau memory. Sets the caches group in rec (levels, the page-local memory latency, the
 * evidence; the random-pattern latency none until probe_caches_random) and records env->nlevels,
 * level_bytes, level_ns and memory_ns; env->topo may be NULL. 0 or -ENOMEM. */
int probe_caches_analyze(struct probe_env *env, const struct probe_caches_work *w, struct machine_probes *rec);

/* The memory latency of the other pattern, beside the caches curve's page-local one: every line
 * of a buffer of max(1 GiB, the recorded curve's largest size) (256 MiB with quick; at most a
 * quarter of the available memory) on huge pages in one random cycle, so every access opens
 * another DRAM page and no prefetcher can follow (2 MiB pages keep the TLB out of it). Sets rec's
 * memory_latency_random (with cycles at the caches clock) and its evidence. Costs about 3 s for
 * 1 GiB (linking 16 M lines in random order). 0 or a negative errno (err says what failed). */
int probe_caches_random(struct probe_env *env, probe_progress_fn *progress, struct machine_probes *rec,
			struct as_error *err);

/* For the caches plot: per point of the recorded curve c, its monotone latency and its QT cluster
 * (25 % diameter; 0 when none), both malloc'd (free them). 0 or -ENOMEM. */
int probe_caches_clusters(const struct machine_probes_curve *c, double **monotone, int **cluster);

/* The cache levels later probes build on: nothing when env has them, else a quick caches probe
 * whose levels are recorded in env (its evidence dropped). 0 or the probe's negative errno. */
int probe_caches_need(struct probe_env *env, probe_progress_fn *progress, struct as_error *err);

#endif
