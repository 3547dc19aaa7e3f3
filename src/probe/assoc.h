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

#define ASSOC_SWEEPS 3  /* sweeps of a level whose curve shows no step (1 with --quick) */

/* Keeps in `into` the pointwise fastest of it and `other` (same K values; the common prefix). */
void probe_curve_merge_min(struct probe_curve *into, const struct probe_curve *other);

/* Measures every cache level of env (first the levels, probe_caches_need, and the line,
 * probe_line_need, when env has none) and answers each into rec's assoc table: steps_assoc_ways
 * between the level's latency and the next one's; a level above the first without a step gets the
 * congruent-pages witness (evset.h), whose answer then stands, with the method saying so, and its
 * figures and curve as the row's evidence. The table holds the levels measured (fewer than
 * env->nlevels after an interrupt); the group is present when it succeeds. Records
 * env->level_ways[i] for every level, NAN where none was found or measured. progress may be NULL.
 * Returns 0, -ENOENT when no cache level could be measured, or another negative errno (err says
 * what failed; the group is then absent from rec). */
int probe_assoc_find(struct probe_env *env, probe_progress_fn *progress, struct machine_probes *rec,
		     struct as_error *err);

/* The statistics of probe_assoc_find for level i (0-based) on curve (x: K), already measured
 * (recorded curves in tests), with env->level_ns and memory_ns as the latencies of the level and
 * the next: sets rec->assoc[i]'s ways (NAN with the reason when no honest step; os_reported the
 * OS's ways) and its curve (the table then holds row i), and records env->level_ways[i]; env->topo
 * may be NULL. 0 or -ENOMEM. */
int probe_assoc_analyze(struct probe_env *env, int i, const struct probe_curve *curve, struct machine_probes *rec);

#endif
