/* The cache simulator; see cachesim.h. */
#include "model/cachesim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

struct cachesim *cachesim_new(const struct cachesim_config *cfg, int n, uint64_t seed, struct as_error *err)
{
	if (n < 1 || n > CACHESIM_MAX_LEVELS)
		return as_error_set(err, -EINVAL, "a cache hierarchy has 1 to %d levels", CACHESIM_MAX_LEVELS), NULL;
	struct cachesim *s = calloc(1, sizeof(*s));
	if (!s)
		return as_error_set(err, -ENOMEM, "out of memory"), NULL;
	s->nlevels = n;
	s->rng = seed ? seed : 0x9e3779b97f4a7c15ull;
	uint64_t cl = cfg[0].cl_size;
	if (cl == 0 || (cl & (cl - 1))) {
		free(s);
		return as_error_set(err, -EINVAL, "cache line size %llu is not a power of two", (unsigned long long)cl), NULL;
	}
	while ((1ull << s->shift) < cl)
		s->shift++;
	for (int i = 0; i < n; i++) {
		const struct cachesim_config *c = &cfg[i];
		struct cachesim_level *L = &s->lv[i];
		L->cfg = *c;
		if (c->cl_size != cl) {
			cachesim_free(s);
			return as_error_set(err, -EINVAL, "level %s: every level must have the same line size (%llu B)", c->name,
					    (unsigned long long)cl), NULL;
		}
		if (c->ways > 4096 && c->sets > 0 && c->sets <= (1ull << 32)) {
			cachesim_free(s);
			return as_error_set(err, -EINVAL,
					    "level %s: %llu ways; the simulator searches a set line by line and takes at most "
					    "4096 (a level 'probe -o' could not measure is written fully associative: use the "
					    "layer conditions, --cache-predictor lc)",
					    c->name, (unsigned long long)c->ways), NULL;
		}
		if (c->sets == 0 || c->ways == 0 || c->sets > (1ull << 32)) {
			cachesim_free(s);
			return as_error_set(err, -EINVAL, "level %s: %llu sets of %llu ways is not a cache", c->name,
					    (unsigned long long)c->sets, (unsigned long long)c->ways), NULL;
		}
		int links[3] = { c->load_from, c->store_to, c->victims_to };
		for (int k = 0; k < 3; k++)
			if (links[k] >= n || (links[k] >= 0 && links[k] <= i)) {
				cachesim_free(s);
				return as_error_set(err, -EINVAL, "level %s: data may only move to a later level", c->name), NULL;
			}
		L->sets = c->sets;
		L->ways = c->ways;
		L->setmask = (c->sets & (c->sets - 1)) ? 0 : c->sets - 1;
		while (L->setmask && (1ull << L->setshift) < c->sets)
			L->setshift++;
		L->setmagic = c->sets > 1 ? UINT64_MAX / c->sets + 1 : 0;
		L->tags = malloc(sizeof(uint32_t) * c->sets * c->ways);
		if (!L->tags) {
			cachesim_free(s);
			return as_error_set(err, -ENOMEM, "out of memory for level %s", c->name), NULL;
		}
		memset(L->tags, 0xff, sizeof(uint32_t) * c->sets * c->ways);
	}
	return s;
}

void cachesim_free(struct cachesim *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nlevels; i++)
		free(s->lv[i].tags);
	free(s);
}

void cachesim_reset_stats(struct cachesim *s)
{
	for (int i = 0; i < s->nlevels; i++)
		memset(&s->lv[i].st, 0, sizeof(s->lv[i].st));
	s->mem_loads = s->mem_stores = 0;
}

uint64_t cachesim_max_address(const struct cachesim *s)
{
	uint64_t m = UINT64_MAX;
	for (int i = 0; i < s->nlevels; i++) {
		/* tag < 2^31 - 1 (the empty value is all ones) */
		uint64_t lines = ((1ull << 31) - 1) * s->lv[i].sets;
		if (lines < (m >> s->shift))
			m = lines << s->shift;
	}
	return m;
}

