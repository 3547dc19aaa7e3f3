/* Running a program for its speedup stacks: each thread count R times (interleaved, with the
 * 1-thread run that gives the actual speedup), under the preload library, and the stack of the
 * median run of each count with the spread over the repetitions. */
#ifndef ARCHSCOPE_SCALE_RUN_H
#define ARCHSCOPE_SCALE_RUN_H

#include "common/conditions.h"
#include "common/error.h"
#include "common/cpuset.h"
#include "common/spawn.h"
#include "scale/record.h"
#include "scale/stack.h"
#include "scale/tier2.h"

#define SCALE_POINTS_MAX 32
#define SCALE_REPS_MAX 32
#define SCALE_TOP_SITES 3

struct scale_opts {
	int threads[SCALE_POINTS_MAX]; /* the thread counts N, in order */
	int npoints;
	int reps;                      /* R */
	char **argv;                   /* the program; "{T}" in an argument becomes N */
	const char *preload;           /* the library's path (scale_preload_find) */
	int spin;                      /* sample threads to find spinning in user code (spin.h) */
	double sample_period_ms;       /* the base sampling period; 0: chosen by what a sample costs
					  here (scale_spin_base_period_ns) */
	int tracepoints;               /* tier 1 (sched.h): 1 trace the scheduler, 0 only for a static
					  program when running as root */
	double timeout_s;              /* per run; 0: none */
	/* progress: called before each run (the cli prints it); may be NULL */
	void (*progress)(void *ctx, int threads, int rep, int reps);
	void *ctx;
};

/* Problems of one run, named in the output (issue item 12): X(ID, bit, what the output says), in
 * the order the output gives them. */
#define SCALE_BADS(X)                                                                                       \
	X(SCALE_BAD_STATUS, 0, "the program exited with a non-zero status")                                     \
	X(SCALE_BAD_CRASH, 1, "the program crashed (killed by a signal)")                                       \
	X(SCALE_BAD_TIMEOUT, 6, "the program ran past --timeout and was killed")                                \
	X(SCALE_BAD_NORECORD, 2, /* a static binary, or crashed before exit */                                  \
	  "no record from the preload library (a static binary, or the program ended without exit): tier 0 saw no thread") \
	X(SCALE_BAD_SHORT, 3, "the program ran shorter than 10 ms: the stack is mostly noise")                  \
	X(SCALE_BAD_NOTHREADS, 4, "the program started no threads at N > 1")                                    \
	X(SCALE_BAD_IGNORES_T, 5, /* the same number of threads whatever N */                                   \
	  "the program ignores {T} and OMP_NUM_THREADS: it ran as many threads at every N")                     \
	X(SCALE_BAD_NOSCHEDSTAT, 7, /* no run-queue time (scheduling is 0) */                                   \
	  "no schedstat in /proc: run-queue time unknown (scheduling counted as base)")                         \
	X(SCALE_BAD_REJECTED, 11, /* every run of the point was rejected: the one shown too */                  \
	  "every run at this N was rejected (see rejected): the stack shown cannot be right")
/* Runs that cannot be right (item 6): repeated, and left out of the stack; the same form. */
#define SCALE_REJECT_LIST(X)                                                                                \
	X(SCALE_REJECT_FAST, 8, "wall time under T1 / (2 N)")                                                   \
	X(SCALE_REJECT_SILENT, 9, "printed nothing on stdout where the 1-thread runs did")                      \
	X(SCALE_REJECT_SUM, 10, "components that do not sum to N")                                              \
	X(SCALE_REJECT_LOST, 12, /* some records unreadable, and none readable of the program's own process */  \
	  "its records were lost: the program's own process left no readable record")
#define SCALE_X_BIT(id, bit, what) id = 1 << (bit),
enum { SCALE_BADS(SCALE_X_BIT) SCALE_REJECT_LIST(SCALE_X_BIT) };
/* What the output says of each flag of a list, in its order: { flag, text } rows. */
struct scale_flag_text {
	unsigned flag;
	const char *text;
};
#define SCALE_BAD_KINDS 9
#define SCALE_REJECT_KINDS 4
extern const struct scale_flag_text scale_bad_texts[SCALE_BAD_KINDS];
extern const struct scale_flag_text scale_reject_texts[SCALE_REJECT_KINDS];
#define SCALE_REJECTS (SCALE_REJECT_FAST | SCALE_REJECT_SILENT | SCALE_REJECT_SUM | SCALE_REJECT_LOST)
#define SCALE_TRIES 3 /* a rejected run is tried again, at most this often in all */

