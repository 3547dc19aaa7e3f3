/* probe instr (BlackjackBench §3.3): probe/instr.c measures and answers; this saves its curves (raw
 * CSV, plots) and renders the record for people. Cycles are cycles of the core clock measured by the
 * clock row, never TSC ticks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "probe/instr.h"
#include "report/emit.h"
#include "report/plot.h"

/* Appends "SEP TEXT" to buf (no separator while buf is empty). */
static void join(char *buf, size_t size, const char *sep, const char *text)
{
	size_t n = strlen(buf);
	snprintf(buf + n, size - n, "%s%s", n ? sep : "", text);
}

static void save_instr_raw(struct cli_probe_ctx *ctx, const struct probe_instr_op *r)
{
	double rows[INSTR_MAX_STREAMS * 3];
	for (int s = 0; s < r->nstreams; s++) {
		rows[3 * s] = s + 1;
		rows[3 * s + 1] = r->iter_ns[s];
		rows[3 * s + 2] = r->op_ns[s];
	}
	char name[64];
	snprintf(name, sizeof(name), "instr-%s-%s-%d", r->set->op, r->set->type, r->set->width_bits);
	cli_probe_save_raw(ctx, name, "streams,iteration_ns,operation_ns", rows, (size_t)r->nstreams, 3);
}

/* Cost per iteration against streams, normalised to one stream, for every operation: flat while
 * the core keeps the streams in flight, then rising in proportion. */
static void plot_instr(struct cli_probe_ctx *ctx, const struct probe_instr_op *res, size_t n)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/instr.dat", ctx->plot_dir);
	struct atomic_file af;
	FILE *f = plot_data_open(path, &af);
	if (!f) {
		error("cannot write '%s': %s", path, strerror(errno));
		ctx->save_failed = 1;
		return;
	}
	char plots[8192] = "";
	for (size_t i = 0; i < n; i++) {
		const struct probe_instr_op *r = &res[i];
		fprintf(f, "# %s %s/%d\n", r->set->op, r->set->type, r->set->width_bits);
		for (int s = 0; s < r->nstreams; s++)
			fprintf(f, "%d %.6g\n", s + 1, r->iter_ns[s] / r->iter_ns[0]);
		fprintf(f, "\n\n");
		size_t len = strlen(plots);
		snprintf(plots + len, sizeof(plots) - len, "%s'instr.dat' index %zu using 1:2 with linespoints title '%s %s/%d (F=%d)'",
			 i ? ", " : "plot ", i, r->set->op, r->set->type, r->set->width_bits, r->in_flight);
	}
	cli_probe_data_done(ctx, &af);
	char *body = NULL;
	if (asprintf(&body,
		     "set title 'archscope probe instr: cost per iteration against independent streams'\n"
		     "set xlabel 'independent streams of 8 chained operations'\nset ylabel 'cost per iteration / cost of one stream'\n"
		     "set grid\nset key outside right font ',7'\n%s\n",
		     plots) >= 0) {
		cli_probe_plot(ctx, "instr", body);
		free(body);
	}
}

/* FLOPs per cycle for people: a line per precision and shape, named by the description's keys. */
static void flops_render(struct emit *e, const struct machine_probes *rec)
{
	const struct machine_probe_field *f = machine_probe_fields;
	emit_object_begin(e, NULL, "FLOPs per cycle (throughput x lanes x flops per op; total = best of ADD, MUL, FMA)");
	for (int d = machine_probes_child(MP_FLOPS, MP_FLOPS); d < MP_COUNT; d = machine_probes_child(MP_FLOPS, d)) {
		for (int v = machine_probes_child(d, d); v < MP_COUNT; v = machine_probes_child(d, v)) {
			char line[160];
			int n = snprintf(line, sizeof(line), "%s %-6s", f[d].key, f[v].key);
			for (int k = machine_probes_child(v, v); k < MP_COUNT; k = machine_probes_child(v, k))
				if (n > 0 && (size_t)n < sizeof(line))
					n += snprintf(line + n, sizeof(line) - (size_t)n, "  %s %6.2f", f[k].key,
						      *(const double *)machine_probes_at(rec, k));
			emit_text(e, "", "%s", line);
		}
	}
	emit_object_end(e);
}

