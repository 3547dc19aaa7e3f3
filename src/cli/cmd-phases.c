/* archscope phases: runs a program, samples the footprint of its process tree and its counters
 * every few ms, splits the run into phases (ramp-up, compute, ...) by segmented regression of the
 * footprint and gives every counter's total and rate in each phase (the thesis' Phasenprüfer). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/segments.h"
#include "cli/cli.h"
#include "cli/util-regions.h"
#include "cli/parse-options.h"
#include "common/interrupt.h"
#include "common/number.h"
#include "machine/result-stat-phases.h"
#include "measure/counters.h"
#include "measure/series.h"
#include "measure/stat-select.h"
#include "measure/stat-show.h"
#include "measure/stat.h"
#include "report/emit.h"
#include "report/plot.h"

/* Counted when -e is not given: software events count everywhere, hardware ones where they exist
 * (left out with a note where not). */
static const char *const phases_default_events[] = { "task-clock", "page-faults", "context-switches",
						     "instructions", "cycles" };

struct phases_opts {
	struct opt_strings events; /* -e, each may be a comma-separated list */
	double interval_ms;
	const char *segments;      /* "auto" or 1..SEGMENTS_MAX */
	int json;
	const char *plot;
	const char *out;
	int regions;               /* --regions */
};

struct phases_phase {
	double start_s, end_s, slope_bytes_per_s, rss_start_bytes, rss_end_bytes;
	double total[COUNTERS_MAX], rate[COUNTERS_MAX];
};

struct phases_report {
	char **argv;
	struct series s;
	int k_auto;                          /* K was chosen by BIC */
	double bic[SEGMENTS_MAX];
	struct segments_fit fit;
	struct phases_phase ph[SEGMENTS_MAX];
	int explicit_events;
	struct cli_regions *regions;         /* --regions; NULL without */
};

static void phases_tick(void *ctx, double t_s, double rss_bytes)
{
	(void)ctx;
	progress("phases: %.0f s, footprint %.1f MiB", t_s, rss_bytes / 1048576.0);
}

/* The signal that interrupted the run (common/interrupt.h), 0: none. */
static int phases_interrupted;

/* The events asked for: every -e value split at commas, read as stat reads them
 * (measure/stat-select.h: an empty name, as in -e '' or "a,,b" or "a,", or one given twice is bad
 * input), or the defaults. names point into sel. 0, or an exit code. */
static int phases_event_list(const struct phases_opts *o, struct stat_select *sel, const char **names, int *n)
{
	*n = 0;
	if (cli_forced_pmu_check("phases"))
		return EXIT_USAGE;
	if (o->events.n == 0) {
		for (size_t i = 0; i < sizeof(phases_default_events) / sizeof(phases_default_events[0]); i++)
			names[(*n)++] = phases_default_events[i];
		return 0;
	}
	for (int i = 0; i < o->events.n; i++) {
		struct as_error err = { 0 };
		if (measure_stat_select_add(sel, o->events.v[i], &err) != 0)
			return error_usage("phases", "-e '%s': %s", o->events.v[i], err.msg), EXIT_USAGE;
	}
	if (sel->n > COUNTERS_MAX)
		return error_usage("phases", "-e: %d events, more than the %d phases counts at once", sel->n, COUNTERS_MAX),
		       EXIT_USAGE;
	for (int i = 0; i < sel->n; i++)
		names[(*n)++] = sel->names[i];
	return 0;
}

/* Splits the run at the fitted breakpoints; the first phase starts at the exec, the last ends
 * when the program ended. */
