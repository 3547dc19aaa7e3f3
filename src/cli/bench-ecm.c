/* archscope bench --ecm and --threads-scaling: the ECM paper's Table 4 (predicted against measured
 * cycles per cache-line update in every memory level) and Table 5 (bandwidth per level for 1..N
 * threads) on this machine. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ecm.h"
#include "bench/run.h"
#include "cli/bench.h"
#include "cli/cli.h"
#include "common/buffer.h"
#include "probe/clock.h"
#include "report/table.h"

#define CL_BYTES 64

static const struct bench_kernel *pick(const struct bench_cli *o, const char *name)
{
	const struct bench_kernel *k = o->variant ? bench_kernel_find(name, o->variant) : bench_kernel_best(name);
	if (!k)
		usage_error("bench", "kernel '%s' has no variant '%s' (see --list)", name, o->variant ? o->variant : "?");
	if (!bench_kernel_supported(k))
		usage_error("bench", "this CPU cannot run %s-%s (needs %s)", k->name, k->variant, k->isa);
	return k;
}

/* One measurement; 0 or -1 after printing the error. */
static int measure(const struct bench_cli *o, const struct bench_kernel *k, size_t size, const struct as_cpulist *cpus,
		   double ghz, struct bench_result *r)
{
	struct as_error err = { 0 };
	struct bench_opts bo = { .kernel = k, .size_bytes = size, .cpus = *cpus, .reps = o->reps, .min_time_s = o->min_time_s,
				 .clock_ghz = ghz, .small_pages = o->small_pages, .stream_offset = o->stream_offset };
	if (bench_run(&bo, r, &err) != 0) {
		progress_done();
		fprintf(stderr, "archscope: error: %s-%s, %zu bytes: %s\n", k->name, k->variant, size, err.msg);
		return -1;
	}
	return 0;
}

static const char *const ecm_default[] = { "load", "store", "copy", "stream", "triad" };

