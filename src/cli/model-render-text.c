/* archscope model as text for people: one size's report, model by model (the sweep's table is in
 * model-render-sweep.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/model.h"
#include "report/table.h"

static const char *const *sym_names(const struct kernel *k)
{
	static const char *n[POLY_MAX_SYMS];
	for (int i = 0; i < POLY_MAX_SYMS; i++)
		n[i] = i < k->nsyms ? k->sym[i] : "?";
	return n;
}

static void fmt_bytes(double b, char *out, size_t len)
{
	if (b >= 1e12)
		snprintf(out, len, "%.4g TB", b / 1e12);
	else if (b >= 1e9)
		snprintf(out, len, "%.4g GB", b / 1e9);
	else if (b >= 1e6)
		snprintf(out, len, "%.4g MB", b / 1e6);
	else if (b >= 1e4)
		snprintf(out, len, "%.4g kB", b / 1e3);
	else
		snprintf(out, len, "%.0f B", b);
}

void model_cond_text(const struct kernel *k, const struct lc_analysis *a, int c, char *out, size_t len)
{
	const struct lc_condition *C = &a->cond[c];
	if (c == 0) {
		snprintf(out, len, "nothing reused");
		return;
	}
	if (C->sym) {
		char p[256];
		poly_format(&C->req, sym_names(k), p, sizeof(p));
		snprintf(out, len, "%s%s B", C->all_fit ? "all arrays: " : "", p);
	} else {
		snprintf(out, len, "%s%.0f B", C->all_fit ? "all arrays: " : "", C->req_bytes);
	}
}

static void transitions(const struct kernel *k, const struct lc_analysis *a, int c, const struct kbound *b, double size,
			char *out, size_t len)
{
	size_t w = 0;
	out[0] = 0;
	for (int s = 0; s < k->nsyms && w < len; s++) {
		int64_t t = lc_transition(a, c, b, s, size);
		if (t < 0)
			continue;
		w += (size_t)snprintf(out + w, len - w, "%s%s <= %lld", w ? ", " : "", k->sym[s], (long long)t);
	}
	if (!out[0])
		snprintf(out, len, "%s", c == 0 ? "always" : "-");
}

/* The cache levels the layer conditions apply to, with the share of one core. */
static void print_lc(const struct model_opts *o, const struct kernel *k, const struct machine *m, const struct model_eval *e)
{
	printf("\n----- layer conditions (LC) -----\n");
	if (!e->lc || e->lc_error[0]) {
		printf("not applicable: %s\n", e->lc_error);
		return;
	}
	const struct lc_analysis *a = e->lc;
	for (int i = 0; i < m->nlevels; i++) {
		const struct machine_level *L = &m->level[i];
		if (!L->has_cache)
			continue;
		double size = predict_share(L, o->req.cores);
		char sz[32];
		fmt_bytes(size, sz, sizeof(sz));
		printf("%s: %.0f B (%s)%s\n", L->name, size, sz,
		       L->cores_per_group > 1 ? (o->req.cores > 1 ? ", shared: divided among the cores in use" : ", shared (1 core in use)") : "");
		int act = lc_active(a, size);
		struct table *t = table_new(7, "", "condition: cache holds", "at these sizes", "misses/it", "hits/it", "evicts/it",
					    "holds while");
		for (int c = 0; c < a->ncond; c++) {
			if (c == 0 && act != 0)
				continue; /* "nothing reused" only matters when nothing else fits */
			char ct[300], at[32], tr[200];
			model_cond_text(k, a, c, ct, sizeof(ct));
			fmt_bytes(a->cond[c].req_bytes, at, sizeof(at));
			transitions(k, a, c, &e->b, size, tr, sizeof(tr));
			table_cell(t, "%s", c == act ? "*" : "");
			table_cell(t, "%s", ct);
			table_cell(t, "%s", at);
			table_cell(t, "%d", a->cond[c].misses);
			table_cell(t, "%d", a->cond[c].hits);
			table_cell(t, "%d", a->cond[c].evicts);
			table_cell(t, "%s", tr);
		}
		table_print(t, stdout, "  ");
		table_free(t);
	}
	printf("(* = the condition that holds; \"holds while\" varies one constant, the others as given)\n");
}

