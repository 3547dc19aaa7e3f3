/* The results of `archscope stack` (cli/cmd-stack-render.c writes them, every reader finds them
 * here): the program and its 1-thread time, then one row per thread count with the stack of its
 * median run, the dominant delimiter, the wait sites and the notes. The components, parts and
 * waits for other tasks are NUMBER_MAPs keyed by the names scale/stack.h gives them. */
#ifndef ARCHSCOPE_MACHINE_RESULT_STACK_H
#define ARCHSCOPE_MACHINE_RESULT_STACK_H

#include "machine/schema.h"

#define STACK_RESULT_TOP(X)                                                                                      \
	X(SR_PROGRAM, SR_ROOT, TEXT, "program", "", 0, "the program and its arguments, as run")                         \
	X(SR_T1, SR_ROOT, NUMBER, "t1_s", "s", 0, "the 1-thread run's span (T1)")                                       \
	X(SR_T1_UNLOADED, SR_ROOT, NUMBER, "t1_unloaded_s", "s", SCHEMA_OPT,                                            \
	  "T1 less its wait for CPUs other processes held (where that is less)")                                        \
	X(SR_T1_BUSY, SR_ROOT, NUMBER, "t1_busy_cpus", "CPUs", SCHEMA_OPT,                                              \
	  "CPUs the 1-thread run kept busy with work (where it was not serial)")                                         \
	X(SR_T1_SERIAL, SR_ROOT, NUMBER, "t1_serial_s", "s", SCHEMA_OPT, "the 1-thread run's work on one CPU")          \
	X(SR_REPS, SR_ROOT, INT, "repetitions", "", 0, "runs of each thread count asked for")                           \
	X(SR_METHOD, SR_ROOT, TEXT, "method", "", 0, "the tiers used")                                                  \
	X(SR_SAMPLING, SR_ROOT, TEXT, "sampling", "", SCHEMA_OPT, "why spin sampling was not available")                \
	X(SR_SAMPLE_PERIOD, SR_ROOT, NUMBER, "sample_period_ms", "ms", SCHEMA_OPT,                                      \
	  "a thread's CPU time per spin sample")                                                                        \
	X(SR_SAMPLE_COST, SR_ROOT, NUMBER, "sample_cost_us", "us", SCHEMA_OPT, "a sample's cost, measured")             \
	X(SR_TRACEPOINTS, SR_ROOT, TEXT, "tracepoints", "", SCHEMA_OPT, "tier 1: whether and why (not) used")           \
	X(SR_COUNTERS, SR_ROOT, TEXT, "counters", "", SCHEMA_OPT, "tier 2: whether and why (not) used")                 \
	X(SR_INTERRUPTED, SR_ROOT, TEXT, "interrupted", "", SCHEMA_OPT, "the signal that ended the runs early")         \
	X(SR_RECORDS_BAD, SR_ROOT, INT, "records_unreadable", "", SCHEMA_OPT,                                           \
	  "process records that could not be read (skipped)")

