/* archscope bench --ecm and --threads-scaling: the ECM paper's Table 4 (predicted against measured
 * cycles per cache-line update in every memory level) and Table 5 (bandwidth per level for 1..N
 * threads) on this machine; and the machine's line and levels every bench run counts in. */
#include <math.h>

#include "bench/run.h"
#include "cli/cmd-bench.h"
#include "cli/cli.h"
#include "common/interrupt.h"
#include "common/buffer.h"
#include "model/ecm.h"
#include "machine/result-bench.h"
#include "probe/caches.h"
#include "probe/clock.h"
#include "probe/line.h"
#include "report/emit.h"
#include "topo/topo.h"

void cli_bench_line(struct cli_bench_opts *o, int cpu)
{
	struct topo topo;
	struct as_error err = { 0 };
	o->line_bytes = 0;
	if (topo_load(&topo, &err) == 0) {
		o->line_bytes = topo_line_bytes(&topo);
		topo_release(&topo);
	}
	o->line_from = "the topology's L1 line";
	if (o->line_bytes > 0)
		return;
	struct probe_env env = { .cpu = cpu, .quick = 1, .seed = 1, .interrupted = o->stop };
	cpu_pin_self(cpu, NULL);
	progress("bench: no line size in the topology: quick line probe ...");
	int rc = probe_line_need(&env, NULL, &err);
	progress_done();
	o->line_bytes = rc == 0 ? env.line_bytes : 0;
	o->line_from = "measured by a quick line probe";
	if (rc != 0)
		note("bench: no cache line size (the topology has none and the line probe found none): cycles per cache "
		     "line are not reported");
}

/* A sweep of either view, measured: what the renderers print. */
struct bench_view {
	const struct cli_bench_opts *o;
	const struct bench_levels *lv;
	const struct bench_kernel *const *ks;
	int nk;
	const struct as_cpulist *cpus;
	double ghz;                   /* the core clock measured on the first CPU */
	struct bench_sweep_result res;
	int failed, stopped;          /* a run failed; Ctrl-C */
	int nlev;                     /* --ecm: levels measured completely */
	struct ecm_params p;          /* --ecm: the rates calibrated from load and store */
	int clamped;                  /* --ecm: transfers measured no slower than the level above */
};

/* Progress before each run; after a failed one the error, and a nonzero return: both views stop
 * at the first failure. */
static int report_run(void *arg, const struct bench_sweep_point *pt, const struct as_error *err)
{
	if (err) {
		progress_done();
		return error("%s-%s, %zu bytes: %s", pt->k->name, pt->k->variant, pt->size_bytes, err->msg);
	}
	char sz[32];
	progress("bench %s: %s-%s, %d thread%s, %s (%s), %d/%d", (const char *)arg, pt->k->name, pt->k->variant,
		 pt->threads, pt->threads > 1 ? "s" : "", pt->level_name, buffer_format_size(pt->size_bytes, sz, sizeof(sz)),
		 pt->done, pt->total);
	return 0;
}

/* Runs the sweep sw at the clock measured on the first CPU. 0, or -1 after error(). */
static int view_measure(struct bench_view *v, struct bench_sweep *sw, const char *name)
{
	const struct cli_bench_opts *o = v->o;
	cpu_pin_self(v->cpus->cpu[0], NULL);
	struct clock_result clk;
	clock_measure(&clk, 5);
	v->ghz = clk.ghz;
	sw->run = (struct bench_opts){ .reps = o->reps, .min_time_s = o->min_time_s, .clock_ghz = clk.ghz,
				       .clock_now = clock_window_ghz, .wait_quiet_s = o->wait_quiet_s, .remeasure = o->remeasure,
				       .line_bytes = o->line_bytes, .small_pages = o->small_pages,
				       .stream_offset = o->stream_offset };
	sw->stop = o->stop;
	sw->report = report_run;
	sw->arg = (void *)name;
	struct as_error err = { 0 };
	int rc = bench_sweep_run(sw, &v->res, &err);
	progress_done();
	if (rc != 0)
		return error_err(&err);
	v->failed = v->res.stopped;
	v->stopped = *o->stop;
	return 0;
}

