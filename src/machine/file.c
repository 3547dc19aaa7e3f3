/* Machine-file checks and typed reading; see machine.h. */
#include "machine/file.h"

/* Paths in messages ("benchmarks.measurements.L1.1.results.copy[3]") are cut at the buffer size
 * on purpose; GCC's truncation warning about that is off in this file. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

int machine_quantity(const char *text, double *value, char *unit, size_t unit_len)
{
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || errno || !isfinite(v))
		return -1;
	while (*end == ' ')
		end++;
	double scale = 1;
	const char *u = end;
	static const struct {
		const char *p;
		double f;
	} prefixes[] = { { "Ki", 1024.0 }, { "Mi", 1048576.0 }, { "Gi", 1073741824.0 }, { "Ti", 1099511627776.0 },
			 { "k", 1e3 }, { "K", 1e3 }, { "M", 1e6 }, { "G", 1e9 }, { "T", 1e12 } };
	/* a prefix only in front of a unit letter: "GB/s", "kB", "GHz"; not "B" or "cy" alone */
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i].p);
		if (!strncmp(u, prefixes[i].p, n) && (u[n] == 'B' || u[n] == 'H' || u[n] == 'F' || u[n] == 'b')) {
			scale = prefixes[i].f;
			u += n;
			break;
		}
	}
	for (const char *c = u; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == '/' || *c == '%'))
			return -1;
	if (strlen(u) >= unit_len)
		return -1;
	strcpy(unit, u);
	*value = v * scale;
	return 0;
}

/* --- checking ---------------------------------------------------------------------------- */

struct check {
	const char *name;
	FILE *out;
	int count;
};

