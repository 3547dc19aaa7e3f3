/* Curve statistics (see steps.h). */
#include "analysis/steps.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void steps_monotone(const double *y, double *out, size_t n)
{
	if (n == 0)
		return;
	double m = y[n - 1];
	for (size_t i = n; i-- > 0;) {
		if (y[i] < m)
			m = y[i];
		out[i] = m;
	}
}

static double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

static double rel_step(const double *y, size_t i)
{
	if (y[i] <= 0)
		return y[i + 1] > y[i] ? INFINITY : 0;
	return (y[i + 1] - y[i]) / y[i];
}

struct step_answer steps_first(const double *y, size_t n)
{
	struct step_answer a = { .index = -1 };
	if (n < 2)
		return a;
	double mean = 0;
	for (size_t i = 0; i + 1 < n; i++)
		mean += rel_step(y, i);
	mean /= (double)(n - 1);
	a.threshold = mean;
	/* Strictly above the mean; when no step is (a single step, or all equal), the first rising
	 * step that reaches it. */
	int equal_ok = 1;
	for (size_t i = 0; i + 1 < n; i++)
		if (rel_step(y, i) > mean && rel_step(y, i) > 0)
			equal_ok = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		double s = rel_step(y, i);
		if ((s > mean || (equal_ok && s >= mean)) && s > 0) {
			a.index = (int)i;
			a.size = s;
			/* Clear when the step is far above the noise floor (the steps before it). */
			double noise = 0;
			for (size_t k = 0; k < i; k++)
				if (fabs(rel_step(y, k)) > noise)
					noise = fabs(rel_step(y, k));
			a.confidence = clamp01(1.0 - fmax(noise, mean * 0.5) / s);
			break;
		}
	}
	return a;
}

struct step_answer steps_first_significant(const double *y, size_t n, double share)
{
	struct step_answer a = steps_first(y, n);
	if (a.index < 0)
		return a;
	double big = 0;
	for (size_t i = 0; i + 1 < n; i++)
		big = fmax(big, rel_step(y, i));
	double floor = share * big;
	for (size_t i = (size_t)a.index; i + 1 < n; i++) {
		double s = rel_step(y, i);
		if (s > a.threshold && s >= floor && s > 0) {
			if ((int)i != a.index) {
				/* Steps passed over are small bumps: the confidence falls with the biggest. */
				double bump = 0;
				for (size_t k = 0; k < i; k++)
					bump = fmax(bump, rel_step(y, k));
				a.index = (int)i;
				a.size = s;
				a.confidence = clamp01(1.0 - fmax(bump, a.threshold * 0.5) / s);
			}
			return a;
		}
	}
	return a;
}

static struct step_answer biggest(const double *y, size_t n, int scaled)
{
	struct step_answer a = { .index = -1 };
	if (n < 2)
		return a;
	double best = -INFINITY, second = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		double s = scaled ? (y[i + 1] - y[i]) * y[i + 1] : rel_step(y, i);
		if (s > best) {
			second = best > 0 ? best : second;
			best = s;
			a.index = (int)i;
		} else if (s > second) {
			second = s;
		}
	}
	if (best <= 0) {
		a.index = -1;
		return a;
	}
	a.size = best;
	a.threshold = second;
	a.confidence = clamp01(1.0 - second / best);
	return a;
}

struct step_answer steps_biggest_relative(const double *y, size_t n)
{
	return biggest(y, n, 0);
}

struct step_answer steps_biggest_scaled(const double *y, size_t n)
{
	return biggest(y, n, 1);
}

/* QT clustering in one dimension: a cluster's diameter is max(y) - min(y) of its members, so the
 * point that keeps the diameter smallest is the nearest non-member below min or above max. */
struct qt_work {
	const double *y;
	size_t *order;   /* indices of the remaining points sorted by y */
	size_t m;
};

static size_t grow(const struct qt_work *w, size_t seed, double rel, size_t *lo_out, size_t *hi_out)
{
	/* In y-sorted order a cluster grown this way is always a contiguous range [lo, hi]. */
	size_t lo = seed, hi = seed;
	double sum = w->y[w->order[seed]];
	for (;;) {
		size_t cnt = hi - lo + 1;
		if (cnt == w->m)
			break;
		double ymin = w->y[w->order[lo]], ymax = w->y[w->order[hi]];
		double dlo = lo > 0 ? ymax - w->y[w->order[lo - 1]] : INFINITY;
		double dhi = hi + 1 < w->m ? w->y[w->order[hi + 1]] - ymin : INFINITY;
		int take_lo = dlo <= dhi;
		double diam = take_lo ? dlo : dhi;
		if (diam > rel * (sum / (double)cnt))
			break;
		if (take_lo)
			sum += w->y[w->order[--lo]];
		else
			sum += w->y[w->order[++hi]];
	}
	*lo_out = lo;
	*hi_out = hi;
	return hi - lo + 1;
}

