/* The memory-hierarchy rows of the probe table: each calls its probe in src/probe (line.h,
 * caches.h, assoc.h, tlb.h), which measures and answers, saves its curves (--raw CSV, --plot)
 * and renders the result struct once through the emitter, the OS-reported value beside every
 * answer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "common/buffer.h"
#include "probe/assoc.h"
#include "probe/caches.h"
#include "probe/line.h"
#include "probe/tlb.h"
#include "report/emit.h"
#include "report/plot.h"

/* -1 after error(): the probe's message, or its name. */
static int curve_fail(const char *probe, const struct as_error *err)
{
	progress_done();
	return error("%s", err->msg[0] ? err->msg : probe);
}

/* The caches plot colours each point by its QT cluster (of the monotone curve) and marks the
 * detected level edges. */
static void caches_plot(struct cli_probe_ctx *ctx, const struct probe_caches_result *r)
{
	const struct probe_curve *c = &r->curve;
	if (!ctx->plot_dir || c->n == 0)
		return;
	char datapath[4096];
	snprintf(datapath, sizeof(datapath), "%s/caches-clusters.dat", ctx->plot_dir);
	struct atomic_file af;
	FILE *f = plot_data_open(datapath, &af);
	if (!f)
		return;
	for (size_t i = 0; i < c->n; i++)
		fprintf(f, "%.10g %.10g %.10g %d\n", c->x[i], c->min_ns[i], r->monotone_ns[i], r->cluster[i]);
	cli_probe_data_done(ctx, &af);
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
		cli_probe_plot(ctx, "caches", body);
		free(body);
	}
}

/* Saves the curve (x, min, median) as CSV and plots it; xlabel and logx describe the axis. */
static void curve_evidence(struct cli_probe_ctx *ctx, const char *name, const char *xname,
			   const struct probe_curve *c, const char *xlabel, int logx)
{
	char header[96];
	snprintf(header, sizeof(header), "%s,min_ns,median_ns", xname);
	cli_probe_save_curve(ctx, name, header, c);
	if (ctx->plot_dir) {
		char datapath[4096];
		snprintf(datapath, sizeof(datapath), "%s/%s.dat", ctx->plot_dir, name);
		struct atomic_file af;
		FILE *f = plot_data_open(datapath, &af);
		if (f) {
			for (size_t i = 0; i < c->n; i++)
				fprintf(f, "%.10g %.10g %.10g\n", c->x[i], c->min_ns[i], c->median_ns[i]);
			cli_probe_data_done(ctx, &af);
			char *body = NULL;
			if (asprintf(&body,
				     "set title 'archscope probe %s'\nset xlabel '%s'\nset ylabel 'latency per access (ns)'\n"
				     "%sset grid\nset key top left\n\n"
				     "plot '%s.dat' using 1:2 with linespoints title 'min', "
				     "'%s.dat' using 1:3 with lines dashtype 2 title 'median'",
				     name, xlabel, logx ? "set logscale x 2\n" : "", name, name) >= 0) {
				cli_probe_plot(ctx, name, body);
				free(body);
			}
		}
	}
}

/* Points of a curve as JSON only: [{xname, "min_ns", "median_ns"}]. */
static void points_render(struct emit *e, const char *key, const char *xname, const double *x, const double *min_ns,
			  const double *median_ns, size_t n)
{
	emit_table_begin(e, key, NULL);
	for (size_t i = 0; i < n; i++) {
		emit_row_begin(e);
		emit_number(e, xname, NULL, x[i], NULL, NULL);
		emit_number(e, "min_ns", NULL, min_ns[i], "ns", NULL);
		emit_number(e, "median_ns", NULL, median_ns[i], "ns", NULL);
		emit_row_end(e);
	}
	emit_table_end(e);
}

static void curve_render(struct emit *e, const char *key, const char *xname, const struct probe_curve *c)
{
	points_render(e, key, xname, c->x, c->min_ns, c->median_ns, c->n);
}

