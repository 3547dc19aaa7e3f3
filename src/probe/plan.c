/* The planner of a full probe (see plan.h): c2c's classes of pairs, their samples, checks and
 * splits, rounds of pairs on disjoint cores, contexts' team sizes, and the predicted time. */
#include "probe/plan.h"
#include "common/array.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/order.h"
#include "machine/probes.h"
#include "probe/c2c.h"

const char *probe_c2c_role_name(enum probe_c2c_role r)
{
	static const char *const name[] = { "unmeasured", "sample", "verify", "split", "all" };
	return (unsigned)r < sizeof(name) / sizeof(name[0]) ? name[r] : "unmeasured";
}

void probe_c2c_pair_of(int n, int p, int *i, int *j)
{
	int a = 0;
	while (p >= n - 1 - a) {
		p -= n - 1 - a;
		a++;
	}
	*i = a;
	*j = a + 1 + p;
}

double probe_plan_budget_s(int quick, int cpus)
{
	if (quick)
		return 10;
	return cpus <= 16 ? 30 : cpus >= 128 ? 60 : 30 + 30.0 * (cpus - 16) / 112.0;
}

/* --- classes ------------------------------------------------------------------------------- */

static int class_add(struct probe_c2c_plan *p, const char *name, int level, int parent)
{
	struct probe_c2c_class *grown = array_grow(p->cls, &p->cap, (size_t)p->nclasses, sizeof(*grown), 16);
	if (!grown)
		return -ENOMEM;
	p->cls = grown;
	struct probe_c2c_class *c = &p->cls[p->nclasses];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->level = level;
	c->parent = parent;
	for (int k = 0; k < PROBE_PLAN_MAX_BLOCKS; k++)
		c->bw_gbs[k] = NAN;
	c->lat_ns = NAN;
	return p->nclasses++;
}

static int pair_measured(const struct probe_c2c_plan *p, int q)
{
	return !isnan(p->lat[q]);
}

/* The topology's class name of CPUs i and j. */
static void share_name(const struct probe_c2c_plan *p, int i, int j, char *buf, size_t len)
{
	if (!p->topo || !p->pu[i] || !p->pu[j]) {
		snprintf(buf, len, "unknown");
		return;
	}
	struct topo_share s;
	topo_pair_share(p->topo, p->pu[i], p->pu[j], &s);
	topo_share_name(p->topo, &s, buf, len);
}

void probe_c2c_plan_release(struct probe_c2c_plan *p)
{
	free(p->cpu);
	free(p->pu);
	free(p->pair_class);
	free(p->role);
	free(p->bw);
	free(p->lat);
	free(p->cls);
	free(p->core_key);
	memset(p, 0, sizeof(*p));
}

int probe_c2c_plan_init(struct probe_c2c_plan *p, const struct topo *t, const struct as_cpulist *cpus,
			const size_t *block_bytes, int nblocks, int quick, uint64_t seed, struct as_error *err)
{
	memset(p, 0, sizeof(*p));
	int n = cpus->n;
	if (n < 2 || n > PROBE_C2C_MAX_CPUS || nblocks < 0 || nblocks > PROBE_PLAN_MAX_BLOCKS)
		return as_error_set(err, -EINVAL, "c2c plan: %d CPUs and %d block sizes (2..%d CPUs, 0..%d sizes)", n,
				    nblocks, PROBE_C2C_MAX_CPUS, PROBE_PLAN_MAX_BLOCKS);
	p->topo = t;
	p->n = n;
	p->npairs = n * (n - 1) / 2;
	p->nblocks = nblocks;
	for (int k = 0; k < nblocks; k++)
		p->block_bytes[k] = block_bytes[k];
	p->samples = quick ? 2 : 3;
	p->verify = quick ? 2 : 4;
	p->quick = !!quick;
	p->costs = probe_plan_costs_default();
	uint64_t mem = t && t->memory_bytes ? t->memory_bytes : (8ull << 30);
	p->concurrent_bytes = mem / 8 < (1ull << 30) ? (size_t)(mem / 8) : (size_t)1 << 30;
	p->gap = 1.25;
	rng_init(&p->rng, seed ^ 0xc2c0c2c0c2c0c2c0ull);
	p->cpu = malloc((size_t)n * sizeof(int));
	p->pu = calloc((size_t)n, sizeof(*p->pu));
	p->core_key = malloc((size_t)n * sizeof(int));
	p->pair_class = malloc((size_t)p->npairs * sizeof(int));
	p->role = calloc((size_t)p->npairs, 1);
	p->bw = malloc((size_t)p->npairs * (size_t)(nblocks ? nblocks : 1) * sizeof(double));
	p->lat = malloc((size_t)p->npairs * sizeof(double));
	if (!p->cpu || !p->pu || !p->core_key || !p->pair_class || !p->role || !p->bw || !p->lat)
		return as_error_set(err, -ENOMEM, "c2c plan: out of memory");
	for (size_t q = 0; q < (size_t)p->npairs * (size_t)(nblocks ? nblocks : 1); q++)
		p->bw[q] = NAN;
	for (int q = 0; q < p->npairs; q++)
		p->lat[q] = NAN;
	for (int i = 0; i < n; i++) {
		p->cpu[i] = cpus->cpu[i];
		p->pu[i] = t ? topo_pu_find(t, cpus->cpu[i]) : NULL;
		/* the first CPU of the list on the same core stands for the core */
		p->core_key[i] = i;
		for (int j = 0; j < i && p->pu[i]; j++)
			if (p->pu[j] && p->pu[j]->core == p->pu[i]->core && p->pu[j]->package == p->pu[i]->package) {
				p->core_key[i] = p->core_key[j];
				break;
			}
	}
	char name[112];
	int last = -1;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			share_name(p, i, j, name, sizeof(name));
			int c = last >= 0 && !strcmp(p->cls[last].name, name) ? last : -1;
			for (int k = 0; k < p->nclasses && c < 0; k++)
				if (!strcmp(p->cls[k].name, name))
					c = k;
			if (c < 0 && (c = class_add(p, name, PROBE_C2C_LEVEL_TOPOLOGY, -1)) < 0)
				return as_error_set(err, -ENOMEM, "c2c plan: out of memory");
			p->pair_class[probe_c2c_pair_index(n, i, j)] = c;
			p->cls[c].npairs++;
			last = c;
		}
	return 0;
}

