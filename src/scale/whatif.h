/* Causal profiles (`archscope whatif`, after Coz, SOSP'15): a profiling run finds where the program's
 * threads spend their CPU time, grouped into sites (source lines or functions); then rounds of runs,
 * each with one site virtually sped up by one line speedup (the preload library's delays, shared
 * by every process of the tree), interleaved with baseline runs; per site and line speedup, the
 * program's speedup (time saved over the baseline's time per unit of progress) with a 95 %
 * confidence interval over the rounds. */
#ifndef ARCHSCOPE_SCALE_WHATIF_H
#define ARCHSCOPE_SCALE_WHATIF_H

#include <stddef.h>
#include <stdint.h>

#include "common/conditions.h"
#include "common/error.h"
#include "scale/preload/whatif.h"

#define WHATIF_SITES_MAX 16
#define WHATIF_SPEEDUPS_MAX 21
#define WHATIF_ROUNDS_MAX 64
#define WHATIF_MIN_SAMPLES 10 /* a site with fewer profile samples is named but not trusted */

struct whatif_opts {
	char **argv;
	const char *preload;    /* the library's path (scale_preload_find) */
	int by_function;        /* sites are functions, else source lines */
	int nsites;             /* the top sites to try */
	double speedups[WHATIF_SPEEDUPS_MAX]; /* line speedups, 0 < s <= 1, increasing */
	int nspeedups;
	int rounds;
	double period_ms;       /* sampling period of a thread's CPU time */
	double timeout_s;       /* per run; 0: none */
	const char *progress_point; /* a Coz progress point's name to measure by (NULL: the first
				       throughput point the program has, else its wall time) */
	void (*progress)(void *ctx, const char *what, int run, int runs);
	void *ctx;
};

/* One measured point of a site: its runs' time per unit of progress. */
struct whatif_curve_point {
	double line_speedup;
	double period_s[WHATIF_ROUNDS_MAX]; /* effective time per unit of progress, one per round */
	int n;
	double program_speedup;  /* 1 - mean(period) / mean(baseline period); NaN: no run */
	double ci;               /* half-width of its 95 % interval; NaN: not enough runs */
	double site_samples;     /* samples in the site, mean over its runs */
	int noisy;               /* runs whose conditions were disturbed (common/conditions.h) */
};

enum whatif_verdict {
	WHATIF_RISING,     /* the largest line speedup's program speedup is above its interval */
	WHATIF_FLAT,       /* every point within its interval of 0, and the intervals narrow */
	WHATIF_NOISE,      /* the intervals are too wide to tell (more rounds, a longer run) */
	WHATIF_FEW,        /* too few samples in the site */
	WHATIF_NEGATIVE,   /* slower when the site is faster: contention (Coz's finding too) */
};
extern const char *const whatif_verdict_names[];

struct whatif_site {
	char where[256];         /* "file.c:42 (function)" or "function (binary)" */
	char path[512];          /* the binary */
	uint64_t offs[WHATIF_RANGES_MAX][2]; /* its code as file offsets of path */
	int noffs;
	long samples;            /* profile samples in it */
	double share;            /* of all profile samples */
	struct whatif_curve_point pts[WHATIF_SPEEDUPS_MAX];
	int npts;
	int verdict;
	double crit_share;       /* of the profiling run's span, the site ran in the threads that bound
				    it (whatif_critical_shares); NaN: not told */
};

/* Code where threads wait in an OpenMP runtime (its barriers, waits, spin and sleep loops; yields):
 * sampled, named, and never a site to try: making a wait faster does not make the program faster
 * (the work it waits for does). */
#define WHATIF_WAITING_MAX 8
struct whatif_waiting {
	char where[256];         /* "function (binary)", "(no symbol) (binary)" */
	long samples;            /* profile samples in it */
	double share;            /* of all profile samples */
};

struct whatif_result {
	struct whatif_site sites[WHATIF_SITES_MAX];
	int nsites;
	struct whatif_waiting waiting[WHATIF_WAITING_MAX]; /* the runtimes' waits, most sampled first */
	int nwaiting;
	int crit_threads;        /* the profiling run's threads that bound it (0: not told) */
	int crit_threads_seen;   /* its threads with CPU time and samples */
	double crit_span_s;      /* its span (the stack's record) */
	long profile_samples;    /* every thread's samples in the profiling run */
	double profile_wall_s;
	struct conditions profile_cond; /* what the profiling run ran in */
	int runs_noisy;          /* runs judged disturbed (other processes, steal) */
	char noisy_why[240];     /* the first one's reason */
	struct whatif_curve_point base; /* the baseline runs (line speedup 0) */
	char progress[128];      /* "wall time" or the progress point's name */
	int throughput;          /* measured by a progress point's visits */
	int latency;             /* measured by COZ_BEGIN/COZ_END latency (Little's law) */
	char points_seen[256];   /* the progress points the profiling run saw: "name (kind), ..." */
	double visits_mean;      /* the progress point's visits (END's for latency), mean per baseline run */
	int visits_runs;
	int runs, runs_failed;   /* runs made (profile included); runs whose program failed */
	int first_status, first_signal; /* of the first failed run */
	int processes_max;       /* most process images of one run that mapped the shared file */
	int interrupted;         /* the signal that cut the rounds (0: none) */
	double delay_share_max;  /* largest inserted delay / wall time over the runs */
	char err_head[256];      /* the first lines of a failed run's stderr */
};

