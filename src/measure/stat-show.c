/* A stat result for people and for perf's formats (stat-show.h): derived rates, display scales, the
 * lines of perf stat -x and -I, and the conditions around the runs. */
#include "measure/stat-show.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "common/cpuset.h"
#include "topo/cpuinfo.h"

/* --- derived rates (perf stat's comments) ---------------------------------------------------- */

static const struct stat_event *find_alias(const struct measure_stat *m, const char *pfm)
{
	for (int i = 0; i < m->nevents; i++)
		if (m->ev[i].source == STAT_PERF && m->ev[i].n && !strcmp(measure_stat_alias(m->ev[i].name), pfm))
			return &m->ev[i];
	return NULL;
}

static const struct stat_event *find_name(const struct measure_stat *m, const char *name)
{
	for (int i = 0; i < m->nevents; i++)
		if (!strcmp(m->ev[i].name, name) && m->ev[i].n)
			return &m->ev[i];
	return NULL;
}

struct stat_rate measure_stat_rate(const struct measure_stat *m, const struct stat_event *ev)
{
	struct stat_rate r = { NAN, NULL, NULL };
	if (!ev->n || ev->source != STAT_PERF)
		return r;
	const char *id = measure_stat_alias(ev->name);
	const struct stat_event *tc = find_alias(m, "perf::PERF_COUNT_SW_TASK_CLOCK");
	const struct stat_event *wall = find_name(m, "wall-time");
	if (!strcmp(id, "perf::PERF_COUNT_SW_TASK_CLOCK") || !strcmp(id, "perf::PERF_COUNT_SW_CPU_CLOCK")) {
		if (wall && wall->mean > 0)
			r = (struct stat_rate){ ev->mean / wall->mean, "CPUs utilized", "task-clock / wall-time" };
		return r;
	}
	if (!strcmp(id, "perf::PERF_COUNT_HW_CPU_CYCLES")) {
		if (tc && tc->mean > 0)
			r = (struct stat_rate){ ev->mean / tc->mean, "GHz", "cycles / task-clock (core cycles per ns on a CPU)" };
		return r;
	}
	if (!strcmp(id, "perf::PERF_COUNT_HW_INSTRUCTIONS")) {
		const struct stat_event *cy = find_alias(m, "perf::PERF_COUNT_HW_CPU_CYCLES");
		if (cy && cy->mean > 0)
			r = (struct stat_rate){ ev->mean / cy->mean, "IPC", "instructions / cycles" };
		return r;
	}
	if (!strcmp(id, "perf::PERF_COUNT_HW_BRANCH_MISSES")) {
		const struct stat_event *br = find_alias(m, "perf::PERF_COUNT_HW_BRANCH_INSTRUCTIONS");
		if (br && br->mean > 0)
			r = (struct stat_rate){ 100 * ev->mean / br->mean, "% of branches", "branch-misses / branches" };
		return r;
	}
	if (!strcmp(id, "perf::PERF_COUNT_HW_CACHE_MISSES")) {
		const struct stat_event *cr = find_alias(m, "perf::PERF_COUNT_HW_CACHE_REFERENCES");
		if (cr && cr->mean > 0)
			r = (struct stat_rate){ 100 * ev->mean / cr->mean, "% of cache refs", "cache-misses / cache-references" };
		return r;
	}
	if (!strcmp(ev->unit, "Joules")) { /* energy (power/energy-*) over the time it was counted */
		if (wall && wall->mean > 0)
			r = (struct stat_rate){ ev->mean / (wall->mean * 1e-9), "W", "Joules / wall-time" };
		return r;
	}
	if (!strcmp(ev->unit, "events") && tc && tc->mean > 0)
		r = (struct stat_rate){ ev->mean / (tc->mean * 1e-9), "/s", "per second of task-clock" };
	return r;
}

