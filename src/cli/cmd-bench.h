/* archscope bench in three files: cmd-bench.c reads the options, picks the kernels and the team
 * and prints --list; cmd-bench-runs.c runs KERNEL with -s, --level or --sweep; cmd-bench-ecm.c
 * finds the machine's line and levels, measures and renders --ecm and --threads-scaling, each over
 * one working set per memory level. */
#ifndef ARCHSCOPE_CLI_CMD_BENCH_H
#define ARCHSCOPE_CLI_CMD_BENCH_H

#include <stdint.h>

#include "bench/kernels.h"
#include "bench/levels.h"
#include "common/cpuset.h"


/* The options of `archscope bench`. */
struct cli_bench_opts {
	const char *size_text;  /* -s SIZE */
	const char *level;      /* --level: L1, L2, ... or MEM; NULL: none */
	double line_bytes;      /* the cache line the cycles per line count (bench_line_bytes; 0: none) */
	const char *line_from;  /* where it came from: "topology", "measured" */
	int sweep, ecm, scaling, list, over, json;
	int threads;            /* -t N, 0: not given */
	const char *cpus_text;  /* --cpus LIST */
	const char *variant;    /* NULL: the widest the CPU runs */
	int reps;
	double min_time_s;
	double wait_quiet_s;    /* --wait-quiet: seconds at most before each run (0: no wait) */
	int remeasure;          /* --remeasure N: as struct bench_opts (0: the default 2, -1: none) */
	int small_pages;        /* --pages 4k */
	uint64_t offset_bytes;  /* --offset B */
	int stream_offset;      /* from offset_bytes, as in struct bench_opts */
	const char *plot_dir;
	volatile int *stop;     /* set by Ctrl-C: print what was measured */
};

/* The kernels' names, from the table's scalar rows: "load store copy ..." (buf). */
const char *cli_bench_kernel_names(char *buf, size_t len);
/* The kernel `name` in `variant` (NULL: the widest this CPU runs); NULL after a usage error. */
const struct bench_kernel *cli_bench_pick(const char *name, const char *variant);
/* The team for `threads` threads or --cpus LIST (default one thread; with --threads-scaling all
 * allowed CPUs up to BENCH_MAX_THREADS). 0, or an exit code after error(). */
int cli_bench_team_cpus(const struct cli_bench_opts *o, int threads, struct as_cpulist *cpus);
/* KERNEL with -s, --level or --sweep (names: the positional words): measures, renders, plots.
 * Returns the exit code; 130 after Ctrl-C (*o->stop), with what was measured printed. */
int cli_bench_runs(struct cli_bench_opts *o, int nnames, char **names);

/* The cache line the cycles per line count, into o: the first level's line as the topology reports
 * it, else a quick line probe on `cpu`, else none (cycles per line are then not reported). */
void cli_bench_line(struct cli_bench_opts *o, int cpu);
/* --ecm: the kernels' measured cycles per cache line in every level of lv against the ECM
 * prediction from the load and store kernels (paper Table 4). ks[0] is load, ks[1] store. One
 * thread on `cpu`. Returns the exit code. */
int cli_bench_ecm(const struct cli_bench_opts *o, const struct bench_kernel *const *ks, int nk, const struct bench_levels *lv,
	      int cpu);

/* --threads-scaling: GB/s of kernel k in every level of lv for 1..cpus->n threads (paper
 * Table 5). Returns the exit code. */
int cli_bench_threads_scaling(const struct cli_bench_opts *o, const struct bench_kernel *k, const struct bench_levels *lv,
			  const struct as_cpulist *cpus);

#endif
