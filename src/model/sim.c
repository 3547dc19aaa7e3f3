/* The simulator predictor; see sim.h. */
#include "model/sim.h"

#include "common/buffer.h"
#include "common/timer.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static int level_index(const struct machine *m, const char *name)
{
	if (!name[0])
		return -1;
	int c = 0;
	for (int i = 0; i < m->nlevels; i++) {
		if (!m->level[i].has_cache)
			continue;
		if (!strcasecmp(m->level[i].name, name))
			return c;
		c++;
	}
	return -2;
}

int sim_config(const struct machine *m, int cores, struct cachesim_config *cfg, int *n, struct as_error *err)
{
	*n = 0;
	for (int i = 0; i < m->nlevels; i++) {
		const struct machine_level *L = &m->level[i];
		if (!L->has_cache)
			continue;
		if (*n >= CACHESIM_MAX_LEVELS)
			return as_error_set(err, -EINVAL, "more than %d cache levels", CACHESIM_MAX_LEVELS);
		struct cachesim_config *c = &cfg[(*n)++];
		memset(c, 0, sizeof(*c));
		snprintf(c->name, sizeof(c->name), "%s", L->name);
		double share = L->size_bytes > 0 ? L->size_bytes / predict_share(L, cores) : 1;
		c->ways = (uint64_t)L->ways;
		c->cl_size = (uint64_t)L->cl_size;
		c->sets = (uint64_t)((double)L->sets / share);
		if (c->sets < 1)
			c->sets = 1;
		c->replacement = L->replacement;
		c->write_allocate = L->write_allocate;
		c->write_back = L->write_back;
		c->inclusion = L->inclusive ? CS_INCLUSIVE : CS_NON_INCLUSIVE;
		const char *links[3] = { L->load_from, L->store_to, L->victims_to };
		int *dst[3] = { &c->load_from, &c->store_to, &c->victims_to };
		for (int k = 0; k < 3; k++) {
			int x = level_index(m, links[k]);
			if (x == -2) {
				/* MEM (or any level without a cache) is memory */
				x = -1;
				for (int j = 0; j < m->nlevels; j++)
					if (!strcasecmp(m->level[j].name, links[k]) && m->level[j].has_cache)
						return as_error_set(err, -EINVAL, "level %s: cannot follow '%s'", L->name, links[k]);
			}
			*dst[k] = x;
		}
		/* Kerncraft files leave load_from/store_to out of the last cache: memory */
		if (!L->load_from[0] && !L->victims_to[0] && i + 1 < m->nlevels && m->level[i + 1].has_cache)
			c->load_from = *n; /* the next cache level */
		if (!L->store_to[0] && i + 1 < m->nlevels && m->level[i + 1].has_cache && !L->victims_to[0])
			c->store_to = *n;
		if (L->ways <= 0 || L->sets <= 0 || L->cl_size <= 0)
			return as_error_set(err, -EINVAL, "level %s has no sets, ways and cl_size to simulate", L->name);
	}
	if (*n == 0)
		return as_error_set(err, -EINVAL, "the machine file describes no cache to simulate");
	return 0;
}

struct stream {
	uint64_t addr;
	int64_t step;
	int store;
};

void sim_cursor_init(struct sim_cursor *c, const struct kbound *b)
{
	for (int l = 0; l < b->nloops; l++)
		c->idx[l] = b->start[l];
}

