/* archscope probe -o FILE.yaml: the machine file from this run's measurements. Kerncraft's core
 * keys (clock, cores, FLOPs per cycle, memory hierarchy, benchmarks) come from the probes and from
 * streaming benchmarks per level and core count run here; the 'archscope:' section keeps every
 * probe answer with its method, confidence and os_reported value, and says which values are
 * assumptions rather than measurements. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ecm.h"
#include "bench/run.h"
#include "cli/bench.h"
#include "cli/cli.h"
#include "cli/probe.h"
#include "probe/clock.h"
#include "probe/kernels.h"
#include "report/mtree.h"
#include "topo/cpuinfo.h"

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	if (json_is_object(v))
		v = json_object_get(v, "value");
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static json_t *fmt(const char *f, double v)
{
	char buf[64];
	snprintf(buf, sizeof(buf), f, v);
	return json_string(buf);
}

/* A copy of the probe results without the curves (they stay in --raw files): answers only. */
static json_t *answers_only(const json_t *j)
{
	if (json_is_object(j)) {
		json_t *o = json_object();
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)j, k, v) {
			if (strstr(k, "curve") || !strcmp(k, "cost_per_iteration") || !strcmp(k, "blocks") || !strcmp(k, "points"))
				continue;
			json_object_set_new(o, k, answers_only(v));
		}
		return o;
	}
	if (json_is_array(j)) {
		json_t *a = json_array();
		size_t i;
		json_t *v;
		json_array_foreach(j, i, v)
			json_array_append_new(a, answers_only(v));
		return a;
	}
	return json_deep_copy(j);
}

/* likwid-bench's spelling, as Kerncraft writes it: copy_avx512 */
static json_t *kname(const struct bench_kernel *k)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%s_%s", k->name, k->variant);
	return json_string(buf);
}

static const char *const mk_kernels[] = { "copy", "daxpy", "load", "store", "stream", "triad", "update" };
#define NMK (sizeof(mk_kernels) / sizeof(mk_kernels[0]))

/* Streaming benchmarks per level and core count: measurements{} in Kerncraft's layout, plus
 * the ECM rates from the one-core load and store runs. */
