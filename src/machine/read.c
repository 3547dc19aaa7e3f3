/* The typed values of a checked machine file (struct machine); see file.h. */
#include "machine/file.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "machine/node.h"
#include "machine/probes.h"

/* A text into a fixed field, cut (when too long) before a UTF-8 sequence rather than inside it,
 * so what is written back stays UTF-8. */
static void copy_text(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);
	if (n >= len) {
		n = len - 1;
		while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
			n--;
	}
	memcpy(dst, src, n);
	dst[n] = 0;
}

/* A count written as a number: whole part, within int's range. */
static int int_of(double v)
{
	return v >= INT_MAX ? INT_MAX : v <= INT_MIN ? INT_MIN : (int)v;
}

static long get_long(const struct mnode *map, const char *key)
{
	long v = 0;
	return machine_node_pos_int(mnode_get(map, key), &v) ? v : 0;
}

static int bool_value(const struct mnode *n)
{
	return !strcasecmp(n->text, "true") || !strcasecmp(n->text, "yes") || !strcasecmp(n->text, "on");
}

static void read_streams(const struct mnode *s, double *bytes, int *streams)
{
	double v = 0;
	if (machine_node_quantity(mnode_get(s, "bytes"), "B", 0, &v))
		*bytes = v;
	if (machine_node_number(mnode_get(s, "streams"), &v))
		*streams = int_of(v);
}

/* One size per core count ("size per core: [24.58 kB, ...]"). */
static void read_sizes(const struct mnode *l, int n, double *bytes)
{
	for (size_t i = 0; l && l->kind == MN_SEQ && i < l->n && i < (size_t)n; i++)
		machine_node_quantity(l->vals[i], "B", 0, &bytes[i]);
}

/* The scalar entries of one mapping, appended. */
static void read_pairs(const struct mnode *m, struct machine_setting *s, int *count)
{
	for (size_t j = 0; m && m->kind == MN_MAP && j < m->n && *count < MACHINE_MAX_SETTINGS; j++) {
		if (m->vals[j]->kind != MN_SCALAR)
			continue;
		copy_text(s[*count].name, sizeof(s->name), m->keys[j]);
		copy_text(s[*count].value, sizeof(s->value), m->vals[j]->text);
		(*count)++;
	}
}

/* "compiler" and "in-core model": a mapping {gcc: flags}, or Kerncraft's !!omap, a list of
 * one-key mappings. Entries whose value is no scalar are left out. */
static void read_settings(const struct mnode *n, struct machine_setting *s, int *count)
{
	if (n && n->kind == MN_SEQ)
		for (size_t i = 0; i < n->n; i++)
			read_pairs(n->vals[i], s, count);
	else
		read_pairs(n, s, count);
}

static void read_benchmarks(const struct mnode *b, struct machine *m)
{
	const struct mnode *k = mnode_get(b, "kernels");
	for (size_t i = 0; k && k->kind == MN_MAP && i < k->n && m->nkernels < MACHINE_MAX_KERNELS; i++) {
		struct machine_bench_kernel *K = &m->kernel[m->nkernels++];
		const struct mnode *kv = k->vals[i];
		copy_text(K->name, sizeof(K->name), k->keys[i]);
		const struct mnode *bn = mnode_get(kv, "fastest bench kernel");
		if (bn && bn->kind == MN_SCALAR)
			copy_text(K->bench_name, sizeof(K->bench_name), bn->text);
		machine_node_number(mnode_get(kv, "FLOPs per iteration"), &K->flops_per_it);
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
		copy_text(B->level, sizeof(B->level), ms->keys[i]);
		const struct mnode *cores = mnode_get(run, "cores");
		for (size_t c = 0; cores && cores->kind == MN_SEQ && c < cores->n && B->ncores < MACHINE_MAX_CORES; c++) {
			double v = 0;
			machine_node_number(cores->vals[c], &v);
			B->cores[B->ncores++] = int_of(v);
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
				machine_node_quantity(l->vals[y], "B/s", 0, &B->bw[ki][y]);
		}
		read_sizes(mnode_get(run, "size per core"), B->ncores, B->size_per_core_bytes);
		read_sizes(mnode_get(run, "size per thread"), B->ncores, B->size_per_thread_bytes);
		read_sizes(mnode_get(run, "total size"), B->ncores, B->total_bytes);
	}
}