/* An operation's published figures for people: per source of the CPU's table its figure or "-"
 * (the columns stay aligned) and the sources within 1 cycle. */
static void published_render(struct emit *e, const struct machine_probes_op *a, const struct machine_probes *rec)
{
	if (!a->pub.have) {
		emit_text(e, "pub. lat", "-");
		emit_text(e, "pub. cy/op", "-");
		emit_text(e, "within 1 cy of", "-");
		return;
	}
	char lat_txt[64] = "", cpo_txt[64] = "", who[64] = "", num[32];
	for (int k = 0; k < rec->instr_ev.nsources; k++) {
		const struct machine_probes_instr_source *src = &rec->instr_ev.source[k];
		const struct machine_probes_pub_source *ps = NULL;
		for (int j = 0; j < a->pub.nsources && !ps; j++)
			if (!strcmp(a->pub.source[j].source, src->source))
				ps = &a->pub.source[j];
		if (!ps) { /* the source has no figure for this operation */
			join(lat_txt, sizeof(lat_txt), "/", "-");
			join(cpo_txt, sizeof(cpo_txt), "/", "-");
			continue;
		}
		snprintf(num, sizeof(num), "%g", ps->latency_cy);
		join(lat_txt, sizeof(lat_txt), "/", num);
		snprintf(num, sizeof(num), "%g", 1.0 / ps->throughput_per_cy);
		join(cpo_txt, sizeof(cpo_txt), "/", num);
		if (ps->within)
			join(who, sizeof(who), "+", src->tag);
	}
	emit_text(e, "pub. lat", "%s", lat_txt);
	emit_text(e, "pub. cy/op", "%s", cpo_txt);
	emit_text(e, "within 1 cy of", "%s", a->pub.within ? who : "NO");
}

static void instr_op_render(struct emit *e, const struct machine_probes_op *a, const struct machine_probes *rec)
{
	emit_row_begin(e);
	emit_string(e, NULL, "op", a->op);
	emit_string(e, NULL, "type", a->type);
	emit_int(e, NULL, "width", a->width_bits, "bits");
	emit_number(e, NULL, "latency", a->latency_cy, "cy", "%.2f");
	emit_number(e, NULL, "throughput", a->throughput_per_cy, "/cy", "%.2f");
	emit_number(e, NULL, "cost", 1.0 / a->throughput_per_cy, "cy/op", "%.2f");
	emit_text(e, "in flight", "%s%d", a->in_flight >= a->cost.n ? ">=" : "", a->in_flight);
	emit_number(e, NULL, "rel. int32 add", a->relative_to_int32_add, NULL, "%.2f");
	published_render(e, a, rec);
	emit_row_end(e);
}

/* The line-crossing loads and stores, a row per width. */
static void split_render(struct emit *e, const struct machine_probes *rec)
{
	emit_table_begin(e, NULL,
			 "vector accesses in L1 within one line and across two (8 independent per iteration; split: "
			 "64 - width/2 bytes into a line; load + store: 8 of each per iteration, per pair)");
	for (int k = 0; k < rec->nsplit; k++) {
		const struct machine_probes_split *w = &rec->split[k];
		emit_row_begin(e);
		emit_int(e, NULL, "width", w->width_bits, "bit");
		const struct cli_cell cells[] = {
			{ "load", w->load_cy, "cy", "%.2f" }, { "split load", w->load_split_cy, "cy", "%.2f" },
			{ "store", w->store_cy, "cy", "%.2f" }, { "split store", w->store_split_cy, "cy", "%.2f" },
			{ "load + store", w->mixed_cy, "cy", "%.2f" }, { "clock", w->clock_ghz, "GHz", "%.3f" },
		};
		cli_emit_cells(e, cells, sizeof(cells) / sizeof(cells[0]));
		emit_row_end(e);
	}
	emit_table_end(e);
}

