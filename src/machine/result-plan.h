/* The results of `archscope probe --plan`: what a full probe would measure and how long it would
 * take, from the topology alone (nothing measured); cli/cmd-probe-plan.c writes them from this
 * list. The probe's answers are machine/probes.h's. */
#ifndef ARCHSCOPE_MACHINE_RESULT_PLAN_H
#define ARCHSCOPE_MACHINE_RESULT_PLAN_H

#include "machine/schema.h"

#define PLAN_RESULT(X)                                                                                       \
	X(PL_PLAN, PL_ROOT, OBJECT, "plan", "", 0, "the plan of a full probe")                                     \
	X(PL_TOPOLOGY, PL_PLAN, TEXT, "topology", "", 0, "where the topology came from (hwloc, an XML file)")      \
	X(PL_CPUS, PL_PLAN, INT, "cpus", "CPUs", 0, "the CPUs the probes would use")                               \
	X(PL_PUS, PL_PLAN, INT, "pus", "", 0, "the processing units of the topology")                              \
	X(PL_QUICK, PL_PLAN, BOOL, "quick", "", 0, "the plan of probe --quick")                                     \
	X(PL_PREDICTED, PL_PLAN, NUMBER, "predicted_s", "s", 0, "the predicted time of the probe")                 \
	X(PL_PREDICTED_ALL, PL_PLAN, NUMBER, "predicted_all_s", "s", 0,                                          \
	  "the predicted time with --all-pairs and every team size")                                            \
	X(PL_PREDICTED_MAX, PL_PLAN, NUMBER, "predicted_max_s", "s", 0,                                          \
	  "at most: when c2c's classes disagree and finer ones take its budget")                                \
	X(PL_COSTS, PL_PLAN, TEXT, "costs", "", 0, "where the step costs come from")                              \
	X(PL_STEPS, PL_PLAN, ROWS, "steps", "", 0, "one row per probe group")                                      \
	X(PL_STEP_GROUP, PL_STEPS, TEXT, "group", "", 0, "the group")                                              \
	X(PL_STEP_STEPS, PL_STEPS, INT, "steps", "", 0, "its measurement steps")                                   \
	X(PL_STEP_PREDICTED, PL_STEPS, NUMBER, "predicted_s", "s", 0, "its predicted time")                       \
	X(PL_STEP_WHAT, PL_STEPS, TEXT, "what", "", 0, "what it measures")                                         \
	X(PL_CONTEXTS, PL_PLAN, OBJECT, "contexts", "", SCHEMA_OPT, "the contexts group's team sizes")             \
	X(PL_TEAMS, PL_CONTEXTS, INTS, "teams", "", 0, "the team sizes per kind")                                  \
	X(PL_ALL_TEAMS_STEPS, PL_CONTEXTS, INT, "all_teams_steps", "", 0, "steps with every team size")           \
	X(PL_ALL_TEAMS_S, PL_CONTEXTS, NUMBER, "all_teams_s", "s", 0, "their time")                               \
	X(PL_C2C, PL_PLAN, OBJECT, "c2c", "", SCHEMA_OPT, "the core-to-core pairs and rounds")                     \
	X(PL_C2C_MODE, PL_C2C, TEXT, "mode", "", SCHEMA_OPT, "classes or all_pairs")                              \
	X(PL_C2C_PAIRS, PL_C2C, INT, "pairs", "", SCHEMA_OPT, "pairs of CPUs")                                     \
	X(PL_C2C_MEASURED, PL_C2C, INT, "measured_pairs", "", SCHEMA_OPT, "pairs measured")                       \
	X(PL_C2C_ROUNDS, PL_C2C, INT, "rounds", "", SCHEMA_OPT, "rounds of disjoint pairs measured at once")      \
	X(PL_C2C_BLOCKS, PL_C2C, INT, "blocks", "", SCHEMA_OPT, "block sizes")                                     \
	X(PL_C2C_LLC, PL_C2C, INT, "llc_bytes", "B", SCHEMA_OPT, "the largest cache (the largest block)")         \
	X(PL_C2C_BUDGET, PL_C2C, NUMBER, "budget_s", "s", SCHEMA_OPT, "the budget for finer classes")             \
	X(PL_C2C_ALL_ROUNDS, PL_C2C, INT, "all_pairs_rounds", "", SCHEMA_OPT, "rounds with --all-pairs")          \
	X(PL_C2C_ALL_S, PL_C2C, NUMBER, "all_pairs_s", "s", SCHEMA_OPT, "their time")                              \
	X(PL_C2C_CLASSES, PL_C2C, ROWS, "classes", "", SCHEMA_NULL, "the classes of pairs (null: fewer than two CPUs)") \
	X(PL_CLASS_NAME, PL_C2C_CLASSES, TEXT, "name", "", 0, "the class")                                        \
	X(PL_CLASS_TOTAL, PL_C2C_CLASSES, INT, "total_pairs", "", 0, "its pairs")                                  \
	X(PL_CLASS_PAIRS, PL_C2C_CLASSES, ROWS, "pairs", "", 0, "the pairs measured")                              \
	X(PL_PAIR_CPUS, PL_CLASS_PAIRS, INTS, "cpus", "", 0, "the two CPUs")                                        \
	X(PL_PAIR_ROLE, PL_CLASS_PAIRS, TEXT, "role", "", 0, "why it is measured")                                  \
	X(PL_PAIR_ROUND, PL_CLASS_PAIRS, INT, "round", "", 0, "the round it is measured in")

SCHEMA_ENUM(PL, PLAN_RESULT);
extern const struct schema plan_result;
#define PL_KEY(id) SCHEMA_KEY(plan_result, PL_##id)

#endif
