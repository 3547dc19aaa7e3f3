/* The scheduler's own account of a time slice, an independent witness beside the gap method of
 * BlackjackBench §3.6: two busy threads share one CPU, and the kernel's per-thread schedstat
 * (/proc/self/task/TID/schedstat: run time in ns, wait time in ns, slices run) gives the mean
 * run time per slice. Linux only; where schedstat is missing the witness says so. */
#ifndef ARCHSCOPE_PROBE_SCHEDSTAT_H
#define ARCHSCOPE_PROBE_SCHEDSTAT_H

#include <stdint.h>

#include "common/error.h"

struct schedstat {
	uint64_t run_ns, wait_ns, slices;
};

/* The calling thread's counters. 0, or -ENOENT where the kernel has no schedstat. */
int schedstat_read_self(struct schedstat *s, struct as_error *err);

struct schedstat_slice {
	int threads;          /* busy threads sharing the CPU */
	double seconds;       /* how long they ran */
	double slice_ms[4];   /* each thread's run time per slice */
	uint64_t slices[4];   /* slices each ran */
	double mean_slice_ms; /* over all threads: total run time / total slices */
};

/* Runs `threads` (2..4) busy threads pinned to `cpu` for `seconds` and reads each one's schedstat
 * before and after. */
int schedstat_slice_run(int cpu, int threads, double seconds, struct schedstat_slice *out, struct as_error *err);

#endif
