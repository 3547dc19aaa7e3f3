/* The conditions a measured step ran in (common/conditions.h), as every measuring command writes
 * them beside its answers: results.runs[].conditions of bench, stat's runs_detail[].conditions and
 * the others hold this object (a REF row named "conditions"). The probe groups keep theirs in the
 * probe table (machine/probes.h, MP_COND_ROWS). */
#ifndef ARCHSCOPE_MACHINE_RESULT_CONDITIONS_H
#define ARCHSCOPE_MACHINE_RESULT_CONDITIONS_H

#include "machine/schema.h"

#define CONDITIONS_RESULT(X)                                                                              \
	X(RC_WALL, RC_ROOT, NUMBER, "wall_s", "s", 0, "wall time of the step (its last attempt)")                \
	X(RC_CPUS, RC_ROOT, INT, "cpus", "CPUs", 0, "CPUs the step used")                                        \
	X(RC_OTHER_CPUS, RC_ROOT, INT, "other_cpus", "CPUs", 0,                                                  \
	  "the other CPUs judged: those it may use, or every other online one where they share caches and memory") \
	X(RC_FOREIGN, RC_ROOT, NUMBER, "foreign_cpus", "CPUs", 0,                                                \
	  "other processes' CPU time on the CPUs it used, per second")                                          \
	X(RC_FOREIGN_OTHER, RC_ROOT, NUMBER, "foreign_other_cpus", "CPUs", 0,                                    \
	  "other processes' CPU time on the other CPUs, per second")                                            \
	X(RC_STEAL, RC_ROOT, NUMBER, "steal_pct", "%", 0, "the VM's steal time on the CPUs it used")             \
	X(RC_SWITCHES_S, RC_ROOT, NUMBER, "switches_per_s", "/s", 0,                                             \
	  "other processes' context switches a second (a wakeup or interrupt storm)")                           \
	X(RC_CLOCK, RC_ROOT, NUMBER, "clock_ghz", "GHz", 0, "the clock measured at its end")                     \
	X(RC_CLOCK_EXPECTED, RC_ROOT, NUMBER, "clock_expected_ghz", "GHz", 0, "the clock its cycles assume")     \
	X(RC_INVOLUNTARY, RC_ROOT, INT, "involuntary_switches", "", SCHEMA_NULL,                                \
	  "this process's involuntary context switches (null: unknown)")                                        \
	X(RC_MIGRATIONS, RC_ROOT, INT, "migrations", "", SCHEMA_NULL, "migrations of its threads (null: unknown)") \
	X(RC_ATTEMPTS, RC_ROOT, INT, "attempts", "", 0, "measurements of the step (1: the first was quiet)")     \
	X(RC_NOISY, RC_ROOT, BOOL, "noisy", "", 0, "still disturbed after its attempts")                        \
	X(RC_WHY, RC_ROOT, TEXT, "why", "", 0, "what disturbed it (\"\": nothing)")

SCHEMA_ENUM(RC, CONDITIONS_RESULT);
extern const struct schema conditions_result;
#define RC_KEY(id) SCHEMA_KEY(conditions_result, RC_##id)

#endif
