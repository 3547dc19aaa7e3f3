/* archscope stat: counts a program's events over repeated runs (EvSel, NUMA thesis §4.1) and
 * shows per event the per-run values, mean, standard deviation, min and max; `compare` and
 * `regress` read or reuse what it measures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/parse-options.h"
#include "cli/stat.h"
#include "common/atomicfile.h"
#include "measure/stat-select.h"
#include "measure/stat.h"
#include "report/emit.h"

static const char *const stat_hw_hint =
	"hardware events need a PMU: bare metal, a VM with PMU pass-through (KVM: -cpu host,pmu=on; "
	"VMware: virtualize CPU performance counters), and kernel.perf_event_paranoid <= 2 (or root)";

static void stat_render_event_text(struct emit *e, const struct stat_event *ev, int verbose, int runs)
{
	emit_row_begin(e);
	emit_string(e, NULL, "event", ev->name);
	if (!ev->available || ev->n == 0) {
		emit_text(e, "mean", "<not counted>");
		emit_text(e, "stddev", "%s", "");
		emit_text(e, "min", "%s", "");
		emit_text(e, "max", "%s", "");
	} else {
		/* text only: times in ms, which people read faster than 1.2e+07 ns */
		double k = !strcmp(ev->unit, "ns") ? 1e-6 : !strcmp(ev->unit, "us") ? 1e-3 : 1;
		const char *unit = k != 1 ? "ms" : ev->unit;
		emit_number(e, NULL, "mean", ev->mean * k, unit, k != 1 ? "%.3f" : "%.6g");
		if (isnan(ev->stddev))
			emit_text(e, "stddev", "-");
		else
			emit_text(e, "stddev", "± %.2f %%", ev->mean != 0 ? 100 * ev->stddev / fabs(ev->mean) : 0.0);
		emit_number(e, NULL, "min", ev->min * k, NULL, k != 1 ? "%.3f" : "%.6g");
		emit_number(e, NULL, "max", ev->max * k, NULL, k != 1 ? "%.3f" : "%.6g");
	}
	emit_int(e, NULL, "n", ev->n, NULL);
	const char *note = !ev->available ? (ev->hardware ? "no PMU here (see below)" : "cannot open (see below)")
			   : ev->n == 0 ? "not counted"
			   : ev->multiplexed ? "multiplexed: scaled"
			   : ev->zero ? "zero"
			   : ev->constant ? "constant"
			   : "";
	emit_text(e, "note", "%s", note);
	if (verbose) {
		char buf[1024] = "";
		size_t used = 0;
		for (int k = 0; k < runs && used < sizeof(buf) - 32; k++)
			used += (size_t)(isnan(ev->values[k]) ? snprintf(buf + used, sizeof(buf) - used, "%s<not counted>", k ? " " : "")
							      : snprintf(buf + used, sizeof(buf) - used, "%s%.6g", k ? " " : "", ev->values[k]));
		emit_text(e, "values", "%s", buf);
	}
	emit_row_end(e);
}

static void stat_render_event_json(struct emit *e, const struct stat_event *ev, int runs)
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
			emit_number(e, NULL, m->ev[i].name, n ? sum / n : NAN, NULL, "%.6g");
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

void stat_render(struct emit *e, const struct stat_result *r)
{
	const struct measure_stat *m = r->m;
	emit_string(e, "command", "command", r->command);
	emit_int(e, "runs", "runs", m->runs, NULL);
	if (m->passes > 1)
		emit_annotate(e, " per batch, %d batches of events", m->passes);
	emit_int(e, "passes", NULL, m->passes, NULL);
	emit_string(e, "modes", "counted in", m->kernel ? "user and kernel mode" : "user mode");
	if (r->sel && r->sel->group[0]) {
		emit_string(e, "group", "group", r->sel->group);
		emit_annotate(e, ": %s (%s events)", r->sel->group_title, r->sel->group_pmu);
		emit_string(e, "group_events", NULL, r->sel->group_pmu);
	}
	emit_table_begin(e, NULL, "events");
	for (int i = 0; i < m->nevents; i++)
		stat_render_event_text(e, &m->ev[i], r->verbose, m->runs);
	emit_table_end(e);
	emit_list_begin(e, "events", NULL);
	for (int i = 0; i < m->nevents; i++)
		stat_render_event_json(e, &m->ev[i], m->runs);
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
	emit_int(e, "failed_runs", NULL, r->failed, NULL);
	emit_int(e, "crashed_runs", NULL, r->crashed, NULL);
	emit_bool(e, "interrupted", NULL, m->interrupted);
}

