/* stat's one renderer (text and JSON through report/emit.h): per event the mean, ± its standard
 * error, min, max, the derived rate and the per-run values, the metrics of a group, why events were
 * not counted, the runs, per thread, the intervals and the conditions; and the program's outcome
 * as errors. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd-stat.h"
#include "machine/result-stat.h"
#include "measure/sysfs-pmu.h"
#include "report/emit.h"

static const char *const stat_hw_hint =
	"hardware events need a PMU: bare metal, a VM with PMU pass-through (KVM: -cpu host,pmu=on; "
	"VMware: virtualize CPU performance counters), and kernel.perf_event_paranoid <= 2 (or root)";

static void stat_render_event_text(struct emit *e, const struct measure_stat *m, const struct stat_event *ev, int verbose,
				   int runs)
{
	emit_row_begin(e);
	emit_string(e, NULL, "event", ev->name);
	struct stat_disp d = measure_stat_disp_of(ev->unit, ev->mean);
	char buf[128];
	if (!ev->available || ev->n == 0) {
		emit_text(e, "mean", "<not counted>");
		emit_text(e, "±", "%s", "");
		emit_text(e, "min", "%s", "");
		emit_text(e, "max", "%s", "");
	} else {
		measure_stat_disp_format(&d, ev->mean, buf, sizeof(buf), 1);
		emit_text(e, "mean", "%s", buf);
		double sem = measure_stat_sem(ev);
		if (isnan(sem))
			emit_text(e, "±", "-");
		else
			emit_text(e, "±", "%.2f %%", ev->mean != 0 ? 100 * sem / fabs(ev->mean) : 0.0);
		measure_stat_disp_format(&d, ev->min, buf, sizeof(buf), 0);
		emit_text(e, "min", "%s", buf);
		measure_stat_disp_format(&d, ev->max, buf, sizeof(buf), 0);
		emit_text(e, "max", "%s", buf);
	}
	emit_int(e, NULL, "n", ev->n, NULL);
	struct stat_rate r = measure_stat_rate(m, ev);
	measure_stat_rate_format(&r, buf, sizeof(buf));
	emit_text(e, "rate", "%s", buf);
	const char *note = !ev->available ? (ev->hardware ? "no PMU here (see below)" : "cannot count (see below)")
			   : ev->n == 0 ? "not counted"
			   : ev->multiplexed ? "multiplexed: scaled"
			   : ev->zero && sysfs_pmu_is_name(ev->name) ? "reads 0 throughout: no counter behind it here (a VM?)"
			   : ev->zero ? "zero"
			   : ev->constant ? "constant"
			   : "";
	emit_text(e, "note", "%s", note);
	if (verbose) {
		char vals[1024] = "";
		size_t used = 0;
		for (int k = 0; k < runs && used < sizeof(vals) - 64; k++) {
			measure_stat_disp_format(&d, ev->values[k], buf, sizeof(buf), 0);
			used += (size_t)snprintf(vals + used, sizeof(vals) - used, "%s%s", k ? " " : "",
						 isnan(ev->values[k]) ? "<not counted>" : buf);
		}
		emit_text(e, "values", "%s", vals);
	}
	emit_row_end(e);
}

/* key: an array of the n numbers v[0..n), all NaN (null) when v is NULL (nothing recorded). */
static void render_numbers(struct emit *e, const char *key, const double *v, int n)
{
	emit_array_begin(e, key, NULL);
	for (int k = 0; k < n; k++)
		emit_number(e, NULL, NULL, v ? v[k] : NAN, NULL, NULL);
	emit_array_end(e);
}