int bench_ecm(const struct bench_cli *o, const char *const *kernels, int nkernels, int cpu)
{
	if (nkernels == 0) {
		kernels = ecm_default;
		nkernels = (int)(sizeof(ecm_default) / sizeof(ecm_default[0]));
	}
	if (o->variant && strstr(o->variant, "-nt"))
		usage_error("bench", "--ecm: the model is calibrated with the load and store kernels, which have no "
				     "non-temporal variant; give a variant without -nt");
	/* load and store calibrate the model: measured always, first */
	const struct bench_kernel *ks[16];
	int nk = 0;
	ks[nk++] = pick(o, "load");
	ks[nk++] = pick(o, "store");
	for (int i = 0; i < nkernels; i++) {
		const struct bench_kernel *k = pick(o, kernels[i]);
		int dup = 0;
		for (int j = 0; j < nk; j++)
			dup |= ks[j] == k;
		if (!dup && nk < 16)
			ks[nk++] = k;
	}
	struct bench_levels lv;
	bench_levels_measure(cpu, &lv);
	cpu_pin_self(cpu, NULL);
	struct clock_result clk;
	clock_measure(&clk, 5);
	struct as_cpulist one = { .n = 1, .cpu = { cpu } };

	static struct bench_result res[16][BENCH_MAX_LEVELS];
	int done = 0, total = nk * lv.n, failed = 0;
	for (int l = 0; l < lv.n && !bench_interrupted && !failed; l++)
		for (int i = 0; i < nk && !bench_interrupted && !failed; i++) {
			char sz[32];
			progress("bench --ecm: %s-%s in %s (%s), %d/%d", ks[i]->name, ks[i]->variant, lv.name[l],
				 buffer_format_size(lv.size[l], sz, sizeof(sz)), ++done, total);
			failed = measure(o, ks[i], lv.size[l], &one, clk.ghz, &res[i][l]) != 0;
		}
	progress_done();
	int nlev = bench_interrupted || failed ? (done - 1) / nk : lv.n; /* whole levels measured */
	if (nlev < 1)
		die(failed ? EXIT_FAIL : 130, "bench --ecm: stopped before L1 was measured");

	/* Calibration: the fastest repetition of load in every level and of store in L1. */
	double load_cy[BENCH_MAX_LEVELS];
	for (int l = 0; l < nlev; l++)
		load_cy[l] = res[0][l].cy_per_cl.min;
	struct ecm_params p;
	int clamped = ecm_params_from_loads(&p, CL_BYTES, load_cy, nlev, res[1][0].cy_per_cl.min, 1);
	if (clamped < 0)
		die(EXIT_FAIL, "bench --ecm: the load or store kernel gave no usable time in L1");

	json_t *params = json_pack("{s:f,s:f,s:f,s:b,s:o}", "clock_ghz", clk.ghz, "l1_load_bytes_per_cy", p.l1_load_bpc,
				   "l1_store_bytes_per_cy", p.l1_store_bpc, "loads_stores_overlap", 1, "transfers", json_array());
	struct table *pt = table_new(4, "transfer", "cy/CL", "B/cy", "GB/s at the clock");
	for (int b = 0; b < p.ntransfers; b++) {
		double bpc = p.cy_per_cl[b] > 0 ? CL_BYTES / p.cy_per_cl[b] : INFINITY;
		json_array_append_new(json_object_get(params, "transfers"),
				      json_pack("{s:s,s:s,s:f,s:f}", "from", lv.name[b + 1], "to", lv.name[b], "cy_per_cl",
						p.cy_per_cl[b], "bytes_per_cy", isfinite(bpc) ? bpc : 0.0));
		table_cell(pt, "%s -> %s", lv.name[b + 1], lv.name[b]);
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
			struct ecm_streams s = { k->reads, k->writes, k->rws, k->nontemporal };
			double pred = ecm_predict(&p, &s, l), meas = res[i][l].cy_per_cl.min;
			int calib = i == 0 || (i == 1 && l == 0);
			/* GB/s of the fastest repetition, matching its cycles */
			double gbs = res[i][l].gbs.max, real = res[i][l].gbs_real.max;
			char sz[32];
			buffer_format_size(res[i][l].size_bytes, sz, sizeof(sz));
			table_cell(t, "%s-%s", k->name, k->variant);
			table_cell(t, "%s", lv.name[l]);
			table_cell(t, "%s", sz);
			table_cell(t, "%.2f", pred);
			table_cell(t, "%.2f", meas);
			table_cell(t, "%.1f", 100 * pred / meas);
			table_cell(t, "%.1f", real);
			table_cell(t, "%.1f", gbs);
			table_cell(t, "%s", calib ? "calibration" : "prediction");
			json_array_append_new(rows, json_pack("{s:s,s:s,s:s,s:I,s:f,s:f,s:f,s:f,s:f,s:b}", "kernel", k->name,
							      "variant", k->variant, "level", lv.name[l], "size_bytes",
							      (json_int_t)res[i][l].size_bytes, "predicted_cy_per_cl", pred,
							      "measured_cy_per_cl", meas, "predicted_over_measured", pred / meas,
							      "gbs", gbs, "gbs_real", real, "calibration", calib));
		}
	json_t *out = json_pack("{s:o,s:o,s:s,s:s}", "parameters", params, "ecm", rows, "cycles",
				"core cycles of the measured clock per cache-line update (8 iterations, one line per stream), "
				"fastest of the repetitions",
				"model", "inclusive hierarchy, write-allocate and eviction per written line, no overlap of transfers; "
					 "L1 loads and stores in the same cycle");
	if (bench_interrupted || failed)
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
	if (bench_interrupted) {
		note("interrupted: printed the levels measured completely");
		return 130;
	}
	return failed ? EXIT_FAIL : EXIT_OK;
}

