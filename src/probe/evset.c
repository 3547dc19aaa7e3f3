/* Ways by congruent pages (evset.h): which 4 KiB pages share a set group of a physically indexed
 * level is measured (a self-evicting set, reduced one page at a time), so the K sweep of
 * BlackjackBench §3.1.3 no longer needs physical pages that keep set alignment. */
#include "probe/evset.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/order.h"
#include "analysis/steps.h"
#include "probe/chase.h"

#define EV_PAGE 4096u
#define EV_MAX_LEVEL (8u << 20) /* above: too many colours for the prefix signal (see below) */
#define EV_MAX_K 48
#define EV_LINES 8 /* lines walked per page */
#define EV_REPS 7
#define EV_BUDGET_S 8 /* seconds a level's search may take */

struct ev {
	const struct probe_opts *o;
	char *base;
	size_t line, lpp;     /* line bytes, lines per page */
	size_t *off, *list;   /* scratch: slot offsets, page list */
	struct rng r;
	int tests;
	probe_evset_walk_fn *model; /* a simulated level instead of timing (tests); NULL: time */
	void *model_ctx;
	uint64_t deadline_ns;       /* CLOCK_MONOTONIC; 0: none */
	int expired;
};

/* Interrupted, or over the time budget (a loaded machine makes the search repeat itself). */
static int ev_stopped(struct ev *e)
{
	if (!e->expired && e->deadline_ns) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		e->expired = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec > e->deadline_ns;
	}
	return e->expired || probe_opts_stopped(e->o);
}

void probe_evset_result_init(struct probe_evset_result *r)
{
	*r = (struct probe_evset_result){ .ways = NAN, .hit_ns = NAN, .miss_ns = NAN };
}

void probe_evset_result_release(struct probe_evset_result *r)
{
	probe_curve_release(&r->curve);
}

int probe_evset_overflows(double walk_ns, double base_ns, double tau)
{
	return isfinite(walk_ns) && isfinite(base_ns) && walk_ns > base_ns * (1.0 + tau);
}

double probe_evset_sweep_ways(const double *y, size_t n, double tau, double *step)
{
	*step = 0;
	double *tmp = malloc(n * sizeof(double));
	if (!tmp)
		return NAN;
	double ways = NAN;
	for (size_t i = 1; i < n && !isfinite(ways); i++) {
		memcpy(tmp, y, i * sizeof(double));
		double flat = order_median(tmp, i), thr = flat * (1 + fmax(0.15, 3 * tau));
		if (!(y[i] > thr))
			continue;
		size_t j = i + 1;
		while (j < n && y[j] > thr)
			j++;
		if (j == n) {
			ways = (double)i;
			*step = y[i] / flat - 1;
		}
	}
	free(tmp);
	return ways;
}

/* ns per access of a cyclic walk over EV_LINES lines of each of the n pages listed (pages in that
 * order, the lines of a page in random order), the fastest of EV_REPS repetitions of at least
 * 2^14 steps. The lines sit at EV_LINES page offsets; every line at one offset falls in one set
 * of a lower level indexed within the page, so n pages above its ways keep it missing, and the
 * footprint, n/8 pages, stays far below the level's size: what overflows is a set, not the level. */
static double ev_walk_time(struct ev *e, const size_t *pages, size_t n)
{
	size_t c = 0, lines = e->lpp < EV_LINES ? e->lpp : EV_LINES, stride = EV_PAGE / lines;
	for (size_t i = 0; i < n; i++) {
		size_t *seg = e->off + c;
		for (size_t l = 0; l < lines; l++)
			e->off[c++] = pages[i] * EV_PAGE + l * stride;
		rng_shuffle(&e->r, seg, lines);
	}
	if (!c)
		return NAN;
	void *p = chase_link(e->base, e->off, c);
	chase_run(&p, 2 * (uint64_t)c);
	uint64_t steps = c > (1u << 14) ? c : (1u << 14);
	double best = INFINITY;
	for (int r = 0; r < EV_REPS; r++) {
		double ns = (double)chase_run(&p, steps) / (double)((steps + 63) / 64 * 64);
		best = ns < best ? ns : best;
	}
	return best;
}

static double ev_walk(struct ev *e, const size_t *pages, size_t n)
{
	e->tests++;
	return e->model ? e->model(e->model_ctx, pages, n) : ev_walk_time(e, pages, n);
}

/* The walk over set minus its element skip (skip >= n: the whole set). */
static double ev_walk_without(struct ev *e, const size_t *set, size_t n, size_t skip)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (i != skip)
			e->list[m++] = set[i];
	return ev_walk(e, e->list, m);
}

/* Whether a walk over the n pages overflows a set: three walks in a row above cut (ns per
 * access). Calling a set overflowing when it is not is the costly mistake of a reduction (it
 * drops a page the set needs), so it takes three; the other mistake only keeps a page a later
 * pass drops. */
