/* The machine file writer: struct machine as Kerncraft's keys, and a probe run's answers as a
 * whole file with archscope's section; see write.h. The document is built as JSON, which
 * mnode_from_json turns into the tree (reals with 10 digits, strings quoted only where they would
 * read back as something else). */
#include "machine/write.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/file.h"
#include "machine/probes.h"

/* A number formatted with its unit; the buffer holds any double in %.3f. */
static json_t *fmt(const char *f, double v)
{
	char buf[512];
	snprintf(buf, sizeof(buf), f, v);
	return json_string(buf);
}

static json_t *settings_json(const struct machine_setting *s, int n)
{
	json_t *o = json_object();
	for (int i = 0; i < n; i++)
		json_object_set_new(o, s[i].name, json_string(s[i].value));
	return o;
}

/* {SP: {total, ADD, MUL, FMA}, DP: {...}}, or NULL when no count is given. */
static json_t *flops_json(const struct machine *m)
{
	static const char *const keys[] = { "total", "ADD", "MUL", "FMA" };
	const double *prec[2] = { m->flops_sp, m->flops_dp };
	int any = 0;
	for (int p = 0; p < 2; p++)
		for (int k = 0; k < 4; k++)
			any |= isfinite(prec[p][k]) && prec[p][k] != 0;
	if (!any)
		return NULL;
	json_t *f = json_object();
	for (int p = 0; p < 2; p++) {
		json_t *o = json_object();
		for (int k = 0; k < 4; k++)
			if (isfinite(prec[p][k]))
				json_object_set_new(o, keys[k], json_real(prec[p][k]));
		json_object_set_new(f, p ? "DP" : "SP", o);
	}
	return f;
}

static json_t *level_json(const struct machine_level *L)
{
	json_t *o = json_object();
	json_object_set_new(o, "level", json_string(L->name));
	if (L->has_cache) {
		static const char *const policy[] = { [REPL_LRU] = "LRU", [REPL_FIFO] = "FIFO", [REPL_RANDOM] = "RR" };
		json_t *c = json_pack("{s:I,s:I,s:I,s:s,s:b,s:b}", "sets", (json_int_t)L->sets, "ways", (json_int_t)L->ways,
				      "cl_size", (json_int_t)L->cl_size, "replacement_policy", policy[L->replacement],
				      "write_allocate", L->write_allocate, "write_back", L->write_back);
		const char *const names[] = { "load_from", "store_to", "victims_to" };
		const char *const vals[] = { L->load_from, L->store_to, L->victims_to };
		for (int i = 0; i < 3; i++)
			if (*vals[i])
				json_object_set_new(c, names[i], json_string(vals[i]));
		if (L->inclusive)
			json_object_set_new(c, "inclusion", json_string("inclusive"));
		json_object_set_new(o, "cache per group", c);
	}
	if (L->size_bytes > 0)
		json_object_set_new(o, "size per group", fmt("%.2f kB", L->size_bytes / 1e3));
	const char *const counts[] = { "groups", "cores per group", "threads per group" };
	const long vals[] = { L->groups, L->cores_per_group, L->threads_per_group };
	for (int i = 0; i < 3; i++)
		if (vals[i] > 0)
			json_object_set_new(o, counts[i], json_integer(vals[i]));
	if (*L->upstream_text) {
		/* the code analyzer is no link: it has no duplex */
		json_t *u = json_pack("[s]", L->upstream_text);
		if (strcmp(L->upstream_text, "architecture code analyzer") && strcmp(L->upstream_text, MACHINE_UPSTREAM_NOT_MEASURED))
			json_array_append_new(u, json_string(L->upstream_full_duplex ? "full-duplex" : "half-duplex"));
		json_object_set_new(o, "upstream throughput", u);
	}
	json_object_set_new(o, "transfers overlap", json_boolean(L->transfers_overlap));
	return o;
}

