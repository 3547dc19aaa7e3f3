/* Continuous piecewise-linear (segmented) regression: K straight segments joined at K-1
 * breakpoints, fitted by least squares, K chosen by BIC when asked, breakpoints with a 95 %
 * confidence interval (the delta method of Muggeo's segmented regression), outliers left out. */
#ifndef ARCHSCOPE_ANALYSIS_SEGMENTS_H
#define ARCHSCOPE_ANALYSIS_SEGMENTS_H

#include <stddef.h>

#include "common/error.h"

#define SEGMENTS_MAX 6

struct segments_fit {
	int k;                            /* segments */
	double x0, x1;                    /* the fitted range of x */
	double bp[SEGMENTS_MAX - 1];      /* breakpoints, increasing, in x's unit */
	double bp_lo[SEGMENTS_MAX - 1];   /* 95 % confidence interval of each breakpoint (x's unit) */
	double bp_hi[SEGMENTS_MAX - 1];
	double y_start;                   /* fitted y at x0 */
	double slope[SEGMENTS_MAX];       /* dy/dx of each segment */
	double rss;                       /* residual sum of squares over the points kept (y's unit squared) */
	double sigma;                     /* residual standard deviation (y's unit) */
	double bic;                       /* n ln(rss/n) + 2k ln n over the points kept */
	size_t n;                         /* points given */
	size_t outliers;                  /* points left out as outliers (residual > 6 robust sigmas) */
};

/* The fewest points a fit with k segments needs (two per segment and one more). */
size_t segments_min_points(int k);

/* Fits k (1..SEGMENTS_MAX) segments to the n points (x strictly increasing). -EINVAL when x does
 * not increase or k is out of range, -ERANGE when n < segments_min_points(k), -ENOMEM. */
int segments_fit(const double *x, const double *y, size_t n, int k, struct segments_fit *f, struct as_error *err);

/* Fits 1..kmax segments (kmax <= SEGMENTS_MAX; fewer when n is too short for them) and keeps the
 * one with the lowest BIC. bic_by_k[k-1] (may be NULL; SEGMENTS_MAX entries) receives each BIC,
 * NaN where k was not tried. */
int segments_fit_auto(const double *x, const double *y, size_t n, int kmax, struct segments_fit *f,
		      double *bic_by_k, struct as_error *err);

/* The fitted line at x. */
double segments_eval(const struct segments_fit *f, double x);

#endif
