/* The memory-hierarchy rows of the probe table: each calls its probe in src/probe (line.h,
 * caches.h, assoc.h, tlb.h), which measures and answers, and renders the result struct: text,
 * JSON, raw CSV (--raw) and plots (--plot), the OS-reported value beside every answer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/probe.h"
#include "common/buffer.h"
#include "probe/assoc.h"
#include "probe/caches.h"
#include "probe/line.h"
#include "probe/tlb.h"
#include "report/output.h"
#include "report/table.h"

static int curve_fail(const char *probe, const struct as_error *err)
{
	progress_done();
	fprintf(stderr, "archscope: error: %s\n", err->msg[0] ? err->msg : probe);
	return EXIT_FAIL;
}

/* The caches plot colours each point by its QT cluster (of the monotone curve) and marks the
 * detected level edges. */
static void caches_plot(struct probe_ctx *ctx, const struct probe_caches_result *r)
{
	const struct probe_curve *c = &r->curve;
	if (!ctx->plot_dir || c->n == 0)
		return;
	char datapath[4096];
	snprintf(datapath, sizeof(datapath), "%s/caches-clusters.dat", ctx->plot_dir);
	FILE *f = fopen(datapath, "w");
	if (!f)
		return;
	for (size_t i = 0; i < c->n; i++)
		fprintf(f, "%.10g %.10g %.10g %d\n", c->x[i], c->min_ns[i], r->monotone_ns[i], r->cluster[i]);
	fclose(f);
	char marks[2048] = "";
	for (int i = 0; i < r->nlevels; i++) {
		size_t len = strlen(marks);
		double size = r->level[i].size.value;
		snprintf(marks + len, sizeof(marks) - len,
			 "set arrow from %g, graph 0 to %g, graph 1 nohead dashtype 3\n"
			 "set label 'L%d %.3g ns' at %g, graph 0.92 right offset -0.5,0\n",
			 size, size, i + 1, r->level[i].latency.value, size);
	}
	char *body = NULL;
	if (asprintf(&body,
		     "set title 'archscope probe caches: latency per access, points coloured by QT cluster'\n"
		     "set xlabel 'buffer size (bytes; k = 1024)'\nset ylabel 'latency per access (ns)'\n"
		     "set format x '%%.0b%%B'\n"
		     "set logscale x 2\nset logscale y\nset grid\nset key bottom right\nunset colorbox\n"
		     "set palette defined (0 '#1b9e77', 1 '#d95f02', 2 '#7570b3', 3 '#e7298a', 4 '#66a61e', 5 '#e6ab02')\n%s\n"
		     "plot 'caches-clusters.dat' using 1:2 with lines lc rgb '#bbbbbb' title 'min per size', "
		     "'' using 1:3:4 with points pt 7 ps 0.8 lc palette title 'monotone, by cluster'",
		     marks) >= 0) {
		probe_plot(ctx, "caches", body);
		free(body);
	}
}

/* Saves the curve (x, min, median) as CSV and plots it; xlabel and logx describe the axis. */
static void curve_evidence(struct probe_ctx *ctx, const char *name, const char *xname,
			   const struct probe_curve *c, const char *xlabel, int logx)
{
	double *rows = malloc(c->n * 3 * sizeof(double));
	if (!rows)
		return;
	for (size_t i = 0; i < c->n; i++) {
		rows[3 * i] = c->x[i];
		rows[3 * i + 1] = c->min_ns[i];
		rows[3 * i + 2] = c->median_ns[i];
	}
	char header[96];
	snprintf(header, sizeof(header), "%s,min_ns,median_ns", xname);
	probe_save_raw(ctx, name, header, rows, c->n, 3);
	if (ctx->plot_dir) {
		char datapath[4096];
		snprintf(datapath, sizeof(datapath), "%s/%s.dat", ctx->plot_dir, name);
		FILE *f = fopen(datapath, "w");
		if (f) {
			for (size_t i = 0; i < c->n; i++)
				fprintf(f, "%.10g %.10g %.10g\n", c->x[i], c->min_ns[i], c->median_ns[i]);
			fclose(f);
			char *body = NULL;
			if (asprintf(&body,
				     "set title 'archscope probe %s'\nset xlabel '%s'\nset ylabel 'latency per access (ns)'\n"
				     "%sset grid\nset key top left\n\n"
				     "plot '%s.dat' using 1:2 with linespoints title 'min', "
				     "'%s.dat' using 1:3 with lines dashtype 2 title 'median'",
				     name, xlabel, logx ? "set logscale x 2\n" : "", name, name) >= 0) {
				probe_plot(ctx, name, body);
				free(body);
			}
		}
	}
	free(rows);
}

