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
	double count[MARKER_NEVENTS]; /* NaN: not counted in this thread */
	int running;                  /* still started when the record was written */
};

/* One region over the runs: per run, the sum over its threads and processes, then the mean. */
struct region_summary {
	char *name;                   /* points into a sample */
	int runs;                     /* runs in which it occurred */
	double calls;                 /* calls per run (mean) */
	double time_s;                /* time in it per run, summed over its threads (mean) */
	double time_min_s, time_max_s;/* the least and most of those per-run times */
	double count[MARKER_NEVENTS]; /* per run (mean); NaN where no thread counted it */
	int threads;                  /* threads that entered it (the most in one run) */
	int running;                  /* threads that left it unfinished (every run) */
};

struct measure_regions {
	char event[MARKER_NEVENTS][32], unit[MARKER_NEVENTS][16]; /* from the first record */
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

#endif
