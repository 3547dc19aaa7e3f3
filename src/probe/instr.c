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
}

void probe_instr_result_release(struct probe_instr_result *r)
{
	free(r->op);
	probe_instr_result_init(r);
}

/* An operation's published figures beside its measured ones, into its row d: per source of the
 * CPU's table with a figure, whether latency and cycles per operation both lie within 1 cy of it;
 * the row agrees when one source does (they disagree by more than a cycle on some rows). Counts
 * the rows per source into ev (rows, rows_within, by the CPU's source index k). */
static void compare_published(const struct probe_instr_result *res, const struct probe_instr_op *o, double ghz,
			      struct machine_probes_op *d, int *src_rows, int *src_within)
{
	const struct published_cpu *pc = &res->published;
	const struct instr_set *s = o->set;
	const struct published_op *pub = res->have_published ? probe_published_lookup(pc, s->op, s->type, s->lanes > 1, s->width_bits) : NULL;
	d->pub.have = pub != NULL;
	if (!pub)
		return;
	machine_probes_text(d->pub.instruction, sizeof(d->pub.instruction), pub->instruction);
	double cy_per_op = o->min_op_ns * (o->clock_ghz > 0 ? o->clock_ghz : ghz);
	for (int k = 0; k < PUBLISHED_SOURCES; k++) {
		if (!pc->source[k] || !(pub->latency_cy[k] > 0))
			continue;
		int w = fabs(d->latency_cy - pub->latency_cy[k]) <= 1.0 && fabs(cy_per_op - pub->cy_per_op[k]) <= 1.0;
		d->pub.within |= w;
		src_rows[k]++;
		src_within[k] += w;
		if (d->pub.nsources >= MACHINE_PROBES_MAX_SOURCES)
			continue;
		struct machine_probes_pub_source *ps = &d->pub.source[d->pub.nsources++];
		machine_probes_row_init(MP_INSTR_PUB_SOURCES, ps);
		machine_probes_text(ps->source, sizeof(ps->source), pc->source[k]);
		ps->latency_cy = pub->latency_cy[k];
		ps->throughput_per_cy = 1.0 / pub->cy_per_op[k];
		ps->within = w;
	}
}

/* One operation's row in rec: its answers at the clock of its own brackets (ghz when none), then
 * how they were measured (cost: cycles per iteration against streams). 0 or -ENOMEM. */
static int op_record(const struct probe_instr_op *o, double ghz, double int32_add_ns, struct machine_probes_op *d)
{
	const struct instr_set *s = o->set;
	double g = o->clock_ghz > 0 ? o->clock_ghz : ghz;
	machine_probes_row_init(MP_INSTR_OPS, d);
	machine_probes_text(d->op, sizeof(d->op), s->op);
	machine_probes_text(d->type, sizeof(d->type), s->type);
	d->width_bits = s->width_bits;
	d->latency_cy = o->lat_cy > 0 ? o->lat_cy : o->lat_ns * g;
	d->throughput_per_cy = 1.0 / (o->min_op_ns * g);
	d->in_flight = o->in_flight;
	d->lanes = s->lanes;
	d->latency_ns = o->lat_ns;
	d->in_flight_confidence = o->in_flight_conf;
	d->relative_to_int32_add = o->lat_ns / int32_add_ns;
	d->best_streams = o->best_streams;
	int n = o->nstreams > 0 ? o->nstreams : 0;
	double streams[INSTR_MAX_STREAMS], cy[INSTR_MAX_STREAMS];
	for (int k = 0; k < n; k++) {
		streams[k] = k + 1;
		cy[k] = o->iter_ns[k] * ghz;
	}
	return probe_points_copy(&d->cost, streams, cy, NULL, (size_t)n);
}

/* FLOPs per core cycle into rec->flops_per_cy: throughput x lanes x flops per operation,
 * [SP/DP][scalar/vector][total/ADD/MUL/FMA], total the best of the three (each operation runs
 * alone, no mixes); the vector row into env. */
static void flops_record(struct probe_env *env, const struct probe_instr_result *r, struct machine_probes *rec)
{
	memset(rec->flops_per_cy, 0, sizeof(rec->flops_per_cy));
	for (int i = 0; i < rec->nops; i++) {
		const struct instr_set *s = r->op[i].set;
		if (!s->is_float)
			continue;
		double *f = rec->flops_per_cy[s->width_bits / s->lanes == 64 ? INSTR_DP : INSTR_SP]
					  [s->lanes > 1 ? INSTR_VECTOR : INSTR_SCALAR];
		double v = rec->op[i].throughput_per_cy * s->lanes * s->flops;
		if (!strcmp(s->op, "add"))
			f[INSTR_FLOPS_ADD] = v;
		else if (!strcmp(s->op, "mul"))
			f[INSTR_FLOPS_MUL] = v;
		else if (!strcmp(s->op, "fma"))
			f[INSTR_FLOPS_FMA] = v;
	}
	for (int p = 0; p < 2; p++)
		for (int v = 0; v < 2; v++) {
			double *f = rec->flops_per_cy[p][v];
			f[INSTR_FLOPS_TOTAL] = fmax(f[INSTR_FLOPS_ADD], fmax(f[INSTR_FLOPS_MUL], f[INSTR_FLOPS_FMA]));
		}
	for (int p = 0; p < 2; p++)
		memcpy(env->flops_per_cy[p], rec->flops_per_cy[p][INSTR_VECTOR], sizeof(env->flops_per_cy[p]));
}

