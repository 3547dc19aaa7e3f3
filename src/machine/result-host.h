/* The machine block of every command's JSON document ({"archscope", "command", "machine",
 * "results"}: report/output.h writes and reads the envelope): the host, its kernel, CPUs and the
 * settings that change what measurements mean, as cli/util-envelope.c fills it. */
#ifndef ARCHSCOPE_MACHINE_RESULT_HOST_H
#define ARCHSCOPE_MACHINE_RESULT_HOST_H

#include "machine/schema.h"

#define HOST_RESULT(X)                                                                                   \
	X(HO_HOSTNAME, HO_ROOT, TEXT, "hostname", "", 0, "the host's name")                                    \
	X(HO_KERNEL, HO_ROOT, TEXT, "kernel", "", SCHEMA_OPT, "the kernel's release (uname -r)")                 \
	X(HO_ARCH, HO_ROOT, TEXT, "arch", "", SCHEMA_OPT, "the machine architecture (uname -m)")                 \
	X(HO_CPU_MODEL, HO_ROOT, TEXT, "cpu_model_os", "", SCHEMA_OPT, "the CPU model the OS reports")           \
	X(HO_CPUS_ONLINE, HO_ROOT, INT, "cpus_online", "CPUs", 0, "CPUs online")                                 \
	X(HO_CPUS_ALLOWED, HO_ROOT, TEXT, "cpus_allowed", "", SCHEMA_OPT, "the CPUs this process may use (a list)") \
	X(HO_DATE, HO_ROOT, TEXT, "date", "", SCHEMA_OPT, "when the document was written (UTC, ISO 8601)")        \
	X(HO_GOVERNOR, HO_ROOT, TEXT, "governor", "", SCHEMA_NULL, "the cpufreq governor (null: none)")          \
	X(HO_THP, HO_ROOT, TEXT, "thp", "", SCHEMA_NULL, "transparent huge pages' setting (null: unknown)")      \
	X(HO_SMT, HO_ROOT, TEXT, "smt", "", SCHEMA_NULL, "the SMT control (null: unknown)")                      \
	X(HO_SMT_ACTIVE, HO_ROOT, BOOL, "smt_active", "", SCHEMA_NULL, "SMT active (null: unknown)")             \
	X(HO_PMU, HO_ROOT, BOOL, "pmu", "", 0, "hardware counters open")                                         \
	X(HO_LOADAVG, HO_ROOT, NUMBER, "loadavg", "", 0, "the 1-minute load average when written")

SCHEMA_ENUM(HO, HOST_RESULT);
extern const struct schema host_result;

#endif
