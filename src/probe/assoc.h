/* The associativity probe (BlackjackBench §3.1.3): per measured cache level, the curve of latency
 * per access against the number K of addresses that map to the same set, and the ways it shows. */
#ifndef ARCHSCOPE_PROBE_ASSOC_H
#define ARCHSCOPE_PROBE_ASSOC_H

#include "probe/evset.h"
#include "probe/memory.h"

/* Latency of K addresses level_bytes apart in several sets, K = 1..max_k; the sets are spread so
 * that even K = 1 overflows a lower level of lower_bytes. */
int probe_assoc_run(const struct probe_opts *o, size_t level_bytes, size_t lower_bytes, size_t line,
		    int max_k, struct probe_curve *out, struct as_error *err);

struct probe_assoc_level {
	struct probe_answer ways;  /* ways; NAN when no honest step; os_reported: the OS's ways */
	double level_bytes;        /* the level's measured size, the distance between the K addresses */
	int step_index;            /* the step lies between curve points i and i+1; -1: none */
	double step_before_ns;     /* monotone latency per access on either side of the step */
	double step_after_ns;
	struct probe_curve curve;  /* x: K */
	int sweeps;                /* sweeps run; the curve is their pointwise fastest (see probe_assoc_find) */
	int evset_tried;           /* the sweep found no step and the congruent-pages witness ran */
	struct probe_evset_result evset;
};

struct probe_assoc_result {
	int nlevels;               /* levels measured: fewer than env->nlevels after an interrupt */
	struct probe_assoc_level level[PROBE_MAX_LEVELS];
	int line_assumed;          /* no line size could be measured: 64 B assumed */
};

#define ASSOC_SWEEPS 3  /* sweeps of a level whose curve shows no step (1 with --quick) */

/* Keeps in `into` the pointwise fastest of it and `other` (same K values; the common prefix). */
void probe_curve_merge_min(struct probe_curve *into, const struct probe_curve *other);

void probe_assoc_result_init(struct probe_assoc_result *r);
void probe_assoc_result_release(struct probe_assoc_result *r);

/* Measures every cache level of env (first the levels, probe_caches_need, and the line,
 * probe_line_need, when env has none) and answers each: steps_assoc_ways between the level's
 * latency and the next one's; a level above the first without a step gets the congruent-pages
 * witness (evset.h), whose answer then stands, with the method saying so. Records env->level_ways[i] for every level, NAN where none was
 * found or measured. *out is initialised here; release it also after an error. progress may be
 * NULL. Returns 0, -ENOENT when no cache level could be measured, or another negative errno
 * (err says what failed). */
int probe_assoc_find(struct probe_env *env, probe_progress_fn *progress, struct probe_assoc_result *out,
		     struct as_error *err);

/* The statistics of probe_assoc_find for level i (0-based) on l->curve, already measured
 * (recorded curves in tests), with env->level_ns and memory_ns as the latencies of the level and
 * the next: fills l's answer and records env->level_ways[i]; env->topo may be NULL. 0 or
 * -ENOMEM. */
int probe_assoc_analyze(struct probe_env *env, int i, struct probe_assoc_level *l);

#endif