uint64_t sim_walk(struct cachesim *s, const struct kernel *k, const struct kbound *b, struct sim_cursor *c, int64_t iterations)
{
	int nl = b->nloops, inner = nl - 1;
	int64_t *idx = c->idx;
	struct stream st[KERNEL_MAX_ACCESSES];
	int na = b->naccesses;
	uint64_t accesses = 0;
	int64_t done = 0;
	struct cachesim_level *L1 = &s->lv[0];
	int fast = (L1->setmask || L1->sets == 1) && L1->cfg.write_back;
	uint32_t *tags = L1->tags;
	uint64_t mask = L1->setmask, ways = L1->ways;
	unsigned shift = s->shift, sshift = L1->setshift;
	while (done < iterations) {
		for (int a = 0; a < na; a++) {
			int64_t e = b->off[a];
			for (int l = 0; l < nl; l++)
				e += b->coef[a][l] * idx[l];
			int ar = k->acc[a].array;
			st[a].addr = (uint64_t)(b->base[ar] + e * k->array[ar].elsize);
			st[a].step = b->coef[a][inner] * b->step[inner] * k->array[ar].elsize;
			st[a].store = k->acc[a].write;
		}
		int64_t left = (b->start[inner] + b->trips[inner] * b->step[inner] - idx[inner]) / b->step[inner];
		int64_t n = left < iterations - done ? left : iterations - done;
		if (fast) {
			/* the L1 hit on the most recent line of a set, with the level's numbers in registers
			 * and its counts local; everything else through the simulator */
			uint64_t loads = 0, stores = 0, lmask = (1ull << shift) - 1;
			int nst = 0;
			for (int a = 0; a < na; a++)
				nst += st[a].store != 0;
			for (int64_t it = 0; it < n;) {
				for (int a = 0; a < na; a++) {
					uint64_t line = st[a].addr >> shift;
					uint32_t *set = tags + (line & mask) * ways;
					if ((set[0] >> 1) == (uint32_t)(line >> sshift)) {
						if (st[a].store) {
							set[0] |= 1;
							stores++;
						} else {
							loads++;
						}
					} else {
						cachesim_access_slow(s, st[a].addr, st[a].store);
					}
					st[a].addr += (uint64_t)st[a].step;
				}
				it++;
				/* A run of iterations in which no access leaves the line it just used, and
				 * every such line is the most recent of its set: all of them are hits that
				 * change nothing but the counts (stores have set the dirty bits), so they
				 * are counted at once, exactly as one by one. */
				int64_t run = n - it;
				for (int a = 0; a < na && run >= 2; a++) {
					int64_t step = st[a].step;
					uint64_t cur = st[a].addr - (uint64_t)step, left_in_line;
					if (step == 0)
						continue;
					left_in_line = step > 0 ? ((cur | lmask) - cur) / (uint64_t)step : (cur & lmask) / (uint64_t)(-step);
					if (left_in_line < (uint64_t)run)
						run = (int64_t)left_in_line;
				}
				if (run < 2)
					continue;
				int mru = 1;
				for (int a = 0; a < na && mru; a++) {
					uint64_t line = (st[a].addr - (uint64_t)st[a].step) >> shift;
					mru = (tags[(line & mask) * ways] >> 1) == (uint32_t)(line >> sshift);
				}
				if (!mru)
					continue;
				loads += (uint64_t)run * (uint64_t)(na - nst);
				stores += (uint64_t)run * (uint64_t)nst;
				for (int a = 0; a < na; a++)
					st[a].addr += (uint64_t)(run * st[a].step);
				it += run;
			}
			L1->st.loads += loads;
			L1->st.stores += stores;
			L1->st.hits += loads + stores;
		} else {
			for (int64_t it = 0; it < n; it++)
				for (int a = 0; a < na; a++) {
					cachesim_access(s, st[a].addr, st[a].store);
					st[a].addr += (uint64_t)st[a].step;
				}
		}
		accesses += (uint64_t)(n * na);
		done += n;
		if (n < left) {
			idx[inner] += n * b->step[inner];
			break;
		}
		/* the next row: an odometer over the outer loops, wrapping around the whole nest */
		idx[inner] = b->start[inner];
		for (int l = inner - 1; l >= 0; l--) {
			idx[l] += b->step[l];
			if (idx[l] < b->start[l] + b->trips[l] * b->step[l])
				break;
			idx[l] = b->start[l];
		}
	}
	return accesses;
}

