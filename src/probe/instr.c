/* The instr probe (BlackjackBench §3.3) on the generated kernels of probe/kernels.h: latency from
 * the difference of two unroll factors, throughput as the fastest time per operation over 1..20
 * independent streams, operations in flight at the knee of the cost per iteration; cycles at the
 * measured clock, FLOPs per cycle, and the published figures beside them. */
#include "probe/instr.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/order.h"
#include "analysis/steps.h"
#include "probe/clock.h"

static double target_ns(const struct probe_opts *o)
{
	return o->quick ? 150e3 : 600e3;
}

int probe_instr_run(const struct probe_opts *o, const struct instr_set *set, struct probe_instr_op *r,
		    struct as_error *err)
{
	memset(r, 0, sizeof(*r));
	r->set = set;
	if (!set->streams[0] || !set->lat_long) {
		return as_error_set(err, -EINVAL, "instr: %s %s has no kernel", set->op, set->type);
	}
	/* Latency: the same n through chains of instr_chain and instr_chain_long operations; six runs,
	 * the median difference per operation (a difference of two times is as likely to come out low
	 * as high when either is disturbed: a low order statistic of it is biased low;
	 * bench/results/design-measurements.md, latency-median). */
	uint64_t n = probe_kernel_calibrate(set->lat_long, target_ns(o));
	/* The clock interleaved with the chains: a dependent add chain as long as the short loop's
	 * chain, timed beside each pair, so each run's difference converts to core cycles at the
	 * clock of that moment. */
	uint64_t adds = n * (uint64_t)instr_chain;
	double d[6], dcy[6];
	int runs = o->quick ? 4 : 6;
	for (int i = 0; i < runs; i++) {
		/* Each run: the fastest of three of each loop, interleaved, so one preemption or a
		 * neighbour's burst does not make a difference of two noisy times. */
		double t_short = INFINITY, t_long = INFINITY, t_clock = INFINITY;
		for (int k = 0; k < 3; k++) {
			t_short = fmin(t_short, probe_kernel_ns(set->streams[0], n));
			t_long = fmin(t_long, probe_kernel_ns(set->lat_long, n));
			t_clock = fmin(t_clock, (double)clock_add_chain_ns(adds));
		}
		d[i] = (t_long - t_short) / ((double)n * (instr_chain_long - instr_chain));
		/* A short loop that is not bound by its chain (the loop's own work does not overlap a
		 * chain of 1-cycle adds on every core: Zen 5 ran it 1-2 cycles long per iteration) makes
		 * the difference too small; the long chain's time per operation, which is bound by its
		 * chain, is the latency then. */
		double per_short = t_short / ((double)n * instr_chain), per_long = t_long / ((double)n * instr_chain_long);
		if (per_short > 1.05 * per_long)
			d[i] = per_long;
		dcy[i] = t_clock > 0 ? d[i] * (double)((adds + 99) / 100 * 100) / t_clock : NAN;
	}
	r->lat_ns = order_median(d, (size_t)runs);
	r->lat_cy = order_median(dcy, (size_t)runs);

	int max_s = o->quick ? 12 : INSTR_MAX_STREAMS;
	int reps = o->quick ? 2 : 3;
	for (int s = 1; s <= max_s; s++) {
		if (probe_opts_stopped(o))
			break;
		probe_kernel_fn fn = set->streams[s - 1];
		uint64_t ns = probe_kernel_calibrate(fn, target_ns(o));
		double t = probe_kernel_best_ns(fn, ns, reps);
		r->iter_ns[s - 1] = t / (double)ns;
		r->op_ns[s - 1] = t / ((double)ns * s * instr_chain);
		r->nstreams = s;
	}
	if (r->nstreams < 2) {
		return as_error_set(err, -EINTR, "instr: interrupted");
	}
	return 0;
}

void probe_instr_op_analyze(struct probe_instr_op *r)
{
	r->min_op_ns = INFINITY;
	r->best_streams = 0;
	for (int s = 1; s <= r->nstreams; s++)
		if (r->op_ns[s - 1] < r->min_op_ns) {
			r->min_op_ns = r->op_ns[s - 1];
			r->best_streams = s;
		}
	r->in_flight = steps_knee_proportional(r->iter_ns, (size_t)r->nstreams, &r->in_flight_conf);
}

void probe_instr_result_init(struct probe_instr_result *r)
{
	memset(r, 0, sizeof(*r));
	r->int32_add_latency_ns = NAN;
}

void probe_instr_result_release(struct probe_instr_result *r)
{
	free(r->op);
	probe_instr_result_init(r);
}

/* Latency and cycles per operation against each source of the CPU's table. */
static void compare_published(struct probe_instr_result *res, struct probe_instr_op *r)
{
	const struct published_cpu *pc = &res->published;
	const struct instr_set *s = r->set;
	r->within_any = 0;
	for (int k = 0; k < PUBLISHED_SOURCES; k++)
		r->within[k] = -1;
	r->published = res->have_published ? probe_published_lookup(pc, s->op, s->type, s->lanes > 1, s->width_bits) : NULL;
	if (!r->published)
		return;
	/* The sources disagree by more than a cycle on some rows, so the row agrees when one does. */
	for (int k = 0; k < PUBLISHED_SOURCES; k++) {
		if (!pc->source[k] || !(r->published->latency_cy[k] > 0))
			continue;
		int w = fabs(r->latency_cy - r->published->latency_cy[k]) <= 1.0 &&
			fabs(r->cy_per_op - r->published->cy_per_op[k]) <= 1.0;
		r->within[k] = w;
		r->within_any |= w;
		res->src_rows[k]++;
		res->src_within[k] += w;
	}
	res->rows_compared++;
	res->rows_within += r->within_any;
}

