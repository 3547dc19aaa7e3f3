/* Probes of the core and the OS (BlackjackBench §3.4 execution contexts, §3.6 scheduler time
 * slot). Threads here are deliberately not pinned, as the paper prescribes: the OS places them. */
#ifndef ARCHSCOPE_PROBE_CORE_H
#define ARCHSCOPE_PROBE_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "common/cpuset.h"
#include "common/error.h"
#include "probe/memory.h"

enum contexts_kind { CONTEXTS_FP, CONTEXTS_INT, CONTEXTS_MEM };

const char *contexts_kind_name(enum contexts_kind k);

/* §3.4: M threads doing identical work (FP divisions, integer divisions, or pointer chasing in
 * an 8 KiB block that fits any L1), M = 1, 2, ... until the time normalised to M = 1 exceeds 2 or
 * M reaches max_threads. Curve: x = M, min_ns/median_ns = normalised time (unitless) over the
 * repetitions. The calling thread's affinity must allow every CPU the threads may use. */
int probe_contexts_run(const struct probe_opts *o, enum contexts_kind kind, int max_threads,
		       struct probe_curve *out, struct as_error *err);

struct timeslice_result {
	double *gaps_us;    /* every gap above the threshold, sorted */
	size_t n;
	int threads;
	double run_s;       /* how long each thread ran */
	double threshold_us;
};

/* §3.6: `threads` unpinned threads (twice the CPUs) loop on a timestamp and record every gap
 * above 20 us, for run_s seconds. */
int probe_timeslice_run(const struct probe_opts *o, int threads, double run_s, struct timeslice_result *res,
			struct as_error *err);
void timeslice_result_release(struct timeslice_result *res);

/* §3.1.4: one-way bandwidth (GB/s) between two pinned threads taking turns updating a block of
 * block_bytes first touched by the thread on cpu a; best and median of the repetitions. */
int probe_c2c_bandwidth(const struct probe_opts *o, int a, int b, size_t block_bytes, double *best_gbs,
			double *median_gbs, struct as_error *err);
/* One-way latency (ns) of a cache line bounced between cpu a and cpu b. */
int probe_c2c_latency(const struct probe_opts *o, int a, int b, double *best_ns, double *median_ns,
		      struct as_error *err);

#endif
