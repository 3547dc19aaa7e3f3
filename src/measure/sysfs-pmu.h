/* The PMUs the kernel offers in sysfs (/sys/bus/event_source/devices/NAME: type, cpumask, events/
 * with their .scale and .unit, format/), read as perf reads them, and event names of perf's form
 * "pmu/event/" or "pmu/term=value,.../" turned into perf_event_attr fields from them: energy
 * (power/energy-pkg/), uncore, msr and every other PMU that libpfm4 does not know. It never prints. */
#ifndef ARCHSCOPE_MEASURE_SYSFS_PMU_H
#define ARCHSCOPE_MEASURE_SYSFS_PMU_H

#include <stdint.h>

#include "common/error.h"

#define SYSFS_PMU_UNIT_MAX 32
#define SYSFS_PMU_MASK_MAX 256

struct sysfs_pmu_event {
	char *name;           /* "energy-pkg" */
	char *terms;          /* its definition, "event=0x02" */
	double scale;         /* events/NAME.scale (1 without one): a count times scale is in unit */
	char unit[SYSFS_PMU_UNIT_MAX]; /* events/NAME.unit ("Joules"; "" without one: events) */
};

struct sysfs_pmu {
	char *name;           /* "power", "msr", "uncore_imc_0" */
	uint32_t type;        /* perf_event_attr.type */
	char cpumask[SYSFS_PMU_MASK_MAX]; /* the CPUs it counts on ("0", "0,64"); "": any, per task */
	int nevents;
	struct sysfs_pmu_event *ev; /* sorted by name */
};

struct sysfs_pmu_list {
	int n;
	struct sysfs_pmu *p;  /* sorted by name */
};

/* Reads every PMU under root (NULL: /sys/bus/event_source/devices) with its events. A PMU whose
 * type is unreadable is left out; -ENOENT when root cannot be read. */
int sysfs_pmu_list(const char *root, struct sysfs_pmu_list *l, struct as_error *err);
void sysfs_pmu_list_release(struct sysfs_pmu_list *l);

/* What "pmu/.../" asks perf_event_open for. */
struct sysfs_pmu_attr {
	uint32_t type;
	uint64_t config, config1, config2;
	double scale;         /* 1 unless the event is a named one with a .scale */
	char unit[SYSFS_PMU_UNIT_MAX]; /* "" : events */
	char cpumask[SYSFS_PMU_MASK_MAX]; /* "": any CPU, per task; else system-wide on these CPUs only */
	int core;             /* a CPU's own PMU (cpu, cpu_core, cpu_atom): counts tasks, takes u/k modes */
};

/* 1 when name has perf's sysfs form "pmu/.../" (a slash after a non-empty PMU name, one at the end). */
int sysfs_pmu_is_name(const char *name);
/* Encodes "pmu/event/", "pmu/event,term=v/" or "pmu/term=v,term/" (a term without a value is 1)
 * from root (NULL: /sys/bus/event_source/devices): -ENOENT for a PMU or event the kernel does not
 * offer, -EINVAL for a term its format does not have or a value that does not fit. */
int sysfs_pmu_encode(const char *root, const char *name, struct sysfs_pmu_attr *a, struct as_error *err);
/* 1 when cpu is in a cpumask list ("0-3,8"); every CPU is in "". */
int sysfs_pmu_cpu_in_mask(const char *mask, int cpu);
/* The first CPU of a cpumask list (0 for ""). */
int sysfs_pmu_mask_first(const char *mask);
/* Deposits value into the bits a format names ("config:0-7,32-35": the low 8 bits of value into
 * bits 0-7, the next 4 into 32-35) of config[0..2] (config, config1, config2). -EINVAL for a format
 * it cannot read or a value wider than its bits. Pure, for tests. */
int sysfs_pmu_format_apply(const char *format, uint64_t value, uint64_t config[3]);

#endif
