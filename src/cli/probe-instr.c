/* The instruction and live-range rows of the probe table (BlackjackBench §3.3, §3.5). Cycles are
 * cycles of the core clock measured by the clock row, never TSC ticks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/steps.h"
#include "cli/cli.h"
#include "cli/probe.h"
#include "cli/published.h"
#include "probe/core.h"
#include "report/output.h"
#include "report/table.h"
#include "topo/cpuinfo.h"

static double cy(const struct probe_ctx *ctx, double ns)
{
	return ns * ctx->env.clock_ghz;
}

/* FLOPs per cycle of one precision and shape: ADD, MUL, FMA (2 per element) and the best of them
 * as total (the kernels measure each operation alone, not mixes). */
struct flops {
	double add, mul, fma;
};

/* Appends "SEP TEXT" to buf (no separator while buf is empty). */
static void join(char *buf, size_t size, const char *sep, const char *text)
{
	size_t n = strlen(buf);
	snprintf(buf + n, size - n, "%s%s", n ? sep : "", text);
}

static json_t *flops_json(const struct flops *f)
{
	double total = fmax(f->add, fmax(f->mul, f->fma));
	return json_pack("{s:f,s:f,s:f,s:f}", "total", total, "ADD", f->add, "MUL", f->mul, "FMA", f->fma);
}

