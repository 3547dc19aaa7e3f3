/* The contexts probe (BlackjackBench §3.4): how many threads can do the same kind of work (FP
 * divisions, integer divisions, pointer chasing in L1) without slowing each other down. The
 * threads are deliberately not pinned, as the paper prescribes: the OS places them. */
#ifndef ARCHSCOPE_PROBE_CONTEXTS_H
#define ARCHSCOPE_PROBE_CONTEXTS_H

#include "common/error.h"
#include "probe/memory.h"
#include "probe/probe.h"

/* The kinds, once: CONTEXTS_<ID> and its name. */
#define CONTEXTS_LIST(X) X(FP, "fp") X(INT, "int") X(MEM, "mem")
enum contexts_kind {
#define X(id, name) CONTEXTS_##id,
	CONTEXTS_LIST(X)
#undef X
	CONTEXTS_KINDS
};

/* "fp", "int", "mem" */
const char *probe_contexts_kind_name(enum contexts_kind k);

/* M threads doing identical work (FP divisions, integer divisions, or pointer chasing in an
 * 8 KiB block that fits any L1), M = 1, 2, ... until the time normalised to M = 1 exceeds 2 or
 * M reaches max_threads. Curve: x = M, min_ns/median_ns = normalised time (unitless) over the
 * repetitions. The calling thread's affinity must allow every CPU the threads may use. */
int probe_contexts_run(const struct probe_opts *o, enum contexts_kind kind, int max_threads,
		       struct probe_curve *out, struct as_error *err);

/* The same with the team sizes of probe_contexts_search (plan.h): doubling M until the time
 * exceeds 1.5, then bisection between the last flat M and the next one measured, down to
 * neighbours: O(log N) team sizes where the full sweep takes 2N. The curve holds each size once,
 * in increasing M (an ambiguous size measured twice keeps its faster figure); *teams counts the
 * team sizes measured, those measured twice included. */
int probe_contexts_search_run(const struct probe_opts *o, enum contexts_kind kind, int max_threads,
			      struct probe_curve *out, int *teams, struct as_error *err);

struct machine_probes;

/* How the team sizes were chosen (the record's contexts.search). */
#define PROBE_CONTEXTS_SEARCH_ALL "every team size"
#define PROBE_CONTEXTS_SEARCH_BISECT "doubling, then bisection"

/* What the probe works on: the measured curves (the record keeps them as evidence, with the
 * answers: machine/probes.h, contexts.fp, .int, .mem). */
struct probe_contexts_result {
	int max_threads;               /* threads tried at most; 0 when nothing ran */
	int nkinds;                    /* kinds measured, in enum order */
	struct probe_curve curve[CONTEXTS_KINDS]; /* x: threads M; min/median: time normalised to M = 1 */
};

void probe_contexts_result_init(struct probe_contexts_result *r);
void probe_contexts_result_release(struct probe_contexts_result *r);

/* The record's entry (MP_CONTEXTS_FP, _INT, _MEM) of a kind; its evidence is contexts_ev[kind]. */
int probe_contexts_entry(enum contexts_kind kind);

/* Widens the calling thread's CPU set to env->allowed, measures each kind (progress before each
 * point; may be NULL) with up to 2 x allowed + 2 threads (at most AS_MAX_CPUS) by the search (every
 * team size with env->all_teams), answers it into rec (the group recorded before is released: a
 * re-measurement), and pins the thread back to env->cpu. Records env->contexts_fp, _int, _mem
 * (NAN: no step). *work is initialised here; release it also after an error, which keeps the
 * kinds measured before it (recorded; none when work->max_threads is 0, rec then left as it was).
 * Returns 0 (also when interrupted) or a negative errno. */
int probe_contexts_find(struct probe_env *env, probe_progress_fn *progress, struct probe_contexts_result *work,
			struct machine_probes *rec, struct as_error *err);

/* The statistics of probe_contexts_find on a kind's curve c, already measured (recorded curves in
 * tests; x increasing, every M or the search's sparse ones), into the kind's answer and evidence
 * in rec (the curve, the shape past the last context: "jump", "ramp" or "flat"): on the monotone
 * curve, steps relative and per thread added (y[i+1] / y[i] - 1) / (x[i+1] - x[i]); a jump (the
 * biggest at least 0.3) is the first step above their mean and at least half the biggest, and the
 * answer the M before it; a ramp is the knee C of max(1, M / C) fitted to every point, and the
 * answer C; a curve flat to the end (the time never 10 % above M = 1) has no step (at least as many
 * contexts as threads tried). On a curve of every M these are the steps of §4.2.1. os_reported
 * from env->topo, else env->allowed (NAN when neither). Records the env slot of the kind. 0 or
 * -ENOMEM. */
int probe_contexts_analyze(struct probe_env *env, enum contexts_kind kind, const struct probe_curve *c,
			   struct machine_probes *rec);

/* The normalised time of a team: each repetition's time (team_ns[i]) over the one-thread
 * reference run timed beside it (ref_ns[i]); the fastest ratio and the median (issue 47 item 4:
 * a burst of other work or a clock change that spans both moves neither). */
void probe_contexts_ratios(const double *team_ns, const double *ref_ns, int reps, double *best, double *med);

#endif
