/* archscope model's renderer, the models that need the in-core analysis: llvm-mca's port pressure,
 * the full ECM, RooflineASM and benchmark mode's measurement with each model's error. */
#include <math.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/cmd-model.h"
#include "machine/result-model.h"
#include "report/emit.h"

/* llvm-mca's port pressure: per instruction (text only) and per port, and which ports do not overlap. */
static void render_ports(struct emit *e, const struct incore_mca *m)
{
	int used[INCORE_MAX_PORTS], nu = 0; /* the ports used at all */
	for (int p = 0; p < m->nports; p++)
		if (m->pressure[p] > 0.005)
			used[nu++] = p;
	emit_table_begin(e, NULL, "port pressure in cycles per pass");
	for (int x = 0; x < m->ninstr; x++) {
		emit_row_begin(e);
		emit_text(e, "instruction", "%.44s", m->instr[x]);
		for (int i = 0; i < nu; i++) {
			double v = m->by_instr[x * m->nports + used[i]];
			if (v > 0.005)
				emit_text(e, m->port[used[i]], "%.2f", v);
			else
				emit_text(e, m->port[used[i]], "-");
		}
		emit_row_end(e);
	}
	emit_table_end(e);
	char nol[256] = "";
	size_t w = 0;
	emit_table_begin(e, MO_KEY(IC_PORTS), "");
	for (int p = 0; p < m->nports; p++) {
		emit_row_begin(e);
		emit_string(e, MO_KEY(IC_PORT), "port", m->port[p]);
		emit_number(e, MO_KEY(IC_PORT_CY), "cy per pass", m->pressure[p], NULL, "%.2f");
		emit_bool(e, MO_KEY(IC_PORT_NOL), "non-overlapping (nOL)", m->is_nol[p]);
		emit_bool(e, MO_KEY(IC_PORT_OL), "overlapping (OL)", m->is_ol[p]);
		emit_row_end(e);
		if (m->is_nol[p] && w < sizeof(nol))
			w += (size_t)snprintf(nol + w, sizeof(nol) - w, "%s%s", w ? ", " : "", m->port[p]);
	}
	emit_table_end(e);
	emit_text(e, "non-overlapping ports", "%s (%s)", nol[0] ? nol : "none",
		  m->nol_from_file ? "from the machine file" : "llvm-mca's load ports for this -mcpu: the machine file names none");
}

/* The loop's accesses that span two cache lines, at probe instr's costs (in T_nOL). */
static void render_line_crossing(struct emit *e, const struct incore_result *ic)
{
	emit_annotate(e, " (with %.2f cy/CL of line-crossing accesses)", ic->t_split);
	emit_object_begin(e, MO_KEY(IC_SPLIT), "line-crossing accesses");
	emit_int(e, MO_KEY(IC_SPLIT_WIDTH), "vector width", ic->split_width_bits, "bit");
	emit_number(e, MO_KEY(IC_SPLIT_LOADS), "loads spanning two lines", ic->split_loads, "per CL", "%.2f");
	emit_number(e, MO_KEY(IC_SPLIT_STORES), "stores spanning two lines", ic->split_stores, "per CL", "%.2f");
	emit_number(e, MO_KEY(IC_SPLIT_ADDED), "added to T_nOL", ic->t_split, "cy/CL", "%.2f");
	emit_number(e, MO_KEY(IC_SPLIT_MEMOPS), "loads and stores at probed costs", ic->t_nol_memops, "cy/CL", "%.2f");
	emit_bool(e, MO_KEY(IC_SPLIT_BOUND), "T_nOL from them", ic->t_nol_from_memops);
	if (ic->t_nol_from_memops)
		emit_annotate(e, " (more than llvm-mca's non-overlapping ports)");
	emit_string(e, MO_KEY(IC_SPLIT_COSTS), "costs", "probe instr's line_split: aligned access, and split minus aligned, per access");
	emit_object_end(e);
}