static json_t *curve_json(const struct probe_curve *c, const char *xname)
{
	json_t *a = json_array();
	for (size_t i = 0; i < c->n; i++) {
		json_t *p = json_object();
		json_object_set_new(p, xname, json_real(c->x[i]));
		json_object_set_new(p, "min_ns", json_real(c->min_ns[i]));
		json_object_set_new(p, "median_ns", json_real(c->median_ns[i]));
		json_array_append_new(a, p);
	}
	return a;
}

static const char *differs(double measured, double os)
{
	if (!(os > 0) || !(measured > 0))
		return "";
	return fabs(measured - os) / os > 0.05 ? "  <- differs from the OS" : "";
}

/* An answer as JSON; os_int: the OS-reported value is an integer count (bytes, ways). */
static json_t *answer_json(const struct probe_answer *a, int os_int)
{
	json_t *os = NULL;
	if (isfinite(a->os_reported))
		os = os_int ? json_integer((json_int_t)a->os_reported) : json_real(a->os_reported);
	json_t *j = output_answer(a->value, a->unit, a->confidence, a->method, os);
	if (a->reason[0])
		json_object_set_new(j, "reason", json_string(a->reason));
	return j;
}

static char *fmt_bytes(double b, char *buf, size_t len)
{
	return buffer_format_size((size_t)(b + 0.5), buf, len);
}

/* --- line -------------------------------------------------------------------------------- */

int probe_row_line(struct probe_ctx *ctx)
{
	struct probe_line_result r;
	struct as_error err = { 0 };
	if (probe_line_find(&ctx->env, probe_progress, &r, &err) != 0) {
		probe_line_result_release(&r);
		return curve_fail("line", &err);
	}
	progress_done();
	const struct probe_curve *c = &r.curve;
	const struct sharing_curve *sc = &r.sharing;
	double line = r.line.value, os = r.line.os_reported;
	json_t *res = answer_json(&r.line, 0);
	json_object_set_new(res, "curve", curve_json(c, "d_bytes"));
	json_t *w = json_object(), *stride = answer_json(&r.stride, 0), *coh = answer_json(&r.coherence, 0);
	json_t *scurve = json_array();
	for (int i = 0; i < sc->n; i++)
		json_array_append_new(scurve, json_pack("{s:f,s:f,s:f}", "d_bytes", sc->d_bytes[i], "min_ns", sc->min_ns[i],
							"median_ns", sc->median_ns[i]));
	json_object_set_new(coh, "cpus", json_pack("[i,i]", r.sharing_cpus[0], r.sharing_cpus[1]));
	json_object_set_new(coh, "contrast", isfinite(r.sharing_ratio) ? json_real(r.sharing_ratio) : json_null());
	json_object_set_new(coh, "curve", scurve);
	json_object_set_new(w, "stride", stride);
	json_object_set_new(w, "coherence", coh);
	json_object_set_new(res, "witnesses", w);
	json_object_set_new(ctx->results, "line", res);
	curve_evidence(ctx, "line", "d_bytes", c, "distance D between the two accesses of a pair (bytes)", 1);
	if (sc->n) {
		double *rows = malloc((size_t)sc->n * 3 * sizeof(double));
		for (int i = 0; rows && i < sc->n; i++) {
			rows[3 * i] = sc->d_bytes[i];
			rows[3 * i + 1] = sc->min_ns[i];
			rows[3 * i + 2] = sc->median_ns[i];
		}
		if (rows)
			probe_save_raw(ctx, "line-sharing", "d_bytes,min_ns,median_ns", rows, (size_t)sc->n, 3);
		free(rows);
	}
	if (!ctx->json) {
		printf("line\n");
		if (isfinite(line))
			printf("  cache line      %.0f B (confidence %.2f)\n", line, r.line.confidence);
		else
			printf("  cache line      not found\n");
		if (isfinite(r.coherence.value))
			printf("  coherence unit  %.0f B (CPUs %d and %d: %.1fx slower per increment below it; confidence %.2f)\n",
			       r.coherence.value, r.sharing_cpus[0], r.sharing_cpus[1], r.sharing_ratio, r.coherence.confidence);
		else
			printf("  coherence unit  not measured: %s\n", r.coherence.reason);
		if (isfinite(r.stride.value))
			printf("  stride          %.0f B (latency per access %.2f ns at D = %.0f B, %.2f ns at D = %.0f B; confidence %.2f)\n",
			       r.stride.value, r.step_before_ns, c->x[r.step_index], r.step_after_ns, c->x[r.step_index + 1],
			       r.stride.confidence);
		else
			printf("  stride          no step found (the curve is flat: %zu points)\n", c->n);
		if (r.line.reason[0])
			printf("  note            %s\n", r.line.reason);
		if (isfinite(os))
			printf("  os_reported     %.0f B%s\n", os, differs(line, os));
		printf("\n");
	}
	probe_line_result_release(&r);
	return 0;
}