int sim_predict(const struct kernel *k, const struct kbound *b, const struct machine *m, int cores, uint64_t seed,
		int64_t min_iterations, struct cache_traffic *out, struct sim_info *info, struct as_error *err)
{
	struct cachesim_config cfg[CACHESIM_MAX_LEVELS];
	int n;
	int rc = sim_config(m, cores, cfg, &n, err);
	if (rc)
		return rc;
	struct cachesim *s = cachesim_new(cfg, n, seed, err);
	if (!s)
		return err && err->code ? err->code : -ENOMEM;
	memset(info, 0, sizeof(*info));
	info->seed = seed;
	int64_t end = 0;
	for (int i = 0; i < b->narrays; i++)
		if (b->base[i] + b->bytes[i] > end)
			end = b->base[i] + b->bytes[i];
	uint64_t maxaddr = cachesim_max_address(s);
	if ((uint64_t)end > maxaddr) {
		cachesim_free(s);
		char a[32], mx[32];
		return as_error_set(err, -E2BIG, "the arrays span %s, more than the simulator's %s",
				    buffer_format_size((size_t)end, a, sizeof(a)), buffer_format_size((size_t)maxaddr, mx, sizeof(mx)));
	}
	double cache_bytes = 0;
	for (int i = 0; i < n; i++)
		cache_bytes += (double)(cfg[i].sets * cfg[i].ways * cfg[i].cl_size);
	int64_t row = b->trips[b->nloops - 1];
	double per_it = b->iterations > 0 ? (double)b->total_bytes / (double)b->iterations : 8;
	if (per_it < 1)
		per_it = 1;
	/* measured: at least min_iterations in whole rows (when rows are shorter), at most a sweep */
	if (min_iterations < 1)
		min_iterations = 100000;
	int64_t meas = row <= min_iterations ? ((min_iterations + row - 1) / row) * row : min_iterations;
	if (meas > b->iterations)
		meas = b->iterations;
	/* warm-up: the caches cycle through their contents in about F iterations. Measure inside
	 * one sweep after 2F when there is room, else at the end of the first sweep (when the sweep
	 * is longer than F), else at the end of the second sweep: then the data (nearly) fits and
	 * the repeated kernel's steady state spans sweeps. Whole rows: the window starts at an
	 * array edge. */
	double fill = cache_bytes / per_it, iters = (double)b->iterations;
	double want;
	if (2 * fill + (double)meas <= iters)
		want = 2 * fill;
	else if (fill + (double)meas <= iters)
		want = iters - (double)meas;
	else
		want = iters + (iters - (double)meas);
	int64_t warm = row <= min_iterations ? (int64_t)(want / (double)row) * row : (int64_t)want;
	struct sim_cursor cur;
	sim_cursor_init(&cur, b);
	info->accesses = sim_walk(s, k, b, &cur, warm);
	cachesim_reset_stats(s);
	uint64_t t0 = timer_now_ns();
	uint64_t measured = sim_walk(s, k, b, &cur, meas);
	info->measured_seconds = (double)(timer_now_ns() - t0) / 1e9;
	info->measured_accesses = measured;
	info->accesses += measured;
	info->warmup_iterations = warm;
	info->measured_iterations = meas;
	memset(out, 0, sizeof(*out));
	out->iterations_per_cl = machine_line_bytes(m) / kernel_elsize(k);
	double units = (double)meas / out->iterations_per_cl;
	for (int i = 0; i < n; i++) {
		struct level_traffic *T = &out->level[out->nlevels++];
		const struct cachesim_stats *S = &s->lv[i].st;
		memcpy(T->name, cfg[i].name, sizeof(T->name));
		T->name[sizeof(T->name) - 1] = 0;
		T->size_bytes = (double)(cfg[i].sets * cfg[i].ways * cfg[i].cl_size);
		T->loads = (double)S->loads / (double)meas;
		T->stores = (double)S->stores / (double)meas;
		T->hits = (double)S->hits / (double)meas;
		T->misses = (double)S->misses / (double)meas;
		T->lines_in = (double)S->fetched / units;
		T->lines_out = (double)S->written / units;
	}
	cachesim_free(s);
	return 0;
}
