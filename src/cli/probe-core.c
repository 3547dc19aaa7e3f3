/* The core and OS rows of the probe table: execution contexts and the scheduler time slice. Their
 * threads are not pinned (BlackjackBench §3.4, §3.6): the probe thread widens its CPU set to every
 * allowed CPU for the run and pins itself back after. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/dist.h"
#include "analysis/steps.h"
#include "cli/cli.h"
#include "cli/probe.h"
#include "probe/core.h"
#include "report/output.h"
#include "report/table.h"

static void on_progress(void *p, const char *probe, const char *point, int done, int total)
{
	(void)p;
	progress("probe %s: %s (%d/%d)", probe, point, done + 1, total);
}

static int unpin(struct probe_ctx *ctx, struct as_cpulist *allowed)
{
	struct as_error err = { 0 };
	*allowed = ctx->allowed;
	if (cpu_allow_self(allowed, &err) != 0) {
		fprintf(stderr, "archscope: error: %s\n", err.msg);
		return -1;
	}
	return 0;
}

static void repin(struct probe_ctx *ctx)
{
	cpu_pin_self(ctx->cpu, NULL);
}

int probe_row_contexts(struct probe_ctx *ctx)
{
	struct as_cpulist allowed;
	if (unpin(ctx, &allowed) != 0)
		return EXIT_FAIL;
	struct probe_opts o = { .quick = ctx->quick, .seed = ctx->seed, .stop = ctx->interrupted, .progress = on_progress };
	/* Enough threads to see the time double on any machine of up to max CPUs. */
	int max_threads = 2 * allowed.n + 2;
	if (max_threads > 64)
		max_threads = 64;
	json_t *res = json_object();
	struct table *t = table_new(4, "kind", "contexts", "confidence", "normalised time for M = 1, 2, ...");
	int rc = 0;
	for (int k = 0; k < 3 && !*ctx->interrupted; k++) {
		struct probe_curve c;
		struct as_error err = { 0 };
		probe_curve_init(&c);
		if (probe_contexts_run(&o, (enum contexts_kind)k, max_threads, &c, &err) != 0) {
			progress_done();
			fprintf(stderr, "archscope: error: %s\n", err.msg);
			probe_curve_release(&c);
			rc = EXIT_FAIL;
			break;
		}
		progress_done();
		double *y = malloc((c.n ? c.n : 1) * sizeof(double));
		steps_monotone(c.min_ns, y, c.n);
		struct step_answer a = steps_first(y, c.n);
		/* Flat to the end: at least as many contexts as threads tried. */
		double n_ctx = a.index >= 0 ? c.x[a.index] : NAN;
		const char *name = contexts_kind_name((enum contexts_kind)k);
		const char *what = k == 0 ? "threads of FP divisions" : k == 1 ? "threads of integer divisions"
					  : "threads chasing pointers in an L1-resident block";
		char method[256];
		snprintf(method, sizeof(method), "M unpinned %s, time normalised to M = 1; first step (mean relative increase)", what);
		json_t *ans = output_answer(n_ctx, "contexts", a.index >= 0 ? a.confidence : 0, method,
					    json_integer(ctx->topo && ctx->topo->pus ? ctx->topo->pus : allowed.n));
		json_t *curve = json_array();
		char series[512] = "";
		for (size_t i = 0; i < c.n; i++) {
			json_array_append_new(curve, json_pack("{s:i,s:f,s:f}", "threads", (json_int_t)c.x[i],
							       "normalised_min", c.min_ns[i], "normalised_median", c.median_ns[i]));
			size_t len = strlen(series);
			snprintf(series + len, sizeof(series) - len, "%s%.2f", i ? " " : "", c.min_ns[i]);
		}
		json_object_set_new(ans, "curve", curve);
		json_object_set_new(res, name, ans);
		{
			double *rows = malloc(c.n * 3 * sizeof(double) + 1);
			for (size_t i = 0; rows && i < c.n; i++) {
				rows[3 * i] = c.x[i];
				rows[3 * i + 1] = c.min_ns[i];
				rows[3 * i + 2] = c.median_ns[i];
			}
			if (rows)
				probe_save_raw(ctx, k == 0 ? "contexts-fp" : k == 1 ? "contexts-int" : "contexts-mem",
					       "threads,normalised_min,normalised_median", rows, c.n, 3);
			free(rows);
		}
		table_cell(t, "%s", name);
		if (isfinite(n_ctx))
			table_cell(t, "%.0f", n_ctx);
		else
			table_cell(t, ">= %.0f (no step)", c.n ? c.x[c.n - 1] : 0.0);
		table_cell(t, "%.2f", a.index >= 0 ? a.confidence : 0.0);
		table_cell(t, "%s", series);
		free(y);
		probe_curve_release(&c);
	}
	repin(ctx);
	json_object_set_new(ctx->results, "contexts", res);
	if (!ctx->json) {
		printf("contexts (threads not pinned; os_reported: %d hardware threads)\n",
		       ctx->topo && ctx->topo->pus ? ctx->topo->pus : allowed.n);
		table_print(t, stdout, "  ");
		printf("\n");
	}
	table_free(t);
	return rc;
}

