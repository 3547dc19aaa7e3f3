/* The memory levels a streaming kernel runs in: one working set inside each cache level and
 * memory, from cache sizes measured elsewhere (the probe; cli/ passes them in), and the sweep of
 * kernels over every level and a range of thread counts that probe -o (per level and core count),
 * bench --ecm (per level, one thread) and bench --threads-scaling (per thread count and level)
 * measure. */
#ifndef ARCHSCOPE_BENCH_LEVELS_H
#define ARCHSCOPE_BENCH_LEVELS_H

#include <stddef.h>

#include "bench/run.h"
#include "common/cpuset.h"
#include "common/error.h"

#define BENCH_MAX_LEVELS 8

struct bench_levels {
	int n;                                /* cache levels measured + memory */
	char name[BENCH_MAX_LEVELS][12];      /* "L1", "L2", ..., "MEM" */
	size_t size[BENCH_MAX_LEVELS];        /* a working set inside each, one thread */
	double level_bytes[BENCH_MAX_LEVELS]; /* the measured capacity (0 for memory) */
};

/* One working set per level from nl measured cache sizes (bytes; at most BENCH_MAX_LEVELS - 1
 * are used): half of L1; halfway (geometric) between the sizes of the level above and this one;
 * for memory 8x the last cache, at least 512 MiB, at most a quarter of the available memory. */
void bench_levels_from(const double *level_bytes, int nl, struct bench_levels *lv);

/* The working set of `threads` threads in `level`: the levels above the last cache are private,
 * each thread brings its own one-thread set; the last cache and memory are shared, the total
 * stays. */
size_t bench_levels_size(const struct bench_levels *lv, int level, int threads);

/* One run of a sweep, as its report callback sees it. */
struct bench_sweep_point {
	int level, threads, kernel; /* level: index in lv; kernel: index in kernels[] */
	const char *level_name;
	const struct bench_kernel *k;
	size_t size_bytes;
	int done, total;            /* runs started so far (this one included), runs in all */
};

struct bench_sweep {
	const struct bench_levels *lv;
	const struct bench_kernel *const *kernels;
	int nkernels;
	const struct as_cpulist *cpus; /* t threads run pinned on cpus->cpu[0..t-1] */
	int max_threads;               /* thread counts 1..max_threads (<= cpus->n) */
	int threads_outer;             /* loop over the thread counts outside the levels (else inside) */
	size_t max_bytes;              /* working sets are cut to this (0: no limit) */
	struct bench_opts run;         /* reps, min_time_s, clock_ghz, pages and stream offset; the
	                                * kernel, size and CPUs are set per run */
	volatile int *stop;            /* when set, no further run starts (may be NULL) */
	/* Called before each run (err NULL) and after a failed one (err set); a nonzero return after
	 * a failure stops the sweep. May be NULL: failures are recorded and the sweep goes on. */
	int (*report)(void *arg, const struct bench_sweep_point *pt, const struct as_error *err);
	void *arg;
};

enum bench_sweep_state { BENCH_SWEEP_NOT_RUN, BENCH_SWEEP_OK, BENCH_SWEEP_FAILED };

struct bench_sweep_result {
	int nlevels, nthreads, nkernels;
	unsigned char *entered;   /* [level][threads - 1]: the loops reached this pair */
	unsigned char *state;     /* [level][threads - 1][kernel]: enum bench_sweep_state */
	struct bench_result *run; /* [level][threads - 1][kernel] */
	int done;                 /* runs started */
	int stopped;              /* a failure stopped the sweep */
};

/* Runs every kernel in every level for every thread count, levels then kernels innermost (or
 * thread counts outside the levels with threads_outer). 0, or -ENOMEM before anything ran. */
int bench_sweep_run(const struct bench_sweep *s, struct bench_sweep_result *res, struct as_error *err);
/* The result of one run, NULL when it did not run or failed. */
const struct bench_result *bench_sweep_get(const struct bench_sweep_result *res, int level, int threads, int kernel);
enum bench_sweep_state bench_sweep_state(const struct bench_sweep_result *res, int level, int threads, int kernel);
/* 1 when the sweep reached the pair (level, threads) before it stopped. */
int bench_sweep_entered(const struct bench_sweep_result *res, int level, int threads);
void bench_sweep_release(struct bench_sweep_result *res);

/* What the ECM model is calibrated with (model/ecm.h, ecm_params_from_loads), from a sweep's
 * one-thread runs: the fastest repetition's cycles per line of kernel `load` (its index in the
 * sweep) in each of the first nlev levels, fewer when a level has no load time, and of kernel
 * `store` in L1 (0: none). */
struct bench_ecm_cycles {
	int nlevels;
	double load_cy[BENCH_MAX_LEVELS];
	double store_l1_cy;
};
void bench_sweep_ecm_cycles(const struct bench_sweep_result *res, int load, int store, int nlev,
			    struct bench_ecm_cycles *out);

#endif
