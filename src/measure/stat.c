/* Which events a stat run counts and how they are scheduled; the summary of each event's values.
 * The runs themselves are in stat-run.c. */
#include "measure/stat.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/sysfs-pmu.h"

/* perf's names for the generic events, as perf stat -e takes them. */
static const struct {
	const char *perf, *pfm;
} aliases[] = {
	{ "task-clock", "perf::PERF_COUNT_SW_TASK_CLOCK" },
	{ "cpu-clock", "perf::PERF_COUNT_SW_CPU_CLOCK" },
	{ "page-faults", "perf::PERF_COUNT_SW_PAGE_FAULTS" },
	{ "faults", "perf::PERF_COUNT_SW_PAGE_FAULTS" },
	{ "minor-faults", "perf::PERF_COUNT_SW_PAGE_FAULTS_MIN" },
	{ "major-faults", "perf::PERF_COUNT_SW_PAGE_FAULTS_MAJ" },
	{ "context-switches", "perf::PERF_COUNT_SW_CONTEXT_SWITCHES" },
	{ "cs", "perf::PERF_COUNT_SW_CONTEXT_SWITCHES" },
	{ "cpu-migrations", "perf::PERF_COUNT_SW_CPU_MIGRATIONS" },
	{ "migrations", "perf::PERF_COUNT_SW_CPU_MIGRATIONS" },
	{ "alignment-faults", "perf::PERF_COUNT_SW_ALIGNMENT_FAULTS" },
	{ "emulation-faults", "perf::PERF_COUNT_SW_EMULATION_FAULTS" },
	{ "cycles", "perf::PERF_COUNT_HW_CPU_CYCLES" },
	{ "cpu-cycles", "perf::PERF_COUNT_HW_CPU_CYCLES" },
	{ "instructions", "perf::PERF_COUNT_HW_INSTRUCTIONS" },
	{ "branches", "perf::PERF_COUNT_HW_BRANCH_INSTRUCTIONS" },
	{ "branch-instructions", "perf::PERF_COUNT_HW_BRANCH_INSTRUCTIONS" },
	{ "branch-misses", "perf::PERF_COUNT_HW_BRANCH_MISSES" },
	{ "cache-references", "perf::PERF_COUNT_HW_CACHE_REFERENCES" },
	{ "cache-misses", "perf::PERF_COUNT_HW_CACHE_MISSES" },
	{ "stalled-cycles-frontend", "perf::PERF_COUNT_HW_STALLED_CYCLES_FRONTEND" },
	{ "stalled-cycles-backend", "perf::PERF_COUNT_HW_STALLED_CYCLES_BACKEND" },
	{ "ref-cycles", "perf::PERF_COUNT_HW_REF_CPU_CYCLES" },
	{ "L1-dcache-loads", "perf::PERF_COUNT_HW_CACHE_L1D:READ:ACCESS" },
	{ "L1-dcache-load-misses", "perf::PERF_COUNT_HW_CACHE_L1D:READ:MISS" },
	{ "LLC-loads", "perf::PERF_COUNT_HW_CACHE_LL:READ:ACCESS" },
	{ "LLC-load-misses", "perf::PERF_COUNT_HW_CACHE_LL:READ:MISS" },
	{ "dTLB-load-misses", "perf::PERF_COUNT_HW_CACHE_DTLB:READ:MISS" },
};

const char *measure_stat_alias(const char *name)
{
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(aliases[i].perf, name))
			return aliases[i].pfm;
	return name;
}

int measure_stat_is_software(const char *fq)
{
	return strstr(fq, "PERF_COUNT_SW_") != NULL;
}

