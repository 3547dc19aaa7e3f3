/* Counting any program over repeated runs (EvSel's measurement, NUMA thesis §4.1): perf events
 * opened on the program from its exec, inherited by its threads, scheduled in groups that fit the
 * counters over as many batches of runs as needed; rusage and the main thread's schedstat beside
 * them. Per run values, never 0 for "not counted"; it never prints. */
#ifndef ARCHSCOPE_MEASURE_STAT_H
#define ARCHSCOPE_MEASURE_STAT_H

#include "common/conditions.h"
#include "common/error.h"
#include "measure/counters.h"

enum stat_source {
	STAT_PERF,      /* a perf_event_open counter */
	STAT_RUSAGE,    /* wait4's rusage of the program and the children it waited for */
	STAT_SCHEDSTAT, /* /proc/PID/schedstat of the main thread, read before it is reaped */
	STAT_WALL,      /* the wall time from exec to exit */
};

struct stat_event {
	char *name;           /* as asked for (owned; any length: libpfm4's names can be long) */
	char *fq;             /* as libpfm4 qualified it (owned; NULL for rusage, schedstat, wall) */
	const char *unit;     /* "ns", "events", "KiB", ...; a sysfs event's .unit ("Joules") in unit_sysfs */
	char unit_sysfs[32];
	enum stat_source source;
	int hardware;         /* needs a PMU (not a kernel software event) */
	int pass;             /* batch of runs that counts it; -1 when it cannot be counted */
	int group;            /* counter group within its pass (-1: software, counted alone) */
	int available;
	char reason[560];     /* why not available ("" when it is) */
	double *values;       /* one per run of its pass; NaN: not counted in that run */
	double *share;        /* per run: counting time / enabled time (1: never multiplexed) */
	int multiplexed;      /* a run counted only part of the time: its value is scaled */
	/* summary of the counted values (measure_stat_summarise) */
	int n;
	double mean, stddev, min, max; /* stddev with Bessel's correction; NaN when n < 2 */
	int zero, constant;   /* every counted value 0 / all equal (n >= 2) */
};

struct stat_run {
	int pass;
	int exited;           /* 1: exited with status; 0: killed by signal `status` */
	int status;
	double seconds;
	char stderr_tail[512];/* the last bytes the program wrote to stderr */
	struct conditions cond; /* other processes, steal, ... while it ran (common/conditions.h) */
};

/* One thread (or process) of the program in one run, with --per-thread. */
struct stat_thread {
	int run;              /* index into measure_stat.run */
	int index;            /* order of creation within its run (0: the main thread) */
	int tid;
	char comm[16];
	double *values;       /* per event (nevents); NaN: not counted for this thread */
};

struct stat_tracee;       /* a live thread's counters (stat-thread.c) */
struct measure_stat;

/* One interval of -I: every event's count in it (not since the start). */
struct stat_interval {
	int run;              /* index into measure_stat.run (the run it belongs to) */
	double t_s;           /* its end, since the count started */
	double *delta;        /* per event (nevents); NaN: not counted */
};

/* What is counted. */
enum stat_target {
	STAT_TARGET_PROGRAM,  /* the program argv, from its exec, with its threads and children */
	STAT_TARGET_ATTACH,   /* a running process (-p): its threads from now on (argv, if any, only times it) */
	STAT_TARGET_SYSTEM,   /* every CPU (-a): all tasks, while argv runs (argv NULL: until a signal) */
};

struct stat_opts {
	int runs;             /* per pass */
	int per_thread;       /* also count each thread and process by itself (ptrace) */
	int stdout_fd;        /* where the program's stdout goes (-1: inherited) */
	int stderr_fd;        /* where its stderr is copied after each run (-1: nowhere; it is kept) */
	enum stat_target target;
	pid_t attach_pid;     /* STAT_TARGET_ATTACH */
	double interval_s;    /* > 0: read every event every interval_s too (-I) */
	void (*progress)(void *ctx, int done, int total);
	/* called after each interval is recorded (may be NULL) */
	void (*on_interval)(void *ctx, const struct measure_stat *m, const struct stat_interval *iv);
	void *ctx;
};