void probe_instr_analyze(struct probe_env *env, struct probe_instr_result *r)
{
	double ghz = env->clock_ghz;
	r->clock_ghz = ghz;
	/* int32 add latency: the unit of BlackjackBench's relative figures. */
	r->int32_add_latency_ns = NAN;
	for (size_t i = 0; i < r->nops; i++) {
		const struct instr_set *s = r->op[i].set;
		if (!strcmp(s->op, "add") && !strcmp(s->type, "int32") && s->lanes == 1)
			r->int32_add_latency_ns = r->op[i].lat_ns;
	}
	memset(r->flops_per_cy, 0, sizeof(r->flops_per_cy));
	r->rows_compared = r->rows_within = 0;
	memset(r->src_rows, 0, sizeof(r->src_rows));
	memset(r->src_within, 0, sizeof(r->src_within));
	for (size_t i = 0; i < r->nops; i++) {
		struct probe_instr_op *op = &r->op[i];
		const struct instr_set *s = op->set;
		double g = op->clock_ghz > 0 ? op->clock_ghz : ghz;
		op->latency_cy = op->lat_cy > 0 ? op->lat_cy : op->lat_ns * g;
		op->cy_per_op = op->min_op_ns * g;
		op->throughput_per_cy = 1.0 / op->cy_per_op;
		op->relative_to_int32_add = op->lat_ns / r->int32_add_latency_ns;
		compare_published(r, op);
		if (s->is_float) {
			double *f = r->flops_per_cy[s->width_bits / s->lanes == 64 ? INSTR_DP : INSTR_SP]
						   [s->lanes > 1 ? INSTR_VECTOR : INSTR_SCALAR];
			double v = op->throughput_per_cy * s->lanes * s->flops;
			if (!strcmp(s->op, "add"))
				f[INSTR_FLOPS_ADD] = v;
			else if (!strcmp(s->op, "mul"))
				f[INSTR_FLOPS_MUL] = v;
			else if (!strcmp(s->op, "fma"))
				f[INSTR_FLOPS_FMA] = v;
		}
	}
	for (int p = 0; p < 2; p++)
		for (int v = 0; v < 2; v++) {
			double *f = r->flops_per_cy[p][v];
			f[INSTR_FLOPS_TOTAL] = fmax(f[INSTR_FLOPS_ADD], fmax(f[INSTR_FLOPS_MUL], f[INSTR_FLOPS_FMA]));
		}
	for (int p = 0; p < 2; p++)
		memcpy(env->flops_per_cy[p], r->flops_per_cy[p][INSTR_VECTOR], sizeof(env->flops_per_cy[p]));
}

int probe_instr_find(struct probe_env *env, probe_progress_fn *progress, struct probe_instr_result *out,
		     struct as_error *err)
{
	probe_instr_result_init(out);
	if (!(env->clock_ghz > 0))
		return as_error_set(err, -EINVAL, "instr: no measured clock to convert to cycles");
	out->op = calloc(instr_nsets ? instr_nsets : 1, sizeof(*out->op));
	if (!out->op)
		return as_error_set(err, -ENOMEM, "instr: out of memory");
struct probe_opts o = probe_opts_of(env, progress, HUGE_DEFAULT);
	int rc = 0;
	for (size_t i = 0; i < instr_nsets && !probe_opts_stopped(&o); i++) {
		char point[64];
		snprintf(point, sizeof(point), "%s %s/%d", instr_sets[i].op, instr_sets[i].type, instr_sets[i].width_bits);
		probe_opts_report(&o, "instr", point, (int)i, (int)instr_nsets);
		double before = clock_window_ghz();
		int r = probe_instr_run(&o, &instr_sets[i], &out->op[out->nops], err);
		if (r != 0) {
			if (!probe_opts_stopped(&o))
				rc = r;
			break;
		}
		double after = clock_window_ghz();
		out->op[out->nops].clock_ghz = clock_window_between(before, after);
		for (int k = 0; k < 2; k++) {
			double g = k ? after : before;
			if (g > 0 && (!(out->window_min_ghz > 0) || g < out->window_min_ghz))
				out->window_min_ghz = g;
			if (g > out->window_max_ghz)
				out->window_max_ghz = g;
		}
		probe_instr_op_analyze(&out->op[out->nops]);
		out->nops++;
	}
	if (!probe_opts_stopped(&o)) {
		probe_opts_report(&o, "instr", "line-crossing loads and stores", (int)instr_nsets, (int)instr_nsets + 1);
		probe_split_find(&o, &out->split);
	}
	out->have_published = probe_published_detect(&out->published);
	probe_instr_analyze(env, out);
	out->incomplete = probe_opts_stopped(&o);
	return rc;
}
