/* The cache-hierarchy probe (BlackjackBench §3.1.2): the curve of latency per access against the
 * buffer size of a page-segmented random chase. */
#ifndef ARCHSCOPE_PROBE_CACHES_H
#define ARCHSCOPE_PROBE_CACHES_H

#include "probe/memory.h"

/* Latency of a page-segmented random chase against buffer size, from 1 KiB until the curve has
 * been flat for over an octave at >= 4x the last step (capped at max_bytes). */
int probe_caches_run(const struct probe_opts *o, size_t line, size_t max_bytes, struct probe_curve *out,
		     struct as_error *err);

#endif