static json_t *run_benchmarks(struct probe_ctx *ctx, const struct bench_levels *lv, json_t **kernels_out,
			      json_t **ecm_out)
{
	int ncpu = ctx->env.allowed.n > 64 ? 64 : ctx->env.allowed.n, last_cache = lv->n - 2;
	json_t *meas = json_object(), *kernels = json_object();
	double load_cy[BENCH_MAX_LEVELS] = { 0 }, store_l1_cy = 0;
	int done = 0, total = lv->n * ncpu * (int)NMK;
	for (size_t k = 0; k < NMK; k++) {
		const struct bench_kernel *bk = bench_kernel_best(mk_kernels[k]);
		/* Kerncraft's convention: read and write streams include the read+write ones */
		int reads = bk->reads + bk->rws, writes = bk->writes + bk->rws;
		json_object_set_new(kernels, mk_kernels[k],
				    json_pack("{s:i,s:o,s:{s:o,s:i},s:{s:o,s:i},s:{s:o,s:i}}", "FLOPs per iteration", bk->flops,
					      "fastest bench kernel", kname(bk), "read streams", "bytes", fmt("%.2f B", 8.0 * reads),
					      "streams", reads, "read+write streams", "bytes", fmt("%.2f B", 8.0 * bk->rws), "streams",
					      bk->rws, "write streams", "bytes", fmt("%.2f B", 8.0 * writes), "streams", writes));
	}
	for (int l = 0; l < lv->n && !*ctx->env.interrupted; l++) {
		json_t *results = json_object(), *cores = json_array(), *per_core = json_array(), *per_thread = json_array(),
		       *total_size = json_array();
		for (size_t k = 0; k < NMK; k++)
			json_object_set_new(results, mk_kernels[k], json_array());
		for (int n = 1; n <= ncpu && !*ctx->env.interrupted; n++) {
			struct as_cpulist team = { .n = n };
			for (int i = 0; i < n; i++)
				team.cpu[i] = ctx->env.allowed.cpu[i];
			size_t size = l < last_cache ? lv->size[l] * (size_t)n : lv->size[l];
			json_array_append_new(cores, json_integer(n));
			json_array_append_new(per_core, fmt("%.2f kB", size / 1e3 / n));
			json_array_append_new(per_thread, fmt("%.2f kB", size / 1e3 / n));
			json_array_append_new(total_size, fmt("%.2f kB", size / 1e3));
			for (size_t k = 0; k < NMK && !*ctx->env.interrupted; k++) {
				const struct bench_kernel *bk = bench_kernel_best(mk_kernels[k]);
				progress("probe -o: streaming benchmarks %d/%d: %s in %s on %d core%s", ++done, total, bk->name,
					 lv->name[l], n, n > 1 ? "s" : "");
				struct bench_opts bo = { .kernel = bk, .size_bytes = size, .cpus = team, .reps = 3, .min_time_s = 0.05,
							 .clock_ghz = ctx->env.clock_ghz };
				struct bench_result r;
				struct as_error err = { 0 };
				json_t *arr = json_object_get(results, mk_kernels[k]);
				if (bench_run(&bo, &r, &err) != 0) {
					progress_done();
					note("probe -o: %s in %s on %d cores: %s", bk->name, lv->name[l], n, err.msg);
					json_array_append_new(arr, json_string("0.00 GB/s"));
					continue;
				}
				json_array_append_new(arr, fmt("%.2f GB/s", r.gbs.median));
				if (n == 1 && !strcmp(bk->name, "load"))
					load_cy[l] = r.cy_per_cl.min;
				if (n == 1 && l == 0 && !strcmp(bk->name, "store"))
					store_l1_cy = r.cy_per_cl.min;
			}
		}
		json_object_set_new(meas, lv->name[l],
				    json_pack("{s:{s:o,s:o,s:o,s:o,s:o,s:o,s:i}}", "1", "cores", cores, "results", results, "size per core",
					      per_core, "size per thread", per_thread, "threads", json_deep_copy(cores), "total size",
					      total_size, "threads per core", 1));
	}
	progress_done();
	*kernels_out = kernels;
	struct ecm_params p;
	int nl = 0;
	while (nl < lv->n && load_cy[nl] > 0)
		nl++;
	*ecm_out = NULL;
	if (nl >= 1 && store_l1_cy > 0 && ecm_params_from_loads(&p, 64, load_cy, nl, store_l1_cy, 1) >= 0) {
		json_t *tr = json_array();
		for (int b = 0; b < p.ntransfers; b++)
			json_array_append_new(tr, json_pack("{s:s,s:s,s:f}", "from", lv->name[b + 1], "to", lv->name[b], "cy_per_cl",
							    p.cy_per_cl[b]));
		*ecm_out = json_pack("{s:f,s:f,s:o,s:s}", "l1_load_bytes_per_cy", p.l1_load_bpc, "l1_store_bytes_per_cy",
				     p.l1_store_bpc, "transfers", tr, "method",
				     "ECM rates from the one-core load kernel's cycles per line in each level (differences) and the store "
				     "kernel's in L1 (see archscope bench --ecm)");
	}
	return meas;
}

/* The host CPU name GCC picks for -march=native (the LLVM -mcpu name for llvm-mca); a compiler
 * setting for the in-core model, not a probe answer. */