static json_t *streams_json(double bytes, int streams)
{
	return json_pack("{s:o,s:i}", "bytes", fmt("%.2f B", bytes), "streams", streams);
}

static json_t *kernels_json(int n, const struct machine_bench_kernel *k)
{
	json_t *o = json_object();
	for (int i = 0; i < n; i++, k++) {
		json_t *kv = json_object();
		double f = k->flops_per_it;
		json_object_set_new(kv, "FLOPs per iteration",
				    f == floor(f) && fabs(f) < 1e15 ? json_integer((json_int_t)f) : json_real(f));
		if (*k->bench_name)
			json_object_set_new(kv, "fastest bench kernel", json_string(k->bench_name));
		json_object_set_new(kv, "read streams", streams_json(k->read_bytes, k->read_streams));
		json_object_set_new(kv, "read+write streams", streams_json(k->rw_bytes, k->rw_streams));
		json_object_set_new(kv, "write streams", streams_json(k->write_bytes, k->write_streams));
		json_object_set_new(o, k->name, kv);
	}
	return o;
}

/* One working set per core count, or NULL when the level gives none. */
static json_t *sizes_json(const double *bytes, int n)
{
	int any = 0;
	for (int i = 0; i < n; i++)
		any |= bytes[i] > 0;
	if (!any)
		return NULL;
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, fmt("%.2f kB", bytes[i] / 1e3));
	return a;
}

/* Kerncraft's layout: level -> threads per core (1) -> {cores, results, sizes, threads}. */
static json_t *measurements_json(int nb, const struct machine_bench_level *b, int nk, const struct machine_bench_kernel *k)
{
	json_t *o = json_object();
	for (int l = 0; l < nb; l++, b++) {
		json_t *cores = json_array(), *results = json_object();
		for (int c = 0; c < b->ncores; c++)
			json_array_append_new(cores, json_integer(b->cores[c]));
		for (int i = 0; i < nk; i++) {
			int end = b->ncores; /* runs that did not happen (NAN) end the list */
			while (end > 0 && isnan(b->bw[i][end - 1]))
				end--;
			json_t *a = json_array();
			for (int c = 0; c < end; c++)
				json_array_append_new(a, fmt("%.2f GB/s", isnan(b->bw[i][c]) ? 0 : b->bw[i][c] / 1e9));
			json_object_set_new(results, k[i].name, a);
		}
		json_t *run = json_object(), *s;
		json_object_set_new(run, "cores", cores);
		json_object_set_new(run, "results", results);
		if ((s = sizes_json(b->size_per_core_bytes, b->ncores)))
			json_object_set_new(run, "size per core", s);
		if ((s = sizes_json(b->size_per_thread_bytes, b->ncores)))
			json_object_set_new(run, "size per thread", s);
		json_object_set_new(run, "threads", json_deep_copy(cores)); /* one thread per core */
		if ((s = sizes_json(b->total_bytes, b->ncores)))
			json_object_set_new(run, "total size", s);
		json_object_set_new(run, MK_THREADS_PER_CORE, json_integer(1));
		json_object_set_new(o, b->level, json_pack("{s:o}", "1", run));
	}
	return o;
}

