/* Arithmetic operations (BlackjackBench §3.3) and live ranges (§3.5) on the generated kernels of
 * probe/kernels.h: latency from the difference of two unroll factors, throughput as the fastest
 * time per operation over 1..20 independent streams, operations in flight at the knee of the cost
 * per iteration, usable registers at the biggest relative step of the time per addition. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/steps.h"
#include "analysis/order.h"
#include "common/timer.h"
#include "probe/core.h"

static volatile uint64_t kernel_sink;

static double run_ns(probe_kernel_fn fn, uint64_t n)
{
	uint64_t t0 = timer_now_ns();
	kernel_sink += fn(n);
	return (double)(timer_now_ns() - t0);
}

uint64_t kernel_calibrate(probe_kernel_fn fn, double target_ns)
{
	uint64_t n = 64;
	run_ns(fn, n); /* warm the code and the clock */
	double t = run_ns(fn, n);
	while (t < 20000 && n < (1ull << 40)) {
		n *= 8;
		t = run_ns(fn, n);
	}
	double want = (double)n * target_ns / (t > 1 ? t : 1);
	return want < 64 ? 64 : (uint64_t)want;
}

double kernel_best_ns(probe_kernel_fn fn, uint64_t n, int reps)
{
	double best = INFINITY;
	for (int r = 0; r < reps; r++) {
		double t = run_ns(fn, n);
		if (t < best)
			best = t;
	}
	return best;
}

static double target_ns(const struct probe_opts *o)
{
	return o->quick ? 150e3 : 600e3;
}

int probe_instr_run(const struct probe_opts *o, const struct instr_set *set, struct instr_result *r,
		    struct as_error *err)
{
	memset(r, 0, sizeof(*r));
	r->set = set;
	if (!set->streams[0] || !set->lat_long) {
		return as_error_set(err, -EINVAL, "instr: %s %s has no kernel", set->op, set->type);
	}
	/* Latency: the same n through chains of instr_chain and instr_chain_long operations; six runs,
	 * the second lowest difference per operation. */
	uint64_t n = kernel_calibrate(set->lat_long, target_ns(o));
	double d[6];
	int runs = o->quick ? 4 : 6;
	for (int i = 0; i < runs; i++) {
		/* Each run: the fastest of three of each loop, interleaved, so one preemption or a
		 * neighbour's burst does not make a difference of two noisy times. */
		double t_short = INFINITY, t_long = INFINITY;
		for (int k = 0; k < 3; k++) {
			t_short = fmin(t_short, run_ns(set->streams[0], n));
			t_long = fmin(t_long, run_ns(set->lat_long, n));
		}
		d[i] = (t_long - t_short) / ((double)n * (instr_chain_long - instr_chain));
	}
	r->lat_ns = order_kth(d, (size_t)runs, 1);

	int max_s = o->quick ? 12 : INSTR_MAX_STREAMS;
	int reps = o->quick ? 2 : 3;
	r->min_op_ns = INFINITY;
	for (int s = 1; s <= max_s; s++) {
		if (o->stop && *o->stop)
			break;
		probe_kernel_fn fn = set->streams[s - 1];
		uint64_t ns = kernel_calibrate(fn, target_ns(o));
		double t = kernel_best_ns(fn, ns, reps);
		r->iter_ns[s - 1] = t / (double)ns;
		r->op_ns[s - 1] = t / ((double)ns * s * instr_chain);
		if (r->op_ns[s - 1] < r->min_op_ns) {
			r->min_op_ns = r->op_ns[s - 1];
			r->best_streams = s;
		}
		r->nstreams = s;
	}
	if (r->nstreams < 2) {
		return as_error_set(err, -EINTR, "instr: interrupted");
	}
	r->in_flight = steps_knee_proportional(r->iter_ns, (size_t)r->nstreams, &r->in_flight_conf);
	return 0;
}

int probe_regs_run(const struct probe_opts *o, const struct regs_set *set, struct probe_curve *out,
		   struct as_error *err)
{
	/* The whole sweep takes well under a second: --quick keeps it, since fewer repetitions make
	 * the small rise after the first spill hard to tell from noise. */
	int reps = 3;
	for (int i = 0; i < set->nk; i++) {
		if (o->stop && *o->stop)
			break;
		int k = set->k[i];
		if (o->progress && i % 8 == 0) {
			char point[64];
			snprintf(point, sizeof(point), "%s %s, K = %d", set->kind, set->variant, k);
			o->progress(o->progress_ctx, "registers", point, i, set->nk);
		}
		probe_kernel_fn fn = set->fn[i];
		int ops = set->ops[i];
		uint64_t n = kernel_calibrate(fn, 300e3);
		double ts[3];
		for (int r = 0; r < reps; r++)
			ts[r] = run_ns(fn, n) / ((double)n * ops);
		if (probe_curve_add(out, k, order_kth(ts, (size_t)reps, 0), order_median(ts, (size_t)reps)) != 0)
			return as_error_set(err, -ENOMEM, "registers: out of memory");
	}
	if (out->n < 4) {
		return as_error_set(err, -EINTR, "registers: interrupted");
	}
	return 0;
}