static void phases_split(struct phases_report *r)
{
	const struct segments_fit *f = &r->fit;
	for (int p = 0; p < f->k; p++) {
		struct phases_phase *ph = &r->ph[p];
		ph->start_s = p == 0 ? 0 : f->bp[p - 1];
		ph->end_s = p == f->k - 1 ? r->s.end_s : f->bp[p];
		ph->slope_bytes_per_s = f->slope[p];
		ph->rss_start_bytes = segments_eval(f, fmax(ph->start_s, f->x0));
		ph->rss_end_bytes = segments_eval(f, fmin(ph->end_s, f->x1));
		double dt = ph->end_s - ph->start_s;
		for (int j = 0; j < r->s.nev; j++) {
			ph->total[j] = series_event_at(&r->s, j, ph->end_s) - series_event_at(&r->s, j, ph->start_s);
			ph->rate[j] = dt > 0 ? ph->total[j] / dt : NAN;
		}
	}
}

static const char *phases_event_unit(const char *name)
{
	return !strcmp(name, "task-clock") || !strcmp(name, "cpu-clock") ? "ns" : NULL;
}

/* One phase: its span, the footprint's slope and ends, and each event's total and rate. */
static void phases_render_phase(struct emit *e, const struct phases_report *r, int p)
{
	const struct series *s = &r->s;
	const struct phases_phase *ph = &r->ph[p];
	char title[96];
	snprintf(title, sizeof(title), "phase %d: %.3f s to %.3f s", p + 1, ph->start_s, ph->end_s);
	emit_object_begin(e, NULL, title);
	emit_number(e, PH_KEY(PH_START), NULL, ph->start_s, "s", "%.3f");
	emit_number(e, PH_KEY(PH_END), NULL, ph->end_s, "s", "%.3f");
	/* bytes for programs, MiB for people */
	emit_number(e, PH_KEY(PH_SLOPE), NULL, ph->slope_bytes_per_s, "B/s", NULL);
	emit_number(e, NULL, "footprint slope", ph->slope_bytes_per_s / 1048576.0, "MiB/s", "%.4g");
	emit_number(e, PH_KEY(PH_FOOT_START), NULL, ph->rss_start_bytes, "B", NULL);
	emit_number(e, NULL, "footprint at start", ph->rss_start_bytes / 1048576.0, "MiB", "%.1f");
	emit_number(e, PH_KEY(PH_FOOT_END), NULL, ph->rss_end_bytes, "B", NULL);
	emit_number(e, NULL, "footprint at end", ph->rss_end_bytes / 1048576.0, "MiB", "%.1f");
	emit_object_begin(e, PH_KEY(PH_EVENTS), "");
	for (int j = 0; j < s->nev; j++) {
		emit_object_begin(e, s->name[j], "");
		const char *u = phases_event_unit(s->name[j]);
		char rate_unit[32];
		snprintf(rate_unit, sizeof(rate_unit), "%s/s", u ? u : "");
		char label[96];
		snprintf(label, sizeof(label), "%s", s->name[j]);
		emit_number(e, PH_KEY(EV_TOTAL), label, ph->total[j], u, "%.6g");
		emit_number(e, PH_KEY(EV_RATE), NULL, ph->rate[j], rate_unit, "%.4g");
		emit_annotate(e, ", %.4g%s%s", ph->rate[j], u ? " " : "", rate_unit);
		emit_object_end(e);
	}
	emit_object_end(e);
	emit_object_end(e);
}

