/* archscope probe -o FILE.yaml: fills the machine file writer's struct machine_probed with this
 * run's typed answers (ctx->rec; for --from-raw, read from the saved probe-results.json) and the
 * streaming benchmarks per level and core count run here (or saved in benchmarks.json), hands it
 * to machine/write.c and writes the file. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/clock.h"
#include "model/ecm.h"
#include "bench/file-kernels.h"
#include "bench/run.h"
#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "common/atomicfile.h"
#include "machine/file.h"
#include "machine/write.h"
#include "model/mcpu.h"
#include "machine/mtree.h"
#include "report/output.h"
#include "topo/cpuinfo.h"

/* --- the streaming benchmarks of a live run ----------------------------------------------- */

/* Progress, and a note for a failed run, which counts 0 GB/s; the sweep goes on. */
static int report(void *arg, const struct bench_sweep_point *pt, const struct as_error *err)
{
	(void)arg;
	if (err) {
		progress_done();
		note("probe -o: %s in %s on %d cores: %s", pt->k->name, pt->level_name, pt->threads, err->msg);
		return 0;
	}
	progress("probe -o: streaming benchmarks %d/%d: %s in %s on %d core%s", pt->done, pt->total, pt->k->name,
		 pt->level_name, pt->threads, pt->threads > 1 ? "s" : "");
	return 0;
}

/* The benchmarks' flags into p: the runs that stayed noisy (bench_run measured them again first),
 * and a one-core bandwidth above the level above it, measured once more before it is flagged. */
static void bench_flags(const struct bench_sweep *sw, const struct bench_sweep_result *res, struct machine_probed *p)
{
	const struct bench_levels *lv = sw->lv;
	for (int l = 0; l < lv->n; l++)
		for (int n = 1; n <= sw->max_threads; n++)
			for (int k = 0; k < sw->nkernels; k++) {
				const struct bench_result *r = bench_sweep_get(res, l, n, k);
				if (!r)
					continue;
				p->bench_runs++;
				if (r->cond.noisy && p->bench_noisy++ == 0)
					snprintf(p->bench_noisy_first, sizeof(p->bench_noisy_first), "%s in %s on %d core%s: %s",
						 sw->kernels[k]->name, lv->name[l], n, n == 1 ? "" : "s", r->cond.why);
			}
	for (int k = 0; k < sw->nkernels && !p->bench_implausible[0]; k++)
		for (int l = 1; l < lv->n && !p->bench_implausible[0]; l++) {
			const struct bench_result *in = bench_sweep_get(res, l - 1, 1, k), *out = bench_sweep_get(res, l, 1, k);
			if (!in || !out || !(out->gbs.max > BENCH_FILE_LEVEL_SLACK * in->gbs.max))
				continue;
			struct bench_opts o = sw->run; /* once more, the outer level */
			o.kernel = sw->kernels[k];
			o.size_bytes = bench_levels_size(lv, l, 1);
			o.cpus.n = 1;
			o.cpus.cpu[0] = sw->cpus->cpu[0];
			struct bench_result again;
			struct as_error err = { 0 };
			if (bench_run(&o, &again, &err) == 0 && !(again.gbs.max > BENCH_FILE_LEVEL_SLACK * in->gbs.max)) {
				if (l < p->nbench && p->bench[l].ncores > 0 && p->bench[l].cores[0] == 1)
					p->bench[l].bw[k][0] = again.gbs.max * 1e9;
				continue;
			}
			snprintf(p->bench_implausible, sizeof(p->bench_implausible),
				 "%s on 1 core: %.1f GB/s in %s above the %.1f GB/s of %s, the level above it", sw->kernels[k]->name,
				 out->gbs.max, lv->name[l], in->gbs.max, lv->name[l - 1]);
		}
}

/* The machine file's kernels (bench/file-kernels.h) per level and core count into p's
 * measurements. 0, or -1 after error(). */
