/* Tier 1 (root): each thread's run, run-queue and blocked time from the scheduler's own
 * tracepoints (sched:sched_switch, sched:sched_wakeup) through perf_event_open, for programs the
 * preload library cannot see (static binaries, threads made without pthread_create, raw futex
 * waits). The accounts feed the same stack arithmetic (stack.h): blocked time is yielding
 * (blocked_other), waiting on the run queue is scheduling. */
#ifndef ARCHSCOPE_SCALE_SCHED_H
#define ARCHSCOPE_SCALE_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "scale/record.h"

/* One scheduler event of a thread (pure data, for the unit tests too). */
enum sched_ev_type {
	SCHED_EV_IN,      /* the thread got a CPU */
	SCHED_EV_OUT_RUN, /* it left the CPU still runnable (preempted, yielded) */
	SCHED_EV_OUT_BLK, /* it left the CPU blocked (sleep, lock, I/O) */
	SCHED_EV_WAKE,    /* it was woken */
	SCHED_EV_START,   /* it was created */
	SCHED_EV_EXIT,    /* it exited */
};

struct sched_ev {
	uint64_t time_ns;
	int tid;
	int type; /* enum sched_ev_type */
};

/* Turns one thread's events (sorted by time) into its account: alive from its first to its last
 * event, run, run-queue and blocked time. Pure; unit-tested. */
void scale_sched_account(const struct sched_ev *ev, size_t n, struct scale_thread *t);

struct scale_sched;
/* Starts tracing every CPU (needs root or CAP_PERFMON, and tracefs mounted). -errno with err. */
int scale_sched_start(struct scale_sched **out, struct as_error *err);
void scale_sched_stop(struct scale_sched *s);
/* Fills rec with the threads of the process this one started during the trace (the child, found
 * by its fork record), with pid and span; -ENOENT when there was none. */
int scale_sched_record(struct scale_sched *s, struct scale_record *rec, struct as_error *err);
void scale_sched_free(struct scale_sched *s);

#endif
