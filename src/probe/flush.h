/* The flush witness of the cache line, which needs one CPU: load a line, flush the line D bytes
 * further (clflush), then time a reload of the first. While D is below the line both addresses
 * are one line and the reload misses to memory; from D = line on the flush hits another line and
 * the reload hits L1. Prefetchers cannot fool it: they bring lines in but never evict one, so an
 * adjacent-line or region prefetcher (Intel's L2 spatial prefetcher pairing 128 B, AMD's pairing
 * and region prefetchers) leaves the step where the line ends. */
#ifndef ARCHSCOPE_PROBE_FLUSH_H
#define ARCHSCOPE_PROBE_FLUSH_H

#include <stdint.h>

#include "common/error.h"
#include "probe/memory.h"

/* 1 where this build can flush a line from user space (x86-64: clflush), else 0. */
int probe_flush_available(void);

/* D = 8, 16, ..., 512 B: reps repetitions of `trials` reloads at random 1 KiB-aligned places of a
 * 256 KiB buffer, the repetitions interleaved over D; each repetition's median reload time in ns
 * (time-stamp counter at tsc_ghz, including the fences around the load: about 15-20 ns). Adds one
 * point per D to out (x: D in bytes; min and median over the repetitions). *stop (may be NULL)
 * ends early with the points of the repetitions done (none when the first was cut). 0, -ENOTSUP
 * where the architecture has no user-space flush, -EINVAL, or -ENOMEM; err says which. */
int probe_flush_run(int reps, int trials, double tsc_ghz, uint64_t seed, volatile int *stop, struct probe_curve *out,
		    struct as_error *err);

#endif
