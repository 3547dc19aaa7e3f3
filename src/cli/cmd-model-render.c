/* archscope model's one renderer: the same emit_* calls print a run for people and build its JSON
 * (report/emit.h). Text-only lines (key NULL) restate JSON members in the models' notation:
 * "{ 10.00 | 6.00 | 13.06 } cy/CL". The sweep's plot is cmd-model-plot.c's. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd-model.h"
#include "common/buffer.h"
#include "machine/result-model.h"
#include "report/emit.h"

#define SHOWN(r, flag) (((r)->o->shown & (flag)) != 0)

/* "96 KiB", "24 GiB": binary units, as every size printed for people. */
static const char *fmt_bytes(double b, char *out, size_t len)
{
	if (!(b >= 0) || b >= 9.2e18)
		snprintf(out, len, "%g B", b);
	else
		buffer_format_size((size_t)llround(b), out, len);
	return out;
}

/* A table cell: v in "%.2f", or "-" when there is none. */
static void cell(struct emit *e, const char *label, int have, double v)
{
	if (have)
		emit_text(e, label, "%.2f", v);
	else
		emit_text(e, label, "-");
}

/* A layer condition as text: "nothing reused", "2*N*8 B", "all arrays: 24000 B". */
static const char *cond_text(const struct kernel *k, const struct lc_analysis *a, int c, char *out, size_t len)
{
	const struct lc_condition *C = &a->cond[c];
	const char *names[POLY_MAX_SYMS];
	for (int i = 0; i < POLY_MAX_SYMS; i++)
		names[i] = i < k->nsyms ? k->sym[i] : "?";
	char p[256];
	if (c == 0) {
		snprintf(out, len, "nothing reused");
	} else if (C->sym) {
		poly_format(&C->req, names, p, sizeof(p));
		snprintf(out, len, "%s%s B", C->all_fit ? "all arrays: " : "", p);
	} else
		snprintf(out, len, "%s%.0f B", C->all_fit ? "all arrays: " : "", C->req_bytes);
	return out;
}

/* "{ 10.00 | 6.00 | 13.06 }": a size's data transfers in cy/CL. */
static const char *transfers_text(const struct ecm_data *d, char *s, size_t len)
{
	size_t w = 0;
	for (int j = 0; j < d->n && w < len; j++)
		w += (size_t)snprintf(s + w, len - w, "%s%.2f", j ? " | " : "{ ", d->t[j].cy);
	if (w < len)
		snprintf(s + w, len - w, " }");
	return s;
}

void cli_model_render_error(struct emit *e, const char *key, const char *msg)
{
	emit_string(e, key, "not available", msg);
	emit_object_end(e);
}

static void render_header(struct emit *e, const struct cli_model_result *r)
{
	const struct cli_model_opts *o = r->o;
	const struct kernel *k = r->k;
	emit_string(e, MO_KEY(KERNEL), "kernel", o->kernel);
	emit_string(e, MO_KEY(MACHINE_FILE), "machine file", o->machine);
	emit_text(e, "machine", "%s, %.2f GHz", r->m->model_name, r->m->clock_hz / 1e9);
	emit_string(e, MO_KEY(PREDICTOR), "cache predictor", o->req.predictor == MODEL_PRED_LC ? "LC" : "SIM");
	emit_int(e, MO_KEY(CORES), "cores", o->req.cores, NULL);
	char title[128];
	snprintf(title, sizeof(title), "accesses per iteration of '%s'", k->nloops ? k->loop[k->nloops - 1].var : "-");
	emit_table_begin(e, NULL, title);
	int reads = 0, writes = 0;
	double rb = 0, wb = 0;
	for (int i = 0; i < k->naccesses; i++) {
		const struct kaccess *x = &k->acc[i];
		char s[256];
		kernel_access_format(k, i, s, sizeof(s));
		const char *br = strchr(s, '[');
		emit_row_begin(e);
		emit_text(e, "array", "%s", k->array[x->array].name);
		emit_int(e, NULL, "bytes", k->array[x->array].elsize, NULL);
		emit_text(e, "access", "%s", x->write ? "write" : "read");
		emit_text(e, "element index", "%s", br ? br : s);
		emit_row_end(e);
		*(x->write ? &writes : &reads) += 1;
		*(x->write ? &wb : &rb) += k->array[x->array].elsize;
	}
	emit_table_end(e);
	emit_int(e, MO_KEY(FLOPS), "flops per iteration", kernel_flops(k), NULL);
	emit_annotate(e, " (%d add, %d sub, %d mul, %d div)", k->flops_add, k->flops_sub, k->flops_mul, k->flops_div);
	emit_text(e, "bytes per iteration", "%.0f B (%d reads, %.0f B; %d writes, %.0f B)", rb + wb, reads, rb, writes, wb);
	if (r->run->sweep)
		emit_string(e, MO_KEY(SWEEP), "swept", r->run->sweep->name);
}

