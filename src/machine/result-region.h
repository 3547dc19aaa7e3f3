/* The regions a program marked (LIKWID's marker API or archscope-marker.h), as `stat --regions` and
 * `phases --regions` report them: one row per region ("region", held by a REFS row of theirs) and
 * how the marks were kept ("region marks", a REF). cli/util-regions.c writes these keys. */
#ifndef ARCHSCOPE_MACHINE_RESULT_REGION_H
#define ARCHSCOPE_MACHINE_RESULT_REGION_H

#include "machine/schema.h"

#define REGION_RESULT(X)                                                                                      \
	X(RG_NAME, RG_ROOT, TEXT, "name", "", 0, "the region as the program named it")                            \
	X(RG_CALLS, RG_ROOT, NUMBER, "calls", "", 0, "start/stop pairs per run, all its threads (mean over runs)") \
	X(RG_TIME, RG_ROOT, NUMBER, "time_s", "s", 0, "time inside it per run, summed over its threads (mean)")   \
	X(RG_TIME_MIN, RG_ROOT, NUMBER, "time_s_min", "s", 0, "the least of those per-run times")                \
	X(RG_TIME_MAX, RG_ROOT, NUMBER, "time_s_max", "s", 0, "the most")                                        \
	X(RG_EVENTS, RG_ROOT, NUMBER_MAP, "events", "", 0,                                                         \
	  "counts inside it per run, all its threads (mean; null: not counted; units in region_marks.counters)")  \
	X(RG_THREADS, RG_ROOT, INT, "threads", "", 0, "threads that entered it (the most in one run)")            \
	X(RG_RUNS, RG_ROOT, INT, "runs", "", 0, "runs in which it was entered")                                   \
	X(RG_UNFINISHED, RG_ROOT, INT, "unfinished", "", 0, "starts never stopped (their time is left out)")

SCHEMA_ENUM(RG, REGION_RESULT);
extern const struct schema region_result;
#define RG_KEY(id) SCHEMA_KEY(region_result, RG_##id)

#define REGION_MARKS_RESULT(X)                                                                                   \
	X(RM_RECORDS, RM_ROOT, INT, "records", "", 0, "records read (one per process and run)")                     \
	X(RM_PARTIAL, RM_ROOT, INT, "partial", "", 0, "records written at a signal")                                \
	X(RM_UNMATCHED, RM_ROOT, INT, "unmatched", "", 0, "stops without a start, starts of a running region")     \
	X(RM_REFUSED, RM_ROOT, INT, "refused", "", 0, "names too long (127 bytes) or past 128 regions a thread")   \
	X(RM_COUNTERS, RM_ROOT, ROWS, "counters", "", 0, "the counters each thread opened, in events' order")      \
	X(RM_CT_NAME, RM_COUNTERS, TEXT, "name", "", 0, "the event (perf's name)")                                  \
	X(RM_CT_UNIT, RM_COUNTERS, TEXT, "unit", "", 0, "its unit")

SCHEMA_ENUM(RM, REGION_MARKS_RESULT);
extern const struct schema region_marks_result;
#define RM_KEY(id) SCHEMA_KEY(region_marks_result, RM_##id)

/* `stack --regions`: the speedup stack of each region at each thread count ("region stack", held
 * by a REFS row of stack's result); cli/cmd-stack-regions.c writes these keys. */
#define REGION_STACK_RESULT(X)                                                                                   \
	X(RS_NAME, RS_ROOT, TEXT, "name", "", 0, "the region as the program named it")                              \
	X(RS_THREADS, RS_ROOT, INT, "threads", "threads", 0, "the runs' thread count N")                            \
	X(RS_RUNS, RS_ROOT, INT, "runs", "", 0, "runs at N that entered it (every run at N, rejected ones too)")     \
	X(RS_REGION_THREADS, RS_ROOT, INT, "region_threads", "threads", 0, "threads that entered it (most in a run)") \
	X(RS_THREAD_S, RS_ROOT, NUMBER, "thread_s", "s", 0, "time inside it per run, summed over its threads (mean)") \
	X(RS_SHARES, RS_ROOT, NUMBER_MAP, "shares", "", 0,                                                         \
	  "base, spinning, yielding, scheduling, blocked_other, imbalance: shares of thread_s, summing to 1")      \
	X(RS_TIMES, RS_ROOT, NUMBER_MAP, "times_s", "s", 0,                                                        \
	  "inside it per run (mean, thread-seconds): cpu, runq and the waits per primitive")                     \
	X(RS_DOMINANT, RS_ROOT, TEXT, "dominant", "", 0, "the largest part but base (\"none\": none reaches 5 %)")

SCHEMA_ENUM(RS, REGION_STACK_RESULT);
extern const struct schema region_stack_result;
#define RS_KEY(id) SCHEMA_KEY(region_stack_result, RS_##id)

#endif