#define STACK_RESULT_RUN(X)                                                                                      \
	X(SR_RUNS, SR_ROOT, ROWS, "runs", "", 0, "one row per thread count, the stack of its median run")               \
	X(SR_RUN_THREADS, SR_RUNS, INT, "threads", "threads", 0, "N")                                                   \
	X(SR_RUN_WALL, SR_RUNS, NUMBER, "wall_s", "s", 0, "the median run's wall time")                                 \
	X(SR_RUN_SPAN, SR_RUNS, NUMBER, "span_s", "s", 0, "the median run's program span (TN)")                         \
	X(SR_RUN_SPEEDUP, SR_RUNS, NUMBER, "speedup_actual", "x", 0, "T1/TN as timed")                                 \
	X(SR_RUN_SPEEDUP_UNLOADED, SR_RUNS, NUMBER, "speedup_unloaded", "x", SCHEMA_OPT,                                \
	  "the speedup against T1 less its wait for other processes")                                                   \
	X(SR_RUN_SPEEDUP_SERIAL, SR_RUNS, NUMBER, "speedup_serial", "x", SCHEMA_OPT,                                    \
	  "the speedup over the 1-thread run's work on one CPU")                                                        \
	X(SR_RUN_SPEEDUP_SCALED, SR_RUNS, NUMBER, "speedup_scaled", "x", SCHEMA_OPT,                                    \
	  "the scaled speedup (Gustafson: work ratio x T1/TN), where the work grows with N")                             \
	X(SR_RUN_WORK_RATIO, SR_RUNS, NUMBER, "work_ratio", "x", SCHEMA_OPT, "this run's work / the 1-thread run's")    \
	X(SR_RUN_ESTIMATED, SR_RUNS, NUMBER, "speedup_estimated", "x", 0, "S^ from this run alone")                     \
	X(SR_RUN_ERROR, SR_RUNS, NUMBER, "error", "", 0, "|S^ - S|/N against the speedup the stack is held to")         \
	X(SR_RUN_ERROR_RAW, SR_RUNS, NUMBER, "error_raw", "", SCHEMA_OPT, "|S^ - T1/TN|/N, where that is another")      \
	X(SR_RUN_ERROR_PER_RUN, SR_RUNS, NUMBERS, "error_per_run", "", 0, "|S^ - S|/N of each run")                     \
	X(SR_RUN_CONDS, SR_RUNS, ROWS, "conditions_per_run", "", 0, "the conditions of each run")                      \
	X(SR_RUN_COND, SR_RUN_CONDS, REF, "conditions", "conditions", 0, "what the run ran in")                        \
	X(SR_RUN_COND_NOISY, SR_RUN_CONDS, BOOL, "noisy", "", 0, "the run was disturbed")                              \
	X(SR_RUN_REPS, SR_RUNS, INT, "repetitions", "", 0, "runs of this thread count kept")                           \
	X(SR_RUN_REJECTED, SR_RUNS, OBJECT, "rejected", "", SCHEMA_OPT, "runs rejected and repeated")                  \
	X(SR_RUN_REJECTED_RUNS, SR_RUN_REJECTED, INT, "runs", "", 0, "how many")                                       \
	X(SR_RUN_REJECTED_WHY, SR_RUN_REJECTED, TEXT, "why", "", 0, "why, each reason once")                           \
	X(SR_RUN_THREADS_MAX, SR_RUNS, INT, "threads_max", "threads", 0, "threads at once (tier 1: threads seen)")      \
	X(SR_RUN_PROCESSES, SR_RUNS, INT, "processes", "", SCHEMA_OPT, "process images recorded")                      \
	X(SR_RUN_TIER, SR_RUNS, INT, "tier", "", 0, "the tier the stack comes from (0, 1)")

