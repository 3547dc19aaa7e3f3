/* Order statistics (see order.h). */
#include "analysis/order.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double u = *(const double *)a, v = *(const double *)b;
	return (u > v) - (u < v);
}

double order_kth(const double *v, size_t n, size_t k)
{
	if (n == 0 || k >= n)
		return NAN;
	double *c = malloc(n * sizeof(double));
	if (!c)
		return NAN;
	memcpy(c, v, n * sizeof(double));
	qsort(c, n, sizeof(double), cmp_double);
	double r = c[k];
	free(c);
	return r;
}

double order_median(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	if (n % 2)
		return order_kth(v, n, n / 2);
	return 0.5 * (order_kth(v, n, n / 2 - 1) + order_kth(v, n, n / 2));
}