static void stat_render_event_json(struct emit *e, const struct measure_stat *m, const struct stat_event *ev, int runs)
{
	emit_object_begin(e, NULL, NULL);
	emit_string(e, ST_KEY(EV_NAME), NULL, ev->name);
	emit_string(e, ST_KEY(EV_UNIT), NULL, ev->unit);
	render_numbers(e, ST_KEY(EV_VALUES), ev->values, runs);
	emit_number(e, ST_KEY(EV_MEAN), NULL, ev->mean, NULL, NULL);
	emit_number(e, ST_KEY(EV_STDDEV), NULL, ev->stddev, NULL, NULL);
	emit_number(e, ST_KEY(EV_SEM), NULL, measure_stat_sem(ev), NULL, NULL);
	emit_int(e, ST_KEY(EV_N), NULL, ev->n, NULL);
	emit_bool(e, ST_KEY(EV_AVAILABLE), NULL, ev->available);
	if (ev->reason[0])
		emit_string(e, ST_KEY(EV_REASON), NULL, ev->reason);
	else
		emit_null(e, ST_KEY(EV_REASON), NULL, NULL);
	emit_number(e, ST_KEY(EV_MIN), NULL, ev->min, NULL, NULL);
	emit_number(e, ST_KEY(EV_MAX), NULL, ev->max, NULL, NULL);
	emit_bool(e, ST_KEY(EV_ZERO), NULL, ev->zero);
	emit_bool(e, ST_KEY(EV_CONSTANT), NULL, ev->constant);
	emit_bool(e, ST_KEY(EV_MULTIPLEXED), NULL, ev->multiplexed);
	render_numbers(e, ST_KEY(EV_SHARE), ev->share, runs);
	emit_string(e, ST_KEY(EV_SOURCE), NULL,
		    ev->source == STAT_PERF ? (ev->hardware ? "perf hardware" : "perf software")
		    : ev->source == STAT_RUSAGE ? "rusage"
		    : ev->source == STAT_SCHEDSTAT ? "schedstat (main thread)"
						   : "clock");
	emit_string(e, ST_KEY(EV_ENCODING), NULL, ev->fq);
	emit_int(e, ST_KEY(EV_PASS), NULL, ev->pass, NULL);
	struct stat_rate r = measure_stat_rate(m, ev);
	if (isnan(r.value)) {
		emit_null(e, ST_KEY(EV_RATE), NULL, NULL);
	} else {
		emit_object_begin(e, ST_KEY(EV_RATE), NULL);
		emit_number(e, ST_KEY(EV_RATE_VALUE), NULL, r.value, NULL, NULL);
		emit_string(e, ST_KEY(EV_RATE_UNIT), NULL, r.unit);
		emit_string(e, ST_KEY(EV_RATE_FORMULA), NULL, r.formula);
		emit_object_end(e);
	}
	emit_object_end(e);
}

/* Per thread: for people, per creation index the mean over runs of each perf event; for
 * programs every thread of every run. */
