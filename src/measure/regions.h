/* The regions a program marked (LIKWID's marker API or archscope-marker.h), as the marker library
 * (measure/marker/) recorded them: one record per process and run, read back and summed per region
 * name over the threads and processes of a run, then over the runs. It never prints. */
#ifndef ARCHSCOPE_MEASURE_REGIONS_H
#define ARCHSCOPE_MEASURE_REGIONS_H

#include <stddef.h>

#include "common/error.h"
#include "measure/marker/account.h"

/* One region of one thread of one process in one run, as recorded. */
struct region_sample {
	int run, pid, thread, tid;
	char *name;                   /* owned, unescaped (any bytes but NUL) */
	double calls, time_s;
	double count[MARKER_EVENTS_MAX]; /* NaN: not counted in this thread */
	int running;                  /* still started when the record was written */
	int nst;                      /* stack --regions: st's values (0: none recorded) */
	double st[MARKER_STACK_MAX];  /* ns by kind, named by measure_regions.stack_name */
};

/* One region over the runs: per run, the sum over its threads and processes, then the mean. */
struct region_summary {
	char *name;                   /* points into a sample */
	int runs;                     /* runs in which it occurred */
	double calls;                 /* calls per run (mean) */
	double time_s;                /* time in it per run, summed over its threads (mean) */
	double time_min_s, time_max_s;/* the least and most of those per-run times */
	double count[MARKER_EVENTS_MAX]; /* per run (mean); NaN where no thread counted it */
	int threads;                  /* threads that entered it (the most in one run) */
	int running;                  /* threads that left it unfinished (every run) */
};

struct measure_regions {
	int nevent;                   /* the counters of every record (the first one's; others must agree) */
	char event[MARKER_EVENTS_MAX][MARKER_EVENT_NAME_MAX + 1], unit[MARKER_EVENTS_MAX][16];
	int nstack;                   /* stack --regions: the kinds of time each region kept (0: none) */
	char stack_name[MARKER_STACK_MAX][24]; /* cpu, runq, then the preload library's primitives */
	int records;                  /* records read */
	int partial;                  /* records written at a signal (status "signal N") */
	int unmatched, refused;       /* summed over every thread (account.h) */
	int nsample;
	struct region_sample *s;
	int nreg;                     /* after measure_regions_summarise, in order of first appearance */
	struct region_summary *reg;
	size_t cap_s, cap_reg;        /* room in s and reg (common/array.h) */
};

/* Parses one record (text, len bytes) of run `run`, appending its samples. 0, or -EINVAL with err
 * naming the line and what is wrong (what = the file, for messages). */
int measure_regions_parse(struct measure_regions *r, const char *what, const char *text, size_t len, int run,
			  struct as_error *err);
/* Reads every record the marker library wrote into dir (regions.PID) for run `run`, removing them.
 * 0 (also when there are none), or -errno with err set. */
int measure_regions_read_dir(struct measure_regions *r, const char *dir, int run, struct as_error *err);
/* Sums the samples per name (r->reg). Pure. */
int measure_regions_summarise(struct measure_regions *r);
void measure_regions_release(struct measure_regions *r);

/* $ARCHSCOPE_MARKER_EVENTS for the marker library (account.h's format) from the events a user
 * named (perf's or libpfm4's names, as stat -e takes them), each encoded here: malloc'd text, or
 * NULL with err set: -ENOENT naming an event this machine does not know, -E2BIG beyond
 * MARKER_EVENTS_MAX, -EINVAL for a name with a space or longer than MARKER_EVENT_NAME_MAX. */
char *measure_regions_events_env(const char *const names[], int n, struct as_error *err);

#endif