void cli_model_render_incore(struct emit *e, const struct cli_model_result *r)
{
	emit_object_begin(e, MO_KEY(INCORE), "in-core (llvm-mca)");
	if (!r->run->have_ic) {
		emit_string(e, MO_KEY(IC_ERROR), "not available", r->run->ic_error);
		emit_annotate(e, " (the data-side models do not need it)");
		emit_object_end(e);
		return;
	}
	const struct incore_result *ic = &r->run->ic;
	const struct incore_mca *m = &ic->mca;
	emit_string(e, MO_KEY(IC_COMPILER), "compiler", ic->cfg.compiler);
	emit_string(e, MO_KEY(IC_FLAGS), "flags", ic->cfg.flags);
	emit_string(e, MO_KEY(IC_MCPU), "llvm-mca -mcpu", m->mcpu);
	emit_string(e, MO_KEY(IC_MCPU_WANTED), NULL, ic->cfg.mcpu);
	emit_string(e, MO_KEY(IC_MCPU_CHOICE), m->mcpu_exact ? NULL : "llvm-mca model", m->mcpu_reason);
	emit_int(e, MO_KEY(IC_VECTOR_BITS), "vector registers", m->vector_bits, "bits");
	emit_string(e, MO_KEY(IC_LOOP_LABEL), "loop", ic->loop.label);
	emit_int(e, MO_KEY(IC_INSTRUCTIONS), "instructions", ic->loop.ninstr, NULL);
	emit_number(e, MO_KEY(IC_ITS_PER_PASS), "kernel iterations per pass", ic->unroll, NULL, "%.2f");
	emit_annotate(e, " (%.0f B stored, %.0f B loaded per pass)", ic->loop.store_bytes, ic->loop.load_bytes);
	render_ports(e, m);
	emit_number(e, MO_KEY(IC_MCA_CY), "llvm-mca", m->cycles_per_pass, "cy per pass", "%.2f");
	emit_annotate(e, " (block reciprocal throughput %.2f)", m->block_rthroughput);
	emit_number(e, MO_KEY(IC_T_OL), "T_OL", ic->t_ol, "cy/CL", "%.2f");
	emit_annotate(e, " (a cache line of work: %.0f iterations = %.2f passes)", ic->iterations_per_cl,
		      ic->iterations_per_cl / ic->unroll);
	emit_number(e, MO_KEY(IC_T_NOL), "T_nOL", ic->t_nol, "cy/CL", "%.2f");
	if (ic->split_width_bits > 0)
		render_line_crossing(e, ic);
	emit_number(e, MO_KEY(IC_T_OL_PORTS), "T_OL of the ports", ic->t_ol_ports, "cy/CL", "%.2f");
	emit_bool(e, MO_KEY(IC_LATENCY_BOUND), "latency bound", ic->latency_bound);
	if (ic->latency_bound)
		emit_annotate(e, " (T_OL raised from the port pressure's to llvm-mca's cycles, 1.5x more: a dependency chain bounds the loop)");
	emit_object_begin(e, MO_KEY(IC_RECURRENCE), ic->latency_bound ? "" : NULL);
	emit_number(e, MO_KEY(IC_REC_MCA), "recurrence, llvm-mca's latencies", ic->chain.mca_cy_per_pass, "cy per pass", "%.2f");
	emit_number(e, MO_KEY(IC_REC_PROBED), "recurrence, probe instr's latencies", ic->chain.probed_cy_per_pass, "cy per pass", "%.2f");
	emit_int(e, MO_KEY(IC_REC_NPROBED), "instructions probed", ic->chain.nprobed, NULL);
	emit_bool(e, MO_KEY(IC_REC_USED), "T_OL from the probed recurrence", ic->latency_probed);
	emit_object_end(e);
	emit_string(e, MO_KEY(IC_UNIT), NULL, "cy/CL");
	emit_object_end(e);
}

