/* archscope model as JSON: the "results" object of one size or of a sweep, with the same numbers as
 * the text (model-render-text.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/model.h"

static json_t *jlc(const struct model_opts *o, const struct kernel *k, const struct machine *m, const struct model_eval *e)
{
	json_t *lc = json_object();
	if (e->lc_error[0]) {
		json_object_set_new(lc, "error", json_string(e->lc_error));
		return lc;
	}
	json_t *levels = json_array();
	for (int i = 0; i < m->nlevels; i++) {
		const struct machine_level *L = &m->level[i];
		if (!L->has_cache)
			continue;
		double size = predict_share(L, o->req.cores);
		json_t *l = json_object();
		json_object_set_new(l, "level", json_string(L->name));
		json_object_set_new(l, "size_bytes", json_real(size));
		json_t *cs = json_array();
		int act = lc_active(e->lc, size);
		for (int c = 0; c < e->lc->ncond; c++) {
			const struct lc_condition *C = &e->lc->cond[c];
			json_t *j = json_object();
			char ct[300];
			model_cond_text(k, e->lc, c, ct, sizeof(ct));
			json_object_set_new(j, "condition", json_string(ct));
			json_object_set_new(j, "requirement_bytes", json_real(C->req_bytes));
			json_object_set_new(j, "misses", json_integer(C->misses));
			json_object_set_new(j, "hits", json_integer(C->hits));
			json_object_set_new(j, "evicts", json_integer(C->evicts));
			json_t *tr = json_object();
			for (int s = 0; s < k->nsyms; s++) {
				int64_t t = lc_transition(e->lc, c, &e->b, s, size);
				if (t >= 0)
					json_object_set_new(tr, k->sym[s], json_integer(t));
			}
			json_object_set_new(j, "holds_while_at_most", tr);
			json_array_append_new(cs, j);
		}
		json_object_set_new(l, "conditions", cs);
		json_object_set_new(l, "active", json_integer(act));
		json_array_append_new(levels, l);
	}
	json_object_set_new(lc, "levels", levels);
	return lc;
}

static json_t *jincore(const struct incore_result *ic)
{
	json_t *j = json_object(), *ports = json_array();
	json_object_set_new(j, "compiler", json_string(ic->cfg.compiler));
	json_object_set_new(j, "flags", json_string(ic->cfg.flags));
	json_object_set_new(j, "mcpu", json_string(ic->mca.mcpu));
	json_object_set_new(j, "mcpu_wanted", json_string(ic->cfg.mcpu));
	json_object_set_new(j, "mcpu_choice", json_string(ic->mca.mcpu_reason));
	json_object_set_new(j, "vector_bits", json_integer(ic->mca.vector_bits));
	json_object_set_new(j, "loop_label", json_string(ic->loop.label));
	json_object_set_new(j, "instructions", json_integer(ic->loop.ninstr));
	json_object_set_new(j, "iterations_per_pass", json_real(ic->unroll));
	for (int p = 0; p < ic->mca.nports; p++)
		json_array_append_new(ports, json_pack("{s:s,s:f,s:b,s:b}", "port", ic->mca.port[p], "cycles_per_pass",
						       ic->mca.pressure[p], "non_overlapping", ic->mca.is_nol[p], "overlapping",
						       ic->mca.is_ol[p]));
	json_object_set_new(j, "ports", ports);
	json_object_set_new(j, "mca_cycles_per_pass", json_real(ic->mca.cycles_per_pass));
	json_object_set_new(j, "T_OL", json_real(ic->t_ol));
	json_object_set_new(j, "T_nOL", json_real(ic->t_nol));
	json_object_set_new(j, "T_OL_ports", json_real(ic->t_ol_ports));
	json_object_set_new(j, "latency_bound", json_boolean(ic->latency_bound));
	json_object_set_new(j, "recurrence_cy_per_pass",
			    json_pack("{s:f,s:f,s:i,s:b}", "mca", ic->chain.mca_cy_per_pass, "probed", ic->chain.probed_cy_per_pass,
				      "probed_instructions", ic->chain.nprobed, "used", ic->latency_probed));
	json_object_set_new(j, "unit", json_string("cy/CL"));
	return j;
}

static json_t *jecm(const struct machine *m, const struct model_eval *e)
{
	struct ecm_full f;
	model_eval_ecm(e, &f);
	if (!f.ok)
		return json_pack("{s:s}", "error", e->ic ? e->ecm_error : "no in-core analysis");
	json_t *j = json_object(), *cum = json_array();
	json_object_set_new(j, "T_OL", json_real(f.t_ol));
	json_object_set_new(j, "T_nOL", json_real(f.t_nol));
	for (int i = 0; i < f.n; i++)
		json_object_set_new(j, f.name[i], json_real(f.t[i]));
	for (int i = 0; i <= f.n; i++)
		json_array_append_new(cum, json_real(f.cum[i]));
	json_object_set_new(j, "cumulative_cy_per_cl", cum);
	json_object_set_new(j, "prediction_cy_per_cl", json_real(f.prediction));
	json_object_set_new(j, "mlups", json_real(m->clock_hz / (f.prediction / e->tr.iterations_per_cl) / 1e6));
	if (f.n_s > 0)
		json_object_set_new(j, "saturation_cores", json_integer(f.n_s));
	json_object_set_new(j, "unit", json_string("cy/CL"));
	return j;
}

static json_t *jbench(const struct kernel *k, const struct model_eval *e)
{
	if (!e->have_bench)
		return json_pack("{s:s}", "error", e->bench_error);
	double cy = model_eval_bench_cy_per_cl(e), spc = e->bench.seconds_per_call;
	json_t *j = json_object();
	json_object_set_new(j, "cy_per_cl", json_real(cy));
	char how[128];
	snprintf(how, sizeof(how), "core cycles from the %s counter", e->cnt.name[0]);
	json_object_set_new(j, "cycles", json_string(e->cnt.available ? how : "core cycles of the measured clock"));
	json_object_set_new(j, "clock_ghz", json_real(e->bench_ghz));
	json_object_set_new(j, "seconds_per_call", json_real(spc));
	json_object_set_new(j, "calls", json_integer(e->bench.calls));
	json_object_set_new(j, "repetitions", json_integer(e->bench.reps));
	json_object_set_new(j, "mlups", json_real((double)e->b.iterations / spc / 1e6));
	json_object_set_new(j, "gflops", json_real((double)kernel_flops(k) * (double)e->b.iterations / spc / 1e9));
	json_t *cj = json_object();
	json_object_set_new(cj, "available", json_boolean(e->cnt.available));
	if (e->cnt.available) {
		double cls = (double)e->b.iterations / e->tr.iterations_per_cl;
		json_t *ev = json_object();
		for (int i = 0; i < e->cnt.n; i++)
			json_object_set_new(ev, e->cnt.name[i], json_pack("{s:s,s:f,s:f}", "event", e->cnt.fq[i], "per_call",
									   e->cnt.per_call[i], "per_cl", e->cnt.per_call[i] / cls));
		json_object_set_new(cj, "events", ev);
		json_object_set_new(j, "time_cy_per_cl", json_real(model_eval_bench_time_cy_per_cl(e)));
	} else {
		json_object_set_new(cj, "reason", json_string(e->cnt.reason));
	}
	json_object_set_new(j, "counters", cj);
	struct ecm_full f;
	model_eval_ecm(e, &f);
	json_t *err = json_object();
	if (f.ok)
		json_object_set_new(err, "ECM", json_real((f.prediction - cy) / cy));
	if (e->have_rl)
		json_object_set_new(err, "Roofline", json_real((e->rl.cy_per_cl - cy) / cy));
	if (e->ic && e->have_rl) {
		int b;
		json_object_set_new(err, "RooflineASM", json_real((model_eval_roofline_asm(e, &b) - cy) / cy));
	}
	json_object_set_new(j, "relative_error", err);
	return j;
}

static json_t *jeval(const struct model_opts *o, const struct kernel *k, const struct machine *m, const struct model_eval *e)
{
	json_t *r = json_object();
	json_t *d = json_object();
	for (int s = 0; s < k->nsyms; s++)
		json_object_set_new(d, k->sym[s], json_integer(e->b.val[s]));
	json_object_set_new(r, "defines", d);
	json_object_set_new(r, "iterations", json_integer(e->b.iterations));
	json_object_set_new(r, "iterations_per_cl", json_real(e->tr.iterations_per_cl));
	json_t *tr = json_array();
	for (int i = 0; i < e->tr.nlevels; i++) {
		const struct level_traffic *T = &e->tr.level[i];
		json_t *j = json_object();
		json_object_set_new(j, "level", json_string(T->name));
		json_object_set_new(j, "size_bytes", json_real(T->size_bytes));
		json_object_set_new(j, "hits_per_it", json_real(T->hits));
		json_object_set_new(j, "misses_per_it", json_real(T->misses));
		json_object_set_new(j, "lines_in_per_cl", json_real(T->lines_in));
		json_object_set_new(j, "lines_out_per_cl", json_real(T->lines_out));
		json_array_append_new(tr, j);
	}
	json_object_set_new(r, "traffic", tr);
	if (o->req.predictor == MODEL_PRED_SIM) {
		json_t *s = json_object();
		json_object_set_new(s, "warmup_iterations", json_integer(e->si.warmup_iterations));
		json_object_set_new(s, "measured_iterations", json_integer(e->si.measured_iterations));
		json_object_set_new(s, "accesses", json_integer((json_int_t)e->si.accesses));
		json_object_set_new(s, "seed", json_integer((json_int_t)e->si.seed));
		json_object_set_new(s, "measured_accesses", json_integer((json_int_t)e->si.measured_accesses));
		json_object_set_new(s, "measured_seconds", json_real(e->si.measured_seconds));
		json_object_set_new(r, "simulation", s);
	}
	if ((o->req.models & MODEL_LC) && e->lc) /* a sweep keeps the transfers, not every listing */
		json_object_set_new(r, "lc", jlc(o, k, m, e));
	if (o->req.models & MODEL_ECMDATA) {
		if (e->have_ecm) {
			json_t *j = json_object();
			for (int i = 0; i < e->ecm.n; i++)
				json_object_set_new(j, e->ecm.t[i].name, json_real(e->ecm.t[i].cy));
			json_object_set_new(j, "unit", json_string("cy/CL"));
			json_t *det = json_array();
			for (int i = 0; i < e->ecm.n; i++) {
				const struct ecm_transfer *T = &e->ecm.t[i];
				json_t *x = json_object();
				json_object_set_new(x, "level", json_string(T->name));
				json_object_set_new(x, "lines_in_per_cl", json_real(T->lines_in));
				json_object_set_new(x, "lines_out_per_cl", json_real(T->lines_out));
				json_object_set_new(x, "bytes_per_cy", json_real(T->bytes_per_cy));
				json_object_set_new(x, "source", json_string(T->source));
				json_object_set_new(x, "cy_per_cl", json_real(T->cy));
				json_array_append_new(det, x);
			}
			json_object_set_new(j, "transfers", det);
			json_object_set_new(j, "rates", json_string(o->req.fit ? "fit" : "machine"));
			if (e->ecm.mem_saturated_cy > 0)
				json_object_set_new(j, "mem_saturated_cy_per_cl", json_real(e->ecm.mem_saturated_cy));
			json_object_set_new(r, "ecm_data", j);
		} else {
			json_object_set_new(r, "ecm_data", json_pack("{s:s}", "error", e->ecm_error));
		}
	}
	if (o->req.models & MODEL_ROOFLINE) {
		if (e->have_rl) {
			json_t *j = json_object(), *ls = json_array();
			for (int i = 0; i < e->rl.n; i++) {
				const struct roofline_level *R = &e->rl.level[i];
				json_t *x = json_object();
				json_object_set_new(x, "level", json_string(R->name));
				json_object_set_new(x, "bytes_per_it", json_real(R->bytes_per_it));
				json_object_set_new(x, "intensity_flop_per_byte", isfinite(R->intensity) ? json_real(R->intensity) : json_null());
				json_object_set_new(x, "bandwidth_gbs", json_real(R->bw_bytes_s / 1e9));
				json_object_set_new(x, "bw_kernel", json_string(R->kernel));
				json_object_set_new(x, "gflops", isfinite(R->perf_flops_s) ? json_real(R->perf_flops_s / 1e9) : json_null());
				json_object_set_new(x, "cy_per_cl", json_real(R->cy_per_cl));
				json_array_append_new(ls, x);
			}
			json_object_set_new(j, "levels", ls);
			json_object_set_new(j, "peak_gflops", json_real(e->rl.peak_flops_s / 1e9));
			json_object_set_new(j, "core_cy_per_cl", json_real(e->rl.cpu_cy_per_cl));
			json_object_set_new(j, "bottleneck", json_string(e->rl.bottleneck < 0 ? "core" : e->rl.level[e->rl.bottleneck].name));
			json_object_set_new(j, "gflops", json_real(e->rl.perf_flops_s / 1e9));
			json_object_set_new(j, "cy_per_cl", json_real(e->rl.cy_per_cl));
			json_object_set_new(r, "roofline", j);
		} else {
			json_object_set_new(r, "roofline", json_pack("{s:s}", "error", e->rl_error));
		}
	}
	if (o->req.models & MODEL_ECM)
		json_object_set_new(r, "ecm", jecm(m, e));
	if ((o->req.models & MODEL_ROOFASM) && e->ic && e->have_rl) {
		int b;
		double cy = model_eval_roofline_asm(e, &b);
		json_object_set_new(r, "roofline_asm", json_pack("{s:f,s:f,s:s}", "cy_per_cl", cy, "core_cy_per_cl",
								 fmax(e->ic->t_ol, e->ic->t_nol), "bottleneck",
								 b < 0 ? "core" : e->rl.level[b].name));
	}
	if (o->req.models & MODEL_BENCH)
		json_object_set_new(r, "benchmark", jbench(k, e));
	return r;
}

