/* Layer conditions; see lc.h. */
#include "model/lc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double predict_share(const struct machine_level *L, int cores)
{
	long share = L->cores_per_group > 1 ? (cores < L->cores_per_group ? cores : L->cores_per_group) : 1;
	if (share < 1)
		share = 1;
	return L->size_bytes / (double)share;
}

struct off {
	int64_t v;
	struct poly p;
	int read, write;
};

static int off_cmp(const void *x, const void *y)
{
	const struct off *a = x, *b = y;
	return (a->v > b->v) - (a->v < b->v);
}

/* The distinct offsets of array ar's accesses into offs (with their symbolic form and whether
 * each is read or written), *first its first access (-1: none). The count, or -EINVAL when two
 * accesses to the array move differently with a loop. */
static int array_offsets(const struct kernel *k, const struct kbound *b, int ar, struct off *offs, int *first,
			 struct as_error *err)
{
	int n = 0;
	*first = -1;
	for (int i = 0; i < k->naccesses; i++) {
		if (k->acc[i].array != ar)
			continue;
		if (*first < 0)
			*first = i;
		for (int l = 0; l < k->nloops; l++)
			if (b->coef[i][l] != b->coef[*first][l]) {
				char s1[160], s2[160];
				kernel_access_format(k, *first, s1, sizeof(s1));
				kernel_access_format(k, i, s2, sizeof(s2));
				return as_error_set(err, -EINVAL,
						    "%s:%d:%d: layer conditions need the accesses to one array to move alike, but "
						    "%s and %s do not (use --cache-predictor sim)",
						    k->file, k->acc[i].pos.line, k->acc[i].pos.col, s1, s2);
			}
		int j;
		for (j = 0; j < n; j++)
			if (offs[j].v == b->off[i])
				break;
		if (j == n) {
			offs[n] = (struct off){ b->off[i], k->acc[i].idx.c, 0, 0 };
			n++;
		}
		if (k->acc[i].write)
			offs[j].write = 1;
		else
			offs[j].read = 1;
	}
	return n;
}

/* Array ar's reuse entries, in the inner loop's direction: the first reuses across the next
 * outer loop (or never), each further one the offset before it; an array the inner loop does
 * not move is all hits. *written: the array is written and moves. 0 or a negative errno. */
static int array_entries(const struct kernel *k, const struct kbound *b, int ar, struct lc_analysis *a,
			 int64_t *written, double cl_bytes, struct as_error *err)
{
	int inner = k->nloops - 1, first;
	struct off offs[KERNEL_MAX_ACCESSES];
	int n = array_offsets(k, b, ar, offs, &first, err);
	if (n <= 0)
		return n;
	int64_t ci = inner >= 0 ? b->coef[first][inner] : 0;
	int any_write = 0;
	for (int j = 0; j < n; j++)
		any_write |= offs[j].write;
	if (ci == 0) {
		/* the same elements in every inner iteration: hits (the first miss is amortised) */
		a->zero_hits += n;
		return 0;
	}
	if (ci < 0)
		for (int j = 0; j < n; j++)
			offs[j].v = -offs[j].v;
	qsort(offs, (size_t)n, sizeof(offs[0]), off_cmp);
	double stride_bytes = fabs((double)ci * (double)k->loop[inner].step) * k->array[ar].elsize;
	double lines = a->iterations_per_cl * (stride_bytes < cl_bytes ? stride_bytes / cl_bytes : 1.0);
	/* reuse across the next outer loop: the array does not move with it */
	int outer_reuse = inner >= 1 && b->coef[first][inner - 1] == 0;
	for (int j = 0; j < n; j++) {
		if (a->nentries >= LC_MAX_ENTRIES)
			return as_error_set(err, -E2BIG, "too many accesses for the layer conditions");
		struct lc_entry *e = &a->e[a->nentries++];
		e->array = ar;
		e->write_only = offs[j].write && !offs[j].read;
		e->lines = lines;
		if (j == 0) {
			if (outer_reuse) {
				const struct kloop *L = &k->loop[inner];
				e->dist_val = b->trips[inner] * L->step * (ci < 0 ? -ci : ci);
				struct poly ext;
				e->sym = L->step == 1 && !poly_sub(&ext, &L->end, &L->start) &&
					 !poly_mul(&e->dist, &ext, &k->acc[first].idx.coef[inner]);
				if (e->sym && ci < 0)
					e->sym = !poly_scale(&e->dist, &e->dist, -1);
			} else {
				e->inf = 1;
			}
		} else {
			e->dist_val = offs[j].v - offs[j - 1].v;
			e->sym = !poly_sub(&e->dist, &offs[j].p, &offs[j - 1].p);
			if (e->sym && ci < 0)
				e->sym = !poly_scale(&e->dist, &e->dist, -1);
		}
	}
	*written = any_write;
	return 0;
}

