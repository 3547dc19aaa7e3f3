/* The cache-line probe, with two witnesses: the stride witness of BlackjackBench §3.1.1 (pair
 * latency against the distance D between the two accesses of a pair), which spatial prefetchers can
 * fool (AMD Zen 5 fetches the neighbouring lines of a 256 B region: it sees 256 B), and the
 * coherence unit (probe/sharing.h: two cores updating counters D bytes apart contend until D
 * reaches the line), which prefetchers cannot move. The answer is the coherence unit where it was
 * measured; the confidence drops, with the reason, when the witnesses disagree. */
#ifndef ARCHSCOPE_PROBE_LINE_H
#define ARCHSCOPE_PROBE_LINE_H

#include "probe/memory.h"
#include "probe/sharing.h"

/* Average latency of access pairs D bytes apart at random places, D = 16..512 B. */
int probe_line_run(const struct probe_opts *o, struct probe_curve *out, struct as_error *err);

struct probe_line_result {
	struct probe_answer line;  /* B; os_reported: the L1 data cache's line as the OS says */
	struct probe_answer stride;    /* witness 1: the step of the pair curve */
	struct probe_answer coherence; /* witness 2: the coherence unit; NAN when not measured
					* (one CPU allowed, no contrast), reason says why */
	int step_index;            /* the step lies between curve points i and i+1; -1: none */
	double step_before_ns;     /* monotone latency per access on either side of the step */
	double step_after_ns;
	struct probe_curve curve;  /* x: D in bytes */
	struct sharing_curve sharing; /* the coherence witness's curve; n = 0 when not measured */
	int sharing_cpus[2];
	double sharing_ratio;      /* contended / uncontended time per increment */
};

void probe_line_result_init(struct probe_line_result *r);
void probe_line_result_release(struct probe_line_result *r);

/* Measures the curve and answers: the D before the biggest relative step of the monotone curve.
 * Records env->line_bytes (NAN when no step). *out is initialised here; release it also after an
 * error. progress may be NULL. Returns 0 or a negative errno (err says what failed). */
int probe_line_find(struct probe_env *env, probe_progress_fn *progress, struct probe_line_result *out,
		    struct as_error *err);

/* The statistics of probe_line_find on r->curve and r->sharing, already measured (recorded curves
 * in tests; r->sharing.n = 0 when there is no coherence curve): fills both witnesses and the
 * answer and records env->line_bytes; env->topo may be NULL. 0 or -ENOMEM. */
int probe_line_analyze(struct probe_env *env, struct probe_line_result *r);

/* The line size the other memory probes space their slots by: env->line_bytes when known, else
 * a quick line probe (its evidence dropped), else 64 B assumed. Returns 0 when the line was
 * known or measured; 1 when 64 B is assumed because the curve showed no step; a negative errno
 * when the probe failed (err says why; 64 B is assumed too). */
int probe_line_need(struct probe_env *env, probe_progress_fn *progress, struct as_error *err);

#endif