struct measure_stat {
	int nevents;
	struct stat_event *ev;
	int runs;             /* per pass */
	int passes;
	int nrun;             /* runs done */
	struct stat_run *run; /* runs * passes */
	int kernel;           /* kernel mode counted too */
	enum stat_target target;
	pid_t attach_pid;
	int ncpus;            /* STAT_TARGET_SYSTEM: CPUs counted */
	int interrupted;      /* a signal (SIGINT, SIGTERM, SIGHUP) stopped the runs; the run it cut is left out */
	int signal;           /* that signal; with ATTACH or SYSTEM without a program the signal that ended a
				 complete count (interrupted stays 0) */
	int window;           /* ATTACH, or SYSTEM without a program: one window, not runs */
	int nint;             /* -I: intervals recorded, in order */
	struct stat_interval *intervals;
	size_t intervals_cap; /* entries intervals has room for */
	double interval_s;
	char hw_reason[560];  /* once: why hardware events cannot be counted here ("" when they can) */
	int per_thread;
	int nthreads;
	struct stat_thread *threads;
	size_t threads_cap;   /* entries threads has room for */
	/* private: the threads alive in the run being traced */
	int nlive, next_index;
	struct stat_tracee *live;
	size_t live_cap;
};

/* Events by name (libpfm4 or perf's: "page-faults", "cycles", "PERF_COUNT_SW_TASK_CLOCK",
 * "INST_RETIRED:ANY_P"); rusage, schedstat and wall time are always added. runs >= 1. */
int measure_stat_init(struct measure_stat *m, const char *const names[], int n, int runs, struct as_error *err);
/* Decides what can be counted: opens every event on this process as it will on the program (set
 * m->target first: with STAT_TARGET_SYSTEM a sysfs event of a PMU with a cpumask is tried on a CPU),
 * packs hardware events into groups that open together (one group per pass) and records why an
 * event cannot be counted. */
int measure_stat_plan(struct measure_stat *m, struct as_error *err);
/* Runs argv passes * runs times (or counts o->target). -ENOENT, -EACCES or -ENOEXEC (and nothing
 * run) when the program cannot be started, with a message that says why (measure/exec.h).
 * Signals follow common/interrupt.h (the caller installs it): the program runs in its own process
 * group, which gets the first SIGINT/SIGTERM/SIGHUP; the run it cuts is left out, the runs stop
 * and m->interrupted is set. */
int measure_stat_run(struct measure_stat *m, char *const argv[], const struct stat_opts *o, struct as_error *err);
/* measure_stat_run in steps, for two programs run in turn (compare -r: A B A B ...): begin, then
 * step runs the next run (1: more to run; 0: all done, or interrupted; -errno), then finish
 * summarises. */
int measure_stat_begin(struct measure_stat *m, char *const argv[], const struct stat_opts *o, struct as_error *err);
int measure_stat_step(struct measure_stat *m, char *const argv[], const struct stat_opts *o, struct as_error *err);
void measure_stat_finish(struct measure_stat *m);
/* Keeps run k's value (NaN: not counted) and the share of its enabled time it counted; a share
 * below 1 flags the event multiplexed. */
void measure_stat_record(struct stat_event *e, int k, double value, double share);
/* Mean, stddev (Bessel), min, max, zero and constant of the counted values. Pure. */
void measure_stat_summarise(struct stat_event *e, int nvalues);
void measure_stat_release(struct measure_stat *m);

/* libpfm4's name for one of perf's event names ("page-faults" -> "perf::PERF_COUNT_SW_PAGE_FAULTS");
 * the name itself when it is not one of perf's. */
const char *measure_stat_alias(const char *name);
/* 1 when the event is a kernel software event (counts without a PMU). */
int measure_stat_is_software(const char *fq);

#endif