static void print_traffic(const struct model_opts *o, const struct model_eval *e)
{
	printf("\n----- cache traffic (%s) -----\n", o->req.predictor == MODEL_PRED_LC ? "layer conditions" : "cache simulator");
	struct table *t = table_new(5, "level", "hits/it", "misses/it", "lines in/CL", "lines out/CL");
	for (int i = 0; i < e->tr.nlevels; i++) {
		const struct level_traffic *T = &e->tr.level[i];
		table_cell(t, "%s", T->name);
		table_cell(t, "%.3f", T->hits);
		table_cell(t, "%.3f", T->misses);
		table_cell(t, "%.3f", T->lines_in);
		table_cell(t, "%.3f", T->lines_out);
	}
	table_print(t, stdout, "  ");
	table_free(t);
	if (o->req.predictor == MODEL_PRED_SIM)
		printf("  simulated: %lld warm-up + %lld measured iterations, %llu accesses (%.0f M/s measured), seed %llu\n",
		       (long long)e->si.warmup_iterations, (long long)e->si.measured_iterations, (unsigned long long)e->si.accesses,
		       e->si.measured_seconds > 0 ? (double)e->si.measured_accesses / e->si.measured_seconds / 1e6 : 0,
		       (unsigned long long)e->si.seed);
}

/* Where the transfer costs come from: the fit per level, or the machine file's rates. */
static void print_rates(const struct model_opts *o, const struct machine *m)
{
	if (!o->req.fit) {
		printf("  transfer costs: the machine file's upstream throughputs and memory benchmarks");
		printf(o->ecm_rates == MODEL_RATES_MACHINE ? " (--ecm-rates machine)\n" : "\n");
		return;
	}
	printf("  transfer costs fitted to the machine file's one-core benchmarks (--ecm-rates), core cycles per\n"
	       "  cache line loaded from / evicted to each level:\n");
	for (int i = 1; i < m->nlevels; i++)
		if (o->fit.ok[i])
			printf("    %-4s %6.2f / %6.2f cy  (%d kernels, rms residual %.2f cy/CL)\n", m->level[i].name, o->fit.in[i],
			       o->fit.out[i], o->fit.nkernels[i], o->fit.rms[i]);
}

static void print_ecm(const struct model_opts *o, const struct machine *m, const struct model_eval *e)
{
	printf("\n----- ECMData -----\n");
	if (!e->have_ecm) {
		printf("not available: %s\n", e->ecm_error);
		return;
	}
	printf("{ ");
	for (int i = 0; i < e->ecm.n; i++)
		printf("%s%.2f", i ? " | " : "", e->ecm.t[i].cy);
	printf(" } cy/CL\n");
	struct table *t = table_new(6, "from", "lines in/CL", "lines out/CL", "rate", "B/cy", "cy/CL");
	for (int i = 0; i < e->ecm.n; i++) {
		const struct ecm_transfer *T = &e->ecm.t[i];
		table_cell(t, "%s", T->name);
		table_cell(t, "%.2f", T->lines_in);
		table_cell(t, "%.2f", T->lines_out);
		if (T->bw_bytes_s > 0)
			table_cell(t, "%s, %.2f GB/s", T->source, T->bw_bytes_s / 1e9);
		else
			table_cell(t, "%s", T->source);
		table_cell(t, "%.2f", T->bytes_per_cy);
		table_cell(t, "%.2f", T->cy);
	}
	table_print(t, stdout, "  ");
	table_free(t);
	printf("  sum of the data transfers: %.2f cy/CL (core cycles; memory bandwidths corrected for write-allocate)\n",
	       e->ecm.total_cy);
	print_rates(o, m);
}