json_t *machine_write_json(const struct machine *m)
{
	json_t *d = json_object(), *v;
	if (*m->kerncraft_version)
		json_object_set_new(d, "kerncraft version", json_string(m->kerncraft_version));
	json_object_set_new(d, "model name", json_string(m->model_name));
	if (*m->model_type)
		json_object_set_new(d, "model type", json_string(m->model_type));
	json_object_set_new(d, MK_CLOCK, fmt("%.3f GHz", m->clock_hz / 1e9));
	const char *const counts[] = { "sockets", MK_CORES_PER_SOCKET, MK_THREADS_PER_CORE, "cores per NUMA domain" };
	const long vals[] = { m->sockets, m->cores_per_socket, m->threads_per_core, m->cores_per_numa_domain };
	for (int i = 0; i < 4; i++)
		if (vals[i] > 0)
			json_object_set_new(d, counts[i], json_integer(vals[i]));
	if (m->nincore)
		json_object_set_new(d, "in-core model", settings_json(m->incore, m->nincore));
	if (*m->isa)
		json_object_set_new(d, "isa", json_string(m->isa));
	if ((v = flops_json(m)))
		json_object_set_new(d, MK_FLOPS, v);
	if (m->ncompiler)
		json_object_set_new(d, "compiler", settings_json(m->compiler, m->ncompiler));
	if (m->cacheline_bytes >= 0.5) /* written as whole bytes: "0 B" would not read back (fuzz-machine) */
		json_object_set_new(d, MK_CACHELINE, fmt("%.0f B", m->cacheline_bytes));
	json_t *h = json_array();
	for (int i = 0; i < m->nlevels; i++)
		json_array_append_new(h, level_json(&m->level[i]));
	json_object_set_new(d, MK_HIERARCHY, h);
	if (m->nkernels || m->nbench)
		json_object_set_new(d, "benchmarks",
				    json_pack("{s:o,s:o}", "kernels", kernels_json(m->nkernels, m->kernel), "measurements",
					      measurements_json(m->nbench, m->bench, m->nkernels, m->kernel)));
	return d;
}

int machine_write_tree(const struct machine *m, struct mtree *t, struct as_error *err)
{
	json_t *d = machine_write_json(m);
	*t = (struct mtree){ .root = d ? mnode_from_json(d) : NULL };
	json_decref(d);
	if (!t->root)
		return as_error_set(err, -ENOMEM, "machine file: out of memory");
	return 0;
}

/* --- a probe run's file ------------------------------------------------------------------- */

/* The flags the model compiles kernels with; a setting, not a probe answer. */
#define PROBED_FLAGS "-O3 -march=native -ffp-contract=fast -D_POSIX_C_SOURCE=200809L -fopenmp -lm"

/* The answers the Kerncraft values come from, NAN (0 levels) where the run has none. */
struct derived {
	double clock_ghz, line_bytes, contexts_fp, contexts_int;
	int nlevels;            /* cache levels; memory comes after them */
	double level_bytes[MACHINE_MAX_LEVELS - 1];
	double level_ways[MACHINE_MAX_LEVELS - 1];
	int has_flops;
	double flops_per_cy[2][4]; /* widest vector, [SP, DP][total, ADD, MUL, FMA] */
};

/* A count or size that must be positive and finite to mean anything: else NAN. */
static double positive(double v)
{
	return isfinite(v) && v > 0 ? v : NAN;
}

void machine_bench_kernel_declare(struct machine_bench_kernel *K, const char *name, const char *variant, int reads,
				  int writes, int rws, int flops)
{
	snprintf(K->name, sizeof(K->name), "%s", name);
	snprintf(K->bench_name, sizeof(K->bench_name), "%s_%s", name, variant);
	K->flops_per_it = flops;
	K->read_streams = reads + rws;
	K->read_bytes = 8.0 * K->read_streams;
	K->rw_streams = rws;
	K->rw_bytes = 8.0 * rws;
	K->write_streams = writes + rws;
	K->write_bytes = 8.0 * K->write_streams;
}

int machine_probed_levels(const struct machine_probes *a, double *bytes, int max)
{
	int n = a->have[MP_CACHES] == MP_HAVE_YES ? a->ncaches : 0;
	n = n < max ? n : max;
	for (int i = 0; bytes && i < n; i++)
		bytes[i] = a->cache[i].size.value;
	return n;
}