static json_t *jblocking(const struct kernel *k, const struct model_eval *e, const struct model_blocking *blk)
{
	if (!blk->ok)
		return json_pack("{s:s}", "error", blk->error);
	json_t *out = json_array();
	for (int i = 0; i < blk->n; i++) {
		const struct model_block *B = &blk->level[i];
		if (!B->found)
			continue;
		char ct[300];
		model_cond_text(k, e->lc, B->cond_blocked, ct, sizeof(ct));
		json_t *j = json_object();
		json_object_set_new(j, "level", json_string(B->level));
		json_object_set_new(j, "constant", json_string(k->sym[B->sym]));
		json_object_set_new(j, "block_at_most", json_integer(B->block_at_most));
		json_object_set_new(j, "loops", json_string(B->loops));
		json_object_set_new(j, "condition", json_string(ct));
		json_object_set_new(j, "misses_now", json_integer(e->lc->cond[B->cond_now].misses));
		json_object_set_new(j, "misses_blocked", json_integer(e->lc->cond[B->cond_blocked].misses));
		json_object_set_new(j, "model", json_string(blk->model));
		json_object_set_new(j, "cy_per_cl_now", json_real(B->cy_now));
		json_object_set_new(j, "cy_per_cl_blocked", json_real(B->cy_blocked));
		json_array_append_new(out, j);
	}
	return out;
}