void probe_c2c_batch_release(struct probe_c2c_batch *b)
{
	free(b->pair);
	free(b->round);
	memset(b, 0, sizeof(*b));
}

static int batch_push(struct probe_c2c_batch *b, int q)
{
	if ((size_t)b->n == b->cap) { /* pairs and their rounds grow to the same capacity */
		size_t cp = b->cap, cr = b->cap;
		int *pr = array_grow(b->pair, &cp, (size_t)b->n, sizeof(int), 64);
		if (!pr)
			return -ENOMEM;
		b->pair = pr;
		int *rd = array_grow(b->round, &cr, (size_t)b->n, sizeof(int), 64);
		if (!rd)
			return -ENOMEM;
		b->round = rd;
		b->cap = cp;
	}
	b->pair[b->n++] = q;
	return 0;
}

static int64_t refine_key(const struct probe_c2c_plan *p, int q, int level, char *label, size_t len);

/* First fit into rounds of pairs on disjoint cores; b->nrounds. 0 or -ENOMEM. */
static int batch_pack(const struct probe_c2c_plan *p, struct probe_c2c_batch *b)
{
	int n = p->n;
	size_t cap = 0; /* rounds busy has room for, a row of n bytes each */
	unsigned char *busy = NULL;
	b->nrounds = 0;
	for (int k = 0; k < b->n; k++) {
		int i, j, r;
		probe_c2c_pair_of(n, b->pair[k], &i, &j);
		int ci = p->core_key[i], cj = p->core_key[j];
		for (r = 0; r < b->nrounds; r++)
			if (!busy[(size_t)r * n + ci] && !busy[(size_t)r * n + cj])
				break;
		if (r == b->nrounds) {
			size_t had = cap;
			unsigned char *nb = array_grow(busy, &cap, (size_t)r, (size_t)n, 8);
			if (!nb) {
				free(busy);
				return -ENOMEM;
			}
			memset(nb + had * (size_t)n, 0, (cap - had) * (size_t)n);
			busy = nb;
			b->nrounds++;
		}
		busy[(size_t)r * n + ci] = busy[(size_t)r * n + cj] = 1;
		b->round[k] = r;
	}
	free(busy);
	return 0;
}

/* Members of each class: idx[off[c] .. off[c + 1]) are its pairs. Malloc'd; NULL when out of
 * memory. */
static int *members_index(const struct probe_c2c_plan *p, int **off_out)
{
	int *off = calloc((size_t)p->nclasses + 1, sizeof(int)), *idx = malloc((size_t)p->npairs * sizeof(int));
	int *fill = calloc((size_t)p->nclasses + 1, sizeof(int));
	if (!off || !idx || !fill) {
		free(off);
		free(idx);
		free(fill);
		return NULL;
	}
	for (int q = 0; q < p->npairs; q++)
		off[p->pair_class[q] + 1]++;
	for (int c = 0; c < p->nclasses; c++)
		off[c + 1] += off[c];
	for (int q = 0; q < p->npairs; q++) {
		int c = p->pair_class[q];
		idx[off[c] + fill[c]++] = q;
	}
	free(fill);
	*off_out = off;
	return idx;
}

/* Picks up to want unmeasured, unpicked pairs of a class (its members mem[0..nm), shuffled here)
 * with the given role: each the first of the shuffled pairs that best spreads the class's picks
 * over pairs of packages, then of nodes, then of last-level caches not yet covered by its pairs
 * picked before (so a class that spans two sockets is sampled on both), and whose cores no pair
 * picked so far uses (core_busy: the pairs pack into fewer rounds). */
static int pick(struct probe_c2c_plan *p, int *mem, int nm, int want, enum probe_c2c_role role,
		unsigned char *core_busy, struct probe_c2c_batch *out)
{
	for (int k = nm - 1; k > 0; k--) {
		int r = (int)rng_below(&p->rng, (uint64_t)k + 1), x = mem[k];
		mem[k] = mem[r];
		mem[r] = x;
	}
	enum { KEYS = 64 };
	int64_t seen[3][KEYS];
	int nseen = 0;
	for (int k = 0; k < nm && nseen < KEYS; k++)
		if (p->role[mem[k]] != PROBE_C2C_UNMEASURED) {
			for (int l = 0; l < 3; l++)
				seen[l][nseen] = refine_key(p, mem[k], PROBE_C2C_LEVEL_PACKAGES + l, NULL, 0);
			nseen++;
		}
	int got = 0;
	while (got < want) {
		int best = -1, best_score = -1;
		for (int k = 0; k < nm; k++) {
			int q = mem[k], i, j;
			if (p->role[q] != PROBE_C2C_UNMEASURED)
				continue;
			probe_c2c_pair_of(p->n, q, &i, &j);
			int score = !core_busy[p->core_key[i]] && !core_busy[p->core_key[j]];
			for (int l = 0; l < 3; l++) {
				int64_t key = refine_key(p, q, PROBE_C2C_LEVEL_PACKAGES + l, NULL, 0), fresh = 1;
				for (int x = 0; x < nseen && fresh; x++)
					fresh = seen[l][x] != key;
				score += fresh ? 8 >> l : 0;
			}
			if (score > best_score) {
				best_score = score;
				best = q;
				if (score == 15)
					break;
			}
		}
		if (best < 0)
			break;
		if (batch_push(out, best) != 0)
			return -ENOMEM;
		p->role[best] = (unsigned char)role;
		int i, j;
		probe_c2c_pair_of(p->n, best, &i, &j);
		core_busy[p->core_key[i]] = core_busy[p->core_key[j]] = 1;
		if (nseen < KEYS) {
			for (int l = 0; l < 3; l++)
				seen[l][nseen] = refine_key(p, best, PROBE_C2C_LEVEL_PACKAGES + l, NULL, 0);
			nseen++;
		}
		got++;
	}
	return got;
}

