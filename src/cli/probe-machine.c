/* archscope probe -o FILE.yaml: fills the machine file writer's struct machine_probed from this
 * run's answers (struct probe_env; for --from-raw, from the saved probe-results.json) and from
 * streaming benchmarks per level and core count run here (or saved in benchmarks.json), hands it
 * to machine/write.c and writes the file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/ecm.h"
#include "bench/run.h"
#include "cli/bench.h"
#include "cli/cli.h"
#include "cli/probe.h"
#include "common/atomicfile.h"
#include "machine/file.h"
#include "machine/write.h"
#include "model/mcpu.h"
#include "report/mtree.h"
#include "report/output.h"
#include "topo/cpuinfo.h"

/* --- the streaming benchmarks of a live run ----------------------------------------------- */

static const char *const mk_kernels[] = { "copy", "daxpy", "load", "store", "stream", "triad", "update" };
#define NMK (sizeof(mk_kernels) / sizeof(mk_kernels[0]))
enum { MK_LOAD = 2, MK_STORE = 3 }; /* indexes in mk_kernels */

/* A kernel as Kerncraft declares it: read and write streams include the read+write ones, 8 bytes
 * each; likwid-bench's name (copy_avx512). */
static void kernel_decl(const struct bench_kernel *bk, struct machine_bench_kernel *K)
{
	int reads = bk->reads + bk->rws, writes = bk->writes + bk->rws;
	snprintf(K->name, sizeof(K->name), "%s", bk->name);
	snprintf(K->bench_name, sizeof(K->bench_name), "%s_%s", bk->name, bk->variant);
	K->flops_per_it = bk->flops;
	K->read_bytes = 8.0 * reads;
	K->read_streams = reads;
	K->rw_bytes = 8.0 * bk->rws;
	K->rw_streams = bk->rws;
	K->write_bytes = 8.0 * writes;
	K->write_streams = writes;
}

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

/* Kernels per level and core count (1..the allowed CPUs, at most 64) into p's measurements,
 * and the ECM rates from the one-core load and store runs. Each measurement is the fastest of 9
 * repetitions of >= 20 ms: the statistic model's benchmark mode compares its predictions with
 * (the fastest of its repetitions), and the one a host's other tenants disturb least (the
 * median of 3 of >= 50 ms, as before, moved a level's bandwidth by up to 2x between two probes
 * of one Xeon guest). 0, or -1 after error(). */
