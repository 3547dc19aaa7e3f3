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

struct probe_line_result {
	struct probe_answer line;  /* B; os_reported: the L1 data cache's line as the OS says */
	struct probe_answer stride;    /* witness 1: the step of the pair curve */
	struct probe_answer coherence; /* witness 2: the coherence unit; NAN when not measured
					* (one CPU allowed, no contrast), reason says why */
	struct probe_answer flush;     /* witness 3: the flush witness; NAN when not measured (no
					* flush instruction, no contrast), reason says why */
	int witnesses;             /* prefetcher-proof witnesses (coherence, flush) the answer rests
				    * on: 2, 1, or 0 (the stride witness alone) */
	int step_index;            /* the step lies between curve points i and i+1; -1: none */
	double step_before_ns;     /* monotone latency per access on either side of the step */
	double step_after_ns;
	struct probe_curve curve;  /* x: D in bytes */
	struct sharing_curve sharing; /* the coherence witness's curve; n = 0 when not measured */
	int sharing_cpus[2];
	double sharing_ratio;      /* contended / uncontended time per increment */
	struct probe_curve flush_curve; /* the flush witness's curve (x: D in bytes, ns per reload);
					 * n = 0 when not measured */
	double flush_ratio;        /* reload time: same line / other line */
};

void probe_line_result_init(struct probe_line_result *r);
void probe_line_result_release(struct probe_line_result *r);

/* Measures the curve and answers: the D before the biggest relative step of the monotone curve.
 * Records env->line_bytes (NAN when no step). *out is initialised here; release it also after an
 * error. progress may be NULL. Returns 0 or a negative errno (err says what failed). */
int probe_line_find(struct probe_env *env, probe_progress_fn *progress, struct probe_line_result *out,
		    struct as_error *err);

/* The statistics of probe_line_find on r->curve, r->sharing and r->flush_curve, already measured
 * (recorded curves in tests; n = 0 for a witness not measured): fills the witnesses and the
 * answer and records env->line_bytes and env->line_witnesses; env->topo may be NULL. 0 or
 * -ENOMEM. */
int probe_line_analyze(struct probe_env *env, struct probe_line_result *r);

/* The line size the other memory probes space their slots by: env->line_bytes when known, else
 * a quick line probe (its evidence dropped; env->line_witnesses says how many witnesses it rests
 * on and env->line_note why not two), else 64 B assumed. Returns 0 when the line was
 * known or measured; 1 when 64 B is assumed because the curve showed no step; a negative errno
 * when the probe failed (err says why; 64 B is assumed too). */
int probe_line_need(struct probe_env *env, probe_progress_fn *progress, struct as_error *err);

#endif