/* The sources of published figures and how many operations each agrees with; cpu: the name of
 * the CPU's table. */
static void sources_render(struct emit *e, const char *cpu, const struct machine_probes *rec)
{
	if (rec->have[MP_INSTR_SOURCES] != MP_HAVE_YES) {
		emit_text(e, "published", "no figures for this CPU in archscope's table (docs/archscope-probe.md)");
		return;
	}
	char title[256];
	snprintf(title, sizeof(title), "published (%s; pub. columns list the sources' figures in this order)", cpu);
	emit_table_begin(e, NULL, title);
	for (int k = 0; k < rec->instr_ev.nsources; k++) {
		const struct machine_probes_instr_source *s = &rec->instr_ev.source[k];
		emit_row_begin(e);
		emit_string(e, NULL, "source", s->source);
		emit_string(e, NULL, "tag", s->tag);
		emit_int(e, NULL, "rows within 1 cy", s->rows_within, NULL);
		emit_int(e, NULL, "rows with figures", s->rows, NULL);
		emit_row_end(e);
	}
	emit_table_end(e);
	int compared = 0, within = 0;
	for (int i = 0; i < rec->nops; i++) {
		compared += rec->op[i].pub.have;
		within += rec->op[i].pub.have && rec->op[i].pub.within;
	}
	emit_text(e, "", "%d of %d rows within 1 cycle (latency and cycles per operation) of at least one source",
		  within, compared);
}

/* instr for people, from the record; cpu: the name of the CPU's table of published figures. */
static void instr_render(struct emit *e, const char *cpu, const struct machine_probes *rec)
{
	emit_object_begin(e, NULL, "instr");
	emit_text(e, "", "latency: chains of %d and %d, difference, median of 6; throughput: fastest of 1..%d streams;",
		  instr_chain, instr_chain_long, INSTR_MAX_STREAMS);
	emit_text(e, "", "in flight: streams before the knee of the cost per iteration");
	emit_table_begin(e, NULL, "");
	for (int i = 0; i < rec->nops; i++)
		instr_op_render(e, &rec->op[i], rec);
	emit_table_end(e);
	emit_number(e, NULL, "clock", rec->instr_ev.clock_ghz, "GHz", "%.3f");
	emit_object_begin(e, NULL, "clock brackets");
	emit_number(e, NULL, "slowest", rec->instr_ev.min_ghz, "GHz", "%.3f");
	emit_number(e, NULL, "fastest", rec->instr_ev.max_ghz, "GHz", "%.3f");
	emit_object_end(e);
	emit_string(e, NULL, "cycles", rec->instr_ev.cycles);
	emit_string(e, NULL, "compiler", rec->instr_ev.compiler);
	emit_string(e, NULL, "flags", rec->instr_ev.flags);
	emit_number(e, NULL, "int32 add latency", rec->instr_ev.int32_add_ns, "ns", "%.3f");
	flops_render(e, rec);
	if (rec->nsplit > 0)
		split_render(e, rec);
	sources_render(e, cpu, rec);
	emit_object_end(e);
}

int cli_probe_row_instr(struct cli_probe_ctx *ctx)
{
	struct probe_instr_result res;
	struct as_error err = { 0 };
	int rc = probe_instr_find(&ctx->env, cli_probe_progress, &res, ctx->rec, &err);
	progress_done();
	if (rc != 0) {
		rc = error_err(&err);
		if (!res.op) { /* nothing measured: no clock, or no memory */
			probe_instr_result_release(&res);
			return rc;
		}
	}
	for (size_t i = 0; i < res.nops; i++)
		save_instr_raw(ctx, &res.op[i]);
	if (ctx->plot_dir && res.nops)
		plot_instr(ctx, res.op, res.nops);
	CLI_PROBE_RENDER(ctx, instr_render, res.published.name, ctx->rec);
	probe_instr_result_release(&res);
	return rc;
}