static void print_roofline(const struct kernel *k, const struct machine *m, const struct model_eval *e)
{
	printf("\n----- Roofline (flop counting) -----\n");
	if (!e->have_rl) {
		printf("not available: %s\n", e->rl_error);
		return;
	}
	const struct roofline *r = &e->rl;
	struct table *t = table_new(7, "", "level", "intensity FLOP/B", "bandwidth GB/s", "bw kernel", "bound GFLOP/s", "cy/CL");
	table_cell(t, "%s", r->bottleneck < 0 ? "*" : "");
	table_cell(t, "core");
	table_cell(t, "-");
	table_cell(t, "-");
	table_cell(t, "%s", kernel_elsize(k) == 4 ? "SP peak" : "DP peak");
	table_cell(t, "%.2f", r->peak_flops_s / 1e9);
	table_cell(t, "%.2f", r->cpu_cy_per_cl);
	for (int i = 0; i < r->n; i++) {
		const struct roofline_level *R = &r->level[i];
		table_cell(t, "%s", r->bottleneck == i ? "*" : "");
		table_cell(t, "%s", R->name);
		table_cell(t, "%.3f", R->intensity);
		table_cell(t, "%.2f", R->bw_bytes_s / 1e9);
		table_cell(t, "%s", R->kernel);
		table_cell(t, "%.2f", R->perf_flops_s / 1e9);
		table_cell(t, "%.2f", R->cy_per_cl);
	}
	table_print(t, stdout, "  ");
	table_free(t);
	double ipcl = e->tr.iterations_per_cl;
	double mlups = r->cy_per_cl > 0 ? m->clock_hz / (r->cy_per_cl / ipcl) / 1e6 : 0;
	printf("  bound by %s: %.2f GFLOP/s, %.2f cy/CL, %.1f MLUP/s (* = the bottleneck)\n",
	       r->bottleneck < 0 ? "the core" : r->level[r->bottleneck].name, r->perf_flops_s / 1e9, r->cy_per_cl, mlups);
}

static void print_kernel(const struct model_opts *o, const struct kernel *k, const struct machine *m, const struct model_eval *e)
{
	printf("kernel: %s", o->kernel);
	for (int i = 0; i < o->ndefs; i++)
		printf("  -D %s %lld", o->defs[i].name, (long long)o->defs[i].v);
	printf("\nmachine: %s (%s, %.2f GHz)  cache predictor: %s  cores: %d\n", o->machine, m->model_name, m->clock_hz / 1e9,
	       o->req.predictor == MODEL_PRED_LC ? "LC" : "SIM", o->req.cores);
	printf("\n----- accesses (per iteration of '%s') -----\n", k->nloops ? k->loop[k->nloops - 1].var : "-");
	struct table *t = table_new(4, "array", "bytes", "access", "element index");
	int reads = 0, writes = 0;
	double rb = 0, wb = 0;
	for (int i = 0; i < k->naccesses; i++) {
		const struct kaccess *x = &k->acc[i];
		char s[256];
		kernel_access_format(k, i, s, sizeof(s));
		char *br = strchr(s, '[');
		table_cell(t, "%s", k->array[x->array].name);
		table_cell(t, "%d", k->array[x->array].elsize);
		table_cell(t, "%s", x->write ? "write" : "read");
		table_cell(t, "%s", br ? br : s);
		if (x->write) {
			writes++;
			wb += k->array[x->array].elsize;
		} else {
			reads++;
			rb += k->array[x->array].elsize;
		}
	}
	table_print(t, stdout, "  ");
	table_free(t);
	printf("  flops per iteration: %d (%d add, %d sub, %d mul, %d div)\n", kernel_flops(k), k->flops_add, k->flops_sub,
	       k->flops_mul, k->flops_div);
	printf("  bytes per iteration: %.0f B (%d reads, %.0f B; %d writes, %.0f B)\n", rb + wb, reads, rb, writes, wb);
	char tot[32];
	fmt_bytes((double)e->b.total_bytes, tot, sizeof(tot));
	printf("  iterations: %lld; arrays: %s\n", (long long)e->b.iterations, tot);
}

