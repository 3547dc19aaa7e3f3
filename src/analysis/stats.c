/* See stats.h. The t distribution's tail comes from GSL (gsl_cdf_tdist_Q), not from a table. */
#include "analysis/stats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

void stats_sample(const double *v, size_t n, struct stats_sample *s)
{
	double sum = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i])) {
			sum += v[i];
			k++;
		}
	s->n = k;
	s->mean = k ? sum / (double)k : NAN;
	double ss = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			ss += (v[i] - s->mean) * (v[i] - s->mean);
	s->var = k >= 2 ? ss / (double)(k - 1) : NAN;
}

/* Welch-Satterthwaite degrees of freedom of two variances of the mean va, vb (not both 0), written
 * with the shares va / (va + vb) so that no square overflows: (va + vb)^2 / (va^2/(na-1) +
 * vb^2/(nb-1)). Between min(na, nb) - 1 and na + nb - 2 for finite inputs. */
static double welch_df(double va, double vb, size_t na, size_t nb)
{
	double ra = va / (va + vb), rb = vb / (va + vb);
	return 1 / (ra * ra / (double)(na - 1) + rb * rb / (double)(nb - 1));
}

int stats_welch_t(const struct stats_sample *a, const struct stats_sample *b, struct stats_welch *w)
{
	w->t = w->df = w->p = NAN;
	w->exact = 0;
	if (a->n < 2 || b->n < 2)
		return -1;
	double va = a->var / (double)a->n, vb = b->var / (double)b->n;
	double diff = b->mean - a->mean;
	if (va + vb == 0) {
		/* two constants: equal ones are the same, different ones cannot be noise */
		w->exact = 1;
		w->df = (double)(a->n + b->n - 2);
		w->t = diff == 0 ? 0 : diff > 0 ? INFINITY : -INFINITY;
		w->p = diff == 0 ? 1 : 0;
		return 0;
	}
	/* values near the double's range (a mean or variance that overflows): no test, not a crash */
	if (!isfinite(va + vb) || !isfinite(diff) || !isfinite(diff / sqrt(va + vb)))
		return -1;
	w->t = diff / sqrt(va + vb);
	w->df = welch_df(va, vb, a->n, b->n);
	w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
	if (w->p > 1)
		w->p = 1;
	return 0;
}

struct idx_p {
	double p;
	size_t i;
};

static int cmp_p(const void *x, const void *y)
{
	const struct idx_p *a = x, *b = y;
	return a->p < b->p ? -1 : a->p > b->p ? 1 : (a->i > b->i) - (a->i < b->i);
}

int stats_bh(const double *p, size_t n, double *q)
{
	struct idx_p *s = malloc((n ? n : 1) * sizeof(*s));
	if (!s)
		return -1;
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		q[i] = NAN;
		if (!isnan(p[i]))
			s[m++] = (struct idx_p){ p[i], i };
	}
	qsort(s, m, sizeof(*s), cmp_p);
	/* q_(k) = min over j >= k of p_(j) m / j, walked from the largest p down */
	double run = 1;
	for (size_t k = m; k-- > 0;) {
		double v = s[k].p * (double)m / (double)(k + 1);
		if (v < run)
			run = v;
		q[s[k].i] = run;
	}
	free(s);
	return (int)m;
}

double stats_hedges_g(const struct stats_sample *a, const struct stats_sample *b)
{
	if (a->n < 2 || b->n < 2)
		return NAN;
	double df = (double)(a->n + b->n - 2);
	double sp = sqrt(((double)(a->n - 1) * a->var + (double)(b->n - 1) * b->var) / df);
	double diff = b->mean - a->mean;
	if (sp == 0)
		return diff == 0 ? 0 : diff > 0 ? INFINITY : -INFINITY;
	double j = 1 - 3 / (4 * (double)(a->n + b->n) - 9);
	return j * diff / sp;
}

double stats_ratio_ci(const struct stats_sample *a, const struct stats_sample *b, double level, double *lo,
		      double *hi)
{
	*lo = *hi = NAN;
	if (a->n < 1 || b->n < 1 || a->mean == 0)
		return NAN;
	double r = b->mean / a->mean;
	if (a->n < 2 || b->n < 2 || !(a->mean > 0) || !(b->mean > 0))
		return r;
	/* var(log mean) ~ var / (n mean^2) for each side */
	double va = a->var / ((double)a->n * a->mean * a->mean);
	double vb = b->var / ((double)b->n * b->mean * b->mean);
	if (va + vb == 0) {
		*lo = *hi = r;
		return r;
	}
	if (!isfinite(va + vb))
		return r; /* a variance beyond the double's range: no interval */
	double tq = gsl_cdf_tdist_Qinv((1 - level) / 2, welch_df(va, vb, a->n, b->n));
	double half = tq * sqrt(va + vb);
	*lo = r * exp(-half);
	*hi = r * exp(half);
	return r;
}
