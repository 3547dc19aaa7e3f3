/* compare's results (`archscope compare --json`): two stat results, or two commands run in turn
 * (-r), event by event: Welch's t, Benjamini-Hochberg q, Hedges' g and the ratio B/A with its
 * interval (measure/stat-compare.h). */
#ifndef ARCHSCOPE_MACHINE_RESULT_STAT_COMPARE_H
#define ARCHSCOPE_MACHINE_RESULT_STAT_COMPARE_H

#include "machine/schema.h"

#define COMPARE_RESULT(X)                                                                                     \
	X(CR_A, CR_ROOT, TEXT, "a", "", 0, "A: its file, or its command (-r)")                                     \
	X(CR_B, CR_ROOT, TEXT, "b", "", 0, "B: its file, or its command (-r)")                                     \
	X(CR_MODE, CR_ROOT, TEXT, "mode", "", 0, "files, or interleaved (-r: A B A B ...)")                       \
	X(CR_RUNS_A, CR_ROOT, INT, "runs_a", "", SCHEMA_OPT, "-r: runs of A")                                     \
	X(CR_RUNS_B, CR_ROOT, INT, "runs_b", "", SCHEMA_OPT, "-r: runs of B")                                     \
	X(CR_COND_DIFFER, CR_ROOT, INT, "conditions_differ", "", 0, "conditions of the files that differ")         \
	X(CR_ALPHA, CR_ROOT, NUMBER, "alpha", "", 0, "the false discovery rate: q below it is flagged")           \
	X(CR_MIN_CHANGE, CR_ROOT, NUMBER, "min_change_pct", "%", 0, "and a change of at least this")              \
	X(CR_TESTS, CR_ROOT, INT, "tests", "", 0, "events tested")                                                \
	X(CR_SIGNIFICANT, CR_ROOT, INT, "significant", "", 0, "events flagged")                                   \
	X(CR_EVENTS, CR_ROOT, ROWS, "events", "", 0, "one row per event in both, sorted by q, then by change")   \
	X(CR_EV_NAME, CR_EVENTS, TEXT, "name", "", 0, "the event")                                                \
	X(CR_EV_MEAN_A, CR_EVENTS, NUMBER, "mean_a", "", 0, "its mean in A (null: not counted)")                  \
	X(CR_EV_MEAN_B, CR_EVENTS, NUMBER, "mean_b", "", 0, "its mean in B")                                      \
	X(CR_EV_RATIO, CR_EVENTS, NUMBER, "ratio", "", 0, "B/A")                                                  \
	X(CR_EV_RATIO_LOW, CR_EVENTS, NUMBER, "ratio_low", "", 0, "the low end of its 95 % interval")            \
	X(CR_EV_RATIO_HIGH, CR_EVENTS, NUMBER, "ratio_high", "", 0, "the high end")                               \
	X(CR_EV_P, CR_EVENTS, NUMBER, "p", "", 0, "Welch's p (null: not tested)")                                 \
	X(CR_EV_Q, CR_EVENTS, NUMBER, "q", "", 0, "its Benjamini-Hochberg q")                                     \
	X(CR_EV_G, CR_EVENTS, NUMBER, "hedges_g", "", 0, "Hedges' g")                                            \
	X(CR_EV_SIGNIFICANT, CR_EVENTS, BOOL, "significant", "", 0, "flagged: q below alpha, change above min")   \
	X(CR_EV_T, CR_EVENTS, NUMBER, "t", "", 0, "Welch's t")                                                    \
	X(CR_EV_DF, CR_EVENTS, NUMBER, "df", "", 0, "its degrees of freedom (Welch-Satterthwaite)")              \
	X(CR_EV_N_A, CR_EVENTS, INT, "n_a", "", 0, "runs of A counted")                                           \
	X(CR_EV_N_B, CR_EVENTS, INT, "n_b", "", 0, "runs of B counted")                                           \
	X(CR_EV_STDDEV_A, CR_EVENTS, NUMBER, "stddev_a", "", 0, "the standard deviation in A")                    \
	X(CR_EV_STDDEV_B, CR_EVENTS, NUMBER, "stddev_b", "", 0, "in B")                                            \
	X(CR_EV_CONSTANTS, CR_EVENTS, BOOL, "constants", "", 0, "both sides constant: the test is exact")         \
	X(CR_EV_UNIT, CR_EVENTS, TEXT, "unit", "", SCHEMA_NULL, "the unit of its values")                          \
	X(CR_ONLY_A, CR_ROOT, TEXT, "only_in_a", "", 0, "events only A has, comma-separated")                    \
	X(CR_ONLY_B, CR_ROOT, TEXT, "only_in_b", "", 0, "events only B has")                                       \
	X(CR_FEW_RUNS, CR_ROOT, BOOL, "few_runs", "", 0, "fewer than 3 runs on a side for some event")            \
	X(CR_INTERRUPTED, CR_ROOT, BOOL, "interrupted", "", 0, "-r: a signal cut the runs short")

SCHEMA_ENUM(CR, COMPARE_RESULT);
extern const struct schema compare_result;
#define CR_KEY(id) SCHEMA_KEY(compare_result, CR_##id)

#endif