#define STACK_RESULT_STACK(X)                                                                                    \
	X(SR_RUN_COMPONENTS, SR_RUNS, NUMBER_MAP, "components", "x", 0,                                                 \
	  "base and one component per delimiter (tier 2: work_inflation's parts beside it), summing to N")              \
	X(SR_RUN_SPREAD, SR_RUNS, MAP, "spread", "", 0, "each component's range over the runs")                        \
	X(SR_RUN_SPREAD_MIN, SR_RUN_SPREAD, NUMBER, "min", "x", 0, "its least")                                        \
	X(SR_RUN_SPREAD_MAX, SR_RUN_SPREAD, NUMBER, "max", "x", 0, "its largest")                                      \
	X(SR_RUN_BY_PRIM, SR_RUNS, NUMBER_MAP, "by_primitive", "x", 0, "spinning and yielding by part")               \
	X(SR_RUN_YIELD_SPIN, SR_RUNS, NUMBER, "yield_spin_s", "s", SCHEMA_OPT,                                         \
	  "thread-seconds in sched_yield neither off the CPU nor in the run queue (by_primitive.yield_spin)")          \
	X(SR_RUN_YIELD_SPIN_WHY, SR_RUNS, TEXT, "yield_spin_why", "", SCHEMA_OPT,                                       \
	  "why sched_yield time is filed under spinning")                                                               \
	X(SR_RUN_JOIN, SR_RUNS, NUMBER, "join_s", "s", 0, "time in pthread_join, all threads")                         \
	X(SR_RUN_OTHERS, SR_RUNS, NUMBER_MAP, "waiting_for_others_s", "s", 0,                                           \
	  "thread-seconds waiting for other tasks (inside imbalance)")                                                  \
	X(SR_RUN_FOREIGN, SR_RUNS, NUMBER, "foreign_cpu_s", "s", 0, "other processes' CPU time on these CPUs")          \
	X(SR_RUN_DOMINANT, SR_RUNS, TEXT, "dominant", "", 0, "the dominant delimiter (\"none\": none stands out)")      \
	X(SR_RUN_UNCLEAR, SR_RUNS, BOOL, "dominant_unclear", "", 0, "the runs disagree on the largest")                \
	X(SR_RUN_CPU_RATIO, SR_RUNS, NUMBER, "cpu_ratio", "x", 0, "the program's CPU time / the 1-thread run's")       \
	X(SR_RUN_UNCONFIRMED, SR_RUNS, BOOL, "inflation_unconfirmed", "", 0,                                            \
	  "work_inflation is largest but the program's CPU time does not confirm it")                                   \
	X(SR_RUN_CLASS, SR_RUNS, TEXT, "class", "", 0, "good, moderate or poor (paper Fig. 6, scaled to N)")            \
	X(SR_RUN_CLASS_PROGRAM, SR_RUNS, TEXT, "class_program", "", SCHEMA_OPT, "the class without the other load")    \
	X(SR_RUN_ANSWER, SR_RUNS, TEXT, "answer", "", 0, "the one-sentence answer")                                    \
	X(SR_RUN_SITES, SR_RUNS, ROWS, "sites", "", 0, "the top wait sites of the dominant delimiter")                 \
	X(SR_SITE_WHERE, SR_RUN_SITES, TEXT, "where", "", 0, "file:line, or the address")                             \
	X(SR_SITE_PRIM, SR_RUN_SITES, TEXT, "primitive", "", 0, "the primitive waited in")                             \
	X(SR_SITE_WAIT, SR_RUN_SITES, NUMBER, "wait_s", "s", 0, "time waited there")                                   \
	X(SR_SITE_CALLS, SR_RUN_SITES, INT, "calls", "", 0, "slow calls")                                              \
	X(SR_RUN_SAMPLES, SR_RUNS, NUMBER, "samples", "", SCHEMA_OPT, "spin samples, all threads")                     \
	X(SR_RUN_SPIN_SAMPLES, SR_RUNS, NUMBER, "spin_samples", "", SCHEMA_OPT, "samples in spin loops")               \
	X(SR_RUN_SPIN_SE, SR_RUNS, NUMBER, "spinning_se", "x", SCHEMA_OPT, "spinning's sampling error (1 standard error)") \
	X(SR_RUN_NOTES, SR_RUNS, TEXTS, "notes", "", 0, "what makes the stack less certain")

/* --regions (cli/cmd-stack-regions.c): each marked region's stack, and the regions as stat gives them */
#define STACK_RESULT_REGIONS(X)                                                                                  \
	X(SR_REGION_STACKS, SR_ROOT, REFS, "region_stacks", "region stack", SCHEMA_OPT,                                 \
	  "--regions: the stack of each marked region, per thread count")                                             \
	X(SR_REGIONS, SR_ROOT, REFS, "regions", "region", SCHEMA_OPT, "--regions: the marked regions over every run")   \
	X(SR_REGION_MARKS, SR_ROOT, REF, "region_marks", "region marks", SCHEMA_OPT, "--regions: how the marks were kept")


/* stack --whatif: whatif's causal profile of the same program at the same thread count, each site
 * with its critical-path share (scale/whatif.h: the share of the profiling run's span in which the
 * site ran in the threads that bound the run). Fractions throughout: 0.2 is 20 %. */
