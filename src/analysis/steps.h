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
/* steps_first, passing over steps smaller than share x the biggest relative step: a small early
 * bump (a prefetcher helping the shortest distances) is not taken for the step being probed. */
struct step_answer steps_first_significant(const double *y, size_t n, double share);
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
 * number of clusters written to out (sorted by increasing y), at most max_out; -1 on bad input,
 * and for more than STEPS_QT_MAX_POINTS points: the time grows with the square of n (a probe's
 * curve has tens to hundreds of points; 10,000 take about a second). steps_hierarchy too. */
#define STEPS_QT_MAX_POINTS 10000
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

struct level {
	double size;        /* edge: largest x below halfway to the next level (x of the last
			       level that is not the final plateau) */
	double qt_max_x;    /* the paper's answer: the largest x in the level's cluster */
	double latency;     /* smallest y in the level's cluster */
	size_t points;
	double confidence;  /* 0..1: points in the cluster and the gap to the next level */
};

/* The whole derivation of the cache probe (and of the TLB-entries probe on its corrected
 * curve): monotone enforcement, QT clustering with a 25 % diameter, levels that span an octave,
 * edges halfway to the next level. When the last level holds the largest x it is the final
 * plateau (memory, or page walks): it is not counted among the levels, its smallest y goes to
 * *final_y (NaN otherwise) and its last point's y to *final_last_y. Returns the number of levels
 * written (<= max), or -1 on bad input. */
int steps_hierarchy(const double *x, const double *y, size_t n, struct level *out, int max,
		    double *final_y, double *final_last_y);

/* Associativity from a K sweep (§3.1.3): skips the start where the sets still hit a lower level
 * (y below 80 % of level_ns), takes the biggest relative step after it, and accepts it only if
 * it is >= 50 %, the curve three quarters of the way to it has not climbed by more than half
 * (scattered physical placement makes a gradual rise, not a plateau), and it reaches 75 % of next_ns (the level the
 * evicted lines go to; NaN: unchecked).
 * Returns the K before the step, or NaN; *confidence and *step_index (into x) are filled. */
double steps_assoc_ways(const double *x, const double *y, size_t n, double level_ns, double next_ns,
			double *confidence, int *step_index);

/* TLB levels (§3.2): the pages curve minus the control curve (as many lines packed into few
 * pages), shifted up by the control's first value, then steps_hierarchy. *base gets the shift. */
int steps_tlb_levels(const double *x, const double *pages_y, const double *control_y, size_t n,
		     struct level *out, int max, double *base, double *walk_y);

/* Live ranges on a core that hides spills (§3.5 adapted): the curve falls while too few variables
 * keep the units busy, stays at its minimum while they fit in registers, and rises once spills
 * saturate the load/store ports. From the first point within delta of the minimum, the monotone
 * curve's first value more than delta above that minimum is the step; index is the point before
 * it (-1 when the curve never rises by delta). */
struct step_answer steps_first_rise(const double *y, size_t n, double delta);

/* Operations in flight (§3.3.3): y[i] is the cost per loop iteration with i+1 independent streams
 * of equal chains. A core that keeps F operations in flight runs up to F streams at the cost of
 * one and then slows in proportion, y(s) = y0 max(1, s/F). Returns the F (1..n) whose model fits
 * y best in relative least squares, with y0 the median of the first F points; -1 on bad input.
 * *confidence: 1 - 4 x the fit's rms relative error, clamped to 0..1. */
int steps_knee_proportional(const double *y, size_t n, double *confidence);

#endif
