/* See segments.h. The search runs on at most SEG_BINS bin means (weighted by the points they
 * hold): breakpoints are added one at a time, each time at the best place, and then moved one at a
 * time to their best place (coordinate descent) until none moves. The breakpoints are then
 * refined on every point by golden-section search between the neighbouring bins. */
#include "analysis/segments.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/order.h"

#define SEG_BINS 200
#define SEG_Q (2 * SEGMENTS_MAX) /* parameters of the largest model */
#define SEG_FLOOR 1e-7           /* residual floor, relative to the y range: a flat series fits exactly */
#define SEG_OUTLIER_SIGMAS 6.0

/* Points in normalised units: u = (x - x0) / (x1 - x0) in [0, 1], v = (y - ymid) / yscale. */
struct seg_data {
	size_t n;
	double *u, *v, *w; /* w: 1 for a point, 0 for an outlier; bin weights for the bins */
};

size_t segments_min_points(int k)
{
	return (size_t)(2 * k + 1);
}

/* Solves the symmetric positive definite p x p system a x = b in place (b becomes x); with inv,
 * a becomes its inverse. -1 when a is singular. */
static int spd_solve(double *a, double *b, int p, int inv)
{
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	gsl_matrix_view m = gsl_matrix_view_array(a, (size_t)p, (size_t)p);
	int rc = gsl_linalg_cholesky_decomp1(&m.matrix);
	if (rc == 0 && b) {
		gsl_vector_view v = gsl_vector_view_array(b, (size_t)p);
		rc = gsl_linalg_cholesky_svx(&m.matrix, &v.vector);
	}
	if (rc == 0 && inv)
		rc = gsl_linalg_cholesky_invert(&m.matrix);
	gsl_set_error_handler(old);
	return rc == 0 ? 0 : -1;
}

/* The basis at u: 1, u, (u - psi_j)+. */
static void seg_basis(double u, int k, const double *psi, double *phi)
{
	phi[0] = 1;
	phi[1] = u;
	for (int j = 0; j < k - 1; j++)
		phi[2 + j] = u > psi[j] ? u - psi[j] : 0;
}

/* Least squares with breakpoints psi (normalised); coef (k+1) may be NULL. INFINITY when the
 * breakpoints leave a segment undetermined. */
static double seg_rss(const struct seg_data *d, int k, const double *psi, double *coef)
{
	int p = k + 1;
	double a[(SEGMENTS_MAX + 1) * (SEGMENTS_MAX + 1)] = { 0 }, b[SEGMENTS_MAX + 1] = { 0 }, phi[SEGMENTS_MAX + 1];
	for (size_t i = 0; i < d->n; i++) {
		double w = d->w[i];
		if (w <= 0)
			continue;
		seg_basis(d->u[i], k, psi, phi);
		for (int r = 0; r < p; r++) {
			b[r] += w * phi[r] * d->v[i];
			for (int c = 0; c <= r; c++)
				a[r * p + c] += w * phi[r] * phi[c];
		}
	}
	for (int r = 0; r < p; r++)
		for (int c = r + 1; c < p; c++)
			a[r * p + c] = a[c * p + r];
	double bb[SEGMENTS_MAX + 1];
	memcpy(bb, b, sizeof(bb));
	if (spd_solve(a, bb, p, 0) != 0)
		return INFINITY;
	/* the rss summed directly: y'y - b'X'y loses every digit when the fit is close */
	double rss = 0;
	for (size_t i = 0; i < d->n; i++) {
		if (d->w[i] <= 0)
			continue;
		seg_basis(d->u[i], k, psi, phi);
		double f = 0;
		for (int r = 0; r < p; r++)
			f += bb[r] * phi[r];
		rss += d->w[i] * (d->v[i] - f) * (d->v[i] - f);
	}
	if (coef)
		memcpy(coef, bb, (size_t)p * sizeof(double));
	return rss;
}

/* Breakpoints at bin indices idx[0..k-1) on the bins. */
static double seg_rss_idx(const struct seg_data *bins, int k, const int *idx)
{
	double psi[SEGMENTS_MAX];
	for (int j = 0; j < k - 1; j++)
		psi[j] = bins->u[idx[j]];
	return seg_rss(bins, k, psi, NULL);
}

/* Moves each breakpoint to its best bin between its neighbours (>= 2 bins apart, one bin kept at
 * either end) until none moves. Returns the rss. */