/* Renders a measured view and gives the exit code: 130 after Ctrl-C, 1 after a failed run. */
static int view_end(struct bench_view *v, void (*render)(struct emit *, const struct bench_view *))
{
	struct emit *e = emit_new(v->o->json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (e)
		render(e, v);
	int rc = e ? cli_emit_end(e, "bench") : (error("out of memory"), EXIT_FAIL);
	bench_sweep_release(&v->res);
	if (v->stopped) {
		note("interrupted: printed %s", v->nlev ? "the levels measured completely" : "what was measured");
		return INTERRUPT_EXIT;
	}
	return v->failed ? EXIT_FAIL : rc;
}

static void ecm_render_parameters(struct emit *e, const struct bench_view *v)
{
	const struct ecm_params *p = &v->p;
	emit_object_begin(e, BE_KEY(PARAMS), "machine parameters (measured here: L1 rates from load and store in L1, each "
					   "transfer\nfrom the load kernel's extra cycles one level further out)");
	emit_number(e, BE_KEY(CLOCK), "clock", v->ghz, "GHz", "%.3f");
	emit_number(e, BE_KEY(LINE), "cache line", p->cl_bytes, "B", "%.0f");
	emit_annotate(e, " (%s)", v->o->line_from);
	emit_number(e, BE_KEY(L1_LOAD), "L1 load", p->l1_load_bpc, "B/cy", "%.1f");
	emit_number(e, BE_KEY(L1_STORE), "L1 store", p->l1_store_bpc, "B/cy", "%.1f");
	emit_bool(e, BE_KEY(OVERLAP), "loads and stores in the same cycle", 1);
	emit_table_begin(e, BE_KEY(TRANSFERS), "");
	for (int b = 0; b < p->ntransfers; b++) {
		double bpc = p->cy_per_cl[b] > 0 ? p->cl_bytes / p->cy_per_cl[b] : INFINITY;
		emit_row_begin(e);
		emit_string(e, BE_KEY(TR_FROM), NULL, v->lv->name[b + 1]);
		emit_string(e, BE_KEY(TR_TO), NULL, v->lv->name[b]);
		emit_text(e, "transfer", "%s -> %s", v->lv->name[b + 1], v->lv->name[b]);
		emit_number(e, BE_KEY(TR_CY), "time", p->cy_per_cl[b], "cy/CL", "%.2f");
		/* a transfer taken as 0 cy/CL has no rate: "none", and 0 in JSON as always */
		emit_number(e, BE_KEY(TR_BPC), NULL, isfinite(bpc) ? bpc : 0.0, NULL, NULL);
		emit_number(e, NULL, "rate", bpc, "B/cy", "%.1f");
		emit_number(e, NULL, "at the clock", bpc * v->ghz, "GB/s", "%.1f");
		emit_row_end(e);
	}
	emit_table_end(e);
	if (v->clamped > 0)
		emit_text(e, "", "(%d transfer%s measured no slower than the level above: taken as 0 cy/CL)", v->clamped,
			  v->clamped > 1 ? "s" : "");
	emit_object_end(e);
}

static void ecm_render(struct emit *e, const struct bench_view *v)
{
	emit_heading(e, "archscope bench --ecm: ECM model of the streaming kernels (ECM paper, Tables 2 and 4), one "
			"thread on cpu %d", v->cpus->cpu[0]);
	ecm_render_parameters(e, v);
	char title[256];
	snprintf(title, sizeof(title), "prediction = L1 part max(loads x %.0f B / load rate, stores x %.0f B / store rate) + "
				       "lines crossing each\nboundary (reads + write-allocate + evictions) x its cy/CL; "
				       "pred/meas %% as in Table 4", v->p.cl_bytes, v->p.cl_bytes);
	emit_table_begin(e, BE_KEY(ROWS), title);
	for (int i = 0; i < v->nk; i++)
		for (int l = 0; l < v->nlev; l++) {
			const struct bench_kernel *k = v->ks[i];
			/* levels below nlev ran completely: every run there gave a result */
			const struct bench_result *r = bench_sweep_get(&v->res, l, 1, i);
			struct ecm_streams s = { k->reads, k->writes, k->rws, k->nontemporal };
			double pred = ecm_predict(&v->p, &s, l), meas = r->cy_per_cl.min;
			int calib = i == 0 || (i == 1 && l == 0);
			emit_row_begin(e);
			emit_string(e, BE_KEY(KERNEL), "kernel", k->name);
			emit_string(e, BE_KEY(VARIANT), "variant", k->variant);
			emit_string(e, BE_KEY(LEVEL), "level", v->lv->name[l]);
			emit_size(e, BE_KEY(SIZE), "size", r->size_bytes);
			emit_number(e, BE_KEY(PREDICTED), "predicted", pred, "cy/CL", "%.2f");
			emit_number(e, BE_KEY(MEASURED), "measured", meas, "cy/CL", "%.2f");
			emit_number(e, BE_KEY(RATIO), NULL, pred / meas, NULL, NULL);
			emit_number(e, NULL, "pred/meas", 100 * pred / meas, "%", "%.1f");
			/* GB/s of the fastest repetition, matching its cycles */
			emit_number(e, BE_KEY(GBS), "application", r->gbs.max, "GB/s", "%.1f");
			emit_number(e, BE_KEY(GBS_REAL), "with write-allocate", r->gbs_real.max, "GB/s", "%.1f");
			emit_bool(e, BE_KEY(CALIBRATION), NULL, calib);
			emit_text(e, "role", "%s", calib ? "calibration" : "prediction");
			emit_row_end(e);
		}
	emit_table_end(e);
	emit_string(e, BE_KEY(CYCLES), "cycles", "core cycles of the measured clock per cache-line update (line / 8 B "
					   "iterations, one line per stream), fastest of the repetitions");
	emit_int(e, NULL, "repetitions", v->o->reps, NULL);
	emit_string(e, BE_KEY(MODEL), "model", "inclusive hierarchy, write-allocate and eviction per written line, no overlap "
					 "of transfers; L1 loads and stores in the same cycle");
	if (v->stopped || v->failed)
		emit_bool(e, BE_KEY(INCOMPLETE), NULL, 1);
}

int cli_bench_ecm(const struct cli_bench_opts *o, const struct bench_kernel *const *ks, int nk, const struct bench_levels *lv,
	      int cpu)
{
	struct as_cpulist one = { .n = 1, .cpu = { cpu } };
	struct bench_view v = { .o = o, .lv = lv, .ks = ks, .nk = nk, .cpus = &one };
	struct bench_sweep sw = { .lv = lv, .kernels = ks, .nkernels = nk, .cpus = &one, .max_threads = 1 };
	if (view_measure(&v, &sw, "--ecm") != 0)
		return EXIT_FAIL;
	v.nlev = v.stopped || v.failed ? (v.res.done - 1) / nk : lv->n; /* whole levels measured */
	/* calibration: the fastest repetition of load in every level and of store in L1 */
	struct bench_ecm_cycles cy;
	bench_sweep_ecm_cycles(&v.res, 0, 1, v.nlev, &cy);
	v.clamped = v.nlev < 1 ? -1 : ecm_params_from_loads(&v.p, o->line_bytes, cy.load_cy, cy.nlevels, cy.store_l1_cy, 1);
	if (v.clamped < 0) {
		bench_sweep_release(&v.res);
		error(v.nlev < 1 ? "bench --ecm: stopped before L1 was measured"
				 : "bench --ecm: the load or store kernel gave no usable time in L1");
		return v.nlev < 1 && !v.failed ? INTERRUPT_EXIT : EXIT_FAIL;
	}
	return view_end(&v, ecm_render);
}

static void scaling_render(struct emit *e, const struct bench_view *v)
{
	const struct bench_kernel *k = v->ks[0];
	const struct bench_levels *lv = v->lv;
	emit_heading(e, "archscope bench --threads-scaling %s-%s (%s): application GB/s, median of %d repetitions (ECM "
			"paper, Table 5)", k->name, k->variant, k->formula, v->o->reps);
	emit_array_begin(e, NULL, "working sets");
	for (int l = 0; l < lv->n; l++) {
		char sz[32];
		emit_text(e, NULL, "%s %s %s", lv->name[l], buffer_format_size(lv->size[l], sz, sizeof(sz)),
			  l < lv->n - 2 ? "per thread" : "in all");
	}
	emit_array_end(e);
	emit_string(e, BS_KEY(KERNEL), NULL, k->name);
	emit_string(e, BS_KEY(VARIANT), NULL, k->variant);
	emit_table_begin(e, BS_KEY(ROWS), "");
	for (int n = 1; n <= v->cpus->n && bench_sweep_entered(&v->res, 0, n); n++) {
		int nl = 0;
		const struct bench_result *r;
		emit_row_begin(e);
		emit_int(e, BS_KEY(THREADS), "threads", n, NULL);
		emit_array_begin(e, BS_KEY(LEVELS), NULL);
		for (; nl < lv->n && (r = bench_sweep_get(&v->res, nl, n, 0)); nl++) {
			emit_row_begin(e);
			emit_string(e, BS_KEY(LEVEL), NULL, lv->name[nl]);
			emit_int(e, BS_KEY(SIZE), NULL, (long long)r->size_bytes, NULL);
			emit_number(e, BS_KEY(GBS), NULL, r->gbs.median, NULL, NULL);
			emit_number(e, BS_KEY(GBS_REAL), NULL, r->gbs_real.median, NULL, NULL);
			emit_number(e, BS_KEY(CY_PER_CL), NULL, r->cy_per_cl.median, NULL, NULL);
			emit_row_end(e);
		}
		emit_array_end(e);
		for (int l = 0; l < lv->n; l++)
			if (l < nl)
				emit_number(e, NULL, lv->name[l], bench_sweep_get(&v->res, l, n, 0)->gbs.median, "GB/s", "%.1f");
			else
				emit_text(e, lv->name[l], "-");
		emit_row_end(e);
		if (nl == 0)
			break;
	}
	emit_table_end(e);
	emit_number(e, BS_KEY(CLOCK), "clock", v->ghz, "GHz", "%.3f");
	emit_string(e, BS_KEY(SIZES), NULL,
		    "levels above the last cache: the one-thread size per thread; last cache and memory: the same total");
	if (v->stopped || v->failed)
		emit_bool(e, BS_KEY(INCOMPLETE), NULL, 1);
}

int cli_bench_threads_scaling(const struct cli_bench_opts *o, const struct bench_kernel *k, const struct bench_levels *lv,
			  const struct as_cpulist *cpus)
{
	struct bench_view v = { .o = o, .lv = lv, .ks = &k, .nk = 1, .cpus = cpus };
	/* thread counts outside: a stop leaves whole rows; working sets at most a quarter of memory */
	struct bench_sweep sw = { .lv = lv, .kernels = &k, .nkernels = 1, .cpus = cpus, .max_threads = cpus->n,
				  .threads_outer = 1, .max_bytes = buffer_mem_available() / 4 };
	if (view_measure(&v, &sw, "--threads-scaling") != 0)
		return EXIT_FAIL;
	return view_end(&v, scaling_render);
}
