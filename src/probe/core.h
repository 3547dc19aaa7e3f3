/* Core-to-core communication (BlackjackBench §3.1.4). */
#ifndef ARCHSCOPE_PROBE_CORE_H
#define ARCHSCOPE_PROBE_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "common/cpuset.h"
#include "common/error.h"
#include "probe/memory.h"

/* §3.1.4: one-way bandwidth (GB/s) between two pinned threads taking turns updating a block of
 * block_bytes first touched by the thread on cpu a; best and median of the repetitions. */
int probe_c2c_bandwidth(const struct probe_opts *o, int a, int b, size_t block_bytes, double *best_gbs,
			double *median_gbs, struct as_error *err);
/* One-way latency (ns) of a cache line bounced between cpu a and cpu b. */
int probe_c2c_latency(const struct probe_opts *o, int a, int b, double *best_ns, double *median_ns,
		      struct as_error *err);

#endif
