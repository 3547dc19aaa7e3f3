/* A timestamped series of a program's memory footprint (the resident set of its whole process
 * tree, from /proc/PID/statm) and of event counters read at the same instants, for `phases`.
 * The counters are inherited by every thread and child and start at the program's exec. */
#ifndef ARCHSCOPE_MEASURE_SERIES_H
#define ARCHSCOPE_MEASURE_SERIES_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"
#include "measure/counters.h"

struct series_opts {
	double interval_s;              /* between samples (> 0) */
	const char *const *events;      /* libpfm4 / perf names; an event that cannot be opened is left out */
	int nevents;                    /* 0 to COUNTERS_MAX */
	double timeout_s;               /* the program is killed after this long (0: no limit) */
	/* when *stop turns nonzero (a signal handler's flag; may be NULL) the program gets SIGINT
	 * once, and what was sampled until it ends is the result */
	volatile sig_atomic_t *stop;
	/* the program in its own process group, which common/interrupt.h's handler (installed by the
	 * caller) sends SIGINT/SIGTERM/SIGHUP on to: what was sampled until it ended is the result */
	int own_group;
	int keep_stdout;                /* the program's stdout stays its own (else: to our stderr) */
	/* called about once a second while the program runs (may be NULL) */
	void (*tick)(void *ctx, double t_s, double rss_bytes);
	void *ctx;
};

struct series {
	size_t n, cap;
	double *t_s;                    /* since the program's exec */
	double *rss_bytes;              /* resident set of the process tree */
	double *ev;                     /* n rows of nev counts since exec: ev[i * nev + j] */
	int nev;
	char name[COUNTERS_MAX][64];    /* the events counted */
	int nmissing;                   /* events asked for that could not be counted, and why */
	char missing[COUNTERS_MAX][64];
	char missing_why[COUNTERS_MAX][512];
	int missing_code[COUNTERS_MAX]; /* -ENOENT: libpfm4 knows no such event; -EOPNOTSUPP: not here */
	double end_s;                   /* when the program ended */
	double ev_end[COUNTERS_MAX];    /* the counts at its end */
	double sampler_cpu_s;           /* CPU time the sampling loop took */
	int procs_max;                  /* most processes in the tree at one sample */
	int exited, status, timed_out;  /* as in spawn_result: exit code, or the signal that ended it */
	int tty_sigint;                 /* it held the terminal and died of SIGINT: Ctrl-C (an interrupt) */
	double interval_s;
};

/* Runs argv (its stdout its own with o->keep_stdout, else on our stderr) and samples it every
 * o->interval_s until it ends. 0 when the program ran (whatever its exit status: see s),
 * -ENOENT, -EACCES, -ENOEXEC when it cannot be started (the message says why: measure/exec.h),
 * another -errno on failure. s is released by series_release. */
int series_record(char *const argv[], const struct series_opts *o, struct series *s, struct as_error *err);
void series_release(struct series *s);

/* Appends one sample (rss and nev counts); -ENOMEM. For the recorder and for tests. */
int series_append(struct series *s, double t_s, double rss_bytes, const double *ev);

/* Starting a program whose counters must be open before its first instruction: series_fork
 * forks argv held at a gate (its stdout goes to our stderr) and returns its pid (or -errno); the
 * caller opens its counters on the pid, then series_fork_release lets it exec and returns once it
 * has (0), or reaps it and returns -errno when it could not be started or exec failed. */
pid_t series_fork(char *const argv[], int *gate_w, int *execd, struct as_error *err);
int series_fork_release(char *const argv[], pid_t pid, int gate, int execd, struct as_error *err);

/* Event j at time t, linear between the samples, 0 at the exec, ev_end[j] at end_s. */
double series_event_at(const struct series *s, int j, double t_s);

/* The process tree of a root process: its members found by scanning /proc (new processes are
 * looked up once, by their parent), their resident sets read through statm descriptors kept open. */
struct series_tree;
struct series_tree *series_tree_new(pid_t root);
void series_tree_free(struct series_tree *t);
/* Watches the tree's forks through the kernel (a dummy event per CPU with task records, inherited
 * and enabled at the exec): series_tree_poll then adds each new process at once, reading the
 * record buffers only (no system call). Open it before the root's exec. -errno when perf events
 * are not allowed: the /proc scan is then the only way. */
int series_tree_watch(struct series_tree *t, struct as_error *err);
int series_tree_watching(const struct series_tree *t);
void series_tree_poll(struct series_tree *t);
/* Looks for processes started since the last scan. */
void series_tree_scan(struct series_tree *t);
/* The summed resident set in bytes; *procs gets how many processes were read. */
double series_tree_rss(struct series_tree *t, int *procs);

#endif