static void derive(const struct machine_probes *a, struct derived *d)
{
	*d = (struct derived){ .clock_ghz = NAN, .line_bytes = NAN, .contexts_fp = NAN, .contexts_int = NAN };
	if (a->have[MP_CLOCK] == MP_HAVE_YES)
		d->clock_ghz = a->clock.value;
	if (a->have[MP_LINE] == MP_HAVE_YES)
		d->line_bytes = positive(a->line.value);
	if (a->have[MP_CONTEXTS] == MP_HAVE_YES) {
		d->contexts_fp = positive(a->contexts_fp.value);
		d->contexts_int = positive(a->contexts_int.value);
	}
	d->nlevels = machine_probed_levels(a, d->level_bytes, MACHINE_MAX_LEVELS - 1);
	for (int i = 0; i < d->nlevels; i++)
		d->level_ways[i] = NAN;
	for (int r = 0; a->have[MP_ASSOC] == MP_HAVE_YES && r < a->nassoc; r++)
		if (a->assoc[r].level >= 1 && a->assoc[r].level <= d->nlevels)
			d->level_ways[a->assoc[r].level - 1] = a->assoc[r].ways.value;
	for (int i = 0; a->have[MP_INSTR] == MP_HAVE_YES && i < 2; i++)
		for (int k = 0; k < 4; k++) {
			double v = a->flops_per_cy[i][1][k];
			d->flops_per_cy[i][k] = isfinite(v) ? v : 0;
			d->has_flops |= v > 0;
		}
}

/* "L1", "L2", ..., "MEM" (after the nlevels caches). */
static void level_name(int nlevels, int i, char *out, size_t len)
{
	snprintf(out, len, i < nlevels ? "L%d" : "MEM", i + 1);
}

static void add_setting(struct machine_setting *s, int *n, const char *name, const char *value)
{
	snprintf(s[*n].name, sizeof(s->name), "%s", name);
	snprintf(s[*n].value, sizeof(s->value), "%s", value);
	(*n)++;
}

/* The memory hierarchy: sets from the measured size and ways (fully associative where the ways
 * are missing or do not divide the lines), the last cache and memory shared by all cores, the
 * levels above private; upstream rates from the ECM transfers. */
static void probed_levels(const struct machine_probed *p, const struct derived *d, long cores, long tpc,
			  struct machine *m, json_t *assumed)
{
	double line = d->line_bytes;
	long cl = isfinite(line) && line >= 8 ? lround(line) : 64;
	int nl = d->nlevels;
	if (!(isfinite(line) && line >= 8) && nl > 0)
		json_array_append_new(assumed, json_string("cache line not measured: 64 B lines (cl_size) assumed"));
	m->nlevels = nl + 1;
	for (int i = 0; i <= nl; i++) {
		struct machine_level *L = &m->level[i];
		level_name(nl, i, L->name, sizeof(L->name));
		L->write_allocate = L->write_back = 1;
		if (i < nl) {
			double ways = d->level_ways[i];
			long w = isfinite(ways) && ways >= 1 ? lround(ways) : 0;
			long lines = lround(d->level_bytes[i] / (double)cl);
			if (w == 0 || lines < 1 || lines % w) {
				/* not measured here: fully associative, the assumption a cache simulator handles */
				char msg[128];
				snprintf(msg, sizeof(msg), "%s associativity not measured: written as fully associative", L->name);
				json_array_append_new(assumed, json_string(msg));
				w = lines > 0 ? lines : 1;
			}
			L->has_cache = 1;
			L->sets = lines / w;
			L->ways = w;
			L->cl_size = cl;
			L->size_bytes = d->level_bytes[i];
			level_name(nl, i + 1, L->load_from, sizeof(L->load_from));
			level_name(nl, i + 1, L->store_to, sizeof(L->store_to));
		}
		int shared = i >= nl - 1; /* the last cache and memory: all cores */
		L->groups = shared ? 1 : cores;
		L->cores_per_group = shared ? cores : 1;
		L->threads_per_group = shared ? cores * tpc : tpc;
		if (i == 0) {
			snprintf(L->upstream_text, sizeof(L->upstream_text), "architecture code analyzer");
		} else if (i == nl) {
			snprintf(L->upstream_text, sizeof(L->upstream_text), "full socket memory bandwidth");
			L->upstream_is_memory = 1;
		} else if (p->has_ecm && i - 1 < p->ecm.ntransfers && p->ecm.cy_per_cl[i - 1] > 0) {
			snprintf(L->upstream_text, sizeof(L->upstream_text), "%.1f B/cy", (double)cl / p->ecm.cy_per_cl[i - 1]);
			char u[16];
			machine_quantity(L->upstream_text, &L->upstream_bytes_per_cy, u, sizeof(u));
		} else { /* a fit beside other work can give a level no positive cost: said, not invented */
			snprintf(L->upstream_text, sizeof(L->upstream_text), MACHINE_UPSTREAM_NOT_MEASURED);
			char msg[240];
			if (p->has_ecm && i - 1 < p->ecm.ntransfers)
				snprintf(msg, sizeof(msg), "%s upstream throughput not measured: the benchmarks' ECM fit gave %.2f cy per line (noisy benchmarks, or transfers that overlap); model's Kerncraft mode (--ecm-rates machine) cannot use this level",
					 L->name, p->ecm.cy_per_cl[i - 1]);
			else
				snprintf(msg, sizeof(msg), "%s upstream throughput not measured: no ECM fit of the benchmarks", L->name);
			json_array_append_new(assumed, json_string(msg));
		}
	}
}

