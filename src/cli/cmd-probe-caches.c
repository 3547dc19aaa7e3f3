/* probe caches: sizes and latencies of the cache levels and the memory latency (probe/caches.h),
 * the curve saved and plotted coloured by QT cluster, recorded, and rendered for people. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "common/buffer.h"
#include "probe/caches.h"
#include "report/emit.h"
#include "report/plot.h"

/* The caches plot colours each point by its QT cluster (of the monotone curve) and marks the
 * detected level edges. */
static void caches_plot(struct cli_probe_ctx *ctx, const struct machine_probes *rec)
{
	const struct machine_probes_curve *c = &rec->caches_ev.curve;
	double *monotone;
	int *cluster;
	if (!ctx->plot_dir || c->n == 0)
		return;
	if (probe_caches_clusters(c, &monotone, &cluster) != 0) {
		error("caches: out of memory for the plot");
		ctx->save_failed = 1;
		return;
	}
	char datapath[4096];
	snprintf(datapath, sizeof(datapath), "%s/caches-clusters.dat", ctx->plot_dir);
	struct atomic_file af;
	FILE *f = plot_data_open(datapath, &af);
	if (f) {
		for (int i = 0; i < c->n; i++)
			fprintf(f, "%.10g %.10g %.10g %d\n", c->pt[i].x, c->pt[i].min, monotone[i], cluster[i]);
		cli_probe_data_done(ctx, &af);
	}
	free(monotone);
	free(cluster);
	if (!f)
		return;
	char marks[2048] = "";
	for (int i = 0; i < rec->ncaches; i++) {
		size_t len = strlen(marks);
		double size = rec->cache[i].size.value;
		snprintf(marks + len, sizeof(marks) - len,
			 "set arrow from %g, graph 0 to %g, graph 1 nohead dashtype 3\n"
			 "set label 'L%d %.3g ns' at %g, graph 0.92 right offset -0.5,0\n",
			 size, size, i + 1, rec->cache[i].latency.value, size);
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

/* A size in bytes for people ("48 KiB"), text only; "-" when there is none. */
static void size_text(struct emit *e, const char *label, double bytes)
{
	if (isfinite(bytes) && bytes >= 0)
		emit_size(e, NULL, label, (uint64_t)(bytes + 0.5));
	else
		emit_text(e, label, "-");
}

static void caches_render(struct emit *e, const struct machine_probes *rec)
{
	const struct machine_probes_curve *c = &rec->caches_ev.curve;
	emit_object_begin(e, NULL, "caches");
	emit_table_begin(e, NULL, "");
	for (int i = 0; i < rec->ncaches; i++) {
		const struct machine_probes_cache *a = &rec->cache[i];
		emit_row_begin(e);
		emit_text(e, "level", "L%d", a->level);
		size_text(e, "size", a->size.value);
		cli_probe_answer_render(e, MP_CACHES_LATENCY, "latency", &a->latency, "%.2f", 0);
		emit_number(e, NULL, "latency", a->latency_cy, "cy", "%.1f");
		emit_int(e, NULL, "points", a->points, NULL);
		size_text(e, "os_reported size", a->size.os_reported);
		emit_text(e, "", "%s", cli_probe_differs(a->size.value, a->size.os_reported) ? CLI_PROBE_DIFFERS_TEXT : "");
		emit_row_end(e);
	}
	emit_table_end(e);
	cli_probe_answer_render_begin(e, MP_CACHES_MEMORY_LATENCY, "memory latency, page-local", &rec->memory_latency, "%.2f", 0);
	if (!isfinite(rec->memory_latency.value) && c->n) {
		char max[32];
		emit_annotate(e, ": no memory plateau reached within %s: the last level may be larger",
			      buffer_format_size((size_t)(c->pt[c->n - 1].x + 0.5), max, sizeof(max)));
	}
	emit_object_end(e);
	if (isfinite(rec->memory_latency_cy))
		emit_number(e, NULL, "memory latency, page-local", rec->memory_latency_cy, "cy", "%.1f");
	if (rec->caches_ev.random_bytes > 0) {
		char sz[32];
		cli_probe_answer_render_begin(e, MP_CACHES_MEMORY_LATENCY_RANDOM, "memory latency, random", &rec->memory_latency_random,
					  "%.2f", CLI_PROBE_ANSWER_NOTE);
		emit_annotate(e, " (every line of %s in one random cycle, huge pages)",
			      buffer_format_size((size_t)rec->caches_ev.random_bytes, sz, sizeof(sz)));
		emit_object_end(e);
		if (isfinite(rec->memory_latency_random_cy))
			emit_number(e, NULL, "memory latency, random", rec->memory_latency_random_cy, "cy", "%.1f");
	}
	emit_number(e, NULL, "clock", rec->caches_ev.clock_ghz, "GHz", "%.3f");
	if (isfinite(rec->caches_ev.clock_ghz))
		emit_annotate(e, " (cycles are core cycles at this measured clock)");
	emit_number(e, NULL, "line", rec->caches_ev.line_bytes, "B", "%.0f");
	emit_string(e, NULL, "pages", rec->caches_ev.pages);
	emit_int(e, NULL, "passes", rec->caches_ev.passes, NULL);
	if (c->n) {
		char max[32];
		emit_text(e, "sizes", "%d, up to %s", c->n,
			  buffer_format_size((size_t)(c->pt[c->n - 1].x + 0.5), max, sizeof(max)));
	}
	emit_object_end(e);
}

int cli_probe_row_caches(struct cli_probe_ctx *ctx)
{
	cli_probe_need_line(ctx);
	struct as_error err = { 0 };
	if (probe_caches_find(&ctx->env, cli_probe_progress, NULL, ctx->rec, &err) != 0)
		return cli_probe_fail("caches", &err);
	/* the random-pattern memory latency beside the page-local one; its failure is a note */
	if (probe_caches_random(&ctx->env, cli_probe_progress, ctx->rec, &err) != 0) {
		progress_done();
		note("%s", err.msg);
	}
	progress_done();
	/* raw CSV through the common path; the plot is the coloured one */
	const char *plot_dir = ctx->plot_dir;
	ctx->plot_dir = NULL;
	cli_probe_curve_evidence(ctx, "caches", MP_KEY(CACHES_CURVE_X), &ctx->rec->caches_ev.curve, "buffer size (bytes)", 1);
	ctx->plot_dir = plot_dir;
	caches_plot(ctx, ctx->rec);
	CLI_PROBE_RENDER(ctx, caches_render, ctx->rec);
	return 0;
}