static void save_instr_raw(struct probe_ctx *ctx, const struct instr_result *r)
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
static void plot_instr(struct probe_ctx *ctx, const struct instr_result *res, size_t n)
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
		const struct instr_result *r = &res[i];
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
	if (!(ctx->env.clock_ghz > 0)) {
		fprintf(stderr, "archscope: error: instr: no measured clock to convert to cycles\n");
		return EXIT_FAIL;
	}
	struct probe_opts o = { .quick = ctx->env.quick, .seed = ctx->env.seed, .stop = ctx->env.interrupted };
	struct instr_result *res = calloc(instr_nsets, sizeof(*res));
	if (!res)
		die(EXIT_FAIL, "out of memory");
	size_t done = 0;
	int rc = 0;
	for (size_t i = 0; i < instr_nsets && !*ctx->env.interrupted; i++) {
		char point[64];
		snprintf(point, sizeof(point), "%s %s/%d", instr_sets[i].op, instr_sets[i].type, instr_sets[i].width_bits);
		probe_progress(NULL, "instr", point, (int)i, (int)instr_nsets);
		struct as_error err = { 0 };
		if (probe_instr_run(&o, &instr_sets[i], &res[i], &err) != 0) {
			if (!*ctx->env.interrupted) {
				progress_done();
				fprintf(stderr, "archscope: error: %s\n", err.msg);
				rc = EXIT_FAIL;
			}
			break;
		}
		done++;
	}
	progress_done();
	/* int32 add latency: the unit of BlackjackBench's relative figures. */
	double add32 = NAN;
	for (size_t i = 0; i < done; i++)
		if (!strcmp(res[i].set->op, "add") && !strcmp(res[i].set->type, "int32") && res[i].set->lanes == 1)
			add32 = res[i].lat_ns;
	struct published_cpu pc;
	int have_pub = published_cpu_detect(&pc);

	json_t *ops = json_array();
	struct flops fl[2][2] = { { { 0 } } }; /* [dp][vector] */
	struct table *t = table_new(11, "op", "type", "width", "latency cy", "rel. int32 add", "tput /cy", "cy/op",
				    "in flight", "pub. lat", "pub. cy/op", "within 1 cy of");
	int compared = 0, agree = 0, agree_src[PUBLISHED_SOURCES] = { 0 }, covered_src[PUBLISHED_SOURCES] = { 0 };
	for (size_t i = 0; i < done; i++) {
		const struct instr_result *r = &res[i];
		const struct instr_set *s = r->set;
		double lat = cy(ctx, r->lat_ns), cpo = cy(ctx, r->min_op_ns), tput = 1.0 / cpo;
		const struct published_op *p = have_pub ? published_lookup(&pc, s->op, s->type, s->lanes > 1, s->width_bits) : NULL;
		json_t *j = json_pack("{s:s,s:s,s:i,s:i,s:f,s:f,s:f,s:i,s:f,s:f,s:i}", "op", s->op, "type", s->type,
				      "width_bits", s->width_bits, "lanes", s->lanes, "latency_cy", lat, "latency_ns", r->lat_ns,
				      "throughput_per_cy", tput, "in_flight", r->in_flight, "in_flight_confidence",
				      r->in_flight_conf, "relative_to_int32_add", r->lat_ns / add32, "best_streams", r->best_streams);
		json_t *curve = json_array();
		for (int k = 0; k < r->nstreams; k++)
			json_array_append_new(curve, json_pack("{s:i,s:f}", "streams", k + 1, "iteration_cy", cy(ctx, r->iter_ns[k])));
		json_object_set_new(j, "cost_per_iteration", curve);
		/* Per source: latency and cycles per operation both within 1 cycle of its figures. The
		 * sources disagree by more than a cycle on some rows, so the row agrees when one does. */
		int within = 0;
		char lat_txt[64] = "", cpo_txt[64] = "", who[64] = "";
		if (p) {
			json_t *srcs = json_array();
			for (int k = 0; k < PUBLISHED_SOURCES; k++) {
				if (!pc.source[k])
					continue;
				if (!(p->latency_cy[k] > 0)) { /* no entry in this source: keep the columns aligned */
					join(lat_txt, sizeof(lat_txt), "/", "-");
					join(cpo_txt, sizeof(cpo_txt), "/", "-");
					continue;
				}
				covered_src[k]++;
				int w = fabs(lat - p->latency_cy[k]) <= 1.0 && fabs(cpo - p->cy_per_op[k]) <= 1.0;
				within |= w;
				agree_src[k] += w;
				json_array_append_new(srcs, json_pack("{s:s,s:f,s:f,s:b}", "source", pc.source[k], "latency_cy",
								      p->latency_cy[k], "throughput_per_cy", 1.0 / p->cy_per_op[k],
								      "within_1_cy", w));
				char num[32];
				snprintf(num, sizeof(num), "%g", p->latency_cy[k]);
				join(lat_txt, sizeof(lat_txt), "/", num);
				snprintf(num, sizeof(num), "%g", p->cy_per_op[k]);
				join(cpo_txt, sizeof(cpo_txt), "/", num);
				if (w)
					join(who, sizeof(who), "+", pc.tag[k]);
			}
			compared++;
			agree += within;
			json_object_set_new(j, "published", json_pack("{s:s,s:b,s:o}", "instruction", p->instruction,
								      "within_1_cy", within, "sources", srcs));
		} else {
			json_object_set_new(j, "published", json_null());
		}
		json_array_append_new(ops, j);
		if (s->is_float) {
			struct flops *f = &fl[s->width_bits / s->lanes == 64][s->lanes > 1];
			double v = tput * s->lanes * s->flops;
			if (!strcmp(s->op, "add"))
				f->add = v;
			else if (!strcmp(s->op, "mul"))
				f->mul = v;
			else if (!strcmp(s->op, "fma"))
				f->fma = v;
		}
		table_cell(t, "%s", s->op);
		table_cell(t, "%s", s->type);
		table_cell(t, "%d", s->width_bits);
		table_cell(t, "%.2f", lat);
		table_cell(t, "%.2f", r->lat_ns / add32);
		table_cell(t, "%.2f", tput);
		table_cell(t, "%.2f", cpo);
		table_cell(t, "%s%d", r->in_flight >= r->nstreams ? ">=" : "", r->in_flight);
		if (p) {
			table_cell(t, "%s", lat_txt);
			table_cell(t, "%s", cpo_txt);
			table_cell(t, "%s", within ? who : "NO");
		} else {
			table_cell(t, "-");
			table_cell(t, "-");
			table_cell(t, "-");
		}
		save_instr_raw(ctx, r);
	}
	if (ctx->plot_dir && done)
		plot_instr(ctx, res, done);
	json_t *jr = json_object();
	json_object_set_new(jr, "ops", ops);
	json_object_set_new(jr, "clock_ghz", json_real(ctx->env.clock_ghz));
	json_object_set_new(jr, "cycles", json_string("core cycles of the measured clock"));
	json_object_set_new(jr, "compiler", json_string(instr_compiler));
	json_object_set_new(jr, "flags", json_string(instr_flags));
	json_object_set_new(jr, "int32_add_latency_ns", json_real(add32));
	json_t *fj = json_object();
	const char *prec[2] = { "SP", "DP" };
	for (int d = 0; d < 2; d++)
		json_object_set_new(fj, prec[d], json_pack("{s:o,s:o}", "scalar", flops_json(&fl[d][0]), "vector",
							   flops_json(&fl[d][1])));
	json_object_set_new(jr, "flops_per_cycle", fj);
	json_t *psrc = json_null();
	if (have_pub) {
		psrc = json_array();
		for (int k = 0; k < PUBLISHED_SOURCES; k++)
			if (pc.source[k])
				json_array_append_new(psrc, json_pack("{s:s,s:s,s:i,s:i}", "source", pc.source[k], "tag", pc.tag[k],
								      "rows_within_1_cy", agree_src[k], "rows_with_figures",
								      covered_src[k]));
	}
	json_object_set_new(jr, "published_sources", psrc);
	if (*ctx->env.interrupted)
		json_object_set_new(jr, "incomplete", json_true());
	json_object_set_new(ctx->results, "instr", jr);

	if (!ctx->json) {
		printf("instr (cycles of the measured core clock, %.3f GHz; %s, %s)\n", ctx->env.clock_ghz, instr_compiler, instr_flags);
		printf("  latency: chains of %d and %d, difference, 2nd lowest of 6; throughput: fastest of 1..%d streams;\n"
		       "  in flight: streams before the knee of the cost per iteration\n",
		       instr_chain, instr_chain_long, INSTR_MAX_STREAMS);
		table_print(t, stdout, "  ");
		if (have_pub) {
			printf("  published (%s; pub. columns list the sources' figures in this order):\n", pc.name);
			for (int k = 0; k < PUBLISHED_SOURCES; k++)
				if (pc.source[k])
					printf("    %-6s %s: %d of the %d rows it has within 1 cycle\n", pc.tag[k], pc.source[k],
					       agree_src[k], covered_src[k]);
			printf("  %d of %d rows within 1 cycle (latency and cycles per operation) of at least one source\n", agree,
			       compared);
		}
		else
			printf("  published: no figures for this CPU in archscope's table (docs/archscope-probe.md)\n");
		printf("  FLOPs per cycle (throughput x lanes x flops per op; total = best of ADD, MUL, FMA)\n");
		for (int d = 0; d < 2; d++)
			for (int v = 0; v < 2; v++)
				printf("    %s %-6s  ADD %6.2f  MUL %6.2f  FMA %6.2f\n", prec[d], v ? "vector" : "scalar", fl[d][v].add,
				       fl[d][v].mul, fl[d][v].fma);
		printf("\n");
	}
	table_free(t);
	free(res);
	return rc;
}

