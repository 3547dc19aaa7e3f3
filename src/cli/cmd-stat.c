/* archscope stat: counts a program's events over repeated runs (EvSel, NUMA thesis §4.1) and
 * shows per event the mean with its standard error, min, max, a derived rate and the per-run
 * values; or counts a running process (-p) or every CPU (-a). The report goes to stderr or -o
 * FILE, never into the program's stdout; `compare` and `regress` read or reuse what it measures. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/parse-options.h"
#include "cli/cmd-stat.h"
#include "common/interrupt.h"
#include "measure/counters.h"
#include "measure/stat-select.h"
#include "measure/stat.h"
#include "report/emit.h"

static const char *const stat_hw_hint =
	"hardware events need a PMU: bare metal, a VM with PMU pass-through (KVM: -cpu host,pmu=on; "
	"VMware: virtualize CPU performance counters), and kernel.perf_event_paranoid <= 2 (or root)";

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

struct rate {
	double value;         /* NaN: none */
	const char *unit;
	const char *formula;
};

/* The rate perf stat prints beside an event: CPUs utilized for task-clock, GHz for cycles (core
 * cycles over task-clock), IPC for instructions, a share of branches or cache references for
 * their misses, and per second of task-clock for other counts. Only from counted means. */
static struct rate rate_of(const struct measure_stat *m, const struct stat_event *ev)
{
	struct rate r = { NAN, NULL, NULL };
	if (!ev->n || ev->source != STAT_PERF)
		return r;
	const char *id = measure_stat_alias(ev->name);
	const struct stat_event *tc = find_alias(m, "perf::PERF_COUNT_SW_TASK_CLOCK");
	const struct stat_event *wall = find_name(m, "wall-time");
	if (!strcmp(id, "perf::PERF_COUNT_SW_TASK_CLOCK") || !strcmp(id, "perf::PERF_COUNT_SW_CPU_CLOCK")) {
		if (wall && wall->mean > 0)
			r = (struct rate){ ev->mean / wall->mean, "CPUs utilized", "task-clock / wall-time" };
		return r;
	}
	if (!strcmp(id, "perf::PERF_COUNT_HW_CPU_CYCLES")) {
		if (tc && tc->mean > 0)
			r = (struct rate){ ev->mean / tc->mean, "GHz", "cycles / task-clock (core cycles per ns on a CPU)" };
		return r;
	}
	if (!strcmp(id, "perf::PERF_COUNT_HW_INSTRUCTIONS")) {
		const struct stat_event *cy = find_alias(m, "perf::PERF_COUNT_HW_CPU_CYCLES");
		if (cy && cy->mean > 0)
			r = (struct rate){ ev->mean / cy->mean, "IPC", "instructions / cycles" };
		return r;
	}
	if (!strcmp(id, "perf::PERF_COUNT_HW_BRANCH_MISSES")) {
		const struct stat_event *br = find_alias(m, "perf::PERF_COUNT_HW_BRANCH_INSTRUCTIONS");
		if (br && br->mean > 0)
			r = (struct rate){ 100 * ev->mean / br->mean, "% of branches", "branch-misses / branches" };
		return r;
	}
	if (!strcmp(id, "perf::PERF_COUNT_HW_CACHE_MISSES")) {
		const struct stat_event *cr = find_alias(m, "perf::PERF_COUNT_HW_CACHE_REFERENCES");
		if (cr && cr->mean > 0)
			r = (struct rate){ 100 * ev->mean / cr->mean, "% of cache refs", "cache-misses / cache-references" };
		return r;
	}
	if (!strcmp(ev->unit, "events") && tc && tc->mean > 0)
		r = (struct rate){ ev->mean / (tc->mean * 1e-9), "/s", "per second of task-clock" };
	return r;
}

static void fmt_rate(const struct rate *r, char *buf, size_t len)
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