/* A size in bytes for people ("48 KiB"), text only; "-" when there is none. */
static void size_text(struct emit *e, const char *label, double bytes)
{
	if (isfinite(bytes) && bytes >= 0)
		emit_size(e, NULL, label, (uint64_t)(bytes + 0.5));
	else
		emit_text(e, label, "-");
}

/* --- line -------------------------------------------------------------------------------- */

static void line_render(struct emit *e, const struct probe_line_result *r, const struct machine_probes *rec)
{
	const struct probe_curve *c = &r->curve;
	emit_heading(e, "line");
	cli_probe_answer_render_begin(e, MP_LINE, "cache line", &rec->line, "%.0f", CLI_PROBE_ANSWER_NOTE | CLI_PROBE_ANSWER_DIFFERS);
	curve_render(e, "curve", "d_bytes", c);
	emit_object_begin(e, MP_KEY(LINE_WITNESSES), "");
	cli_probe_answer_render_begin(e, MP_LINE_STRIDE, "stride", &rec->line_stride, "%.0f", 0);
	if (isfinite(rec->line_stride.value))
		emit_annotate(e, ": latency per access %.2f ns at D = %.0f B, %.2f ns at D = %.0f B", r->step_before_ns,
			      c->x[r->step_index], r->step_after_ns, c->x[r->step_index + 1]);
	else
		emit_annotate(e, ": no step found (the curve is flat: %zu points)", c->n);
	emit_object_end(e);
	int shared = isfinite(rec->line_coherence.value);
	cli_probe_answer_render_begin(e, MP_LINE_COHERENCE, "coherence unit", &rec->line_coherence, "%.0f", CLI_PROBE_ANSWER_NOTE);
	emit_array_begin(e, "cpus", shared ? "coherence CPUs" : NULL);
	emit_int(e, NULL, "", r->sharing_cpus[0], NULL);
	emit_int(e, NULL, "", r->sharing_cpus[1], NULL);
	emit_array_end(e);
	emit_number(e, "contrast", shared ? "contrast" : NULL, r->sharing_ratio, NULL, "%.1fx slower per increment below the unit");
	points_render(e, "curve", "d_bytes", r->sharing.d_bytes, r->sharing.min_ns, r->sharing.median_ns, (size_t)r->sharing.n);
	emit_object_end(e);
	int flushed = isfinite(rec->line_flush.value);
	cli_probe_answer_render_begin(e, MP_LINE_FLUSH, "flush witness", &rec->line_flush, "%.0f", CLI_PROBE_ANSWER_NOTE);
	emit_number(e, "contrast", flushed ? "contrast" : NULL, r->flush_ratio, NULL, "%.1fx slower reload below the line");
	curve_render(e, "curve", "d_bytes", &r->flush_curve);
	emit_object_end(e);
	emit_object_end(e);
	emit_int(e, MP_KEY(LINE_WITNESSES_USED), "witnesses the answer rests on", rec->line_witnesses_used, NULL);
	emit_annotate(e, rec->line_witnesses_used == 2 ? " (coherence unit and flush witness)"
			 : rec->line_witnesses_used == 1 ? " (one prefetcher-proof witness)" : " (the stride witness alone)");
	emit_object_end(e);
}

int cli_probe_row_line(struct cli_probe_ctx *ctx)
{
	struct probe_line_result r;
	struct as_error err = { 0 };
	if (probe_line_find(&ctx->env, cli_probe_progress, &r, &err) != 0) {
		probe_line_result_release(&r);
		return curve_fail("line", &err);
	}
	progress_done();
	curve_evidence(ctx, "line", "d_bytes", &r.curve, "distance D between the two accesses of a pair (bytes)", 1);
	struct probe_curve sharing = { .n = (size_t)r.sharing.n, .x = r.sharing.d_bytes, .min_ns = r.sharing.min_ns,
				       .median_ns = r.sharing.median_ns };
	if (sharing.n)
		cli_probe_save_curve(ctx, "line-sharing", "d_bytes,min_ns,median_ns", &sharing);
	if (r.flush_curve.n)
		cli_probe_save_curve(ctx, "line-flush", "d_bytes,min_ns,median_ns", &r.flush_curve);
	cli_probe_record_line(ctx->rec, &r);
	CLI_PROBE_RENDER(ctx, line_render, &r, ctx->rec);
	probe_line_result_release(&r);
	return 0;
}

