/* archscope tune gemm: the paper's blocking optimisation solved from the machine file's registers,
 * L1 and line size (or from quick probes of this run without one), the register-blocked kernel
 * generated and compiled, and timed against OpenBLAS dgemm, interleaved; its renderer and plot. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd-tune.h"
#include "common/interrupt.h"
#include "common/spawn.h"
#include "machine/file.h"
#include "machine/mtree.h"
#include "machine/probes.h"
#include "machine/result-tune.h"
#include "probe/caches.h"
#include "probe/env.h"
#include "probe/registers.h"
#include "report/emit.h"
#include "report/plot.h"
#include "tune/block.h"
#include "tune/gemm.h"
#include "tune/gen.h"
#include "tune/input.h"
#include "tune/isa.h"

#define TG_KEY_(id) SCHEMA_KEY(tune_gemm_result, (id))

struct gemm_result {
	const struct cli_tune_opts *o;
	const struct tune_isa_info *isa;
	struct tune_machine tm;
	const char *reg_path;
	char probed_from[96];    /* without -m: what the quick probes found the inputs with */
	int line_probed;         /* the line size comes from this run's line probe */
	int line_witnesses;      /* its prefetcher-proof witnesses (probe/line.h): 2, 1, 0 */
	char line_note[400];     /* why fewer than two */
	struct tune_blocking b;
	struct tune_kernel k;
	int have_openblas;
	struct tune_openblas blas;
	char openblas_error[512];
	struct tune_gemm_opts go;
	struct tune_gemm_run run;
	int cpu;
	int wrong;               /* the kernel's result was wrong */
	char wrong_msg[512];
};

/* {"m", "n", "k"} in JSON (the keys k[0], of the object, and k[1..3], of its m, n and k, from the
 * description), "m x n x k" on one line for people. */
static void block_render(struct emit *e, const int k[4], const char *label, const struct tune_block *b)
{
	emit_object_begin(e, TG_KEY_(k[0]), NULL);
	emit_int(e, TG_KEY_(k[1]), NULL, b->m, NULL);
	emit_int(e, TG_KEY_(k[2]), NULL, b->n, NULL);
	emit_int(e, TG_KEY_(k[3]), NULL, b->k, NULL);
	emit_object_end(e);
	emit_text(e, label, "%d x %d x %d", b->m, b->n, b->k);
}

