/* Order statistics of repeated measurements: min, median, k-th smallest (on a copy). */
#ifndef ARCHSCOPE_ANALYSIS_ORDER_H
#define ARCHSCOPE_ANALYSIS_ORDER_H

#include <stddef.h>

double order_kth(const double *v, size_t n, size_t k);   /* 0-based; NaN when k >= n */
double order_median(const double *v, size_t n);           /* NaN when n == 0 */

#endif