/* --- caches --------------------------------------------------------------------------------- */

/* The line size later probes space their slots by (probe_line_need), with its error and note
 * printed here, before the probe that needs it runs (the probe then finds it in env). */
static void need_line(struct cli_probe_ctx *ctx)
{
	struct as_error err = { 0 };
	int rc = probe_line_need(&ctx->env, cli_probe_progress, &err);
	if (rc < 0)
		curve_fail("line", &err);
	else
		progress_done();
	if (rc != 0)
		note("no cache line size could be measured; assuming 64 B for the slot spacing");
}

static void caches_render(struct emit *e, const struct probe_caches_result *r, const struct machine_probes *rec)
{
	const struct probe_curve *c = &r->curve;
	emit_object_begin(e, MP_KEY(CACHES), "caches");
	emit_table_begin(e, MP_KEY(CACHES_LEVELS), "");
	for (int i = 0; i < rec->ncaches; i++) {
		const struct probe_cache_level *lv = &r->level[i];
		const struct machine_probes_cache *a = &rec->cache[i];
		emit_row_begin(e);
		emit_int(e, MP_KEY(CACHES_LEVEL), NULL, a->level, NULL);
		emit_text(e, "level", "L%d", a->level);
		cli_probe_answer_render(e, MP_CACHES_SIZE, NULL, &a->size, NULL, 0);
		size_text(e, "size", a->size.value);
		emit_number(e, "qt_max_x", NULL, lv->qt_max_x, "B", NULL);
		cli_probe_answer_render(e, MP_CACHES_LATENCY, "latency", &a->latency, "%.2f", 0);
		emit_number(e, MP_KEY(CACHES_LATENCY_CY), "latency", a->latency_cy, "cy", "%.1f");
		emit_int(e, "points", "points", (long long)lv->points, NULL);
		size_text(e, "os_reported size", a->size.os_reported);
		emit_text(e, "", "%s", cli_probe_differs(a->size.value, a->size.os_reported) ? CLI_PROBE_DIFFERS_TEXT : "");
		emit_row_end(e);
	}
	emit_table_end(e);
	cli_probe_answer_render_begin(e, MP_CACHES_MEMORY_LATENCY, "memory latency, page-local", &rec->memory_latency, "%.2f", 0);
	if (!isfinite(rec->memory_latency.value)) {
		char max[32];
		emit_annotate(e, ": no memory plateau reached within %s: the last level may be larger",
			      buffer_format_size(r->max_bytes, max, sizeof(max)));
	}
	emit_object_end(e);
	emit_number(e, MP_KEY(CACHES_MEMORY_LATENCY_CY), isfinite(rec->memory_latency_cy) ? "memory latency, page-local" : NULL,
		    rec->memory_latency_cy, "cy", "%.1f");
	if (r->memory_random_bytes) {
		char sz[32];
		cli_probe_answer_render_begin(e, MP_CACHES_MEMORY_LATENCY_RANDOM, "memory latency, random", &rec->memory_latency_random,
					  "%.2f", CLI_PROBE_ANSWER_NOTE);
		emit_annotate(e, " (every line of %s in one random cycle, huge pages)",
			      buffer_format_size(r->memory_random_bytes, sz, sizeof(sz)));
		emit_object_end(e);
		emit_number(e, MP_KEY(CACHES_MEMORY_LATENCY_RANDOM_CY), isfinite(rec->memory_latency_random_cy) ? "memory latency, random" : NULL,
			    rec->memory_latency_random_cy, "cy", "%.1f");
		emit_size(e, "memory_latency_random_bytes", NULL, r->memory_random_bytes);
		emit_number(e, "memory_latency_random_huge_fraction", NULL, r->memory_random_huge, NULL, NULL);
	}
	emit_number(e, "clock_ghz", "clock", r->clock_ghz > 0 ? r->clock_ghz : NAN, "GHz", "%.3f");
	if (r->clock_ghz > 0)
		emit_annotate(e, " (cycles are core cycles at this measured clock)");
	emit_number(e, "line_bytes", "line", (double)r->line_bytes, "B", "%.0f");
	emit_string(e, "pages", "pages", huge_policy_name(r->huge));
	emit_int(e, "passes", "passes", r->passes, NULL);
	curve_render(e, "curve", "size_bytes", c);
	if (c->n) {
		char max[32];
		emit_text(e, "sizes", "%zu, up to %s", c->n,
			  buffer_format_size((size_t)(c->x[c->n - 1] + 0.5), max, sizeof(max)));
	}
	emit_object_end(e);
}

