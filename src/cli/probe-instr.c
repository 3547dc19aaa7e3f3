/* The instruction and live-range rows of the probe table (BlackjackBench §3.3, §3.5): probe/instr.c
 * and probe/registers.c measure and answer; this renders their results as text, JSON, raw CSV
 * and plots. Cycles are cycles of the core clock measured by the clock row, never TSC ticks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/probe.h"
#include "probe/instr.h"
#include "probe/registers.h"
#include "report/table.h"

static double cy(const struct probe_ctx *ctx, double ns)
{
	return ns * ctx->env.clock_ghz;
}

/* Appends "SEP TEXT" to buf (no separator while buf is empty). */
static void join(char *buf, size_t size, const char *sep, const char *text)
{
	size_t n = strlen(buf);
	snprintf(buf + n, size - n, "%s%s", n ? sep : "", text);
}

static json_t *flops_json(const double *f)
{
	return json_pack("{s:f,s:f,s:f,s:f}", "total", f[INSTR_FLOPS_TOTAL], "ADD", f[INSTR_FLOPS_ADD], "MUL",
			 f[INSTR_FLOPS_MUL], "FMA", f[INSTR_FLOPS_FMA]);
}

static void save_instr_raw(struct probe_ctx *ctx, const struct probe_instr_op *r)
{
	double rows[INSTR_MAX_STREAMS * 3];
	for (int s = 0; s < r->nstreams; s++) {
		rows[3 * s] = s + 1;
		rows[3 * s + 1] = r->iter_ns[s];
		rows[3 * s + 2] = r->op_ns[s];
	}
	char name[64];
	snprintf(name, sizeof(name), "instr-%s-%s-%d", r->set->op, r->set->type, r->set->width_bits);
	probe_save_raw(ctx, name, "streams,iteration_ns,operation_ns", rows, (size_t)r->nstreams, 3);
}

/* Cost per iteration against streams, normalised to one stream, for every operation: flat while
 * the core keeps the streams in flight, then rising in proportion. */
static void plot_instr(struct probe_ctx *ctx, const struct probe_instr_op *res, size_t n)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/instr.dat", ctx->plot_dir);
	FILE *f = fopen(path, "w");
	if (!f) {
		note("cannot write %s", path);
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
	fclose(f);
	char *body = NULL;
	if (asprintf(&body,
		     "set title 'archscope probe instr: cost per iteration against independent streams'\n"
		     "set xlabel 'independent streams of 8 chained operations'\nset ylabel 'cost per iteration / cost of one stream'\n"
		     "set grid\nset key outside right font ',7'\n%s\n",
		     plots) >= 0) {
		probe_plot(ctx, "instr", body);
		free(body);
	}
}

