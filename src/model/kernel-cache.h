/* The parse cache of kernel files (kernel-cache.c): a kernel read once is read back without
 * libclang. Both calls are best effort: a missing, stale or damaged entry is a miss, and a
 * failed write leaves no entry. */
#ifndef ARCHSCOPE_MODEL_KERNEL_CACHE_H
#define ARCHSCOPE_MODEL_KERNEL_CACHE_H

#include <stddef.h>

#include "common/error.h"
#include "model/kernel.h"

/* 1 and *k filled (its file set to name) when text has an entry, else 0 and *k no kernel (its
 * counts zero; the caller parses into it). An entry that is there
 * but cannot be read as one (a FIFO, a device, a directory, a link loop, no permission: nothing
 * the next write replaces) is a miss with a message in *note (may be NULL) saying so; a missing,
 * stale or damaged entry is a miss without one. Never blocks. */
int kernel_cache_get(struct kernel *k, const char *name, const char *text, size_t len, struct as_error *note);
void kernel_cache_put(const struct kernel *k, const char *text, size_t len);

/* kernel_cache_get() of the entry at path (tests and the fuzz target name the file). */
int kernel_cache_load(struct kernel *k, const char *path, const char *name, const char *text, size_t len,
		      struct as_error *note);
/* The entry's bytes data[0..n) into *k: 1 when they are an entry of this binary for text[0..len),
 * whole, with the right checksum and every count and index of the kernel within its array; else
 * 0 and *k no kernel (as kernel_cache_get). Reads nothing outside data[0..n). */
int kernel_cache_decode(struct kernel *k, const void *data, size_t n, const char *text, size_t len);
/* The entry kernel_cache_put() writes for k and text (malloc; its size in *n), or NULL. */
void *kernel_cache_encode(const struct kernel *k, const char *text, size_t len, size_t *n);
/* For tests and the fuzz target: rewrites the head of entry[0..n) so that it claims this binary
 * and text, its access count fits n and its checksum matches its bytes: whatever the struct
 * behind it holds then reaches the checks of the kernel's counts and indices. */
void kernel_cache_frame(void *entry, size_t n, const char *text, size_t len);

#endif