int probe_c2c_plan_first(struct probe_c2c_plan *p, struct probe_c2c_batch *out)
{
	memset(out, 0, sizeof(*out));
	int *off = NULL, *idx = members_index(p, &off);
	unsigned char *busy = calloc((size_t)p->n, 1);
	int rc = idx && busy ? 0 : -ENOMEM;
	for (int c = 0; c < p->nclasses && !rc; c++)
		if (pick(p, idx + off[c], off[c + 1] - off[c], p->samples, PROBE_C2C_SAMPLE, busy, out) < 0)
			rc = -ENOMEM;
	/* pairs of each class beyond its samples: one, and in a large class as many more as
	 * log2 of its pairs exceeds the samples (a minority of its pairs that behave otherwise, a
	 * difference the topology does not show, is then likely to be hit); then a handful at
	 * random over all pairs */
	for (int c = 0; c < p->nclasses && !rc; c++) {
		int v = (int)ceil(log2((double)p->cls[c].npairs + 1)) - p->samples;
		if (pick(p, idx + off[c], off[c + 1] - off[c], p->quick || v < 1 ? 1 : v, PROBE_C2C_VERIFY, busy, out) < 0)
			rc = -ENOMEM;
	}
	int unmeasured = 0;
	for (int q = 0; q < p->npairs; q++)
		unmeasured += p->role[q] == PROBE_C2C_UNMEASURED;
	for (int v = 0, tries = 0; v < p->verify && v < unmeasured && tries < 64 * p->verify && !rc; tries++) {
		int q = (int)rng_below(&p->rng, (uint64_t)p->npairs);
		if (p->role[q] != PROBE_C2C_UNMEASURED)
			continue;
		p->role[q] = PROBE_C2C_VERIFY;
		rc = batch_push(out, q);
		v++;
	}
	if (!rc)
		rc = batch_pack(p, out);
	if (!rc) {
		p->rounds += out->nrounds;
		p->spent_s += probe_c2c_plan_batch_s(p, out);
		/* finer classes may take what the whole probe's budget leaves */
		int all = p->topo && p->topo->allowed.n > p->n ? p->topo->allowed.n : p->n;
		double rest = probe_plan_rest_s(p->costs, p->quick, all);
		/* what the probe's budget leaves after the other groups and this batch; where they
		 * leave nothing (a small machine), half the first batch more, at most 3 s (1 s quick) */
		double room = probe_plan_budget_s(p->quick, all) - rest - p->spent_s;
		p->budget_s = p->spent_s + (room > 0 ? room : fmin(0.5 * p->spent_s, p->quick ? 1.0 : 3.0));
	}
	free(off);
	free(idx);
	free(busy);
	return rc;
}

double probe_c2c_plan_all_s(const struct probe_c2c_plan *p)
{
	double s = 0;
	for (int k = 0; k <= p->nblocks; k++)
		s += probe_plan_c2c_step_s(p->costs, p->quick, k, k < p->nblocks ? p->block_bytes[k] : 0, p->n / 2,
					   p->concurrent_bytes);
	return s * probe_c2c_rounds(p->n);
}

int probe_c2c_plan_start(struct probe_c2c_plan *p, struct probe_c2c_batch *out, int *all)
{
	*all = 0;
	int rc = probe_c2c_plan_first(p, out);
	if (rc || !(probe_c2c_plan_all_s(p) < p->spent_s))
		return rc;
	/* every pair costs less: start again with the round robin */
	probe_c2c_batch_release(out);
	memset(p->role, 0, (size_t)p->npairs);
	p->rounds = 0;
	p->spent_s = 0;
	*all = 1;
	rc = probe_c2c_plan_all(p, out);
	p->budget_s = p->spent_s;
	return rc;
}

double probe_c2c_plan_batch_s(const struct probe_c2c_plan *p, const struct probe_c2c_batch *b)
{
	double s = 0;
	for (int r = 0; r < b->nrounds; r++) {
		int np = 0;
		for (int k = 0; k < b->n; k++)
			np += b->round[k] == r;
		for (int k = 0; k <= p->nblocks; k++)
			s += probe_plan_c2c_step_s(p->costs, p->quick, k, k < p->nblocks ? p->block_bytes[k] : 0, np,
						   p->concurrent_bytes);
	}
	return s;
}

int probe_c2c_plan_all(struct probe_c2c_plan *p, struct probe_c2c_batch *out)
{
	memset(out, 0, sizeof(*out));
	int (*pairs)[2] = malloc((size_t)(p->n / 2 + 1) * sizeof(*pairs));
	if (!pairs)
		return -ENOMEM;
	int nr = probe_c2c_rounds(p->n), rc = 0;
	for (int r = 0; r < nr && !rc; r++) {
		int np = probe_c2c_round(p->n, r, pairs);
		for (int k = 0; k < np && !rc; k++) {
			int q = probe_c2c_pair_index(p->n, pairs[k][0], pairs[k][1]);
			p->role[q] = PROBE_C2C_ALL;
			if ((rc = batch_push(out, q)) == 0)
				out->round[out->n - 1] = r;
		}
	}
	free(pairs);
	out->nrounds = nr;
	p->rounds += nr;
	p->spent_s += probe_c2c_plan_batch_s(p, out);
	return rc;
}

/* --- class figures ------------------------------------------------------------------------- */