void machine_read(const struct mtree *t, struct machine *m)
{
	*m = (struct machine){ 0 };
	const struct mnode *r = t->root, *v;
	static const struct {
		const char *key;
		size_t off, len;
	} texts[] = {
		{ "kerncraft version", offsetof(struct machine, kerncraft_version), sizeof(m->kerncraft_version) },
		{ "model name", offsetof(struct machine, model_name), sizeof(m->model_name) },
		{ "model type", offsetof(struct machine, model_type), sizeof(m->model_type) },
		{ "isa", offsetof(struct machine, isa), sizeof(m->isa) },
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if ((v = mnode_get(r, texts[i].key)) && v->kind == MN_SCALAR)
			copy_text((char *)m + texts[i].off, texts[i].len, v->text);
	read_settings(mnode_get(r, "in-core model"), m->incore, &m->nincore);
	read_settings(mnode_get(r, "compiler"), m->compiler, &m->ncompiler);
	machine_node_quantity(mnode_get(r, MK_CLOCK), "Hz", 1, &m->clock_hz);
	m->sockets = get_long(r, "sockets");
	m->cores_per_socket = get_long(r, MK_CORES_PER_SOCKET);
	m->threads_per_core = get_long(r, MK_THREADS_PER_CORE);
	machine_node_quantity(mnode_get(r, MK_CACHELINE), "B", 1, &m->cacheline_bytes);
	static const char *const fk[] = { "total", "ADD", "MUL", "FMA" };
	const struct mnode *f = mnode_get(r, MK_FLOPS);
	for (int i = 0; i < 4; i++) {
		machine_node_number(mnode_get(mnode_get(f, "DP"), fk[i]), &m->flops_dp[i]);
		machine_node_number(mnode_get(mnode_get(f, "SP"), fk[i]), &m->flops_sp[i]);
	}
	const struct mnode *h = mnode_get(r, MK_HIERARCHY);
	for (size_t i = 0; h && h->kind == MN_SEQ && i < h->n && m->nlevels < MACHINE_MAX_LEVELS; i++) {
		const struct mnode *lv = h->vals[i];
		struct machine_level *L = &m->level[m->nlevels++];
		if ((v = mnode_get(lv, "level")) && v->kind == MN_SCALAR)
			copy_text(L->name, sizeof(L->name), v->text);
		const struct mnode *c = mnode_get(lv, "cache per group");
		if (c && c->kind == MN_MAP) {
			L->has_cache = 1;
			L->sets = get_long(c, "sets");
			L->ways = get_long(c, "ways");
			L->cl_size = get_long(c, "cl_size");
			L->size_bytes = (double)L->sets * (double)L->ways * (double)L->cl_size;
		}
		if (!(L->size_bytes > 0))
			machine_node_quantity(mnode_get(lv, "size per group"), "B", 1, &L->size_bytes);
		L->groups = get_long(lv, "groups");
		L->cores_per_group = get_long(lv, "cores per group");
		L->threads_per_group = get_long(lv, "threads per group");
		L->write_allocate = L->write_back = 1;
		if (c && c->kind == MN_MAP) {
			const struct mnode *x;
			if ((x = mnode_get(c, "write_allocate")) && machine_node_bool(x))
				L->write_allocate = bool_value(x);
			if ((x = mnode_get(c, "write_back")) && machine_node_bool(x))
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
					copy_text(dst[k], sizeof(L->load_from), x->text);
		}
		const struct mnode *up = mnode_get(lv, "upstream throughput");
		if (up && up->kind == MN_SEQ && up->n >= 1 && up->vals[0]->kind == MN_SCALAR) {
			copy_text(L->upstream_text, sizeof(L->upstream_text), up->vals[0]->text);
			double bpc;
			char u[32];
			if (machine_quantity(up->vals[0]->text, &bpc, u, sizeof(u)) == 0 && !strcmp(u, "B/cy"))
				L->upstream_bytes_per_cy = bpc;
			L->upstream_is_memory = !strcmp(up->vals[0]->text, "full socket memory bandwidth");
			if (up->n >= 2 && up->vals[1]->kind == MN_SCALAR)
				L->upstream_full_duplex = !strcmp(up->vals[1]->text, "full-duplex");
		}
		if ((v = mnode_get(lv, "transfers overlap")) && machine_node_bool(v))
			L->transfers_overlap = bool_value(v);
	}
	m->cores_per_numa_domain = get_long(r, "cores per NUMA domain");
	read_benchmarks(mnode_get(r, "benchmarks"), m);
	const struct mnode *as = mnode_get(r, "archscope");
	m->probed = as && as->kind == MN_MAP;
}
