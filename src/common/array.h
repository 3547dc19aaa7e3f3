/* The one growable array of archscope: every list that grows as it is filled (rows of a CSV file,
 * cells of a table, samples, lines of a file) makes room through array_grow. */
#ifndef ARCHSCOPE_COMMON_ARRAY_H
#define ARCHSCOPE_COMMON_ARRAY_H

#include <stddef.h>

/* Room for element n (0-based) in arr, an array of *cap elements of size bytes: arr itself when
 * n < *cap, else arr moved to a capacity doubled until it holds n (first: the capacity of an empty
 * array) and *cap updated; NULL when out of memory or the size overflows (arr and *cap unchanged,
 * arr still to be freed by the caller). */
void *array_grow(void *arr, size_t *cap, size_t n, size_t size, size_t first);

#endif