/* The standard error of the mean, the ± perf stat shows: stddev / sqrt(n). */
static double sem_of(const struct stat_event *ev)
{
	return ev->n >= 2 ? ev->stddev / sqrt((double)ev->n) : NAN;
}

/* --- the report --------------------------------------------------------------------------- */

static void stat_render_event_text(struct emit *e, const struct measure_stat *m, const struct stat_event *ev, int verbose,
				   int runs)
{
	emit_row_begin(e);
	emit_string(e, NULL, "event", ev->name);
	struct stat_disp d = stat_disp_of(ev->unit, ev->mean);
	char buf[128];
	if (!ev->available || ev->n == 0) {
		emit_text(e, "mean", "<not counted>");
		emit_text(e, "±", "%s", "");
		emit_text(e, "min", "%s", "");
		emit_text(e, "max", "%s", "");
	} else {
		stat_fmt_disp(&d, ev->mean, buf, sizeof(buf), 1);
		emit_text(e, "mean", "%s", buf);
		double sem = sem_of(ev);
		if (isnan(sem))
			emit_text(e, "±", "-");
		else
			emit_text(e, "±", "%.2f %%", ev->mean != 0 ? 100 * sem / fabs(ev->mean) : 0.0);
		stat_fmt_disp(&d, ev->min, buf, sizeof(buf), 0);
		emit_text(e, "min", "%s", buf);
		stat_fmt_disp(&d, ev->max, buf, sizeof(buf), 0);
		emit_text(e, "max", "%s", buf);
	}
	emit_int(e, NULL, "n", ev->n, NULL);
	struct rate r = rate_of(m, ev);
	fmt_rate(&r, buf, sizeof(buf));
	emit_text(e, "rate", "%s", buf);
	const char *note = !ev->available ? (ev->hardware ? "no PMU here (see below)" : "cannot count (see below)")
			   : ev->n == 0 ? "not counted"
			   : ev->multiplexed ? "multiplexed: scaled"
			   : ev->zero ? "zero"
			   : ev->constant ? "constant"
			   : "";
	emit_text(e, "note", "%s", note);
	if (verbose) {
		char vals[1024] = "";
		size_t used = 0;
		for (int k = 0; k < runs && used < sizeof(vals) - 64; k++) {
			stat_fmt_disp(&d, ev->values[k], buf, sizeof(buf), 0);
			used += (size_t)snprintf(vals + used, sizeof(vals) - used, "%s%s", k ? " " : "",
						 isnan(ev->values[k]) ? "<not counted>" : buf);
		}
		emit_text(e, "values", "%s", vals);
	}
	emit_row_end(e);
}

static void stat_render_event_json(struct emit *e, const struct measure_stat *m, const struct stat_event *ev, int runs)
{
	emit_object_begin(e, NULL, NULL);
	emit_string(e, "name", NULL, ev->name);
	emit_string(e, "unit", NULL, ev->unit);
	emit_array_begin(e, "values", NULL);
	for (int k = 0; k < runs; k++)
		emit_number(e, NULL, NULL, ev->values ? ev->values[k] : NAN, NULL, NULL);
	emit_array_end(e);
	emit_number(e, "mean", NULL, ev->mean, NULL, NULL);
	emit_number(e, "stddev", NULL, ev->stddev, NULL, NULL);
	emit_number(e, "sem", NULL, sem_of(ev), NULL, NULL);
	emit_int(e, "n", NULL, ev->n, NULL);
	emit_bool(e, "available", NULL, ev->available);
	if (ev->reason[0])
		emit_string(e, "reason", NULL, ev->reason);
	else
		emit_null(e, "reason", NULL, NULL);
	emit_number(e, "min", NULL, ev->min, NULL, NULL);
	emit_number(e, "max", NULL, ev->max, NULL, NULL);
	emit_bool(e, "zero", NULL, ev->zero);
	emit_bool(e, "constant", NULL, ev->constant);
	emit_bool(e, "multiplexed", NULL, ev->multiplexed);
	emit_array_begin(e, "running_share", NULL);
	for (int k = 0; k < runs; k++)
		emit_number(e, NULL, NULL, ev->share ? ev->share[k] : NAN, NULL, NULL);
	emit_array_end(e);
	emit_string(e, "source", NULL,
		    ev->source == STAT_PERF ? (ev->hardware ? "perf hardware" : "perf software")
		    : ev->source == STAT_RUSAGE ? "rusage"
		    : ev->source == STAT_SCHEDSTAT ? "schedstat (main thread)"
						   : "clock");
	emit_string(e, "encoding", NULL, ev->fq);
	emit_int(e, "pass", NULL, ev->pass, NULL);
	struct rate r = rate_of(m, ev);
	if (isnan(r.value)) {
		emit_null(e, "rate", NULL, NULL);
	} else {
		emit_object_begin(e, "rate", NULL);
		emit_number(e, "value", NULL, r.value, NULL, NULL);
		emit_string(e, "unit", NULL, r.unit);
		emit_string(e, "formula", NULL, r.formula);
		emit_object_end(e);
	}
	emit_object_end(e);
}

