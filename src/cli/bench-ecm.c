/* archscope bench --ecm and --threads-scaling: the ECM paper's Table 4 (predicted against measured
 * cycles per cache-line update in every memory level) and Table 5 (bandwidth per level for 1..N
 * threads) on this machine. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ecm.h"
#include "bench/run.h"
#include "cli/bench.h"
#include "cli/cli.h"
#include "common/buffer.h"
#include "probe/clock.h"
#include "report/table.h"

#define CL_BYTES 64

/* A failed run: the error, and a nonzero return (both views stop at the first failure). */
static int run_failed(const struct bench_sweep_point *pt, const struct as_error *err)
{
	progress_done();
	fprintf(stderr, "archscope: error: %s-%s, %zu bytes: %s\n", pt->k->name, pt->k->variant, pt->size_bytes, err->msg);
	return 1;
}

static int report_ecm(void *arg, const struct bench_sweep_point *pt, const struct as_error *err)
{
	(void)arg;
	if (err)
		return run_failed(pt, err);
	char sz[32];
	progress("bench --ecm: %s-%s in %s (%s), %d/%d", pt->k->name, pt->k->variant, pt->level_name,
		 buffer_format_size(pt->size_bytes, sz, sizeof(sz)), pt->done, pt->total);
	return 0;
}

static int report_scaling(void *arg, const struct bench_sweep_point *pt, const struct as_error *err)
{
	(void)arg;
	if (err)
		return run_failed(pt, err);
	char sz[32];
	progress("bench --threads-scaling: %s-%s, %d thread%s, %s (%s), %d/%d", pt->k->name, pt->k->variant, pt->threads,
		 pt->threads > 1 ? "s" : "", pt->level_name, buffer_format_size(pt->size_bytes, sz, sizeof(sz)), pt->done,
		 pt->total);
	return 0;
}

/* The run settings of the command line at the measured clock. */
static struct bench_opts run_opts(const struct bench_cli *o, double ghz)
{
	return (struct bench_opts){ .reps = o->reps, .min_time_s = o->min_time_s, .clock_ghz = ghz,
				    .small_pages = o->small_pages, .stream_offset = o->stream_offset };
}

int bench_ecm_rates(const struct bench_sweep_result *res, int load, int store, int nlev, struct ecm_params *p)
{
	double load_cy[BENCH_MAX_LEVELS] = { 0 };
	int nl = 0;
	const struct bench_result *r;
	while (nl < nlev && nl < BENCH_MAX_LEVELS && (r = bench_sweep_get(res, nl, 1, load)) && r->cy_per_cl.min > 0)
		load_cy[nl++] = r->cy_per_cl.min;
	const struct bench_result *st = bench_sweep_get(res, 0, 1, store);
	return ecm_params_from_loads(p, CL_BYTES, load_cy, nl, st ? st->cy_per_cl.min : 0, 1);
}