static int ev_over(struct ev *e, const size_t *pages, size_t n, double cut)
{
	for (int i = 0; i < 3; i++)
		if (!(ev_walk(e, pages, n) > cut))
			return 0;
	return 1;
}

/* The cut between the base (hits) and a set that overflows: 60 % of the way to the median of
 * three walks over the set; NAN when the set does not stand out from the base by 4 %. */
static double ev_cut(struct ev *e, const size_t *set, size_t n, double base)
{
	double w[3];
	for (int i = 0; i < 3; i++)
		w[i] = ev_walk(e, set, n);
	double s = order_median(w, 3);
	return probe_evset_overflows(s, base, 0.04) ? base + 0.6 * (s - base) : NAN;
}

/* One page at a time: drops every page whose removal leaves the set overflowing. A false "hit"
 * keeps a page that is not needed (a later pass drops it); a false "miss" drops a needed one,
 * after which the set no longer overflows: every 8 drops the set is walked again, and when it no
 * longer stands above the cut the drops since the last good check are undone and those pages kept
 * for this pass. Returns the new size, 0 when the set did not stand out from the base. */
static size_t ev_reduce(struct ev *e, size_t *set, size_t n, double base, size_t *saved, unsigned char *keep)
{
	double cut = ev_cut(e, set, n, base);
	if (!isfinite(cut))
		return 0;
	size_t nsaved = n, drops = 0;
	memcpy(saved, set, n * sizeof(*set));
	memset(keep, 0, n);
	for (size_t i = 0; i < n && n > 1 && !ev_stopped(e);) {
		size_t m = 0;
		for (size_t j = 0; j < n; j++)
			if (j != i)
				e->list[m++] = set[j];
		if (!keep[i] && ev_over(e, e->list, m, cut)) {
			memmove(set + i, set + i + 1, (n - i - 1) * sizeof(*set));
			memmove(keep + i, keep + i + 1, n - i - 1);
			n--;
			drops++;
		} else {
			i++;
		}
		if (drops == 8 || (i >= n && drops)) {
			double w[3];
			for (int r = 0; r < 3; r++)
				w[r] = ev_walk(e, set, n);
			if (order_median(w, 3) > cut) {
				nsaved = n;
				memcpy(saved, set, n * sizeof(*set));
			} else {
				/* undo: the saved set, with the pages dropped since then kept */
				for (size_t a = 0; a < nsaved; a++) {
					int still = 0;
					for (size_t b2 = 0; b2 < n && !still; b2++)
						still = set[b2] == saved[a];
					keep[a] = !still;
				}
				n = nsaved;
				memcpy(set, saved, n * sizeof(*set));
				/* continue after the first restored page */
				size_t first = 0;
				while (first < n && !keep[first])
					first++;
				i = first < n ? first + 1 : n;
			}
			drops = 0;
		}
	}
	return n;
}

static int ev_fail(struct probe_evset_result *out, const char *fmt, double a, double b)
{
	snprintf(out->reason, sizeof(out->reason), fmt, a, b);
	return 0;
}

/* Prefix search, reduction and check on one random order of the pool; 1 when out->minimal_pages
 * and set[0..n) hold a checked smallest self-evicting set, 0 when this order gave none (reason
 * set). */
