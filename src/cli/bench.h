/* Pieces of `archscope bench` shared by its files: the Ctrl-C flag, the working sets of each
 * measured memory level, and the ECM and thread-scaling views. */
#ifndef ARCHSCOPE_CLI_BENCH_H
#define ARCHSCOPE_CLI_BENCH_H

#include <signal.h>
#include <stddef.h>

#include "bench/kernels.h"
#include "common/cpuset.h"

#define BENCH_MAX_LEVELS 8

extern volatile sig_atomic_t bench_interrupted;

struct bench_levels {
	int n;                            /* cache levels measured + memory */
	char name[BENCH_MAX_LEVELS][8];   /* "L1", "L2", ..., "MEM" */
	size_t size[BENCH_MAX_LEVELS];    /* a working set inside each, one thread */
	double level_bytes[BENCH_MAX_LEVELS]; /* the measured capacity (0 for memory) */
};

/* Runs the quick cache probe on `cpu` and fills one working set per level: half of L1; halfway
 * (geometric) between the sizes of the level above and this one; for memory 8x the last cache,
 * at least 512 MiB, at most a quarter of the available memory. Exits on failure. */
void bench_levels_measure(int cpu, struct bench_levels *lv);
/* The same from cache sizes already measured (nl levels, bytes). */
void bench_levels_from(const double *level_bytes, int nl, struct bench_levels *lv);

struct bench_cli {
	const char *variant; /* NULL: the widest the CPU runs */
	int reps;
	double min_time_s;
	int json;
	int small_pages;     /* --pages 4k */
	int stream_offset;   /* --offset, as in struct bench_opts */
};

/* --ecm: the kernels' measured cycles per cache line in every level against the ECM prediction
 * from the load and store kernels (paper Table 4). One thread on `cpu`. */
int bench_ecm(const struct bench_cli *o, const char *const *kernels, int nkernels, int cpu);

/* --threads-scaling: GB/s of `kernel` in every level for 1..cpus->n threads (paper Table 5). */
int bench_threads_scaling(const struct bench_cli *o, const char *kernel, const struct as_cpulist *cpus);

#endif
