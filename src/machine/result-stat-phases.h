/* phases' results (`archscope phases --json`): the footprint of a program's process tree and its
 * counters sampled at the same instants, cut into phases by a continuous piecewise-linear fit. */
#ifndef ARCHSCOPE_MACHINE_RESULT_STAT_PHASES_H
#define ARCHSCOPE_MACHINE_RESULT_STAT_PHASES_H

#include "machine/schema.h"

#define PHASES_RESULT(X)                                                                                      \
	X(PH_COMMAND, PH_ROOT, TEXT, "command", "", 0, "the program as typed")                                    \
	X(PH_EXIT_STATUS, PH_ROOT, INT, "exit_status", "", SCHEMA_NULL, "its exit status (null: a signal)")       \
	X(PH_SIGNAL, PH_ROOT, INT, "signal", "", SCHEMA_OPT, "the signal that ended it")                          \
	X(PH_DURATION, PH_ROOT, NUMBER, "duration_s", "s", 0, "how long it ran")                                  \
	X(PH_INTERVAL, PH_ROOT, NUMBER, "interval_ms", "ms", 0, "the sample interval")                            \
	X(PH_SAMPLES, PH_ROOT, INT, "samples", "", 0, "samples taken")                                            \
	X(PH_SAMPLER_CPU, PH_ROOT, NUMBER, "sampler_cpu_percent", "%", 0, "the sampler's cost, % of a CPU")       \
	X(PH_PROCESSES, PH_ROOT, INT, "processes_max", "", 0, "the most processes of its tree at once")           \
	X(PH_FOOTPRINT, PH_ROOT, TEXT, "footprint", "", 0, "what the footprint is")                               \
	X(PH_SEGMENTS, PH_ROOT, INT, "segments", "", 0, "phases found (or asked)")                                \
	X(PH_SEGMENTS_METHOD, PH_ROOT, TEXT, "segments_method", "", 0, "how their number was chosen")             \
	X(PH_RESIDUAL, PH_ROOT, NUMBER, "residual_bytes", "B", 0, "the fit's residual")                           \
	X(PH_OUTLIERS, PH_ROOT, INT, "outliers", "", 0, "samples left out of the fit")                            \
	X(PH_BREAKPOINTS, PH_ROOT, NUMBERS, "breakpoints_s", "s", 0, "where one phase ends and the next begins")   \
	X(PH_BREAKPOINTS_CI, PH_ROOT, MATRIX, "breakpoints_ci_s", "s", 0, "their 95 % intervals: [from, to]")     \
	X(PH_BIC, PH_ROOT, NUMBERS, "bic_by_segments", "", SCHEMA_OPT, "auto: the BIC of 1, 2, ... segments")     \
	X(PH_PHASES, PH_ROOT, ROWS, "phases", "", 0, "one row per phase")                                        \
	X(PH_PH_START, PH_PHASES, NUMBER, "start_s", "s", 0, "its start")                                         \
	X(PH_PH_END, PH_PHASES, NUMBER, "end_s", "s", 0, "its end")                                               \
	X(PH_PH_SLOPE, PH_PHASES, NUMBER, "slope_bytes_per_s", "B/s", 0, "the footprint's slope")                \
	X(PH_PH_FOOT_START, PH_PHASES, NUMBER, "footprint_start_bytes", "B", 0, "the footprint at its start")     \
	X(PH_PH_FOOT_END, PH_PHASES, NUMBER, "footprint_end_bytes", "B", 0, "at its end")                         \
	X(PH_PH_EVENTS, PH_PHASES, MAP, "events", "", 0, "each event in it, by name")                            \
	X(PH_EV_TOTAL, PH_PH_EVENTS, NUMBER, "total", "", 0, "its count in the phase")                           \
	X(PH_EV_RATE, PH_PH_EVENTS, NUMBER, "rate", "/s", 0, "its count a second")                               \
	X(PH_MISSING, PH_ROOT, ROWS, "events_missing", "", 0, "events not counted")                               \
	X(PH_MS_EVENT, PH_MISSING, TEXT, "event", "", 0, "the event")                                             \
	X(PH_MS_REASON, PH_MISSING, TEXT, "reason", "", 0, "why")                                                 \
	X(PH_REGIONS, PH_ROOT, REFS, "regions", "region", SCHEMA_OPT, "--regions: the marked regions, in order of first use") \
	X(PH_REGION_MARKS, PH_ROOT, REF, "region_marks", "region marks", SCHEMA_OPT, "--regions: how the marks were kept") \
	X(PH_INTERRUPTED, PH_ROOT, BOOL, "interrupted", "", 0, "a signal cut it short")

SCHEMA_ENUM(PH, PHASES_RESULT);
extern const struct schema phases_result;
#define PH_KEY(id) SCHEMA_KEY(phases_result, PH_##id)

#endif