static double metric_value(void *ctx, const char *name)
{
	const struct measure_stat *m = ctx;
	for (int i = 0; i < m->nevents; i++)
		if (!strcmp(m->ev[i].name, name))
			return m->ev[i].n ? m->ev[i].mean : NAN;
	return NAN;
}

/* Per thread: for people, per creation index the mean over runs of each perf event; for
 * programs every thread of every run. */
static void stat_render_threads(struct emit *e, const struct measure_stat *m)
{
	int maxidx = -1;
	for (int t = 0; t < m->nthreads; t++)
		maxidx = m->threads[t].index > maxidx ? m->threads[t].index : maxidx;
	emit_table_begin(e, NULL, "per thread (mean over runs; 0 is the main thread, then in order of creation)");
	for (int idx = 0; idx <= maxidx; idx++) {
		emit_row_begin(e);
		emit_int(e, NULL, "thread", idx, NULL);
		const char *comm = "";
		int runs = 0;
		for (int t = 0; t < m->nthreads; t++)
			if (m->threads[t].index == idx) {
				comm = m->threads[t].comm;
				runs++;
			}
		emit_string(e, NULL, "name", comm);
		emit_int(e, NULL, "runs", runs, NULL);
		for (int i = 0; i < m->nevents; i++) {
			if (m->ev[i].source != STAT_PERF || !m->ev[i].available)
				continue;
			double sum = 0;
			int n = 0;
			for (int t = 0; t < m->nthreads; t++)
				if (m->threads[t].index == idx && !isnan(m->threads[t].values[i])) {
					sum += m->threads[t].values[i];
					n++;
				}
			char buf[64];
			struct stat_disp d = stat_disp_of(m->ev[i].unit, n ? sum / n : NAN);
			stat_fmt_disp(&d, n ? sum / n : NAN, buf, sizeof(buf), 1);
			emit_text(e, m->ev[i].name, "%s", buf);
		}
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_list_begin(e, "threads", NULL);
	for (int t = 0; t < m->nthreads; t++) {
		const struct stat_thread *th = &m->threads[t];
		emit_object_begin(e, NULL, NULL);
		emit_int(e, "run", NULL, th->run, NULL);
		emit_int(e, "index", NULL, th->index, NULL);
		emit_int(e, "tid", NULL, th->tid, NULL);
		emit_string(e, "comm", NULL, th->comm);
		emit_object_begin(e, "events", NULL);
		for (int i = 0; i < m->nevents; i++)
			if (m->ev[i].source == STAT_PERF && m->ev[i].available)
				emit_number(e, m->ev[i].name, NULL, th->values[i], NULL, NULL);
		emit_object_end(e);
		emit_object_end(e);
	}
	emit_list_end(e);
}

/* -I in JSON: every interval with its counts (text prints them as they come). */
static void stat_render_intervals(struct emit *e, const struct measure_stat *m)
{
	emit_list_begin(e, "intervals", NULL);
	for (int k = 0; k < m->nint; k++) {
		const struct stat_interval *iv = &m->intervals[k];
		emit_object_begin(e, NULL, NULL);
		emit_int(e, "run", NULL, iv->run, NULL);
		emit_number(e, "t_s", NULL, iv->t_s, "s", NULL);
		emit_object_begin(e, "events", NULL);
		for (int i = 0; i < m->nevents; i++)
			if (m->ev[i].source == STAT_PERF && m->ev[i].pass == m->run[iv->run].pass)
				emit_number(e, m->ev[i].name, NULL, iv->delta[i], NULL, NULL);
		emit_object_end(e);
		emit_object_end(e);
	}
	emit_list_end(e);
}

static const char *target_name(const struct measure_stat *m, char *buf, size_t len)
{
	if (m->target == STAT_TARGET_ATTACH)
		snprintf(buf, len, "process %d (attached: its threads, and what they start from now on)", (int)m->attach_pid);
	else if (m->target == STAT_TARGET_SYSTEM)
		snprintf(buf, len, "all %d CPUs (system-wide: every task)", m->ncpus);
	else
		snprintf(buf, len, "the program, from its exec, with its threads and children");
	return buf;
}

void cli_stat_render(struct emit *e, const struct cli_stat_result *r)
{
	const struct measure_stat *m = r->m;
	char buf[160];
	emit_string(e, "command", "command", r->command);
	emit_string(e, "target", "counted", m->target == STAT_TARGET_ATTACH ? "attach" : m->target == STAT_TARGET_SYSTEM ? "system" : "program");
	emit_annotate(e, ": %s", target_name(m, buf, sizeof(buf)));
	if (m->target == STAT_TARGET_ATTACH)
		emit_int(e, "pid", NULL, m->attach_pid, NULL);
	if (m->target == STAT_TARGET_SYSTEM)
		emit_int(e, "cpus", NULL, m->ncpus, NULL);
	emit_int(e, "runs", "runs", m->runs, NULL);
	if (m->passes > 1)
		emit_annotate(e, " per batch, %d batches of events", m->passes);
	emit_int(e, "runs_done", NULL, m->nrun, NULL);
	emit_int(e, "passes", NULL, m->passes, NULL);
	emit_string(e, "modes", "counted in", m->kernel ? "user and kernel mode" : "user mode");
	emit_string(e, "spread", "±", "the standard error of the mean (stddev / sqrt(n)), as perf stat's ±");
	if (m->interval_s > 0)
		emit_number(e, "interval_ms", "interval", m->interval_s * 1e3, "ms", "%g");
	if (r->sel && r->sel->group[0]) {
		emit_string(e, "group", "group", r->sel->group);
		emit_annotate(e, ": %s (%s events)", r->sel->group_title, r->sel->group_pmu);
		emit_string(e, "group_events", NULL, r->sel->group_pmu);
	}
	emit_table_begin(e, NULL, "events");
	for (int i = 0; i < m->nevents; i++)
		stat_render_event_text(e, m, &m->ev[i], r->verbose, m->runs);
	emit_table_end(e);
	emit_list_begin(e, "events", NULL);
	for (int i = 0; i < m->nevents; i++)
		stat_render_event_json(e, m, &m->ev[i], m->runs);
	emit_list_end(e);
	if (r->sel && r->sel->nmetrics) {
		emit_table_begin(e, "metrics", "metrics");
		for (int i = 0; i < r->sel->nmetrics; i++) {
			const struct stat_metric *mt = &r->sel->metric[i];
			emit_row_begin(e);
			emit_string(e, "name", "metric", mt->label);
			emit_number(e, "value", "value", stat_metric_eval(r->sel, mt, metric_value, (void *)m), mt->unit, "%.4g");
			emit_string(e, "formula", "formula", mt->expr);
			emit_row_end(e);
		}
		emit_table_end(e);
	}
	/* the reasons the table's notes point to ("see below"), one line per event (text only: JSON
	 * has each event's reason) */
	for (int i = 0; i < m->nevents; i++) {
		const struct stat_event *ev = &m->ev[i];
		if (ev->available || !ev->reason[0] || (ev->hardware && m->hw_reason[0]))
			continue;
		emit_text(e, "not counted", "%s: %s", ev->name, ev->reason);
	}
	if (m->hw_reason[0]) {
		emit_string(e, "hardware_reason", "hardware events", m->hw_reason);
		emit_string(e, "hardware_hint", "to count them", stat_hw_hint);
	} else {
		emit_null(e, "hardware_reason", NULL, NULL);
	}
	emit_table_begin(e, "runs_detail", r->verbose ? "runs" : NULL);
	for (int k = 0; k < m->nrun; k++) {
		const struct stat_run *run = &m->run[k];
		emit_row_begin(e);
		emit_int(e, NULL, "run", k + 1, NULL);
		emit_int(e, "pass", "batch", run->pass, NULL);
		emit_bool(e, "exited", "exited", run->exited);
		if (run->exited) {
			emit_int(e, "exit_status", "status", run->status, NULL);
			emit_null(e, "signal", NULL, NULL);
		} else {
			emit_null(e, "exit_status", NULL, NULL);
			emit_int(e, "signal", "status", run->status, NULL);
			emit_annotate(e, " (%s)", strsignal(run->status));
		}
		emit_number(e, "seconds", "time", run->seconds, "s", "%.4f");
		emit_string(e, "stderr", NULL, run->stderr_tail);
		emit_row_end(e);
	}
	emit_table_end(e);
	if (m->per_thread)
		stat_render_threads(e, m);
	if (m->interval_s > 0)
		stat_render_intervals(e, m);
	if (r->cond)
		cli_stat_conditions_render(e, r->cond);
	emit_int(e, "failed_runs", NULL, r->failed, NULL);
	emit_int(e, "crashed_runs", NULL, r->crashed, NULL);
	emit_bool(e, "interrupted", NULL, m->interrupted);
	if (m->interrupted)
		emit_text(e, "interrupted", "by %s after %d of %d runs: the cut run is left out of every number above",
			  strsignal(m->signal), m->nrun, m->runs * m->passes);
	if (m->signal)
		emit_string(e, "signal_received", m->interrupted ? NULL : "ended by", strsignal(m->signal));
	else
		emit_null(e, "signal_received", NULL, NULL);
}

/* --- CSV (perf stat -x) ------------------------------------------------------------------- */

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
	struct rate r = prefix ? (struct rate){ NAN, NULL, NULL } : rate_of(m, ev);
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

/* One -I interval as text or CSV lines. */
static void stat_interval_csv(FILE *f, const struct measure_stat *m, const struct stat_interval *iv, const char *sep)
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
			struct stat_disp d = stat_disp_of(ev->unit, iv->delta[i]);
			char buf[64];
			stat_fmt_disp(&d, iv->delta[i], buf, sizeof(buf), 1);
			fprintf(f, "%14s %22s  %s\n", t, isnan(iv->delta[i]) ? "<not counted>" : buf, ev->name);
		}
	}
	fflush(f);
}