static void print_incore(const struct incore_result *ic)
{
	printf("\n----- in-core (llvm-mca) -----\n");
	printf("compiler: %s %s\nllvm-mca -mcpu=%s; loop %s: %d instructions, %.2f kernel iterations per pass "
	       "(%.0f B stored, %.0f B loaded per pass)\n",
	       ic->cfg.compiler, ic->cfg.flags, ic->mca.mcpu, ic->loop.label, ic->loop.ninstr, ic->unroll, ic->loop.store_bytes,
	       ic->loop.load_bytes);
	const struct incore_mca *m = &ic->mca;
	if (!m->mcpu_exact)
		printf("llvm-mca model: %s\n", m->mcpu_reason);
	/* the port-pressure table: ports used at all, cycles per pass */
	int used[INCORE_MAX_PORTS], nu = 0;
	for (int p = 0; p < m->nports; p++)
		if (m->pressure[p] > 0.005)
			used[nu++] = p;
	printf("port pressure in cycles per pass (OL = overlapping, nOL = non-overlapping ports):\n");
	int w = 6;
	for (int i = 0; i < nu; i++)
		if ((int)strlen(m->port[used[i]]) > w)
			w = (int)strlen(m->port[used[i]]);
	printf("  %-*s", 44, "instruction");
	for (int i = 0; i < nu; i++)
		printf(" %*s", w, m->port[used[i]]);
	printf("\n");
	for (int x = 0; x < m->ninstr; x++) {
		printf("  %-44.44s", m->instr[x]);
		for (int i = 0; i < nu; i++) {
			double v = m->by_instr[x * m->nports + used[i]];
			if (v > 0.005)
				printf(" %*.2f", w, v);
			else
				printf(" %*s", w, "-");
		}
		printf("\n");
	}
	printf("  %-44s", "total per pass");
	for (int i = 0; i < nu; i++)
		printf(" %*.2f", w, m->pressure[used[i]]);
	printf("\n  %-44s", "kind");
	for (int i = 0; i < nu; i++)
		printf(" %*s", w, m->is_nol[used[i]] ? "nOL" : m->is_ol[used[i]] ? "OL" : "-");
	printf("\n");
	char nol[256] = "";
	size_t k = 0;
	for (int p = 0; p < m->nports && k < sizeof(nol); p++)
		if (m->is_nol[p])
			k += (size_t)snprintf(nol + k, sizeof(nol) - k, "%s%s", k ? ", " : "", m->port[p]);
	printf("non-overlapping ports: %s (%s)\n", nol[0] ? nol : "none",
	       m->nol_from_file ? "from the machine file" : "llvm-mca's load ports for this -mcpu: the machine file names none");
	printf("llvm-mca: %.2f cycles per pass (block reciprocal throughput %.2f)\n", m->cycles_per_pass, m->block_rthroughput);
	printf("per cache line of work (%.0f iterations = %.2f passes): T_OL = %.2f cy, T_nOL = %.2f cy%s\n",
	       ic->iterations_per_cl, ic->iterations_per_cl / ic->unroll, ic->t_ol, ic->t_nol,
	       ic->latency_bound ? " (T_OL raised from the port pressure's to llvm-mca's cycles, 1.5x more: a dependency chain bounds the loop)" : "");
	if (ic->latency_bound)
		printf("recurrence per pass: %.2f cy with llvm-mca's latencies, %.2f cy with the ones probe instr measured "
		       "(%d instructions of the loop%s)\n",
		       ic->chain.mca_cy_per_pass, ic->chain.probed_cy_per_pass, ic->chain.nprobed,
		       ic->latency_probed ? "; T_OL scaled by their ratio" : "; the machine file has none of them");
}

