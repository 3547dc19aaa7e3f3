/* The conditions a measurement ran in, measured around each step: other processes' CPU time on the
 * CPUs it used and on the other CPUs it may use (/proc/stat less its own), the VM's steal time, its
 * own involuntary switches and migrations, and the clock against the one expected; judged against
 * the thresholds below (docs/conditions.md), so an answer is right or flagged. One module for every
 * measuring command: probe, bench, tune, numa, model's benchmark mode, cluster, stat and stack. */
#ifndef ARCHSCOPE_COMMON_CONDITIONS_H
#define ARCHSCOPE_COMMON_CONDITIONS_H

#include <stdint.h>

#include "common/cpuset.h"

/* Thresholds (documented in docs/conditions.md; the tests use these names). */
#define COND_FOREIGN_MAX 0.10       /* other processes' CPUs per CPU used, on the CPUs it used */
#define COND_FOREIGN_SHARED_MAX 0.25 /* the same on the other CPUs, for steps that share caches and memory */
#define COND_STEAL_MAX_PCT 5.0      /* steal time, % of the CPUs' time */
#define COND_CLOCK_LOW 0.90         /* measured / expected clock below this: throttled or preempted */
#define COND_CLOCK_HIGH 1.10        /* ... above this: the expected clock was measured slow */
#define COND_SWITCHES_MAX 1000.0    /* other processes' context switches per second and CPU this
				     * process may use: a wakeup or interrupt storm (a quiet guest: ~50) */

enum {
	COND_SHARED = 1 << 0, /* the step shares caches and memory with the other CPUs (caches, bandwidth,
			       * c2c, contexts): their load disturbs it too */
};

/* The conditions of one step (or the sum of several). NAN: not known. */
struct conditions {
	double wall_s;
	int cpus;                    /* CPUs the step used */
	int other_cpus;              /* other CPUs: those this process may use; for COND_SHARED steps every
				      * other online CPU (they share caches, memory and power) */
	double foreign_cpus;         /* other processes' CPU time on the CPUs used / wall: in CPUs */
	double foreign_other_cpus;   /* the same on the other CPUs */
	double steal_pct;            /* steal of the CPUs used, % of their time */
	double switches_per_s;       /* other processes' context switches a second, the whole machine
				      * (/proc/stat ctxt less twice this process's own: out and back in) */
	double clock_ghz;            /* measured at the step's end (NAN: not measured) */
	double clock_expected_ghz;   /* the one its cycles assume */
	long involuntary_switches;   /* this process's, during the step (-1: unknown) */
	long migrations;             /* this process's threads' (perf software event; -1: unknown) */
	unsigned flags;              /* COND_SHARED */
	int attempts;                /* measurements of the step (1: first time right) */
	int noisy;                   /* disturbed beyond a threshold */
	char why[240];               /* when noisy: "other processes used 1.4 of 2 CPUs, steal 12 %" */
};

/* A window around one step. */
struct cond_window {
	uint64_t t0_ns;
	unsigned char role[AS_MAX_CPUS]; /* 0 not judged, 1 used, 2 other (allowed, or online for COND_SHARED) */
	int cpus, other;
	double busy0[2], steal0[2], total0[2];
	double self0_s;
	long nivcsw0, nsw0;          /* involuntary; all switches of this process */
	double ctxt0;                /* /proc/stat ctxt */
	double own_extra_switches;   /* cond_window_own() */
	int mig_fd;
	unsigned flags;
	double clock_ghz, clock_expected_ghz;
	double own_extra_s;     /* cond_window_own() */
	int open;
};

/* Opens a window over the step's CPUs (used; NULL: every allowed CPU) among the allowed ones
 * (NULL: this process's, as they were when it started). flags: COND_SHARED. Cannot fail: what cannot be read is NAN at the end. */
void cond_window_begin(struct cond_window *w, const struct as_cpulist *used, const struct as_cpulist *allowed,
		       unsigned flags);
/* The clock the step's cycles assume and the one measured at its end (GHz; 0 or NAN: unknown). */
void cond_window_clock(struct cond_window *w, double expected_ghz, double measured_ghz);
/* The core clock right now (GHz) for every window whose caller measured none: cli registers the
 * probe's clock window (common measures no clock of its own). Such a window's clock is measured
 * at its end, against the one it was given or else the first one measured in this process. */
void cond_clock_source(double (*now_ghz)(void));
/* CPU time (s) and context switches (voluntary and involuntary) of a program the step ran and
 * waited for (its wait4 rusage): archscope's own, not other processes'. */
void cond_window_own(struct cond_window *w, double cpu_s, double switches);
/* Closes the window into c (judged: c->noisy and c->why) and adds it to the process's summary. */
void cond_window_end(struct cond_window *w, struct conditions *c);

/* Judges c against the thresholds: sets c->noisy and c->why ("" when quiet). */
void cond_judge(struct conditions *c);

/* Busy (user, nice, system, irq, softirq), steal and all ticks of the listed CPUs in a /proc/stat
 * text; -1 when a CPU's line is missing or short. */
int cond_stat_ticks(const char *text, const struct as_cpulist *cpus, double *busy, double *steal, double *total);

/* Waits until the CPUs are quiet (other processes' load below the thresholds over 200 ms windows),
 * at most max_s seconds; returns the seconds waited, negative when still busy at the end. */
double cond_wait_quiet(const struct as_cpulist *used, const struct as_cpulist *allowed, unsigned flags, double max_s);

/* The one-line summary of every window closed in this process, for the end of a command:
 * "conditions: 12 steps, other processes 0.02 of 2 CPUs on average (at most 0.05), steal 0.0 %,
 * clock 2.95-3.00 GHz (expected 3.00), 0 noisy". "" when no window closed. */
const char *cond_summary(char *buf, size_t len);
/* Steps closed so far, and of them noisy after their last attempt (cond_summary_flagged). */
int cond_summary_steps(void);
int cond_summary_flagged(void);
/* Counts a step's final result: noisy or not, after its re-measurements. */
void cond_summary_final(const struct conditions *c);
/* Final results in a row that stayed noisy after their re-measurements: a machine that stays
 * busy (COND_BUSY_STREAK of them) makes re-measuring a waste; callers then measure once and flag. */
int cond_noisy_streak(void);
#define COND_BUSY_STREAK 3

/* Runs one step in a window (used and flags as cond_window_begin) and, while it stays noisy, again
 * up to max_attempts in all, each after up to a second's wait for a burst of other work to pass; once
 * the machine has stayed busy (cond_noisy_streak) it is measured once. fn(arg, attempt) measures
 * (0 or -errno; an error ends it, and so does *stop); *out is the last attempt's conditions, counted
 * in the summary. Returns fn's last result. */
int cond_step(const struct as_cpulist *used, unsigned flags, int max_attempts, volatile int *stop,
	      int (*fn)(void *arg, int attempt), void *arg, struct conditions *out);
#define COND_STEP_ATTEMPTS 2 /* a step measured again once where nothing else limits it */

/* Test hook: ARCHSCOPE_TEST_CONDITIONS="foreign=1.4,other=1,steal=12,clock=0.8,windows=N" replaces
 * the figures measured (foreign and other in CPUs, steal in %, clock as a ratio to the expected
 * clock) in the first N windows (default: all), so the tests can make any step disturbed. */

#endif