int bench_threads_scaling(const struct bench_cli *o, const char *kernel, const struct as_cpulist *cpus)
{
	const struct bench_kernel *k = pick(o, kernel);
	struct bench_levels lv;
	bench_levels_measure(cpus->cpu[0], &lv);
	cpu_pin_self(cpus->cpu[0], NULL);
	struct clock_result clk;
	clock_measure(&clk, 5);
	size_t avail = buffer_mem_available();

	json_t *rows = json_array();
	/* header: threads, one column per level */
	const char *h[BENCH_MAX_LEVELS + 1] = { "threads" };
	char hbuf[BENCH_MAX_LEVELS][24];
	for (int l = 0; l < lv.n; l++) {
		snprintf(hbuf[l], sizeof(hbuf[l]), "%s GB/s", lv.name[l]);
		h[l + 1] = hbuf[l];
	}
	struct table *t = table_new(lv.n + 1, h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]);
	int failed = 0, last_cache = lv.n - 2, done = 0, total = cpus->n * lv.n;
	for (int n = 1; n <= cpus->n && !bench_interrupted && !failed; n++) {
		struct as_cpulist team = { .n = n };
		for (int i = 0; i < n; i++)
			team.cpu[i] = cpus->cpu[i];
		json_t *lev = json_array();
		double gbs[BENCH_MAX_LEVELS];
		int nl = 0;
		for (int l = 0; l < lv.n && !bench_interrupted && !failed; l++) {
			/* private levels (above the last cache): each thread its own share of the size;
			 * the last cache and memory are shared: the total stays */
			size_t size = l < last_cache ? lv.size[l] * (size_t)n : lv.size[l];
			if (avail && size > avail / 4)
				size = avail / 4;
			char sz[32];
			progress("bench --threads-scaling: %s-%s, %d thread%s, %s (%s), %d/%d", k->name, k->variant, n,
				 n > 1 ? "s" : "", lv.name[l], buffer_format_size(size, sz, sizeof(sz)), ++done, total);
			struct bench_result r;
			if (measure(o, k, size, &team, clk.ghz, &r) != 0) {
				failed = 1;
				break;
			}
			gbs[nl++] = r.gbs.median;
			json_array_append_new(lev, json_pack("{s:s,s:I,s:f,s:f,s:f}", "level", lv.name[l], "size_bytes",
							     (json_int_t)r.size_bytes, "gbs", r.gbs.median, "gbs_real",
							     r.gbs_real.median, "cy_per_cl", r.cy_per_cl.median));
		}
		progress_done();
		json_array_append_new(rows, json_pack("{s:i,s:o}", "threads", n, "levels", lev));
		if (nl == 0)
			break;
		table_cell(t, "%d", n);
		for (int l = 0; l < lv.n; l++)
			table_cell(t, l < nl ? "%.1f" : "-", l < nl ? gbs[l] : 0.0);
	}
	progress_done();
	json_t *out = json_pack("{s:s,s:s,s:o,s:f,s:s}", "kernel", k->name, "variant", k->variant, "scaling", rows,
				"clock_ghz", clk.ghz, "sizes",
				"levels above the last cache: the one-thread size per thread; last cache and memory: the same total");
	if (bench_interrupted || failed)
		json_object_set_new(out, "incomplete", json_true());
	if (o->json) {
		cli_print_json("bench", out);
	} else {
		char sz[32];
		printf("archscope bench --threads-scaling %s-%s (%s): application GB/s, median of %d repetitions (ECM paper, Table 5)\n"
		       "working sets:", k->name, k->variant, k->formula, o->reps);
		for (int l = 0; l < lv.n; l++)
			printf(" %s %s%s", lv.name[l], buffer_format_size(lv.size[l], sz, sizeof(sz)),
			       l < last_cache ? " per thread" : " in all");
		printf("\n");
		table_print(t, stdout, "  ");
		json_decref(out);
	}
	table_free(t);
	if (bench_interrupted) {
		note("interrupted: printed what was measured");
		return 130;
	}
	return failed ? EXIT_FAIL : EXIT_OK;
}
