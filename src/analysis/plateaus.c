/* Where a falling curve reaches its second plateau (plateaus.h). */
#include "analysis/plateaus.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median_of(const double *v, size_t n)
{
	double tmp[64];
	if (n == 0 || n > 64)
		return NAN;
	memcpy(tmp, v, n * sizeof(double));
	qsort(tmp, n, sizeof(double), cmp_double);
	return n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
}

void plateaus_split_falling(const double *y, size_t n, double min_ratio, struct plateau_split *out)
{
	*out = (struct plateau_split){ .index = -1, .first = NAN, .second = NAN, .ratio = NAN };
	if (n < 2 || n > 64 || !(y[0] > 0) || !(y[n - 1] > 0))
		return;
	for (size_t i = 0; i < n; i++)
		if (!(y[i] > 0))
			return;
	/* the first level: the highest point; the second: the median of the last three */
	size_t top = 0;
	for (size_t i = 1; i < n; i++)
		if (y[i] > y[top])
			top = i;
	double last[3] = { y[n - 1], y[n > 1 ? n - 2 : 0], y[n > 2 ? n - 3 : 0] };
	double hi = log(y[top]), lo = log(median_of(last, n >= 3 ? 3 : n));
	if (!(hi - lo >= log(min_ratio)))
		return;
	double mid = 0.5 * (hi + lo);
	size_t idx = n - 1;
	for (size_t i = top; i < n; i++)
		if (log(y[i]) < mid) {
			idx = i;
			break;
		}
	if (idx == 0)
		return;
	out->index = (int)idx;
	out->first = median_of(y, idx);
	out->second = median_of(y + idx, n - idx);
	out->ratio = out->first / out->second;
	/* Points on the wrong side of the midpoint after the split (a curve that comes back up) cost
	 * confidence; so does a contrast below 4x. */
	size_t wrong = 0;
	for (size_t i = idx; i < n; i++)
		wrong += log(y[i]) >= mid;
	double contrast = log(out->ratio) / log(4.0);
	out->confidence = (contrast > 1 ? 1 : contrast > 0 ? contrast : 0) * (1.0 - (double)wrong / (double)n);
}

/* The misfit of y = c * min(x, P) / P with P = x[k]: c is the median of the points' own
 * estimates, the misfit the sum of absolute log residuals (one noisy point moves neither much). */
static double doubling_misfit(const double *x, const double *y, size_t n, size_t k)
{
	double est[64], r = 0;
	for (size_t i = 0; i < n; i++)
		est[i] = log(y[i]) - log((x[i] < x[k] ? x[i] : x[k]) / x[k]);
	double c = median_of(est, n);
	for (size_t i = 0; i < n; i++)
		r += fabs(est[i] - c);
	return r;
}

void plateaus_doubling_end(const double *x, const double *y, size_t n, struct doubling_end *out)
{
	*out = (struct doubling_end){ .index = -1, .confidence = 0 };
	if (n < 3 || n > 64)
		return;
	for (size_t i = 0; i < n; i++)
		if (!(y[i] > 0) || !(x[i] > 0))
			return;
	/* The model y = c * min(x, P) / P for each candidate P = x[k] (doubling_misfit): the best P
	 * between the first and the last point wins. */
	double best = INFINITY, second = INFINITY;
	int best_k = -1;
	for (size_t k = 1; k + 1 < n; k++) {
		double r = doubling_misfit(x, y, n, k);
		if (r < best) {
			second = best;
			best = r;
			best_k = (int)k;
		} else if (r < second) {
			second = r;
		}
	}
	/* A flat curve or one that never stops doubling fits a first or last candidate best;
	 * require the fit to beat both ends too. */
	if (best_k < 0 || !(best < doubling_misfit(x, y, n, 0)) || !(best < doubling_misfit(x, y, n, n - 1)))
		return;
	double mean = best / (double)n;
	double conf = 1.0 - 2.0 * mean / log(2.0);
	out->index = best_k;
	out->confidence = conf > 0 ? conf : 0;
}