static void problem(struct check *c, int line, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void problem(struct check *c, int line, const char *path, const char *fmt, ...)
{
	va_list ap;
	fprintf(c->out, "machine file '%s': line %d: %s: ", c->name, line, path);
	va_start(ap, fmt);
	vfprintf(c->out, fmt, ap);
	va_end(ap);
	fputc('\n', c->out);
	c->count++;
}

static int plain(const struct mnode *n)
{
	return n && n->kind == MN_SCALAR && n->style == YAML_PLAIN_SCALAR_STYLE && !n->tag;
}

static int is_pos_int(const struct mnode *n, long *out)
{
	if (!plain(n))
		return 0;
	char *end;
	errno = 0;
	long v = strtol(n->text, &end, 10);
	if (*end || end == n->text || errno || v <= 0)
		return 0;
	if (out)
		*out = v;
	return 1;
}

static int is_bool(const struct mnode *n)
{
	return plain(n) && (!strcmp(n->text, "true") || !strcmp(n->text, "false") || !strcmp(n->text, "True") ||
			    !strcmp(n->text, "False"));
}

static int is_number(const struct mnode *n, double *out)
{
	if (!plain(n))
		return 0;
	char *end;
	double v = strtod(n->text, &end);
	if (*end || end == n->text || !isfinite(v))
		return 0;
	if (out)
		*out = v;
	return 1;
}

/* A scalar quantity whose unit starts with `unit` ("" accepts a bare number), value >= 0
 * (> 0 when positive). */
static int is_quantity(const struct mnode *n, const char *unit, int positive, double *out)
{
	if (!n || n->kind != MN_SCALAR)
		return 0;
	double v;
	char u[32];
	if (machine_quantity(n->text, &v, u, sizeof(u)) != 0)
		return 0;
	if (strncmp(u, unit, strlen(unit)) || v < 0 || (positive && v <= 0))
		return 0;
	if (out)
		*out = v;
	return 1;
}

static int is_string(const struct mnode *n)
{
	return n && n->kind == MN_SCALAR && !mnode_is_null(n);
}

static const char *kind_name(const struct mnode *n)
{
	if (!n)
		return "nothing";
	if (n->kind == MN_MAP)
		return "a mapping";
	if (n->kind == MN_SEQ)
		return "a list";
	if (mnode_is_null(n))
		return "an empty value";
	return n->style == YAML_PLAIN_SCALAR_STYLE ? "a plain value" : "a quoted string";
}

/* The child `key` of map, or a "missing key" problem when required. */
static struct mnode *need(struct check *c, const struct mnode *map, const char *path, const char *key, int required)
{
	struct mnode *v = mnode_get(map, key);
	if (!v && required)
		problem(c, map->line, path, "missing key '%s'", key);
	return v;
}

static void join(char *out, size_t len, const char *path, const char *key)
{
	snprintf(out, len, "%s%s%s", path, *path ? "." : "", key);
}

#define EXPECT(c, n, path, cond, what)                                                            \
	do {                                                                                      \
		if ((n) && !(cond))                                                               \
			problem(c, (n)->line, path, "expected %s, found %s '%s'", what, kind_name(n), \
				(n)->kind == MN_SCALAR ? (n)->text : "...");                         \
	} while (0)

static void check_pos_int_key(struct check *c, const struct mnode *map, const char *path, const char *key, int required)
{
	char p[512];
	join(p, sizeof(p), path, key);
	struct mnode *v = need(c, map, path, key, required);
	EXPECT(c, v, p, is_pos_int(v, NULL), "a positive integer");
}

static void check_flops(struct check *c, const struct mnode *f)
{
	if (f->kind != MN_MAP) {
		EXPECT(c, f, "FLOPs per cycle", 0, "a mapping {SP: {...}, DP: {...}}");
		return;
	}
	for (size_t i = 0; i < f->n; i++) {
		char p[512];
		snprintf(p, sizeof(p), "FLOPs per cycle.%s", f->keys[i]);
		const struct mnode *m = f->vals[i];
		if (m->kind != MN_MAP) {
			EXPECT(c, m, p, 0, "a mapping {total, ADD, MUL, FMA}");
			continue;
		}
		for (size_t j = 0; j < m->n; j++) {
			char q[600];
			snprintf(q, sizeof(q), "%s.%s", p, m->keys[j]);
			EXPECT(c, m->vals[j], q, is_number(m->vals[j], NULL) && strtod(m->vals[j]->text, NULL) >= 0,
			       "a number of FLOPs per cycle >= 0");
		}
	}
}

static void check_level(struct check *c, const struct mnode *lv, int i, int last)
{
	char path[64], p[512];
	snprintf(path, sizeof(path), "memory hierarchy[%d]", i);
	if (lv->kind != MN_MAP) {
		EXPECT(c, lv, path, 0, "a mapping (level: L1, cache per group: {...}, ...)");
		return;
	}
	struct mnode *name = need(c, lv, path, "level", 1);
	join(p, sizeof(p), path, "level");
	EXPECT(c, name, p, is_string(name) && name->kind == MN_SCALAR, "a level name such as L1 or MEM");
	struct mnode *cache = need(c, lv, path, "cache per group", 0);
	if (cache) {
		char cp[256];
		join(cp, sizeof(cp), path, "cache per group");
		if (cache->kind != MN_MAP) {
			EXPECT(c, cache, cp, 0, "a mapping {sets, ways, cl_size, ...}");
		} else {
			check_pos_int_key(c, cache, cp, "sets", 1);
			check_pos_int_key(c, cache, cp, "ways", 1);
			check_pos_int_key(c, cache, cp, "cl_size", 1);
			static const char *const bools[] = { "write_allocate", "write_back" };
			for (int b = 0; b < 2; b++) {
				struct mnode *v = need(c, cache, cp, bools[b], 0);
				join(p, sizeof(p), cp, bools[b]);
				EXPECT(c, v, p, is_bool(v), "true or false");
			}
			static const char *const strs[] = { "replacement_policy", "load_from", "store_to", "victims_to" };
			for (int s = 0; s < 4; s++) {
				struct mnode *v = need(c, cache, cp, strs[s], 0);
				join(p, sizeof(p), cp, strs[s]);
				EXPECT(c, v, p, v->kind == MN_SCALAR, s ? "a level name or ~" : "a policy name such as LRU");
			}
		}
	} else if (!last) {
		problem(c, lv->line, path, "missing key 'cache per group' (only the last level, memory, may omit it)");
	}
	check_pos_int_key(c, lv, path, "groups", 0);
	check_pos_int_key(c, lv, path, "cores per group", 0);
	check_pos_int_key(c, lv, path, "threads per group", 0);
	struct mnode *size = need(c, lv, path, "size per group", 0);
	join(p, sizeof(p), path, "size per group");
	EXPECT(c, size, p, mnode_is_null(size) || is_quantity(size, "B", 1, NULL), "a size such as 32.00 kB");
	struct mnode *up = need(c, lv, path, "upstream throughput", 0);
	join(p, sizeof(p), path, "upstream throughput");
	EXPECT(c, up, p, up->kind == MN_SEQ && up->n >= 1 && up->vals[0]->kind == MN_SCALAR,
	       "a list [rate such as 32 B/cy, half-duplex|full-duplex]");
	if (up && up->kind == MN_SEQ && up->n >= 2 && up->vals[1]->kind == MN_SCALAR) {
		const char *d = up->vals[1]->text;
		join(p, sizeof(p), path, "upstream throughput[1]");
		EXPECT(c, up->vals[1], p, !strcmp(d, "half-duplex") || !strcmp(d, "full-duplex"), "half-duplex or full-duplex");
	}
	if (up && up->kind == MN_SEQ && up->n >= 1 && up->vals[0]->kind == MN_SCALAR && isdigit((unsigned char)up->vals[0]->text[0])) {
		join(p, sizeof(p), path, "upstream throughput[0]");
		EXPECT(c, up->vals[0], p, is_quantity(up->vals[0], "B/", 1, NULL), "a positive rate such as 32 B/cy");
	}
	struct mnode *ov = need(c, lv, path, "transfers overlap", 0);
	join(p, sizeof(p), path, "transfers overlap");
	EXPECT(c, ov, p, is_bool(ov), "true or false");
}

static void check_streams(struct check *c, const struct mnode *s, const char *path)
{
	if (s->kind != MN_MAP) {
		EXPECT(c, s, path, 0, "a mapping {bytes: 8.00 B, streams: 1}");
		return;
	}
	struct mnode *b = need(c, s, path, "bytes", 1), *n = need(c, s, path, "streams", 1);
	char p[512];
	join(p, sizeof(p), path, "bytes");
	EXPECT(c, b, p, is_quantity(b, "B", 0, NULL), "a size such as 8.00 B");
	join(p, sizeof(p), path, "streams");
	EXPECT(c, n, p, is_number(n, NULL) && strtod(n->text, NULL) >= 0 && strtod(n->text, NULL) == floor(strtod(n->text, NULL)),
	       "a whole number of streams >= 0");
}

static void check_benchmarks(struct check *c, const struct mnode *b)
{
	if (b->kind != MN_MAP) {
		EXPECT(c, b, "benchmarks", 0, "a mapping {kernels, measurements}");
		return;
	}
	struct mnode *k = need(c, b, "benchmarks", "kernels", 0);
	if (k && k->kind != MN_MAP)
		EXPECT(c, k, "benchmarks.kernels", 0, "a mapping of kernels");
	for (size_t i = 0; k && k->kind == MN_MAP && i < k->n; i++) {
		char p[512], q[600];
		snprintf(p, sizeof(p), "benchmarks.kernels.%s", k->keys[i]);
		const struct mnode *kv = k->vals[i];
		if (kv->kind != MN_MAP) {
			EXPECT(c, kv, p, 0, "a mapping {FLOPs per iteration, read streams, ...}");
			continue;
		}
		struct mnode *f = need(c, kv, p, "FLOPs per iteration", 0);
		snprintf(q, sizeof(q), "%s.FLOPs per iteration", p);
		EXPECT(c, f, q, is_number(f, NULL) && strtod(f->text, NULL) >= 0, "a number >= 0");
		static const char *const st[] = { "read streams", "write streams", "read+write streams" };
		for (int s = 0; s < 3; s++) {
			struct mnode *sv = need(c, kv, p, st[s], 0);
			snprintf(q, sizeof(q), "%s.%s", p, st[s]);
			if (sv)
				check_streams(c, sv, q);
		}
	}
	struct mnode *m = need(c, b, "benchmarks", "measurements", 0);
	if (m && m->kind != MN_MAP)
		EXPECT(c, m, "benchmarks.measurements", 0, "a mapping of levels");
	for (size_t i = 0; m && m->kind == MN_MAP && i < m->n; i++) {
		const struct mnode *lv = m->vals[i];
		char p[512];
		snprintf(p, sizeof(p), "benchmarks.measurements.%s", m->keys[i]);
		if (lv->kind != MN_MAP) {
			EXPECT(c, lv, p, 0, "a mapping of threads per core");
			continue;
		}
		for (size_t j = 0; j < lv->n; j++) {
			char q[600], r[700];
			snprintf(q, sizeof(q), "%s.%s", p, lv->keys[j]);
			const struct mnode *run = lv->vals[j];
			if (run->kind != MN_MAP) {
				EXPECT(c, run, q, 0, "a mapping {cores, results, ...}");
				continue;
			}
			struct mnode *res = need(c, run, q, "results", 1);
			snprintf(r, sizeof(r), "%s.results", q);
			if (res && res->kind != MN_MAP)
				EXPECT(c, res, r, 0, "a mapping kernel: [bandwidths]");
			for (size_t x = 0; res && res->kind == MN_MAP && x < res->n; x++) {
				char s[800];
				snprintf(s, sizeof(s), "%s.%s", r, res->keys[x]);
				const struct mnode *l = res->vals[x];
				if (l->kind != MN_SEQ) {
					EXPECT(c, l, s, 0, "a list of bandwidths such as [41.3 GB/s, ...]");
					continue;
				}
				for (size_t y = 0; y < l->n; y++) {
					char e[830];
					snprintf(e, sizeof(e), "%s[%zu]", s, y);
					EXPECT(c, l->vals[y], e, is_quantity(l->vals[y], "B/s", 0, NULL), "a bandwidth such as 41.3 GB/s");
				}
			}
		}
	}
}

int machine_check(const struct mtree *t, const char *name, char **report)
{
	char *buf = NULL;
	size_t len = 0;
	struct check c = { .name = name, .out = open_memstream(&buf, &len) };
	*report = NULL;
	if (!c.out)
		return -1;
	const struct mnode *r = t->root;
	struct mnode *v;
	v = need(&c, r, "(top)", "model name", 1);
	EXPECT(&c, v, "model name", is_string(v), "a name");
	v = need(&c, r, "(top)", "clock", 1);
	EXPECT(&c, v, "clock", is_quantity(v, "Hz", 1, NULL), "a positive frequency such as 2.4 GHz");
	check_pos_int_key(&c, r, "", "sockets", 0);
	check_pos_int_key(&c, r, "", "cores per socket", 1);
	check_pos_int_key(&c, r, "", "threads per core", 0);
	v = need(&c, r, "(top)", "cacheline size", 0);
	EXPECT(&c, v, "cacheline size", is_quantity(v, "B", 1, NULL), "a positive size such as 64 B");
	if ((v = need(&c, r, "(top)", "FLOPs per cycle", 0)))
		check_flops(&c, v);
	static const char *const lists[] = { "compiler", "in-core model" };
	for (int i = 0; i < 2; i++) {
		v = need(&c, r, "(top)", lists[i], 0);
		EXPECT(&c, v, lists[i], v->kind != MN_SCALAR, "a mapping or an !!omap list");
	}
	v = need(&c, r, "(top)", "memory hierarchy", 1);
	if (v && (v->kind != MN_SEQ || v->n == 0)) {
		EXPECT(&c, v, "memory hierarchy", 0, "a non-empty list of levels");
	} else if (v) {
		for (size_t i = 0; i < v->n; i++)
			check_level(&c, v->vals[i], (int)i, i + 1 == v->n);
	}
	if ((v = need(&c, r, "(top)", "benchmarks", 0)))
		check_benchmarks(&c, v);
	v = need(&c, r, "(top)", "archscope", 0);
	EXPECT(&c, v, "archscope", v->kind == MN_MAP, "a mapping of probe results");
	fclose(c.out);
	if (c.count == 0) {
		free(buf);
		buf = NULL;
	}
	*report = buf;
	return c.count;
}

/* --- typed reading ----------------------------------------------------------------------- */

static long get_long(const struct mnode *map, const char *key)
{
	long v = 0;
	return is_pos_int(mnode_get(map, key), &v) ? v : 0;
}

static int bool_value(const struct mnode *n)
{
	return !strcasecmp(n->text, "true") || !strcasecmp(n->text, "yes") || !strcasecmp(n->text, "on");
}

static void read_streams(const struct mnode *s, double *bytes, int *streams)
{
	double v = 0;
	if (is_quantity(mnode_get(s, "bytes"), "B", 0, &v))
		*bytes = v;
	if (is_number(mnode_get(s, "streams"), &v))
		*streams = (int)v;
}

static void read_benchmarks(const struct mnode *b, struct machine *m)
{
	const struct mnode *k = mnode_get(b, "kernels");
	for (size_t i = 0; k && k->kind == MN_MAP && i < k->n && m->nkernels < MACHINE_MAX_KERNELS; i++) {
		struct machine_bench_kernel *K = &m->kernel[m->nkernels++];
		const struct mnode *kv = k->vals[i];
		snprintf(K->name, sizeof(K->name), "%s", k->keys[i]);
		is_number(mnode_get(kv, "FLOPs per iteration"), &K->flops_per_it);
		read_streams(mnode_get(kv, "read streams"), &K->read_bytes, &K->read_streams);
		read_streams(mnode_get(kv, "write streams"), &K->write_bytes, &K->write_streams);
		read_streams(mnode_get(kv, "read+write streams"), &K->rw_bytes, &K->rw_streams);
	}
	const struct mnode *ms = mnode_get(b, "measurements");
	for (size_t i = 0; ms && ms->kind == MN_MAP && i < ms->n && m->nbench < MACHINE_MAX_LEVELS; i++) {
		/* one thread per core: the key 1 */
		const struct mnode *run = mnode_get(ms->vals[i], "1");
		if (!run || run->kind != MN_MAP)
			continue;
		struct machine_bench_level *B = &m->bench[m->nbench++];
		snprintf(B->level, sizeof(B->level), "%s", ms->keys[i]);
		const struct mnode *cores = mnode_get(run, "cores");
		for (size_t c = 0; cores && cores->kind == MN_SEQ && c < cores->n && B->ncores < MACHINE_MAX_CORES; c++) {
			double v = 0;
			is_number(cores->vals[c], &v);
			B->cores[B->ncores++] = (int)v;
		}
		const struct mnode *res = mnode_get(run, "results");
		for (size_t x = 0; res && res->kind == MN_MAP && x < res->n; x++) {
			int ki = -1;
			for (int j = 0; j < m->nkernels; j++)
				if (!strcmp(m->kernel[j].name, res->keys[x]))
					ki = j;
			const struct mnode *l = res->vals[x];
			if (ki < 0 || l->kind != MN_SEQ)
				continue;
			for (size_t y = 0; y < l->n && y < (size_t)B->ncores; y++)
				is_quantity(l->vals[y], "B/s", 0, &B->bw[ki][y]);
		}
	}
}

void machine_read(const struct mtree *t, struct machine *m)
{
	*m = (struct machine){ 0 };
	const struct mnode *r = t->root, *v;
	if ((v = mnode_get(r, "model name")) && v->kind == MN_SCALAR)
		snprintf(m->model_name, sizeof(m->model_name), "%s", v->text);
	is_quantity(mnode_get(r, "clock"), "Hz", 1, &m->clock_hz);
	m->sockets = get_long(r, "sockets");
	m->cores_per_socket = get_long(r, "cores per socket");
	m->threads_per_core = get_long(r, "threads per core");
	is_quantity(mnode_get(r, "cacheline size"), "B", 1, &m->cacheline_bytes);
	static const char *const fk[] = { "total", "ADD", "MUL", "FMA" };
	const struct mnode *f = mnode_get(r, "FLOPs per cycle");
	for (int i = 0; i < 4; i++) {
		is_number(mnode_get(mnode_get(f, "DP"), fk[i]), &m->flops_dp[i]);
		is_number(mnode_get(mnode_get(f, "SP"), fk[i]), &m->flops_sp[i]);
	}
	const struct mnode *h = mnode_get(r, "memory hierarchy");
	for (size_t i = 0; h && h->kind == MN_SEQ && i < h->n && m->nlevels < MACHINE_MAX_LEVELS; i++) {
		const struct mnode *lv = h->vals[i];
		struct machine_level *L = &m->level[m->nlevels++];
		if ((v = mnode_get(lv, "level")) && v->kind == MN_SCALAR)
			snprintf(L->name, sizeof(L->name), "%s", v->text);
		const struct mnode *c = mnode_get(lv, "cache per group");
		if (c && c->kind == MN_MAP) {
			L->has_cache = 1;
			L->sets = get_long(c, "sets");
			L->ways = get_long(c, "ways");
			L->cl_size = get_long(c, "cl_size");
			L->size_bytes = (double)L->sets * (double)L->ways * (double)L->cl_size;
		}
		if (!(L->size_bytes > 0))
			is_quantity(mnode_get(lv, "size per group"), "B", 1, &L->size_bytes);
		L->groups = get_long(lv, "groups");
		L->cores_per_group = get_long(lv, "cores per group");
		L->threads_per_group = get_long(lv, "threads per group");
		L->write_allocate = L->write_back = 1;
		if (c && c->kind == MN_MAP) {
			const struct mnode *x;
			if ((x = mnode_get(c, "write_allocate")) && is_bool(x))
				L->write_allocate = bool_value(x);
			if ((x = mnode_get(c, "write_back")) && is_bool(x))
				L->write_back = bool_value(x);
			if ((x = mnode_get(c, "replacement_policy")) && x->kind == MN_SCALAR) {
				if (!strcasecmp(x->text, "FIFO"))
					L->replacement = REPL_FIFO;
				else if (!strcasecmp(x->text, "RR") || !strcasecmp(x->text, "random"))
					L->replacement = REPL_RANDOM;
			}
			if ((x = mnode_get(c, "inclusion")) && x->kind == MN_SCALAR)
				L->inclusive = !strcasecmp(x->text, "inclusive");
			static const char *const names[] = { "load_from", "store_to", "victims_to" };
			char *dst[] = { L->load_from, L->store_to, L->victims_to };
			for (int k = 0; k < 3; k++)
				if ((x = mnode_get(c, names[k])) && x->kind == MN_SCALAR && !mnode_is_null(x))
					snprintf(dst[k], sizeof(L->load_from), "%s", x->text);
		}
		const struct mnode *up = mnode_get(lv, "upstream throughput");
		if (up && up->kind == MN_SEQ && up->n >= 1 && up->vals[0]->kind == MN_SCALAR) {
			snprintf(L->upstream_text, sizeof(L->upstream_text), "%s", up->vals[0]->text);
			double bpc;
			char u[32];
			if (machine_quantity(up->vals[0]->text, &bpc, u, sizeof(u)) == 0 && !strcmp(u, "B/cy"))
				L->upstream_bytes_per_cy = bpc;
			L->upstream_is_memory = !strcmp(up->vals[0]->text, "full socket memory bandwidth");
			if (up->n >= 2 && up->vals[1]->kind == MN_SCALAR)
				L->upstream_full_duplex = !strcmp(up->vals[1]->text, "full-duplex");
		}
	}
	m->cores_per_numa_domain = get_long(r, "cores per NUMA domain");
	read_benchmarks(mnode_get(r, "benchmarks"), m);
	const struct mnode *as = mnode_get(r, "archscope");
	m->probed = as && as->kind == MN_MAP;
}