/* The class's medians over its measured members mem[0..nm) (a split class keeps its last ones). */
static void class_stats(struct probe_c2c_plan *p, int c, const int *mem, int nm)
{
	struct probe_c2c_class *cl = &p->cls[c];
	double *v = malloc((size_t)(nm ? nm : 1) * sizeof(double));
	if (!v)
		return;
	int cnt = 0;
	for (int k = 0; k < nm; k++)
		if (pair_measured(p, mem[k]))
			v[cnt++] = p->lat[mem[k]];
	cl->nmeasured = cnt;
	cl->lat_ns = cnt ? order_median(v, (size_t)cnt) : NAN;
	for (int b = 0; b < p->nblocks; b++) {
		cnt = 0;
		for (int k = 0; k < nm; k++) {
			double x = p->bw[(size_t)mem[k] * p->nblocks + b];
			if (!isnan(x))
				v[cnt++] = x;
		}
		cl->bw_gbs[b] = cnt ? order_median(v, (size_t)cnt) : NAN;
	}
	free(v);
}

static int ratio_out(double x, double med, double gap)
{
	return !isnan(x) && med > 0 && (x > med * gap || x * gap < med);
}

/* Whether a measured member of the class disagrees with the class's medians. */
static int class_disagrees(const struct probe_c2c_plan *p, int c, const int *mem, int nm)
{
	const struct probe_c2c_class *cl = &p->cls[c];
	for (int k = 0; k < nm; k++) {
		int q = mem[k];
		if (!pair_measured(p, q))
			continue;
		if (ratio_out(p->lat[q], cl->lat_ns, p->gap))
			return 1;
		for (int b = 0; b < p->nblocks; b++)
			if (ratio_out(p->bw[(size_t)q * p->nblocks + b], cl->bw_gbs[b], p->gap))
				return 1;
	}
	return 0;
}

/* The key of pair q at a refinement level: the unordered pair of its CPUs' packages, nodes,
 * last-level caches, or the pair itself. */
static int64_t refine_key(const struct probe_c2c_plan *p, int q, int level, char *label, size_t len)
{
	int i, j;
	probe_c2c_pair_of(p->n, q, &i, &j);
	const struct topo_pu *a = p->pu[i], *b = p->pu[j];
	int64_t x, y;
	const char *what;
	if (level == PROBE_C2C_LEVEL_PACKAGES && a && b) {
		x = a->package, y = b->package, what = "packages";
	} else if (level == PROBE_C2C_LEVEL_NODES && a && b) {
		x = a->node, y = b->node, what = "nodes";
	} else if (level == PROBE_C2C_LEVEL_LLC && a && b) {
		x = topo_pu_llc(a, NULL), y = topo_pu_llc(b, NULL), what = "caches";
	} else if (level == PROBE_C2C_LEVEL_PAIR) {
		x = p->cpu[i], y = p->cpu[j], what = "cpus";
	} else {
		x = y = -1, what = "";
	}
	if (x > y) {
		int64_t s = x;
		x = y;
		y = s;
	}
	if (label)
		snprintf(label, len, "%s %lld,%lld", what, (long long)x, (long long)y);
	return (x + 1) * 1000003 + (y + 1);
}

struct keyed {
	int64_t key;
	int q;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	return x->key < y->key ? -1 : x->key > y->key ? 1 : x->q - y->q;
}

/* Whether pairs q and r were measured alike (within the gap at every block and in latency). */
static int pairs_agree(const struct probe_c2c_plan *p, int q, int r)
{
	if (ratio_out(p->lat[q], p->lat[r], p->gap))
		return 0;
	for (int b = 0; b < p->nblocks; b++)
		if (ratio_out(p->bw[(size_t)q * p->nblocks + b], p->bw[(size_t)r * p->nblocks + b], p->gap))
			return 0;
	return 1;
}

/* Splits class c (members mem[0..nm)) at the coarsest level past its own whose keys explain its
 * measured pairs (the pairs measured under one key agree; the finest, one class per pair, always
 * does), skipping levels that would not separate anything. New classes appended, pair_class
 * updated. Returns the number of new classes (0: no level separates its pairs), -ENOMEM. */
static int class_split(struct probe_c2c_plan *p, int c, const int *mem, int nm)
{
	struct keyed *kv = malloc((size_t)nm * sizeof(*kv));
	if (!kv)
		return -ENOMEM;
	int made = 0;
	for (int level = p->cls[c].level + 1; level <= PROBE_C2C_LEVEL_PAIR && !made; level++) {
		for (int k = 0; k < nm; k++)
			kv[k] = (struct keyed){ refine_key(p, mem[k], level, NULL, 0), mem[k] };
		qsort(kv, (size_t)nm, sizeof(*kv), cmp_keyed);
		int groups = 1, explains = 1;
		for (int k = 1; k < nm; k++)
			groups += kv[k].key != kv[k - 1].key;
		if (groups < 2)
			continue;
		/* the measured pairs of each key agree with each other */
		for (int k = 0; k < nm && explains && level < PROBE_C2C_LEVEL_PAIR; k++) {
			if (!pair_measured(p, kv[k].q))
				continue;
			for (int l = k + 1; l < nm && kv[l].key == kv[k].key && explains; l++)
				if (pair_measured(p, kv[l].q) && !pairs_agree(p, kv[k].q, kv[l].q))
					explains = 0;
		}
		if (!explains)
			continue;
		for (int k = 0; k < nm; k++) {
			if (k == 0 || kv[k].key != kv[k - 1].key) {
				char label[48], name[176];
				refine_key(p, kv[k].q, level, label, sizeof(label));
				snprintf(name, sizeof(name), "%s [%s]", p->cls[c].name, label);
				int nc = class_add(p, name, level, c);
				if (nc < 0) {
					free(kv);
					return -ENOMEM;
				}
				made++;
			}
			p->pair_class[kv[k].q] = p->nclasses - 1;
			p->cls[p->nclasses - 1].npairs++;
		}
		p->cls[c].split = 1;
	}
	free(kv);
	return made;
}

