/* The parse cache of kernel files (kernel-cache.c): a kernel read once is read back without
 * libclang. Both calls are best effort: a missing, stale or damaged entry is a miss, and a
 * failed write leaves no entry. */
#ifndef ARCHSCOPE_MODEL_KERNEL_CACHE_H
#define ARCHSCOPE_MODEL_KERNEL_CACHE_H

#include <stddef.h>

#include "model/kernel.h"

/* 1 and *k filled (its file set to name) when text has an entry, else 0. */
int kernel_cache_get(struct kernel *k, const char *name, const char *text, size_t len);
void kernel_cache_put(const struct kernel *k, const char *text, size_t len);

#endif
