/* The streaming-benchmark runner: a team of pinned threads, each first-touching its own part of
 * every stream, starting each repetition on a barrier; the slowest thread's time counts. */
#ifndef ARCHSCOPE_BENCH_RUN_H
#define ARCHSCOPE_BENCH_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "bench/kernels.h"
#include "common/conditions.h"
#include "common/cpuset.h"
#include "common/error.h"

#define BENCH_MAX_REPS 64
#define BENCH_MAX_THREADS 64 /* threads of one team */
#define BENCH_STREAM_OFFSET 256   /* bytes; see run.c */
#define BENCH_MAX_OFFSET 65536

struct bench_opts {
	const struct bench_kernel *kernel;
	size_t size_bytes;        /* all streams of all threads together */
	struct as_cpulist cpus;   /* one thread per entry, pinned */
	int reps;                 /* repetitions (<= BENCH_MAX_REPS) */
	double min_time_s;        /* each repetition runs at least this long */
	double clock_ghz;         /* measured core clock, for cycles per cache line (0: none) */
	double (*clock_now)(void); /* the core clock right now, GHz, taken after each run to judge it against
	                           * clock_ghz (common/conditions.h; NULL: not judged). cli/ passes the
	                           * probe's clock_window_ghz: bench measures no clock of its own */
	double line_bytes;        /* the machine's cache line, for cycles per cache line (0: none) */
	int small_pages;          /* 1: 4 KiB pages (MADV_NOHUGEPAGE); 0: transparent huge pages asked for */
	int stream_offset;        /* stream k starts k * this many bytes into its page; 0: the default
	                           * BENCH_STREAM_OFFSET, < 0: none */
	double wait_quiet_s;      /* > 0: before each run, wait until its CPUs are quiet, at most this long */
	int remeasure;            /* runs again while other processes, steal or a spread of the
	                           * repetitions above BENCH_SPREAD_MAX disturbed it: 0 the default
	                           * (2 more, within twice the first run's time), < 0 never, N: N more */
};

/* Repetitions whose times spread more than this ((max - min) / median) disagree: the run is
 * measured again, then flagged (docs/conditions.md). */
#define BENCH_SPREAD_MAX 0.5

struct bench_stat {
	double min, median, max;
};

struct bench_result {
	size_t size_bytes;        /* after rounding to whole blocks per thread */
	size_t n_per_thread;      /* elements of each stream per thread */
	int threads;
	uint64_t sweeps;          /* sweeps over the arrays per repetition */
	int reps;
	double time_s[BENCH_MAX_REPS]; /* slowest thread per repetition */
	struct bench_stat gbs;    /* application bytes / s */
	struct bench_stat gbs_real; /* with write-allocate reads */
	struct bench_stat cy_per_cl; /* core cycles per cache line (line_bytes / 8 iterations) per thread;
	                              * NAN without a clock or a line */
	struct bench_stat gflops;
	double spread;            /* (max - min) / median of the times */
	double huge_fraction;     /* the streams' bytes on huge pages after the first touch (the least of
	                           * the threads; NAN: unknown) */
	struct conditions cond;   /* what the kept run was measured in; cond.noisy also when its
	                           * repetitions disagreed (cond.why says) */
};

/* The bytes between the streams' starts that `stream_offset` (struct bench_opts) asks for. */
size_t bench_stream_offset(int stream_offset);

/* The size actually run for a request (whole blocks of BENCH_ELEM_ALIGN elements per thread). */
size_t bench_round_size(const struct bench_kernel *k, size_t size_bytes, int threads);

/* Runs the kernel: o->reps repetitions on a team pinned to o->cpus, in a conditions window
 * (common/conditions.h), measured again while disturbed (o->remeasure). */
int bench_run(const struct bench_opts *o, struct bench_result *r, struct as_error *err);

#endif