static int run_sweep(const struct probe_env *env, const struct bench_levels *lv, struct machine_probed *p,
		     struct bench_sweep_result *res)
{
	const struct bench_kernel *ks[BFK_COUNT];
	for (int k = 0; k < BFK_COUNT; k++) {
		ks[k] = bench_kernel_best(bench_file_kernels[k].name);
		machine_bench_kernel_declare(&p->kernel[p->nkernels++], ks[k]->name, ks[k]->variant, ks[k]->reads, ks[k]->writes,
					     ks[k]->rws, ks[k]->flops);
	}
	struct bench_sweep sw;
	bench_file_sweep(&sw, lv, ks, &env->allowed, env->clock_ghz, isfinite(env->line_bytes) ? env->line_bytes : 0);
	sw.run.clock_now = clock_window_ghz;
	sw.stop = env->interrupted;
	sw.report = report;
	struct as_error err = { 0 };
	if (bench_sweep_run(&sw, res, &err) != 0)
		return error_err(&err);
	progress_done();
	for (int l = 0; l < lv->n && bench_sweep_entered(res, l, 1); l++) {
		struct machine_bench_level *B = &p->bench[p->nbench++];
		snprintf(B->level, sizeof(B->level), "%s", lv->name[l]);
		for (int n = 1; n <= sw.max_threads && bench_sweep_entered(res, l, n); n++) {
			int c = B->ncores++;
			size_t size = bench_levels_size(lv, l, n);
			B->cores[c] = n;
			B->total_bytes[c] = (double)size;
			B->size_per_core_bytes[c] = B->size_per_thread_bytes[c] = (double)size / n;
			for (int k = 0; k < BFK_COUNT; k++) {
				enum bench_sweep_state st = bench_sweep_state(res, l, n, k);
				const struct bench_result *r = bench_sweep_get(res, l, n, k);
				B->bw[k][c] = r ? r->gbs.max * 1e9 : st == BENCH_SWEEP_FAILED ? 0 : NAN;
			}
		}
	}
	bench_flags(&sw, res, p);
	return 0;
}

/* The benchmarks of the machine file, and the ECM rates from the one-core load and store runs
 * (as bench --ecm calibrates them). 0, or -1 after error(). */
static int run_benchmarks(const struct probe_env *env, const struct bench_levels *lv, struct machine_probed *p)
{
	struct bench_sweep_result res;
	if (run_sweep(env, lv, p, &res) != 0)
		return -1;
	struct bench_ecm_cycles cy;
	struct ecm_params e;
	bench_sweep_ecm_cycles(&res, BFK_LOAD, BFK_STORE, lv->n, &cy);
	if (env->line_bytes > 0 && ecm_params_from_loads(&e, env->line_bytes, cy.load_cy, cy.nlevels, cy.store_l1_cy, 1) >= 0) {
		p->has_ecm = 1;
		p->ecm.l1_load_bytes_per_cy = e.l1_load_bpc;
		p->ecm.l1_store_bytes_per_cy = e.l1_store_bpc;
		p->ecm.ntransfers = e.ntransfers;
		for (int b = 0; b < e.ntransfers; b++)
			p->ecm.cy_per_cl[b] = e.cy_per_cl[b];
	}
	bench_sweep_release(&res);
	return 0;
}

/* --- the machine file --------------------------------------------------------------------- */

/* The machine file of this run (or of the saved answers, --from-raw) as the writer's JSON
 * document; *bench_io as in cli_probe_machine_write (the benchmarks run here are stored into it for
 * saving). NULL after error(). */
static json_t *machine_build(struct cli_probe_ctx *ctx, json_t **bench_io, int from_raw)
{
	struct machine_probed *p = calloc(1, sizeof(*p));
	if (!p) {
		error("out of memory");
		return NULL;
	}
	p->probes = ctx->rec;
	snprintf(p->model_name, sizeof(p->model_name), "unknown");
	topo_cpuinfo("model name", p->model_name, sizeof(p->model_name));
	mcpu_native_name(p->incore_cpu, sizeof(p->incore_cpu));
	p->cpus = ctx->env.allowed.n;
	p->seed = ctx->env.seed;
	int rc = 0;
	double level_bytes[MACHINE_MAX_LEVELS];
	int nlevels = machine_probed_levels(ctx->rec, level_bytes, MACHINE_MAX_LEVELS - 1);
	if (*bench_io) { /* --from-raw: the benchmarks of the earlier run */
		struct as_error err = { 0 };
		if ((rc = machine_probed_bench_from_saved(*bench_io, "benchmarks.json", p, &err)) != 0)
			error_err(&err);
	} else if (!from_raw && nlevels > 0 && !*ctx->env.interrupted) { /* --from-raw measures nothing */
		struct bench_levels lv;
		bench_levels_from(level_bytes, nlevels, &lv);
		rc = run_benchmarks(&ctx->env, &lv, p);
		if (rc == 0 && !*ctx->env.interrupted)
			*bench_io = machine_probed_bench_json(p);
	}
	json_t *m = rc == 0 ? machine_probed_json(p) : NULL;
	free(p);
	if (rc == 0 && !m)
		error("out of memory");
	return m;
}