void measure_stat_rate_format(const struct stat_rate *r, char *buf, size_t len)
{
	if (isnan(r->value)) {
		buf[0] = 0;
		return;
	}
	if (!strcmp(r->unit, "/s")) {
		double v = r->value;
		const char *p = v >= 1e9 ? "G" : v >= 1e6 ? "M" : v >= 1e3 ? "K" : "";
		double k = v >= 1e9 ? 1e-9 : v >= 1e6 ? 1e-6 : v >= 1e3 ? 1e-3 : 1;
		snprintf(buf, len, "%.3f %s/s", v * k, p);
	} else {
		snprintf(buf, len, "%.3f %s", r->value, r->unit);
	}
}

double measure_stat_sem(const struct stat_event *ev)
{
	return ev->n >= 2 ? ev->stddev / sqrt((double)ev->n) : NAN;
}

static double mean_of(void *ctx, const char *name)
{
	const struct measure_stat *m = ctx;
	for (int i = 0; i < m->nevents; i++)
		if (!strcmp(m->ev[i].name, name))
			return m->ev[i].n ? m->ev[i].mean : NAN;
	return NAN;
}

double measure_stat_metric(const struct stat_select *sel, const struct stat_metric *mt, const struct measure_stat *m)
{
	return measure_stat_metric_eval(sel, mt, mean_of, (void *)m);
}

/* --- numbers for people ------------------------------------------------------------------ */

/* A count as an integer with thousands grouped: "1,234,567" (counts are whole; a mean of counts
 * is rounded, as perf stat shows it). */
static void count_format(double v, char *buf, size_t len)
{
	if (isnan(v)) {
		snprintf(buf, len, "none");
		return;
	}
	char digits[64];
	snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	size_t nd = strlen(digits), w = 0;
	if (v < 0 && llround(v) != 0 && w + 1 < len)
		buf[w++] = '-';
	for (size_t i = 0; i < nd && w + 2 < len; i++) {
		if (i && (nd - i) % 3 == 0)
			buf[w++] = ',';
		buf[w++] = digits[i];
	}
	buf[w] = 0;
}

struct stat_disp measure_stat_disp_of(const char *unit, double mean)
{
	double a = fabs(mean);
	if (!strcmp(unit, "ns") || !strcmp(unit, "us")) {
		double ns = !strcmp(unit, "us") ? 1e3 : 1;
		double v = a * ns;
		if (v >= 1e9 || isnan(v))
			return (struct stat_disp){ ns * 1e-9, "s", "%.3f" };
		if (v >= 1e6)
			return (struct stat_disp){ ns * 1e-6, "ms", "%.3f" };
		if (v >= 1e3)
			return (struct stat_disp){ ns * 1e-3, "us", "%.3f" };
		return (struct stat_disp){ ns, "ns", NULL };
	}
	if (!strcmp(unit, "KiB")) {
		double b = a * 1024;
		if (b >= 1073741824.0)
			return (struct stat_disp){ 1.0 / 1048576, "GiB", "%.2f" };
		if (b >= 1048576.0)
			return (struct stat_disp){ 1.0 / 1024, "MiB", "%.1f" };
		return (struct stat_disp){ 1, "KiB", NULL };
	}
	if (unit[0] && strcmp(unit, "events")) /* a sysfs event's unit (Joules, MiB): a scaled count, not an integer */
		return (struct stat_disp){ 1, unit, a >= 1e6 ? "%.0f" : "%.3f" };
	return (struct stat_disp){ 1, "", NULL };
}

void measure_stat_disp_format(const struct stat_disp *d, double v, char *buf, size_t len, int with_unit)
{
	char num[64];
	if (isnan(v))
		snprintf(num, sizeof(num), "none");
	else if (d->fmt)
		snprintf(num, sizeof(num), d->fmt, v * d->k);
	else
		count_format(v * d->k, num, sizeof(num));
	snprintf(buf, len, "%s%s%s", num, with_unit && d->unit[0] ? " " : "", with_unit ? d->unit : "");
}

/* --- perf stat -x and -I ------------------------------------------------------------------ */