static void render_ecm(struct emit *e, const struct cli_model_result *r, const struct model_eval *ev)
{
	const struct machine *m = r->m;
	struct ecm_full f;
	model_eval_ecm(ev, &f);
	emit_object_begin(e, MO_KEY(ECM), "ECM");
	if (!f.ok) {
		cli_model_render_error(e, MO_KEY(ECM_ERROR), ev->ic ? ev->ecm_error : "no in-core analysis");
		return;
	}
	char s[512], names[256];
	size_t w = (size_t)snprintf(s, sizeof(s), "{ %.2f || %.2f", f.t_ol, f.t_nol);
	size_t wn = (size_t)snprintf(names, sizeof(names), "T_OL || T_nOL");
	emit_number(e, MO_KEY(ECM_T_OL), NULL, f.t_ol, NULL, NULL);
	emit_number(e, MO_KEY(ECM_T_NOL), NULL, f.t_nol, NULL, NULL);
	for (int i = 0; i < f.n; i++) {
		emit_number(e, f.name[i], NULL, f.t[i], NULL, NULL);
		if (w < sizeof(s))
			w += (size_t)snprintf(s + w, sizeof(s) - w, " | %.2f", f.t[i]);
		if (wn < sizeof(names))
			wn += (size_t)snprintf(names + wn, sizeof(names) - wn, " | %s", f.name[i]);
	}
	emit_text(e, "ECM", "%s } cy/CL  (%s)", s, names);
	emit_array_begin(e, MO_KEY(ECM_CUMULATIVE), "data in L1, L2, ...");
	for (int i = 0; i <= f.n; i++)
		emit_number(e, NULL, "", f.cum[i], NULL, "%.2f");
	emit_array_end(e);
	emit_annotate(e, " cy/CL");
	if (!(r->o->shown & MODEL_ECMDATA))
		cli_model_render_rates(e, r, NULL);
	double ipcl = ev->tr.iterations_per_cl;
	emit_number(e, MO_KEY(ECM_PREDICTION), "prediction", f.prediction, "cy/CL", "%.2f");
	emit_number(e, MO_KEY(ECM_MLUPS), "performance", m->clock_hz / (f.prediction / ipcl) / 1e6, "MLUP/s", "%.1f");
	emit_annotate(e, " at %.2f GHz (core cycles at the machine file's clock)", m->clock_hz / 1e9);
	if (ev->have_sens) {
		struct ecm_full h, d;
		model_eval_ecm_sens(ev, 0, &h);
		model_eval_ecm_sens(ev, 1, &d);
		emit_object_begin(e, MO_KEY(ECM_SENS), NULL);
		emit_string(e, MO_KEY(ECM_SENS_LEVEL), NULL, ev->sens_level);
		emit_number(e, MO_KEY(ECM_SENS_BAND), NULL, r->o->req.llc.band, NULL, NULL);
		emit_number(e, MO_KEY(ECM_SENS_HALF), NULL, h.prediction, "cy/CL", NULL);
		emit_number(e, MO_KEY(ECM_SENS_DOUBLE), NULL, d.prediction, "cy/CL", NULL);
		emit_object_end(e);
		double band = r->o->req.llc.band;
		if (band > 1)
			emit_text(e, "with the file's", "%s halved: %.2f, doubled: %.2f cy/CL (its capacity taken as uncertain "
				  "within x%.2g either way of the size, the traffic averaged over that band: --llc-band %g)",
				  ev->sens_level, h.prediction, d.prediction, sqrt(band), band);
		else
			emit_text(e, "with the file's", "%s halved: %.2f, doubled: %.2f cy/CL (a sharp transition at its size, "
				  "--llc-band 1)", ev->sens_level, h.prediction, d.prediction);
	}
	if (f.n_s > 0) {
		emit_int(e, MO_KEY(ECM_SATURATION), "saturation", f.n_s, "cores");
		emit_annotate(e, ": n_S = ceil(T_ECM / %s%s) = ceil(%.2f / %.2f)", f.name[f.n - 1],
			      r->o->req.fit ? " at the saturated bandwidth" : "", f.prediction, f.t_mem);
		long maxc = ecm_domain_cores(m);
		snprintf(s, sizeof(s), "MLUP/s on 1..%ld cores", maxc < 64 ? maxc : 64);
		emit_array_begin(e, NULL, s);
		for (long c = 1; c <= maxc && c <= 64; c++)
			emit_text(e, "", "%ld: %.0f", c, m->clock_hz / (ecm_full_cy_at(&f, c) / ipcl) / 1e6);
		emit_array_end(e);
		emit_annotate(e, " (one memory domain)");
	}
	emit_string(e, MO_KEY(ECM_UNIT), NULL, "cy/CL");
	emit_object_end(e);
}

