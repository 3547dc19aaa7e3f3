/* regress's results (`archscope regress --json`): each event measured as stat does at every value
 * of a parameter and fitted against it (analysis/fit.h): the fits by name, the best, the points. */
#ifndef ARCHSCOPE_MACHINE_RESULT_STAT_REGRESS_H
#define ARCHSCOPE_MACHINE_RESULT_STAT_REGRESS_H

#include "machine/schema.h"

#define REGRESS_RESULT(X)                                                                                     \
	X(RR_COMMAND, RR_ROOT, TEXT, "command", "", 0, "the program as typed, with {NAME}")                       \
	X(RR_PARAM, RR_ROOT, TEXT, "param", "", 0, "the parameter's name")                                        \
	X(RR_VALUES, RR_ROOT, NUMBERS, "values", "", 0, "its values")                                             \
	X(RR_RUNS, RR_ROOT, INT, "runs", "", 0, "runs per value")                                                  \
	X(RR_EVENTS, RR_ROOT, ROWS, "events", "", 0, "one row per event")                                         \
	X(RR_EV_NAME, RR_EVENTS, TEXT, "name", "", 0, "the event")                                                \
	X(RR_EV_UNIT, RR_EVENTS, TEXT, "unit", "", 0, "the unit of its values")                                   \
	X(RR_EV_BEST, RR_EVENTS, TEXT, "best", "", SCHEMA_NULL, "the best fit (null: none)")                      \
	X(RR_EV_R2, RR_EVENTS, NUMBER, "r2", "", 0, "R² of the best fit")                                         \
	X(RR_EV_FITS, RR_EVENTS, MAP, "fits", "", 0, "every fit, by its name (constant, linear, ...)")           \
	X(RR_FIT_R2, RR_EV_FITS, NUMBER, "r2", "", 0, "its R² (null: it does not apply)")                         \
	X(RR_FIT_AICC, RR_EV_FITS, NUMBER, "aicc", "", 0, "its AICc")                                             \
	X(RR_FIT_COEF, RR_EV_FITS, NUMBERS, "coef", "", 0, "its coefficients")                                   \
	X(RR_EV_MEANS, RR_EVENTS, NUMBERS, "means", "", 0, "the mean at each value")                              \
	X(RR_EV_POINTS, RR_EVENTS, MATRIX, "points", "", 0, "every counted run: [value, count]")                  \
	X(RR_EV_REASON, RR_EVENTS, TEXT, "reason", "", SCHEMA_NULL, "why it was not fitted (null: it was)")       \
	X(RR_PLOTS, RR_ROOT, TEXT, "plots", "", SCHEMA_NULL, "--plot: the directory (null: none)")                \
	X(RR_INTERRUPTED, RR_ROOT, BOOL, "interrupted", "", 0, "a signal cut the runs short")

SCHEMA_ENUM(RR, REGRESS_RESULT);
extern const struct schema regress_result;
#define RR_KEY(id) SCHEMA_KEY(regress_result, RR_##id)

#endif