static void phases_render(struct emit *e, const struct phases_report *r)
{
	const struct series *s = &r->s;
	char cmd[512] = "";
	for (int i = 0; r->argv[i]; i++)
		snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), "%s%s", i ? " " : "", r->argv[i]);
	emit_string(e, PH_KEY(COMMAND), "command", cmd);
	if (s->exited)
		emit_int(e, PH_KEY(EXIT_STATUS), "exit status", s->status, NULL);
	else
		emit_null(e, PH_KEY(EXIT_STATUS), NULL, NULL);
	if (!s->exited) {
		emit_int(e, PH_KEY(SIGNAL), "ended by signal", s->status, NULL);
		emit_annotate(e, " (%s)", strsignal(s->status));
	}
	emit_number(e, PH_KEY(DURATION), "duration", s->end_s, "s", "%.3f");
	emit_number(e, PH_KEY(INTERVAL), "sample interval", s->interval_s * 1e3, "ms", "%g");
	emit_int(e, PH_KEY(SAMPLES), "samples", (long long)s->n, NULL);
	emit_number(e, PH_KEY(SAMPLER_CPU), "sampler cost", s->end_s > 0 ? 100 * s->sampler_cpu_s / s->end_s : NAN,
		    "% of a CPU", "%.2f");
	emit_int(e, PH_KEY(PROCESSES), "processes", s->procs_max, NULL);
	emit_string(e, PH_KEY(FOOTPRINT), NULL, "resident set (statm) summed over the process tree");
	emit_int(e, PH_KEY(SEGMENTS), "segments", r->fit.k, NULL);
	emit_annotate(e, r->k_auto ? " (chosen by BIC)" : " (as asked)");
	emit_string(e, PH_KEY(SEGMENTS_METHOD), NULL, r->k_auto ? "auto: continuous piecewise-linear, K <= 6 by BIC"
							   : "continuous piecewise-linear, K given");
	emit_number(e, PH_KEY(RESIDUAL), "fit residual", r->fit.sigma, "B", "%.4g");
	emit_int(e, PH_KEY(OUTLIERS), "outliers left out", (long long)r->fit.outliers, NULL);
	emit_array_begin(e, PH_KEY(BREAKPOINTS), NULL);
	for (int j = 0; j < r->fit.k - 1; j++)
		emit_number(e, NULL, NULL, r->fit.bp[j], "s", "%.3f");
	emit_array_end(e);
	emit_table_begin(e, PH_KEY(BREAKPOINTS_CI), r->fit.k > 1 ? "breakpoints with 95 % confidence intervals" : NULL);
	for (int j = 0; j < r->fit.k - 1; j++) {
		emit_tuple_begin(e);
		emit_text(e, "breakpoint", "%.3f s", r->fit.bp[j]);
		emit_number(e, NULL, "from", r->fit.bp_lo[j], "s", "%.3f");
		emit_number(e, NULL, "to", r->fit.bp_hi[j], "s", "%.3f");
		emit_row_end(e);
	}
	emit_table_end(e);
	if (r->k_auto) {
		emit_array_begin(e, PH_KEY(BIC), NULL);
		for (int k = 0; k < SEGMENTS_MAX; k++)
			emit_number(e, NULL, NULL, r->bic[k], NULL, NULL);
		emit_array_end(e);
	}
	emit_list_begin(e, PH_KEY(PHASES), "");
	for (int p = 0; p < r->fit.k; p++) {
		phases_render_phase(e, r, p);
	}
	emit_list_end(e);
	emit_table_begin(e, PH_KEY(MISSING), s->nmissing ? "events not counted" : NULL);
	for (int j = 0; j < s->nmissing; j++) {
		emit_row_begin(e);
		emit_string(e, PH_KEY(MS_EVENT), "event", s->missing[j]);
		emit_string(e, PH_KEY(MS_REASON), "reason", s->missing_why[j]);
		emit_row_end(e);
	}
	emit_table_end(e);
	if (r->regions)
		cli_regions_render(e, r->regions, PH_KEY(REGIONS), PH_KEY(REGION_MARKS));
	emit_bool(e, PH_KEY(INTERRUPTED), NULL, phases_interrupted != 0);
	if (phases_interrupted)
		emit_text(e, "interrupted", "by %s: the phases of what was sampled until the program ended",
			  strsignal(phases_interrupted));
}

static void phases_render_cb(struct emit *e, const void *ctx)
{
	phases_render(e, ctx);
}

/* --plot DIR: the footprint with the fitted segments, its breakpoints and their intervals; and
 * every counter's rate per phase. */