static int run_benchmarks(const struct probe_env *env, const struct bench_levels *lv, struct machine_probed *p)
{
	int ncpu = env->allowed.n > 64 ? 64 : env->allowed.n;
	const struct bench_kernel *ks[NMK];
	for (size_t k = 0; k < NMK; k++) {
		ks[k] = bench_kernel_best(mk_kernels[k]);
		kernel_decl(ks[k], &p->kernel[p->nkernels++]);
	}
	struct bench_sweep sw = { .lv = lv, .kernels = ks, .nkernels = (int)NMK, .cpus = &env->allowed, .max_threads = ncpu,
				  .run = { .reps = 9, .min_time_s = 0.02, .clock_ghz = env->clock_ghz }, .stop = env->interrupted,
				  .report = report };
	struct bench_sweep_result res;
	struct as_error err = { 0 };
	if (bench_sweep_run(&sw, &res, &err) != 0)
		return error_err(&err);
	progress_done();
	for (int l = 0; l < lv->n && bench_sweep_entered(&res, l, 1); l++) {
		struct machine_bench_level *B = &p->bench[p->nbench++];
		snprintf(B->level, sizeof(B->level), "%s", lv->name[l]);
		for (int n = 1; n <= ncpu && bench_sweep_entered(&res, l, n); n++) {
			int c = B->ncores++;
			size_t size = bench_levels_size(lv, l, n);
			B->cores[c] = n;
			B->total_bytes[c] = (double)size;
			B->size_per_core_bytes[c] = B->size_per_thread_bytes[c] = (double)size / n;
			for (size_t k = 0; k < NMK; k++) {
				enum bench_sweep_state st = bench_sweep_state(&res, l, n, (int)k);
				const struct bench_result *r = bench_sweep_get(&res, l, n, (int)k);
				B->bw[k][c] = r ? r->gbs.max * 1e9 : st == BENCH_SWEEP_FAILED ? 0 : NAN;
			}
		}
	}
	struct ecm_params e;
	if (bench_ecm_rates(&res, MK_LOAD, MK_STORE, lv->n, &e) >= 0) {
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

/* The host CPU as LLVM names it (llc --version: "Host CPU: znver5"), the -mcpu for llvm-mca; else
 * the name GCC picks for -march=native (GCC 12 calls a Zen 5 "znver3"). A compiler setting for
 * the in-core model, not a probe answer. */
static void native_cpu_name(char *out, size_t len)
{
	snprintf(out, len, "native");
	static const char *const cmds[] = { "llc-19 --version 2>/dev/null", "llc --version 2>/dev/null" };
	for (size_t c = 0; c < 2; c++) {
		FILE *p = popen(cmds[c], "r");
		if (!p)
			continue;
		char text[4096];
		size_t n = fread(text, 1, sizeof(text) - 1, p);
		text[n] = 0;
		pclose(p);
		if (mcpu_parse_host(text, out, len) == 0 && strcmp(out, "generic") != 0)
			return;
		snprintf(out, len, "native");
	}
	FILE *p = popen("cc -march=native -Q --help=target 2>/dev/null", "r");
	if (!p)
		return;
	char line[512];
	while (fgets(line, sizeof(line), p)) {
		char key[64], val[128];
		if (sscanf(line, " %63s %127s", key, val) == 2 && !strcmp(key, "-march=")) {
			snprintf(out, len, "%s", val);
			break;
		}
	}
	pclose(p);
}

/* The typed answers a probe left (0 until measured) as the writer takes them (NAN: none). */
static void probed_from_env(const struct probe_env *env, struct machine_probed *p)
{
	p->clock_ghz = env->clock_ghz;
	p->contexts_fp = env->contexts_fp > 0 ? env->contexts_fp : NAN;
	p->contexts_int = env->contexts_int > 0 ? env->contexts_int : NAN;
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 4; k++) {
			p->flops_per_cy[i][k] = env->flops_per_cy[i][k];
			p->has_flops |= env->flops_per_cy[i][k] > 0;
		}
	p->line_bytes = env->line_bytes > 0 ? env->line_bytes : NAN;
	p->nlevels = env->nlevels < MACHINE_MAX_LEVELS - 1 ? env->nlevels : MACHINE_MAX_LEVELS - 1;
	for (int i = 0; i < p->nlevels; i++) {
		p->level_bytes[i] = env->level_bytes[i];
		p->level_ways[i] = env->level_ways[i];
	}
}

/* The machine file of this run (or of the saved answers, --from-raw) as the writer's JSON
 * document; *bench_io as in probe_machine_write (the benchmarks run here are stored into it for
 * saving). NULL after error(). */
static json_t *machine_build(struct probe_ctx *ctx, const json_t *results, json_t **bench_io)
{
	const struct probe_env *env = &ctx->env;
	struct machine_probed *p = calloc(1, sizeof(*p));
	if (!p) {
		error("out of memory");
		return NULL;
	}
	if (!(env->line_bytes > 0) && env->nlevels == 0) /* no memory probe ran here: --from-raw */
		machine_probed_from_results(results, p);
	else
		probed_from_env(env, p);
	snprintf(p->model_name, sizeof(p->model_name), "unknown");
	topo_cpuinfo("model name", p->model_name, sizeof(p->model_name));
	native_cpu_name(p->incore_cpu, sizeof(p->incore_cpu));
	p->cpus = ctx->env.allowed.n;
	p->seed = ctx->env.seed;
	p->answers = results;
	int rc = 0;
	if (*bench_io) { /* --from-raw: the benchmarks of the earlier run */
		struct as_error err = { 0 };
		if ((rc = machine_probed_bench_from_saved(*bench_io, p, &err)) != 0)
			error_err(&err);
	} else if (p->nlevels > 0 && !*ctx->env.interrupted) {
		struct bench_levels lv;
		bench_levels_from(p->level_bytes, p->nlevels, &lv);
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

/* A saved JSON object (a regular file of at most 16 MiB), or NULL with the reason in why. */
static json_t *saved_json_load(const char *path, char *why, size_t len)
{
	struct as_error err = { 0 };
	size_t n = 0;
	char *text = file_read_input(path, "saved results", (size_t)16 << 20, &n, &err);
	if (!text) {
		snprintf(why, len, "%s", err.msg);
		return NULL;
	}
	json_error_t je;
	json_t *j = json_loadb(text, n, 0, &je);
	free(text);
	if (!j)
		snprintf(why, len, "line %d: %s", je.line, je.text);
	else if (!json_is_object(j)) {
		snprintf(why, len, "not a JSON object");
		json_decref(j);
		j = NULL;
	}
	return j;
}

int probe_machine_load(const char *dir, json_t **results, json_t **bench)
{
	char path[4096], why[600];
	snprintf(path, sizeof(path), "%s/probe-results.json", dir);
	*results = saved_json_load(path, why, sizeof(why));
	*bench = NULL;
	if (!*results) {
		error_usage("probe", "--from-raw: %s: %s", path, why);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/benchmarks.json", dir);
	*bench = saved_json_load(path, why, sizeof(why));
	if (!*bench)
		note("--from-raw: no %s (%s): the file will have no benchmarks section", path, why);
	return 0;
}

/* Writes the machine file t to path: a complete file only if every check passes (a file
 * that 'model' would refuse is not written); an interrupted run's file, marked incomplete, to
 * path only if no file is there, else beside it as PATH.partial: an interrupted run never
 * replaces a file. 0, or -1 after error(). */
static int machine_file_save(struct probe_ctx *ctx, const struct mtree *t, const char *path, int interrupted)
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
	char *text = mtree_emit_string(t, &err);
	struct atomic_file af;
	int rc = !text ? error_err(&err) : atomic_file_open_mode(&af, path, ctx->force ? AF_FORCE : 0, &err) != 0 ? error_err(&err) : 0;
	if (rc == 0) {
		fputs(text, af.fp);
		rc = atomic_file_commit(&af, &err) != 0 ? error_err(&err) : 0;
	}
	free(text);
	if (rc == 0)
		note("wrote the machine file %s%s", path, interrupted ? " (incomplete: interrupted)" : "");
	return rc;
}

int probe_machine_write(struct probe_ctx *ctx, json_t *results, json_t *bench, int from_raw, const char *path)
{
	int had_bench = bench != NULL;
	if (ctx->env.clock_ghz == 0)
		ctx->env.clock_ghz = json_number_value(json_object_get(json_object_get(results, "clock"), "value"));
	json_t *m = machine_build(ctx, results, &bench);
	if (!m) {
		json_decref(bench);
		return -1;
	}
	int interrupted = *ctx->env.interrupted; /* also during the benchmarks */
	if (interrupted)
		json_object_set_new(json_object_get(m, "archscope"), "incomplete", json_true());
	char raw[4096];
	struct as_error err = { 0 };
	if (ctx->raw_dir && !from_raw && !interrupted) { /* for a later --from-raw: the results, the benchmarks run here */
		snprintf(raw, sizeof(raw), "%s/probe-results.json", ctx->raw_dir);
		if (output_write_file(raw, results, 0, &err) != 0)
			ctx->save_failed = error_err(&err);
		snprintf(raw, sizeof(raw), "%s/benchmarks.json", ctx->raw_dir);
		if (bench && !had_bench && output_write_file(raw, bench, 0, &err) != 0)
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