int probe_row_timeslice(struct probe_ctx *ctx)
{
	struct as_cpulist allowed;
	if (unpin(ctx, &allowed) != 0)
		return EXIT_FAIL;
	struct probe_opts o = { .quick = ctx->quick, .seed = ctx->seed, .stop = ctx->interrupted, .progress = on_progress };
	int threads = 2 * allowed.n;
	double run_s = ctx->quick ? 0.5 : 2.0;
	struct timeslice_result r;
	struct as_error err = { 0 };
	int rc = probe_timeslice_run(&o, threads, run_s, &r, &err);
	progress_done();
	repin(ctx);
	if (rc) {
		fprintf(stderr, "archscope: error: %s\n", err.msg);
		return EXIT_FAIL;
	}
	struct dist_mode m;
	int have = dist_mode_log(r.gaps_us, r.n, 20, &m) == 0;
	double slice_ms = have ? m.value / 1000.0 : NAN;
	double conf = have ? fmin(1.0, m.share * 2.0) * fmin(1.0, (double)m.count / 20.0) : 0;
	json_t *res = json_object();
	json_t *ans = output_answer(slice_ms, "ms", conf,
				    "2x oversubscribed unpinned threads record gaps above 20 us in their own timeline; mode on a log histogram (20 bins per decade)",
				    NULL);
	json_object_set_new(res, "slice", ans);
	json_object_set_new(res, "threads", json_integer(threads));
	json_object_set_new(res, "run_s", json_real(run_s));
	json_object_set_new(res, "gaps", json_integer((json_int_t)r.n));
	json_object_set_new(res, "threshold_us", json_real(r.threshold_us));
	json_t *q = json_object();
	static const double qs[] = { 0.1, 0.25, 0.5, 0.75, 0.9 };
	static const char *qn[] = { "p10_ms", "p25_ms", "p50_ms", "p75_ms", "p90_ms" };
	for (int i = 0; i < 5; i++)
		json_object_set_new(q, qn[i], r.n ? json_real(dist_quantile_sorted(r.gaps_us, r.n, qs[i]) / 1000.0) : json_null());
	json_object_set_new(res, "distribution", q);
	json_object_set_new(ctx->results, "timeslice", res);
	if (r.n) {
		double *rows = malloc(r.n * sizeof(double));
		for (size_t i = 0; rows && i < r.n; i++)
			rows[i] = r.gaps_us[i];
		if (rows)
			probe_save_raw(ctx, "timeslice-gaps", "gap_us", rows, r.n, 1);
		free(rows);
	}
	if (!ctx->json) {
		printf("timeslice (%d unpinned threads on %d CPUs for %.1f s; %zu gaps above %.0f us)\n", threads,
		       allowed.n, run_s, r.n, r.threshold_us);
		if (have) {
			printf("  time slice      %.2f ms (mode: %zu gaps, %.0f %%, between %.2f and %.2f ms; confidence %.2f)\n",
			       slice_ms, m.count, m.share * 100, m.lo / 1000, m.hi / 1000, conf);
			printf("  distribution    p10 %.2f  p25 %.2f  median %.2f  p75 %.2f  p90 %.2f ms\n",
			       dist_quantile_sorted(r.gaps_us, r.n, 0.1) / 1000, dist_quantile_sorted(r.gaps_us, r.n, 0.25) / 1000,
			       dist_quantile_sorted(r.gaps_us, r.n, 0.5) / 1000, dist_quantile_sorted(r.gaps_us, r.n, 0.75) / 1000,
			       dist_quantile_sorted(r.gaps_us, r.n, 0.9) / 1000);
		} else {
			printf("  time slice      no gaps above the threshold: no preemption seen\n");
		}
		printf("\n");
	}
	timeslice_result_release(&r);
	return 0;
}
