/* What a stat result says beyond its counts: the rate perf stat derives beside an event, the
 * standard error of a mean, each event's values scaled once for people (s/ms/us/ns, KiB/MiB/GiB,
 * grouped integers), the lines of perf stat -x and -I, the runs that failed, and the conditions the
 * machine was in around the runs. Formatting only into buffers or a FILE the caller gives. */
#ifndef ARCHSCOPE_MEASURE_STAT_SHOW_H
#define ARCHSCOPE_MEASURE_STAT_SHOW_H

#include <stddef.h>
#include <stdio.h>

#include "measure/stat-select.h"
#include "measure/stat.h"

/* The rate perf stat prints beside an event: CPUs utilized for task-clock, GHz for cycles (core
 * cycles over task-clock), IPC for instructions, a share of branches or cache references for their
 * misses, and per second of task-clock for other counts. Only from counted means; value NaN: none. */
struct stat_rate {
	double value;
	const char *unit;
	const char *formula;
};
struct stat_rate measure_stat_rate(const struct measure_stat *m, const struct stat_event *ev);
/* "1.234 GHz", "59.481 K/s"; "" without a rate. */
void measure_stat_rate_format(const struct stat_rate *r, char *buf, size_t len);
/* The standard error of the mean, the ± perf stat shows: stddev / sqrt(n); NaN for n < 2. */
double measure_stat_sem(const struct stat_event *ev);
/* A metric of sel over the means of m's counted events (NaN when one is missing). */
double measure_stat_metric(const struct stat_select *sel, const struct stat_metric *mt, const struct measure_stat *m);

/* How an event's values are shown: the scale and unit chosen once from its mean so min and max
 * read alike: times in s/ms/us/ns, sizes (KiB) in binary units, counts as integers with thousands
 * grouped ("1,234,567"; a mean of counts rounded, as perf stat shows it). */
struct stat_disp {
	double k;             /* multiply the value by k */
	const char *unit;
	const char *fmt;      /* NULL: a grouped integer */
};
struct stat_disp measure_stat_disp_of(const char *unit, double mean);
/* v as d shows it ("none" for NaN), with d's unit when with_unit. */
void measure_stat_disp_format(const struct stat_disp *d, double v, char *buf, size_t len, int with_unit);

/* perf stat -x SEP's lines of every event: value, unit, event, [± with repeated runs,] run time
 * (empty), % counted, rate, rate unit; with -I the intervals instead (the totals are the text's
 * and the JSON's). */
void measure_stat_csv_write(FILE *f, const struct measure_stat *m, const char *sep);
/* One -I interval: CSV lines after "TIME SEP" (sep), or aligned text lines (sep NULL). */
void measure_stat_interval_write(FILE *f, const struct measure_stat *m, const struct stat_interval *iv, const char *sep);

/* --per-thread: the highest creation index of a thread (-1: none); how many runs had a thread of
 * index idx, with its name in *comm ("" without); the mean over them of event i (NaN: not
 * counted). */
int measure_stat_thread_last(const struct measure_stat *m);
int measure_stat_thread_runs(const struct measure_stat *m, int idx, const char **comm);
double measure_stat_thread_mean(const struct measure_stat *m, int idx, int i);

/* The runs that exited non-zero and the runs that died of a signal. */
void measure_stat_failures(const struct measure_stat *m, int *failed, int *crashed);

/* What the machine was doing around a measurement, so that two results taken under different
 * conditions are not compared silently: load, clock, CPU, kernel, time, affinity. Numbers NaN and
 * strings "" when unknown. */
struct stat_conditions {
	char started[40], ended[40];  /* UTC, ISO 8601 */
	double load_before[3], load_after[3]; /* /proc/loadavg: 1, 5, 15 minutes */
	double clock_before_ghz, clock_after_ghz; /* measured by the caller (probe/clock.h's clock_window_ghz) */
	double cpu_mhz_os;            /* /proc/cpuinfo's "cpu MHz" of the first CPU (OS-reported) */
	char governor[32];            /* cpufreq governor of CPU 0 ("" without cpufreq) */
	char cpu_model[128], kernel[256], hostname[128];
	char cpus_allowed[256];       /* the affinity the program inherits */
	int cpus_online;
};
/* Reads them before the runs (clock_ghz: the core clock the caller measured now), and after. */
void measure_stat_conditions_before(struct stat_conditions *c, double clock_ghz);
void measure_stat_conditions_after(struct stat_conditions *c, double clock_ghz);

#endif