static void print_ecm_full(const struct model_opts *o, const struct machine *m, const struct model_eval *e)
{
	struct ecm_full f;
	model_eval_ecm(e, &f);
	printf("\n----- ECM -----\n");
	if (!f.ok) {
		printf("not available: %s\n", e->ic ? e->ecm_error : "no in-core analysis");
		return;
	}
	printf("{ %.2f || %.2f", f.t_ol, f.t_nol);
	for (int i = 0; i < f.n; i++)
		printf(" | %.2f", f.t[i]);
	printf(" } cy/CL  (T_OL || T_nOL");
	for (int i = 0; i < f.n; i++)
		printf(" | %s", f.name[i]);
	printf(")\n{ ");
	for (int i = 0; i <= f.n; i++)
		printf("%s%.2f", i ? " \\ " : "", f.cum[i]);
	printf(" } cy/CL  (data in L1");
	for (int i = 0; i < f.n; i++)
		printf(" \\ %s", e->ecm.t[i].name);
	printf(")\n");
	double ipcl = e->tr.iterations_per_cl;
	print_rates(o, m);
	printf("prediction for these sizes: %.2f cy/CL = %.1f MLUP/s at %.2f GHz (core cycles at the machine file's clock)\n",
	       f.prediction, m->clock_hz / (f.prediction / ipcl) / 1e6, m->clock_hz / 1e9);
	if (f.n_s > 0) {
		long maxc = ecm_domain_cores(m);
		printf("saturation: n_S = ceil(T_ECM / %s%s) = ceil(%.2f / %.2f) = %d cores\n", f.name[f.n - 1],
		       o->req.fit ? " at the saturated bandwidth" : "", f.prediction, f.t_mem, f.n_s);
		printf("scaling (one memory domain, %ld cores): cores: MLUP/s\n ", maxc);
		for (long c = 1; c <= maxc && c <= 64; c++) {
			double cy = ecm_full_cy_at(&f, c);
			printf(" %ld: %.0f", c, m->clock_hz / (cy / ipcl) / 1e6);
		}
		printf("\n");
	}
}

static void print_roofline_asm(const struct kernel *k, const struct machine *m, const struct model_eval *e)
{
	printf("\n----- RooflineASM -----\n");
	if (!e->ic || !e->have_rl) {
		printf("not available: %s\n", e->ic ? e->rl_error : "no in-core analysis");
		return;
	}
	int b;
	double cy = model_eval_roofline_asm(e, &b);
	double ipcl = e->tr.iterations_per_cl;
	printf("core ceiling (llvm-mca): %.2f cy/CL; data ceilings:", fmax(e->ic->t_ol, e->ic->t_nol));
	for (int i = 0; i < e->rl.n; i++)
		printf(" %s %.2f", e->rl.level[i].name, e->rl.level[i].cy_per_cl);
	printf(" cy/CL\nbound by %s: %.2f cy/CL, %.2f GFLOP/s, %.1f MLUP/s\n", b < 0 ? "the core" : e->rl.level[b].name, cy,
	       kernel_flops(k) * ipcl / cy * m->clock_hz / 1e9, m->clock_hz / (cy / ipcl) / 1e6);
}

static void print_bench(const struct kernel *k, const struct model_eval *e)
{
	printf("\n----- Benchmark -----\n");
	if (!e->have_bench) {
		printf("not available: %s\n", e->bench_error);
		return;
	}
	double cy = model_eval_bench_cy_per_cl(e), spc = e->bench.seconds_per_call;
	if (e->cnt.available)
		printf("measured: %.2f cy/CL (core cycles from the %s counter; %.2f from time at the measured %.3f GHz), "
		       "%.1f MLUP/s, %.2f GFLOP/s\n",
		       cy, e->cnt.name[0], model_eval_bench_time_cy_per_cl(e), e->bench_ghz, (double)e->b.iterations / spc / 1e6,
		       (double)kernel_flops(k) * (double)e->b.iterations / spc / 1e9);
	else
		printf("measured: %.2f cy/CL (core cycles of the measured clock, %.3f GHz), %.1f MLUP/s, %.2f GFLOP/s\n", cy,
		       e->bench_ghz, (double)e->b.iterations / spc / 1e6,
		       (double)kernel_flops(k) * (double)e->b.iterations / spc / 1e9);
	printf("(%ld calls per repetition, fastest of %d, %.3f us per call)\n", e->bench.calls, e->bench.reps, spc * 1e6);
	if (e->cnt.available) {
		double cls = (double)e->b.iterations / e->tr.iterations_per_cl;
		printf("counters per CL (repetition with the fewest cycles):");
		for (int i = 0; i < e->cnt.n; i++)
			printf("%s %s %.2f", i ? "," : "", e->cnt.name[i], e->cnt.per_call[i] / cls);
		printf("\n");
	} else {
		printf("hardware counters: %s\n", e->cnt.reason);
	}
	struct ecm_full f;
	model_eval_ecm(e, &f);
	struct table *t = table_new(3, "model", "predicted cy/CL", "error");
	if (f.ok) {
		table_cell(t, "ECM");
		table_cell(t, "%.2f", f.prediction);
		table_cell(t, "%+.1f %%", 100 * (f.prediction - cy) / cy);
	}
	if (e->have_rl) {
		table_cell(t, "Roofline (flops)");
		table_cell(t, "%.2f", e->rl.cy_per_cl);
		table_cell(t, "%+.1f %%", 100 * (e->rl.cy_per_cl - cy) / cy);
	}
	if (e->ic && e->have_rl) {
		int b;
		double r = model_eval_roofline_asm(e, &b);
		table_cell(t, "RooflineASM");
		table_cell(t, "%.2f", r);
		table_cell(t, "%+.1f %%", 100 * (r - cy) / cy);
	}
	table_print(t, stdout, "  ");
	table_free(t);
}

