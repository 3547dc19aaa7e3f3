/* Log-histogram mode and quantiles (see dist.h). */
#include "analysis/dist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int mode_log(const double *v, size_t n, int bins_per_decade, int by_time, struct dist_mode *out)
{
	memset(out, 0, sizeof(*out));
	if (bins_per_decade < 1)
		return -1;
	double lmin = INFINITY, lmax = -INFINITY;
	size_t pos = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i] > 0 && isfinite(v[i])) {
			double l = log10(v[i]);
			lmin = fmin(lmin, l);
			lmax = fmax(lmax, l);
			pos++;
		}
	if (pos == 0)
		return -1;
	long b0 = (long)floor(lmin * bins_per_decade), b1 = (long)floor(lmax * bins_per_decade);
	size_t nb = (size_t)(b1 - b0 + 1);
	size_t *count = calloc(nb, sizeof(size_t));
	double *weight = calloc(nb, sizeof(double)), total = 0;
	if (!count || !weight) {
		free(count);
		free(weight);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (v[i] > 0 && isfinite(v[i])) {
			long b = (long)floor(log10(v[i]) * bins_per_decade) - b0;
			count[b]++;
			weight[b] += by_time ? v[i] : 1.0;
			total += by_time ? v[i] : 1.0;
		}
	size_t best = 0;
	for (size_t b = 1; b < nb; b++)
		if (weight[b] > weight[best])
			best = b;
	out->lo = pow(10.0, (double)(b0 + (long)best) / bins_per_decade);
	out->hi = pow(10.0, (double)(b0 + (long)best + 1) / bins_per_decade);
	out->count = count[best];
	out->share = weight[best] / total;
	free(count);
	free(weight);
	/* The median of the samples in the modal bin: a value that was measured, not a bin centre. */
	double *in = malloc(out->count * sizeof(double));
	if (!in)
		return -1;
	size_t k = 0;
	long bb = b0 + (long)best;
	for (size_t i = 0; i < n; i++)
		if (v[i] > 0 && isfinite(v[i]) && (long)floor(log10(v[i]) * bins_per_decade) == bb)
			in[k++] = v[i];
	for (size_t i = 1; i < k; i++) { /* insertion sort: the bin is small */
		double x = in[i];
		size_t j = i;
		while (j > 0 && in[j - 1] > x) {
			in[j] = in[j - 1];
			j--;
		}
		in[j] = x;
	}
	out->value = k % 2 ? in[k / 2] : 0.5 * (in[k / 2 - 1] + in[k / 2]);
	free(in);
	return 0;
}

int dist_mode_log(const double *v, size_t n, int bins_per_decade, struct dist_mode *out)
{
	return mode_log(v, n, bins_per_decade, 0, out);
}

int dist_mode_log_time(const double *v, size_t n, int bins_per_decade, struct dist_mode *out)
{
	return mode_log(v, n, bins_per_decade, 1, out);
}

double dist_quantile_sorted(const double *sorted, size_t n, double q)
{
	if (n == 0)
		return NAN;
	if (q <= 0)
		return sorted[0];
	if (q >= 1)
		return sorted[n - 1];
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;
	double f = pos - (double)i;
	return i + 1 < n ? sorted[i] * (1 - f) + sorted[i + 1] * f : sorted[i];
}
