/* The instr probe (BlackjackBench §3.3): latency, throughput and operations in flight of add, sub,
 * mul, div and fma on each type and width the generated kernels cover (kernels.h), in core cycles
 * of the measured clock; FLOPs per cycle; published figures beside them where archscope has a
 * table for the CPU (published.h). */
#ifndef ARCHSCOPE_PROBE_INSTR_H
#define ARCHSCOPE_PROBE_INSTR_H

#include "common/error.h"
#include "probe/kernels.h"
#include "probe/memory.h"
#include "probe/probe.h"
#include "probe/published.h"
#include "probe/split.h"

/* One operation on one type. */
struct probe_instr_op {
	const struct instr_set *set;
	/* Measured (probe_instr_run). */
	double lat_ns;                         /* per operation: median of six differences */
	double lat_cy;                         /* the same in core cycles, each run's difference at the
						* clock of an add chain timed beside it (0: none) */
	double op_ns[INSTR_MAX_STREAMS];       /* per operation with s streams, fastest run */
	double iter_ns[INSTR_MAX_STREAMS];     /* per loop iteration with s streams */
	int nstreams;                          /* stream counts measured: 1..nstreams */
	/* From the curves (probe_instr_op_analyze). */
	double min_op_ns;                      /* the throughput's time per operation */
	int best_streams;                      /* the stream count that reached it */
	int in_flight;                         /* streams before the knee of iter_ns */
	double in_flight_conf;
	double clock_ghz;                      /* clock_window_between() of the brackets before and after this
						* operation's runs (0: none; env->clock_ghz stands in) */
};

/* Measures one operation: latency from chains of instr_chain and instr_chain_long operations,
 * the cost per iteration of 1..20 independent streams (1..12 with quick). Returns 0, -EINTR
 * when stopped before two stream counts, -EINVAL when the set has no kernel. */
int probe_instr_run(const struct probe_opts *o, const struct instr_set *set, struct probe_instr_op *r,
		    struct as_error *err);

/* From the measured curves: the throughput (the fastest time per operation over the stream
 * counts) and the operations in flight (steps_knee_proportional on iter_ns). */
void probe_instr_op_analyze(struct probe_instr_op *r);

enum { INSTR_SP, INSTR_DP };
enum { INSTR_SCALAR, INSTR_VECTOR };
enum { INSTR_FLOPS_TOTAL, INSTR_FLOPS_ADD, INSTR_FLOPS_MUL, INSTR_FLOPS_FMA };

struct machine_probes;

/* What the probe works on: the operations measured and the published figures of this CPU. The
 * answers and evidence are in the record (machine/probes.h: instr.ops[], flops, line_split,
 * instr's evidence). */
struct probe_instr_result {
	struct probe_instr_op *op;       /* nops operations, in instr_sets order */
	size_t nops;
	int have_published;              /* archscope has a table for this CPU */
	struct published_cpu published;
	struct probe_split_result split; /* line-crossing vector loads and stores (split.h) */
};

void probe_instr_result_init(struct probe_instr_result *r);
void probe_instr_result_release(struct probe_instr_result *r);

/* Measures every operation of instr_sets (progress before each; may be NULL) and answers into
 * rec (probe_instr_analyze, then the clock brackets and whether it was interrupted), beside the
 * published figures of this CPU. Needs env->clock_ghz (-EINVAL without, rec left as it was).
 * Records env->flops_per_cy (the vector row). *work is initialised here; release it also after an
 * error, which keeps the operations measured before it (recorded unless work->op is NULL).
 * Returns 0 (also when interrupted: instr_ev.incomplete) or a negative errno (err says what
 * failed). */
int probe_instr_find(struct probe_env *env, probe_progress_fn *progress, struct probe_instr_result *work,
		     struct machine_probes *rec, struct as_error *err);

/* The statistics of probe_instr_find on operations already measured and analysed (recorded
 * curves in tests), at env->clock_ghz, with work->published when work->have_published, into the
 * instr group of rec (what it held before released): each operation's cycles, throughput and
 * relative latency with its published figures, FLOPs per cycle, the line-crossing accesses of
 * work->split, the sources and how many rows each agrees with. Records env->flops_per_cy. 0 or
 * -ENOMEM (an operation's cost curve not recorded). */
int probe_instr_analyze(struct probe_env *env, const struct probe_instr_result *work, struct machine_probes *rec);

#endif
