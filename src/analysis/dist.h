/* Distributions of positive samples (e.g. scheduler gaps): log-spaced histograms and their mode. */
#ifndef ARCHSCOPE_ANALYSIS_DIST_H
#define ARCHSCOPE_ANALYSIS_DIST_H

#include <stddef.h>

struct dist_mode {
	double value;      /* median of the samples in the modal bin */
	double lo, hi;     /* the modal bin's edges */
	size_t count;      /* samples in it */
	double share;      /* count / n; for dist_mode_log_time the bin's share of the total time */
};

/* Mode of positive samples on a log scale with bins_per_decade bins per decade (bins start at
 * powers of ten). Returns 0, or -1 when there are no positive samples. */
int dist_mode_log(const double *v, size_t n, int bins_per_decade, struct dist_mode *out);

/* The same with every sample weighted by its value: the bin that holds the most time. For gaps
 * in a thread's timeline, many short interruptions (a hypervisor's, tens of us) lose less time
 * than the few time slices another thread ran (ms), though they outnumber them. */
int dist_mode_log_time(const double *v, size_t n, int bins_per_decade, struct dist_mode *out);

/* Quantile q in [0,1] of sorted samples (linear interpolation). */
double dist_quantile_sorted(const double *sorted, size_t n, double q);

#endif