/* The cache levels the layer conditions apply to, with the share of one core. */
static void render_lc(struct emit *e, const struct cli_model_result *r, const struct model_eval *ev)
{
	const struct kernel *k = r->k;
	const struct lc_analysis *a = ev->lc;
	emit_object_begin(e, MO_KEY(LC), "layer conditions (LC)");
	if (ev->lc_error[0]) {
		cli_model_render_error(e, MO_KEY(LC_ERROR), ev->lc_error);
		return;
	}
	emit_list_begin(e, MO_KEY(LC_LEVELS), "");
	for (int i = 0; i < r->m->nlevels; i++) {
		const struct machine_level *L = &r->m->level[i];
		if (!L->has_cache)
			continue;
		double size = predict_share(L, r->o->req.cores);
		char buf[300], tr[200];
		emit_object_begin(e, NULL, L->name);
		emit_string(e, MO_KEY(LC_LEVEL), NULL, L->name);
		emit_number(e, MO_KEY(LC_SIZE), "size", size, "B", "%.0f");
		emit_annotate(e, "%s", L->cores_per_group < 2 ? "" : r->o->req.cores > 1 ? ", shared: divided among the cores in use" : ", shared (1 core in use)");
		int act = lc_active(a, size);
		emit_table_begin(e, MO_KEY(LC_CONDS), "");
		for (int c = 0; c < a->ncond; c++) {
			const struct lc_condition *C = &a->cond[c];
			emit_row_begin(e);
			emit_text(e, "", "%s", c == act ? "*" : "");
			emit_string(e, MO_KEY(LC_COND), "condition: cache holds", cond_text(k, a, c, buf, sizeof(buf)));
			emit_number(e, MO_KEY(LC_COND_REQ), "at these sizes", C->req_bytes, "B", "%.0f");
			emit_int(e, MO_KEY(LC_COND_MISSES), "misses/it", C->misses, NULL);
			emit_int(e, MO_KEY(LC_COND_HITS), "hits/it", C->hits, NULL);
			emit_int(e, MO_KEY(LC_COND_EVICTS), "evicts/it", C->evicts, NULL);
			emit_object_begin(e, MO_KEY(LC_COND_HOLDS), NULL);
			size_t w = 0;
			tr[0] = '\0';
			for (int s = 0; s < k->nsyms && w < sizeof(tr); s++) {
				int64_t t = lc_transition(a, c, &ev->b, s, size);
				if (t < 0)
					continue;
				emit_int(e, k->sym[s], NULL, t, NULL);
				w += (size_t)snprintf(tr + w, sizeof(tr) - w, "%s%s <= %lld", w ? ", " : "", k->sym[s], (long long)t);
			}
			emit_object_end(e);
			emit_text(e, "holds while", "%s", tr[0] ? tr : c == 0 ? "always" : "-");
			emit_row_end(e);
		}
		emit_table_end(e);
		emit_int(e, MO_KEY(LC_ACTIVE), NULL, act, NULL);
		emit_object_end(e);
	}
	emit_list_end(e);
	emit_text(e, "", "* = the condition that holds; \"holds while\" varies one constant, the others as given");
	emit_object_end(e);
}

