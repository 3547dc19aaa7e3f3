/* The semantic checks of a machine file: the keys and types a model needs, every problem one
 * line naming the line and the path ("memory hierarchy[1].cache per group.ways"); see file.h. */
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
#include <yaml.h>

#include "common/buffer.h"
#include "machine/node.h"
#include "machine/probes.h"

struct check {
	const char *what; /* "machine file", or the input a section comes from ("saved results") */
	const char *name;
	FILE *out;
	int count;
};

static void problem(struct check *c, int line, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void problem(struct check *c, int line, const char *path, const char *fmt, ...)
{
	va_list ap;
	/* a tree built from JSON has no lines (0): only the path names the place */
	if (line > 0)
		fprintf(c->out, "%s '%s': line %d: %s: ", c->what, c->name, line, path);
	else
		fprintf(c->out, "%s '%s': %s: ", c->what, c->name, path);
	va_start(ap, fmt);
	vfprintf(c->out, fmt, ap);
	va_end(ap);
	fputc('\n', c->out);
	c->count++;
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
		problem(c, map->line, path, "incomplete: missing key '%s'", key);
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
	EXPECT(c, v, p, machine_node_pos_int(v, NULL), "a positive integer");
}

/* 1 if n is a node of `kind`, else 0 and a problem naming the `shape` expected at path. */
static int expect_kind(struct check *c, const struct mnode *n, const char *path, enum mnode_kind kind, const char *shape)
{
	if (n->kind == kind)
		return 1;
	EXPECT(c, n, path, 0, shape);
	return 0;
}

typedef void check_fn(struct check *c, const struct mnode *n, const char *path);

/* A mapping or a list (kind) at path, each of its values checked by each at its own path
 * ("path.key", "path[i]"); another node is a problem naming the `shape` expected. */
static void check_each(struct check *c, const struct mnode *n, const char *path, enum mnode_kind kind, const char *shape,
		       check_fn *each)
{
	if (!expect_kind(c, n, path, kind, shape))
		return;
	for (size_t i = 0; i < n->n; i++) {
		char p[830];
		if (kind == MN_MAP)
			snprintf(p, sizeof(p), "%s.%s", path, n->keys[i]);
		else
			snprintf(p, sizeof(p), "%s[%zu]", path, i);
		each(c, n->vals[i], p);
	}
}

static void check_flops_value(struct check *c, const struct mnode *v, const char *path)
{
	double x;
	EXPECT(c, v, path, machine_node_number(v, &x) && x >= 0, "a number of FLOPs per cycle >= 0");
}

static void check_flops_precision(struct check *c, const struct mnode *m, const char *path)
{
	check_each(c, m, path, MN_MAP, "a mapping {total, ADD, MUL, FMA}", check_flops_value);
}

/* A level's name and its cache size per group in bytes ("size per group", else sets x ways x
 * cl_size; 0 when neither is readable), for the checks across levels. */
static double level_bytes(const struct mnode *lv)
{
	double v;
	if (machine_node_quantity(mnode_get(lv, "size per group"), "B", 1, &v))
		return v;
	const struct mnode *cache = mnode_get(lv, "cache per group");
	long s, w, l;
	if (cache && machine_node_pos_int(mnode_get(cache, "sets"), &s) && machine_node_pos_int(mnode_get(cache, "ways"), &w) &&
	    machine_node_pos_int(mnode_get(cache, "cl_size"), &l))
		return (double)s * (double)w * (double)l;
	return 0;
}

/* Across the levels: cache sizes that never shrink from one level to the next, and load_from,
 * store_to and victims_to naming a level of this file. */
static void check_levels_across(struct check *c, const struct mnode *h)
{
	double prev = 0;
	const char *prev_name = NULL;
	for (size_t i = 0; i < h->n; i++) {
		const struct mnode *lv = h->vals[i];
		if (lv->kind != MN_MAP)
			return;
		const struct mnode *name = mnode_get(lv, "level");
		const char *nm = name && name->kind == MN_SCALAR ? name->text : "?";
		char path[64];
		snprintf(path, sizeof(path), "memory hierarchy[%zu]", i);
		double b = mnode_get(lv, "cache per group") ? level_bytes(lv) : 0;
		char bs[32], ps[32];
		if (b > 0 && prev > 0 && b < prev)
			problem(c, lv->line, path, "%s holds %s per group, less than %s above it (%s): sizes must not "
				"shrink with the level", nm, buffer_format_size((size_t)b, bs, sizeof(bs)), prev_name,
				buffer_format_size((size_t)prev, ps, sizeof(ps)));
		if (b > 0) {
			prev = b;
			prev_name = nm;
		}
		const struct mnode *cache = mnode_get(lv, "cache per group");
		if (cache && i + 1 == h->n)
			problem(c, lv->line, path, "incomplete: the hierarchy ends with cache %s; the last level, memory (no "
				"'cache per group'), is missing", nm);
		static const char *const refs[] = { "load_from", "store_to", "victims_to" };
		for (int r = 0; cache && cache->kind == MN_MAP && r < 3; r++) {
			const struct mnode *v = mnode_get(cache, refs[r]);
			if (!v || v->kind != MN_SCALAR || mnode_is_null(v))
				continue;
			int found = 0;
			for (size_t j = 0; j < h->n && !found; j++) {
				const struct mnode *n = mnode_get(h->vals[j], "level");
				found = j != i && n && n->kind == MN_SCALAR && !strcmp(n->text, v->text);
			}
			if (!found) {
				char p[128];
				snprintf(p, sizeof(p), "%s.cache per group.%s", path, refs[r]);
				problem(c, v->line, p, "'%s' is no other level of this file", v->text);
			}
		}
	}
}

/* A quantity's value with its decimal prefix read as binary ("32.00 kB" -> 32768 B), or the value
 * itself when it has none. */
static double binary_reading(const char *text, double v)
{
	static const struct { const char *p; double f; } pre[] = { { "k", 1.024 }, { "K", 1.024 }, { "M", 1.048576 },
								     { "G", 1.073741824 }, { "T", 1.099511627776 } };
	const char *u = text;
	while (*u && (isdigit((unsigned char)*u) || *u == '.' || *u == '+' || *u == '-' || *u == 'e' || *u == 'E'))
		u++;
	while (*u == ' ')
		u++;
	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (!strncmp(u, pre[i].p, 1) && u[1] == 'B')
			return v * pre[i].f;
	return v;
}

/* The sizes of one cache level: a power-of-two line, a bounded size (the ways are bounded by it: a
 * fully associative cache, as 'probe -o' writes an unmeasured one, has size / line ways), and
 * "size per group"
 * in agreement with sets x ways x cl_size. */
static void check_cache_size(struct check *c, const struct mnode *lv, const char *path, int first)
{
	const struct mnode *cache = mnode_get(lv, "cache per group"), *size = mnode_get(lv, "size per group");
	long s = 0, w = 0, l = 0;
	char p[512], a[32], b[32];
	int have = cache && machine_node_pos_int(mnode_get(cache, "sets"), &s) && machine_node_pos_int(mnode_get(cache, "ways"), &w) &&
		   machine_node_pos_int(mnode_get(cache, "cl_size"), &l);
	if (cache && machine_node_pos_int(mnode_get(cache, "cl_size"), &l) &&
	    (l < MACHINE_MIN_LINE_BYTES || l > MACHINE_MAX_LINE_BYTES || (l & (l - 1)))) {
		snprintf(p, sizeof(p), "%s.cache per group.cl_size", path);
		problem(c, mnode_get(cache, "cl_size")->line, p, "a line of %ld B: expected a power of two from %d to %d B", l,
			MACHINE_MIN_LINE_BYTES, MACHINE_MAX_LINE_BYTES);
	}
	double max = first ? MACHINE_MAX_L1_BYTES : MACHINE_MAX_CACHE_BYTES, bytes = have ? (double)s * (double)w * (double)l : 0;
	if (have && bytes > max) {
		snprintf(p, sizeof(p), "%s.cache per group", path);
		problem(c, cache->line, p, "sets %ld x ways %ld x cl_size %ld = %s: more than %s, the most a %s cache may hold here",
			s, w, l, buffer_format_size((size_t)fmin(bytes, 1e19), a, sizeof(a)),
			buffer_format_size((size_t)max, b, sizeof(b)), first ? "first-level" : "");
	}
	double v;
	if (!size || !machine_node_quantity(size, "B", 1, &v))
		return;
	join(p, sizeof(p), path, "size per group");
	if (v > max) {
		problem(c, size->line, p, "%s: more than %s, the most a %scache may hold here", size->text,
			buffer_format_size((size_t)max, b, sizeof(b)), first ? "first-level " : "");
		return;
	}
	if (!have || bytes > max)
		return;
	double bin = binary_reading(size->text, v);
	if (fabs(v - bytes) > 0.01 * bytes && fabs(bin - bytes) > 0.01 * bytes)
		problem(c, size->line, p, "%s contradicts cache per group: sets %ld x ways %ld x cl_size %ld = %.0f B (%s)",
			size->text, s, w, l, bytes, buffer_format_size((size_t)bytes, a, sizeof(a)));
}

static void check_level(struct check *c, const struct mnode *lv, int i, int last)
{
	char path[64], p[512];
	snprintf(path, sizeof(path), "memory hierarchy[%d]", i);
	if (!expect_kind(c, lv, path, MN_MAP, "a mapping (level: L1, cache per group: {...}, ...)"))
		return;
	struct mnode *name = need(c, lv, path, "level", 1);
	join(p, sizeof(p), path, "level");
	EXPECT(c, name, p, machine_node_string(name) && name->kind == MN_SCALAR, "a level name such as L1 or MEM");
	struct mnode *cache = need(c, lv, path, "cache per group", 0);
	if (cache) {
		char cp[256];
		join(cp, sizeof(cp), path, "cache per group");
		if (expect_kind(c, cache, cp, MN_MAP, "a mapping {sets, ways, cl_size, ...}")) {
			check_pos_int_key(c, cache, cp, "sets", 1);
			check_pos_int_key(c, cache, cp, "ways", 1);
			check_pos_int_key(c, cache, cp, "cl_size", 1);
			static const char *const bools[] = { "write_allocate", "write_back" };
			for (int b = 0; b < 2; b++) {
				struct mnode *v = need(c, cache, cp, bools[b], 0);
				join(p, sizeof(p), cp, bools[b]);
				EXPECT(c, v, p, machine_node_bool(v), "true or false");
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
	check_cache_size(c, lv, path, i == 0);
	check_pos_int_key(c, lv, path, "groups", 0);
	check_pos_int_key(c, lv, path, "cores per group", 0);
	check_pos_int_key(c, lv, path, "threads per group", 0);
	struct mnode *size = need(c, lv, path, "size per group", 0);
	join(p, sizeof(p), path, "size per group");
	EXPECT(c, size, p, mnode_is_null(size) || machine_node_quantity(size, "B", 1, NULL), "a size such as 32.00 kB");
	struct mnode *up = need(c, lv, path, "upstream throughput", 0);
	join(p, sizeof(p), path, "upstream throughput");
	EXPECT(c, up, p, up->kind == MN_SEQ && up->n >= 1 && up->vals[0]->kind == MN_SCALAR,
	       "a list [rate such as 32 B/cy, half-duplex|full-duplex]");
	if (up && up->kind == MN_SEQ && up->n >= 2 && up->vals[1]->kind == MN_SCALAR) {
		const char *d = up->vals[1]->text;
		join(p, sizeof(p), path, "upstream throughput[1]");
		EXPECT(c, up->vals[1], p, !strcmp(d, "half-duplex") || !strcmp(d, "full-duplex"), "half-duplex or full-duplex");
	}
	if (!up && i > 0)
		problem(c, lv->line, path, "incomplete: missing key 'upstream throughput' (the ECM model's transfer rate)");
	if (up && up->kind == MN_SEQ && up->n >= 1 && up->vals[0]->kind == MN_SCALAR && up->vals[0]->text[0] &&
	    strchr("0123456789+-.", up->vals[0]->text[0])) {
		join(p, sizeof(p), path, "upstream throughput[0]");
		EXPECT(c, up->vals[0], p, machine_node_quantity(up->vals[0], "B/", 1, NULL), "a positive rate such as 32 B/cy");
	}
	struct mnode *ov = need(c, lv, path, "transfers overlap", 0);
	join(p, sizeof(p), path, "transfers overlap");
	EXPECT(c, ov, p, machine_node_bool(ov), "true or false");
}

static void check_streams(struct check *c, const struct mnode *s, const char *path)
{
	if (!expect_kind(c, s, path, MN_MAP, "a mapping {bytes: 8.00 B, streams: 1}"))
		return;
	struct mnode *b = need(c, s, path, "bytes", 1), *n = need(c, s, path, "streams", 1);
	char p[512];
	join(p, sizeof(p), path, "bytes");
	EXPECT(c, b, p, machine_node_quantity(b, "B", 0, NULL), "a size such as 8.00 B");
	join(p, sizeof(p), path, "streams");
	double x;
	EXPECT(c, n, p, machine_node_number(n, &x) && x >= 0 && x == floor(x), "a whole number of streams >= 0");
}

static void check_kernel(struct check *c, const struct mnode *kv, const char *p)
{
	if (!expect_kind(c, kv, p, MN_MAP, "a mapping {FLOPs per iteration, read streams, ...}"))
		return;
	char q[900];
	struct mnode *f = need(c, kv, p, "FLOPs per iteration", 0);
	join(q, sizeof(q), p, "FLOPs per iteration");
	double x;
	EXPECT(c, f, q, machine_node_number(f, &x) && x >= 0, "a number >= 0");
	static const char *const st[] = { "read streams", "write streams", "read+write streams" };
	for (int s = 0; s < 3; s++) {
		struct mnode *sv = need(c, kv, p, st[s], 0);
		join(q, sizeof(q), p, st[s]);
		if (sv)
			check_streams(c, sv, q);
	}
}

static void check_bandwidth(struct check *c, const struct mnode *v, const char *path)
{
	EXPECT(c, v, path, machine_node_quantity(v, "B/s", 0, NULL), "a bandwidth such as 41.3 GB/s");
}

static void check_bandwidths(struct check *c, const struct mnode *l, const char *path)
{
	check_each(c, l, path, MN_SEQ, "a list of bandwidths such as [41.3 GB/s, ...]", check_bandwidth);
}

/* benchmarks.measurements.LEVEL.THREADS: {cores, results: {kernel: [bandwidths]}, ...} */
static void check_run(struct check *c, const struct mnode *run, const char *q)
{
	if (!expect_kind(c, run, q, MN_MAP, "a mapping {cores, results, ...}"))
		return;
	struct mnode *res = need(c, run, q, "results", 1);
	if (res) {
		char r[900];
		join(r, sizeof(r), q, "results");
		check_each(c, res, r, MN_MAP, "a mapping kernel: [bandwidths]", check_bandwidths);
	}
}

static void check_measured_level(struct check *c, const struct mnode *lv, const char *p)
{
	check_each(c, lv, p, MN_MAP, "a mapping of threads per core", check_run);
}

static void check_benchmarks(struct check *c, const struct mnode *b)
{
	if (!expect_kind(c, b, "benchmarks", MN_MAP, "a mapping {kernels, measurements}"))
		return;
	struct mnode *k = need(c, b, "benchmarks", "kernels", 0);
	if (k)
		check_each(c, k, "benchmarks.kernels", MN_MAP, "a mapping of kernels", check_kernel);
	struct mnode *m = need(c, b, "benchmarks", "measurements", 0);
	if (m)
		check_each(c, m, "benchmarks.measurements", MN_MAP, "a mapping of levels", check_measured_level);
}

/* The archscope section, written whole by 'probe -o': what a file cut inside it lacks. Values
 * the writer leaves empty are written as ~, so a key with nothing after it is a cut. */
static void check_archscope_node(struct check *c, const struct mnode *n, const char *path, int depth, int probed)
{
	char p[700];
	if (depth > 64)
		return;
	if (n->kind == MN_SCALAR) {
		if (!n->text[0] && n->style == YAML_PLAIN_SCALAR_STYLE && !n->tag)
			problem(c, n->line, path, "no value: the file looks cut here ('probe -o' writes ~ for an empty value)");
		return;
	}
	if (n->kind == MN_MAP) {
		if (probed && mnode_get(n, "value")) { /* 'probe -o' writes all four */
			static const char *const keys[] = { "unit", "confidence", "method", "os_reported" };
			for (int k = 0; k < 4; k++)
				if (!mnode_get(n, keys[k]))
					problem(c, n->line, path, "incomplete answer: missing key '%s' (the file looks cut here)", keys[k]);
		}
		for (size_t i = 0; i < n->n; i++) {
			join(p, sizeof(p), path, n->keys[i]);
			check_archscope_node(c, n->vals[i], p, depth + 1, probed);
		}
		return;
	}
	/* a list of mappings: its last item has every key all the others share */
	if (n->n >= 2 && n->vals[n->n - 1]->kind == MN_MAP && n->vals[0]->kind == MN_MAP) {
		const struct mnode *last = n->vals[n->n - 1], *first = n->vals[0];
		for (size_t k = 0; k < first->n; k++) {
			int shared = 1;
			for (size_t i = 1; i + 1 < n->n && shared; i++)
				shared = n->vals[i]->kind == MN_MAP && mnode_get(n->vals[i], first->keys[k]);
			if (shared && !mnode_get(last, first->keys[k])) {
				snprintf(p, sizeof(p), "%s[%zu]", path, n->n - 1);
				problem(c, last->line, p, "incomplete: missing key '%s' that the items before it have (the file "
					"looks cut here)", first->keys[k]);
			}
		}
	}
	for (size_t i = 0; i < n->n; i++) {
		snprintf(p, sizeof(p), "%s[%zu]", path, i);
		check_archscope_node(c, n->vals[i], p, depth + 1, probed);
	}
}

/* The node of entry id under the file's archscope.probes (NULL: absent, or inside a table). */
static const struct mnode *probes_node(const struct mnode *probes, int id)
{
	if (id == MP_ROOT)
		return probes;
	const struct machine_probe_field *f = &machine_probe_fields[id];
	if (f->parent != MP_ROOT && machine_probe_fields[f->parent].kind == MP_TABLE)
		return NULL;
	const struct mnode *parent = probes_node(probes, f->parent);
	return parent && parent->kind == MN_MAP ? mnode_get(parent, f->key) : NULL;
}

/* 'probe -o' runs every probe and writes the table's MP_F_REQ entries, groups in the table's
 * order: a file cut between two groups lacks the later ones, one cut inside a group lacks a key.
 * An entry is looked for where its parent is an object in the file (c2c and its tree are ~ on a
 * machine of one CPU). */
static void check_probes_complete(struct check *c, const struct mnode *probes)
{
	for (int id = 0; id < MP_COUNT; id++) {
		const struct machine_probe_field *f = &machine_probe_fields[id];
		if (!(f->flags & MP_F_REQ))
			continue;
		const struct mnode *parent = f->parent == MP_ROOT ? probes : probes_node(probes, f->parent);
		if (!parent || parent->kind != MN_MAP || mnode_get(parent, f->key))
			continue;
		char path[256];
		if (f->parent == MP_ROOT) {
			problem(c, probes->line, "archscope.probes", "incomplete: no '%s' ('probe -o' writes every probe: the "
				"file looks cut)", f->key);
			return; /* the later ones are missing for the same reason */
		}
		machine_probes_path(f->parent, 1, path, sizeof(path));
		problem(c, parent->line, path, "incomplete: missing key '%s' (the file looks cut)", f->key);
	}
}

/* The answers read through the table (machine/probes.h) as model and tune read them: a value of
 * the wrong type (a number written "32abc") is a problem here rather than an answer they skip. */
static void check_probes_values(struct check *c, const struct mnode *probes)
{
	json_t *j = mnode_to_json(probes);
	struct machine_probes *p = malloc(sizeof(*p));
	struct as_error err = { 0 };
	if (j && p && machine_probes_from_json(j, p, &err) != 0 && err.code != -ENOMEM)
		problem(c, probes->line, "archscope.probes", "%s", err.msg);
	if (p)
		machine_probes_release(p);
	free(p);
	json_decref(j);
}

static void check_archscope(struct check *c, const struct mnode *as)
{
	if (as->kind != MN_MAP)
		return;
	/* written by 'probe -o' (it writes the seed), not by hand: whole, as it writes it */
	int probed = mnode_get(as, "seed") != NULL;
	struct mnode *v = need(c, as, "archscope", "version", probed);
	EXPECT(c, v, "archscope.version", machine_node_string(v) && v->kind == MN_SCALAR, "the version of archscope that wrote it");
	v = need(c, as, "archscope", "probes", 1); /* a section without its probes holds nothing: a cut one */
	EXPECT(c, v, "archscope.probes", v->kind == MN_MAP, "a mapping of probe results");
	if (probed && v && v->kind == MN_MAP)
		check_probes_complete(c, v);
	if (v && v->kind == MN_MAP)
		check_probes_values(c, v);
	check_archscope_node(c, as, "archscope", 0, probed);
}

/* The report of c (closed): NULL when there was no problem. */
static int check_end(struct check *c, char **buf, char **report)
{
	fclose(c->out); /* sets *buf, open_memstream's */
	if (c->count == 0) {
		free(*buf);
		*buf = NULL;
	}
	*report = *buf;
	return c->count;
}

int machine_check_benchmarks(const struct mnode *benchmarks, const char *what, const char *name, char **report)
{
	char *buf = NULL;
	size_t len = 0;
	struct check c = { .what = what, .name = name, .out = open_memstream(&buf, &len) };
	*report = NULL;
	if (!c.out)
		return -1;
	check_benchmarks(&c, benchmarks);
	return check_end(&c, &buf, report);
}

int machine_check(const struct mtree *t, const char *name, char **report)
{
	char *buf = NULL;
	size_t len = 0;
	struct check c = { .what = "machine file", .name = name, .out = open_memstream(&buf, &len) };
	*report = NULL;
	if (!c.out)
		return -1;
	const struct mnode *r = t->root;
	struct mnode *v;
	v = need(&c, r, "(top)", "model name", 1);
	EXPECT(&c, v, "model name", machine_node_string(v), "a name");
	v = need(&c, r, "(top)", MK_CLOCK, 1);
	double hz;
	EXPECT(&c, v, MK_CLOCK, machine_node_quantity(v, "Hz", 1, NULL), "a positive frequency such as 2.4 GHz");
	if (v && machine_node_quantity(v, "Hz", 1, &hz) && (hz < MACHINE_MIN_CLOCK_HZ || hz > MACHINE_MAX_CLOCK_HZ))
		problem(&c, v->line, MK_CLOCK, "%s is outside %.1f to %.0f GHz", v->text, MACHINE_MIN_CLOCK_HZ / 1e9,
			MACHINE_MAX_CLOCK_HZ / 1e9);
	check_pos_int_key(&c, r, "", "sockets", 0);
	check_pos_int_key(&c, r, "", MK_CORES_PER_SOCKET, 1);
	check_pos_int_key(&c, r, "", MK_THREADS_PER_CORE, 0);
	v = need(&c, r, "(top)", MK_CACHELINE, 0);
	EXPECT(&c, v, MK_CACHELINE, machine_node_quantity(v, "B", 1, NULL), "a positive size such as 64 B");
	if ((v = need(&c, r, "(top)", MK_FLOPS, 1))) {
		check_each(&c, v, MK_FLOPS, MN_MAP, "a mapping {SP: {...}, DP: {...}}", check_flops_precision);
		struct mnode *dp = mnode_get(v, "DP");
		if (v->kind == MN_MAP && (!dp || !mnode_get(dp, "total")))
			problem(&c, v->line, MK_FLOPS, "incomplete: missing 'DP.total' (the Roofline model's peak)");
	}
	static const char *const lists[] = { "compiler", "in-core model" };
	for (int i = 0; i < 2; i++) {
		v = need(&c, r, "(top)", lists[i], 0);
		EXPECT(&c, v, lists[i], v->kind != MN_SCALAR, "a mapping or an !!omap list");
	}
	v = need(&c, r, "(top)", MK_HIERARCHY, 1);
	if (v && (v->kind != MN_SEQ || v->n == 0)) {
		EXPECT(&c, v, MK_HIERARCHY, 0, "a non-empty list of levels");
	} else if (v) {
		int caches = 0;
		for (size_t i = 0; i < v->n; i++) {
			check_level(&c, v->vals[i], (int)i, i + 1 == v->n);
			caches += mnode_get(v->vals[i], "cache per group") != NULL;
		}
		check_levels_across(&c, v);
		if (!caches && !mnode_get(r, MK_CACHELINE))
			problem(&c, v->line, MK_CACHELINE, "incomplete: missing (and no cache level gives a cl_size): the models count cache lines");
	}
	if ((v = need(&c, r, "(top)", "benchmarks", 0)))
		check_benchmarks(&c, v);
	v = need(&c, r, "(top)", "archscope", 0);
	if (v && v->kind == MN_SCALAR && !v->text[0] && v->style == YAML_PLAIN_SCALAR_STYLE)
		problem(&c, v->line, "archscope", "no value: the file looks cut here (a mapping of probe results was expected)");
	else
		EXPECT(&c, v, "archscope", v->kind == MN_MAP, "a mapping of probe results");
	if (v)
		check_archscope(&c, v);
	struct mnode *inc = v ? mnode_get(v, "incomplete") : NULL;
	if (inc && machine_node_bool(inc) && (inc->text[0] == 't' || inc->text[0] == 'T'))
		problem(&c, inc->line, "archscope.incomplete", "incomplete: written by an interrupted 'probe -o'");
	return check_end(&c, &buf, report);
}