int bench_ecm(const struct bench_cli *o, const struct bench_kernel *const *ks, int nk, const struct bench_levels *lv,
	      int cpu)
{
	cpu_pin_self(cpu, NULL);
	struct clock_result clk;
	clock_measure(&clk, 5);
	struct as_cpulist one = { .n = 1, .cpu = { cpu } };
	struct bench_sweep sw = { .lv = lv, .kernels = ks, .nkernels = nk, .cpus = &one, .max_threads = 1,
				  .run = run_opts(o, clk.ghz), .stop = o->stop, .report = report_ecm };
	struct bench_sweep_result res;
	struct as_error err = { 0 };
	if (bench_sweep_run(&sw, &res, &err) != 0)
		die_err(EXIT_FAIL, &err);
	progress_done();
	int failed = res.stopped, stopped = *o->stop;
	int nlev = stopped || failed ? (res.done - 1) / nk : lv->n; /* whole levels measured */
	if (nlev < 1)
		die(failed ? EXIT_FAIL : 130, "bench --ecm: stopped before L1 was measured");

	/* Calibration: the fastest repetition of load in every level and of store in L1. */
	struct ecm_params p;
	int clamped = bench_ecm_rates(&res, 0, 1, nlev, &p);
	if (clamped < 0)
		die(EXIT_FAIL, "bench --ecm: the load or store kernel gave no usable time in L1");

	json_t *params = json_pack("{s:f,s:f,s:f,s:b,s:o}", "clock_ghz", clk.ghz, "l1_load_bytes_per_cy", p.l1_load_bpc,
				   "l1_store_bytes_per_cy", p.l1_store_bpc, "loads_stores_overlap", 1, "transfers", json_array());
	struct table *pt = table_new(4, "transfer", "cy/CL", "B/cy", "GB/s at the clock");
	for (int b = 0; b < p.ntransfers; b++) {
		double bpc = p.cy_per_cl[b] > 0 ? CL_BYTES / p.cy_per_cl[b] : INFINITY;
		json_array_append_new(json_object_get(params, "transfers"),
				      json_pack("{s:s,s:s,s:f,s:f}", "from", lv->name[b + 1], "to", lv->name[b], "cy_per_cl",
						p.cy_per_cl[b], "bytes_per_cy", isfinite(bpc) ? bpc : 0.0));
		table_cell(pt, "%s -> %s", lv->name[b + 1], lv->name[b]);
		table_cell(pt, "%.2f", p.cy_per_cl[b]);
		table_cell(pt, isfinite(bpc) ? "%.1f" : "-", bpc);
		table_cell(pt, isfinite(bpc) ? "%.1f" : "-", bpc * clk.ghz);
	}

	json_t *rows = json_array();
	struct table *t = table_new(9, "kernel", "level", "size", "predicted cy/CL", "measured cy/CL", "pred/meas %",
				    "GB/s with WA", "GB/s app", "role");
	for (int i = 0; i < nk; i++)
		for (int l = 0; l < nlev; l++) {
			const struct bench_kernel *k = ks[i];
			/* levels below nlev ran completely: every run there gave a result */
			const struct bench_result *r = bench_sweep_get(&res, l, 1, i);
			struct ecm_streams s = { k->reads, k->writes, k->rws, k->nontemporal };
			double pred = ecm_predict(&p, &s, l), meas = r->cy_per_cl.min;
			int calib = i == 0 || (i == 1 && l == 0);
			/* GB/s of the fastest repetition, matching its cycles */
			double gbs = r->gbs.max, real = r->gbs_real.max;
			char sz[32];
			buffer_format_size(r->size_bytes, sz, sizeof(sz));
			table_cell(t, "%s-%s", k->name, k->variant);
			table_cell(t, "%s", lv->name[l]);
			table_cell(t, "%s", sz);
			table_cell(t, "%.2f", pred);
			table_cell(t, "%.2f", meas);
			table_cell(t, "%.1f", 100 * pred / meas);
			table_cell(t, "%.1f", real);
			table_cell(t, "%.1f", gbs);
			table_cell(t, "%s", calib ? "calibration" : "prediction");
			json_array_append_new(rows, json_pack("{s:s,s:s,s:s,s:I,s:f,s:f,s:f,s:f,s:f,s:b}", "kernel", k->name,
							      "variant", k->variant, "level", lv->name[l], "size_bytes",
							      (json_int_t)r->size_bytes, "predicted_cy_per_cl", pred,
							      "measured_cy_per_cl", meas, "predicted_over_measured", pred / meas,
							      "gbs", gbs, "gbs_real", real, "calibration", calib));
		}
	json_t *out = json_pack("{s:o,s:o,s:s,s:s}", "parameters", params, "ecm", rows, "cycles",
				"core cycles of the measured clock per cache-line update (8 iterations, one line per stream), "
				"fastest of the repetitions",
				"model", "inclusive hierarchy, write-allocate and eviction per written line, no overlap of transfers; "
					 "L1 loads and stores in the same cycle");
	if (stopped || failed)
		json_object_set_new(out, "incomplete", json_true());
	if (o->json) {
		cli_print_json("bench", out);
	} else {
		printf("archscope bench --ecm: ECM model of the streaming kernels (ECM paper, Tables 2 and 4), one thread on cpu %d\n"
		       "cycles: core cycles at the measured %.3f GHz per cache-line update (8 iterations), fastest of %d repetitions\n\n"
		       "machine parameters (measured here: L1 rates from load and store in L1, each transfer from the load\n"
		       "kernel's extra cycles one level further out):\n"
		       "  L1 load %.1f B/cy, L1 store %.1f B/cy, loads and stores in the same cycle\n",
		       cpu, clk.ghz, o->reps, p.l1_load_bpc, p.l1_store_bpc);
		table_print(pt, stdout, "  ");
		if (clamped > 0)
			printf("  (%d transfer%s measured no slower than the level above: taken as 0 cy/CL)\n", clamped,
			       clamped > 1 ? "s" : "");
		printf("\nprediction = L1 part max(loads x 64 B / load rate, stores x 64 B / store rate) + lines crossing each\n"
		       "boundary (reads + write-allocate + evictions) x its cy/CL; pred/meas %% as in Table 4\n");
		table_print(t, stdout, "  ");
		json_decref(out);
	}
	table_free(pt);
	table_free(t);
	bench_sweep_release(&res);
	if (stopped) {
		note("interrupted: printed the levels measured completely");
		return 130;
	}
	return failed ? EXIT_FAIL : EXIT_OK;
}