/* The pseudo events every run has; values come from wait4, /proc and the clock. */
static const struct {
	const char *name, *unit;
	enum stat_source source;
} extras[] = {
	{ "wall-time", "ns", STAT_WALL },
	{ "rusage:user-time", "us", STAT_RUSAGE },
	{ "rusage:system-time", "us", STAT_RUSAGE },
	{ "rusage:max-rss", "KiB", STAT_RUSAGE },
	{ "rusage:minor-faults", "events", STAT_RUSAGE },
	{ "rusage:major-faults", "events", STAT_RUSAGE },
	{ "rusage:voluntary-switches", "events", STAT_RUSAGE },
	{ "rusage:involuntary-switches", "events", STAT_RUSAGE },
	{ "schedstat:run-time", "ns", STAT_SCHEDSTAT },
	{ "schedstat:wait-time", "ns", STAT_SCHEDSTAT },
	{ "schedstat:timeslices", "events", STAT_SCHEDSTAT },
};
#define NEXTRAS ((int)(sizeof(extras) / sizeof(extras[0])))

int measure_stat_init(struct measure_stat *m, const char *const names[], int n, int runs, struct as_error *err)
{
	memset(m, 0, sizeof(*m));
	if (runs < 1)
		return as_error_set(err, -EINVAL, "stat: at least one run, not %d", runs);
	m->runs = runs;
	m->passes = 1;
	m->ev = calloc((size_t)(n + NEXTRAS), sizeof(*m->ev));
	if (!m->ev)
		return as_error_set(err, -ENOMEM, "stat: out of memory");
	for (int i = 0; i < n; i++) {
		struct stat_event *e = &m->ev[m->nevents];
		int dup = 0;
		for (int j = 0; j < m->nevents && !dup; j++)
			dup = !strcmp(m->ev[j].name, names[i]);
		if (dup)
			continue;
		e->name = strdup(names[i]);
		if (!e->name) {
			measure_stat_release(m);
			return as_error_set(err, -ENOMEM, "stat: out of memory");
		}
		e->source = STAT_PERF;
		e->unit = "events";
		m->nevents++;
	}
	for (int i = 0; i < NEXTRAS; i++) {
		struct stat_event *e = &m->ev[m->nevents++];
		e->name = strdup(extras[i].name);
		if (!e->name) {
			measure_stat_release(m);
			return as_error_set(err, -ENOMEM, "stat: out of memory");
		}
		e->unit = extras[i].unit;
		e->source = extras[i].source;
		e->available = 1;
		e->group = -1;
	}
	return 0;
}

/* A sysfs event ("power/energy-pkg/"): its unit from sysfs; one of a PMU other than the CPU's own
 * counts alone (not in the hardware group), and one with a cpumask only system-wide, where it is
 * tried on the mask's first CPU. */
static int stat_sysfs_event(struct measure_stat *m, struct stat_event *e, struct counters_how *how, struct as_error *err)
{
	struct sysfs_pmu_attr sa;
	if (!sysfs_pmu_is_name(e->fq))
		return 0;
	int rc = sysfs_pmu_encode(NULL, e->fq, &sa, err);
	if (rc)
		return rc;
	if (sa.unit[0]) {
		snprintf(e->unit_sysfs, sizeof(e->unit_sysfs), "%s", sa.unit);
		e->unit = e->unit_sysfs;
	}
	e->hardware = sa.core;
	if (sa.cpumask[0] && m->target != STAT_TARGET_SYSTEM)
		return as_error_set(err, -EINVAL, "'%s' counts whole CPUs (its PMU's cpumask is %s), not one program: "
						  "count it system-wide with -a", e->name, sa.cpumask);
	if (m->target == STAT_TARGET_SYSTEM) {
		how->cpu_wide = 1;
		how->cpu = sysfs_pmu_mask_first(sa.cpumask);
	}
	return 0;
}