static void print_blocking(const struct kernel *k, const struct model_eval *e, const struct model_blocking *blk)
{
	printf("\n----- Blocking -----\n");
	if (!blk->ok) {
		printf("not available: %s\n", blk->error);
		return;
	}
	int any = 0;
	for (int i = 0; i < blk->n; i++) {
		const struct model_block *B = &blk->level[i];
		if (!B->found) {
			printf("%s: the best condition holds already, or none gets better by making one constant smaller\n", B->level);
			continue;
		}
		const struct lc_condition *now = &e->lc->cond[B->cond_now], *bl = &e->lc->cond[B->cond_blocked];
		char ct[300];
		model_cond_text(k, e->lc, B->cond_blocked, ct, sizeof(ct));
		printf("%s: now %d misses/%d hits per iteration; with %s <= %lld (block the loop%s %s) the condition %s holds:"
		       " %d misses/%d hits\n",
		       B->level, now->misses, now->hits, k->sym[B->sym], (long long)B->block_at_most, strchr(B->loops, ',') ? "s" : "",
		       B->loops[0] ? B->loops : "-", ct, bl->misses, bl->hits);
		if (B->cy_now > 0 && B->cy_blocked > 0)
			printf("  predicted %s: %.2f -> %.2f cy/CL (%.2fx; the kernel evaluated with %s = %lld, block edges left out)\n",
			       blk->model, B->cy_now, B->cy_blocked, B->cy_now / B->cy_blocked, k->sym[B->sym], (long long)B->block_at_most);
		any = 1;
	}
	if (!any)
		printf("no blocking helps at these sizes\n");
}

void model_print_size(const struct model_opts *o, const struct kernel *k, const struct machine *m,
		      const struct model_run *run, const struct model_blocking *blk)
{
	const struct model_eval *e = &run->rows[0];
	print_kernel(o, k, m, e);
	if (o->shown & MODEL_LC)
		print_lc(o, k, m, e);
	print_traffic(o, e);
	if (o->shown & MODEL_ECMDATA)
		print_ecm(o, m, e);
	if (o->shown & MODEL_ROOFLINE)
		print_roofline(k, m, e);
	if (o->req.models & MODEL_INCORE) {
		if (run->have_ic)
			print_incore(&run->ic);
		else
			printf("\n----- in-core (llvm-mca) -----\nnot available: %s\n(the data-side models above do not need it)\n",
			       run->ic_error);
	}
	if (o->req.models & MODEL_ECM)
		print_ecm_full(o, m, e);
	if (o->shown & MODEL_ROOFASM)
		print_roofline_asm(k, m, e);
	if (o->shown & MODEL_BENCH)
		print_bench(k, e);
	if (blk)
		print_blocking(k, e, blk);
}
