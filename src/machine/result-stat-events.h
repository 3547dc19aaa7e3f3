/* events' results (`archscope events --json`): every event this machine's PMUs, the kernel and
 * tracefs offer (measure/events.h), with its unit masks and modifiers and whether it opens here. */
#ifndef ARCHSCOPE_MACHINE_RESULT_STAT_EVENTS_H
#define ARCHSCOPE_MACHINE_RESULT_STAT_EVENTS_H

#include "machine/schema.h"

#define EVENTS_RESULT(X)                                                                                      \
	X(EL_PMUS, EL_ROOT, TEXT, "pmus", "", 0, "the PMUs libpfm4 found, comma-separated")                       \
	X(EL_FORCED_PMU, EL_ROOT, TEXT, "forced_pmu", "", SCHEMA_NULL, "LIBPFM_FORCE_PMU (null: none)")          \
	X(EL_TRACEPOINTS, EL_ROOT, TEXT, "tracepoints", "", 0, "whether and where tracefs was read")              \
	X(EL_SYSFS_PMUS, EL_ROOT, TEXT, "sysfs_pmus", "", SCHEMA_OPT,                                             \
	  "the kernel's PMUs with events in sysfs (power, msr, uncore_*), comma-separated")                      \
	X(EL_NEVENTS, EL_ROOT, INT, "count", "", 0, "events listed")                                                \
	X(EL_EVENTS, EL_ROOT, ROWS, "events", "", 0, "one row per event")                                        \
	X(EL_EV_NAME, EL_EVENTS, TEXT, "name", "", 0, "the event")                                                \
	X(EL_EV_PMU, EL_EVENTS, TEXT, "pmu", "", SCHEMA_NULL, "its PMU")                                          \
	X(EL_EV_KIND, EL_EVENTS, TEXT, "kind", "", 0, "hardware, software, tracepoint, sysfs")                     \
	X(EL_EV_DESC, EL_EVENTS, TEXT, "description", "", SCHEMA_NULL, "what it counts")                          \
	X(EL_UMASKS, EL_EVENTS, ROWS, "umasks", "", 0, "its unit masks")                                         \
	X(EL_UM_NAME, EL_UMASKS, TEXT, "name", "", 0, "the unit mask")                                            \
	X(EL_UM_DESC, EL_UMASKS, TEXT, "description", "", SCHEMA_NULL, "what it selects")                         \
	X(EL_UM_DEFAULT, EL_UMASKS, BOOL, "default", "", 0, "used when none is given")                            \
	X(EL_MODS, EL_EVENTS, ROWS, "modifiers", "", 0, "its modifiers")                                         \
	X(EL_MOD_NAME, EL_MODS, TEXT, "name", "", 0, "the modifier")                                              \
	X(EL_MOD_DESC, EL_MODS, TEXT, "description", "", SCHEMA_NULL, "what it does")                             \
	X(EL_EV_OPENS, EL_EVENTS, BOOL, "opens", "", SCHEMA_NULL, "whether it opens here (null: not tried)")      \
	X(EL_EV_REASON, EL_EVENTS, TEXT, "reason", "", SCHEMA_NULL, "why it does not open (null: it does)")      \
	X(EL_EV_SCALE, EL_EVENTS, NUMBER, "scale", "", SCHEMA_OPT, "sysfs: a count times scale is in unit")     \
	X(EL_EV_UNIT, EL_EVENTS, TEXT, "unit", "", SCHEMA_OPT | SCHEMA_NULL, "sysfs: its unit (Joules; null: events)") \
	X(EL_EV_CPUMASK, EL_EVENTS, TEXT, "cpumask", "", SCHEMA_OPT | SCHEMA_NULL,                                \
	  "sysfs: the CPUs it counts on, system-wide (null: any, per task)")

SCHEMA_ENUM(EL, EVENTS_RESULT);
extern const struct schema events_result;
#define EL_KEY(id) SCHEMA_KEY(events_result, EL_##id)

#endif