#define STACK_RESULT_WHATIF(X)                                                                                  \
	X(SR_WI, SR_ROOT, OBJECT, "whatif", "", SCHEMA_OPT, "whatif beside the stack (--whatif)")                         \
	X(SR_WI_THREADS, SR_WI, INT, "threads", "threads", 0, "N: the largest thread count of the stack")                \
	X(SR_WI_ROUNDS, SR_WI, INT, "rounds", "", 0, "runs of each site and line speedup (--whatif-rounds)")            \
	X(SR_WI_PROFILE_WALL, SR_WI, NUMBER, "profile_wall_s", "s", 0, "the profiling run's wall time")                   \
	X(SR_WI_SPAN, SR_WI, NUMBER, "span_s", "s", SCHEMA_NULL, "the profiling run's span, the shares' denominator")      \
	X(SR_WI_COND, SR_WI, REF, "conditions", "conditions", 0, "what the profiling run ran in")                          \
	X(SR_WI_NOISY, SR_WI, BOOL, "noisy", "", 0, "the profiling run was disturbed")                                   \
	X(SR_WI_RUNS_NOISY, SR_WI, INT, "runs_noisy", "", 0, "whatif's runs whose conditions were disturbed")            \
	X(SR_WI_CRIT, SR_WI, INT, "critical_threads", "threads", 0,                                                      \
	  "threads that bound the profiling run: work (CPU time outside waits) at least 0.9 of the most")            \
	X(SR_WI_SEEN, SR_WI, INT, "threads_seen", "threads", 0, "threads of the profiling run with CPU time and samples")  \
	X(SR_WI_SITES, SR_WI, ROWS, "sites", "", 0, "the sites tried, most sampled first")                                \
	X(SR_WI_SITE, SR_WI_SITES, TEXT, "site", "", 0, "file:line (function), or function (binary)")                     \
	X(SR_WI_SITE_SAMPLES, SR_WI_SITES, INT, "samples", "", 0, "profiling samples in it")                            \
	X(SR_WI_SITE_SHARE, SR_WI_SITES, NUMBER, "share", "", 0, "of all profiling samples (fraction)")                 \
	X(SR_WI_SITE_VERDICT, SR_WI_SITES, TEXT, "verdict", "", 0, "rising, flat, negative, within noise or too few samples") \
	X(SR_WI_SITE_CRIT, SR_WI_SITES, NUMBER, "critical_path_share", "", SCHEMA_NULL,                                 \
	  "share of the run's span in which the site ran in the threads that bound it (0 to 1; null: not told)")       \
	X(SR_WI_SITE_LINE, SR_WI_SITES, NUMBER, "line_speedup", "", SCHEMA_NULL, "the largest line speedup measured")   \
	X(SR_WI_SITE_PROGRAM, SR_WI_SITES, NUMBER, "program_speedup", "", SCHEMA_NULL, "the program's speedup at it")    \
	X(SR_WI_SITE_CI, SR_WI_SITES, NUMBER, "ci", "", SCHEMA_NULL, "half-width of its 95 % confidence interval")       \
	X(SR_WI_POINTS, SR_WI_SITES, ROWS, "points", "", 0, "the site's curve, line speedup 0 first")                   \
	X(SR_WI_PT_LINE, SR_WI_POINTS, NUMBER, "line_speedup", "", 0, "the site's virtual speedup (fraction)")          \
	X(SR_WI_PT_PROGRAM, SR_WI_POINTS, NUMBER, "program_speedup", "", SCHEMA_NULL, "1 - period / baseline period")    \
	X(SR_WI_PT_CI, SR_WI_POINTS, NUMBER, "ci", "", SCHEMA_NULL, "half-width of its 95 % confidence interval")        \
	X(SR_WI_PT_RUNS, SR_WI_POINTS, INT, "runs", "", 0, "runs behind it")                                            \
	X(SR_WI_WAITING, SR_WI, ROWS, "waiting", "", 0, "an OpenMP runtime's waits: sampled, never tried")             \
	X(SR_WI_WAIT_SITE, SR_WI_WAITING, TEXT, "site", "", 0, "function (binary)")                                     \
	X(SR_WI_WAIT_SAMPLES, SR_WI_WAITING, INT, "samples", "", 0, "profiling samples in it")                          \
	X(SR_WI_WAIT_SHARE, SR_WI_WAITING, NUMBER, "share", "", 0, "of all profiling samples (fraction)")               \
	X(SR_WI_NOTES, SR_WI, TEXTS, "notes", "", 0, "what limits the answer, with its numbers")                       \
	X(SR_WI_INTERRUPTED, SR_WI, BOOL, "interrupted", "", SCHEMA_OPT, "a signal cut whatif's rounds")

#define STACK_RESULT(X) STACK_RESULT_TOP(X) STACK_RESULT_RUN(X) STACK_RESULT_STACK(X) STACK_RESULT_REGIONS(X) \
	STACK_RESULT_WHATIF(X)

SCHEMA_ENUM(SR, STACK_RESULT);
extern const struct schema stack_result;
#define SR_KEY(id) SCHEMA_KEY(stack_result, SR_##id)

#endif