int cli_probe_row_caches(struct cli_probe_ctx *ctx)
{
	need_line(ctx);
	struct probe_caches_result r;
	struct as_error err = { 0 };
	if (probe_caches_find(&ctx->env, cli_probe_progress, NULL, &r, &err) != 0) {
		probe_caches_result_release(&r);
		return curve_fail("caches", &err);
	}
	/* the random-pattern memory latency beside the page-local one; its failure is a note */
	if (probe_caches_random(&ctx->env, cli_probe_progress, &r, &err) != 0) {
		progress_done();
		note("%s", err.msg);
	}
	progress_done();
	/* raw CSV through the common path; the plot is the coloured one */
	const char *plot_dir = ctx->plot_dir;
	ctx->plot_dir = NULL;
	curve_evidence(ctx, "caches", "size_bytes", &r.curve, "buffer size (bytes)", 1);
	ctx->plot_dir = plot_dir;
	caches_plot(ctx, &r);
	cli_probe_record_caches(ctx->rec, &r);
	CLI_PROBE_RENDER(ctx, caches_render, &r, ctx->rec);
	probe_caches_result_release(&r);
	return 0;
}

/* --- associativity ---------------------------------------------------------------------------- */

static void assoc_render(struct emit *e, const struct probe_assoc_result *r, const struct machine_probes *rec)
{
	emit_object_begin(e, MP_KEY(ASSOC), "assoc");
	emit_table_begin(e, MP_KEY(ASSOC_LEVELS), "");
	for (int i = 0; i < rec->nassoc; i++) {
		const struct probe_assoc_level *lv = &r->level[i];
		const struct machine_answer *ways = &rec->assoc[i].ways;
		emit_row_begin(e);
		emit_int(e, MP_KEY(ASSOC_LEVEL), NULL, rec->assoc[i].level, NULL);
		emit_text(e, "level", "L%d", rec->assoc[i].level);
		cli_probe_answer_render(e, MP_ASSOC_WAYS, "ways", ways, "%.0f", 0);
		emit_number(e, NULL, "confidence", ways->confidence, NULL, "%.2f");
		if (lv->step_index >= 0)
			emit_text(e, "step", "%.2f -> %.2f ns", lv->step_before_ns, lv->step_after_ns);
		else if (lv->evset_tried && isfinite(lv->evset.ways))
			emit_text(e, "step", "%.2f -> %.2f ns (congruent pages)", lv->evset.hit_ns, lv->evset.miss_ns);
		else
			emit_text(e, "step", "no step to the next level");
		if (isfinite(ways->os_reported))
			emit_number(e, NULL, "os_reported", ways->os_reported, "ways", "%.0f");
		else
			emit_text(e, "os_reported", "-");
		emit_text(e, "", "%s", cli_probe_differs(ways->value, ways->os_reported) ? CLI_PROBE_DIFFERS_TEXT : "");
		emit_number(e, "level_bytes", NULL, lv->level_bytes, "B", NULL);
		if (lv->sweeps > 1) /* the curve is the pointwise fastest of these sweeps */
			emit_int(e, "sweeps", NULL, lv->sweeps, NULL);
		curve_render(e, "curve", "k", &lv->curve);
		if (lv->evset_tried) { /* the congruent-pages witness, JSON only */
			emit_number(e, "evset_ways", NULL, lv->evset.ways, "ways", NULL);
			emit_int(e, "evset_minimal_pages", NULL, lv->evset.minimal_pages, NULL);
			emit_int(e, "evset_class_pages", NULL, lv->evset.class_pages, NULL);
			emit_number(e, "evset_hit_ns", NULL, lv->evset.hit_ns, "ns", NULL);
			emit_number(e, "evset_miss_ns", NULL, lv->evset.miss_ns, "ns", NULL);
			emit_int(e, "evset_walks", NULL, lv->evset.tests, NULL);
			curve_render(e, "evset_curve", "k", &lv->evset.curve);
		}
		emit_row_end(e);
	}
	emit_table_end(e);
	for (int i = 0; i < r->nlevels; i++) {
		const struct probe_evset_result *v = &r->level[i].evset;
		if (r->level[i].evset_tried && isfinite(v->ways))
			emit_text(e, "", "L%d: %.0f ways by congruent pages: %d pages evict each other, no %d of them do; %d such pages found (%d walks)",
				  i + 1, v->ways, v->minimal_pages, v->minimal_pages - 1, v->class_pages, v->tests);
		if (r->level[i].sweeps > 1)
			emit_text(e, "", "L%d: the first sweep showed no step; the curve is the fastest of %d sweeps at each K",
				  i + 1, r->level[i].sweeps);
		if (r->level[i].ways.reason[0])
			emit_text(e, "", "L%d: %s", i + 1, r->level[i].ways.reason);
	}
	emit_text(e, "", "physically indexed levels show no step when physical pages do not keep set alignment");
	emit_text(e, "", "(virtual machines, no huge pages) or when sets are hashed over slices (most x86 L3s)");
	emit_object_end(e);
}