/* perf stat -x SEP's lines: value, unit, event, variance, run time, % counted, metric, metric unit
 * (a leading time for each -I interval). */
static void stat_csv_render(FILE *f, const struct cli_stat_result *r, const char *sep)
{
	const struct measure_stat *m = r->m;
	for (int k = 0; k < m->nint; k++)
		stat_interval_csv(f, m, &m->intervals[k], sep);
	/* -I: the intervals are the output, as perf's (the totals are in the text and the JSON) */
	if (m->interval_s > 0)
		return;
	for (int i = 0; i < m->nevents; i++) {
		const struct stat_event *ev = &m->ev[i];
		double share = 1;
		for (int k = 0; ev->share && k < m->runs; k++)
			if (!isnan(ev->values[k]))
				share = fmin(share, ev->share[k]);
		double sem = sem_of(ev);
		csv_line(f, m, ev, ev->n ? ev->mean : NAN, ev->mean != 0 && !isnan(sem) ? 100 * sem / fabs(ev->mean) : NAN,
			 share, sep, NULL);
	}
}

void stat_summarise_runs(struct cli_stat_result *r)
{
	r->failed = r->crashed = 0;
	for (int k = 0; k < r->m->nrun; k++) {
		const struct stat_run *run = &r->m->run[k];
		r->failed += run->exited && run->status != 0;
		r->crashed += !run->exited;
	}
}