static int cmp_idx_y(const void *a, const void *b, void *ctx)
{
	const double *y = ctx;
	double u = y[*(const size_t *)a], v = y[*(const size_t *)b];
	if (u != v)
		return (u > v) - (u < v);
	return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

static void sort_by_y(size_t *idx, size_t n, const double *y)
{
	/* Insertion sort: n is a curve's point count (tens to hundreds) and this keeps the
	 * function reentrant without qsort_r. */
	for (size_t i = 1; i < n; i++) {
		size_t v = idx[i], j = i;
		while (j > 0 && cmp_idx_y(&idx[j - 1], &v, (void *)y) > 0) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = v;
	}
}

static int cmp_cluster(const void *a, const void *b)
{
	const struct qt_cluster *p = a, *q = b;
	return (p->min_y > q->min_y) - (p->min_y < q->min_y);
}

int steps_qt_cluster(const double *x, const double *y, size_t n, double rel_diameter,
		     struct qt_cluster *out, int max_out)
{
	if (n == 0 || n > STEPS_QT_MAX_POINTS || max_out < 1 || !(rel_diameter > 0))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(y[i]) || !isfinite(x[i]))
			return -1;
	size_t *order = malloc(n * sizeof(size_t));
	if (!order)
		return -1;
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	sort_by_y(order, n, y);
	struct qt_work w = { y, order, n };
	int k = 0;
	while (w.m > 0 && k < max_out) {
		size_t best_lo = 0, best_hi = 0, best_n = 0;
		double best_diam = INFINITY;
		for (size_t s = 0; s < w.m; s++) {
			size_t lo, hi;
			size_t cnt = grow(&w, s, rel_diameter, &lo, &hi);
			double diam = y[order[hi]] - y[order[lo]];
			if (cnt > best_n || (cnt == best_n && diam < best_diam)) {
				best_n = cnt;
				best_lo = lo;
				best_hi = hi;
				best_diam = diam;
			}
		}
		struct qt_cluster *c = &out[k++];
		memset(c, 0, sizeof(*c));
		c->min_x = INFINITY;
		c->max_x = -INFINITY;
		c->first = SIZE_MAX;
		double sum = 0;
		for (size_t t = best_lo; t <= best_hi; t++) {
			size_t i = order[t];
			if (x[i] < c->min_x)
				c->min_x = x[i];
			if (x[i] > c->max_x)
				c->max_x = x[i];
			if (i < c->first)
				c->first = i;
			if (i > c->last)
				c->last = i;
			sum += y[i];
			c->points++;
		}
		c->min_y = y[order[best_lo]];
		c->max_y = y[order[best_hi]];
		c->mean_y = sum / (double)c->points;
		/* Remove the cluster's range from the y-sorted remainder. */
		memmove(order + best_lo, order + best_hi + 1, (w.m - best_hi - 1) * sizeof(size_t));
		w.m -= best_n;
	}
	free(order);
	qsort(out, (size_t)k, sizeof(*out), cmp_cluster);
	return k;
}

int steps_levels(struct qt_cluster *c, int n, size_t min_points)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		if (c[i].points >= min_points && c[i].max_x >= 2 * c[i].min_x)
			c[k++] = c[i];
	return k;
}

double steps_level_edge(const double *x, const double *y, size_t n, const struct qt_cluster *lower,
			const struct qt_cluster *upper)
{
	double half = 0.5 * (lower->min_y + upper->min_y);
	double edge = lower->max_x;
	for (size_t i = lower->first; i < n && i <= upper->last; i++) {
		if (y[i] > half)
			break;
		if (x[i] > edge)
			edge = x[i];
	}
	return edge;
}

int steps_hierarchy(const double *x, const double *y, size_t n, struct level *out, int max,
		    double *final_y, double *final_last_y)
{
	*final_y = NAN;
	*final_last_y = NAN;
	if (n == 0 || n > STEPS_QT_MAX_POINTS || max < 1)
		return -1;
	double *ym = malloc(n * sizeof(double));
	struct qt_cluster *cl = malloc(n * sizeof(struct qt_cluster));
	if (!ym || !cl) {
		free(ym);
		free(cl);
		return -1;
	}
	steps_monotone(y, ym, n);
	int k = steps_qt_cluster(x, ym, n, 0.25, cl, (int)n);
	int nl = k > 0 ? steps_levels(cl, k, 3) : 0;
	/* The last plateau is the final one (memory, or the page walk) when it reaches the end of
	 * the curve, or when the few points after it stay within 25 % of it (a stray last point
	 * that QT left alone); a curve cut off in a transition rises further. */
	int has_final = nl > 0 && cl[nl - 1].max_x >= x[n - 1];
	if (nl > 0 && !has_final) {
		has_final = 1;
		for (size_t i = 0; i < n; i++)
			if (x[i] > cl[nl - 1].max_x && ym[i] > 1.25 * cl[nl - 1].max_y)
				has_final = 0;
	}
	int levels = has_final ? nl - 1 : nl;
	if (levels > max)
		levels = max;
	for (int i = 0; i < levels; i++) {
		struct level *l = &out[i];
		l->size = i + 1 < nl ? steps_level_edge(x, ym, n, &cl[i], &cl[i + 1]) : cl[i].max_x;
		l->qt_max_x = cl[i].max_x;
		l->latency = cl[i].min_y;
		l->points = cl[i].points;
		double gap = i + 1 < nl ? cl[i + 1].min_y / cl[i].max_y - 1 : 0;
		l->confidence = fmin(1.0, (double)cl[i].points / 6.0) * fmax(0.0, fmin(1.0, gap / 0.5));
	}
	if (has_final) {
		*final_y = cl[nl - 1].min_y;
		*final_last_y = y[n - 1];
	}
	free(ym);
	free(cl);
	return levels;
}