static void render_roofline_asm(struct emit *e, const struct cli_model_result *r, const struct model_eval *ev)
{
	const char *title = (r->o->shown & MODEL_ROOFASM) ? "RooflineASM" : NULL;
	if (!ev->ic || !ev->have_rl) {
		emit_object_begin(e, NULL, title);
		cli_model_render_error(e, NULL, ev->ic ? ev->rl_error : "no in-core analysis");
		return;
	}
	int b;
	double cy = model_eval_roofline_asm(ev, &b), ipcl = ev->tr.iterations_per_cl, hz = r->m->clock_hz;
	emit_object_begin(e, MO_KEY(RLASM), title);
	emit_number(e, MO_KEY(RLASM_CY), "prediction", cy, "cy/CL", "%.2f");
	emit_annotate(e, " = %.2f GFLOP/s, %.1f MLUP/s", kernel_flops(r->k) * ipcl / cy * hz / 1e9, hz / (cy / ipcl) / 1e6);
	emit_number(e, MO_KEY(RLASM_CORE_CY), "core ceiling (llvm-mca)", fmax(ev->ic->t_ol, ev->ic->t_nol), "cy/CL", "%.2f");
	emit_array_begin(e, NULL, "data ceilings");
	for (int i = 0; i < ev->rl.n; i++)
		emit_text(e, "", "%s %.2f", ev->rl.level[i].name, ev->rl.level[i].cy_per_cl);
	emit_array_end(e);
	emit_annotate(e, " cy/CL");
	emit_string(e, MO_KEY(RLASM_BOTTLENECK), "bound by", b < 0 ? "core" : ev->rl.level[b].name);
	emit_object_end(e);
}

/* A model's relative error against the measured cycles, as a fraction (text: also in %). */
static void render_rel_error(struct emit *e, const char *key, const char *model, double predicted, double measured)
{
	emit_number(e, key, model, (predicted - measured) / measured, NULL, "%+.3f");
	emit_annotate(e, " (%+.1f %%; predicted %.2f cy/CL)", 100 * (predicted - measured) / measured, predicted);
}