void stat_summarise_runs(struct stat_result *r)
{
	r->failed = r->crashed = 0;
	for (int k = 0; k < r->m->nrun; k++) {
		const struct stat_run *run = &r->m->run[k];
		r->failed += run->exited && run->status != 0;
		r->crashed += !run->exited;
	}
}

/* The program's outcome as notes; EXIT_FAIL when a run failed or crashed. */
int stat_report_program(const struct stat_result *r)
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
		note("interrupted: %d of %d runs measured", m->nrun, m->runs * m->passes);
	return rc;
}

static const char *const stat_usage[] = {
	"archscope stat [-e EVENT,...|--all|-M GROUP] [-r RUNS] [--per-thread] [-o FILE] [--json] -- COMMAND [ARGS...]", NULL
};
static const struct opt_cmd stat_cmd = {
	.name = "stat",
	.usage = stat_usage,
	.description =
		"Runs COMMAND RUNS times with its events counted from its exec (perf_event_open, inherited by its\n"
		"threads and children) and shows per event the mean, standard deviation (Bessel), min, max and the\n"
		"per-run values. Hardware events are packed into groups that open together; more groups than fit\n"
		"count in further batches of RUNS runs, never multiplexed silently (a scaled value is flagged).\n"
		"An event that did not count is <not counted> (null in JSON), never 0. rusage, the main thread's\n"
		"schedstat and the wall time are always shown. The program's stdout passes through (to stderr\n"
		"with --json), its stderr is copied to stderr and kept; a failing or crashing program is reported\n"
		"and archscope exits 1.\n",
	.epilog = "Without -e the events are perf stat's default set. Groups (-M) are data files in share/groups.\n"
		  "Save a run with -o FILE (JSON, written atomically) and compare two with 'archscope compare'.\n",
	.flags = OPT_CMD_STOP_AT_NON_OPTION,
};

int cmd_stat(int argc, char **argv)
{
	struct stat_args a = { 0 };
	int runs = 5, json = 0, verbose = 0, per_thread = 0;
	const char *out = NULL;
	const struct opt options[] = {
		OPT_STRINGS('e', "event", &a.events, "EVENT", "events to count (repeatable, comma lists; libpfm4 or perf names)"),
		OPT_FLAG(0, "all", &a.all, "every event of this CPU's PMUs and every software event"),
		OPT_STRING('M', "metrics", &a.group, "GROUP", "a metric group from share/groups (FLOPS, MEM, L2, L3, BRANCH)"),
		OPT_INT('r', "repeat", &runs, "RUNS", 1, 100000, "runs per batch of events (default 5)"),
		OPT_FLAG(0, "per-thread", &per_thread, "also count each thread and child process by itself (ptrace)"),
		OPT_STRING('o', "output", &out, "FILE", "also write the JSON result to FILE (atomically)"),
		OPT_COUNTER('v', "verbose", &verbose, "show the per-run values and the runs"),
		OPT_JSON(&json),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &stat_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc < 1) {
		error_usage("stat", "a command to run is required (archscope stat -- COMMAND ...)");
		return EXIT_USAGE;
	}
	struct stat_select sel;
	int rc = stat_select_from_args("stat", &a, &sel);
	if (rc)
		return rc;
	struct measure_stat m;
	char cmdline[1024];
	stat_command_line(argv, cmdline, sizeof(cmdline));
	rc = stat_measure(&m, &sel, runs, argv, json, per_thread);
	if (rc) {
		measure_stat_release(&m);
		stat_select_release(&sel);
		return rc;
	}
	struct stat_result r = { .command = cmdline, .m = &m, .sel = &sel, .verbose = verbose };
	stat_summarise_runs(&r);
	if (out) {
		char *buf = NULL;
		size_t len = 0;
		FILE *ms = open_memstream(&buf, &len);
		struct emit *e = ms ? emit_new(EMIT_JSON, ms) : NULL;
		if (e) {
			stat_render(e, &r);
			rc = cli_emit_end(e, "stat");
		} else {
			rc = error("out of memory");
		}
		if (ms)
			fclose(ms);
		struct as_error err = { 0 };
		if (rc == 0 && atomic_file_write(out, buf, len, &err) != 0)
			rc = error_err(&err);
		free(buf);
		if (rc) {
			measure_stat_release(&m);
			stat_select_release(&sel);
			return EXIT_FAIL;
		}
	}
	struct emit *e = emit_new(json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (!e) {
		rc = error("out of memory");
	} else {
		stat_render(e, &r);
		rc = cli_emit_end(e, "stat");
	}
	if (rc == EXIT_OK)
		rc = stat_report_program(&r);
	measure_stat_release(&m);
	stat_select_release(&sel);
	return rc ? EXIT_FAIL : EXIT_OK;
}