/* The program's speedup and its 95 % interval from the baseline periods and a point's periods
 * (Coz: 1 - p / p0, p the time per unit of progress): the delta method on the ratio of the means
 * with the Student t quantile of the fewer runs' degrees of freedom; a side with one run takes
 * the other's relative spread. NaN ci when neither side has two runs. Pure; unit-tested. */
void whatif_point_finish(const struct whatif_curve_point *base, struct whatif_curve_point *p);
/* The verdict of a site from its points (enum whatif_verdict). Pure; unit-tested. */
int whatif_site_verdict(const struct whatif_site *s);

/* Runs the profile and the rounds; fills res. 0 when the program ran (its failures are counted in
 * res), -ENOENT when it cannot run as named, another negative errno (err says what). A signal
 * (common/interrupt.h) stops the rounds: the finished ones are kept, res->interrupted names it. */
int whatif_run(const struct whatif_opts *o, struct whatif_result *res, struct as_error *err);

/* The options both `whatif` and `stack --whatif` take (whatif-stack.c). --speedups: "0.25,0.5,1" or
 * percentages "25,50,100", increasing, each in (0, 1], into v (*n of them, at most
 * WHATIF_SPEEDUPS_MAX - 1); 0, or -EINVAL with why saying which item is wrong. Pure; unit-tested. */
int whatif_speedups_parse(const char *arg, double *v, int *n, char *why, size_t len);
/* The thread count `stack --whatif` runs whatif at: the largest the stack was asked for. */
int whatif_threads_for_stack(const int *threads, int n);
/* The point of a site's curve shown beside the stack: its largest line speedup with a measured
 * program speedup (NULL: none). */
const struct whatif_curve_point *whatif_site_top(const struct whatif_site *s);
/* whatif_run at `threads`: "{T}" in o->argv becomes the number and OMP_NUM_THREADS is set to it
 * for the runs (restored after), as `stack` runs the program at N. */
int whatif_run_threads(const struct whatif_opts *o, int threads, struct whatif_result *res, struct as_error *err);

/* Sites: the profile's samples grouped into lines or functions (whatif-sites.c). */
struct whatif_sample {
	char path[512];
	uint64_t off;            /* file offset in path */
	uint64_t map_start, map_offset; /* the mapping it was in (to place it for libdw) */
	long n;
	int tid;                 /* the thread sampled (0: not recorded) */
};
/* Reads every profile file in dir into *v (*n of them, heap); 0, -ENOENT when none, -ENOMEM. */
int whatif_samples_load(const char *dir, struct whatif_sample **v, size_t *n, long *total);
/* Groups samples into sites (by line or function), the top `max` by samples, with each site's
 * code ranges found in the debug information (line: the addresses of the sampled functions whose
 * line is the site's; function: the symbol's range). Samples in an OpenMP runtime's waits
 * (whatif_is_runtime_wait) are never sites: they go by function into waiting[] (at most
 * WHATIF_WAITING_MAX, most sampled first; *nwaiting of them). Returns the sites' count. */
#define WHATIF_MARK_OTHER (-1)   /* a sample in no site tried */
#define WHATIF_MARK_WAITING (-2) /* a sample in a runtime's wait */
/* mark (NULL, or n entries): each sample's site (its index in sites), or WHATIF_MARK_*. */
int whatif_sites_pick(const struct whatif_sample *v, size_t n, long total, int by_function, int max,
		      struct whatif_site *sites, struct whatif_waiting *waiting, int *nwaiting, int *mark);

/* The critical path beside the stack (`stack --whatif`). The threads that bound a run are those
 * whose work (CPU time less the share of their samples in waits, WHATIF_MARK_WAITING) is at least
 * WHATIF_CRIT_WORK of the most any thread did: the thread the others wait for, or every thread of
 * a balanced run. A site's critical-path share is the share of the run's span in which those
 * threads were in it, running or preempted there (waiting for a CPU other load held): the mean
 * over them of ((CPU time + run-queue time) x their samples in the site / their samples) / span,
 * within [0, 1]. */
#define WHATIF_CRIT_WORK 0.9
struct whatif_thread_cpu {
	int tid;
	double cpu_s;            /* on a CPU (the stack's record: schedstat) */
	double runq_s;           /* runnable, waiting for a CPU (schedstat): where it was preempted */
};
/* Sets sites[s].crit_share (NaN where it cannot be told: no thread with CPU time and samples, no
 * span) from the profile's samples v[0..n) (their tid) and marks; returns the threads that bound
 * the run (0: none found), *seen the threads with CPU time and samples. Pure; unit-tested. */
int whatif_critical_shares(const struct whatif_sample *v, const int *mark, size_t n, const struct whatif_thread_cpu *th,
			   size_t nth, double span_s, struct whatif_site *sites, int nsites, int *seen);
/* Whether code in binary `path`, in function `function` (NULL: no symbol), is an OpenMP runtime
 * waiting: a runtime library (libgomp, LLVM's libomp, Intel's libiomp5) and a function of its
 * barriers, waits, spin, yield or sleep loops (gomp_team_barrier_wait_end, do_spin, futex_wait,
 * __kmp_wait_template, __kmp_hyper_barrier_release, kmp_flag_64::wait, __kmp_suspend_64, ...), or
 * runtime code without a symbol (a stripped runtime's static wait loops: the stack files every
 * sample in a runtime whose waits it timed as their spin phase, the same way); and sched_yield in
 * any binary (libomp's waits yield in their loop; a yield is never work). Pure; unit-tested. */
int whatif_is_runtime_wait(const char *path, const char *function);

#endif