int bench_threads_scaling(const struct bench_cli *o, const struct bench_kernel *k, const struct bench_levels *lv,
			  const struct as_cpulist *cpus)
{
	cpu_pin_self(cpus->cpu[0], NULL);
	struct clock_result clk;
	clock_measure(&clk, 5);
	size_t avail = buffer_mem_available();
	/* thread counts outside: a stop leaves whole rows; working sets at most a quarter of memory */
	struct bench_sweep sw = { .lv = lv, .kernels = &k, .nkernels = 1, .cpus = cpus, .max_threads = cpus->n,
				  .threads_outer = 1, .max_bytes = avail / 4, .run = run_opts(o, clk.ghz), .stop = o->stop,
				  .report = report_scaling };
	struct bench_sweep_result res;
	struct as_error err = { 0 };
	if (bench_sweep_run(&sw, &res, &err) != 0)
		die_err(EXIT_FAIL, &err);
	progress_done();
	int failed = res.stopped, stopped = *o->stop, last_cache = lv->n - 2;

	json_t *rows = json_array();
	/* header: threads, one column per level */
	const char *h[BENCH_MAX_LEVELS + 1] = { "threads" };
	char hbuf[BENCH_MAX_LEVELS][24];
	for (int l = 0; l < lv->n; l++) {
		snprintf(hbuf[l], sizeof(hbuf[l]), "%s GB/s", lv->name[l]);
		h[l + 1] = hbuf[l];
	}
	struct table *t = table_new(lv->n + 1, h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]);
	for (int n = 1; n <= cpus->n && bench_sweep_entered(&res, 0, n); n++) {
		json_t *lev = json_array();
		double gbs[BENCH_MAX_LEVELS];
		int nl = 0;
		const struct bench_result *r;
		while (nl < lv->n && (r = bench_sweep_get(&res, nl, n, 0))) {
			json_array_append_new(lev, json_pack("{s:s,s:I,s:f,s:f,s:f}", "level", lv->name[nl], "size_bytes",
							     (json_int_t)r->size_bytes, "gbs", r->gbs.median, "gbs_real",
							     r->gbs_real.median, "cy_per_cl", r->cy_per_cl.median));
			gbs[nl++] = r->gbs.median;
		}
		json_array_append_new(rows, json_pack("{s:i,s:o}", "threads", n, "levels", lev));
		if (nl == 0)
			break;
		table_cell(t, "%d", n);
		for (int l = 0; l < lv->n; l++)
			table_cell(t, l < nl ? "%.1f" : "-", l < nl ? gbs[l] : 0.0);
	}
	bench_sweep_release(&res);
	json_t *out = json_pack("{s:s,s:s,s:o,s:f,s:s}", "kernel", k->name, "variant", k->variant, "scaling", rows,
				"clock_ghz", clk.ghz, "sizes",
				"levels above the last cache: the one-thread size per thread; last cache and memory: the same total");
	if (stopped || failed)
		json_object_set_new(out, "incomplete", json_true());
	if (o->json) {
		cli_print_json("bench", out);
	} else {
		char sz[32];
		printf("archscope bench --threads-scaling %s-%s (%s): application GB/s, median of %d repetitions (ECM paper, Table 5)\n"
		       "working sets:", k->name, k->variant, k->formula, o->reps);
		for (int l = 0; l < lv->n; l++)
			printf(" %s %s%s", lv->name[l], buffer_format_size(lv->size[l], sz, sizeof(sz)),
			       l < last_cache ? " per thread" : " in all");
		printf("\n");
		table_print(t, stdout, "  ");
		json_decref(out);
	}
	table_free(t);
	if (stopped) {
		note("interrupted: printed what was measured");
		return 130;
	}
	return failed ? EXIT_FAIL : EXIT_OK;
}