/* One execution. */
struct scale_exec {
	int threads;
	double wall_s;            /* measured by archscope, start to exit */
	double span_s;            /* the process's own span (record), else wall_s */
	struct spawn_result sr;
	int have_record;
	int records_bad;          /* records of its processes that could not be read (skipped) */
	struct scale_record rec;
	struct scale_stack stack; /* built once the 1-thread time is known */
	double spin_samples, samples; /* spin.h: samples taken in spin loops / in all */
	char err_head[256];       /* the first lines of its stderr */
	long long stdout_bytes;   /* what it printed on stdout */
	double foreign_cpu_s;     /* other processes' CPU time on the CPUs it could use (/proc/stat
				     minus its own and archscope's), NaN when unknown */
	double cpu_s;             /* its CPU time, every process of it (getrusage of the children) */
	struct conditions cond;   /* the run's conditions (common/conditions.h): other processes, steal */
	unsigned rejected;        /* SCALE_REJECT_* */
	int cut;                  /* a signal arrived before the program's last process ended */
	double foreign_share;     /* foreign_load / N of its stack, right after the run */
	int tier;                 /* 0: the preload library's record; 1: the scheduler's tracepoints */
	int have_counts;          /* tier 2: counts holds the program's counter totals */
	struct scale_counts counts;
};

/* One thread count: its R runs and the answers. */
struct scale_point {
	int threads;
	struct scale_exec ex[SCALE_REPS_MAX];
	int nex;
	int median;                /* index in ex of the run whose span is the median */
	double comp_min[COMP_COUNT], comp_max[COMP_COUNT];
	double error;              /* |S^ - S| / N of the median run */
	int dominant;              /* the dominant delimiter: a COMP_* (SCALE_NONE: none stands out) */
	int dominant_part;         /* its largest part where it is spinning or yielding (else SCALE_NONE) */
	const char *cls;
	unsigned bad;              /* SCALE_BAD_* of any run */
	int threads_max;           /* most threads at once in the median run */
	int threads_seen;          /* threads the median run started (the main thread included) */
	int have_t2;               /* tier 2 split work_inflation of the median run: */
	double t2[T2_COUNT];       /* llc, memory, coherency, parallelization_overhead (speedup units) */
	double t2_rest;            /* what the counters do not explain: work_inflation at tier 2 */
	int nrejected;             /* runs rejected (and repeated) */
	int records_bad;           /* records that could not be read, over its runs (rejected tries too) */
	unsigned rejects;          /* their SCALE_REJECT_* */
	double speedup_strong;     /* S = T1/TN, always */
	double speedup_unloaded;   /* T1 less the 1-thread runs' wait for CPUs other processes held,
				      over TN: what base is (unless the work grows) */
	double error_raw;          /* |S^ - T1/TN| / N, T1 as measured */
	double work_ratio;         /* the N-thread run's work / the 1-thread run's (instructions where
				      counted, else CPU time) */
	int work_grows;            /* the work grows with N: base is the scaled speedup */
	double speedup_scaled;     /* Gustafson: work_ratio x speedup_unloaded */
	double speedup_serial;     /* t1_serial_s / TN where the 1-thread runs were not serial (NaN
				      where they were) */
	double foreign_cpu_s;      /* of the median run */
	int dominant_unclear;      /* the largest delimiter does not stand out beyond the runs' spread
				      (its least run <= another's largest): dominant is SCALE_NONE */
	const char *runner_up;     /* then: the component it does not stand out from */
	double dominant_spread;    /* then: its largest - least run, speedup units */
	double cpu_ratio;          /* the program's CPU time, median run at N / at 1 (NaN: unknown) */
	int inflation_unconfirmed; /* work_inflation was largest but the CPU time did not grow with it
				      (beyond N (1 - 1/cpu_ratio) + 0.1 N): dominant is SCALE_NONE */
	const char *cls_program;   /* the class of S + foreign_load: the program's, without the other load */
};

/* Whether p's dominant delimiter stands out (issue 47 item 5): beyond the runs' spread (its least
 * run above every other component's largest), and work_inflation only where the program's CPU
 * time grew with it (<= N (1 - 1/cpu_ratio) + 0.1 N); else p->dominant becomes SCALE_NONE with
 * dominant_unclear or inflation_unconfirmed set. p->dominant, comp_min/max, ex[].cpu_s and the
 * 1-thread point res->pt[res->one] are read. */
