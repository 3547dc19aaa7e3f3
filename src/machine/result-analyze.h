/* The results of `archscope analyze` (cli/cmd-analyze.c writes them from this list): the curve read,
 * then what its method found. Every method writes "answer" (null for monotone, which has none);
 * the other keys belong to one method each. */
#ifndef ARCHSCOPE_MACHINE_RESULT_ANALYZE_H
#define ARCHSCOPE_MACHINE_RESULT_ANALYZE_H

#include "machine/schema.h"

#define ANALYZE_RESULT(X)                                                                                      \
	X(AR_FILE, AR_ROOT, TEXT, "file", "", 0, "the CSV file analysed")                                       \
	X(AR_METHOD, AR_ROOT, TEXT, "method", "", 0, "the method (--method)")                                   \
	X(AR_POINTS, AR_ROOT, INT, "points", "", 0, "points of the curve")                                      \
	X(AR_CURVE, AR_ROOT, MATRIX, "curve", "", SCHEMA_OPT, "monotone: [x, y made monotone] per point")       \
	X(AR_ANSWER, AR_ROOT, ANSWER, "answer", "", SCHEMA_NULL,                                               \
	  "the answer in the unit of x (--unit) for a step method; the levels or clusters found; null for monotone") \
	X(AR_STEP_INDEX, AR_ROOT, INT, "step_index", "", SCHEMA_OPT, "a step method: the point before the step (-1: none)") \
	X(AR_STEP_SIZE, AR_ROOT, NUMBER, "step_size", "", SCHEMA_OPT, "a step method: the step")               \
	X(AR_THRESHOLD, AR_ROOT, NUMBER, "threshold", "", SCHEMA_OPT, "a step method: what a step must exceed") \
	X(AR_X_AFTER, AR_ROOT, NUMBER, "x_after_step", "", SCHEMA_OPT, "a step method: x of the point after the step") \
	X(AR_LEVELS, AR_ROOT, ROWS, "levels", "", SCHEMA_OPT, "levels: one row per level found")               \
	X(AR_LEVEL, AR_LEVELS, INT, "level", "", 0, "its number, from 1")                                       \
	X(AR_LEVEL_SIZE, AR_LEVELS, ANSWER, "size", "", 0, "its edge, halfway to the next level")               \
	X(AR_LEVEL_QT_MAX_X, AR_LEVELS, NUMBER, "qt_max_x", "", 0, "the largest x of its cluster")              \
	X(AR_LEVEL_LATENCY, AR_LEVELS, NUMBER, "latency", "", 0, "its smallest y")                              \
	X(AR_LEVEL_POINTS, AR_LEVELS, INT, "points", "", 0, "its points")                                       \
	X(AR_FINAL_PLATEAU, AR_ROOT, NUMBER, "final_plateau", "", SCHEMA_OPT,                                   \
	  "levels: y of the final plateau's last point (memory)")                                              \
	X(AR_CLUSTERS, AR_ROOT, ROWS, "clusters", "", SCHEMA_OPT, "qt: one row per cluster")                    \
	X(AR_CL_MIN_X, AR_CLUSTERS, NUMBER, "min_x", "", 0, "its smallest x")                                   \
	X(AR_CL_MAX_X, AR_CLUSTERS, NUMBER, "max_x", "", 0, "its largest x")                                    \
	X(AR_CL_MIN_Y, AR_CLUSTERS, NUMBER, "min_y", "", 0, "its smallest y")                                   \
	X(AR_CL_MAX_Y, AR_CLUSTERS, NUMBER, "max_y", "", 0, "its largest y")                                    \
	X(AR_CL_POINTS, AR_CLUSTERS, INT, "points", "", 0, "its points")                                        \
	X(AR_MONOTONE, AR_ROOT, BOOL, "monotone", "", SCHEMA_OPT, "qt: the curve was made monotone first")

SCHEMA_ENUM(AR, ANALYZE_RESULT);
extern const struct schema analyze_result;
#define AR_KEY(id) SCHEMA_KEY(analyze_result, AR_##id)

#endif
