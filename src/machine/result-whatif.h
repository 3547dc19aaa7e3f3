/* The results of `archscope whatif` (cli/cmd-whatif.c writes them from this list): the causal profile
 * of a program, one row per code site with its curve of program speedup against line speedup
 * (fractions: 0.2 is 20 %; program_speedup is the time per unit of progress saved over the
 * baseline's, as Coz defines it), each point with its 95 % confidence interval. */
#ifndef ARCHSCOPE_MACHINE_RESULT_WHATIF_H
#define ARCHSCOPE_MACHINE_RESULT_WHATIF_H

#include "machine/schema.h"

#define WHATIF_RESULT(X)                                                                                        \
	X(WR_PROGRAM, WR_ROOT, TEXT, "program", "", 0, "the program run (its first argument)")                  \
	X(WR_BY, WR_ROOT, TEXT, "by", "", 0, "what a site is: line or function (--by)")                         \
	X(WR_PROGRESS, WR_ROOT, TEXT, "progress", "", 0,                                                        \
	  "what progress is: \"wall time\" (the whole run) or the name of the Coz progress point measured")    \
	X(WR_PROGRESS_KIND, WR_ROOT, TEXT, "progress_kind", "", 0,                                              \
	  "end_to_end (wall time less the inserted delays), throughput (COZ_PROGRESS visits per effective second) or " \
	  "latency (COZ_BEGIN/COZ_END, Little's law)")                                                          \
	X(WR_VISITS, WR_ROOT, NUMBER, "progress_visits", "", SCHEMA_OPT,                                        \
	  "a progress point: its visits (COZ_END's for latency), mean per baseline run, every process of the tree") \
	X(WR_ROUNDS, WR_ROOT, INT, "rounds", "", 0, "rounds asked (--rounds): runs of each site and line speedup") \
	X(WR_PERIOD, WR_ROOT, NUMBER, "sample_period", "ms", 0, "one sample per this much of a thread's CPU time") \
	X(WR_PROFILE_SAMPLES, WR_ROOT, INT, "profile_samples", "", 0, "samples of the profiling run, every thread") \
	X(WR_PROFILE_WALL, WR_ROOT, NUMBER, "profile_wall", "s", 0, "the profiling run's wall time")            \
	X(WR_PROFILE_COND, WR_ROOT, REF, "conditions", "conditions", 0, "what the profiling run ran in")           \
	X(WR_PROFILE_NOISY, WR_ROOT, BOOL, "profile_noisy", "", 0, "the profiling run was disturbed")            \
	X(WR_RUNS_NOISY, WR_ROOT, INT, "runs_noisy", "", 0,                                                      \
	  "runs whose conditions were disturbed (other processes' CPU time, steal: docs/conditions.md)")       \
	X(WR_BASE_MEAN, WR_ROOT, NUMBER, "baseline_period", "s", 0,                                             \
	  "the baseline runs' effective time per unit of progress, mean")                                      \
	X(WR_BASE_SPREAD, WR_ROOT, NUMBER, "baseline_spread", "", 0,                                            \
	  "their relative standard deviation (0.02: 2 %; null with fewer than 2 runs)")                         \
	X(WR_BASE_RUNS, WR_ROOT, INT, "baseline_runs", "", 0, "baseline runs (line speedup 0) measured")        \
	X(WR_RUNS, WR_ROOT, INT, "runs", "", 0, "runs made, the profiling run included")                        \
	X(WR_RUNS_FAILED, WR_ROOT, INT, "runs_failed", "", 0, "runs whose program failed (left out)")            \
	X(WR_PROCESSES, WR_ROOT, INT, "processes_max", "", 0,                                                   \
	  "most process images of one run that shared the delays (the program's tree)")                         \
	X(WR_DELAY_SHARE, WR_ROOT, NUMBER, "delay_share_max", "", 0, "largest inserted delay / wall time of a run") \
	X(WR_SITES, WR_ROOT, ROWS, "sites", "", 0, "one row per site tried, most sampled first")                \
	X(WR_SITE, WR_SITES, TEXT, "site", "", 0, "file:line (function), or function (binary) with --by function") \
	X(WR_SITE_BINARY, WR_SITES, TEXT, "binary", "", 0, "the binary its code is in")                        \
	X(WR_SITE_SAMPLES, WR_SITES, INT, "samples", "", 0, "profiling samples in it")                          \
	X(WR_SITE_SHARE, WR_SITES, NUMBER, "share", "", 0, "of all profiling samples (fraction)")               \
	X(WR_SITE_VERDICT, WR_SITES, TEXT, "verdict", "", 0,                                                    \
	  "rising, flat, negative, within noise or too few samples")                                            \
	X(WR_SITE_NOTE, WR_SITES, TEXT, "note", "", SCHEMA_OPT, "why it cannot be told, with the numbers and what to change") \
	X(WR_POINTS, WR_SITES, ROWS, "points", "", 0, "its curve, line speedup 0 (the baseline) first")         \
	X(WR_PT_LINE, WR_POINTS, NUMBER, "line_speedup", "", 0, "the site's virtual speedup (fraction)")        \
	X(WR_PT_PROGRAM, WR_POINTS, NUMBER, "program_speedup", "", SCHEMA_NULL,                                 \
	  "1 - period / baseline period (fraction; null: no run finished)")                                     \
	X(WR_PT_CI, WR_POINTS, NUMBER, "ci", "", SCHEMA_NULL, "half-width of its 95 % confidence interval (fraction)") \
	X(WR_PT_RUNS, WR_POINTS, INT, "runs", "", 0, "runs behind it")                                          \
	X(WR_PT_NOISY, WR_POINTS, INT, "noisy_runs", "", 0, "of its runs, those whose conditions were disturbed") \
	X(WR_PT_SITE_SAMPLES, WR_POINTS, NUMBER, "site_samples", "", SCHEMA_NULL,                               \
	  "samples that landed in the site, mean per run")                                                      \
	X(WR_WAITING, WR_ROOT, ROWS, "waiting", "", 0,                                                          \
	  "code where threads wait in an OpenMP runtime (barriers, waits, spin loops): sampled, never tried, never " \
	  "worth optimizing")                                                                                    \
	X(WR_WAIT_SITE, WR_WAITING, TEXT, "site", "", 0, "function (binary)")                                  \
	X(WR_WAIT_SAMPLES, WR_WAITING, INT, "samples", "", 0, "profiling samples in it")                       \
	X(WR_WAIT_SHARE, WR_WAITING, NUMBER, "share", "", 0, "of all profiling samples (fraction)")            \
	X(WR_NOTES, WR_ROOT, TEXTS, "notes", "", 0, "what limits the answer, with its numbers")                 \
	X(WR_INTERRUPTED, WR_ROOT, BOOL, "interrupted", "", SCHEMA_OPT, "a signal cut the rounds: the finished ones are kept")

SCHEMA_ENUM(WR, WHATIF_RESULT);
extern const struct schema whatif_result;
#define WR_KEY(id) SCHEMA_KEY(whatif_result, WR_##id)

#endif