/* Undoes class_split of c, which made `made` classes at the end. */
static void class_unsplit(struct probe_c2c_plan *p, int c, const int *mem, int nm, int made)
{
	for (int k = 0; k < nm; k++)
		p->pair_class[mem[k]] = c;
	p->nclasses -= made;
	p->cls[c].split = 0;
}

int probe_c2c_plan_next(struct probe_c2c_plan *p, struct probe_c2c_batch *out)
{
	memset(out, 0, sizeof(*out));
	int *off = NULL, *idx = members_index(p, &off);
	unsigned char *busy = calloc((size_t)p->n, 1), *busy_before = malloc((size_t)p->n);
	int *copy = malloc((size_t)p->npairs * sizeof(int));
	int rc = idx && busy && busy_before && copy ? 0 : -ENOMEM;
	/* Classes made here are checked in turn too: a finer class whose pairs were already measured
	 * (in the class it came from) may disagree again at once. */
	for (int c = 0; c < p->nclasses && !rc; c++) {
		struct probe_c2c_class *cl = &p->cls[c];
		if (cl->split)
			continue;
		int nm = off[c + 1] - off[c];
		class_stats(p, c, idx + off[c], nm);
		if (cl->unresolved || cl->nmeasured < 2 || !class_disagrees(p, c, idx + off[c], nm))
			continue;
		/* Finer classes, each with its samples, while the rounds stay within the budget. */
		memcpy(copy, idx + off[c], (size_t)nm * sizeof(int));
		int first = p->nclasses, made = class_split(p, c, copy, nm);
		if (made < 0) {
			rc = made;
			break;
		}
		if (!made) {
			p->cls[c].unresolved = 1;
			continue;
		}
		int n_before = out->n, rounds_before = out->nrounds;
		memcpy(busy_before, busy, (size_t)p->n);
		free(off);
		free(idx);
		if (!(idx = members_index(p, &off))) {
			rc = -ENOMEM;
			break;
		}
		for (int sc = first; sc < p->nclasses && !rc; sc++) {
			int have = 0, sn = off[sc + 1] - off[sc];
			for (int k = 0; k < sn; k++)
				have += p->role[idx[off[sc] + k]] != PROBE_C2C_UNMEASURED;
			int want = (p->samples < sn ? p->samples : sn) - have;
			if (want > 0 && pick(p, idx + off[sc], sn, want, PROBE_C2C_SPLIT, busy, out) < 0)
				rc = -ENOMEM;
		}
		if (rc || (rc = batch_pack(p, out)) != 0)
			break;
		/* finer classes that need no new pair cost nothing; others must fit the budget */
		if (out->nrounds > rounds_before && p->spent_s + probe_c2c_plan_batch_s(p, out) > p->budget_s) {
			for (int k = n_before; k < out->n; k++)
				p->role[out->pair[k]] = PROBE_C2C_UNMEASURED;
			out->n = n_before;
			out->nrounds = rounds_before;
			memcpy(busy, busy_before, (size_t)p->n);
			class_unsplit(p, c, copy, nm, made);
			/* tried again after this batch, while the budget lasts */
			p->cls[c].unresolved = 2;
			free(off);
			free(idx);
			if (!(idx = members_index(p, &off)))
				rc = -ENOMEM;
		}
	}
	if (!rc && (rc = batch_pack(p, out)) == 0) {
		p->rounds += out->nrounds;
		p->spent_s += probe_c2c_plan_batch_s(p, out);
	}
	/* classes the budget left out: unresolved when nothing else runs, else tried again later */
	for (int c = 0; c < p->nclasses; c++)
		if (p->cls[c].unresolved == 2)
			p->cls[c].unresolved = out->n == 0;
	free(off);
	free(idx);
	free(busy);
	free(busy_before);
	free(copy);
	return rc;
}

double probe_c2c_plan_class_bw(const struct probe_c2c_plan *p, int cls, int k)
{
	const double *v = p->cls[cls].bw_gbs;
	if (!isnan(v[k]))
		return v[k];
	int lo = k - 1, hi = k + 1;
	while (lo >= 0 && isnan(v[lo]))
		lo--;
	while (hi < p->nblocks && isnan(v[hi]))
		hi++;
	if (lo < 0 && hi >= p->nblocks)
		return NAN;
	if (lo < 0)
		return v[hi];
	if (hi >= p->nblocks)
		return v[lo];
	double x = log((double)p->block_bytes[k]), x0 = log((double)p->block_bytes[lo]),
	       x1 = log((double)p->block_bytes[hi]);
	return v[lo] + (v[hi] - v[lo]) * (x - x0) / (x1 - x0);
}

int probe_c2c_plan_settled(const struct probe_c2c_plan *p, int cls, int k)
{
	if (k < 3 || k >= p->nblocks - 1)
		return 0;
	double lo = INFINITY, hi = 0, *v = malloc((size_t)p->npairs * sizeof(double));
	if (!v)
		return 0;
	int ok = 1;
	for (int b = k - 3; b < k && ok; b++) {
		int cnt = 0;
		for (int q = 0; q < p->npairs; q++)
			if (p->pair_class[q] == cls && !isnan(p->bw[(size_t)q * p->nblocks + b]))
				v[cnt++] = p->bw[(size_t)q * p->nblocks + b];
		if (!cnt) {
			ok = 0;
			break;
		}
		double m = order_median(v, (size_t)cnt);
		lo = fmin(lo, m);
		hi = fmax(hi, m);
	}
	free(v);
	return ok && lo > 0 && hi <= lo * 1.10;
}

