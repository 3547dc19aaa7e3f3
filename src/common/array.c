#include "common/array.h"

#include <stdint.h>
#include <stdlib.h>

void *array_grow(void *arr, size_t *cap, size_t n, size_t size, size_t first)
{
	if (n < *cap)
		return arr;
	size_t c = *cap ? *cap : (first ? first : 1);
	while (c <= n) {
		if (c > SIZE_MAX / 2)
			return NULL;
		c *= 2;
	}
	if (size && c > SIZE_MAX / size)
		return NULL;
	void *q = realloc(arr, c * size);
	if (q)
		*cap = c;
	return q;
}