int measure_stat_plan(struct measure_stat *m, struct as_error *err)
{
	(void)err;
	m->kernel = counters_kernel_allowed();
	struct counters_how how = { .inherit = 1, .enable_on_exec = 1, .grouped = 1, .kernel = m->kernel };
	struct counters_how sw = how;
	sw.grouped = 0;
	struct counter_set group;
	counters_init(&group);
	int pass = 0, hw_groups = 0;
	for (int i = 0; i < m->nevents; i++) {
		struct stat_event *e = &m->ev[i];
		if (e->source != STAT_PERF)
			continue;
		struct as_error oe = { 0 };
		e->pass = -1;
		free(e->fq);
		e->fq = NULL;
		if (counters_encode_name(measure_stat_alias(e->name), &e->fq, &oe) != 0) {
			as_error_copy(e->reason, sizeof(e->reason), oe.msg);
			continue;
		}
		e->hardware = !measure_stat_is_software(e->fq);
		e->unit = strstr(e->fq, "CLOCK") && !e->hardware ? "ns" : "events";
		struct counters_how one_how = sw;
		if (stat_sysfs_event(m, e, &one_how, &oe) != 0) {
			as_error_copy(e->reason, sizeof(e->reason), oe.msg);
			continue;
		}
		if (!e->hardware) {
			struct counter_set one;
			counters_init(&one);
			if (counters_add(&one, measure_stat_alias(e->name), 0, &one_how, &oe) != 0) {
				as_error_copy(e->reason, sizeof(e->reason), oe.msg);
				continue;
			}
			free(e->fq);
			e->fq = one.fq[0];
			one.fq[0] = NULL;
			counters_close(&one);
			e->available = 1;
			e->pass = 0;
			e->group = -1;
			continue;
		}
		int rc = counters_add(&group, measure_stat_alias(e->name), 0, &how, &oe);
		if (rc == -ENOSPC || rc == -E2BIG) {
			/* the group is full: the next one counts in the next batch of runs */
			counters_close(&group);
			counters_init(&group);
			pass++;
			rc = counters_add(&group, measure_stat_alias(e->name), 0, &how, &oe);
		}
		if (rc != 0) {
			as_error_copy(e->reason, sizeof(e->reason), oe.msg);
			if (!m->hw_reason[0] && (rc == -EOPNOTSUPP || rc == -ENOENT || rc == -EACCES || rc == -EPERM)) {
				as_error_copy(m->hw_reason, sizeof(m->hw_reason), oe.msg);
			}
			continue;
		}
		if (group.n == 1)
			hw_groups++;
		char *fq = strdup(group.fq[group.n - 1]);
		if (fq) {
			free(e->fq);
			e->fq = fq;
		}
		e->available = 1;
		e->pass = pass;
		e->group = pass;
	}
	counters_close(&group);
	(void)hw_groups;
	m->passes = 1;
	for (int i = 0; i < m->nevents; i++)
		if (m->ev[i].pass + 1 > m->passes)
			m->passes = m->ev[i].pass + 1;
	return 0;
}

void measure_stat_record(struct stat_event *e, int k, double value, double share)
{
	e->values[k] = value;
	e->share[k] = isnan(value) ? 0 : share;
	/* counted for only part of the time it was enabled: the kernel multiplexed it and the value
	 * is scaled (counters_scale); say so */
	if (!isnan(value) && share < 1)
		e->multiplexed = 1;
}

void measure_stat_summarise(struct stat_event *e, int nvalues)
{
	double sum = 0, lo = INFINITY, hi = -INFINITY;
	int n = 0;
	for (int i = 0; i < nvalues; i++) {
		double v = e->values[i];
		if (isnan(v))
			continue;
		sum += v;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		n++;
	}
	e->n = n;
	e->mean = n ? sum / n : NAN;
	e->min = n ? lo : NAN;
	e->max = n ? hi : NAN;
	double ss = 0;
	for (int i = 0; i < nvalues; i++)
		if (!isnan(e->values[i]))
			ss += (e->values[i] - e->mean) * (e->values[i] - e->mean);
	e->stddev = n >= 2 ? sqrt(ss / (n - 1)) : NAN;
	e->zero = n > 0 && lo == 0 && hi == 0;
	e->constant = n >= 2 && lo == hi;
}

void measure_stat_release(struct measure_stat *m)
{
	for (int i = 0; m->ev && i < m->nevents; i++) {
		free(m->ev[i].name);
		free(m->ev[i].fq);
		free(m->ev[i].values);
		free(m->ev[i].share);
	}
	free(m->ev);
	free(m->run);
	for (int i = 0; i < m->nint; i++)
		free(m->intervals[i].delta);
	free(m->intervals);
	for (int i = 0; i < m->nthreads; i++)
		free(m->threads[i].values);
	free(m->threads);
	memset(m, 0, sizeof(*m));
}