/* A value as perf writes it: counts as integers, task-clock in msec, "<not counted>". */
static void csv_value(const struct stat_event *ev, double v, char *buf, size_t len, const char **unit)
{
	*unit = "";
	if (isnan(v)) {
		snprintf(buf, len, "<not counted>");
		return;
	}
	if (!strcmp(ev->unit, "ns")) {
		*unit = "msec";
		snprintf(buf, len, "%.2f", v / 1e6);
	} else if (!strcmp(ev->unit, "us")) {
		*unit = "msec";
		snprintf(buf, len, "%.2f", v / 1e3);
	} else {
		*unit = strcmp(ev->unit, "events") ? ev->unit : "";
		snprintf(buf, len, "%.0f", v);
	}
}

/* value SEP unit SEP event SEP [± SEP] run time SEP % counted SEP rate SEP rate unit (perf stat -x's
 * fields: ± only with repeated runs; the run time, perf's time the counter ran in ns, is left
 * empty), after "TIME SEP" for an interval. */
static void csv_line(FILE *f, const struct measure_stat *m, const struct stat_event *ev, double v, double spread_pct,
		     double share, const char *sep, const char *prefix)
{
	char val[64];
	const char *unit;
	csv_value(ev, v, val, sizeof(val), &unit);
	struct stat_rate r = prefix ? (struct stat_rate){ NAN, NULL, NULL } : measure_stat_rate(m, ev);
	char spread[32] = "", pct[32] = "", rv[32] = "";
	if (!isnan(spread_pct))
		snprintf(spread, sizeof(spread), "%.2f%%", spread_pct);
	if (!isnan(v))
		snprintf(pct, sizeof(pct), "%.2f", 100 * share);
	char ru[32] = "";
	if (!isnan(r.value) && !strcmp(r.unit, "/s")) {
		/* as perf: "59.481,K/sec" */
		double x = r.value;
		const char *p = x >= 1e9 ? "G" : x >= 1e6 ? "M" : x >= 1e3 ? "K" : "";
		double k = x >= 1e9 ? 1e-9 : x >= 1e6 ? 1e-6 : x >= 1e3 ? 1e-3 : 1;
		snprintf(rv, sizeof(rv), "%.3f", x * k);
		snprintf(ru, sizeof(ru), "%s/sec", p);
	} else if (!isnan(r.value)) {
		snprintf(rv, sizeof(rv), "%.3f", r.value);
		snprintf(ru, sizeof(ru), "%s", r.unit);
	}
	if (prefix)
		fprintf(f, "%s%s", prefix, sep);
	/* as perf: the ± field only where runs were repeated */
	fprintf(f, "%s%s%s%s%s%s", val, sep, unit, sep, ev->name, sep);
	if (!prefix && m->runs > 1)
		fprintf(f, "%s%s", spread, sep);
	fprintf(f, "%s%s%s%s%s%s%s\n", "", sep, pct, sep, rv, sep, ru);
}

void measure_stat_interval_write(FILE *f, const struct measure_stat *m, const struct stat_interval *iv, const char *sep)
{
	char t[32];
	snprintf(t, sizeof(t), "%.6f", iv->t_s);
	for (int i = 0; i < m->nevents; i++) {
		const struct stat_event *ev = &m->ev[i];
		if (ev->source != STAT_PERF || ev->pass != m->run[iv->run].pass || !ev->available)
			continue;
		if (sep) {
			csv_line(f, m, ev, iv->delta[i], NAN, 1, sep, t);
		} else {
			struct stat_disp d = measure_stat_disp_of(ev->unit, iv->delta[i]);
			char buf[64];
			measure_stat_disp_format(&d, iv->delta[i], buf, sizeof(buf), 1);
			fprintf(f, "%14s %22s  %s\n", t, isnan(iv->delta[i]) ? "<not counted>" : buf, ev->name);
		}
	}
	fflush(f);
}