void probe_c2c_plan_fill(const struct probe_c2c_plan *p, double *bw, double *lat)
{
	int n = p->n, nb = p->nblocks;
	double *cb = malloc((size_t)(p->nclasses ? p->nclasses : 1) * (size_t)(nb ? nb : 1) * sizeof(double));
	if (!cb)
		return;
	for (int c = 0; c < p->nclasses; c++)
		for (int k = 0; k < nb; k++)
			cb[(size_t)c * nb + k] = probe_c2c_plan_class_bw(p, c, k);
	for (int i = 0; i < n; i++) {
		lat[(size_t)i * n + i] = 0;
		for (int k = 0; k < nb; k++)
			bw[((size_t)k * n + i) * n + i] = 0;
		for (int j = i + 1; j < n; j++) {
			int q = probe_c2c_pair_index(n, i, j), c = p->pair_class[q];
			/* the full sweep keeps each pair's own figures; the class sweep its class's */
			int own = p->role[q] == PROBE_C2C_ALL;
			double l = own ? p->lat[q] : p->cls[c].lat_ns;
			lat[(size_t)i * n + j] = lat[(size_t)j * n + i] = isnan(l) ? 0 : l;
			for (int k = 0; k < nb; k++) {
				double v = own ? p->bw[(size_t)q * nb + k] : cb[(size_t)c * nb + k];
				bw[((size_t)k * n + i) * n + j] = bw[((size_t)k * n + j) * n + i] = isnan(v) ? 0 : v;
			}
		}
	}
	free(cb);
}

int probe_c2c_plan_measured(const struct probe_c2c_plan *p)
{
	int m = 0;
	for (int q = 0; q < p->npairs; q++)
		m += pair_measured(p, q);
	return m;
}

int probe_c2c_blocks(size_t top_bytes, int quick, size_t *out)
{
	size_t cap = quick ? (64u << 20) : (256u << 20);
	if (top_bytes > cap)
		top_bytes = cap;
	int nb = 0;
	for (size_t b = 4096; b <= top_bytes && nb < PROBE_PLAN_MAX_BLOCKS; b *= quick ? 16 : 4)
		out[nb++] = b;
	return nb;
}

/* --- contexts ------------------------------------------------------------------------------ */

void probe_contexts_search_init(struct probe_contexts_search *s, int max)
{
	memset(s, 0, sizeof(*s));
	s->max = max < 1 ? 1 : max;
}

static int search_find(const struct probe_contexts_search *s, int m)
{
	for (int i = 0; i < s->n; i++)
		if (s->m[i] == m)
			return i;
	return -1;
}

int probe_contexts_search_next(struct probe_contexts_search *s)
{
	if (s->done || s->n >= 64)
		return 0;
	if (s->n == 0)
		return 1;
	/* Doubling while every point so far stays below 1.5 and the top is below max. */
	int top = 0, high = 0;
	for (int i = 0; i < s->n; i++) {
		top = s->m[i] > top ? s->m[i] : top;
		high |= s->y[i] > 1.5;
	}
	if (!high && top < s->max)
		return 2 * top < s->max ? 2 * top : s->max;
	/* Bisection: lo the largest flat point, hi the next point measured above it. Flat is
	 * within 10 % of M = 1, or, going up from there, within 10 % of the flat point below it
	 * and rising by less than half a ramp's 1/M per thread added: a server's clock falls as
	 * more of its cores run (all-core turbo), and on the 16-vCPU Xeon guest FP divisions took
	 * 1.08 x at 8 threads, 1.12 x at 9-12 and 2.10 x at 16; against M = 1 alone every point
	 * past 8 was "above", the bisection went down to 9 and the answer was 9 contexts. */
	int lo = 0, hi = 0, ihi = -1, mref = 0;
	double ref = 0;
	for (int k = 0; k < s->n; k++) { /* the points in increasing M */
		int i = -1;
		for (int j = 0; j < s->n; j++)
			if (s->m[j] > lo && (i < 0 || s->m[j] < s->m[i]))
				i = j;
		if (i < 0)
			break;
		double y = s->y[i];
		int flat = y <= 1.1 || (ref > 0 && y <= 1.1 * ref &&
					(y / ref - 1.0) / (double)(s->m[i] - mref) < 0.5 / (double)s->m[i]);
		if (!flat)
			break;
		lo = s->m[i];
		if (y > ref || ref == 0) {
			ref = y;
			mref = s->m[i];
		}
	}
	for (int i = 0; i < s->n; i++)
		if (s->m[i] > lo && (!hi || s->m[i] < hi)) {
			hi = s->m[i];
			ihi = i;
		}
	if (ihi < 0) { /* flat up to max */
		s->done = 1;
		return 0;
	}
	if (s->y[ihi] < 1.3 && !s->remeasured[ihi]) {
		s->remeasured[ihi] = 1; /* ambiguous: once more, the faster figure stands */
		return hi;
	}
	if (hi - lo <= 1 || lo == 0) {
		s->done = 1;
		return 0;
	}
	return lo + (hi - lo) / 2;
}

void probe_contexts_search_add(struct probe_contexts_search *s, int m, double y)
{
	int i = search_find(s, m);
	if (i >= 0) {
		s->y[i] = fmin(s->y[i], y);
		return;
	}
	if (s->n >= 64)
		return;
	s->m[s->n] = m;
	s->y[s->n] = y;
	s->remeasured[s->n] = 0;
	s->n++;
}

/* --- the whole probe ----------------------------------------------------------------------- */

/* The probe's groups are machine/probes.h's (MP_GROUP_LIST), named by their keys there. */
enum {
#define G(id) G_##id = MP_G_##id,
	MP_GROUP_LIST(G)
#undef G
	G_N = MP_GROUPS
};

/* Measured by bench/probe-plan.sh on the 2-vCPU KVM guest of a Xeon family 6 model 207, five
 * runs at load averages 1.4 to 8 (bench/results/probe-plan-kvm-xeon-6-207.txt): each group's wall
 * time in a full probe (JSON timing_s) and c2c's steps per block size for one pair (JSON
 * step_seconds), the fastest of the runs (other processes only add time; c2c from the runs since
 * it counts its calibration run as a repetition). Except caches: it stops three flat octaves past
 * the last level it finds (320 MiB to 1 GiB here from run to run, 5 to 21 s), servers with a last
 * level of 8 MiB or more sweep to 1 GiB, and the fastest 1 GiB sweep stands for them (quick: the
 * slowest run); and quick assoc, whose runs measured different levels: the median. */
