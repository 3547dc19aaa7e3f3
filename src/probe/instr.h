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
	/* At the measured clock, and beside the published figures (probe_instr_analyze). */
	double clock_ghz;                      /* clock_window_between() of the brackets before and after this
						* operation's runs (0: none; env->clock_ghz stands in) */
	double latency_cy, cy_per_op, throughput_per_cy;
	double relative_to_int32_add;          /* latency over the int32 add latency */
	const struct published_op *published;  /* NULL: no figures for this operation */
	int within[PUBLISHED_SOURCES];         /* latency and cycles per operation both within 1 cy of the
						* source's: 1 yes, 0 no, -1 the source has no figure */
	int within_any;                        /* of at least one source */
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

struct probe_instr_result {
	struct probe_instr_op *op;       /* nops operations, in instr_sets order */
	size_t nops;
	double clock_ghz;                /* env->clock_ghz, the clock probe's */
	double window_min_ghz, window_max_ghz; /* the slowest and fastest clock bracket of the run: the
					  * cycles of each operation come from its own brackets */
	double int32_add_latency_ns;     /* the unit of the relative latencies; NAN: not measured */
	/* FLOPs per core cycle, throughput x lanes x flops per operation: [SP/DP][scalar/vector]
	 * [total/ADD/MUL/FMA], total the best of the three (each operation runs alone, no mixes). */
	double flops_per_cy[2][2][4];
	int have_published;              /* archscope has a table for this CPU */
	struct published_cpu published;
	int rows_compared, rows_within;  /* operations with figures; of them within 1 cy of a source */
	int src_rows[PUBLISHED_SOURCES], src_within[PUBLISHED_SOURCES]; /* per source */
	struct probe_split_result split; /* line-crossing vector loads and stores (split.h) */
	int incomplete;                  /* stopped by env->interrupted */
};

void probe_instr_result_init(struct probe_instr_result *r);
void probe_instr_result_release(struct probe_instr_result *r);

/* Measures every operation of instr_sets (progress before each; may be NULL) and answers,
 * beside the published figures of this CPU. Needs env->clock_ghz (-EINVAL without). Records
 * env->flops_per_cy (the vector row). *out is initialised here; release it also after an error,
 * which keeps the operations measured before it. Returns 0 (also when interrupted: out->incomplete)
 * or a negative errno (err says what failed). */
int probe_instr_find(struct probe_env *env, probe_progress_fn *progress, struct probe_instr_result *out,
		     struct as_error *err);

/* The statistics of probe_instr_find on operations already measured and analysed (recorded
 * curves in tests), at env->clock_ghz, with r->published when r->have_published: cycles,
 * relative latencies, FLOPs per cycle, agreement with the published figures. Records
 * env->flops_per_cy. */
void probe_instr_analyze(struct probe_env *env, struct probe_instr_result *r);

#endif