static void render_bench(struct emit *e, const struct cli_model_result *r, const struct model_eval *ev)
{
	emit_object_begin(e, MO_KEY(BENCH), "Benchmark");
	if (!ev->have_bench) {
		cli_model_render_error(e, MO_KEY(BENCH_ERROR), ev->bench_error);
		return;
	}
	double cy = model_eval_bench_cy_per_cl(ev), spc = ev->bench.seconds_per_call, its = (double)ev->b.iterations;
	char how[128];
	snprintf(how, sizeof(how), "core cycles from the %s counter", ev->cnt.name[0]);
	emit_number(e, MO_KEY(BENCH_CY), "measured", cy, "cy/CL", "%.2f");
	emit_string(e, MO_KEY(BENCH_CYCLES), "cycles", ev->cnt.available ? how : "core cycles of the measured clock");
	emit_number(e, MO_KEY(BENCH_GHZ), "measured clock", ev->bench_ghz, "GHz", "%.3f");
	emit_number(e, MO_KEY(BENCH_SECONDS), "per call", spc, "s", "%.3g");
	emit_int(e, MO_KEY(BENCH_CALLS), "calls per repetition", ev->bench.calls, NULL);
	emit_int(e, MO_KEY(BENCH_REPS), "repetitions", ev->bench.reps, NULL);
	emit_annotate(e, " (the fastest counts)");
	cli_conditions_render(e, MO_KEY(BENCH_COND), MO_KEY(BENCH_NOISY), &ev->bench.cond);
	if (ev->bench.cond.noisy)
		emit_text(e, "noisy", "%s (after %d run%s): the measurement and the models' errors are flagged",
			  ev->bench.cond.why, ev->bench.cond.attempts, ev->bench.cond.attempts == 1 ? "" : "s");
	emit_number(e, MO_KEY(BENCH_MLUPS), "performance", its / spc / 1e6, "MLUP/s", "%.1f");
	emit_number(e, MO_KEY(BENCH_GFLOPS), "flops", (double)kernel_flops(r->k) * its / spc / 1e9, "GFLOP/s", "%.2f");
	if (ev->cnt.available)
		emit_number(e, MO_KEY(BENCH_TIME_CY), "from time", model_eval_bench_time_cy_per_cl(ev), "cy/CL", "%.2f");
	emit_object_begin(e, MO_KEY(BENCH_COUNTERS), "");
	emit_bool(e, MO_KEY(BENCH_CNT_AVAILABLE), NULL, ev->cnt.available);
	if (ev->cnt.available) {
		double cls = its / ev->tr.iterations_per_cl;
		emit_object_begin(e, MO_KEY(BENCH_CNT_EVENTS), "counters per CL (the repetition with the fewest cycles)");
		for (int i = 0; i < ev->cnt.n; i++) {
			emit_object_begin(e, ev->cnt.name[i], "");
			emit_string(e, MO_KEY(BENCH_EV_EVENT), NULL, ev->cnt.fq[i]);
			emit_number(e, MO_KEY(BENCH_EV_PER_CALL), NULL, ev->cnt.per_call[i], NULL, NULL);
			emit_number(e, MO_KEY(BENCH_EV_PER_CL), ev->cnt.name[i], ev->cnt.per_call[i] / cls, NULL, "%.2f");
			emit_object_end(e);
		}
		emit_object_end(e);
	} else {
		emit_string(e, MO_KEY(BENCH_CNT_REASON), "hardware counters", ev->cnt.reason);
	}
	emit_object_end(e);
	struct ecm_full f;
	model_eval_ecm(ev, &f);
	emit_object_begin(e, MO_KEY(BENCH_REL), "error of each model: (predicted - measured) / measured");
	if (f.ok)
		render_rel_error(e, MO_KEY(BENCH_REL_ECM), "ECM", f.prediction, cy);
	if (ev->have_rl)
		render_rel_error(e, MO_KEY(BENCH_REL_RL), "Roofline", ev->rl.cy_per_cl, cy);
	int b;
	if (ev->ic && ev->have_rl)
		render_rel_error(e, MO_KEY(BENCH_REL_RLASM), "RooflineASM", model_eval_roofline_asm(ev, &b), cy);
	emit_object_end(e);
	emit_object_end(e);
}

void cli_model_render_core(struct emit *e, const struct cli_model_result *r, const struct model_eval *ev, int in_core)
{
	int models = r->o->req.models;
	if (in_core && (models & MODEL_INCORE))
		cli_model_render_incore(e, r);
	if (models & MODEL_ECM)
		render_ecm(e, r, ev);
	if (models & MODEL_ROOFASM)
		render_roofline_asm(e, r, ev);
	if (models & MODEL_BENCH)
		render_bench(e, r, ev);
}