static void gemm_render(struct emit *e, const struct gemm_result *r)
{
	const struct tune_blocking *b = &r->b;
	emit_string(e, TG_KEY(KERNEL), "kernel", "gemm: C -= A*B, n x n doubles, column-major");
	emit_object_begin(e, TG_KEY(INPUTS), "inputs");
	emit_int(e, TG_KEY(IN_REGISTERS), "registers", r->tm.registers, "vectors");
	emit_string(e, TG_KEY(IN_REGISTERS_FROM), "from", r->reg_path);
	emit_size(e, TG_KEY(IN_L1), "L1", (long long)r->tm.l1_bytes);
	emit_int(e, TG_KEY(IN_LINE), "line", (long long)r->tm.line_bytes, "B");
	if (r->line_probed) {
		emit_int(e, TG_KEY(IN_LINE_WITNESSES), NULL, r->line_witnesses, NULL);
		if (r->line_witnesses < 2)
			emit_string(e, TG_KEY(IN_LINE_NOTE), "line note", r->line_note);
		else
			emit_annotate(e, " (two witnesses agree)");
	}
	emit_string(e, TG_KEY(IN_ISA), "ISA", r->isa->name);
	emit_int(e, TG_KEY(IN_VECTOR), "vector", r->isa->vector_doubles, "doubles");
	emit_object_end(e);
	cli_tune_reasoning_render(e, TG_KEY(REASONING), b->reasoning, b->nreasoning);
	block_render(e, (const int[4]){ TG_REG_SOLVED, TG_REG_SOLVED_M, TG_REG_SOLVED_N, TG_REG_SOLVED_K }, "register block solved (m in vectors)", &b->reg_solved);
	block_render(e, (const int[4]){ TG_REG, TG_REG_M, TG_REG_N, TG_REG_K }, "register block (elements)", &b->reg);
	emit_int(e, TG_KEY(REG_M_VECTORS), NULL, b->reg_m_vectors, NULL);
	emit_int(e, TG_KEY(REGISTERS_USED), NULL, b->reg_registers_used, NULL);
	block_render(e, (const int[4]){ TG_L1_SOLVED, TG_L1_SOLVED_M, TG_L1_SOLVED_N, TG_L1_SOLVED_K }, "L1 block solved", &b->l1_solved);
	emit_int(e, TG_KEY(L1_LINE_LIMIT), NULL, b->l1_line_limit, NULL);
	block_render(e, (const int[4]){ TG_L1, TG_L1_M, TG_L1_N, TG_L1_K }, "L1 block", &b->l1);
	emit_int(e, TG_KEY(PREDICTED), "predicted best n", b->predicted_best_n, NULL);
	emit_object_begin(e, TG_KEY(GENERATED), "generated kernel");
	emit_string(e, TG_KEY(GEN_COMPILER), "compiler", r->k.compiler);
	emit_string(e, TG_KEY(GEN_FLAGS), "flags", r->k.flags);
	emit_number(e, TG_KEY(GEN_COMPILE), "compile time", r->k.compile_s, "s", "%.2f");
	emit_object_end(e);
	if (r->have_openblas)
		emit_string(e, TG_KEY(OPENBLAS), "OpenBLAS", r->blas.config[0] ? r->blas.config : r->blas.lib);
	else
		emit_null(e, TG_KEY(OPENBLAS), "OpenBLAS", r->openblas_error);
	emit_int(e, TG_KEY(CPU), "cpu", r->cpu, NULL);
	emit_int(e, TG_KEY(REPS), "repetitions", r->run.reps_done, NULL);
	emit_number(e, TG_KEY(MIN_TIME), NULL, r->go.min_time_s, "s", NULL);
	emit_int(e, TG_KEY(SEED), NULL, (long long)r->go.seed, NULL);
	emit_table_begin(e, TG_KEY(SIZES), "GFLOP/s, median of the repetitions (min), interleaved");
	for (int i = 0; i < r->run.n; i++) {
		const struct tune_gemm_point *p = &r->run.p[i];
		emit_row_begin(e);
		emit_int(e, TG_KEY(SIZE_N), "n", p->n, NULL);
		emit_number(e, TG_KEY(SIZE_TUNED), "tuned", p->tuned.median, "GFLOP/s", "%.2f");
		emit_number(e, TG_KEY(SIZE_TUNED_MIN), "tuned min", p->tuned.min, "GFLOP/s", "%.2f");
		emit_number(e, TG_KEY(SIZE_BLAS), "OpenBLAS", p->openblas.median, "GFLOP/s", "%.2f");
		emit_number(e, TG_KEY(SIZE_BLAS_MIN), "OpenBLAS min", p->openblas.min, "GFLOP/s", "%.2f");
		emit_number(e, TG_KEY(SIZE_RATIO), "tuned/OpenBLAS", p->tuned.median / p->openblas.median, NULL, "%.2f");
		emit_text(e, "model", "%s", p->n == r->b.predicted_best_n ? "predicted best" : "");
		emit_int(e, TG_KEY(SIZE_CALLS), NULL, p->calls, NULL);
		emit_int(e, TG_KEY(SIZE_DISTURBED), NULL, p->disturbed, NULL);
		emit_number(e, TG_KEY(SIZE_ERR_TUNED), NULL, p->err_tuned, NULL, "%.3g");
		emit_number(e, TG_KEY(SIZE_ERR_BLAS), NULL, p->err_openblas, NULL, "%.3g");
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_object_begin(e, TG_KEY(CHECK), "check of the prediction");
	emit_int(e, TG_KEY(CHECK_PREDICTED), "predicted best n", r->b.predicted_best_n, NULL);
	emit_int(e, TG_KEY(CHECK_PEAK), "tuned kernel peaks at n", r->run.peak_n, NULL);
	emit_int(e, TG_KEY(CHECK_PEAK_BEST), "by the best repetition", r->run.peak_n_best, NULL);
	emit_int(e, TG_KEY(CHECK_STEP), "step", r->run.step, NULL);
	emit_bool(e, TG_KEY(CHECK_NEAR), "peak within one step", r->run.peak_near_prediction);
	emit_int(e, TG_KEY(CHECK_RATIO_N), "ratio at n", r->run.ratio_n, NULL);
	emit_number(e, TG_KEY(CHECK_RATIO), "tuned/OpenBLAS there", r->run.ratio_at_predicted, NULL, "%.2f");
	emit_bool(e, TG_KEY(CHECK_RATIO_1), "at least 1.0", r->run.ratio_at_predicted >= 1.0);
	emit_object_end(e);
	cli_conditions_render(e, TG_KEY(CONDITIONS), TG_KEY(NOISY), &r->run.cond);
	emit_int(e, TG_KEY(REDONE), "repetitions measured again", r->run.redone, NULL);
	emit_annotate(e, " (other processes disturbed them)");
	if (r->run.cond.noisy)
		emit_text(e, "noisy", "%s: the peak and the ratios may be off (answers flagged)", r->run.cond.why);
	if (r->wrong)
		emit_string(e, TG_KEY(ERROR), "error", r->wrong_msg);
	if (*r->o->stop)
		emit_bool(e, TG_KEY(INCOMPLETE), "incomplete", 1);
}

/* --plot DIR: GFLOP/s of both against n, the predicted size marked. */
static void gemm_plot(const struct gemm_result *r, const char *dir)
{
	char path[4096], *body = NULL;
	struct as_error err = { 0 };
	if (r->run.n < 1) {
		warning("no picture in %s: no matrix size was timed", dir);
		return;
	}
	snprintf(path, sizeof(path), "%s/tune-gemm.dat", dir);
	struct atomic_file af;
	FILE *dat = plot_data_open(path, &af);
	for (int i = 0; dat && i < r->run.n; i++)
		fprintf(dat, "%ld %.6g %.6g %.6g %.6g\n", r->run.p[i].n, r->run.p[i].tuned.median, r->run.p[i].tuned.min,
			r->run.p[i].openblas.median, r->run.p[i].openblas.min);
	if (!dat || plot_data_close(&af) != 0) {
		warning("cannot write '%s': %s: no picture", path, strerror(errno));
		return;
	}
	if (asprintf(&body,
		     "set title 'archscope tune gemm (%s, register block %dx%d): C -= A*B, one thread'\n"
		     "set xlabel 'matrix size n'\nset ylabel 'GFLOP/s'\nset grid\nset key bottom right\n"
		     "set arrow from %ld, graph 0 to %ld, graph 1 nohead dashtype 2\n"
		     "set label 'predicted best n = %ld' at %ld, graph 0.95 left offset 1,0\n"
		     "plot 'tune-gemm.dat' using 1:2 with linespoints title 'tuned (median)', "
		     "'' using 1:3 with lines dashtype 3 title 'tuned (min)', "
		     "'' using 1:4 with linespoints title 'OpenBLAS dgemm (median)', "
		     "'' using 1:5 with lines dashtype 3 title 'OpenBLAS (min)'",
		     r->isa->name, r->b.reg.m, r->b.reg.n, r->b.predicted_best_n, r->b.predicted_best_n,
		     r->b.predicted_best_n, r->b.predicted_best_n) < 0)
		return;
	int pr = plot_render(dir, "tune-gemm", body, &err);
	cli_plot_done(pr, dir, "tune-gemm", &err);
	free(body);
}

static void gemm_progress(void *ctx, const char *what, int done, int total)
{
	(void)ctx;
	progress("tune gemm: %s %d/%d", what, done + 1, total);
}

/* The compiler: --compiler, else the machine file's first installed, else cc. */
static const char *pick_compiler(const struct cli_tune_opts *o, const struct machine *m)
{
	if (o->compiler)
		return o->compiler;
	for (int i = 0; i < m->ncompiler; i++)
		if (spawn_have(m->compiler[i].name))
			return m->compiler[i].name;
	return "cc";
}

/* Without a machine file: the registers and the caches probed now (quick runs, as `probe
 * registers caches --quick`) in env, the probe environment `probe` builds (probe/env.h), pinned to
 * its CPU. 0, or -1 after error(). */
static int gemm_probe_inputs(struct gemm_result *r, enum tune_isa isa, struct probe_env *envp)
{
	struct probe_env env = *envp;
	struct as_error err = { 0 };
	r->tm.vector_doubles = r->isa->vector_doubles;
	r->tm.registers = r->o->registers;
	if (r->tm.registers <= 0) {
		progress("tune gemm: probing the registers (quick) ...");
		struct probe_registers_result regs;
		struct machine_probes *rec = probe_scratch_new();
		if (!rec)
			return error("out of memory");
		int rc = probe_registers_find(&env, NULL, &regs, rec, &err);
		progress_done();
		/* the FP registers of the ISA's build: narrow where it has no wide registers, the wide
		 * build's where the narrow one has no answer */
		double wide = rec->registers_fp.value, narrow = rec->registers_narrow_fp.value;
		if (rc == 0)
			r->tm.registers = !tune_isa_get(isa)->wide_registers && narrow >= 1 ? (int)lround(narrow)
					  : wide >= 1 ? (int)lround(wide) : r->tm.registers;
		probe_registers_result_release(&regs);
		probe_scratch_free(rec);
		if (rc != 0)
			return error_err(&err);
		if (r->tm.registers <= 0)
			return error("the register probe found no FP register count: give --registers N");
	}
	progress("tune gemm: probing the caches (quick) ...");
	struct machine_probes *c = probe_scratch_new();
	int rc = c ? probe_caches_find(&env, NULL, &(struct probe_caches_params){ HUGE_NEVER, (size_t)256 << 20 }, c, &err)
		   : as_error_set(&err, -ENOMEM, "tune gemm: out of memory");
	progress_done();
	if (rc == 0 && c->ncaches > 0) {
		r->tm.l1_bytes = c->cache[0].size.value;
		/* the line probe's answer (probe_line_need), not the chase's slot spacing */
		r->tm.line_bytes = env.line_bytes > 0 && isfinite(env.line_bytes) ? env.line_bytes : c->caches_ev.line_bytes;
		r->line_probed = 1;
		r->line_witnesses = env.line_witnesses;
		snprintf(r->line_note, sizeof(r->line_note), "%s", env.line_note);
	}
	probe_scratch_free(c);
	if (rc != 0)
		return error_err(&err);
	if (!(r->tm.l1_bytes > 0))
		return error("the cache probe found no L1: give a machine file (-m FILE)");
	snprintf(r->probed_from, sizeof(r->probed_from), "%s (quick probes of this run)",
		 r->o->registers > 0 ? "--registers" : "probe registers");
	r->reg_path = r->probed_from;
	return 0;
}

/* The ISA of the kernel: --isa, else the widest this CPU runs. 0, or an exit code after error(). */
static int gemm_isa(const struct cli_tune_opts *o, enum tune_isa *isa)
{
	struct as_error err = { 0 };
	if (!o->isa) {
		if (tune_isa_widest(isa, &err) != 0)
			return error_err(&err), EXIT_FAIL;
		return 0;
	}
	int i = tune_isa_find(o->isa);
	if (i < 0)
		return error_usage("tune", "unknown ISA '%s' (sse2, avx2 or avx512)", o->isa), EXIT_USAGE;
	*isa = (enum tune_isa)i;
	if (!tune_isa_present(*isa))
		return error("this CPU cannot run %s code (needs %s): give a narrower --isa", tune_isa_get(*isa)->name,
			     tune_isa_get(*isa)->cpu_flags), EXIT_FAIL;
	return 0;
}

/* The machine the blocking is planned for: --machine FILE (read into m and mt), else probed here in
 * env (the probe environment before the pinning: the line's coherence witness needs the allowed
 * CPUs); then the CPU pinned and the blocking planned. 0, or an exit code after error(). */
static int gemm_plan(const struct cli_tune_opts *o, struct gemm_result *r, enum tune_isa isa, struct machine *m,
		     struct mtree *mt, struct probe_env *env)
{
	struct as_error err = { 0 };
	if (o->machine) {
		if (cli_machine_open(o->machine, mt) != 0)
			return EXIT_USAGE;
		machine_read(mt, m);
		if (tune_input_read(mt, m, o->machine, isa, o->registers, &r->tm, &r->reg_path, &err) != 0)
			return error_err(&err), EXIT_USAGE;
	}
	char topo_note[600];
	int rc;
	if (!o->machine && (rc = probe_env_init(env, o->cpu, 1, o->seed, o->stop, topo_note, sizeof(topo_note), &err)) != 0) {
		if (rc == -EINVAL)
			return error_usage("tune", "--cpu: %s", err.msg), EXIT_USAGE;
		return error_err(&err), EXIT_FAIL;
	}
	if (cli_tune_pin(o->cpu, &r->cpu) != 0 || (!o->machine && gemm_probe_inputs(r, isa, env) != 0))
		return EXIT_FAIL;
	if (r->line_probed && r->line_witnesses < 2)
		note("tune gemm: the line size %.0f B: %s", r->tm.line_bytes, r->line_note);
	if (tune_blocking_plan(&r->tm, &r->b, &err) != 0)
		return error_err(&err), o->machine ? EXIT_USAGE : EXIT_FAIL;
	return 0;
}

/* The generated kernel, compiled, and OpenBLAS beside it where it loads. 0, or -1 after error(). */
static int gemm_build(const struct cli_tune_opts *o, struct gemm_result *r, enum tune_isa isa, const struct machine *m)
{
	struct as_error err = { 0 };
	progress("tune gemm: compiling the %s kernel ...", r->isa->name);
	int kb = tune_kernel_build(&r->k, pick_compiler(o, m), isa, r->b.reg_m_vectors, r->b.reg.n, &err);
	interrupt_cleanup_dir(r->k.dir[0] ? r->k.dir : NULL); /* a second signal removes it too */
	if (kb != 0) {
		progress_done();
		return error_err(&err);
	}
	r->have_openblas = tune_openblas_open(&r->blas, &err) == 0;
	if (!r->have_openblas) {
		as_error_copy(r->openblas_error, sizeof(r->openblas_error), err.msg);
		note("%s: timing the tuned kernel alone", err.msg);
	}
	return 0;
}

/* Times the kernel (and OpenBLAS) over the matrix sizes: 8 (the smallest size the paper's range
 * starts at), then the multiples of the step. 0, or nonzero after a wrong answer (r->wrong). */
static int gemm_measure(const struct cli_tune_opts *o, struct gemm_result *r)
{
	struct as_error err = { 0 };
	struct tune_gemm_opts *go = &r->go;
	long step = o->step > 0 ? o->step : (o->quick ? 16 : 8);
	long hi = o->max_size > 0 ? o->max_size : (o->quick ? 96 : 512);
	if (step > 8)
		go->sizes[go->nsizes++] = 8;
	go->nsizes += tune_sizes_fill(go->sizes + go->nsizes, step, hi, step);
	go->reps = o->reps > 0 ? o->reps : (o->quick ? 3 : 11);
	go->min_time_s = o->quick ? 0.0005 : 0.005;
	go->predicted_n = r->b.predicted_best_n;
	go->seed = o->seed;
	go->progress = gemm_progress;
	go->stop = o->stop;
	int sr = tune_gemm_sweep(go, r->k.gemm, r->have_openblas ? &r->blas : NULL, &r->run, &err);
	progress_done();
	if (sr != 0) {
		r->wrong = 1;
		as_error_copy(r->wrong_msg, sizeof(r->wrong_msg), err.msg);
		error_err(&err);
	}
	return sr;
}

/* Renders the result (and --plot's picture) and gives the exit code: 130 after Ctrl-C, 1 after a
 * wrong answer (sr). */
static int gemm_end(const struct cli_tune_opts *o, const struct gemm_result *r, int sr)
{
	struct emit *e = emit_new(o->json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (!e)
		return error("out of memory"), EXIT_FAIL;
	gemm_render(e, r);
	int rc = cli_emit_end(e, "tune");
	if (o->plot_dir)
		gemm_plot(r, o->plot_dir);
	if (*o->stop)
		note("interrupted: %d of %d matrix sizes timed: printed what was measured (marked incomplete)", r->run.n,
		     r->go.nsizes);
	if (rc == EXIT_OK && (sr != 0 || *o->stop))
		rc = *o->stop ? INTERRUPT_EXIT : EXIT_FAIL;
	return rc;
}

int cli_tune_gemm(const struct cli_tune_opts *o)
{
	struct gemm_result *r = calloc(1, sizeof(*r));
	struct machine *m = calloc(1, sizeof(*m));
	struct mtree mt = { 0 };
	struct probe_env env = { 0 };
	enum tune_isa isa;
	int rc = EXIT_FAIL;
	if (!r || !m) {
		error("out of memory");
		goto out;
	}
	r->o = o;
	if ((rc = gemm_isa(o, &isa)) != 0)
		goto out;
	r->isa = tune_isa_get(isa);
	if ((rc = gemm_plan(o, r, isa, m, &mt, &env)) != 0)
		goto out;
	if (gemm_build(o, r, isa, m) != 0) {
		rc = EXIT_FAIL;
		goto out;
	}
	rc = gemm_end(o, r, gemm_measure(o, r));
out:
	if (*o->stop && rc != INTERRUPT_EXIT && rc != EXIT_USAGE)
		rc = INTERRUPT_EXIT; /* stopped in the set-up (a probe, the compile): nothing measured */
	if (r) {
		interrupt_cleanup_dir(NULL);
		tune_kernel_release(&r->k);
		if (r->have_openblas)
			tune_openblas_close(&r->blas);
	}
	if (mt.root)
		mtree_free(&mt);
	probe_env_release(&env);
	free(r);
	free(m);
	return rc;
}