static int ev_find_minimal(struct ev *e, const size_t *pool, size_t npool, size_t lo, double next_ns, size_t *set,
			   size_t *saved, unsigned char *keep, size_t *nset, double *base_out, double *tau_out, struct probe_evset_result *out)
{
	/* the scan: prefixes growing by a quarter. The walk time steps up where a set first
	 * overflows and keeps rising as more sets do; other structures (a TLB, a prefetcher's table)
	 * make one step and stay flat. The overflow is the first step of 10 % after which the curve
	 * still rises by 5 %; the base is the point before it, its spread from three walks. */
	size_t np = 0, ps[64];
	double fs[64];
	for (size_t p = lo; np < 64 && !ev_stopped(e); p += p / 4) {
		if (p > npool)
			p = npool;
		ps[np] = p;
		fs[np++] = ev_walk(e, pool, p);
		if (p == npool)
			break;
	}
	size_t j = 1;
	for (; j < np; j++)
		if (fs[j] > fs[j - 1] * 1.10 && (j + 1 == np || fs[j + 1] > fs[j] * 1.05))
			break;
	if (j >= np)
		return ev_fail(out, "not found: no prefix of the pool overflowed a set (%.0f pages, %.2f ns to %.2f ns)",
			       (double)npool, fs[0]);
	size_t prev = ps[j - 1], hit = ps[j];
	double b3[3] = { fs[j - 1], ev_walk(e, pool, prev), ev_walk(e, pool, prev) };
	double base = order_kth(b3, 3, 0), spread = (order_kth(b3, 3, 2) - base) / base;
	double tau = fmax(0.04, 2 * spread);
	*base_out = base;
	*tau_out = tau;
	double cut = base * (1 + tau);
	while (hit - prev > 1 && !ev_stopped(e)) {
		size_t mid = prev + (hit - prev) / 2;
		if (ev_over(e, pool, mid, cut))
			hit = mid;
		else
			prev = mid;
	}
	/* a quarter more than the first overflowing prefix: more sets overflow, a clearer start */
	size_t n = hit + hit / 4 < npool ? hit + hit / 4 : npool;
	memcpy(set, pool, n * sizeof(*set));
	for (int pass = 0; pass < 4 && n; pass++) {
		size_t before = n;
		n = ev_reduce(e, set, n, base, saved, keep);
		if (n == before)
			break;
	}
	if (!n)
		return ev_fail(out, "not found: the overflowing prefix of %.0f pages stopped standing out from the base (%.2f ns)",
			       (double)hit, base);
	/* the check: the whole set misses the level, every subset one page smaller hits it */
	/* a subset that reads as missing is walked twice more and keeps its fastest walk: noise
	 * only adds time */
	double miss = fmin(ev_walk(e, set, n), fmin(ev_walk(e, set, n), ev_walk(e, set, n))), worst_hit = 0;
	for (size_t i = 0; i < n; i++) {
		double h = ev_walk_without(e, set, n, i);
		for (int r = 0; r < 2 && probe_evset_overflows(h, base, tau); r++)
			h = fmin(h, ev_walk_without(e, set, n, i));
		worst_hit = fmax(worst_hit, h);
	}
	out->miss_ns = miss;
	out->hit_ns = worst_hit;
	double need = isfinite(next_ns) && next_ns > base ? base + 0.5 * (next_ns - base) : base * 1.5;
	if (n < 2 || miss < need || probe_evset_overflows(worst_hit, base, tau))
		return ev_fail(out, "not found: the reduced set did not check out (all pages %.2f ns, one fewer up to %.2f ns)", miss,
			       worst_hit);
	*nset = n;
	out->minimal_pages = (int)n;
	return 1;
}

/* The search on a pool of npool pages (evset.h) through e's walks; out->reason says why when no
 * answer. 0 or -ENOMEM. */