/* --- caches --------------------------------------------------------------------------------- */

/* The line size later probes space their slots by (probe_line_need), with its error and note
 * printed here, before the probe that needs it runs (the probe then finds it in env). */
static void need_line(struct probe_ctx *ctx)
{
	struct as_error err = { 0 };
	int rc = probe_line_need(&ctx->env, probe_progress, &err);
	if (rc < 0)
		curve_fail("line", &err);
	else
		progress_done();
	if (rc != 0)
		note("no cache line size could be measured; assuming 64 B for the slot spacing");
}

int probe_row_caches(struct probe_ctx *ctx)
{
	need_line(ctx);
	struct probe_caches_result r;
	struct as_error err = { 0 };
	if (probe_caches_find(&ctx->env, probe_progress, NULL, &r, &err) != 0) {
		probe_caches_result_release(&r);
		return curve_fail("caches", &err);
	}
	progress_done();
	const struct probe_curve *c = &r.curve;
	int has_mem = isfinite(r.memory.value);
	double ghz = r.clock_ghz;
	json_t *levels = json_array();
	for (int i = 0; i < r.nlevels; i++) {
		const struct probe_cache_level *lv = &r.level[i];
		json_t *l = json_object();
		json_object_set_new(l, "level", json_integer(i + 1));
		json_object_set_new(l, "size", answer_json(&lv->size, 1));
		json_object_set_new(l, "qt_max_x", json_real(lv->qt_max_x));
		json_object_set_new(l, "latency", answer_json(&lv->latency, 0));
		json_object_set_new(l, "latency_cy", isfinite(lv->latency_cy) ? json_real(lv->latency_cy) : json_null());
		json_object_set_new(l, "points", json_integer((json_int_t)lv->points));
		json_array_append_new(levels, l);
	}
	json_t *res = json_object();
	json_object_set_new(res, "levels", levels);
	json_object_set_new(res, "memory_latency", answer_json(&r.memory, 0));
	json_object_set_new(res, "memory_latency_cy", isfinite(r.memory_cy) ? json_real(r.memory_cy) : json_null());
	json_object_set_new(res, "clock_ghz", ghz > 0 ? json_real(ghz) : json_null());
	json_object_set_new(res, "line_bytes", json_real((double)r.line_bytes));
	json_object_set_new(res, "pages", json_string(huge_policy_name(r.huge)));
	json_object_set_new(res, "passes", json_integer(r.passes));
	json_object_set_new(res, "curve", curve_json(c, "size_bytes"));
	json_object_set_new(ctx->results, "caches", res);

	{
		/* raw CSV through the common path; the plot is the coloured one */
		const char *plot_dir = ctx->plot_dir;
		ctx->plot_dir = NULL;
		curve_evidence(ctx, "caches", "size_bytes", c, "buffer size (bytes)", 1);
		ctx->plot_dir = plot_dir;
		caches_plot(ctx, &r);
	}

	if (!ctx->json) {
		char a[32], b[32];
		printf("caches (%zu sizes up to %s, line %zu B, %s pages, %d pass%s)\n", c->n,
		       fmt_bytes(c->n ? c->x[c->n - 1] : 0, a, sizeof(a)), r.line_bytes,
		       r.huge == HUGE_ALWAYS ? "huge" : "4 KiB", r.passes, "es");
		struct table *t = table_new(6, "level", "size", "latency", "latency", "points", "os_reported size");
		for (int i = 0; i < r.nlevels; i++) {
			const struct probe_cache_level *lv = &r.level[i];
			table_cell(t, "L%d", i + 1);
			table_cell(t, "%s", fmt_bytes(lv->size.value, a, sizeof(a)));
			table_cell(t, "%.2f ns", lv->latency.value);
			if (ghz > 0)
				table_cell(t, "%.1f cy", lv->latency_cy);
			else
				table_cell(t, "-");
			table_cell(t, "%zu", lv->points);
			if (isfinite(lv->size.os_reported))
				table_cell(t, "%s%s", fmt_bytes(lv->size.os_reported, b, sizeof(b)),
					   differs(lv->size.value, lv->size.os_reported));
			else
				table_cell(t, "-");
		}
		if (has_mem) {
			table_cell(t, "memory");
			table_cell(t, "-");
			table_cell(t, "%.2f ns", r.memory.value);
			if (ghz > 0)
				table_cell(t, "%.1f cy", r.memory_cy);
			else
				table_cell(t, "-");
			table_cell(t, "-");
			table_cell(t, "-");
		}
		table_print(t, stdout, "  ");
		table_free(t);
		if (ghz > 0)
			printf("  cycles are core cycles at the measured clock, %.3f GHz\n", ghz);
		if (!has_mem)
			printf("  no memory plateau reached within %s: the last level may be larger\n",
			       fmt_bytes((double)r.max_bytes, a, sizeof(a)));
		printf("\n");
	}
	probe_caches_result_release(&r);
	return 0;
}