int cli_probe_row_assoc(struct cli_probe_ctx *ctx)
{
	struct as_error err = { 0 };
	if (ctx->env.nlevels == 0) {
		note("assoc needs the cache sizes: running a quick caches probe first");
		need_line(ctx);
		if (probe_caches_need(&ctx->env, cli_probe_progress, &err) != 0)
			curve_fail("caches", &err);
		else
			progress_done();
	}
	if (ctx->env.nlevels == 0)
		return error("assoc: no cache level was measured, nothing to probe");
	need_line(ctx);
	struct probe_assoc_result r;
	int rc = probe_assoc_find(&ctx->env, cli_probe_progress, &r, &err);
	progress_done();
	for (int i = 0; i < r.nlevels; i++) {
		char name[32];
		snprintf(name, sizeof(name), "assoc-L%d", i + 1);
		curve_evidence(ctx, name, "k", &r.level[i].curve, "K addresses mapping to the same set", 0);
		if (r.level[i].evset_tried && r.level[i].evset.curve.n) {
			snprintf(name, sizeof(name), "assoc-L%d-pages", i + 1);
			curve_evidence(ctx, name, "k", &r.level[i].evset.curve, "K congruent pages (beside the flusher pages)", 0);
		}
	}
	if (rc == 0) {
		cli_probe_record_assoc(ctx->rec, &r);
		CLI_PROBE_RENDER(ctx, assoc_render, &r, ctx->rec);
	}
	probe_assoc_result_release(&r);
	return rc == 0 ? 0 : curve_fail("assoc", &err);
}

