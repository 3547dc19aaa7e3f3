/* The cache-line probe, with three witnesses: the stride witness of BlackjackBench §3.1.1 (pair
 * latency against the distance D between the two accesses of a pair), which spatial prefetchers can
 * fool (AMD Zen 4 and 5 fetch the neighbouring lines of a region: it sees 256 B), and two that
 * prefetchers cannot move: the coherence unit (probe/sharing.h: two cores updating counters D
 * bytes apart contend until D reaches the line; needs two CPUs) and the flush witness
 * (probe/flush.h: flushing the line D bytes away evicts a loaded line until D reaches the line;
 * needs one CPU and a flush instruction). The answer is what those two say; it says when it
 * rests on one of them (lower confidence, the reason) and when the stride witness disagrees. */
#ifndef ARCHSCOPE_PROBE_LINE_H
#define ARCHSCOPE_PROBE_LINE_H

#include "probe/flush.h"
#include "probe/memory.h"
#include "probe/sharing.h"

/* Average latency of access pairs D bytes apart at random places, D = 16..512 B. */
int probe_line_run(const struct probe_opts *o, struct probe_curve *out, struct as_error *err);

/* What the line probe measures before it answers (the record keeps copies of the curves as its
 * evidence). A zeroed struct is empty but for sharing_cpus: use probe_line_work_init. */
struct probe_line_work {
	struct probe_curve curve;      /* the stride witness's curve, x: D in bytes */
	struct sharing_curve sharing;  /* the coherence witness's curve; n = 0 when not measured */
	int sharing_cpus[2];           /* its two CPUs (-1: none) */
	struct probe_curve flush_curve; /* the flush witness's curve (x: D in bytes, ns per reload);
					 * n = 0 when not measured */
	char coherence_why[400];       /* why a witness was not measured ("": it was, or not said) */
	char flush_why[400];
};

void probe_line_work_init(struct probe_line_work *w);
void probe_line_work_release(struct probe_line_work *w);

/* Measures the curves and answers into rec (probe_line_analyze): the line, its three witnesses
 * (each NAN with the reason where it found none), the witnesses the answer rests on and the
 * evidence; the group present when it succeeds. Records env->line_bytes (NAN when no step).
 * progress may be NULL. Returns 0 or a negative errno (err says what failed; the group is then
 * absent from rec). */
int probe_line_find(struct probe_env *env, probe_progress_fn *progress, struct machine_probes *rec,
		    struct as_error *err);

/* The statistics of probe_line_find on w's curves, already measured (recorded curves in tests;
 * n = 0 for a witness not measured): sets the answers, the witnesses and the evidence of the
 * line group in rec (what it held before released) and records env->line_bytes and
 * env->line_witnesses; env->topo may be NULL. 0 or -ENOMEM. */
int probe_line_analyze(struct probe_env *env, const struct probe_line_work *w, struct machine_probes *rec);

/* The line size the other memory probes space their slots by: env->line_bytes when known, else
 * a quick line probe (its evidence dropped; env->line_witnesses says how many witnesses it rests
 * on and env->line_note why not two), else 64 B assumed. Returns 0 when the line was
 * known or measured; 1 when 64 B is assumed because the curve showed no step; a negative errno
 * when the probe failed (err says why; 64 B is assumed too). */
int probe_line_need(struct probe_env *env, probe_progress_fn *progress, struct as_error *err);

#endif