static int ev_search(struct ev *e, size_t npool, double next_ns, double lower_ways, struct probe_evset_result *out,
		     struct as_error *err)
{
	const struct probe_opts *o = e->o;
	size_t lo = isfinite(lower_ways) && lower_ways >= 1 ? (size_t)(2 * lower_ways) : 16;
	if (lo < 16)
		lo = 16;
	int rc = 0;
	e->list = malloc(npool * sizeof(size_t));
	size_t *pool = malloc(npool * sizeof(size_t)), *set = malloc(npool * sizeof(size_t));
	size_t *cls = malloc(npool * sizeof(size_t)), *flush = malloc(npool * sizeof(size_t));
	unsigned char *keep = malloc(npool);
	if (npool < 2 * lo) {
		rc = as_error_set(err, -EINVAL, "probe assoc: a pool of %zu pages is too small", npool);
		goto done;
	}
	if (!e->list || !pool || !set || !cls || !flush || !keep) {
		rc = as_error_set(err, -ENOMEM, "probe assoc: out of memory");
		goto done;
	}
	for (size_t i = 0; i < npool; i++)
		pool[i] = i;
	size_t n = 0;
	double base = NAN, tau = NAN;
	int found = 0;
	for (int attempt = 0; attempt < 3 && !found && !ev_stopped(e); attempt++) {
		probe_opts_report(o, "assoc", "congruent pages: finding an eviction set", attempt, 3);
		rng_shuffle(&e->r, pool, npool);
		found = ev_find_minimal(e, pool, npool, lo, next_ns, set, flush, keep, &n, &base, &tau, out);
	}
	if (!found) {
		if (e->expired)
			snprintf(out->reason, sizeof(out->reason), "not found within its time budget of %d s (%d walks; a loaded machine)",
				 EV_BUDGET_S, e->tests);
		goto done;
	}
	out->reason[0] = 0;
	/* extend the class: a pool page is congruent when it makes the set minus one overflow again */
	size_t ncls = 0, nflush = 0;
	memcpy(cls, set, n * sizeof(*set));
	ncls = n;
	double cut = 0.5 * (out->hit_ns + out->miss_ns);
	size_t want = 2 * n + 4 > EV_MAX_K ? EV_MAX_K : 2 * n + 4;
	for (size_t i = 0; i < npool && ncls < want && !ev_stopped(e); i++) {
		size_t q = pool[i], in = 0;
		for (size_t j = 0; j < n && !in; j++)
			in = set[j] == q;
		if (in)
			continue;
		memcpy(e->list, set + 1, (n - 1) * sizeof(*set));
		e->list[n - 1] = q;
		if (ev_walk(e, e->list, n) > cut && ev_walk(e, e->list, n) > cut)
			cls[ncls++] = q;
		else
			flush[nflush++] = q;
	}
	out->class_pages = (int)ncls;
	/* flushers: pages of other colours, twice the lower level's ways (24 when unknown: its
	 * replacement need not be LRU), so that every K keeps the lower level missing and the curve
	 * starts at this level's latency; no more, since they dilute the step */
	size_t nf = isfinite(lower_ways) && lower_ways >= 3 ? (size_t)(2 * lower_ways) : 24;
	if (nf > nflush)
		nf = nflush;
	for (size_t k = 1; k <= ncls && !ev_stopped(e); k++) {
		char label[64];
		snprintf(label, sizeof(label), "congruent pages, K = %zu", k);
		probe_opts_report(o, "assoc", label, (int)k - 1, (int)ncls);
		memcpy(set, cls, k * sizeof(*cls));
		memcpy(set + k, flush, nf * sizeof(*flush));
		/* the fastest of three walks, each with its own order of lines: a slow order is
		 * noise that adds time, never takes it away */
		double y = INFINITY;
		for (int w = 0; w < 3; w++)
			y = fmin(y, ev_walk(e, set, k + nf));
		if (probe_curve_add(&out->curve, (double)k, y, y) != 0) {
			rc = as_error_set(err, -ENOMEM, "probe assoc: out of memory");
			goto done;
		}
	}
	if (e->expired) {
		snprintf(out->reason, sizeof(out->reason), "not found within its time budget of %d s (%d walks; a loaded machine)",
			 EV_BUDGET_S, e->tests);
		goto done;
	}
	double step;
	double ways = probe_evset_sweep_ways(out->curve.min_ns, out->curve.n, tau, &step);
	double conf = fmin(1, step / 0.3);
	if (!isfinite(ways)) {
		snprintf(out->reason, sizeof(out->reason),
			 "not found: %d congruent pages gave no lasting step of 15 %% in the K sweep (smallest self-evicting set: %d pages)",
			 (int)ncls, out->minimal_pages);
	} else if (ways != out->minimal_pages - 1) {
		snprintf(out->reason, sizeof(out->reason),
			 "not found: the witnesses disagree, the K sweep steps after %.0f pages, the smallest self-evicting set has %d",
			 ways, out->minimal_pages);
	} else {
		out->ways = ways;
		out->confidence = conf;
	}
done:
	out->tests = e->tests;
	free(e->list);
	free(pool);
	free(set);
	free(cls);
	free(flush);
	free(keep);
	return rc;
}

int probe_evset_ways(const struct probe_opts *o, size_t level_bytes, size_t line, double next_ns, double lower_ways,
		     struct probe_evset_result *out, struct as_error *err)
{
	probe_evset_result_init(out);
	if (level_bytes > EV_MAX_LEVEL) {
		snprintf(out->reason, sizeof(out->reason),
			 "not tried: above %u MiB a level has too many page colours for one overflowing set to show in a walk",
			 EV_MAX_LEVEL >> 20);
		return 0;
	}
	if (line < 8 || line > EV_PAGE / 4 || EV_PAGE % line)
		return as_error_set(err, -EINVAL, "probe assoc: line of %zu bytes cannot tile a 4 KiB page", line);
	size_t npool = 2 * level_bytes / EV_PAGE;
	if (npool < 64)
		npool = 64;
	struct buffer buf;
	int rc = buffer_alloc(&buf, npool * EV_PAGE, HUGE_ALWAYS, err);
	if (rc)
		return as_error_prefix(err, "probe assoc: "), rc;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	struct ev e = { .o = o, .base = buf.data, .line = line, .lpp = EV_PAGE / line,
			.deadline_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec +
				       EV_BUDGET_S * 1000000000ull };
	rng_init(&e.r, o->seed ^ 0x65767365u);
	e.off = malloc(npool * EV_LINES * sizeof(size_t));
	rc = e.off ? ev_search(&e, npool, next_ns, lower_ways, out, err)
		   : as_error_set(err, -ENOMEM, "probe assoc: out of memory");
	free(e.off);
	buffer_release(&buf);
	return rc;
}

int probe_evset_search(probe_evset_walk_fn *walk, void *ctx, const struct probe_opts *o, size_t npool, double next_ns,
		       double lower_ways, struct probe_evset_result *out, struct as_error *err)
{
	probe_evset_result_init(out);
	struct ev e = { .o = o, .model = walk, .model_ctx = ctx };
	rng_init(&e.r, o->seed ^ 0x65767365u);
	return ev_search(&e, npool, next_ns, lower_ways, out, err);
}
