/* CPU lists ("0-3,8"), the set of CPUs this process may run on (sched_getaffinity, so taskset
 * and cgroup cpusets are respected), and pinning the calling thread. */
#ifndef ARCHSCOPE_COMMON_CPUSET_H
#define ARCHSCOPE_COMMON_CPUSET_H

#include "common/error.h"

#define AS_MAX_CPUS 1024

struct as_cpulist {
	int n;
	int cpu[AS_MAX_CPUS];
};

/* Parses "0-3,8,10-11" into an ordered list. Rejects a CPU listed twice ("0,0", "0-2,1"), empty items, reversed
 * ranges, non-numbers and CPUs >= AS_MAX_CPUS, naming the offending item. */
int cpulist_parse(const char *text, struct as_cpulist *out, struct as_error *err);

/* The CPUs this process may run on, in increasing order. */
int cpulist_allowed(struct as_cpulist *out, struct as_error *err);

/* Checks every CPU in list against allowed; the error names the first CPU outside it. */
int cpulist_check_allowed(const struct as_cpulist *list, const struct as_cpulist *allowed,
			  struct as_error *err);

/* Formats a list compactly ("0-3,8") into buf. */
char *cpulist_format(const struct as_cpulist *list, char *buf, size_t len);

/* Lets the calling thread (and threads it creates, which inherit its mask) run on every CPU of
 * list: for probes whose threads the OS must place. */
int cpu_allow_self(const struct as_cpulist *list, struct as_error *err);

/* Pins the calling thread to one CPU. */
int cpu_pin_self(int cpu, struct as_error *err);

#endif