static const struct probe_plan_costs default_costs = {
	.source = "bench/probe-plan.sh on a 2-vCPU KVM guest of a Xeon family 6 model 207",
	.group_s = {
		/* clock line caches assoc tlb instr contexts registers timeslice c2c */
		{ 0.24, 0.57, 10.73, 4.04, 0.86, 2.03, 0, 0.31, 3.01, 0 },
		{ 0.08, 0.26, 2.67, 0.70, 0.28, 0.35, 0, 0.31, 0.81, 0 },
	},
	.contexts_calib_s = { 0.05, 0.015 },
	.contexts_thread_s = 30e-6, /* pthread_create and join: 26-28 us here */
	.c2c_step_s = {
		{ 0.029, 0.027, 0.028, 0.029, 0.025, 0.034, 0.080, 0.310, 1.286 },
		{ 0.011, 0.008, 0.008, 0.050 },
	},
	.c2c_bytes_s = { 4.85e-9, 2.68e-9 },
	.c2c_latency_s = { 0.032, 0.013 },
	.c2c_thread_s = 40e-6,
	.c2c_runs = { 6, 4 },
};

const struct probe_plan_costs *probe_plan_costs_default(void)
{
	return &default_costs;
}

double probe_plan_c2c_step_s(const struct probe_plan_costs *c, int quick, int k, size_t block_bytes, int np,
			     size_t concurrent_bytes)
{
	quick = !!quick;
	if (np < 1)
		return 0;
	int batch = np, nbatches = 1;
	double one;
	if (block_bytes == 0) {
		one = c->c2c_latency_s[quick];
	} else {
		batch = (int)(concurrent_bytes / block_bytes);
		batch = batch < 1 ? 1 : batch > np ? np : batch;
		nbatches = (np + batch - 1) / batch;
		/* the measured step of this size, or the largest measured one plus the bytes beyond it */
		int last = -1;
		for (int i = 0; i < PROBE_PLAN_MAX_BLOCKS && c->c2c_step_s[quick][i] > 0; i++)
			last = i;
		size_t lb = (size_t)4096 << ((quick ? 4 : 2) * (last < 0 ? 0 : last));
		if (k >= 0 && k <= last && block_bytes <= lb)
			one = c->c2c_step_s[quick][k];
		else
			one = (last < 0 ? 0 : c->c2c_step_s[quick][last]) +
			      (block_bytes > lb ? (double)(block_bytes - lb) : 0) * c->c2c_bytes_s[quick];
	}
	return nbatches * (one + c->c2c_thread_s * 2.0 * batch * c->c2c_runs[quick]);
}

static void step_add(struct probe_plan *p, int g, int steps, double s, const char *what)
{
	if (p->nsteps >= PROBE_PLAN_MAX_STEPS)
		return;
	struct probe_plan_step *st = &p->step[p->nsteps++];
	snprintf(st->group, sizeof(st->group), "%s", machine_probes_group_name((enum mp_group)g));
	st->steps = steps;
	st->seconds = s;
	snprintf(st->what, sizeof(st->what), "%s", what);
	p->predicted_s += s;
}

/* The team sizes the search runs for one kind on C contexts where the time ramps past them (the
 * slower of the two shapes to search), max = 2C + 2 (at most AS_MAX_CPUS). */
static int contexts_teams(int C, int *team, int cap, int *max_out)
{
	int max = 2 * C + 2 > AS_MAX_CPUS ? AS_MAX_CPUS : 2 * C + 2, n = 0, m;
	struct probe_contexts_search s;
	probe_contexts_search_init(&s, max);
	while ((m = probe_contexts_search_next(&s)) > 0) {
		if (n < cap)
			team[n++] = m;
		probe_contexts_search_add(&s, m, m > C ? (double)m / C : 1.0);
	}
	if (max_out)
		*max_out = max;
	return n;
}

static double contexts_s(const struct probe_plan_costs *c, int quick, const int *m, int n, int C);

double probe_plan_rest_s(const struct probe_plan_costs *c, int quick, int cpus)
{
	double s = 0;
	quick = !!quick;
	for (int g = 0; g < 10; g++)
		s += c->group_s[quick][g];
	int team[PROBE_PLAN_MAX_TEAMS];
	int n = contexts_teams(cpus, team, PROBE_PLAN_MAX_TEAMS, NULL);
	return s + 3 * contexts_s(c, quick, team, n, cpus);
}

/* Seconds of contexts' teams m[0..n) for one kind on a machine whose time ramps past C. */
static double contexts_s(const struct probe_plan_costs *c, int quick, const int *m, int n, int C)
{
	double target = quick ? 5e-3 : 20e-3, s = c->contexts_calib_s[quick];
	int reps = quick ? 3 : 5;
	for (int i = 0; i < n; i++) {
		double y = m[i] > C ? (double)m[i] / C : 1.0;
		s += reps * (target * y + c->contexts_thread_s * m[i]);
		if (m[i] > 1) /* each repetition beside a one-thread reference run */
			s += reps * (target + c->contexts_thread_s);
	}
	return s;
}

void probe_plan_release(struct probe_plan *p)
{
	probe_c2c_plan_release(&p->c2c);
	probe_c2c_batch_release(&p->c2c_batch);
	memset(p, 0, sizeof(*p));
}