static void native_cpu_name(char *out, size_t len)
{
	snprintf(out, len, "native");
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

json_t *probe_machine_build(struct probe_ctx *ctx, int run_bench, json_t **bench_io)
{
	const json_t *R = ctx->results;
	json_t *m = json_object(), *as = json_object();
	char model[256] = "unknown";
	topo_cpuinfo("model name", model, sizeof(model));
	json_object_set_new(m, "kerncraft version", json_string("0.8.11.dev0"));
	json_object_set_new(m, "model name", json_string(model));
	json_object_set_new(m, "model type", json_string("measured by archscope " ARCHSCOPE_VERSION " (model name as the OS reports it)"));
	double ghz = num(R, "clock");
	json_object_set_new(m, "clock", fmt("%.3f GHz", isfinite(ghz) ? ghz : 0));
	/* cores: contexts that run FP work side by side (BlackjackBench); threads: integer ones */
	const json_t *ctxs = json_object_get(R, "contexts");
	double fp = num(ctxs, "fp"), in = num(ctxs, "int");
	long cores = isfinite(fp) && fp >= 1 ? lround(fp) : ctx->env.allowed.n;
	long tpc = isfinite(in) && in >= fp && cores > 0 ? lround(in / fp) : 1;
	json_object_set_new(m, "sockets", json_integer(1));
	json_object_set_new(m, "cores per socket", json_integer(cores));
	json_object_set_new(m, "threads per core", json_integer(tpc < 1 ? 1 : tpc));
	char mcpu[128], arg[160];
	native_cpu_name(mcpu, sizeof(mcpu));
	snprintf(arg, sizeof(arg), "-mcpu=%s", mcpu);
	json_object_set_new(m, "in-core model", json_pack("{s:s}", "LLVM-MCA", arg));
#if defined(__x86_64__) || defined(__i386__)
	json_object_set_new(m, "isa", json_string("x86"));
#elif defined(__aarch64__)
	json_object_set_new(m, "isa", json_string("aarch64"));
#endif
	const json_t *fpc = json_object_get(json_object_get(R, "instr"), "flops_per_cycle");
	if (fpc) {
		json_t *f = json_object();
		static const char *const prec[] = { "SP", "DP" }, *const ks[] = { "total", "ADD", "MUL", "FMA" };
		for (int p = 0; p < 2; p++) {
			const json_t *v = json_object_get(json_object_get(fpc, prec[p]), "vector");
			json_t *o = json_object();
			for (int k = 0; k < 4; k++)
				json_object_set_new(o, ks[k], json_real(round(num(v, ks[k]) * 10) / 10));
			json_object_set_new(f, prec[p], o);
		}
		json_object_set_new(m, "FLOPs per cycle", f);
	}
	char flags[512];
	snprintf(flags, sizeof(flags), "-O3 -march=native -ffp-contract=fast -D_POSIX_C_SOURCE=200809L -fopenmp -lm");
	json_object_set_new(m, "compiler", json_pack("{s:s,s:s}", "gcc", flags, "clang", flags));
	double line = num(json_object_get(R, "line"), "value");
	if (!isfinite(line))
		line = num(R, "line");
	if (isfinite(line))
		json_object_set_new(m, "cacheline size", fmt("%.0f B", line));
	long cl = isfinite(line) && line >= 8 ? lround(line) : 64;

	/* memory hierarchy */
	const json_t *levels = json_object_get(json_object_get(R, "caches"), "levels");
	const json_t *assoc = json_object_get(json_object_get(R, "assoc"), "levels");
	int nl = (int)json_array_size(levels);
	if (nl > BENCH_MAX_LEVELS - 1)
		nl = BENCH_MAX_LEVELS - 1;
	double bytes[BENCH_MAX_LEVELS] = { 0 };
	json_t *hier = json_array(), *assumed = json_array();
	for (int i = 0; i < nl; i++)
		bytes[i] = num(json_array_get(levels, (size_t)i), "size");
	struct bench_levels lv;
	bench_levels_from(bytes, nl, &lv);
	json_t *kernels = NULL, *ecm = NULL, *meas = NULL;
	if (*bench_io) { /* --from-raw: the benchmarks of the earlier run */
		kernels = json_incref(json_object_get(*bench_io, "kernels"));
		meas = json_incref(json_object_get(*bench_io, "measurements"));
		ecm = json_incref(json_object_get(*bench_io, "ecm"));
	} else if (run_bench && nl > 0 && !*ctx->env.interrupted) {
		meas = run_benchmarks(ctx, &lv, &kernels, &ecm);
		if (!*ctx->env.interrupted)
			*bench_io = json_pack("{s:O,s:O,s:O*}", "kernels", kernels, "measurements", meas, "ecm", ecm);
	}
	for (int i = 0; i <= nl; i++) {
		json_t *L = json_object();
		char name[16];
		snprintf(name, sizeof(name), i < nl ? "L%d" : "MEM", i + 1);
		json_object_set_new(L, "level", json_string(name));
		if (i < nl) {
			double ways = NAN;
			for (size_t a = 0; a < json_array_size(assoc); a++) {
				const json_t *al = json_array_get(assoc, a);
				if (json_integer_value(json_object_get(al, "level")) == i + 1)
					ways = num(al, "ways");
			}
			long w = isfinite(ways) && ways >= 1 ? lround(ways) : 0;
			long lines = lround(bytes[i] / cl);
			if (w == 0 || lines % w) {
				/* not measured here: fully associative, the assumption a cache simulator handles */
				char msg[128];
				snprintf(msg, sizeof(msg), "%s associativity not measured: written as fully associative", name);
				json_array_append_new(assumed, json_string(msg));
				w = lines;
			}
			char next[16];
			snprintf(next, sizeof(next), i + 1 < nl ? "L%d" : "MEM", i + 2);
			json_object_set_new(L, "cache per group",
					    json_pack("{s:I,s:I,s:I,s:s,s:b,s:b,s:s,s:s}", "sets", (json_int_t)(lines / w), "ways",
						      (json_int_t)w, "cl_size", (json_int_t)cl, "replacement_policy", "LRU",
						      "write_allocate", 1, "write_back", 1, "load_from", next, "store_to", next));
			json_object_set_new(L, "size per group", fmt("%.2f kB", bytes[i] / 1e3));
		}
		int shared = i >= nl - 1; /* the last cache and memory: all cores */
		json_object_set_new(L, "groups", json_integer(shared ? 1 : cores));
		json_object_set_new(L, "cores per group", json_integer(shared ? cores : 1));
		json_object_set_new(L, "threads per group", json_integer(shared ? cores * tpc : tpc));
		const json_t *tr = ecm ? json_array_get(json_object_get(ecm, "transfers"), (size_t)(i - 1)) : NULL;
		if (i == 0)
			json_object_set_new(L, "upstream throughput", json_pack("[s]", "architecture code analyzer"));
		else if (i == nl)
			json_object_set_new(L, "upstream throughput", json_pack("[s,s]", "full socket memory bandwidth", "half-duplex"));
		else if (tr && num(tr, "cy_per_cl") > 0)
			json_object_set_new(L, "upstream throughput",
					    json_pack("[o,s]", fmt("%.1f B/cy", cl / num(tr, "cy_per_cl")), "half-duplex"));
		json_object_set_new(L, "transfers overlap", json_false());
		json_array_append_new(hier, L);
	}
	json_array_append_new(assumed, json_string("cache sharing: the last cache level and memory shared by all cores, the levels above private"));
	json_array_append_new(assumed, json_string("replacement LRU, write-allocate and write-back caches (Kerncraft's defaults)"));
	json_array_append_new(assumed, json_string("sockets: 1 (not measured)"));
	json_object_set_new(m, "memory hierarchy", hier);
	if (meas && kernels)
		json_object_set_new(m, "benchmarks", json_pack("{s:o,s:o}", "kernels", kernels, "measurements", meas));
	else {
		json_decref(meas);
		json_decref(kernels);
	}
	json_object_set_new(as, "version", json_string(ARCHSCOPE_VERSION));
	json_object_set_new(as, "cpus", json_integer(ctx->env.allowed.n));
	json_object_set_new(as, "seed", json_integer((json_int_t)ctx->env.seed));
	json_object_set_new(as, "assumed", assumed);
	if (ecm)
		json_object_set_new(as, "ecm", ecm);
	json_object_set_new(as, "probes", answers_only(R));
	json_object_set_new(m, "archscope", as);
	return m;
}
