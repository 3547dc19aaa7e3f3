/* The streaming benchmarks a machine file holds (probe -o): which kernels, how often and on how
 * many cores, each with its reason. cli/cmd-probe-machine.c runs them as a sweep over the levels
 * (bench/levels.h) and hands them to machine/write.c; nothing else decides what the file measures. */
#ifndef ARCHSCOPE_BENCH_FILE_KERNELS_H
#define ARCHSCOPE_BENCH_FILE_KERNELS_H

#include "bench/levels.h"

/* X(ID, kernel, why): the kernels in the file's order (Kerncraft's name order, in which model's
 * benchmark choice breaks ties). */
#define BENCH_FILE_KERNELS(X)                                                                                  \
	X(BFK_COPY, "copy", "1 read : 1 write stream: the benchmark of kernels that copy (Kerncraft's choice by " \
			    "read/write ratio)")                                                                  \
	X(BFK_DAXPY, "daxpy", "a read+write stream and a read: kernels that update an array from another")      \
	X(BFK_LOAD, "load", "reads only; with store, calibrates the ECM rates: its extra cycles one level further " \
			    "out are each transfer's cost (the machine file's upstream throughput)")               \
	X(BFK_STORE, "store", "writes only (write-allocate): the ECM model's L1 store rate")                     \
	X(BFK_STREAM, "stream", "2 reads : 1 write, the STREAM triad people compare with")                       \
	X(BFK_TRIAD, "triad", "3 reads : 1 write: kernels with many input streams")                              \
	X(BFK_UPDATE, "update", "one read+write stream: in-place kernels, no write-allocate miss")

#define BENCH_FILE_KERNEL_ENUM_(id, name, why) id,
enum bench_file_kernel_id { BENCH_FILE_KERNELS(BENCH_FILE_KERNEL_ENUM_) BFK_COUNT };

struct bench_file_kernel {
	const char *name; /* bench's kernel (bench_kernel_best picks the widest variant) */
	const char *why;
};

/* The table above, BFK_COUNT rows in enum order. */
extern const struct bench_file_kernel bench_file_kernels[BFK_COUNT];

/* Each measurement is the fastest of BENCH_FILE_REPS repetitions of >= BENCH_FILE_MIN_TIME_S: the
 * statistic model's benchmark mode compares its predictions with (the fastest of its repetitions),
 * and the one a host's other tenants disturb least (the median of 3 of >= 50 ms moved a level's
 * bandwidth by up to 2x between two probes of one Xeon guest). */
#define BENCH_FILE_REPS 9
#define BENCH_FILE_MIN_TIME_S 0.02
/* Core counts 1..the allowed CPUs, at most the runner's team (BENCH_MAX_THREADS). */
int bench_file_max_cores(int allowed);
/* A level's one-core bandwidth may not exceed the level above it by more than this: the working
 * set moved farther from the core (issue 47 item 3; 1.2 leaves room for a kernel whose write
 * allocation an inner level pays and an outer one streams past). A run above it is measured once
 * more before it is flagged implausible. */
#define BENCH_FILE_LEVEL_SLACK 1.2

/* The sweep of the file's kernels (ks: BFK_COUNT, from bench_kernel_best) over lv on 1..max cores
 * of cpus, with the repetitions above; clock_ghz and line_bytes (0: none) count the cycles. The
 * caller sets stop, report and arg. */
void bench_file_sweep(struct bench_sweep *sw, const struct bench_levels *lv, const struct bench_kernel *const *ks,
		      const struct as_cpulist *cpus, double clock_ghz, double line_bytes);

#endif
