/* See fit.h. Least squares through GSL (gsl_multifit_linear); exponential and power are fitted as
 * lines in log space, then judged, like the others, by their residuals in y. */
#include "analysis/fit.h"

#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const names[FIT_MODELS] = {
#define X(id, name) name,
	FIT_LIST(X)
#undef X
};

const char *fit_name(enum fit_model m)
{
	return m >= 0 && m < FIT_MODELS ? names[m] : "?";
}

double fit_eval(enum fit_model m, const double *c, double x)
{
	switch (m) {
	case FIT_CONSTANT:
		return c[0];
	case FIT_LINEAR:
		return c[0] + c[1] * x;
	case FIT_QUADRATIC:
		return c[0] + c[1] * x + c[2] * x * x;
	case FIT_EXPONENTIAL:
		return c[0] * exp(c[1] * x);
	case FIT_POWER:
		return c[0] * pow(x, c[1]);
	default:
		return NAN;
	}
}

void fit_formula(enum fit_model m, const double *c, char *buf, size_t len)
{
	switch (m) {
	case FIT_CONSTANT:
		snprintf(buf, len, "%.6g", c[0]);
		break;
	case FIT_LINEAR:
		snprintf(buf, len, "%.6g + %.6g*x", c[0], c[1]);
		break;
	case FIT_QUADRATIC:
		snprintf(buf, len, "%.6g + %.6g*x + %.6g*x**2", c[0], c[1], c[2]);
		break;
	case FIT_EXPONENTIAL:
		snprintf(buf, len, "%.6g*exp(%.6g*x)", c[0], c[1]);
		break;
	case FIT_POWER:
		snprintf(buf, len, "%.6g*x**%.6g", c[0], c[1]);
		break;
	default:
		snprintf(buf, len, "?");
	}
}

/* Polynomial least squares of v against u with `deg` + 1 coefficients. */
static int poly_fit(const double *u, const double *v, size_t n, int deg, double *coef)
{
	size_t p = (size_t)deg + 1;
	if (n < p)
		return -1;
	gsl_matrix *X = gsl_matrix_alloc(n, p);
	gsl_vector *Y = gsl_vector_alloc(n), *c = gsl_vector_alloc(p);
	gsl_matrix *cov = gsl_matrix_alloc(p, p);
	gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc(n, p);
	int rc = -1;
	if (X && Y && c && cov && w) {
		for (size_t i = 0; i < n; i++) {
			double pw = 1;
			for (size_t j = 0; j < p; j++) {
				gsl_matrix_set(X, i, j, pw);
				pw *= u[i];
			}
			gsl_vector_set(Y, i, v[i]);
		}
		double chisq;
		if (gsl_multifit_linear(X, Y, c, cov, &chisq, w) == 0) {
			for (size_t j = 0; j < p; j++)
				coef[j] = gsl_vector_get(c, j);
			rc = 0;
		}
	}
	gsl_multifit_linear_free(w);
	gsl_matrix_free(cov);
	gsl_vector_free(c);
	gsl_vector_free(Y);
	gsl_matrix_free(X);
	return rc;
}