/* --- associativity ---------------------------------------------------------------------------- */

int probe_row_assoc(struct probe_ctx *ctx)
{
	struct as_error err = { 0 };
	if (ctx->env.nlevels == 0) {
		note("assoc needs the cache sizes: running a quick caches probe first");
		need_line(ctx);
		if (probe_caches_need(&ctx->env, probe_progress, &err) != 0)
			curve_fail("caches", &err);
		else
			progress_done();
	}
	if (ctx->env.nlevels == 0) {
		note("assoc: no cache level was measured, nothing to probe");
		return EXIT_FAIL;
	}
	need_line(ctx);
	struct probe_assoc_result r;
	int rc = probe_assoc_find(&ctx->env, probe_progress, &r, &err);
	progress_done();
	for (int i = 0; i < r.nlevels; i++) {
		char name[32];
		snprintf(name, sizeof(name), "assoc-L%d", i + 1);
		curve_evidence(ctx, name, "k", &r.level[i].curve, "K addresses mapping to the same set", 0);
	}
	if (rc != 0) {
		probe_assoc_result_release(&r);
		return curve_fail("assoc", &err);
	}
	json_t *levels = json_array();
	struct table *t = table_new(5, "level", "ways", "confidence", "step", "os_reported");
	for (int i = 0; i < r.nlevels; i++) {
		const struct probe_assoc_level *lv = &r.level[i];
		double ways = lv->ways.value, os = lv->ways.os_reported;
		json_t *l = json_object();
		json_object_set_new(l, "level", json_integer(i + 1));
		json_object_set_new(l, "ways", answer_json(&lv->ways, 1));
		json_object_set_new(l, "level_bytes", json_real(lv->level_bytes));
		json_object_set_new(l, "curve", curve_json(&lv->curve, "k"));
		json_array_append_new(levels, l);
		table_cell(t, "L%d", i + 1);
		if (isfinite(ways))
			table_cell(t, "%.0f", ways);
		else
			table_cell(t, "not found");
		table_cell(t, "%.2f", lv->ways.confidence);
		if (lv->step_index >= 0)
			table_cell(t, "%.2f -> %.2f ns", lv->step_before_ns, lv->step_after_ns);
		else
			table_cell(t, "no step to the next level");
		if (isfinite(os))
			table_cell(t, "%.0f%s", os, differs(ways, os));
		else
			table_cell(t, "-");
	}
	json_t *res = json_object();
	json_object_set_new(res, "levels", levels);
	json_object_set_new(ctx->results, "assoc", res);
	if (!ctx->json) {
		printf("assoc\n");
		table_print(t, stdout, "  ");
		for (int i = 0; i < r.nlevels; i++)
			if (r.level[i].ways.reason[0])
				printf("  L%d: %s\n", i + 1, r.level[i].ways.reason);
		printf("  physically indexed levels show no step when physical pages do not keep set alignment\n"
		       "  (virtual machines, no huge pages) or when sets are hashed over slices (most x86 L3s)\n\n");
	}
	table_free(t);
	probe_assoc_result_release(&r);
	return 0;
}

/* --- TLB -------------------------------------------------------------------------------------- */

