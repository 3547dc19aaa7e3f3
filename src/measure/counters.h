/* Hardware and software event counters through perf_event_open, with event names turned into
 * perf_event_attr by libpfm4 ("cycles", "instructions", "CPU_CLK_UNHALTED:THREAD_P", ...).
 * A set counts one thread (pid, any CPU) or one CPU; values are scaled by enabled/running time
 * when the kernel multiplexed them. On a machine without a PMU (most virtual machines) opening a
 * hardware event fails with a message that says so; software events still work. */
#ifndef ARCHSCOPE_MEASURE_COUNTERS_H
#define ARCHSCOPE_MEASURE_COUNTERS_H

#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"

#define COUNTERS_MAX 16

struct perf_event_attr;

struct counter_set {
	int n;
	int fd[COUNTERS_MAX];
	char *name[COUNTERS_MAX];       /* as asked for (owned; any length) */
	char *fq[COUNTERS_MAX];         /* as libpfm4 qualified it, e.g. "perf::CYCLES:u" (owned) */
	uint32_t type[COUNTERS_MAX];    /* perf_event_attr type and config, for the record */
	uint64_t config[COUNTERS_MAX];
	double value[COUNTERS_MAX];     /* last read, scaled */
	double running[COUNTERS_MAX];   /* share of the enabled time the counter ran (1: never multiplexed) */
	double unit_scale[COUNTERS_MAX]; /* a sysfs event's .scale (value = count x scale, in its .unit; 1 else) */
};

/* Turns an event name into a perf_event_attr type/config with libpfm4 (user-level counting), or
 * from sysfs for perf's "pmu/event/" names (measure/sysfs-pmu.h: power/energy-pkg/, msr/tsc/).
 * fq (may be NULL) receives the fully qualified name. -ENOENT for an unknown event. */
int counters_encode(const char *name, uint32_t *type, uint64_t *config, char *fq, size_t fqlen,
		    struct as_error *err);

/* counters_encode's fully qualified name, malloc'd whatever its length (*fq NULL on failure). */
int counters_encode_name(const char *name, char **fq, struct as_error *err);

/* Opens the events, disabled, on thread `pid` (0: the caller; any CPU). The first event leads the
 * group, so all count over the same interval. Fails (and closes what it opened) when any event
 * cannot be opened: -EOPNOTSUPP/-ENOENT for a PMU the machine does not have, -EACCES for
 * perf_event_paranoid. */
int counters_open(struct counter_set *s, const char *const names[], int n, pid_t pid, struct as_error *err);

int counters_reset_enable(struct counter_set *s);
int counters_disable(struct counter_set *s);
/* Reads every counter into value[] (scaled) and running[]. */
int counters_read(struct counter_set *s, struct as_error *err);
void counters_close(struct counter_set *s);

/* Scaling for multiplexed counters: raw * enabled / running (0 when it never ran). *share gets
 * running / enabled. Pure, for tests. */
double counters_scale(uint64_t raw, uint64_t enabled, uint64_t running, double *share);

/* How counters_add opens an event (NULL in open_one: the classic set of counters_open). */
struct counters_how {
	int inherit;        /* also count the threads and processes the target starts */
	int enable_on_exec; /* disabled until the target calls exec (a program measured from its start) */
	int grouped;        /* the set's first event leads a group: all count together or not at all */
	int kernel;         /* count kernel mode too (root, CAP_PERFMON or perf_event_paranoid <= 1) */
	int cpu_wide;       /* count every task on CPU `cpu` (pid ignored, no inheritance): system-wide */
	int cpu;
};

/* The id of tracepoint "sys:event" under tracefs/events (tracefs NULL: /sys/kernel/tracing, then
 * /sys/kernel/debug/tracing); -ENOENT when absent or unreadable. counters_encode and
 * counters_add take such names where libpfm4 does not know them. */
int counters_tracepoint_id(const char *tracefs, const char *name, uint64_t *id);

/* Starts libpfm4 (once per process; it reads LIBPFM_FORCE_PMU then). */
int counters_pfm_start(struct as_error *err);
/* LIBPFM_FORCE_PMU, where set, names a PMU libpfm4 knows (-ENOENT if not: empty, or unknown,
 * with the PMUs it knows); counters_pfm_start checks it too. */
int counters_forced_pmu_check(struct as_error *err);
/* Calls fn(ctx, pmu, first_event) for each PMU of this CPU libpfm4 knows (present, not perf's
 * generic table: the PMU's name and its first event for pfm_get_event_next), until fn returns
 * non-zero, which it returns; 0 after the last or when there is none. The caller started libpfm4
 * (counters_pfm_start). */
int counters_cpu_pmu_each(int (*fn)(void *ctx, const char *pmu, int first_event), void *ctx);
/* 1 when libpfm4 found a PMU of this CPU (or LIBPFM_FORCE_PMU names one), so that an event name
 * none of its PMUs, perf's software events or the tracepoints know is a typo rather than another
 * CPU's event; 0 on a machine libpfm4 does not recognise (a VM that hides its CPU's PMU). */
int counters_cpu_pmu_known(void);
/* Why an event does not open, from the negative errno counters_add returned, without the
 * event's name (one line for many events). */
const char *counters_why_not(int rc);

/* An empty set (n = 0, no descriptors), for counters_add; counters_close releases it. */
void counters_init(struct counter_set *s);
/* Opens one more event into s on `pid`. With how->grouped the first event leads and later ones
 * join its group; -ENOSPC when the group no longer fits the counters. -EOPNOTSUPP/-ENOENT for a
 * counter the machine does not have, -EACCES/-EPERM for perf_event_paranoid, -E2BIG when s is
 * full. On failure s is as it was. */
int counters_add(struct counter_set *s, const char *name, pid_t pid, const struct counters_how *how,
		 struct as_error *err);
/* Enables event i alone (counters_add leaves events disabled). */
int counters_enable_one(struct counter_set *s, int i);
/* Enables / disables event i alone (counters_add leaves events disabled). */
int counters_disable_one(struct counter_set *s, int i);
/* Reads event i into value[i] (scaled) and running[i]: NaN when it was enabled but never ran
 * (multiplexed out: not counted); 0 (share 1) when it was never enabled at all (a task that did
 * not run since: nothing happened). */
int counters_read_one(struct counter_set *s, int i, struct as_error *err);
/* attr zeroed, then a count of (type, config) in user mode only, disabled until enabled: what a
 * perf_event_open of one event starts from (the caller adds its own bits). */
void counters_attr_user(struct perf_event_attr *attr, uint32_t type, uint64_t config);
/* 0 when a hardware counter (retired instructions, user mode) opens for this process, else the
 * negative errno of perf_event_open (counters_why_not() says why): whether this machine has a PMU
 * archscope can use. */
int counters_hw_check(void);
/* 0 when this process may count every CPU (system-wide: root, CAP_PERFMON or
 * kernel.perf_event_paranoid <= 0), tried on CPU 0 with a software event; else -EACCES/-EPERM with
 * a message naming what it needs and the setting, or the error of perf_event_open. */
int counters_system_wide_check(struct as_error *err);
/* 1 when kernel-mode counts are allowed to this process (what perf stat counts by default). */
int counters_kernel_allowed(void);

/* Index of an event in the set by the name it was asked for, -1 when absent. */
int counters_find(const struct counter_set *s, const char *name);

#endif
