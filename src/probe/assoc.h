/* The associativity probe (BlackjackBench §3.1.3): the curve of latency per access against the
 * number K of addresses that map to the same set of one level. */
#ifndef ARCHSCOPE_PROBE_ASSOC_H
#define ARCHSCOPE_PROBE_ASSOC_H

#include "probe/memory.h"

/* Latency of K addresses level_bytes apart in several sets, K = 1..max_k; the sets are spread so
 * that even K = 1 overflows a lower level of lower_bytes. */
int probe_assoc_run(const struct probe_opts *o, size_t level_bytes, size_t lower_bytes, size_t line,
		    int max_k, struct probe_curve *out, struct as_error *err);

#endif