/* The program's outcome as errors; EXIT_FAIL when a run failed or crashed. */
int cli_stat_report_program(const struct cli_stat_result *r)
{
	const struct measure_stat *m = r->m;
	int rc = EXIT_OK;
	for (int k = 0; k < m->nrun; k++) {
		const struct stat_run *run = &m->run[k];
		if (!run->exited) {
			error("'%s' crashed in run %d of %d: signal %d (%s)", r->command, k + 1, m->nrun, run->status,
			      strsignal(run->status));
			return EXIT_FAIL;
		}
		if (run->status != 0 && rc == EXIT_OK) {
			error("'%s' exited with status %d (in %d of %d runs)", r->command, run->status, r->failed, m->nrun);
			rc = EXIT_FAIL;
		}
	}
	if (m->interrupted)
		note("interrupted by %s: %d of %d runs measured (the cut run is left out)", strsignal(m->signal), m->nrun,
		     m->runs * m->passes);
	return rc;
}

static const char *const stat_usage[] = {
	"archscope stat [-e EVENT,...|--all|-M GROUP] [-r RUNS] [-I MS] [--per-thread] [-o FILE] [-x SEP|--json] -- COMMAND [ARGS...]",
	"archscope stat -p PID [-e ...] [-I MS] [-o FILE] [-x SEP|--json] [-- TIMER-COMMAND ...]",
	"archscope stat -a [-e ...] [-I MS] [-o FILE] [-x SEP|--json] [-- COMMAND ...]",
	NULL
};
static const struct opt_cmd stat_cmd = {
	.name = "stat",
	.usage = stat_usage,
	.description =
		"Runs COMMAND RUNS times with its events counted from its exec (perf_event_open, inherited by its\n"
		"threads and children) and shows per event the mean, ± its standard error (stddev / sqrt(n), as perf\n"
		"stat's ±), min, max, a derived rate (CPUs utilized, GHz, IPC, per second) and the per-run values.\n"
		"Hardware events are packed into groups that open together; more groups than fit count in further\n"
		"batches of RUNS runs, never multiplexed silently (a scaled value is flagged). An event that did not\n"
		"count is <not counted> (null in JSON), never 0. rusage, the main thread's schedstat, the wall time\n"
		"and the conditions (load, measured clock, governor, CPU, kernel, time, affinity) are recorded.\n"
		"The report goes to stderr (or -o FILE), never into the program's stdout, which stays its own.\n"
		"-p counts a running process until it exits, TIMER-COMMAND ends, or Ctrl-C; -a counts every CPU.\n",
	.epilog = "Without -e the events are perf stat's default set. Groups (-M) are data files in share/groups.\n"
		  "Ctrl-C or SIGTERM goes to the program's process group; the runs done are reported, marked\n"
		  "interrupted, without the cut run, and stat exits 130 (a second one ends it at once). Exit 1: the\n"
		  "program failed or crashed; 2: bad options or a program that cannot be started.\n"
		  "Save a run with -o FILE (JSON, written atomically) and compare two with 'archscope compare'.\n",
	.flags = OPT_CMD_STOP_AT_NON_OPTION,
};