int probe_row_instr(struct probe_ctx *ctx)
{
	struct probe_instr_result res;
	struct as_error err = { 0 };
	int rc = probe_instr_find(&ctx->env, probe_progress, &res, &err);
	progress_done();
	if (rc != 0) {
		fprintf(stderr, "archscope: error: %s\n", err.msg);
		if (!res.op) { /* nothing measured: no clock, or no memory */
			probe_instr_result_release(&res);
			return EXIT_FAIL;
		}
		rc = EXIT_FAIL;
	}
	const struct published_cpu *pc = &res.published;
	int have_pub = res.have_published;
	json_t *ops = json_array();
	struct table *t = table_new(11, "op", "type", "width", "latency cy", "rel. int32 add", "tput /cy", "cy/op",
				    "in flight", "pub. lat", "pub. cy/op", "within 1 cy of");
	for (size_t i = 0; i < res.nops; i++) {
		const struct probe_instr_op *r = &res.op[i];
		const struct instr_set *s = r->set;
		const struct published_op *p = r->published;
		json_t *j = json_pack("{s:s,s:s,s:i,s:i,s:f,s:f,s:f,s:i,s:f,s:f,s:i}", "op", s->op, "type", s->type,
				      "width_bits", s->width_bits, "lanes", s->lanes, "latency_cy", r->latency_cy, "latency_ns",
				      r->lat_ns, "throughput_per_cy", r->throughput_per_cy, "in_flight", r->in_flight,
				      "in_flight_confidence", r->in_flight_conf, "relative_to_int32_add",
				      r->relative_to_int32_add, "best_streams", r->best_streams);
		json_t *curve = json_array();
		for (int k = 0; k < r->nstreams; k++)
			json_array_append_new(curve, json_pack("{s:i,s:f}", "streams", k + 1, "iteration_cy", cy(ctx, r->iter_ns[k])));
		json_object_set_new(j, "cost_per_iteration", curve);
		/* Per source: its figures, or "-" where it has none (the columns stay aligned). */
		char lat_txt[64] = "", cpo_txt[64] = "", who[64] = "";
		if (p) {
			json_t *srcs = json_array();
			for (int k = 0; k < PUBLISHED_SOURCES; k++) {
				if (!pc->source[k])
					continue;
				if (r->within[k] < 0) {
					join(lat_txt, sizeof(lat_txt), "/", "-");
					join(cpo_txt, sizeof(cpo_txt), "/", "-");
					continue;
				}
				json_array_append_new(srcs, json_pack("{s:s,s:f,s:f,s:b}", "source", pc->source[k], "latency_cy",
								      p->latency_cy[k], "throughput_per_cy", 1.0 / p->cy_per_op[k],
								      "within_1_cy", r->within[k]));
				char num[32];
				snprintf(num, sizeof(num), "%g", p->latency_cy[k]);
				join(lat_txt, sizeof(lat_txt), "/", num);
				snprintf(num, sizeof(num), "%g", p->cy_per_op[k]);
				join(cpo_txt, sizeof(cpo_txt), "/", num);
				if (r->within[k])
					join(who, sizeof(who), "+", pc->tag[k]);
			}
			json_object_set_new(j, "published", json_pack("{s:s,s:b,s:o}", "instruction", p->instruction,
								      "within_1_cy", r->within_any, "sources", srcs));
		} else {
			json_object_set_new(j, "published", json_null());
		}
		json_array_append_new(ops, j);
		table_cell(t, "%s", s->op);
		table_cell(t, "%s", s->type);
		table_cell(t, "%d", s->width_bits);
		table_cell(t, "%.2f", r->latency_cy);
		table_cell(t, "%.2f", r->relative_to_int32_add);
		table_cell(t, "%.2f", r->throughput_per_cy);
		table_cell(t, "%.2f", r->cy_per_op);
		table_cell(t, "%s%d", r->in_flight >= r->nstreams ? ">=" : "", r->in_flight);
		if (p) {
			table_cell(t, "%s", lat_txt);
			table_cell(t, "%s", cpo_txt);
			table_cell(t, "%s", r->within_any ? who : "NO");
		} else {
			table_cell(t, "-");
			table_cell(t, "-");
			table_cell(t, "-");
		}
		save_instr_raw(ctx, r);
	}
	if (ctx->plot_dir && res.nops)
		plot_instr(ctx, res.op, res.nops);
	json_t *jr = json_object();
	json_object_set_new(jr, "ops", ops);
	json_object_set_new(jr, "clock_ghz", json_real(res.clock_ghz));
	json_object_set_new(jr, "cycles", json_string("core cycles of the measured clock"));
	json_object_set_new(jr, "compiler", json_string(instr_compiler));
	json_object_set_new(jr, "flags", json_string(instr_flags));
	json_object_set_new(jr, "int32_add_latency_ns", json_real(res.int32_add_latency_ns));
	json_t *fj = json_object();
	const char *prec[2] = { "SP", "DP" };
	for (int d = 0; d < 2; d++)
		json_object_set_new(fj, prec[d], json_pack("{s:o,s:o}", "scalar", flops_json(res.flops_per_cy[d][INSTR_SCALAR]),
							   "vector", flops_json(res.flops_per_cy[d][INSTR_VECTOR])));
	json_object_set_new(jr, "flops_per_cycle", fj);
	json_t *psrc = json_null();
	if (have_pub) {
		psrc = json_array();
		for (int k = 0; k < PUBLISHED_SOURCES; k++)
			if (pc->source[k])
				json_array_append_new(psrc, json_pack("{s:s,s:s,s:i,s:i}", "source", pc->source[k], "tag", pc->tag[k],
								      "rows_within_1_cy", res.src_within[k], "rows_with_figures",
								      res.src_rows[k]));
	}
	json_object_set_new(jr, "published_sources", psrc);
	if (res.incomplete)
		json_object_set_new(jr, "incomplete", json_true());
	json_object_set_new(ctx->results, "instr", jr);

	if (!ctx->json) {
		printf("instr (cycles of the measured core clock, %.3f GHz; %s, %s)\n", res.clock_ghz, instr_compiler, instr_flags);
		printf("  latency: chains of %d and %d, difference, 2nd lowest of 6; throughput: fastest of 1..%d streams;\n"
		       "  in flight: streams before the knee of the cost per iteration\n",
		       instr_chain, instr_chain_long, INSTR_MAX_STREAMS);
		table_print(t, stdout, "  ");
		if (have_pub) {
			printf("  published (%s; pub. columns list the sources' figures in this order):\n", pc->name);
			for (int k = 0; k < PUBLISHED_SOURCES; k++)
				if (pc->source[k])
					printf("    %-6s %s: %d of the %d rows it has within 1 cycle\n", pc->tag[k], pc->source[k],
					       res.src_within[k], res.src_rows[k]);
			printf("  %d of %d rows within 1 cycle (latency and cycles per operation) of at least one source\n",
			       res.rows_within, res.rows_compared);
		}
		else
			printf("  published: no figures for this CPU in archscope's table (docs/archscope-probe.md)\n");
		printf("  FLOPs per cycle (throughput x lanes x flops per op; total = best of ADD, MUL, FMA)\n");
		for (int d = 0; d < 2; d++)
			for (int v = 0; v < 2; v++) {
				const double *f = res.flops_per_cy[d][v];
				printf("    %s %-6s  ADD %6.2f  MUL %6.2f  FMA %6.2f\n", prec[d], v ? "vector" : "scalar",
				       f[INSTR_FLOPS_ADD], f[INSTR_FLOPS_MUL], f[INSTR_FLOPS_FMA]);
			}
		printf("\n");
	}
	table_free(t);
	probe_instr_result_release(&res);
	return rc;
}