/* The distinct finite reuse distances of a's entries into ts, ascending; their count. */
static int distances(const struct lc_analysis *a, int64_t *ts)
{
	int nt = 0;
	for (int i = 0; i < a->nentries; i++) {
		if (a->e[i].inf || a->e[i].dist_val <= 0)
			continue;
		int j;
		for (j = 0; j < nt && ts[j] != a->e[i].dist_val; j++)
			;
		if (j == nt)
			ts[nt++] = a->e[i].dist_val;
	}
	for (int i = 1; i < nt; i++)
		for (int j = i; j > 0 && ts[j - 1] > ts[j]; j--) {
			int64_t x = ts[j];
			ts[j] = ts[j - 1];
			ts[j - 1] = x;
		}
	return nt;
}

/* The condition where everything fits: the bytes of every array the kernel uses. */
static void condition_all_fit(const struct kernel *k, const struct kbound *b, struct lc_condition *C)
{
	poly_const(&C->req, 0);
	C->req_bytes = 0;
	for (int ar = 0; ar < k->narrays; ar++) {
		int used = 0;
		for (int i = 0; i < k->naccesses; i++)
			used |= k->acc[i].array == ar;
		if (!used)
			continue;
		C->req_bytes += (double)b->bytes[ar];
		struct poly p;
		poly_const(&p, k->array[ar].elsize);
		for (int d = 0; d < k->array[ar].ndims && C->sym; d++)
			if (poly_mul(&p, &p, &k->array[ar].dim[d]))
				C->sym = 0;
		if (C->sym && poly_add(&C->req, &C->req, &p))
			C->sym = 0;
	}
}

/* Condition C for reuse distance C->t (C->all_fit: everything fits): which entries hit and miss,
 * the lines they bring in and the written arrays' lines evicted, and what the condition needs. */
static void condition_fill(const struct kernel *k, const struct kbound *b, const struct lc_analysis *a,
			   const int64_t *written, struct lc_condition *C)
{
	C->hits = a->zero_hits;
	C->sym = 1;
	poly_const(&C->req, 0);
	int64_t tsum = 0; /* elements */
	struct poly tpoly;
	int have_tpoly = 0;
	for (int i = 0; i < a->nentries; i++) {
		const struct lc_entry *e = &a->e[i];
		if (!C->all_fit && !e->inf && e->dist_val == C->t && e->sym) {
			tpoly = e->dist;
			have_tpoly = 1;
		}
	}
	int leading_miss[KERNEL_MAX_ARRAYS] = { 0 };
	for (int i = 0; i < a->nentries; i++) {
		const struct lc_entry *e = &a->e[i];
		int hit = C->all_fit || (!e->inf && e->dist_val <= C->t);
		if (hit) {
			C->hits++;
			if (!C->all_fit) {
				tsum += e->dist_val;
				if (!e->sym || poly_add(&C->req, &C->req, &e->dist))
					C->sym = 0;
			}
		} else {
			C->misses++;
			C->lines_in += e->lines;
			if (!e->write_only)
				C->lines_in_nowa += e->lines;
			if (C->t > 0) {
				tsum += C->t;
				if (!have_tpoly || poly_add(&C->req, &C->req, &tpoly))
					C->sym = 0;
			}
			if (e->inf || (i == 0 || a->e[i - 1].array != e->array))
				leading_miss[e->array] = 1;
		}
	}
	for (int ar = 0; ar < k->narrays; ar++)
		if (written[ar] && leading_miss[ar]) {
			C->evicts++;
			for (int i = 0; i < a->nentries; i++)
				if (a->e[i].array == ar) {
					C->lines_out += a->e[i].lines;
					break;
				}
		}
	if (C->all_fit) {
		condition_all_fit(k, b, C);
	} else {
		C->req_bytes = (double)tsum * kernel_elsize(k);
		if (C->sym && poly_scale(&C->req, &C->req, kernel_elsize(k)))
			C->sym = 0;
	}
}

int lc_analyse(const struct kernel *k, const struct kbound *b, double cl_bytes, struct lc_analysis *a, struct as_error *err)
{
	memset(a, 0, sizeof(*a));
	a->iterations_per_cl = cl_bytes / kernel_elsize(k);
	int64_t written[KERNEL_MAX_ARRAYS] = { 0 };
	for (int i = 0; i < k->naccesses; i++) {
		if (k->acc[i].write)
			a->writes++;
		else
			a->reads++;
	}
	for (int ar = 0; ar < k->narrays; ar++) {
		int rc = array_entries(k, b, ar, a, &written[ar], cl_bytes, err);
		if (rc)
			return rc;
	}
	int64_t ts[LC_MAX_ENTRIES];
	int nt = distances(a, ts);
	/* condition 0: nothing reused; then one per distance; then everything fits */
	for (int c = -1; c <= nt && a->ncond < LC_MAX_COND; c++) {
		struct lc_condition *C = &a->cond[a->ncond++];
		memset(C, 0, sizeof(*C));
		C->all_fit = c == nt;
		C->t = c < 0 ? 0 : c == nt ? -1 : ts[c];
		condition_fill(k, b, a, written, C);
	}
	return 0;
}