/* The keys every result has, after the size's own: the run's inputs and the in-core analysis. */
static void jrun(const struct model_opts *o, const struct kernel *k, const struct model_run *run, json_t *r)
{
	json_object_set_new(r, "kernel", json_string(o->kernel));
	json_object_set_new(r, "machine_file", json_string(o->machine));
	json_object_set_new(r, "cache_predictor", json_string(o->req.predictor == MODEL_PRED_LC ? "LC" : "SIM"));
	json_object_set_new(r, "cores", json_integer(o->req.cores));
	json_object_set_new(r, "flops_per_it", json_integer(kernel_flops(k)));
	if (run->sweep)
		json_object_set_new(r, "sweep", json_string(run->sweep->name));
	if (o->req.models & MODEL_INCORE)
		json_object_set_new(r, "incore", run->have_ic ? jincore(&run->ic) : json_pack("{s:s}", "error", run->ic_error));
}

json_t *model_json_size(const struct model_opts *o, const struct kernel *k, const struct machine *m,
			const struct model_run *run, const struct model_blocking *blk)
{
	json_t *r = jeval(o, k, m, &run->rows[0]);
	jrun(o, k, run, r);
	if (blk)
		json_object_set_new(r, "blocking", jblocking(k, &run->rows[0], blk));
	return r;
}

json_t *model_json_sweep(const struct model_opts *o, const struct kernel *k, const struct machine *m,
			 const struct model_run *run, double seconds)
{
	json_t *r = json_object(), *arr = json_array();
	for (int i = 0; i < run->n; i++)
		json_array_append_new(arr, jeval(o, k, m, &run->rows[i]));
	jrun(o, k, run, r);
	json_object_set_new(r, "seconds", json_real(seconds));
	json_object_set_new(r, "sizes", arr);
	return r;
}
