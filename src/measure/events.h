/* The events this machine could count: every event libpfm4 knows for the PMUs it finds (or one it
 * is told to pretend, LIBPFM_FORCE_PMU), with descriptions, unit masks and modifiers, the
 * kernel's software events, the readable tracepoints and the events of every PMU in sysfs
 * (power/, uncore, msr: measure/sysfs-pmu.h); per event whether it opens here and,
 * if not, why. It never prints. */
#ifndef ARCHSCOPE_MEASURE_EVENTS_H
#define ARCHSCOPE_MEASURE_EVENTS_H

#include "common/error.h"

enum events_kind { EVENTS_HARDWARE, EVENTS_SOFTWARE, EVENTS_TRACEPOINT, EVENTS_SYSFS };

struct events_attr {
	char *name, *desc;
	int is_default;      /* umask: used when none is given */
};

struct events_entry {
	char *pmu;           /* libpfm4's PMU name ("perf", "amd64_fam19h_zen4", "tracepoint") */
	char *name;          /* "pmu::EVENT" (libpfm4), "sys:event" (tracepoint) */
	char *desc;
	enum events_kind kind;
	int numasks, nmods;
	struct events_attr *umasks, *mods;
	int checked;         /* an open was tried */
	int opens;
	char *reason;        /* why it does not open ("" when it does or was not tried) */
	/* EVENTS_SYSFS ("power/energy-pkg/"): a count times scale is in unit ("": events); cpumask
	 * "": per task, else counted system-wide on those CPUs */
	double scale;
	char unit[32], cpumask[64];
};

struct events_list {
	int n;
	struct events_entry *e;
	char pmus[512];      /* the PMUs listed, "perf, amd64_fam19h_zen4" */
	char tracepoints[4200]; /* where tracepoints came from, or why there are none */
	char forced[64];     /* LIBPFM_FORCE_PMU as libpfm4 read it ("" when not forced) */
	char sysfs_pmus[1024]; /* the kernel's PMUs with events in sysfs, "msr, power" */
};

/* Lists the events whose name matches pattern (NULL: all; a glob with * or ?, else a substring,
 * case-insensitive). With check_open each event is opened once on this thread (user mode,
 * disabled) to see whether it counts here; events of a forced PMU are not tried. tracefs: the
 * tracing directory (NULL: /sys/kernel/tracing, then /sys/kernel/debug/tracing).
 * -ENOENT when LIBPFM_FORCE_PMU names a PMU libpfm4 does not know (err lists those it knows). */
int measure_events_list(struct events_list *l, const char *pattern, int check_open, const char *tracefs,
			struct as_error *err);
void measure_events_release(struct events_list *l);

#endif