/* The Kerncraft values of a probe run; the assumptions made on the way are appended to assumed. */
static void probed_machine(const struct machine_probed *p, struct machine *m, json_t *assumed)
{
	struct derived dv, *d = &dv;
	derive(p->probes, d);
	*m = (struct machine){ 0 };
	snprintf(m->kerncraft_version, sizeof(m->kerncraft_version), "0.8.11.dev0");
	snprintf(m->model_name, sizeof(m->model_name), "%s", p->model_name);
	snprintf(m->model_type, sizeof(m->model_type), "measured by archscope " ARCHSCOPE_VERSION
									" (model name as the OS reports it)");
	m->clock_hz = isfinite(d->clock_ghz) ? d->clock_ghz * 1e9 : 0;
	/* cores: contexts that run FP work side by side (BlackjackBench); threads: integer ones */
	double fp = d->contexts_fp, in = d->contexts_int;
	long cores = isfinite(fp) && fp >= 1 ? lround(fp) : p->cpus;
	long tpc = isfinite(in) && isfinite(fp) && fp > 0 && in >= fp && cores > 0 ? lround(in / fp) : 1;
	m->sockets = 1;
	m->cores_per_socket = cores;
	m->threads_per_core = tpc < 1 ? 1 : tpc;
	char mcpu[160];
	snprintf(mcpu, sizeof(mcpu), "-mcpu=%s", p->incore_cpu);
	add_setting(m->incore, &m->nincore, "LLVM-MCA", mcpu);
#if defined(__x86_64__) || defined(__i386__)
	snprintf(m->isa, sizeof(m->isa), "x86");
#elif defined(__aarch64__)
	snprintf(m->isa, sizeof(m->isa), "aarch64");
#endif
	for (int k = 0; d->has_flops && k < 4; k++) {
		m->flops_sp[k] = round(d->flops_per_cy[0][k] * 10) / 10;
		m->flops_dp[k] = round(d->flops_per_cy[1][k] * 10) / 10;
	}
	add_setting(m->compiler, &m->ncompiler, "gcc", PROBED_FLAGS);
	add_setting(m->compiler, &m->ncompiler, "clang", PROBED_FLAGS);
	if (isfinite(d->line_bytes))
		m->cacheline_bytes = d->line_bytes;
	probed_levels(p, d, cores, tpc, m, assumed);
	json_array_append_new(assumed, json_string("cache sharing: the last cache level and memory shared by all cores, "
						   "the levels above private"));
	json_array_append_new(assumed, json_string("replacement LRU, write-allocate and write-back caches (Kerncraft's defaults)"));
	json_array_append_new(assumed, json_string("sockets: 1 (not measured)"));
	m->nkernels = p->nkernels;
	memcpy(m->kernel, p->kernel, sizeof(m->kernel));
	m->nbench = p->nbench;
	memcpy(m->bench, p->bench, sizeof(m->bench));
}