/* --- TLB -------------------------------------------------------------------------------------- */

static void tlb_render(struct emit *e, const struct probe_tlb_result *r, const struct machine_probes *rec)
{
	emit_object_begin(e, MP_KEY(TLB), "tlb");
	cli_probe_answer_render(e, MP_TLB_PAGE_SIZE, "page size", &rec->page_size, "%.0f", CLI_PROBE_ANSWER_NOTE | CLI_PROBE_ANSWER_DIFFERS);
	curve_render(e, "page_curve", "stride_bytes", &r->page_curve);
	emit_object_begin(e, MP_KEY(TLB_WITNESSES), "");
	cli_probe_answer_render_begin(e, MP_TLB_PAIRS, "pairs", &rec->page_pairs, "%.0f", 0);
	if (isfinite(rec->page_pairs.value))
		emit_annotate(e, ": pair latency %.2f -> %.2f ns", r->page_before_ns, r->page_after_ns);
	else
		emit_annotate(e, ": no step found");
	emit_object_end(e);
	cli_probe_answer_render_begin(e, MP_TLB_FAULTS, "faults", &rec->page_faults, "%.0f", CLI_PROBE_ANSWER_NOTE);
	if (isfinite(rec->page_faults.value))
		emit_annotate(e, ": the time per first touch stops doubling");
	curve_render(e, "curve", "stride_bytes", &r->fault_curve);
	emit_object_end(e);
	emit_object_end(e);
	int nlevels = rec->ntlb;
	emit_table_begin(e, MP_KEY(TLB_LEVELS), nlevels ? "" : NULL);
	for (int i = 0; i < nlevels; i++) {
		const struct probe_tlb_level *lv = &r->level[i];
		const struct machine_probes_tlb *a = &rec->tlb[i];
		emit_row_begin(e);
		emit_int(e, MP_KEY(TLB_LEVEL), NULL, a->level, NULL);
		emit_text(e, "level", "L%d", a->level);
		cli_probe_answer_render(e, MP_TLB_ENTRIES, "entries", &a->entries, "%.0f", 0);
		emit_number(e, "qt_max_x", NULL, lv->qt_max_x, "pages", NULL);
		emit_number(e, MP_KEY(TLB_COST), "TLB cost per access", a->cost_ns, "ns", "%.2f");
		emit_row_end(e);
	}
	emit_table_end(e);
	if (r->entries_measured) {
		if (isfinite(r->walk_ns))
			emit_number(e, NULL, "page walk", r->walk_ns, "ns", "%.2f");
		if (!nlevels)
			emit_text(e, "levels", "no TLB level boundary found up to %zu pages", r->max_pages);
		curve_render(e, "entries_curve", "pages", &r->entries_curve);
		curve_render(e, "control_curve", "lines", &r->control_curve);
	}
	emit_text(e, "", "beyond the last level every access walks the page table; entries are what user code can use");
	if (r->partial) {
		emit_bool(e, "partial", NULL, 1);
		emit_text(e, "", "interrupted: the curves stop early, so their answers have confidence 0");
	}
	emit_object_end(e);
}

int cli_probe_row_tlb(struct cli_probe_ctx *ctx)
{
	need_line(ctx);
	struct probe_tlb_result r;
	struct as_error err = { 0 };
	int rc = probe_tlb_find(&ctx->env, cli_probe_progress, &r, &err);
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
	if (r.entries_measured) {
		curve_evidence(ctx, "tlb-entries", "pages", &r.entries_curve, "pages touched", 1);
		curve_evidence(ctx, "tlb-control", "lines", &r.control_curve, "lines touched, packed", 1);
	}
	cli_probe_record_tlb(ctx->rec, &r);
	CLI_PROBE_RENDER(ctx, tlb_render, &r, ctx->rec);
	probe_tlb_result_release(&r);
	return 0;
}