static double seg_descend(const struct seg_data *bins, int k, int *idx)
{
	int m = (int)bins->n;
	double best = seg_rss_idx(bins, k, idx);
	for (int round = 0; round < 50; round++) {
		int moved = 0;
		for (int j = 0; j < k - 1; j++) {
			int lo = j == 0 ? 1 : idx[j - 1] + 2, hi = j == k - 2 ? m - 3 : idx[j + 1] - 2;
			int keep = idx[j];
			for (int c = lo; c <= hi; c++) {
				if (c == keep)
					continue;
				idx[j] = c;
				double r = seg_rss_idx(bins, k, idx);
				if (r < best * (1 - 1e-12)) {
					best = r;
					keep = c;
					moved = 1;
				}
			}
			idx[j] = keep;
		}
		if (!moved)
			break;
	}
	return best;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Adds one breakpoint to the k-1 in idx at the best valid bin. Returns the rss, INFINITY when no
 * bin is valid. */
static double seg_add(const struct seg_data *bins, int k, int *idx)
{
	int m = (int)bins->n, best_c = -1;
	double best = INFINITY;
	int t[SEGMENTS_MAX];
	for (int c = 1; c <= m - 3; c++) {
		int ok = 1;
		for (int j = 0; j < k - 2; j++)
			if (abs(idx[j] - c) < 2)
				ok = 0;
		if (!ok)
			continue;
		memcpy(t, idx, sizeof(int) * (size_t)(k - 2));
		t[k - 2] = c;
		qsort(t, (size_t)(k - 1), sizeof(int), cmp_int);
		double r = seg_rss_idx(bins, k, t);
		if (r < best) {
			best = r;
			best_c = c;
		}
	}
	if (best_c < 0)
		return INFINITY;
	idx[k - 2] = best_c;
	qsort(idx, (size_t)(k - 1), sizeof(int), cmp_int);
	return best;
}

/* Bin means of the points kept (weights: points per bin). */
static void seg_bin(const struct seg_data *d, struct seg_data *bins)
{
	size_t m = d->n < SEG_BINS ? d->n : SEG_BINS;
	bins->n = m;
	for (size_t b = 0; b < m; b++) {
		size_t i0 = b * d->n / m, i1 = (b + 1) * d->n / m;
		double sw = 0, su = 0, sv = 0;
		for (size_t i = i0; i < i1; i++) {
			sw += d->w[i];
			su += d->w[i] * d->u[i];
			sv += d->w[i] * d->v[i];
		}
		bins->w[b] = sw;
		bins->u[b] = sw > 0 ? su / sw : 0.5 * (d->u[i0] + d->u[i1 - 1]);
		bins->v[b] = sw > 0 ? sv / sw : 0;
	}
}

/* Golden-section search of breakpoint j on every point, between lo and hi. */
static void seg_golden(const struct seg_data *d, int k, double *psi, int j, double lo, double hi)
{
	const double g = 0.6180339887498949;
	double a = lo, b = hi, keep = psi[j];
	double best = seg_rss(d, k, psi, NULL);
	double c = b - g * (b - a), e = a + g * (b - a);
	psi[j] = c;
	double fc = seg_rss(d, k, psi, NULL);
	psi[j] = e;
	double fe = seg_rss(d, k, psi, NULL);
	for (int it = 0; it < 40 && b - a > 1e-9; it++) {
		if (fc < fe) {
			b = e;
			e = c;
			fe = fc;
			c = b - g * (b - a);
			psi[j] = c;
			fc = seg_rss(d, k, psi, NULL);
		} else {
			a = c;
			c = e;
			fc = fe;
			e = a + g * (b - a);
			psi[j] = e;
			fe = seg_rss(d, k, psi, NULL);
		}
	}
	double x = fc < fe ? c : e, fx = fc < fe ? fc : fe;
	psi[j] = fx < best ? x : keep;
}

/* The fit of k segments on d (normalised), its breakpoints in psi. Returns the rss. */
static double seg_search(const struct seg_data *d, struct seg_data *bins, int k, double *psi)
{
	seg_bin(d, bins);
	int idx[SEGMENTS_MAX] = { 0 };
	for (int kk = 2; kk <= k; kk++) {
		if (!isfinite(seg_add(bins, kk, idx)))
			return INFINITY;
		seg_descend(bins, kk, idx);
	}
	/* a second start: evenly spaced breakpoints */
	if (k > 2) {
		int even[SEGMENTS_MAX];
		int m = (int)bins->n;
		for (int j = 0; j < k - 1; j++)
			even[j] = 1 + (int)((double)(j + 1) * (m - 4) / k);
		int ok = 1;
		for (int j = 1; j < k - 1; j++)
			ok &= even[j] - even[j - 1] >= 2;
		if (ok && seg_descend(bins, k, even) < seg_rss_idx(bins, k, idx))
			memcpy(idx, even, sizeof(even));
	}
	for (int j = 0; j < k - 1; j++)
		psi[j] = bins->u[idx[j]];
	/* refine on every point, between the neighbouring bins */
	for (int round = 0; round < 2 && d->n > bins->n; round++)
		for (int j = 0; j < k - 1; j++) {
			double lo = bins->u[idx[j] - 1], hi = bins->u[idx[j] + 1];
			if (j > 0 && lo < psi[j - 1])
				lo = psi[j - 1];
			if (j < k - 2 && hi > psi[j + 1])
				hi = psi[j + 1];
			seg_golden(d, k, psi, j, lo, hi);
		}
	return seg_rss(d, k, psi, NULL);
}

/* 95 % intervals of the breakpoints from the delta method: the covariance of (coefficients,
 * breakpoints) is s^2 (J'J)^-1 with J the derivatives of the fitted line. Normalised units;
 * -1 when J'J is singular (a breakpoint without a change of slope). */
static int seg_intervals(const struct seg_data *d, int k, const double *psi, const double *coef, double rss,
			 size_t kept, double *half)
{
	int q = 2 * k, p = k + 1;
	if ((long)kept - q < 1)
		return -1;
	double a[SEG_Q * SEG_Q] = { 0 }, g[SEG_Q];
	for (size_t i = 0; i < d->n; i++) {
		if (d->w[i] <= 0)
			continue;
		seg_basis(d->u[i], k, psi, g);
		for (int j = 0; j < k - 1; j++)
			g[p + j] = d->u[i] > psi[j] ? -coef[2 + j] : 0;
		for (int r = 0; r < q; r++)
			for (int c = 0; c < q; c++)
				a[r * q + c] += g[r] * g[c];
	}
	if (spd_solve(a, NULL, q, 1) != 0)
		return -1;
	double s2 = rss / (double)(kept - (size_t)q);
	double t = gsl_cdf_tdist_Pinv(0.975, (double)(kept - (size_t)q));
	for (int j = 0; j < k - 1; j++) {
		double var = a[(p + j) * q + (p + j)];
		half[j] = var >= 0 ? t * sqrt(s2 * var) : NAN;
	}
	return 0;
}

int segments_fit(const double *x, const double *y, size_t n, int k, struct segments_fit *f, struct as_error *err)
{
	memset(f, 0, sizeof(*f));
	if (k < 1 || k > SEGMENTS_MAX)
		return as_error_set(err, -EINVAL, "segments: 1 to %d segments, not %d", SEGMENTS_MAX, k);
	if (n < segments_min_points(k))
		return as_error_set(err, -ERANGE, "%d segments need at least %zu points, got %zu", k,
				    segments_min_points(k), n);
	double ymin = y[0], ymax = y[0];
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]) || !isfinite(y[i]) || (i > 0 && !(x[i] > x[i - 1])))
			return as_error_set(err, -EINVAL, "segments: x must increase and every value be finite (point %zu)", i);
		ymin = fmin(ymin, y[i]);
		ymax = fmax(ymax, y[i]);
	}
	double xs = x[n - 1] - x[0], ymid = 0.5 * (ymin + ymax), ys = 0.5 * (ymax - ymin);
	if (!(ys > 0))
		ys = 1;
	struct seg_data d = { n, malloc(n * sizeof(double)), malloc(n * sizeof(double)), malloc(n * sizeof(double)) };
	struct seg_data bins = { 0, malloc(SEG_BINS * sizeof(double)), malloc(SEG_BINS * sizeof(double)),
				 malloc(SEG_BINS * sizeof(double)) };
	double *res = malloc(n * sizeof(double));
	int rc = 0;
	if (!d.u || !d.v || !d.w || !bins.u || !bins.v || !bins.w || !res) {
		rc = as_error_set(err, -ENOMEM, "segments: out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		d.u[i] = (x[i] - x[0]) / xs;
		d.v[i] = (y[i] - ymid) / ys;
		d.w[i] = 1;
	}
	double psi[SEGMENTS_MAX] = { 0 }, coef[SEGMENTS_MAX + 1];
	double rss = INFINITY;
	size_t out = 0;
	/* fit, leave out the points far from the fit (at most 5 % of them), fit again */
	for (int pass = 0; pass < 3; pass++) {
		rss = seg_search(&d, &bins, k, psi);
		if (isfinite(rss))
			rss = seg_rss(&d, k, psi, coef);
		if (!isfinite(rss)) {
			rc = as_error_set(err, -ERANGE, "segments: %d segments cannot be fitted to these %zu points", k, n);
			goto out;
		}
		size_t m = 0;
		double phi[SEGMENTS_MAX + 1];
		for (size_t i = 0; i < n; i++) {
			seg_basis(d.u[i], k, psi, phi);
			double fit = 0;
			for (int r = 0; r <= k; r++)
				fit += coef[r] * phi[r];
			if (d.w[i] > 0)
				res[m++] = fabs(d.v[i] - fit);
		}
		double sig = 1.4826 * order_median(res, m);
		if (!(sig > SEG_FLOOR))
			sig = SEG_FLOOR;
		size_t add = 0;
		for (size_t i = 0; i < n; i++) {
			seg_basis(d.u[i], k, psi, phi);
			double fit = 0;
			for (int r = 0; r <= k; r++)
				fit += coef[r] * phi[r];
			res[i] = fabs(d.v[i] - fit) > SEG_OUTLIER_SIGMAS * sig && d.w[i] > 0;
			add += res[i] > 0;
		}
		if (add == 0 || (double)(out + add) > 0.05 * (double)n)
			break;
		for (size_t i = 0; i < n; i++)
			if (res[i] > 0)
				d.w[i] = 0;
		out += add;
	}
	size_t kept = n - out;
	f->k = k;
	f->n = n;
	f->outliers = out;
	f->x0 = x[0];
	f->x1 = x[n - 1];
	f->rss = rss * ys * ys;
	f->sigma = kept > (size_t)(2 * k) ? sqrt(f->rss / (double)(kept - (size_t)(2 * k))) : NAN;
	f->bic = (double)kept * log((rss + (double)kept * SEG_FLOOR * SEG_FLOOR) / (double)kept) +
		 2.0 * k * log((double)kept);
	f->y_start = ymid + ys * coef[0];
	double s = coef[1];
	for (int j = 0; j < k; j++) {
		if (j > 0)
			s += coef[1 + j];
		f->slope[j] = s * ys / xs;
	}
	double half[SEGMENTS_MAX];
	int ci = seg_intervals(&d, k, psi, coef, rss, kept, half);
	for (int j = 0; j < k - 1; j++) {
		f->bp[j] = x[0] + psi[j] * xs;
		double h = ci == 0 && isfinite(half[j]) ? half[j] * xs : INFINITY;
		f->bp_lo[j] = fmax(f->x0, f->bp[j] - h);
		f->bp_hi[j] = fmin(f->x1, f->bp[j] + h);
	}
out:
	free(d.u);
	free(d.v);
	free(d.w);
	free(bins.u);
	free(bins.v);
	free(bins.w);
	free(res);
	return rc;
}