struct scale_result;
void scale_dominant_check(const struct scale_result *res, struct scale_point *p);

/* A 1-thread run that keeps this many CPUs busy with work is not serial (zstd -T1: a worker
 * compresses while main reads and writes): S^ estimates the speedup over its work on one CPU. */
#define SCALE_T1_PARALLEL 1.02

struct scale_result {
	struct scale_point pt[SCALE_POINTS_MAX];
	int npoints;
	int one;                   /* index of the 1-thread point (added when not asked for) */
	int one_added;             /* the 1-thread point was added for S only */
	double t1_s;               /* median span of the 1-thread runs */
	double t1_unloaded_s;      /* median of their spans less their foreign_load share */
	double t1_busy;            /* CPUs the 1-thread runs kept busy with work (base / span, median):
				      over 1 where their threads overlapped */
	double t1_serial_s;        /* their work on one CPU: the larger of the unloaded span and the
				      base time, median (NaN unless t1_busy reaches SCALE_T1_PARALLEL) */
	int reps;
	unsigned bad;              /* union over points */
	int first_status, first_signal; /* of the first bad run, for the message */
	int spin_available;        /* sampling worked (else why in spin_why) */
	uint32_t spin_period_ns;   /* the base sampling period used */
	double spin_cost_ns;       /* what a sample cost, measured (NaN: not measured) */
	char spin_why[160];
	int tier1;                 /* the scheduler was traced (else why in tier1_why, when asked) */
	char tier1_why[160];
	int tier2;                 /* counters counted every run (else why in tier2_why) */
	char tier2_why[256];
	int interrupted;           /* the signal that stopped the runs (0: none); the cut run is left out */
	int records_bad;           /* records that could not be read, over every run (skipped) */
	int cpus;                  /* the CPUs the program could use */
};

/* The preload library: $ARCHSCOPE_PRELOAD, else libarchscope-preload.so next to the running
 * executable (a build tree), else in the installed lib/archscope relative to it
 * (common/paths.h); checked to be a shared object this machine's loader can preload (a regular
 * ELF file of this class and machine, of type ET_DYN, whole). 0; -EINVAL when $ARCHSCOPE_PRELOAD
 * names something else (a usage error: err names the variable and why); -ENOENT with err saying
 * where it looked, or -ENOEXEC when the one found is not a loadable library. */
int scale_preload_find(char *path, size_t len, struct as_error *err);

/* Runs everything and fills res. Returns 0 when every run started (problems of the program are
 * in res->bad), or a negative errno (the program is not there, a temporary directory failed).
 * A SIGINT, SIGTERM or SIGHUP (common/interrupt.h, installed by the caller) is forwarded to the
 * program; the runs stop, the cut one is left out, the others give the stacks, and
 * res->interrupted names the signal. The temporary directory is removed on every path. */
int scale_run(const struct scale_opts *o, struct scale_result *res, struct as_error *err);
void scale_result_release(struct scale_result *res);
/* Tier 2: splits the work_inflation of each point's median run with its counts and those of the
 * 1-thread point's median run (scale_tier2_split); have_t2 where both were counted. Part of
 * scale_run; separate so that recorded counts can be tested. */
void scale_run_tier2(struct scale_result *res);
/* Whether a run that did `ratio` times the 1-thread run's work at N threads on `cpus` CPUs, with
 * the speedup `speedup` (T1/TN plus the slots its threads spent waiting for a CPU), grew its work
 * with N (fixed time, or fixed work per thread): ratio >= 1.5 and >= 0.9 min(N, cpus), and it
 * took no longer than 1.5 T1 (1.5 T1 N / cpus when N > cpus). A strong-scaled program does about
 * the same work (ratio near 1). By time alone (no counters) a program whose every thread ran about
 * N times slower (memory bandwidth, false sharing) looks the same; 0.9 N rather than less keeps
 * the usual slowdowns out (a memory-bound Jacobi sweep under other load: 1.78 at N = 2). Pure;
 * unit-tested. */
int scale_work_grows(double ratio, double speedup, int threads, int cpus);
/* The other processes' CPU time on the CPUs in `cpus` between two /proc/stat texts (busy:
 * user, nice, system, irq, softirq, steal), less own_cpu_s; NaN when a text cannot be read.
 * Pure; unit-tested. */
double scale_foreign_cpu(const char *stat0, const char *stat1, const struct as_cpulist *cpus, double own_cpu_s,
			 long ticks_per_s);

#endif