int fit_all(const double *x, const double *y, size_t n, struct fit_all *out)
{
	for (int m = 0; m < FIT_MODELS; m++)
		out->m[m] = (struct fit_result){ .valid = 0, .rss = NAN, .r2 = NAN, .aicc = NAN };
	out->best = out->lowest = -1;
	double *xs = malloc((n ? n : 1) * sizeof(double)), *ys = malloc((n ? n : 1) * sizeof(double));
	double *lu = malloc((n ? n : 1) * sizeof(double)), *lv = malloc((n ? n : 1) * sizeof(double));
	if (!xs || !ys || !lu || !lv) {
		free(xs);
		free(ys);
		free(lu);
		free(lv);
		return -1;
	}
	size_t k = 0;
	int ypos = 1, xpos = 1;
	double mean = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(y[i]) && !isnan(x[i])) {
			xs[k] = x[i];
			ys[k] = y[i];
			ypos &= y[i] > 0;
			xpos &= x[i] > 0;
			mean += y[i];
			k++;
		}
	if (k < 2) {
		free(xs);
		free(ys);
		free(lu);
		free(lv);
		return -1;
	}
	mean /= (double)k;
	double tss = 0;
	for (size_t i = 0; i < k; i++)
		tss += (ys[i] - mean) * (ys[i] - mean);
	/* a perfect fit has rss 0 and ln 0 = -inf: floor rss at a relative 1e-12 of y, so perfect
	 * fits tie and the penalty picks the one with fewer coefficients */
	double scale = fabs(mean) > 1 ? fabs(mean) : 1;
	double floor_rss = (double)k * (1e-12 * scale) * (1e-12 * scale);
	for (int m = 0; m < FIT_MODELS; m++) {
		struct fit_result *f = &out->m[m];
		int rc = -1;
		switch (m) {
		case FIT_CONSTANT:
			f->ncoef = 1;
			f->coef[0] = mean;
			rc = 0;
			break;
		case FIT_LINEAR:
		case FIT_QUADRATIC:
			f->ncoef = m == FIT_LINEAR ? 2 : 3;
			rc = poly_fit(xs, ys, k, f->ncoef - 1, f->coef);
			break;
		case FIT_EXPONENTIAL:
		case FIT_POWER:
			if (!ypos || (m == FIT_POWER && !xpos))
				break;
			for (size_t i = 0; i < k; i++) {
				lu[i] = m == FIT_POWER ? log(xs[i]) : xs[i];
				lv[i] = log(ys[i]);
			}
			f->ncoef = 2;
			rc = poly_fit(lu, lv, k, 1, f->coef);
			if (rc == 0)
				f->coef[0] = exp(f->coef[0]);
			break;
		}
		if (rc != 0)
			continue;
		double rss = 0;
		for (size_t i = 0; i < k; i++) {
			double r = ys[i] - fit_eval((enum fit_model)m, f->coef, xs[i]);
			rss += r * r;
		}
		if (!isfinite(rss))
			continue;
		f->valid = 1;
		f->rss = rss;
		f->r2 = tss > 0 ? 1 - rss / tss : rss <= floor_rss ? 1 : 0;
		double kk = f->ncoef + 1;
		double rr = rss > floor_rss ? rss : floor_rss;
		f->aicc = (double)k - kk - 1 > 0 ? (double)k * log(rr / (double)k) + 2 * kk + 2 * kk * (kk + 1) / ((double)k - kk - 1)
						 : NAN;
		if (!isnan(f->aicc) && (out->lowest < 0 || f->aicc < out->m[out->lowest].aicc))
			out->lowest = m;
	}
	if (out->lowest >= 0) {
		const struct fit_result *lo = &out->m[out->lowest];
		double absmean = 0;
		for (size_t i = 0; i < k; i++)
			absmean += fabs(ys[i]);
		absmean /= (double)k;
		double rms_lo = sqrt(lo->rss / (double)k);
		for (int m = 0; m < FIT_MODELS; m++) {
			const struct fit_result *f = &out->m[m];
			if (!f->valid || isnan(f->aicc))
				continue;
			/* The residual band only lets a polynomial of lower degree stand for a polynomial
			 * (a few faults of curvature do not make linear growth quadratic); a power or an
			 * exponential law replaces a much better fit only within the AICc band (y = 16 x^2
			 * is quadratic, though x^1.98 comes within 1 %). */
			int poly = m <= FIT_QUADRATIC && out->lowest <= FIT_QUADRATIC;
			int close = f->aicc - lo->aicc <= FIT_AICC_BAND ||
				    (poly && sqrt(f->rss / (double)k) - rms_lo <= FIT_RMS_BAND * absmean);
			if (!close)
				continue;
			const struct fit_result *b = out->best >= 0 ? &out->m[out->best] : NULL;
			if (!b || f->ncoef < b->ncoef || (f->ncoef == b->ncoef && f->aicc < b->aicc))
				out->best = m;
		}
	}
	free(xs);
	free(ys);
	free(lu);
	free(lv);
	return 0;
}