int cli_probe_machine_load(const char *dir, struct machine_probes *rec, json_t **bench)
{
	char path[4096];
	struct as_error err = { 0 };
	snprintf(path, sizeof(path), "%s/probe-results.json", dir);
	json_t *results = machine_saved_load(path, &err);
	*bench = NULL;
	if (!results) {
		error_usage("probe", "--from-raw: %s", err.msg);
		return -1;
	}
	int rc = machine_probes_from_json(results, rec, &err);
	json_decref(results);
	if (rc) {
		if (rc == -EINVAL)
			as_error_prefix(&err, "cannot read saved results '%s': ", path);
		return error_err(&err);
	}
	snprintf(path, sizeof(path), "%s/benchmarks.json", dir);
	if (access(path, F_OK) != 0 && errno == ENOENT) { /* a run without benchmarks (none measured) */
		note("--from-raw: no '%s': the file will have no benchmarks section", path);
		return 0;
	}
	*bench = machine_saved_load(path, &err);
	if (!*bench)
		return error_usage("probe", "--from-raw: %s", err.msg), -1;
	/* checked now, so that a bad file is named as the input it is, before anything is written */
	struct machine_probed *p = calloc(1, sizeof(*p));
	rc = p ? machine_probed_bench_from_saved(*bench, path, p, &err) : as_error_set(&err, -ENOMEM, "out of memory");
	free(p);
	if (rc) {
		json_decref(*bench);
		*bench = NULL;
		return error_usage("probe", "--from-raw: %s", err.msg), -1;
	}
	return 0;
}

/* Writes the machine file t to path: a complete file only if every check passes (a file
 * that 'model' would refuse is not written); an interrupted run's file, marked incomplete, to
 * path only if no file is there, else beside it as PATH.partial: an interrupted run never
 * replaces a file. 0, or -1 after error(). */
static int machine_file_save(struct cli_probe_ctx *ctx, const struct mtree *t, const char *path, int interrupted)
{
	struct as_error err = { 0 };
	char partial[4096 + 16];
	struct stat st;
	if (interrupted && lstat(path, &st) == 0) {
		snprintf(partial, sizeof(partial), "%s.partial", path);
		note("interrupted: %s is kept as it was; what was measured goes to %s", path, partial);
		path = partial;
	} else if (!interrupted) {
		char *report = NULL;
		int n = machine_check(t, path, &report);
		if (n != 0) {
			error_lines(report);
			free(report);
			return error("not writing '%s': the machine file built from these results has %d problem%s", path, n,
				     n == 1 ? "" : "s");
		}
	}
	int rc = mtree_write_file(t, path, ctx->force ? AF_FORCE : 0, &err) != 0 ? error_err(&err) : 0;
	if (rc == 0)
		note("wrote the machine file %s%s", path, interrupted ? " (incomplete: interrupted)" : "");
	return rc;
}

int cli_probe_machine_write(struct cli_probe_ctx *ctx, json_t *bench, int from_raw, const char *path)
{
	int had_bench = bench != NULL;
	json_t *m = machine_build(ctx, &bench, from_raw);
	if (!m) {
		json_decref(bench);
		return -1;
	}
	int interrupted = *ctx->env.interrupted; /* also during the benchmarks */
	if (interrupted)
		json_object_set_new(json_object_get(m, "archscope"), "incomplete", json_true());
	char raw[4096];
	struct as_error err = { 0 };
	if (ctx->raw_dir && !from_raw && !interrupted) { /* for a later --from-raw: the benchmarks run here */
		snprintf(raw, sizeof(raw), "%s/benchmarks.json", ctx->raw_dir);
		if (bench && !had_bench && output_write_file(raw, bench, &err) != 0)
			ctx->save_failed = error_err(&err);
	}
	json_decref(bench);
	struct mtree t = { .root = mnode_from_json(m) };
	json_decref(m);
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	if (asprintf(&t.header, "# machine file written by archscope %s 'probe -o' on %s%s\n# measured values; "
				"assumptions are listed under archscope.assumed\n",
		     ARCHSCOPE_VERSION, host, interrupted ? " (INCOMPLETE: interrupted)" : "") < 0)
		t.header = NULL;
	int rc = !t.root ? error("out of memory") : machine_file_save(ctx, &t, path, interrupted);
	mtree_free(&t);
	return rc;
}