struct stat_live {
	const char *sep; /* NULL: text */
	int header;
};

static void stat_on_interval(void *ctx, const struct measure_stat *m, const struct stat_interval *iv)
{
	struct stat_live *l = ctx;
	progress_done();
	if (!l->sep && !l->header) {
		fprintf(stderr, "%14s %22s  %s\n", "time (s)", "count in interval", "event");
		l->header = 1;
	}
	stat_interval_csv(stderr, m, iv, l->sep);
}

static void stat_render_cb(struct emit *e, const void *ctx)
{
	cli_stat_render(e, ctx);
}

/* -a needs system-wide counting: root, CAP_PERFMON or perf_event_paranoid <= 0. Tried on CPU 0
 * with a software event, so the error comes before the program runs. */
static int stat_check_system_wide(void)
{
	struct counter_set s;
	counters_init(&s);
	struct counters_how how = { .cpu_wide = 1, .cpu = 0 };
	struct as_error err = { 0 };
	int rc = counters_add(&s, "perf::PERF_COUNT_SW_TASK_CLOCK", -1, &how, &err);
	counters_close(&s);
	if (rc == -EACCES || rc == -EPERM) {
		char par[16] = "?";
		FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
		if (f) {
			if (!fgets(par, sizeof(par), f))
				snprintf(par, sizeof(par), "?");
			par[strcspn(par, "\n")] = 0;
			fclose(f);
		}
		return error("-a counts every CPU, which needs root, CAP_PERFMON or kernel.perf_event_paranoid <= 0 "
			     "(it is %s here; sysctl kernel.perf_event_paranoid=0)", par);
	}
	if (rc)
		return error("-a: cannot count system-wide: %s", err.msg);
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	struct cli_stat_args a = { 0 };
	int runs = -1, runs_given = 0, json = 0, verbose = 0, per_thread = 0, interval_ms = 0, pid = 0, system = 0;
	const char *out = NULL, *sep = NULL;
	const struct opt options[] = {
		OPT_STRINGS('e', "event", &a.events, "EVENT", "events to count (repeatable, comma lists; libpfm4 or perf names)"),
		OPT_FLAG(0, "all", &a.all, "every event of this CPU's PMUs and every software event"),
		OPT_STRING('M', "metrics", &a.group, "GROUP", "a metric group from share/groups (FLOPS, MEM, L2, L3, BRANCH)"),
		OPT_INT('r', "repeat", &runs, "RUNS", 1, 100000, "runs per batch of events (default 5; 1 with -p, -a, -I)"),
		OPT_INT('I', "interval-print", &interval_ms, "MS", 1, 3600000, "also print the counts of every MS milliseconds"),
		OPT_INT('p', "pid", &pid, "PID", 1, 0x7fffffff, "count the running process PID (its threads) instead"),
		OPT_FLAG('a', "all-cpus", &system, "count every CPU (system-wide; root or perf_event_paranoid <= 0)"),
		OPT_FLAG(0, "per-thread", &per_thread, "also count each thread and child process by itself (ptrace)"),
		OPT_STRING('o', "output", &out, "FILE", "write the JSON (CSV with -x) to FILE, atomically, not to stderr"),
		OPT_STRING('x', "field-separator", &sep, "SEP", "CSV as perf stat -x: value,unit,event,±,,%counted,rate"),
		OPT_COUNTER('v', "verbose", &verbose, "show the per-run values and the runs"),
		OPT_JSON(&json),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &stat_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	runs_given = runs > 0;
	if (!runs_given)
		runs = pid || system || interval_ms ? 1 : 5;
	if (pid && system)
		return error_usage("stat", "give one of -p and -a"), EXIT_USAGE;
	if (argc < 1 && !pid && !system)
		return error_usage("stat", "a command to run is required (archscope stat -- COMMAND ...)"), EXIT_USAGE;
	if (sep && !*sep)
		return error_usage("stat", "-x needs a separator (-x ,)"), EXIT_USAGE;
	if (sep && json)
		return error_usage("stat", "give one of -x and --json"), EXIT_USAGE;
	if (per_thread && (pid || system || interval_ms))
		return error_usage("stat", "--per-thread counts a program it starts, without -p, -a and -I"), EXIT_USAGE;
	if ((pid || (system && argc < 1)) && runs > 1)
		return error_usage("stat", "-r: %s counts one window; it cannot repeat it",
				   pid ? "-p" : "-a without a command"),
		       EXIT_USAGE;
	if (pid && kill((pid_t)pid, 0) != 0 && errno == ESRCH)
		return error_usage("stat", "-p %d: no such process", pid), EXIT_USAGE;
	/* the output is checked before anything runs: a measurement is not lost to an unwritable FILE */
	if (out && cli_output_check("stat", out, 0) != 0)
		return EXIT_USAGE;
	struct stat_select sel;
	int rc = cli_stat_select("stat", &a, &sel);
	if (rc)
		return rc;
	if (system && stat_check_system_wide() != 0) {
		stat_select_release(&sel);
		return EXIT_FAIL;
	}
	char cmdline[1024];
	if (argc >= 1)
		stat_command_line(argv, cmdline, sizeof(cmdline));
	else
		snprintf(cmdline, sizeof(cmdline), pid ? "-p %d" : "-a", pid);
	struct stat_live live = { .sep = sep };
	/* intervals as they come, where the report goes to stderr in text or CSV */
	int live_print = interval_ms && !json && (!out || !sep);
	struct stat_opts o = { .runs = runs, .stdout_fd = -1, .stderr_fd = 2, .per_thread = per_thread,
			       .target = pid ? STAT_TARGET_ATTACH : system ? STAT_TARGET_SYSTEM : STAT_TARGET_PROGRAM,
			       .attach_pid = (pid_t)pid, .interval_s = interval_ms / 1e3,
			       .on_interval = live_print ? stat_on_interval : NULL, .ctx = &live };
	struct stat_conditions cond;
	stat_conditions_before(&cond);
	struct measure_stat m;
	interrupt_install();
	rc = cli_stat_measure(&m, &sel, argc >= 1 ? argv : NULL, &o);
	if (rc) {
		interrupt_restore();
		measure_stat_release(&m);
		stat_select_release(&sel);
		return interrupt_signal() && rc == EXIT_FAIL ? INTERRUPT_EXIT : rc;
	}
	stat_conditions_after(&cond);
	struct cli_stat_result r = { .command = cmdline, .m = &m, .sel = &sel, .verbose = verbose, .cond = &cond };
	stat_summarise_runs(&r);
	if (sep) {
		char *buf = NULL;
		size_t len = 0;
		FILE *ms = open_memstream(&buf, &len);
		if (ms) {
			/* the intervals printed as they came are not printed again */
			int nint = m.nint;
			if (live_print)
				m.nint = 0;
			stat_csv_render(ms, &r, sep);
			m.nint = nint;
			fclose(ms);
		}
		if (!buf)
			rc = error("out of memory") ? EXIT_FAIL : EXIT_FAIL;
		else if (out && !m.interrupted)
			rc = cli_report_write_file(out, buf, len);
		else {
			if (out)
				warning("'%s' is left as it was: an interrupted result never replaces a saved one", out);
			rc = cli_report_to_stderr("stat", buf, len);
		}
		free(buf);
	} else {
		rc = cli_report_deliver("stat", out, json, m.interrupted, stat_render_cb, &r);
	}
	interrupt_restore();
	if (rc == EXIT_OK)
		rc = cli_stat_report_program(&r);
	else
		cli_stat_report_program(&r);
	int interrupted = m.interrupted;
	if (m.signal && !interrupted)
		note("counting ended by %s after %.3f s", strsignal(m.signal), m.run[0].seconds);
	measure_stat_release(&m);
	stat_select_release(&sel);
	if (interrupted)
		return INTERRUPT_EXIT;
	return rc ? EXIT_FAIL : EXIT_OK;
}
