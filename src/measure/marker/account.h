/* The region accounts of the marker library (libarchscope-marker.so, marker.c): per thread, per
 * region name, the start/stop pairs, calls, accumulated time and counter deltas, with LIKWID's
 * marker semantics; and the record file they are written to, which measure/regions.c reads.
 * Pure: times and counts come in as arguments (the unit test feeds synthetic ones). libc only. */
#ifndef ARCHSCOPE_MEASURE_MARKER_ACCOUNT_H
#define ARCHSCOPE_MEASURE_MARKER_ACCOUNT_H

#include <stdint.h>

#define MARKER_NEVENTS 6           /* counters of the default set (marker.c's table) */
#define MARKER_EVENTS_MAX 16       /* counters each thread opens at most ($ARCHSCOPE_MARKER_EVENTS) */
#define MARKER_EVENT_NAME_MAX 127  /* bytes of an event's name */
/* The events each thread counts, set by archscope (stat --regions -e): one line per event,
 * "TYPE CONFIG UNIT NAME" (perf_event_attr's type and config in decimal, the unit and the name
 * without spaces); absent: the default set. */
#define MARKER_ENV_EVENTS "ARCHSCOPE_MARKER_EVENTS"
#define MARKER_NAME_MAX 127        /* bytes of a region name; a longer one is refused */
#define MARKER_REGIONS_MAX 128     /* regions per thread; more are refused */
#define MARKER_ENV_OUT "ARCHSCOPE_MARKER_OUT" /* the directory the records go to */
#define MARKER_FILE_PREFIX "regions."         /* each process writes regions.PID there */
#define MARKER_MAGIC "archscope-marker 1"
/* Under `stack --regions` each region also keeps its threads' time by kind: CPU time, run-queue
 * time, then the preload library's waits per primitive (MARKER_STACK_SYM, found by name), at most
 * MARKER_STACK_MAX in all; named in the record's "stack" line, one "rstack" line per region. */
#define MARKER_STACK_MAX 32
#define MARKER_STACK_SYM "archscope_stack_waits"

struct marker_region {
	char name[MARKER_NAME_MAX + 1];
	uint64_t calls;                /* stops that closed a start */
	uint64_t time_ns;              /* accumulated between starts and stops */
	uint64_t count[MARKER_EVENTS_MAX];
	uint64_t start_ns, start_count[MARKER_EVENTS_MAX];
	uint64_t st[MARKER_STACK_MAX], start_st[MARKER_STACK_MAX]; /* ns by kind (stack --regions) */
	int running;                   /* started, not yet stopped */
};

struct marker_thread {
	int index;                     /* order of its first use in its process (0 first) */
	int tid;
	int nev;                       /* the counters of its process (MARKER_EVENTS_MAX at most) */
	unsigned available;            /* bit i: counter i opened for this thread */
	unsigned unmatched;            /* a stop without its start, a start of a running region */
	unsigned refused;              /* a name too long or past MARKER_REGIONS_MAX */
	int nreg;                      /* regions filled (published after the slot is) */
	struct marker_region reg[MARKER_REGIONS_MAX];
	struct marker_thread *next;
};

/* The region NAME of thread t: its index, created when create is set; -ENOENT (not there),
 * -ENAMETOOLONG or -ENOSPC (counted in t->refused), -EINVAL for a NULL or empty name. */
int marker_region_find(struct marker_thread *t, const char *name, int create);
/* A start or stop at now_ns with the thread's counters' values (t->nev, those not in
 * t->available ignored). A region can be nested in another (each accounts its own interval) but
 * not in itself: a start of a running region or a stop of one not running is -EFAULT, counted
 * in t->unmatched, and changes nothing. 0 when done. */
int marker_region_start(struct marker_thread *t, const char *name, uint64_t now_ns, const uint64_t *count);
int marker_region_stop(struct marker_thread *t, const char *name, uint64_t now_ns, const uint64_t *count);
/* The stack accounts of a running region NAME (st: nst values, ns by kind): at its start
 * (stop = 0) kept, at its stop (stop = 1, before marker_region_stop) the differences added.
 * -EFAULT when NAME is not running (the start or stop was refused: nothing to account). */
int marker_region_stack(struct marker_thread *t, const char *name, const uint64_t *st, int nst, int stop);
/* Forgets the calls, time and counts of a region (LIKWID_MARKER_RESET); -ENOENT when none. */
int marker_region_reset(struct marker_thread *t, const char *name);
/* LIKWID_MARKER_GET: the thread's accumulated counts (at most *nev; *nev set to how many were
 * written, unavailable counters as 0), time in seconds and calls; all 0 for an unknown region. */
void marker_region_get(const struct marker_thread *t, const char *name, int *nev, double *events, double *time_s,
		       int *calls);

/* Writes the record of a process to fd: magic, pid, how it ended (status: "exit", "close" or
 * "signal N"), the counters' names and units, the stack accounts' names (nst of them, none when
 * 0), then per thread its regions. Only write(2) and no allocation: safe in a signal handler. 0,
 * or -1 when a write failed. */
int marker_record_write(int fd, int pid, const char *status, int nev, const char *const names[],
			const char *const units[], int nst, const char *const stnames[], const struct marker_thread *head);

/* One event of $ARCHSCOPE_MARKER_EVENTS. */
struct marker_event {
	char name[MARKER_EVENT_NAME_MAX + 1], unit[16];
	uint32_t type;
	uint64_t config;
};
/* Parses $ARCHSCOPE_MARKER_EVENTS's text into ev (max of them): how many (1 or more), or -EINVAL
 * for a malformed line (or none), -E2BIG for more than max. No allocation (libc only). */
int marker_events_parse(const char *text, struct marker_event *ev, int max);

/* A region name as one word of the record: bytes outside '!'..'~' and '%' as %XX. buf holds at
 * least 3 * MARKER_NAME_MAX + 1 bytes. */
void marker_name_escape(const char *name, char *buf);

#endif