/* The set of a line, its index (in *idxp when asked) and the line's tag in that set. */
static uint32_t *set_at(struct cachesim_level *L, uint64_t line, uint32_t *tag, uint64_t *idxp)
{
	uint64_t idx, q;
	if (L->setmask || L->sets == 1) {
		idx = line & L->setmask;
		q = line >> L->setshift;
	} else {
		if (line < (1ull << 32))
			q = (uint64_t)(((unsigned __int128)L->setmagic * line) >> 64); /* exact below 2^32 */
		else
			q = line / L->sets;
		idx = line - q * L->sets;
	}
	*tag = (uint32_t)q;
	if (idxp)
		*idxp = idx;
	return L->tags + idx * L->ways;
}

static uint32_t *set_of(struct cachesim_level *L, uint64_t line, uint32_t *tag)
{
	return set_at(L, line, tag, NULL);
}

/* Way of the tag in its set, or -1. Empty ways (all ones) never match a tag < 2^31 - 1. With
 * SSE2 (every x86-64) four ways are compared per step. */
static inline __attribute__((always_inline)) long find(struct cachesim_level *L, const uint32_t *set, uint32_t tag)
{
#ifdef __SSE2__
	if ((L->ways & 3) == 0) {
		__m128i want = _mm_set1_epi32((int)tag);
		for (uint64_t w = 0; w < L->ways; w += 4) {
			__m128i v = _mm_srli_epi32(_mm_loadu_si128((const __m128i *)(const void *)(set + w)), 1);
			int mask = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, want)));
			if (mask)
				return (long)(w + (uint64_t)__builtin_ctz((unsigned)mask));
		}
		return -1;
	}
#endif
	for (uint64_t w = 0; w < L->ways; w++)
		if ((set[w] >> 1) == tag)
			return (long)w;
	return -1;
}

static void promote(struct cachesim_level *L, uint32_t *set, long w)
{
	if (L->cfg.replacement != REPL_LRU || w == 0)
		return;
	uint32_t t = set[w];
	for (long i = w; i > 0; i--)
		set[i] = set[i - 1];
	set[0] = t;
}

static void remove_way(struct cachesim_level *L, uint32_t *set, long w)
{
	for (uint64_t i = (uint64_t)w; i + 1 < L->ways; i++)
		set[i] = set[i + 1];
	set[L->ways - 1] = CACHESIM_EMPTY;
}

/* A load (store 0) or a store (1) of line arriving at level n, counted with its hit or miss: the
 * way of line, or -1; *setp is its set. At n = -1 (memory) it is counted there, *setp is NULL. */
static inline __attribute__((always_inline)) long lookup(struct cachesim *s, int n, uint64_t line, int store,
							  uint32_t **setp)
{
	if (n < 0) {
		if (store)
			s->mem_stores++;
		else
			s->mem_loads++;
		*setp = NULL;
		return -1;
	}
	struct cachesim_level *L = &s->lv[n];
	if (store)
		L->st.stores++;
	else
		L->st.loads++;
	uint32_t tag;
	uint32_t *set = set_of(L, line, &tag);
	long w = find(L, set, tag);
	if (w >= 0)
		L->st.hits++;
	else
		L->st.misses++;
	*setp = set;
	return w;
}

static void write_line(struct cachesim *s, int to, uint64_t line, int dirty, int victim);

/* A store level L does not keep (write-through, no write-allocate, a dirty eviction) goes on to
 * the level it stores to. */
static void pass_store(struct cachesim *s, struct cachesim_level *L, uint64_t line)
{
	L->st.written++;
	write_line(s, L->cfg.store_to, line, 1, 0);
}

