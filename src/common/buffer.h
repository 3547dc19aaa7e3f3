/* Page-aligned measurement buffers with an explicit transparent-huge-page policy, and a check of
 * the requested size against the memory available, so a too-large request is an error, not the
 * OOM killer. */
#ifndef ARCHSCOPE_COMMON_BUFFER_H
#define ARCHSCOPE_COMMON_BUFFER_H

#include <stddef.h>

#include "common/error.h"

/* The huge page size buffers asking for huge pages are aligned to (x86-64 and arm64 with 4 KiB
 * base pages). */
#define BUFFER_HUGE_BYTES ((size_t)2 << 20)

enum huge_policy {
	HUGE_DEFAULT,  /* leave the kernel's THP setting alone */
	HUGE_NEVER,    /* madvise(MADV_NOHUGEPAGE): 4 KiB pages, as cache and TLB probes need */
	HUGE_ALWAYS,   /* madvise(MADV_HUGEPAGE) */
};

struct buffer {
	void *data;
	size_t size;       /* bytes requested */
	size_t mapped;     /* bytes mapped (rounded up to the page) */
	enum huge_policy huge;
};

/* Maps size bytes, page-aligned and zero-filled-on-touch (pages are not touched here: the thread
 * that uses the data touches it first). */
int buffer_alloc(struct buffer *buf, size_t size, enum huge_policy huge, struct as_error *err);
/* A large virtual range of which only about `touched` bytes will be used (the TLB probes spread
 * a few lines over gigabytes): checked against available memory by what is touched. */
int buffer_alloc_sparse(struct buffer *buf, size_t size, size_t touched, enum huge_policy huge,
			struct as_error *err);
void buffer_release(struct buffer *buf);

/* The fraction of buf's mapping the kernel backs with transparent huge pages now (AnonHugePages
 * of its /proc/self/smaps entries over the mapped bytes); NAN when it cannot be read. Call it after
 * the buffer was touched. */
double buffer_huge_fraction(const struct buffer *buf);

/* MemAvailable from /proc/meminfo in bytes (0 when unknown). */
size_t buffer_mem_available(void);
/* MemTotal from /proc/meminfo in bytes (0 when unknown). */
size_t buffer_mem_total(void);

/* Parses a size with unit: "4096", "16kB" (1000), "16KiB" (1024), "1MB", "2GiB", "64B". */
int buffer_parse_size(const char *text, size_t *out, struct as_error *err);

/* Formats bytes with a binary unit ("48 KiB", "2 MiB", "1.5 GiB"). */
char *buffer_format_size(size_t bytes, char *buf, size_t len);

const char *huge_policy_name(enum huge_policy p);

#endif