static void render_traffic(struct emit *e, const struct cli_model_result *r, const struct model_eval *ev)
{
	int sim = r->o->req.predictor == MODEL_PRED_SIM;
	emit_table_begin(e, MO_KEY(TRAFFIC), sim ? "cache traffic (cache simulator)" : "cache traffic (layer conditions)");
	for (int i = 0; i < ev->tr.nlevels; i++) {
		const struct level_traffic *T = &ev->tr.level[i];
		emit_row_begin(e);
		emit_string(e, MO_KEY(TR_LEVEL), "level", T->name);
		emit_number(e, MO_KEY(TR_SIZE), "size", T->size_bytes, "B", "%.0f");
		emit_number(e, MO_KEY(TR_HITS), "hits/it", T->hits, NULL, "%.3f");
		emit_number(e, MO_KEY(TR_MISSES), "misses/it", T->misses, NULL, "%.3f");
		emit_number(e, MO_KEY(TR_IN), "lines in/CL", T->lines_in, NULL, "%.3f");
		emit_number(e, MO_KEY(TR_OUT), "lines out/CL", T->lines_out, NULL, "%.3f");
		emit_row_end(e);
	}
	emit_table_end(e);
	if (!sim)
		return;
	const struct sim_info *si = &ev->si;
	emit_object_begin(e, MO_KEY(SIM), "cache simulator");
	emit_int(e, MO_KEY(SIM_WARMUP), "warm-up", si->warmup_iterations, "iterations");
	emit_int(e, MO_KEY(SIM_MEASURED), "measured", si->measured_iterations, "iterations");
	emit_int(e, MO_KEY(SIM_ACCESSES), "accesses", (long long)si->accesses, NULL);
	emit_int(e, MO_KEY(SIM_SEED), "seed", (long long)si->seed, NULL);
	emit_int(e, MO_KEY(SIM_MEASURED_ACCESSES), "measured accesses", (long long)si->measured_accesses, NULL);
	emit_number(e, MO_KEY(SIM_SECONDS), "measured in", si->measured_seconds, "s", "%.3f");
	emit_annotate(e, " (%.0f M accesses/s)",
		      si->measured_seconds > 0 ? (double)si->measured_accesses / si->measured_seconds / 1e6 : 0);
	emit_object_end(e);
}

void cli_model_render_rates(struct emit *e, const struct cli_model_result *r, const char *key)
{
	const struct cli_model_opts *o = r->o;
	emit_string(e, key, "transfer costs", o->req.fit ? "fit" : "machine");
	if (!o->req.fit) {
		emit_annotate(e, ": the machine file's upstream throughputs and memory benchmarks%s",
			      o->ecm_rates == MODEL_RATES_MACHINE ? " (--ecm-rates machine)" : "");
		return;
	}
	emit_annotate(e, ": fitted to the machine file's one-core benchmarks (--ecm-rates)");
	emit_table_begin(e, NULL, "");
	for (int i = 1; i < r->m->nlevels; i++) {
		if (!o->fit.ok[i])
			continue;
		emit_row_begin(e);
		emit_text(e, "level", "%s", r->m->level[i].name);
		emit_number(e, NULL, "a line loaded from", o->fit.in[i], "cy", "%.2f");
		emit_number(e, NULL, "a line evicted to", o->fit.out[i], "cy", "%.2f");
		emit_int(e, NULL, "kernels", o->fit.nkernels[i], NULL);
		emit_number(e, NULL, "rms residual", o->fit.rms[i], "cy/CL", "%.2f");
		emit_row_end(e);
	}
	emit_table_end(e);
}