int lc_active(const struct lc_analysis *a, double size_bytes)
{
	int best = 0;
	for (int c = 1; c < a->ncond; c++)
		if (a->cond[c].req_bytes <= size_bytes && a->cond[c].hits > a->cond[best].hits)
			best = c;
	return best;
}

int64_t lc_transition(const struct lc_analysis *a, int c, const struct kbound *b, int sym, double size_bytes)
{
	const struct lc_condition *C = &a->cond[c];
	if (!C->sym || !(poly_syms(&C->req) & (1u << sym)))
		return -1;
	int64_t vals[POLY_MAX_SYMS];
	memcpy(vals, b->val, sizeof(vals));
	/* requirement as a function of the constant: increasing for the kernels we accept */
#define FITS(x) (vals[sym] = (x), poly_eval(&C->req, vals, &r) == 0 && (double)r <= size_bytes)
	int64_t r;
	if (!FITS(1))
		return 0;
	int64_t lo = 1, hi = 2;
	while (hi < ((int64_t)1 << 50) && FITS(hi)) {
		lo = hi;
		hi *= 2;
	}
	while (hi - lo > 1) {
		int64_t mid = lo + (hi - lo) / 2;
		if (FITS(mid))
			lo = mid;
		else
			hi = mid;
	}
#undef FITS
	return lo;
}

int lc_llc_level(const struct machine *m)
{
	for (int i = m->nlevels - 1; i >= 0; i--)
		if (m->level[i].has_cache)
			return i;
	return -1;
}

/* The traffic of condition C into T (the accesses of the kernel, the condition's hits, misses and
 * lines), weighted by w and added. */
static void traffic_add(const struct lc_analysis *a, const struct lc_condition *C, int write_allocate, double w,
			struct level_traffic *T)
{
	T->hits += w * C->hits;
	T->misses += w * C->misses;
	T->loads += w * a->reads;
	T->stores += w * a->writes;
	/* a write miss is loaded all the way up when the first level allocates on writes */
	T->lines_in += w * (write_allocate ? C->lines_in : C->lines_in_nowa);
	T->lines_out += w * C->lines_out;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* The traffic averaged over capacities log-uniform in [lo, hi]: the conditions change only at
 * their requirements, so the average is exact: each condition weighted by the share of the band
 * (on a log scale) in which it is the one lc_active chooses. */
static void traffic_band(const struct lc_analysis *a, double lo, double hi, int write_allocate, struct level_traffic *T)
{
	double x[LC_MAX_COND + 2];
	int n = 0;
	x[n++] = lo;
	for (int c = 0; c < a->ncond; c++)
		if (a->cond[c].req_bytes > lo && a->cond[c].req_bytes < hi)
			x[n++] = a->cond[c].req_bytes;
	x[n++] = hi;
	qsort(x, (size_t)n, sizeof(x[0]), cmp_double);
	double span = log(hi / lo);
	for (int i = 0; i + 1 < n; i++) {
		double w = log(x[i + 1] / x[i]) / span;
		if (w > 0)
			traffic_add(a, &a->cond[lc_active(a, x[i])], write_allocate, w, T);
	}
}

void lc_predict_opts(const struct lc_analysis *a, const struct machine *m, int cores, const struct lc_llc *llc,
		     struct cache_traffic *out)
{
	memset(out, 0, sizeof(*out));
	out->iterations_per_cl = a->iterations_per_cl;
	int last = lc_llc_level(m);
	for (int i = 0; i < m->nlevels && out->nlevels < MACHINE_MAX_LEVELS; i++) {
		const struct machine_level *L = &m->level[i];
		if (!L->has_cache)
			continue;
		struct level_traffic *T = &out->level[out->nlevels++];
		snprintf(T->name, sizeof(T->name), "%s", L->name);
		T->size_bytes = predict_share(L, cores);
		double band = 1;
		if (i == last && llc) {
			if (llc->scale > 0)
				T->size_bytes *= llc->scale;
			band = llc->band > 1 ? llc->band : 1;
		}
		if (band > 1 && T->size_bytes > 0)
			traffic_band(a, T->size_bytes / sqrt(band), T->size_bytes * sqrt(band), m->level[0].write_allocate, T);
		else
			traffic_add(a, &a->cond[lc_active(a, T->size_bytes)], m->level[0].write_allocate, 1, T);
	}
}

void lc_predict(const struct lc_analysis *a, const struct machine *m, int cores, struct cache_traffic *out)
{
	lc_predict_opts(a, m, cores, NULL, out);
}