int probe_plan_make(const struct topo *t, const struct as_cpulist *cpus, int quick, uint64_t seed,
		    const struct probe_plan_costs *c, struct probe_plan *out, struct as_error *err)
{
	memset(out, 0, sizeof(*out));
	c = c ? c : &default_costs;
	quick = !!quick;
	const struct as_cpulist *list = cpus ? cpus : &t->allowed;
	if (list->n < 1)
		return as_error_set(err, -EINVAL, "plan: no CPUs to probe");
	out->cpus = list->n;
	out->pus = t ? t->pus : list->n;
	out->quick = quick;
	/* the groups whose time does not grow with the CPUs */
	static const char *const fixed_what[G_N] = {
		[G_CLOCK] = "a dependent add chain, the TSC beside it",
		[G_LINE] = "access pairs D = 16..512 B apart; coherence unit on two cores",
		[G_CACHES] = "pointer chasing up to 1 GiB, 3 passes (2 quick)",
		[G_ASSOC] = "K = 1..40 addresses per level (24 quick)",
		[G_TLB] = "page pairs, first-touch faults, N = 1..8192 pages",
		[G_INSTR] = "34 operations: latency, throughput, in flight; line-crossing accesses",
		[G_REGISTERS] = "K = 3..132 live variables, two builds",
		[G_TIMESLICE] = "2 x CPUs unpinned busy threads for 2 s (0.5 s quick), schedstat 1 s",
	};
	for (int g = 0; g < G_N; g++) {
		if (g == G_CONTEXTS) {
			/* the team sizes when the contexts are the OS's hardware threads and the time
			 * ramps past them (the slower of the two shapes to search) */
			int C = list->n, max;
			out->teams = contexts_teams(C, out->team, PROBE_PLAN_MAX_TEAMS, &max);
			/* the full sweep: 1 .. until the time exceeds 2 (2C + 1), at most max */
			int all = 2 * C + 1 < max ? 2 * C + 1 : max, allm[1024];
			for (int i = 0; i < all && i < 1024; i++)
				allm[i] = i + 1;
			out->all_teams_steps = all;
			double sec = 3 * contexts_s(c, quick, out->team, out->teams, C);
			out->contexts_all_teams_s = 3 * contexts_s(c, quick, allm, all < 1024 ? all : 1024, C);
			char what[200];
			snprintf(what, sizeof(what), "3 kinds x %d team sizes (doubling to %d, then bisection; every size 1..%d: %d)",
				 out->teams, max, all, all);
			step_add(out, g, 3 * out->teams, sec, what);
			continue;
		}
		if (g == G_C2C) {
			int n = list->n > PROBE_C2C_MAX_CPUS ? PROBE_C2C_MAX_CPUS : list->n;
			if (n < 2) {
				step_add(out, g, 0, 0, "needs two CPUs");
				continue;
			}
			/* blocks: past 4x the largest cache a CPU sits under, as the probe sizes them from
			 * the measured last level */
			uint64_t llc = 0;
			for (int i = 0; t && i < t->npus_listed; i++) {
				uint64_t b;
				topo_pu_llc(&t->pu[i], &b);
				llc = b > llc ? b : llc;
			}
			out->llc_bytes = llc;
			size_t blocks[PROBE_PLAN_MAX_BLOCKS];
			int nb = probe_c2c_blocks(llc ? 4 * llc : (64u << 20), quick, blocks);
			struct as_cpulist sub = *list;
			sub.n = n;
			int rc = probe_c2c_plan_init(&out->c2c, t, &sub, blocks, nb, quick, seed, err);
			if (rc == 0 && (rc = probe_c2c_plan_start(&out->c2c, &out->c2c_batch, &out->c2c_all_pairs)) != 0)
				as_error_set(err, rc, "plan: out of memory");
			if (rc)
				return rc;
			uint64_t mem = t && t->memory_bytes ? t->memory_bytes : (64ull << 30);
			size_t cap = mem / 8 < (1ull << 30) ? (size_t)(mem / 8) : (size_t)1 << 30;
			double sec = 0;
			int steps = 0;
			for (int r = 0; r < out->c2c_batch.nrounds; r++) {
				int np = 0;
				for (int k = 0; k < out->c2c_batch.n; k++)
					np += out->c2c_batch.round[k] == r;
				for (int k = 0; k <= nb; k++, steps++)
					sec += probe_plan_c2c_step_s(c, quick, k, k < nb ? blocks[k] : 0, np, cap);
			}
			int rr = probe_c2c_rounds(n);
			out->c2c_all_pairs_rounds = rr;
			for (int k = 0; k <= nb; k++)
				out->c2c_all_pairs_s += rr * probe_plan_c2c_step_s(c, quick, k, k < nb ? blocks[k] : 0, n / 2, cap);
			char what[200];
			if (out->c2c_all_pairs)
				snprintf(what, sizeof(what),
					 "every pair (fewer rounds than by class): %d pairs in %d rounds x (%d block sizes + latency)",
					 out->c2c.npairs, rr, nb);
			else
				snprintf(what, sizeof(what),
					 "%d classes, %d of %d pairs in %d rounds x (%d block sizes + latency); all pairs: %d rounds",
					 out->c2c.nclasses, out->c2c_batch.n, out->c2c.npairs, out->c2c_batch.nrounds, nb, rr);
			step_add(out, g, steps, sec, what);
			continue;
		}
		step_add(out, g, 1, c->group_s[quick][g], fixed_what[g]);
	}
	out->predicted_all_s = out->predicted_max_s = out->predicted_s;
	/* finer classes only where a class has pairs its first batch does not measure */
	int more = 0;
	for (int q = 0; q < out->c2c.npairs && !more; q++)
		more = out->c2c.role[q] == PROBE_C2C_UNMEASURED;
	if (more && out->c2c.spent_s < out->c2c.budget_s)
		out->predicted_max_s += out->c2c.budget_s - out->c2c.spent_s;
	for (int i = 0; i < out->nsteps; i++) {
		if (!strcmp(out->step[i].group, "c2c"))
			out->predicted_all_s += out->c2c_all_pairs_s - out->step[i].seconds;
		if (!strcmp(out->step[i].group, "contexts"))
			out->predicted_all_s += out->contexts_all_teams_s - out->step[i].seconds;
	}
	return 0;
}