static void phases_plot(const struct phases_report *r, const char *dir)
{
	const struct series *s = &r->s;
	struct as_error err = { 0 };
	char path[4096];
	struct atomic_file af;
	snprintf(path, sizeof(path), "%s/phases.dat", dir);
	FILE *f = plot_data_open(path, &af);
	for (size_t i = 0; f && i < s->n; i++)
		fprintf(f, "%.6f %.6f %.6f\n", s->t_s[i], s->rss_bytes[i] / 1048576.0, segments_eval(&r->fit, s->t_s[i]) / 1048576.0);
	if (!f || plot_data_close(&af) != 0) {
		warning("cannot write '%s': %s: no picture", path, strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/phases-events.dat", dir);
	f = s->nev ? plot_data_open(path, &af) : NULL;
	for (int p = 0; f && p < r->fit.k; p++) {
		fprintf(f, "%d", p + 1);
		for (int j = 0; j < s->nev; j++)
			fprintf(f, " %.6g", r->ph[p].rate[j]);
		fprintf(f, "\n");
	}
	if (s->nev && (!f || plot_data_close(&af) != 0)) {
		warning("cannot write '%s': %s: no picture of the counters", path, strerror(errno));
		return;
	}
	char body[16384], title[600], qt[1300];
	snprintf(title, sizeof(title), "archscope phases: footprint of %s", r->argv[0]);
	int len = snprintf(body, sizeof(body),
			   "set title %s noenhanced\nset xlabel 'time since exec (s)'\n"
			   "set ylabel 'resident set of the process tree (MiB)'\nset grid\nset key top left\n",
			   plot_quote(title, qt, sizeof(qt)));
	for (int j = 0; j < r->fit.k - 1 && len < (int)sizeof(body); j++)
		len += snprintf(body + len, sizeof(body) - (size_t)len,
				"set object %d rect from %.6f, graph 0 to %.6f, graph 1 behind fc rgb '#e0e0e0' fs solid noborder\n"
				"set arrow %d from %.6f, graph 0 to %.6f, graph 1 nohead dt 2 lc rgb 'red'\n",
				j + 1, r->fit.bp_lo[j], r->fit.bp_hi[j], j + 1, r->fit.bp[j], r->fit.bp[j]);
	if (len < (int)sizeof(body))
		snprintf(body + len, sizeof(body) - (size_t)len,
			 "plot 'phases.dat' using 1:2 with points pt 7 ps 0.3 title 'sampled', "
			 "'' using 1:3 with lines lw 2 title 'fitted segments (boundaries dashed, 95 %% intervals shaded)'\n");
	int pr = plot_render(dir, "phases", body, &err);
	if (cli_plot_done(pr, dir, "phases", &err) != 0 || s->nev == 0)
		return;
	/* every counter in its own panel; plot_render draws the body once per terminal, so both
	 * pictures show every panel */
	len = snprintf(body, sizeof(body),
		       "set multiplot layout %d,1 title 'archscope phases: counter rates per phase'\n"
		       "set style fill solid 0.6\nset boxwidth 0.6\nset xtics 1\nset xrange [0.5:%d.5]\nset grid ytics\n",
		       s->nev, r->fit.k);
	for (int j = 0; j < s->nev && len < (int)sizeof(body); j++) {
		const char *u = phases_event_unit(s->name[j]);
		char yl[300], qy[700];
		snprintf(yl, sizeof(yl), "%s %s/s", s->name[j], u ? u : "");
		len += snprintf(body + len, sizeof(body) - (size_t)len,
				"set ylabel %s noenhanced\nplot 'phases-events.dat' using 1:%d with boxes notitle\n",
				plot_quote(yl, qy, sizeof(qy)), j + 2);
	}
	if (len < (int)sizeof(body))
		snprintf(body + len, sizeof(body) - (size_t)len, "unset multiplot\n");
	pr = plot_render(dir, "phases-events", body, &err);
	cli_plot_done(pr, dir, "phases-events", &err);
}

static const char *const phases_usage[] = {
	"archscope phases [-e EV,...] [--interval MS] [--segments K|auto] [-o FILE] [--json] [--plot DIR] [--regions] -- CMD [ARG...]",
	NULL,
};

static const struct opt_cmd phases_cmd = {
	.name = "phases",
	.usage = phases_usage,
	.description =
		"Runs CMD and samples the resident set of its whole process tree (/proc/PID/statm) and its\n"
		"counters at the same instants, every 10 ms by default. A continuous piecewise-linear fit of\n"
		"the footprint splits the run into phases (2 by default: ramp-up and compute); each phase gets\n"
		"its start, end, footprint slope, and every counter's total and rate within it. The report goes\n"
		"to stderr (or -o FILE as JSON); CMD's stdout stays its own. The thesis' Phasenpruefer.\n",
	.epilog = "Counters are inherited by every thread and child of CMD and count from its exec; without -e\n"
		  "phases counts task-clock, page-faults, context-switches and, where the machine has them,\n"
		  "instructions and cycles. Ctrl-C or SIGTERM goes to CMD's process group; what was sampled until\n"
		  "it ended is analysed, marked interrupted, and phases exits 130. See docs/archscope-phases.md.\n",
	.flags = OPT_CMD_STOP_AT_NON_OPTION,
};

/* The options checked and the events chosen, before anything runs: *k the segments asked (0: auto),
 * names[*nev] the events. 0, or an exit code after error(). */
static int phases_prepare(const struct phases_opts *o, struct stat_select *sel, int *k, const char **names, int *nev)
{
	*k = 0;
	if (cli_output_dir_check("phases", "--plot", o->plot) != 0)
		return EXIT_USAGE;
	if (strcmp(o->segments, "auto") != 0) {
		int v;
		if (number_parse_int(o->segments, 1, SEGMENTS_MAX, &v) != 0)
			return error_usage("phases", "--segments must be 1 to %d or auto, got '%s'", SEGMENTS_MAX,
					   o->segments),
			       EXIT_USAGE;
		*k = (int)v;
	}
	int rc = phases_event_list(o, sel, names, nev);
	if (rc)
		return rc;
	/* a name no event table knows is a typo: say so before running anything */
	for (int j = 0; j < *nev; j++) {
		uint32_t type;
		uint64_t config;
		struct as_error e2 = { 0 };
		if (counters_encode(names[j], &type, &config, NULL, 0, &e2) == -ENOENT)
			return error_usage("phases", "unknown event '%s' (%s)", names[j], e2.msg), EXIT_USAGE;
	}
	/* where the results go is checked before anything runs */
	if (o->out && cli_output_check("phases", o->out, 0) != 0)
		return EXIT_USAGE;
	struct as_error err = { 0 };
	if (o->plot && plot_dir_prepare(o->plot, &err) != 0)
		return error_usage("phases", "--plot: %s", err.msg), EXIT_USAGE;
	return 0;
}

/* The footprint's segments: k of them (0: as many as BIC chooses). 0, or EXIT_FAIL after error()
 * when the samples are too few or the fit fails. */
static int phases_fit(struct phases_report *r, int k, double interval_ms)
{
	const char *prog = r->argv[0];
	struct as_error err = { 0 };
	if (r->s.n < 3)
		return error("'%s' ran %.0f ms, less than three sampling intervals of %g ms: %zu samples are too few to "
			     "find phases (a smaller --interval gives more)",
			     prog, r->s.end_s * 1e3, interval_ms, r->s.n),
		       EXIT_FAIL;
	if (k && r->s.n < segments_min_points(k))
		return error("%d segments need at least %zu samples and '%s' gave %zu in %.0f ms: ask for fewer --segments "
			     "or a smaller --interval",
			     k, segments_min_points(k), prog, r->s.n, r->s.end_s * 1e3),
		       EXIT_FAIL;
	int frc = k ? segments_fit(r->s.t_s, r->s.rss_bytes, r->s.n, k, &r->fit, &err)
		    : segments_fit_auto(r->s.t_s, r->s.rss_bytes, r->s.n, SEGMENTS_MAX, &r->fit, r->bic, &err);
	if (frc)
		return error_err(&err), EXIT_FAIL;
	return 0;
}

static int phases_main(int argc, char **argv, struct stat_select *sel)
{
	struct phases_opts o = { .interval_ms = 10, .segments = "2" };
	const struct opt options[] = {
		OPT_STRINGS('e', "events", &o.events, "EV,...", "events to count (libpfm4 or perf names; repeatable)"),
		OPT_DOUBLE(0, "interval", &o.interval_ms, "MS", 1, 10000, "sample every MS milliseconds (default 10)"),
		OPT_STRING(0, "segments", &o.segments, "K|auto", "phases to fit: 1 to 6, or auto (BIC; default 2)"),
		OPT_STRING('o', "output", &o.out, "FILE", "write the JSON result to FILE (atomically), not to stderr"),
		OPT_FLAG(0, "regions", &o.regions, "also count the regions the program marks (LIKWID marker API, archscope-marker.h)"),
		OPT_JSON(&o.json),
		OPT_PLOT(&o.plot),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &phases_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc == 0)
		return error_usage("phases", "give the program to run after --"), EXIT_USAGE;
	int k;
	const char *names[COUNTERS_MAX];
	int nev;
	int rc = phases_prepare(&o, sel, &k, names, &nev);
	if (rc)
		return rc;
	struct as_error err = { 0 };
	struct cli_regions reg;
	struct phases_report r = { .argv = argv, .k_auto = k == 0, .explicit_events = o.events.n > 0,
				   .regions = o.regions ? &reg : NULL };
	if (o.regions && cli_regions_begin(&reg) != 0)
		return EXIT_FAIL;
	struct series_opts so = { .interval_s = o.interval_ms / 1e3, .events = names, .nevents = nev, .own_group = 1,
				 .keep_stdout = 1, .tick = phases_tick };
	interrupt_install();
	rc = series_record(argv, &so, &r.s, &err);
	phases_interrupted = interrupt_signal() ? interrupt_signal() : r.s.tty_sigint ? SIGINT : 0;
	progress_done();
	if (o.regions) /* what the program marked until a signal ended it is kept, as its samples are */
		cli_regions_end(&reg, 1);
	if (rc) {
		interrupt_restore();
		error_err(&err);
		series_release(&r.s);
		if (o.regions)
			cli_regions_release(&reg);
		return phases_interrupted ? INTERRUPT_EXIT
		       : rc == -ENOENT || rc == -EACCES || rc == -ENOEXEC ? EXIT_USAGE
									: EXIT_FAIL;
	}
	for (int j = 0; j < r.s.nmissing; j++)
		if (r.explicit_events)
			note("event '%s' not counted: %s", r.s.missing[j], r.s.missing_why[j]);
	if (!r.s.exited)
		note("'%s' was ended by signal %d (%s)", argv[0], r.s.status, strsignal(r.s.status));
	else if (r.s.status)
		note("'%s' exited with status %d", argv[0], r.s.status);
	rc = EXIT_FAIL;
	if (phases_fit(&r, k, o.interval_ms) != 0)
		goto out;
	phases_split(&r);
	if (o.plot)
		phases_plot(&r, o.plot);
	rc = cli_report_deliver("phases", o.out, o.json, phases_interrupted != 0, phases_render_cb, &r);
out:
	interrupt_restore();
	series_release(&r.s);
	if (o.regions)
		cli_regions_release(&reg);
	if (phases_interrupted)
		return INTERRUPT_EXIT;
	return rc;
}

int cmd_phases(int argc, char **argv)
{
	struct stat_select sel; /* the -e events: their names live until the result is printed */
	measure_stat_select_init(&sel);
	int rc = phases_main(argc, argv, &sel);
	measure_stat_select_release(&sel);
	return rc;
}