int probe_row_registers(struct probe_ctx *ctx)
{
	struct probe_registers_result res;
	struct as_error err = { 0 };
	int rc = probe_registers_find(&ctx->env, probe_progress, &res, &err);
	progress_done();
	if (rc != 0) {
		fprintf(stderr, "archscope: error: %s\n", err.msg);
		rc = EXIT_FAIL;
	}
	json_t *out = json_object(), *narrow = json_object();
	FILE *dat = NULL;
	char plots[2048] = "", marks[1024] = "";
	if (ctx->plot_dir) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/registers.dat", ctx->plot_dir);
		if (!(dat = fopen(path, "w")))
			note("cannot write %s", path);
	}
	struct table *t = table_new(6, "kind", "build", "usable registers", "confidence", "os_reported", "flags");
	for (int i = 0; i < res.nbuilds; i++) {
		const struct probe_registers_build *b = &res.build[i];
		const struct regs_set *s = b->set;
		const struct probe_curve *c = &b->curve;
		double regs = b->regs.value;
		json_t *ans = probe_answer_json(&b->regs, 1);
		json_object_set_new(ans, "flags", json_string(s->flags));
		json_object_set_new(ans, "step_relative", json_real(b->step_relative));
		json_object_set_new(ans, "biggest_relative_step_k",
				    isfinite(b->biggest_relative_step_k) ? json_integer((json_int_t)b->biggest_relative_step_k)
									 : json_null());
		json_t *curve = json_array();
		for (size_t k = 0; k < c->n; k++)
			json_array_append_new(curve, json_pack("{s:i,s:f}", "k", (int)c->x[k], "add_cy", cy(ctx, c->min_ns[k])));
		json_object_set_new(ans, "curve", curve);
		json_object_set_new(b->narrow ? narrow : out, s->kind, ans);
		char name[64];
		snprintf(name, sizeof(name), "registers-%s-%s", s->kind, s->variant);
		probe_save_curve(ctx, name, "k,min_ns,median_ns", c);
		if (dat) {
			fprintf(dat, "# %s %s\n", s->kind, s->variant);
			for (size_t k = 0; k < c->n; k++)
				fprintf(dat, "%g %.6g\n", c->x[k], cy(ctx, c->min_ns[k]));
			fprintf(dat, "\n\n");
			size_t len = strlen(plots);
			snprintf(plots + len, sizeof(plots) - len, "%s'registers.dat' index %d using 1:2 with linespoints title '%s %s (%s)'",
				 i ? ", " : "plot ", i, s->kind, s->variant, isfinite(regs) ? "" : "no step");
			len = strlen(plots);
			if (isfinite(regs))
				snprintf(plots + len - 2, sizeof(plots) - len + 2, "%.0f)'", regs);
			len = strlen(marks);
			if (isfinite(regs))
				snprintf(marks + len, sizeof(marks) - len, "set arrow from %g, graph 0 to %g, graph 1 nohead dashtype 3\n", regs, regs);
		}
		table_cell(t, "%s", !strcmp(s->kind, "int") ? "int (uint64_t)" : "fp (double)");
		table_cell(t, "%s", s->variant);
		if (isfinite(regs))
			table_cell(t, "%.0f", regs);
		else
			table_cell(t, "no step");
		table_cell(t, "%.2f", b->regs.confidence);
		table_cell(t, "%d", isfinite(b->regs.os_reported) ? (int)b->regs.os_reported : 0);
		table_cell(t, "%s", s->flags);
	}
	if (dat) {
		fclose(dat);
		char *body = NULL;
		if (plots[0] && asprintf(&body,
				    "set title 'archscope probe registers: time per addition against live variables'\n"
				    "set xlabel 'live variables K'\nset ylabel 'core cycles per addition'\nset grid\nset key top left\n%s%s\n",
				    marks, plots) >= 0) {
			probe_plot(ctx, "registers", body);
			free(body);
		}
	}
	json_object_set_new(out, "narrow", narrow);
	json_object_set_new(out, "compiler", json_string(res.compiler));
	json_object_set_new(ctx->results, "registers", out);
	if (!ctx->json) {
		printf("registers (live variables a C loop keeps in registers; %s)\n", res.compiler);
		table_print(t, stdout, "  ");
		printf("  os_reported: architectural registers (x86-64: 16 general-purpose; 16 vector, 32 with AVX-512);\n"
		       "  usable is fewer where the loop counter, stack pointer and bound hold registers\n\n");
	}
	table_free(t);
	probe_registers_result_release(&res);
	return rc;
}