int segments_fit_auto(const double *x, const double *y, size_t n, int kmax, struct segments_fit *f,
		      double *bic_by_k, struct as_error *err)
{
	if (kmax < 1 || kmax > SEGMENTS_MAX)
		return as_error_set(err, -EINVAL, "segments: at most 1 to %d segments, not %d", SEGMENTS_MAX, kmax);
	for (int k = 0; bic_by_k && k < SEGMENTS_MAX; k++)
		bic_by_k[k] = NAN;
	int found = 0;
	for (int k = 1; k <= kmax && n >= segments_min_points(k); k++) {
		struct segments_fit t;
		int rc = segments_fit(x, y, n, k, &t, err);
		if (rc == -ENOMEM || rc == -EINVAL)
			return rc;
		if (rc)
			continue;
		if (bic_by_k)
			bic_by_k[k - 1] = t.bic;
		if (!found || t.bic < f->bic)
			*f = t;
		found = 1;
	}
	if (!found)
		return as_error_set(err, -ERANGE, "segments: %zu points are too few for even one segment (need %zu)", n,
				    segments_min_points(1));
	return 0;
}

double segments_eval(const struct segments_fit *f, double x)
{
	double y = f->y_start, at = f->x0;
	for (int j = 0; j < f->k; j++) {
		double end = j < f->k - 1 ? f->bp[j] : INFINITY;
		if (x <= end || j == f->k - 1)
			return y + f->slope[j] * (x - at);
		y += f->slope[j] * (end - at);
		at = end;
	}
	return y;
}