/* The level the benchmarks measured as level i (they name the ECM transfers' ends). */
static void bench_level_name(const struct machine_probed *p, int i, char *out, size_t len)
{
	if (i < p->nbench)
		snprintf(out, len, "%s", p->bench[i].level);
	else
		level_name(machine_probed_levels(p->probes, NULL, MACHINE_MAX_LEVELS - 1), i, out, len);
}

static json_t *ecm_json(const struct machine_probed *p)
{
	json_t *tr = json_array();
	for (int b = 0; b < p->ecm.ntransfers; b++) {
		char from[16], to[16];
		bench_level_name(p, b + 1, from, sizeof(from));
		bench_level_name(p, b, to, sizeof(to));
		json_array_append_new(tr, json_pack("{s:s,s:s,s:f}", "from", from, "to", to, "cy_per_cl", p->ecm.cy_per_cl[b]));
	}
	return json_pack("{s:f,s:f,s:o,s:s}", "l1_load_bytes_per_cy", p->ecm.l1_load_bytes_per_cy, "l1_store_bytes_per_cy",
			 p->ecm.l1_store_bytes_per_cy, "transfers", tr, "method",
			 "ECM rates from the one-core load kernel's cycles per line in each level (differences) and the store "
			 "kernel's in L1 (see archscope bench --ecm)");
}

/* The benchmarks' flags: archscope.benchmarks_flags in the file, "flags" in benchmarks.json. */
static json_t *bench_flags_json(const struct machine_probed *p)
{
	return json_pack("{s:i,s:i,s:s,s:s}", "runs", p->bench_runs, "noisy", p->bench_noisy, "noisy_first",
			 p->bench_noisy_first, "implausible", p->bench_implausible);
}

json_t *machine_probed_json(const struct machine_probed *p)
{
	struct machine *m = malloc(sizeof(*m));
	json_t *assumed = json_array(), *as = json_object();
	if (!m || !assumed || !as) {
		free(m);
		json_decref(assumed);
		json_decref(as);
		return NULL;
	}
	probed_machine(p, m, assumed);
	json_t *d = machine_write_json(m);
	free(m);
	json_object_set_new(as, "version", json_string(ARCHSCOPE_VERSION));
	json_object_set_new(as, "cpus", json_integer(p->cpus));
	json_object_set_new(as, "seed", json_integer((json_int_t)p->seed));
	json_object_set_new(as, "assumed", assumed);
	if (p->has_ecm)
		json_object_set_new(as, "ecm", ecm_json(p));
	if (p->bench_runs > 0)
		json_object_set_new(as, "benchmarks_flags",
				    bench_flags_json(p));
	json_t *answers = machine_probes_answers_json(p->probes);
	if (!answers) {
		json_decref(d);
		json_decref(as);
		return NULL;
	}
	json_object_set_new(as, "probes", answers);
	json_object_set_new(d, "archscope", as);
	return d;
}

json_t *machine_probed_bench_json(const struct machine_probed *p)
{
	json_t *b = json_pack("{s:o,s:o}", "kernels", kernels_json(p->nkernels, p->kernel), "measurements",
			      measurements_json(p->nbench, p->bench, p->nkernels, p->kernel));
	if (b && p->has_ecm)
		json_object_set_new(b, "ecm", ecm_json(p));
	if (b && p->bench_runs > 0)
		json_object_set_new(b, "flags",
				    bench_flags_json(p));
	return b;
}