/* Architectural register counts the OS reports (x86-64: 16 general-purpose, 16 or 32 vector with
 * AVX-512); os_reported only. */
static int os_regs(const char *kind, int narrow)
{
#if defined(__x86_64__)
	if (!strcmp(kind, "int"))
		return 16;
	if (narrow)
		return 16;
	char flags[8192];
	if (topo_cpuinfo("flags", flags, sizeof(flags) - 1) != 0) /* room for the space below */
		return 0;
	strcat(flags, " ");
	return strstr(flags, " avx512f ") ? 32 : 16;
#else
	(void)kind;
	(void)narrow;
	return 0;
#endif
}

/* The rise over the minimum that counts as spilling: above run-to-run noise of a pinned loop. */
#define REGS_RISE 0.03

int probe_row_registers(struct probe_ctx *ctx)
{
	struct probe_opts o = { .quick = ctx->env.quick, .seed = ctx->env.seed, .stop = ctx->env.interrupted, .progress = probe_progress };
	const struct regs_set *sets[4];
	size_t nsets = 0;
	for (size_t i = 0; i < regs_nsets_wide; i++)
		sets[nsets++] = &regs_sets_wide[i];
	for (size_t i = 0; i < regs_nsets_narrow; i++)
		sets[nsets++] = &regs_sets_narrow[i];
	json_t *res = json_object(), *narrow = json_object();
	FILE *dat = NULL;
	char plots[2048] = "", marks[1024] = "";
	if (ctx->plot_dir) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/registers.dat", ctx->plot_dir);
		if (!(dat = fopen(path, "w")))
			note("cannot write %s", path);
	}
	struct table *t = table_new(6, "kind", "build", "usable registers", "confidence", "os_reported", "flags");
	int rc = 0;
	for (size_t i = 0; i < nsets && !*ctx->env.interrupted; i++) {
		const struct regs_set *s = sets[i];
		struct probe_curve c;
		struct as_error err = { 0 };
		probe_curve_init(&c);
		if (probe_regs_run(&o, s, &c, &err) != 0) {
			progress_done();
			if (!*ctx->env.interrupted) {
				fprintf(stderr, "archscope: error: %s\n", err.msg);
				rc = EXIT_FAIL;
			}
			probe_curve_release(&c);
			break;
		}
		progress_done();
		double *y = probe_monotone_min(c.min_ns, c.n);
		struct step_answer paper = steps_biggest_relative(y, c.n);
		struct step_answer a = steps_first_rise(c.min_ns, c.n, REGS_RISE);
		double regs = a.index >= 0 ? c.x[a.index] : NAN;
		int is_narrow = !strcmp(s->variant, "narrow");
		char method[512];
		snprintf(method, sizeof(method),
			 "K live %s variables, P[i%%K] += P[(i+K-K/2)%%K] unrolled; first rise of the monotone time per addition > 3 %% above its minimum; %s %s",
			 !strcmp(s->kind, "int") ? "uint64_t" : "double", s->compiler, s->flags);
		int osr = os_regs(s->kind, is_narrow);
		json_t *ans = output_answer(regs, "registers", a.index >= 0 ? a.confidence : 0, method,
					    osr ? json_integer(osr) : NULL);
		json_object_set_new(ans, "flags", json_string(s->flags));
		json_object_set_new(ans, "step_relative", json_real(a.size));
		json_object_set_new(ans, "biggest_relative_step_k",
				    paper.index >= 0 ? json_integer((json_int_t)c.x[paper.index]) : json_null());
		json_t *curve = json_array();
		for (size_t k = 0; k < c.n; k++)
			json_array_append_new(curve, json_pack("{s:i,s:f}", "k", (int)c.x[k], "add_cy", cy(ctx, c.min_ns[k])));
		json_object_set_new(ans, "curve", curve);
		json_object_set_new(is_narrow ? narrow : res, s->kind, ans);
		double *rows = malloc(c.n * 3 * sizeof(double) + 1);
		for (size_t k = 0; rows && k < c.n; k++) {
			rows[3 * k] = c.x[k];
			rows[3 * k + 1] = c.min_ns[k];
			rows[3 * k + 2] = c.median_ns[k];
		}
		char name[64];
		snprintf(name, sizeof(name), "registers-%s-%s", s->kind, s->variant);
		if (rows)
			probe_save_raw(ctx, name, "k,min_ns,median_ns", rows, c.n, 3);
		free(rows);
		if (dat) {
			fprintf(dat, "# %s %s\n", s->kind, s->variant);
			for (size_t k = 0; k < c.n; k++)
				fprintf(dat, "%g %.6g\n", c.x[k], cy(ctx, c.min_ns[k]));
			fprintf(dat, "\n\n");
			size_t len = strlen(plots);
			snprintf(plots + len, sizeof(plots) - len, "%s'registers.dat' index %zu using 1:2 with linespoints title '%s %s (%s)'",
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
		table_cell(t, "%.2f", a.index >= 0 ? a.confidence : 0.0);
		table_cell(t, "%d", osr);
		table_cell(t, "%s", s->flags);
		free(y);
		probe_curve_release(&c);
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
	json_object_set_new(res, "narrow", narrow);
	json_object_set_new(res, "compiler", json_string(nsets ? sets[0]->compiler : ""));
	json_object_set_new(ctx->results, "registers", res);
	if (!ctx->json) {
		printf("registers (live variables a C loop keeps in registers; %s)\n", nsets ? sets[0]->compiler : "");
		table_print(t, stdout, "  ");
		printf("  os_reported: architectural registers (x86-64: 16 general-purpose; 16 vector, 32 with AVX-512);\n"
		       "  usable is fewer where the loop counter, stack pointer and bound hold registers\n\n");
	}
	table_free(t);
	return rc;
}
