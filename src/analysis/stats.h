/* Two-sample statistics for comparing measurements of two program versions: Welch's t-test with
 * the exact p value of the t distribution (GSL) and Welch–Satterthwaite degrees of freedom,
 * Benjamini–Hochberg q values over many tests, Hedges' g and the ratio of means with a 95 %
 * interval. NaN values (not counted) are left out of every computation. */
#ifndef ARCHSCOPE_ANALYSIS_STATS_H
#define ARCHSCOPE_ANALYSIS_STATS_H

#include <stddef.h>

/* Mean, sample variance (Bessel: n - 1) and count of the non-NaN values; var NaN when n < 2. */
struct stats_sample {
	size_t n;
	double mean, var;
};
void stats_sample(const double *v, size_t n, struct stats_sample *s);

struct stats_welch {
	double t;      /* (mean_b - mean_a) / sqrt(var_a/n_a + var_b/n_b) */
	double df;     /* Welch–Satterthwaite */
	double p;      /* two-sided, exact from the t distribution with df degrees of freedom */
	int exact;     /* 1: both variances 0 (p is 1 for equal means, 0 for different ones) */
};
/* Welch's unequal-variance t-test. Both variances 0: identical constants give p = 1, different
 * constants p = 0 (no noise can explain them). -1 (p NaN) when a side has fewer than 2 values, or
 * a mean, variance or t is not finite (values near the double's range). */
int stats_welch_t(const struct stats_sample *a, const struct stats_sample *b, struct stats_welch *w);

/* Benjamini–Hochberg adjusted p values (q) of p[0..n); NaN p values are not tests (q NaN) and do
 * not count in m. q is monotone in p and at most 1. Returns the number of tests, or -1 when out
 * of memory. */
int stats_bh(const double *p, size_t n, double *q);

/* Hedges' g of b against a: (mean_b - mean_a) / pooled sd, times the small-sample correction
 * 1 - 3 / (4 (n_a + n_b) - 9). Pooled sd 0: 0 for equal means, +-inf otherwise. NaN when a side
 * has fewer than 2 values. */
double stats_hedges_g(const struct stats_sample *a, const struct stats_sample *b);

/* mean_b / mean_a with a confidence interval (level, e.g. 0.95) from the delta method on the log
 * of the ratio, with Welch–Satterthwaite degrees of freedom for the t quantile. Both means must be
 * > 0 and the variances finite for the interval (else lo = hi = NaN); the ratio is NaN when mean_a
 * is 0. */
double stats_ratio_ci(const struct stats_sample *a, const struct stats_sample *b, double level, double *lo,
		      double *hi);

#endif