int probe_row_tlb(struct probe_ctx *ctx)
{
	need_line(ctx);
	struct probe_tlb_result r;
	struct as_error err = { 0 };
	int rc = probe_tlb_find(&ctx->env, probe_progress, &r, &err);
	progress_done();
	if (rc == 0 || r.entries_measured) { /* the page curves were measured in full */
		curve_evidence(ctx, "tlb-page", "stride_bytes", &r.page_curve,
			       "distance s between the two accesses of a pair (bytes)", 1);
		if (r.fault_curve.n)
			curve_evidence(ctx, "tlb-faults", "stride_bytes", &r.fault_curve,
				       "distance s between first touches of fresh memory (bytes)", 1);
	}
	if (rc != 0) {
		probe_tlb_result_release(&r);
		return curve_fail("tlb", &err);
	}
	double page = r.page.value;
	json_t *res = json_object();
	json_object_set_new(res, "page_size", answer_json(&r.page, 1));
	json_object_set_new(res, "page_curve", curve_json(&r.page_curve, "stride_bytes"));
	json_t *pw = json_object(), *pf = answer_json(&r.page_faults, 1);
	json_object_set_new(pf, "curve", curve_json(&r.fault_curve, "stride_bytes"));
	json_object_set_new(pw, "pairs", answer_json(&r.page_pairs, 1));
	json_object_set_new(pw, "faults", pf);
	json_object_set_new(res, "page_witnesses", pw);
	if (!r.entries_measured) {
		json_object_set_new(res, "levels", json_array());
		json_object_set_new(ctx->results, "tlb", res);
		if (!ctx->json)
			printf("tlb\n  page size       not found\n\n");
		probe_tlb_result_release(&r);
		return 0;
	}
	json_t *levels = json_array();
	struct table *t = table_new(3, "level", "entries", "TLB cost per access");
	for (int i = 0; i < r.nlevels; i++) {
		const struct probe_tlb_level *lv = &r.level[i];
		table_cell(t, "L%d", i + 1);
		table_cell(t, "%.0f", lv->entries.value);
		table_cell(t, "%.2f ns", lv->cost_ns);
		json_t *l = json_object();
		json_object_set_new(l, "level", json_integer(i + 1));
		json_object_set_new(l, "entries", answer_json(&lv->entries, 1));
		json_object_set_new(l, "qt_max_x", json_real(lv->qt_max_x));
		json_object_set_new(l, "cost_ns", json_real(lv->cost_ns));
		json_array_append_new(levels, l);
	}
	if (isfinite(r.walk_ns)) {
		table_cell(t, "walk");
		table_cell(t, "-");
		table_cell(t, "%.2f ns", r.walk_ns);
	}
	json_object_set_new(res, "levels", levels);
	json_object_set_new(res, "entries_curve", curve_json(&r.entries_curve, "pages"));
	json_object_set_new(res, "control_curve", curve_json(&r.control_curve, "lines"));
	json_object_set_new(ctx->results, "tlb", res);
	curve_evidence(ctx, "tlb-entries", "pages", &r.entries_curve, "pages touched", 1);
	curve_evidence(ctx, "tlb-control", "lines", &r.control_curve, "lines touched, packed", 1);
	if (!ctx->json) {
		printf("tlb\n  page size       %.0f B (confidence %.2f)  os_reported %.0f B%s\n", page, r.page.confidence,
		       r.page.os_reported, differs(page, r.page.os_reported));
		if (isfinite(r.page_faults.value))
			printf("  faults          %.0f B (the time per first touch stops doubling; confidence %.2f)\n",
			       r.page_faults.value, r.page_faults.confidence);
		else
			printf("  faults          not found: %s\n", r.page_faults.reason);
		if (isfinite(r.page_pairs.value))
			printf("  pairs           %.0f B (pair latency %.2f -> %.2f ns; confidence %.2f)\n", r.page_pairs.value,
			       r.page_before_ns, r.page_after_ns, r.page_pairs.confidence);
		else
			printf("  pairs           no step found\n");
		if (r.page.reason[0])
			printf("  note            %s\n", r.page.reason);
		if (r.nlevels)
			table_print(t, stdout, "  ");
		else
			printf("  no TLB level boundary found up to %zu pages\n", r.max_pages);
		printf("  beyond the last level every access walks the page table; entries are what user code can use\n\n");
	}
	table_free(t);
	probe_tlb_result_release(&r);
	return 0;
}