double steps_assoc_ways(const double *x, const double *y, size_t n, double level_ns, double next_ns,
			double *confidence, int *step_index)
{
	*confidence = 0;
	*step_index = -1;
	if (n < 2)
		return NAN;
	double *ym = malloc(n * sizeof(double));
	if (!ym)
		return NAN;
	steps_monotone(y, ym, n);
	size_t s = 0;
	while (s < n && ym[s] < 0.8 * level_ns)
		s++;
	double ways = NAN;
	if (s + 1 < n) {
		struct step_answer a = steps_biggest_relative(ym + s, n - s);
		/* With set-preserving placement every K up to the ways hits this level: the curve stays
		 * flat until the step (the last few K before it may rise a little: any other access
		 * evicts from a full set). A curve that has climbed by half three quarters of the way to
		 * its biggest step is scattered placement (a virtual machine's pages), not ways. */
		if (a.index >= 0 && a.size >= 0.5 && ym[s + (size_t)(3 * a.index) / 4] <= 1.5 * ym[s] &&
		    (!isfinite(next_ns) || ym[s + (size_t)a.index + 1] >= 0.75 * next_ns)) {
			*step_index = (int)s + a.index;
			*confidence = a.confidence;
			ways = x[*step_index];
		}
	}
	free(ym);
	return ways;
}

int steps_tlb_levels(const double *x, const double *pages_y, const double *control_y, size_t n,
		     struct level *out, int max, double *base, double *walk_y)
{
	*base = n ? control_y[0] : 0;
	*walk_y = NAN;
	if (n == 0)
		return -1;
	double *y = malloc(n * sizeof(double));
	if (!y)
		return -1;
	for (size_t i = 0; i < n; i++)
		y[i] = *base + fmax(0.0, pages_y[i] - control_y[i]);
	double last;
	int k = steps_hierarchy(x, y, n, out, max, walk_y, &last);
	free(y);
	return k;
}

int steps_knee_proportional(const double *y, size_t n, double *confidence)
{
	if (!y || n == 0)
		return -1;
	int best = -1;
	double best_err = INFINITY;
	for (size_t f = 1; f <= n; f++) {
		/* The flat level: the median of the first f points (sorted copy by insertion). */
		double v[64];
		size_t m = f < 64 ? f : 64;
		for (size_t i = 0; i < m; i++) {
			size_t j = i;
			while (j > 0 && v[j - 1] > y[i]) {
				v[j] = v[j - 1];
				j--;
			}
			v[j] = y[i];
		}
		double flat = m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
		if (!(flat > 0))
			continue;
		double err = 0;
		for (size_t i = 0; i < n; i++) {
			double s = (double)(i + 1), pred = flat * (s > (double)f ? s / (double)f : 1.0);
			double r = (y[i] - pred) / pred;
			err += r * r;
		}
		err = sqrt(err / (double)n);
		if (err < best_err) {
			best_err = err;
			best = (int)f;
		}
	}
	if (confidence)
		*confidence = best < 0 ? 0 : fmax(0.0, fmin(1.0, 1.0 - 4.0 * best_err));
	return best;
}

struct step_answer steps_first_rise(const double *y, size_t n, double delta)
{
	struct step_answer a = { .index = -1 };
	if (!y || n < 3)
		return a;
	double lo = INFINITY;
	for (size_t i = 0; i < n; i++)
		lo = fmin(lo, y[i]);
	size_t m = 0;
	while (m < n && y[m] > lo * (1.0 + delta))
		m++;
	double *mono = malloc((n - m) * sizeof(double));
	if (!mono)
		return a;
	steps_monotone(y + m, mono, n - m);
	for (size_t i = 1; i < n - m; i++)
		if (mono[i] > mono[0] * (1.0 + delta)) {
			a.index = (int)(m + i - 1);
			a.size = (mono[i] - mono[i - 1]) / mono[i - 1];
			a.threshold = delta;
			/* A clear rise (several times delta) right at the step is confident; a creeping one less. */
			a.confidence = fmin(1.0, (mono[i] - mono[0]) / mono[0] / (4.0 * delta));
			break;
		}
	free(mono);
	return a;
}