static void stat_render_threads(struct emit *e, const struct measure_stat *m)
{
	emit_table_begin(e, NULL, "per thread (mean over runs; 0 is the main thread, then in order of creation)");
	for (int idx = 0; idx <= measure_stat_thread_last(m); idx++) {
		const char *comm;
		int runs = measure_stat_thread_runs(m, idx, &comm);
		emit_row_begin(e);
		emit_int(e, NULL, "thread", idx, NULL);
		emit_string(e, NULL, "name", comm);
		emit_int(e, NULL, "runs", runs, NULL);
		for (int i = 0; i < m->nevents; i++) {
			if (m->ev[i].source != STAT_PERF || !m->ev[i].available)
				continue;
			char buf[64];
			double mean = measure_stat_thread_mean(m, idx, i);
			struct stat_disp d = measure_stat_disp_of(m->ev[i].unit, mean);
			measure_stat_disp_format(&d, mean, buf, sizeof(buf), 1);
			emit_text(e, m->ev[i].name, "%s", buf);
		}
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_list_begin(e, ST_KEY(THREADS), NULL);
	for (int t = 0; t < m->nthreads; t++) {
		const struct stat_thread *th = &m->threads[t];
		emit_object_begin(e, NULL, NULL);
		emit_int(e, ST_KEY(TH_RUN), NULL, th->run, NULL);
		emit_int(e, ST_KEY(TH_INDEX), NULL, th->index, NULL);
		emit_int(e, ST_KEY(TH_TID), NULL, th->tid, NULL);
		emit_string(e, ST_KEY(TH_COMM), NULL, th->comm);
		emit_object_begin(e, ST_KEY(TH_EVENTS), NULL);
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
	emit_list_begin(e, ST_KEY(INTERVALS), NULL);
	for (int k = 0; k < m->nint; k++) {
		const struct stat_interval *iv = &m->intervals[k];
		emit_object_begin(e, NULL, NULL);
		emit_int(e, ST_KEY(IV_RUN), NULL, iv->run, NULL);
		emit_number(e, ST_KEY(IV_T), NULL, iv->t_s, "s", NULL);
		emit_object_begin(e, ST_KEY(IV_EVENTS), NULL);
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

/* What was counted, how often and how. */
static void stat_render_head(struct emit *e, const struct cli_stat_result *r)
{
	const struct measure_stat *m = r->m;
	char buf[160];
	emit_string(e, ST_KEY(COMMAND), "command", r->command);
	emit_string(e, ST_KEY(TARGET), "counted", m->target == STAT_TARGET_ATTACH ? "attach" : m->target == STAT_TARGET_SYSTEM ? "system" : "program");
	emit_annotate(e, ": %s", target_name(m, buf, sizeof(buf)));
	if (m->target == STAT_TARGET_ATTACH)
		emit_int(e, ST_KEY(PID), NULL, m->attach_pid, NULL);
	if (m->target == STAT_TARGET_SYSTEM)
		emit_int(e, ST_KEY(CPUS), NULL, m->ncpus, NULL);
	emit_int(e, ST_KEY(RUNS), "runs", m->runs, NULL);
	if (m->passes > 1)
		emit_annotate(e, " per batch, %d batches of events", m->passes);
	emit_int(e, ST_KEY(RUNS_DONE), NULL, m->nrun, NULL);
	emit_int(e, ST_KEY(PASSES), NULL, m->passes, NULL);
	emit_string(e, ST_KEY(MODES), "counted in", m->kernel ? "user and kernel mode" : "user mode");
	emit_string(e, ST_KEY(SPREAD), "±", "the standard error of the mean (stddev / sqrt(n)), as perf stat's ±");
	if (m->interval_s > 0)
		emit_number(e, ST_KEY(INTERVAL), "interval", m->interval_s * 1e3, "ms", "%g");
	if (r->sel && r->sel->group[0]) {
		emit_string(e, ST_KEY(GROUP), "group", r->sel->group);
		emit_annotate(e, ": %s (%s events)", r->sel->group_title, r->sel->group_pmu);
		emit_string(e, ST_KEY(GROUP_EVENTS), NULL, r->sel->group_pmu);
	}
}

/* Per event, the metrics of a group, and why events were not counted. */
static void stat_render_events(struct emit *e, const struct cli_stat_result *r)
{
	const struct measure_stat *m = r->m;
	emit_table_begin(e, NULL, "events");
	for (int i = 0; i < m->nevents; i++)
		stat_render_event_text(e, m, &m->ev[i], r->verbose, m->runs);
	emit_table_end(e);
	emit_list_begin(e, ST_KEY(EVENTS), NULL);
	for (int i = 0; i < m->nevents; i++)
		stat_render_event_json(e, m, &m->ev[i], m->runs);
	emit_list_end(e);
	if (r->sel && r->sel->nmetrics) {
		emit_table_begin(e, ST_KEY(METRICS), "metrics");
		for (int i = 0; i < r->sel->nmetrics; i++) {
			const struct stat_metric *mt = &r->sel->metric[i];
			emit_row_begin(e);
			emit_string(e, ST_KEY(MT_NAME), "metric", mt->label);
			emit_number(e, ST_KEY(MT_VALUE), "value", measure_stat_metric(r->sel, mt, m), mt->unit, "%.4g");
			emit_string(e, ST_KEY(MT_FORMULA), "formula", mt->expr);
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
		emit_string(e, ST_KEY(HW_REASON), "hardware events", m->hw_reason);
		emit_string(e, ST_KEY(HW_HINT), "to count them", stat_hw_hint);
	} else {
		emit_null(e, ST_KEY(HW_REASON), NULL, NULL);
	}
}

/* The runs with the conditions each ran in, and how many other work disturbed. */
static void stat_render_runs(struct emit *e, const struct cli_stat_result *r)
{
	const struct measure_stat *m = r->m;
	emit_table_begin(e, ST_KEY(RUNS_DETAIL), r->verbose ? "runs" : NULL);
	for (int k = 0; k < m->nrun; k++) {
		const struct stat_run *run = &m->run[k];
		emit_row_begin(e);
		emit_int(e, NULL, "run", k + 1, NULL);
		emit_int(e, ST_KEY(RUN_PASS), "batch", run->pass, NULL);
		emit_bool(e, ST_KEY(RUN_EXITED), "exited", run->exited);
		if (run->exited) {
			emit_int(e, ST_KEY(RUN_EXIT_STATUS), "status", run->status, NULL);
			emit_null(e, ST_KEY(RUN_SIGNAL), NULL, NULL);
		} else {
			emit_null(e, ST_KEY(RUN_EXIT_STATUS), NULL, NULL);
			emit_int(e, ST_KEY(RUN_SIGNAL), "status", run->status, NULL);
			emit_annotate(e, " (%s)", strsignal(run->status));
		}
		emit_number(e, ST_KEY(RUN_SECONDS), "time", run->seconds, "s", "%.4f");
		emit_string(e, ST_KEY(RUN_STDERR), NULL, run->stderr_tail);
		emit_text(e, "other processes", "%.2f CPUs%s", run->cond.foreign_cpus, run->cond.noisy ? " (noisy)" : "");
		cli_conditions_render(e, ST_KEY(RUN_COND), ST_KEY(RUN_NOISY), &run->cond);
		emit_row_end(e);
	}
	emit_table_end(e);
	int noisy = 0, first = -1;
	for (int k = 0; k < m->nrun; k++)
		if (m->run[k].cond.noisy && noisy++ == 0)
			first = k;
	emit_int(e, ST_KEY(NOISY_RUNS), noisy ? "noisy runs" : NULL, noisy, NULL);
	if (noisy)
		emit_annotate(e, " of %d (run %d: %s): their counts and times may include other work's effects", m->nrun,
			      first + 1, m->run[first].cond.why);
}

void cli_stat_render(struct emit *e, const struct cli_stat_result *r)
{
	const struct measure_stat *m = r->m;
	stat_render_head(e, r);
	stat_render_events(e, r);
	stat_render_runs(e, r);
	if (m->per_thread)
		stat_render_threads(e, m);
	if (m->interval_s > 0)
		stat_render_intervals(e, m);
	if (r->regions)
		cli_regions_render(e, r->regions, ST_KEY(REGIONS), ST_KEY(REGION_MARKS));
	if (r->cond)
		cli_stat_conditions_render(e, r->cond);
	emit_int(e, ST_KEY(FAILED), NULL, r->failed, NULL);
	emit_int(e, ST_KEY(CRASHED), NULL, r->crashed, NULL);
	emit_bool(e, ST_KEY(INTERRUPTED), NULL, m->interrupted);
	if (m->interrupted)
		emit_text(e, "interrupted", "by %s after %d of %d runs: the cut run is left out of every number above",
			  strsignal(m->signal), m->nrun, m->runs * m->passes);
	if (m->signal)
		emit_string(e, ST_KEY(SIGNAL_RECEIVED), m->interrupted ? NULL : "ended by", strsignal(m->signal));
	else
		emit_null(e, ST_KEY(SIGNAL_RECEIVED), NULL, NULL);
}

void cli_stat_conditions_render(struct emit *e, const struct stat_conditions *c)
{
	emit_object_begin(e, ST_KEY(COND), NULL);
	emit_string(e, ST_KEY(COND_STARTED), NULL, c->started);
	emit_string(e, ST_KEY(COND_ENDED), NULL, c->ended);
	render_numbers(e, ST_KEY(COND_LOAD_BEFORE), c->load_before, 3);
	render_numbers(e, ST_KEY(COND_LOAD_AFTER), c->load_after, 3);
	emit_number(e, ST_KEY(COND_CLOCK_BEFORE), NULL, c->clock_before_ghz, "GHz", NULL);
	emit_number(e, ST_KEY(COND_CLOCK_AFTER), NULL, c->clock_after_ghz, "GHz", NULL);
	emit_string(e, ST_KEY(COND_CLOCK_METHOD), NULL, "measured: the fastest of three dependent-add chains of ~0.3 ms on archscope's "
					 "own CPU, before and after the runs (core cycles, not TSC)");
	emit_number(e, ST_KEY(COND_MHZ_OS), NULL, c->cpu_mhz_os, "MHz", NULL);
	emit_string(e, ST_KEY(COND_GOVERNOR), NULL, c->governor[0] ? c->governor : NULL);
	emit_string(e, ST_KEY(COND_CPU_MODEL), NULL, c->cpu_model);
	emit_string(e, ST_KEY(COND_KERNEL), NULL, c->kernel);
	emit_string(e, ST_KEY(COND_ARCHSCOPE), NULL, ARCHSCOPE_VERSION);
	emit_string(e, ST_KEY(COND_HOSTNAME), NULL, c->hostname);
	emit_string(e, ST_KEY(COND_CPUS_ALLOWED), NULL, c->cpus_allowed);
	emit_int(e, ST_KEY(COND_CPUS_ONLINE), NULL, c->cpus_online, NULL);
	emit_object_end(e);
	emit_text(e, "conditions", "load %.2f -> %.2f, clock %.2f -> %.2f GHz (measured), governor %s, %s", c->load_before[0],
		  c->load_after[0], c->clock_before_ghz, c->clock_after_ghz, c->governor[0] ? c->governor : "none",
		  c->started);
}