/* Puts line into level i, evicting what the policy chooses. */
static void insert(struct cachesim *s, int i, uint64_t line, int dirty)
{
	struct cachesim_level *L = &s->lv[i];
	uint32_t tag;
	uint64_t setidx;
	uint32_t *set = set_at(L, line, &tag, &setidx);
	uint32_t victim = set[L->ways - 1];
	/* LRU and FIFO evict the oldest (last way, or nothing while it is empty); random any way
	 * of a full set */
	if (victim != CACHESIM_EMPTY && L->cfg.replacement == REPL_RANDOM) {
		s->rng ^= s->rng << 13;
		s->rng ^= s->rng >> 7;
		s->rng ^= s->rng << 17;
		uint64_t w = s->rng % L->ways;
		victim = set[w];
		remove_way(L, set, (long)w);
	}
	/* every way moves down one: the last is the victim (or empty, or moved up by remove_way) */
	uint64_t k = L->ways - 1;
#ifdef __SSE2__
	for (; k >= 4; k -= 4)
		_mm_storeu_si128((__m128i *)(void *)(set + k - 3), _mm_loadu_si128((const __m128i *)(const void *)(set + k - 4)));
#endif
	for (; k > 0; k--)
		set[k] = set[k - 1];
	set[0] = (tag << 1) | (uint32_t)(dirty != 0);
	if (victim == CACHESIM_EMPTY)
		return;
	uint64_t vline = (uint64_t)(victim >> 1) * L->sets + setidx;
	int vdirty = (int)(victim & 1);
	if (L->cfg.inclusion == CS_INCLUSIVE) {
		/* back-invalidate the copies above; a dirty copy's data leaves with the victim */
		for (int u = 0; u < i; u++) {
			struct cachesim_level *U = &s->lv[u];
			uint32_t ut;
			uint32_t *us = set_of(U, vline, &ut);
			long w = find(U, us, ut);
			if (w >= 0) {
				vdirty |= (int)(us[w] & 1);
				remove_way(U, us, w);
			}
		}
	}
	if (L->cfg.victims_to >= 0) {
		L->st.written++;
		write_line(s, L->cfg.victims_to, vline, vdirty, 1);
	} else if (vdirty && L->cfg.write_back) {
		pass_store(s, L, vline);
	}
}

/* A line (a write-back, a victim, or a store passed on) arriving at level `to` (-1: memory). */
static void write_line(struct cachesim *s, int to, uint64_t line, int dirty, int victim)
{
	uint32_t *set;
	long w = lookup(s, to, line, 1, &set);
	if (!set)
		return;
	struct cachesim_level *L = &s->lv[to];
	if (w >= 0) {
		if (dirty)
			set[w] |= 1;
		promote(L, set, w);
		return;
	}
	if (victim) {
		insert(s, to, line, dirty);
	} else if (L->cfg.write_allocate) {
		/* a partial line would be read first; a whole written-back line is not: Kerncraft and
		 * pycachesim count it as a store that allocates without a fetch */
		insert(s, to, line, 1);
	} else {
		pass_store(s, L, line);
	}
}

static int fetch(struct cachesim *s, int i, uint64_t line);

/* A load of line arriving at level n (-1: memory) from a miss above: a hit refreshes it, a miss
 * brings it in from further down. */
static void load_at(struct cachesim *s, int n, uint64_t line)
{
	uint32_t *set;
	long w = lookup(s, n, line, 0, &set);
	if (w >= 0)
		promote(&s->lv[n], set, w);
	else if (set)
		insert(s, n, line, fetch(s, n, line));
}

/* Brings line up to level i from where it lives below (the caller inserts it into level i).
 * Returns 1 when the line comes dirty, out of an exclusive victim cache. */
static int fetch(struct cachesim *s, int i, uint64_t line)
{
	struct cachesim_level *L = &s->lv[i];
	L->st.fetched++;
	int vic = L->cfg.victims_to;
	if (L->cfg.load_from < 0 && vic >= 0) {
		/* an exclusive victim cache below: look there first, take the line out if present */
		struct cachesim_level *V = &s->lv[vic];
		uint32_t *set;
		long w = lookup(s, vic, line, 0, &set);
		if (w >= 0) {
			int dirty = (int)(set[w] & 1);
			remove_way(V, set, w);
			return dirty;
		}
		V->st.fetched++;
		load_at(s, V->cfg.load_from, line);
		return 0;
	}
	load_at(s, L->cfg.load_from, line);
	return 0;
}

void cachesim_access_slow(struct cachesim *s, uint64_t addr, int store)
{
	struct cachesim_level *L = &s->lv[0];
	uint64_t line = addr >> s->shift;
	if (store == 2) {
		/* a write-through L1 has counted its store hit; the line goes on */
		L->st.hits++;
		pass_store(s, L, line);
		return;
	}
	uint32_t *set;
	long w = lookup(s, 0, line, store, &set);
	if (w >= 0) {
		promote(L, set, w);
		if (store) {
			if (L->cfg.write_back)
				set[L->cfg.replacement == REPL_LRU ? 0 : w] |= 1;
			else
				pass_store(s, L, line);
		}
		return;
	}
	if (store && !L->cfg.write_allocate) {
		pass_store(s, L, line);
		return;
	}
	int dirty = fetch(s, 0, line);
	insert(s, 0, line, dirty || (store && L->cfg.write_back));
	if (store && !L->cfg.write_back)
		pass_store(s, L, line);
}