static void render_ecm_data(struct emit *e, const struct cli_model_result *r, const struct model_eval *ev)
{
	emit_object_begin(e, MO_KEY(ECMD), SHOWN(r, MODEL_ECMDATA) ? "ECMData" : NULL);
	if (!ev->have_ecm) {
		cli_model_render_error(e, MO_KEY(ECMD_ERROR), ev->ecm_error);
		return;
	}
	char s[256];
	for (int i = 0; i < ev->ecm.n; i++)
		emit_number(e, ev->ecm.t[i].name, NULL, ev->ecm.t[i].cy, NULL, NULL);
	emit_text(e, "ECMData", "%s cy/CL", transfers_text(&ev->ecm, s, sizeof(s)));
	emit_string(e, MO_KEY(ECMD_UNIT), NULL, "cy/CL");
	emit_table_begin(e, MO_KEY(ECMD_TRANSFERS), "");
	for (int i = 0; i < ev->ecm.n; i++) {
		const struct ecm_transfer *T = &ev->ecm.t[i];
		emit_row_begin(e);
		emit_string(e, MO_KEY(ECMD_T_LEVEL), "from", T->name);
		emit_number(e, MO_KEY(ECMD_T_IN), "lines in/CL", T->lines_in, NULL, "%.2f");
		emit_number(e, MO_KEY(ECMD_T_OUT), "lines out/CL", T->lines_out, NULL, "%.2f");
		emit_number(e, MO_KEY(ECMD_T_RATE), "B/cy", T->bytes_per_cy, NULL, "%.2f");
		emit_string(e, MO_KEY(ECMD_T_SOURCE), "rate", T->source);
		if (T->bw_bytes_s > 0)
			emit_annotate(e, ", %.2f GB/s", T->bw_bytes_s / 1e9);
		emit_number(e, MO_KEY(ECMD_T_CY), "cy/CL", T->cy, NULL, "%.2f");
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_number(e, NULL, "sum of the transfers", ev->ecm.total_cy, "cy/CL", "%.2f");
	emit_annotate(e, " (core cycles; memory bandwidths corrected for write-allocate)");
	cli_model_render_rates(e, r, MO_KEY(ECMD_RATES));
	if (ev->ecm.mem_saturated_cy > 0)
		emit_number(e, MO_KEY(ECMD_MEM_SAT), "MEM, saturated", ev->ecm.mem_saturated_cy, "cy/CL", "%.2f");
	emit_object_end(e);
}

static void render_roofline(struct emit *e, const struct cli_model_result *r, const struct model_eval *ev)
{
	emit_object_begin(e, MO_KEY(RL), SHOWN(r, MODEL_ROOFLINE) ? "Roofline (flop counting)" : NULL);
	if (!ev->have_rl) {
		cli_model_render_error(e, MO_KEY(RL_ERROR), ev->rl_error);
		return;
	}
	const struct roofline *rl = &ev->rl;
	emit_table_begin(e, MO_KEY(RL_LEVELS), "");
	for (int i = 0; i < rl->n; i++) {
		const struct roofline_level *R = &rl->level[i];
		emit_row_begin(e);
		emit_text(e, "", "%s", rl->bottleneck == i ? "*" : "");
		emit_string(e, MO_KEY(RL_LEVEL), "level", R->name);
		emit_number(e, MO_KEY(RL_BYTES), "B/it", R->bytes_per_it, NULL, "%g");
		emit_number(e, MO_KEY(RL_INTENSITY), "intensity FLOP/B", R->intensity, NULL, "%.3f");
		emit_number(e, MO_KEY(RL_BW), "bandwidth GB/s", R->bw_bytes_s / 1e9, NULL, "%.2f");
		emit_string(e, MO_KEY(RL_BW_KERNEL), "bw kernel", R->kernel);
		emit_number(e, MO_KEY(RL_LEVEL_GFLOPS), "bound GFLOP/s", R->perf_flops_s / 1e9, NULL, "%.2f");
		emit_number(e, MO_KEY(RL_LEVEL_CY), "cy/CL", R->cy_per_cl, NULL, "%.2f");
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_number(e, MO_KEY(RL_PEAK), "core peak", rl->peak_flops_s / 1e9, "GFLOP/s", "%.2f");
	emit_annotate(e, " (%s)", kernel_elsize(r->k) == 4 ? "SP" : "DP");
	emit_number(e, MO_KEY(RL_CORE_CY), "core", rl->cpu_cy_per_cl, "cy/CL", "%.2f");
	emit_string(e, MO_KEY(RL_BOTTLENECK), "bound by", rl->bottleneck < 0 ? "core" : rl->level[rl->bottleneck].name);
	emit_annotate(e, " (* above)");
	emit_number(e, MO_KEY(RL_GFLOPS), "performance", rl->perf_flops_s / 1e9, "GFLOP/s", "%.2f");
	emit_number(e, MO_KEY(RL_CY), "prediction", rl->cy_per_cl, "cy/CL", "%.2f");
	if (rl->cy_per_cl > 0)
		emit_annotate(e, " = %.1f MLUP/s", r->m->clock_hz / (rl->cy_per_cl / ev->tr.iterations_per_cl) / 1e6);
	emit_object_end(e);
}

/* One size: its constants and every model asked for (in_core: the run's in-core analysis here). */
static void render_eval(struct emit *e, const struct cli_model_result *r, const struct model_eval *ev, int in_core)
{
	const struct kernel *k = r->k;
	int models = r->o->req.models;
	char buf[32];
	emit_object_begin(e, MO_KEY(DEFINES), "");
	for (int s = 0; s < k->nsyms; s++)
		emit_int(e, k->sym[s], k->sym[s], ev->b.val[s], NULL);
	emit_object_end(e);
	emit_int(e, MO_KEY(ITERATIONS), "iterations", ev->b.iterations, NULL);
	emit_text(e, "arrays", "%s", fmt_bytes((double)ev->b.total_bytes, buf, sizeof(buf)));
	emit_number(e, MO_KEY(ITERATIONS_PER_CL), "iterations per CL", ev->tr.iterations_per_cl, NULL, "%g");
	if ((models & MODEL_LC) && ev->lc) /* a sweep keeps the transfers, not every listing */
		render_lc(e, r, ev);
	render_traffic(e, r, ev);
	if (models & MODEL_ECMDATA)
		render_ecm_data(e, r, ev);
	if (models & MODEL_ROOFLINE)
		render_roofline(e, r, ev);
	cli_model_render_core(e, r, ev, in_core);
}

static void render_blocking(struct emit *e, const struct cli_model_result *r)
{
	const struct model_blocking *blk = r->blk;
	const struct model_eval *ev = &r->run->rows[0];
	if (!blk->ok) {
		emit_object_begin(e, MO_KEY(BLOCKING), "Blocking");
		cli_model_render_error(e, MO_KEY(BLK_ERROR), blk->error);
		return;
	}
	char buf[300], none[200] = "";
	size_t w = 0;
	emit_table_begin(e, MO_KEY(BLOCKING), "Blocking");
	for (int i = 0; i < blk->n; i++) {
		const struct model_block *B = &blk->level[i];
		if (!B->found) {
			if (w < sizeof(none))
				w += (size_t)snprintf(none + w, sizeof(none) - w, "%s%s", w ? ", " : "", B->level);
			continue;
		}
		emit_row_begin(e);
		emit_string(e, MO_KEY(BLK_LEVEL), "level", B->level);
		emit_string(e, MO_KEY(BLK_CONSTANT), "constant", r->k->sym[B->sym]);
		emit_int(e, MO_KEY(BLK_AT_MOST), "at most", B->block_at_most, NULL);
		emit_string(e, MO_KEY(BLK_LOOPS), "loops blocked", B->loops[0] ? B->loops : "-");
		emit_string(e, MO_KEY(BLK_CONDITION), "condition then", cond_text(r->k, ev->lc, B->cond_blocked, buf, sizeof(buf)));
		emit_int(e, MO_KEY(BLK_MISSES_NOW), "misses/it now", ev->lc->cond[B->cond_now].misses, NULL);
		emit_int(e, MO_KEY(BLK_MISSES_BLOCKED), "misses/it then", ev->lc->cond[B->cond_blocked].misses, NULL);
		emit_string(e, MO_KEY(BLK_MODEL), "model", blk->model);
		emit_number(e, MO_KEY(BLK_CY_NOW), "cy/CL now", B->cy_now, NULL, "%.2f");
		emit_number(e, MO_KEY(BLK_CY_BLOCKED), "cy/CL then", B->cy_blocked, NULL, "%.2f");
		if (B->cy_now > 0 && B->cy_blocked > 0)
			emit_text(e, "gain", "%.2fx", B->cy_now / B->cy_blocked);
		else
			emit_text(e, "gain", "-");
		emit_row_end(e);
	}
	emit_table_end(e);
	if (none[0])
		emit_text(e, "not blocked", "%s: the best condition holds already, or none gets better by making one "
			  "constant smaller", none);
	emit_text(e, "", "predicted with the constant at the block size, block edges left out");
}

/* A sweep: a table of every size for people; every size's models in JSON. */
static void render_sweep(struct emit *e, const struct cli_model_result *r)
{
	const struct model_run *run = r->run;
	int ecm_col = (r->o->req.models & MODEL_ECM) && run->have_ic, bench_col = (r->o->req.models & MODEL_BENCH) != 0;
	char s[256];
	emit_table_begin(e, NULL, "");
	for (int i = 0; i < run->n; i++) {
		const struct model_eval *ev = &run->rows[i];
		struct ecm_full f;
		model_eval_ecm(ev, &f);
		emit_row_begin(e);
		emit_int(e, NULL, run->sweep->name, run->xs[i], NULL);
		emit_text(e, "ECMData cy/CL", "%s", ev->have_ecm ? transfers_text(&ev->ecm, s, sizeof(s)) : "-");
		cell(e, "sum cy/CL", ev->have_ecm, ev->ecm.total_cy);
		cell(e, "Roofline cy/CL", ev->have_rl, ev->rl.cy_per_cl);
		if (ecm_col)
			cell(e, "ECM cy/CL", f.ok, f.prediction);
		if (bench_col)
			cell(e, "measured cy/CL", ev->have_bench, ev->have_bench ? model_eval_bench_cy_per_cl(ev) : 0);
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_int(e, NULL, "sizes", run->n, NULL);
	emit_number(e, MO_KEY(SECONDS), "time", r->seconds, "s", "%.3f");
	if (!run->rows[0].have_ecm && run->rows[0].ecm_error[0])
		emit_text(e, "ECMData", "not available: %s", run->rows[0].ecm_error);
	if (bench_col && !run->rows[0].have_bench)
		emit_text(e, "benchmark", "not available: %s", run->rows[0].bench_error);
	if (r->plot)
		emit_text(e, "plot", "%s/model-sweep.svg", r->plot);
	emit_table_begin(e, MO_KEY(SIZES), NULL);
	for (int i = 0; i < run->n; i++) {
		emit_row_begin(e);
		render_eval(e, r, &run->rows[i], 0);
		emit_row_end(e);
	}
	emit_table_end(e);
}

void cli_model_render(struct emit *e, const struct cli_model_result *r)
{
	render_header(e, r);
	if (!r->run->sweep) {
		render_eval(e, r, &r->run->rows[0], 1);
		if (r->blk)
			render_blocking(e, r);
		return;
	}
	if (r->o->req.models & MODEL_INCORE)
		cli_model_render_incore(e, r);
	render_sweep(e, r);
}