/* The line-crossing accesses and the sources of the published figures with the rows each agrees
 * with (src_rows, src_within by the CPU's source index). */
static void evidence_record(const struct probe_instr_result *r, const int *src_rows, const int *src_within,
			    struct machine_probes *rec)
{
	rec->nsplit = r->split.nwidths < 0 ? 0 : r->split.nwidths < MACHINE_PROBES_MAX_SPLIT ? r->split.nwidths : MACHINE_PROBES_MAX_SPLIT;
	for (int k = 0; k < rec->nsplit; k++) {
		const struct probe_split_width *w = &r->split.w[k];
		rec->split[k] = (struct machine_probes_split){ w->width_bits, w->load_cy, w->load_split_cy, w->store_cy,
								w->store_split_cy, w->mixed_cy, w->clock_ghz };
	}
	rec->have[MP_INSTR_SOURCES] = r->have_published ? MP_HAVE_YES : MP_HAVE_NULL;
	rec->instr_ev.nsources = 0;
	for (int k = 0; r->have_published && k < PUBLISHED_SOURCES && k < MACHINE_PROBES_MAX_SOURCES; k++) {
		if (!r->published.source[k])
			continue;
		struct machine_probes_instr_source *s = &rec->instr_ev.source[rec->instr_ev.nsources++];
		machine_probes_row_init(MP_INSTR_SOURCES, s);
		machine_probes_text(s->source, sizeof(s->source), r->published.source[k]);
		machine_probes_text(s->tag, sizeof(s->tag), r->published.tag[k]);
		s->rows_within = src_within[k];
		s->rows = src_rows[k];
	}
}

int probe_instr_analyze(struct probe_env *env, const struct probe_instr_result *r, struct machine_probes *rec)
{
	double ghz = env->clock_ghz;
	machine_probes_group_release(rec, MP_G_INSTR); /* recorded before: a re-measurement */
	rec->have[MP_INSTR] = MP_HAVE_YES;
	/* int32 add latency: the unit of BlackjackBench's relative figures. */
	double int32_add_ns = NAN;
	for (size_t i = 0; i < r->nops; i++) {
		const struct instr_set *s = r->op[i].set;
		if (!strcmp(s->op, "add") && !strcmp(s->type, "int32") && s->lanes == 1)
			int32_add_ns = r->op[i].lat_ns;
	}
	int rc = 0, src_rows[PUBLISHED_SOURCES] = { 0 }, src_within[PUBLISHED_SOURCES] = { 0 };
	rec->nops = 0;
	for (size_t i = 0; i < r->nops && rec->nops < MACHINE_PROBES_MAX_OPS; i++) {
		struct machine_probes_op *d = &rec->op[rec->nops++];
		rc |= op_record(&r->op[i], ghz, int32_add_ns, d);
		compare_published(r, &r->op[i], ghz, d, src_rows, src_within);
	}
	flops_record(env, r, rec);
	evidence_record(r, src_rows, src_within, rec);
	rec->instr_ev.clock_ghz = ghz;
	machine_probes_text(rec->instr_ev.cycles, sizeof(rec->instr_ev.cycles),
			    "core cycles of the clock measured before and after each operation (1 ms add chains), their mean");
	machine_probes_text(rec->instr_ev.compiler, sizeof(rec->instr_ev.compiler), instr_compiler);
	machine_probes_text(rec->instr_ev.flags, sizeof(rec->instr_ev.flags), instr_flags);
	rec->instr_ev.int32_add_ns = int32_add_ns;
	return rc ? -ENOMEM : 0;
}

int probe_instr_find(struct probe_env *env, probe_progress_fn *progress, struct probe_instr_result *out,
		     struct machine_probes *rec, struct as_error *err)
{
	probe_instr_result_init(out);
	if (!(env->clock_ghz > 0))
		return as_error_set(err, -EINVAL, "instr: no measured clock to convert to cycles");
	out->op = calloc(instr_nsets ? instr_nsets : 1, sizeof(*out->op));
	if (!out->op)
		return as_error_set(err, -ENOMEM, "instr: out of memory");
	struct probe_opts o = probe_opts_of(env, progress, HUGE_DEFAULT);
	int rc = 0;
	double window_min = 0, window_max = 0; /* the slowest and fastest clock bracket of the run */
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
			if (g > 0 && (!(window_min > 0) || g < window_min))
				window_min = g;
			if (g > window_max)
				window_max = g;
		}
		probe_instr_op_analyze(&out->op[out->nops]);
		out->nops++;
	}
	if (!probe_opts_stopped(&o)) {
		probe_opts_report(&o, "instr", "line-crossing loads and stores", (int)instr_nsets, (int)instr_nsets + 1);
		probe_split_find(&o, &out->split);
	}
	out->have_published = probe_published_detect(&out->published);
	if (probe_instr_analyze(env, out, rec) != 0 && rc == 0)
		rc = as_error_set(err, -ENOMEM, "instr: out of memory");
	/* the cycles of each operation come from its own brackets: the slowest and the fastest */
	rec->instr_ev.min_ghz = window_min;
	rec->instr_ev.max_ghz = window_max;
	rec->instr_ev.incomplete = probe_opts_stopped(&o);
	return rc;
}
