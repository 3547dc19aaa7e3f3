/* The evaluation pipeline of `model`; see eval.h. */
#include "model/eval.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const model_names[MODEL_COUNT + 1] = {
#define X(id, name) name,
	MODEL_LIST(X)
#undef X
	NULL
};
const char *const model_predictor_names[MODEL_PRED_COUNT + 1] = {
#define X(id, name) name,
	MODEL_PRED_LIST(X)
#undef X
	NULL
};
const char *const model_rates_names[MODEL_RATES_END] = {
#define X(id, name) name,
	MODEL_RATES_LIST(X)
#undef X
	NULL
};

int model_rates_choose(const struct machine *m, int rates, struct ecm_fit *fit, struct as_error *err)
{
	if (rates == MODEL_RATES_MACHINE)
		return 0;
	struct as_error ferr = { 0 };
	int fitted = model_ecm_fit(m, fit, &ferr);
	if (fitted < 0 && rates == MODEL_RATES_FIT)
		return as_error_set(err, fitted, "%s", ferr.msg);
	return fitted > 0 && (rates == MODEL_RATES_FIT || m->probed);
}

int model_eval_size(const struct model_request *req, const struct kernel *k, const struct machine *m, const int64_t *vals,
		    struct lc_analysis *lc, struct model_eval *e, struct as_error *err)
{
	struct as_error merr = { 0 };
	memset(e, 0, sizeof(*e));
	e->lc = lc;
	int64_t align = (int64_t)machine_line_bytes(m);
	int rc = kernel_bind(k, vals, align, &e->b, err);
	if (rc)
		return rc;
	double cl = machine_line_bytes(m);
	int lc_ok = lc_analyse(k, &e->b, cl, e->lc, &merr) == 0;
	if (!lc_ok) {
		as_error_copy(e->lc_error, sizeof(e->lc_error), merr.msg);
		as_error_clear(&merr);
	}
	if (req->predictor == MODEL_PRED_LC) {
		if (!lc_ok)
			return as_error_set(err, -EINVAL, "%s", e->lc_error);
		lc_predict_opts(e->lc, m, req->cores, &req->llc, &e->tr);
	} else if ((rc = sim_predict(k, &e->b, m, req->cores, req->seed, req->sim_iterations, &e->tr, &e->si, &merr))) {
		return as_error_set(err, rc, "cache simulator: %s", merr.msg);
	}
	if (req->models & MODEL_ECMDATA) {
		if (model_ecm_data(m, &e->tr, req->fit, &e->ecm, &merr) == 0)
			e->have_ecm = 1;
		else
			as_error_copy(e->ecm_error, sizeof(e->ecm_error), merr.msg);
		as_error_clear(&merr);
		int llc = lc_llc_level(m);
		if (e->have_ecm && req->predictor == MODEL_PRED_LC && llc >= 0) {
			e->have_sens = 1;
			snprintf(e->sens_level, sizeof(e->sens_level), "%s", m->level[llc].name);
			for (int w = 0; w < 2 && e->have_sens; w++) {
				struct lc_llc o = req->llc;
				o.scale = (o.scale > 0 ? o.scale : 1) * (w ? 2.0 : 0.5);
				struct cache_traffic tr;
				lc_predict_opts(e->lc, m, req->cores, &o, &tr);
				e->have_sens = model_ecm_data(m, &tr, req->fit, &e->ecm_sens[w], &merr) == 0;
				as_error_clear(&merr);
			}
		}
	}
	if (req->models & MODEL_ROOFLINE) {
		if (model_roofline(m, &e->tr, kernel_flops(k), kernel_elsize(k), req->cores, &e->rl, &merr) == 0)
			e->have_rl = 1;
		else
			as_error_copy(e->rl_error, sizeof(e->rl_error), merr.msg);
		as_error_clear(&merr);
	}
	return 0;
}

void model_eval_ecm(const struct model_eval *e, struct ecm_full *f)
{
	memset(f, 0, sizeof(*f));
	if (e->ic && e->have_ecm)
		ecm_full_compute(&e->ecm, e->ic->t_ol, e->ic->t_nol, f);
}

void model_eval_ecm_sens(const struct model_eval *e, int which, struct ecm_full *f)
{
	memset(f, 0, sizeof(*f));
	if (e->ic && e->have_sens && which >= 0 && which < 2)
		ecm_full_compute(&e->ecm_sens[which], e->ic->t_ol, e->ic->t_nol, f);
}

double model_llc_band_default(const struct machine *m)
{
	return m->probed ? 4.0 : 1.0;
}

double model_eval_roofline_asm(const struct model_eval *e, int *bottleneck)
{
	double core = fmax(e->ic->t_ol, e->ic->t_nol), worst = core;
	*bottleneck = -1;
	for (int i = 0; e->have_rl && i < e->rl.n; i++)
		if (e->rl.level[i].cy_per_cl > worst) {
			worst = e->rl.level[i].cy_per_cl;
			*bottleneck = i;
		}
	return worst;
}

