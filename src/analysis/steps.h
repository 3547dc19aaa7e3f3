/* The statistics that turn noisy curves into answers (BlackjackBench §4): monotone enforcement,
 * first step, biggest relative step, biggest scaled step, and QT clustering with a variable
 * diameter. Pure functions: no I/O, no hardware, no allocation hidden from the caller but QT's. */
#ifndef ARCHSCOPE_ANALYSIS_STEPS_H
#define ARCHSCOPE_ANALYSIS_STEPS_H

#include <stddef.h>

/* out[i] = min_{j>=i} y[j] (§4.1): a curve that should never fall is made non-decreasing by
 * trusting the lower, later values. out may equal y. */
void steps_monotone(const double *y, double *out, size_t n);

struct step_answer {
	int index;         /* i: the step is between point i and i+1; -1 when none was found */
	double size;       /* the measure of the chosen step (relative or scaled) */
	double threshold;  /* first-step: the mean relative increase; others: the next-biggest step */
	double confidence; /* 0..1: how clearly the chosen step stands above the others */
};

/* Relative increase dYr_i = (y[i+1]-y[i]) / y[i]; the first i with dYr_i > mean(dYr) (§4.2.1). */
struct step_answer steps_first(const double *y, size_t n);
/* The biggest relative step (§4.2.2). */
struct step_answer steps_biggest_relative(const double *y, size_t n);
/* The biggest scaled step dY*Y, with Y the value after the step (§4.2.2, TLB page size). */
struct step_answer steps_biggest_scaled(const double *y, size_t n);

struct qt_cluster {
	size_t first, last;   /* index range in x order (clusters of a monotone curve are runs) */
	size_t points;
	double min_x, max_x, min_y, max_y, mean_y;
};

/* Modified QT clustering (§4.2.3, Fig. 10) on the y values: a candidate cluster grows by the point
 * that keeps its diameter smallest while the diameter stays <= rel_diameter x the cluster's mean
 * (the paper uses 0.25); the largest candidate is taken and the rest clustered again. Returns the
 * number of clusters written to out (sorted by increasing y), at most max_out; -1 on bad input. */
int steps_qt_cluster(const double *x, const double *y, size_t n, double rel_diameter,
		     struct qt_cluster *out, int max_out);

/* Keeps the clusters that can be levels of a hierarchy: at least min_points points spanning at
 * least an octave of x (max_x >= 2 min_x; each level of a cache or TLB hierarchy is at least
 * twice the one below). Short clusters are transitions between levels. Compacts in place and
 * returns the count. */
int steps_levels(struct qt_cluster *c, int n, size_t min_points);

/* The edge of a level: the largest x from the lower cluster on whose y is still below halfway
 * between the lower and the upper cluster's smallest y. On a monotone curve this is where about
 * half the accesses leave the level, which stays put when the cluster's own edge wanders. */
double steps_level_edge(const double *x, const double *y, size_t n, const struct qt_cluster *lower,
			const struct qt_cluster *upper);

#endif
