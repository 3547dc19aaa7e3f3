/* A curve that moves from one plateau to another, as the coherence witness of the line size does
 * (slow while two counters share a line, fast once they do not): where the second plateau starts,
 * judged on a log scale so that a 10x and a 100x contrast read alike. Pure functions. */
#ifndef ARCHSCOPE_ANALYSIS_PLATEAUS_H
#define ARCHSCOPE_ANALYSIS_PLATEAUS_H

#include <stddef.h>

struct plateau_split {
	int index;         /* first point on the second plateau; -1: no split found */
	double first, second; /* the two plateau levels (median of each side) */
	double ratio;      /* first / second (> 1 for a falling curve) */
	double confidence; /* 0..1: contrast and how cleanly every point sits on its side */
};

/* y falls from a high plateau to a low one: index = the first point after the highest whose log y
 * is nearer the low level (the median of the last three points) than the highest point. first and
 * second are the medians of the points on each side. No split (index -1, confidence 0) when the
 * contrast of the highest point to the low level is below min_ratio. */
void plateaus_split_falling(const double *y, size_t n, double min_ratio, struct plateau_split *out);


/* A curve that doubles with x and then stops: the cost of the page faults when touching fresh
 * memory every x bytes grows as x / page until x reaches the page. index = the point P where the
 * doubling ends, from the best fit of y = c * min(x, P) / P over the candidates between the first
 * and last point (absolute log residuals, c their median, so one noisy point moves little); -1
 * when a flat curve or an endless doubling fits better. confidence: 1 - 2 x the mean absolute
 * log residual / log 2, at least 0. */
struct doubling_end {
	int index;
	double confidence;
};
void plateaus_doubling_end(const double *x, const double *y, size_t n, struct doubling_end *out);

#endif