double model_eval_bench_time_cy_per_cl(const struct model_eval *e)
{
	double cls = (double)e->b.iterations / e->tr.iterations_per_cl;
	return e->bench.seconds_per_call * e->bench_ghz * 1e9 / cls;
}

double model_eval_bench_cy_per_cl(const struct model_eval *e)
{
	double cls = (double)e->b.iterations / e->tr.iterations_per_cl;
	return e->cnt.available ? e->cnt.per_call[0] / cls : model_eval_bench_time_cy_per_cl(e);
}

int model_bench_check_memory(const struct kbound *b, struct as_error *err)
{
	double mem = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
	if (mem > 0 && (double)b->total_bytes > 0.8 * mem)
		return as_error_set(err, -E2BIG, "benchmark: the arrays need %.3g GB, more than 80 %% of this machine's %.3g GB of memory",
				    (double)b->total_bytes / 1e9, mem / 1e9);
	return 0;
}

void model_eval_bench(struct model_eval *e, const struct model_request *req, const struct kernel *k, int cpu,
		      double min_seconds, int reps, double clock_ghz, const struct spawn_hooks *hooks)
{
	struct as_error err = { 0 };
	e->bench_ghz = clock_ghz;
	if (incore_benchmark(k, &e->b, req->text, req->text_len, req->incore, cpu, min_seconds, reps, hooks, &e->bench, &err) == 0)
		e->have_bench = 1;
	else
		as_error_copy(e->bench_error, sizeof(e->bench_error), err.msg);
}

int model_run_init(struct model_run *run, const struct kernel *k, const struct model_define *defs, int ndefs,
		   struct as_error *err)
{
	memset(run, 0, sizeof(*run));
	run->sweep_sym = -1;
	int used[POLY_MAX_SYMS] = { 0 };
	for (int s = 0; s < k->nsyms; s++) {
		int found = 0;
		for (int d = 0; d < ndefs; d++)
			if (!strcmp(defs[d].name, k->sym[s])) {
				run->vals[s] = defs[d].v;
				used[d] = found = 1;
				if (defs[d].sweep) {
					run->sweep_sym = s;
					run->sweep = &defs[d];
				}
			}
		if (!found)
			return as_error_set(err, -EINVAL, "%s:%d:%d: constant '%s' has no value: give -D %s VALUE", k->file,
					    k->sym_pos[s].line, k->sym_pos[s].col, k->sym[s], k->sym[s]);
	}
	for (int d = 0; d < ndefs; d++)
		if (!used[d])
			return as_error_set(err, -EINVAL, "-D %s: the kernel has no constant '%s'", defs[d].name, defs[d].name);
	run->n = run->sweep ? (int)((run->sweep->to - run->sweep->from) / run->sweep->step) + 1 : 1;
	run->rows = calloc((size_t)run->n, sizeof(*run->rows));
	run->xs = calloc((size_t)run->n, sizeof(*run->xs));
	run->lc = calloc(1, sizeof(*run->lc));
	if (!run->rows || !run->xs || !run->lc) {
		model_run_release(run);
		return as_error_set(err, -ENOMEM, "out of memory");
	}
	for (int i = 0; i < run->n; i++)
		run->xs[i] = run->sweep ? run->sweep->from + (int64_t)i * run->sweep->step : 0;
	return 0;
}

int model_run_all(struct model_run *run, const struct model_request *req, const struct kernel *k,
		  const struct machine *m, const struct model_run_hooks *hooks, struct as_error *err)
{
	struct as_error ierr = { 0 };
	for (int i = 0; i < run->n; i++) {
		struct model_eval *e = &run->rows[i];
		if (run->sweep)
			run->vals[run->sweep_sym] = run->xs[i];
		int rc = model_eval_size(req, k, m, run->vals, run->lc, e, err);
		if (rc)
			return rc;
		if (i == 0 && (req->models & MODEL_INCORE)) {
			if (incore_analyse(k, &e->b, req->text, req->text_len, req->incore, e->tr.iterations_per_cl, &run->ic, &ierr) == 0)
				run->have_ic = 1;
			else
				as_error_copy(run->ic_error, sizeof(run->ic_error), ierr.msg);
		}
		e->ic = run->have_ic ? &run->ic : NULL;
		if (hooks && hooks->after_size)
			hooks->after_size(hooks->ctx, run, i);
		if (run->sweep)
			e->lc = NULL; /* a sweep keeps the transfers, not every listing */
	}
	return 0;
}

void model_run_release(struct model_run *run)
{
	if (run->have_ic)
		incore_result_free(&run->ic);
	free(run->lc);
	free(run->xs);
	free(run->rows);
	memset(run, 0, sizeof(*run));
	run->sweep_sym = -1;
}