void measure_stat_csv_write(FILE *f, const struct measure_stat *m, const char *sep)
{
	for (int k = 0; k < m->nint; k++)
		measure_stat_interval_write(f, m, &m->intervals[k], sep);
	/* -I: the intervals are the output, as perf's (the totals are in the text and the JSON) */
	if (m->interval_s > 0)
		return;
	for (int i = 0; i < m->nevents; i++) {
		const struct stat_event *ev = &m->ev[i];
		double share = 1;
		for (int k = 0; ev->share && k < m->runs; k++)
			if (!isnan(ev->values[k]))
				share = fmin(share, ev->share[k]);
		double sem = measure_stat_sem(ev);
		csv_line(f, m, ev, ev->n ? ev->mean : NAN, ev->mean != 0 && !isnan(sem) ? 100 * sem / fabs(ev->mean) : NAN,
			 share, sep, NULL);
	}
}

int measure_stat_thread_last(const struct measure_stat *m)
{
	int last = -1;
	for (int t = 0; t < m->nthreads; t++)
		last = m->threads[t].index > last ? m->threads[t].index : last;
	return last;
}

int measure_stat_thread_runs(const struct measure_stat *m, int idx, const char **comm)
{
	int runs = 0;
	*comm = "";
	for (int t = 0; t < m->nthreads; t++)
		if (m->threads[t].index == idx) {
			*comm = m->threads[t].comm;
			runs++;
		}
	return runs;
}

double measure_stat_thread_mean(const struct measure_stat *m, int idx, int i)
{
	double sum = 0;
	int n = 0;
	for (int t = 0; t < m->nthreads; t++)
		if (m->threads[t].index == idx && !isnan(m->threads[t].values[i])) {
			sum += m->threads[t].values[i];
			n++;
		}
	return n ? sum / n : NAN;
}

void measure_stat_failures(const struct measure_stat *m, int *failed, int *crashed)
{
	*failed = *crashed = 0;
	for (int k = 0; k < m->nrun; k++) {
		const struct stat_run *run = &m->run[k];
		*failed += run->exited && run->status != 0;
		*crashed += !run->exited;
	}
}

/* --- conditions --------------------------------------------------------------------------- */

static double read_loadavg(double v[3])
{
	v[0] = v[1] = v[2] = NAN;
	FILE *f = fopen("/proc/loadavg", "r");
	if (!f)
		return NAN;
	if (fscanf(f, "%lf %lf %lf", &v[0], &v[1], &v[2]) != 3)
		v[0] = v[1] = v[2] = NAN;
	fclose(f);
	return v[0];
}

static void iso_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void read_line(const char *path, char *buf, size_t len)
{
	buf[0] = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

void measure_stat_conditions_before(struct stat_conditions *c, double clock_ghz)
{
	memset(c, 0, sizeof(*c));
	iso_now(c->started, sizeof(c->started));
	read_loadavg(c->load_before);
	c->load_after[0] = c->load_after[1] = c->load_after[2] = NAN;
	c->clock_before_ghz = clock_ghz;
	c->clock_after_ghz = NAN;
	char mhz[64];
	c->cpu_mhz_os = topo_cpuinfo("cpu MHz", mhz, sizeof(mhz)) == 0 ? strtod(mhz, NULL) : NAN;
	read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", c->governor, sizeof(c->governor));
	if (topo_cpuinfo("model name", c->cpu_model, sizeof(c->cpu_model)) != 0)
		c->cpu_model[0] = 0;
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(c->kernel, sizeof(c->kernel), "%s %s", u.release, u.version);
	gethostname(c->hostname, sizeof(c->hostname) - 1);
	struct as_cpulist allowed;
	if (cpulist_allowed(&allowed, NULL) == 0)
		cpulist_format(&allowed, c->cpus_allowed, sizeof(c->cpus_allowed));
	c->cpus_online = (int)sysconf(_SC_NPROCESSORS_ONLN);
}

void measure_stat_conditions_after(struct stat_conditions *c, double clock_ghz)
{
	iso_now(c->ended, sizeof(c->ended));
	read_loadavg(c->load_after);
	c->clock_after_ghz = clock_ghz;
}
