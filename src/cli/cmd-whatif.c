/* archscope whatif: causal profiles (Coz's virtual speedups, across process trees): options, the
 * runs (scale/whatif.h), then the curves of each site as text or JSON, and the Coz plot. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/parse-options.h"
#include "cli/util-whatif.h"
#include "common/atomicfile.h"
#include "common/interrupt.h"
#include "machine/result-whatif.h"
#include "report/emit.h"
#include "report/plot.h"
#include "scale/run.h"
#include "scale/whatif.h"

/* --speedups 0.25,0.5,1 or percentages 25,50,100: increasing, each in (0, 1]. */
static int speedups_cb(const struct opt *o, const char *arg, const char *value)
{
	(void)value;
	struct whatif_opts *wo = o->value;
	char why[200];
	if (whatif_speedups_parse(arg, wo->speedups, &wo->nspeedups, why, sizeof(why)) != 0) {
		error("--speedups '%s': %s", arg, why);
		return -1;
	}
	return 0;
}

static void whatif_progress(void *ctx, const char *what, int run, int runs)
{
	(void)ctx;
	progress("whatif: run %d of %d: %s", run + 1, runs, what);
}

static const struct opt_cmd whatif_cmd = {
	.name = "whatif",
	.usage = (const char *const[]){ "archscope whatif [--by line|function] [--sites N] [--speedups LIST] [--rounds R] "
					"[--json] [--plot DIR] -- CMD ARGS",
					NULL },
	.description =
		"Causal profile (Coz): how much faster would CMD be if this code were faster? A profiling\n"
		"run samples where CMD's threads spend their CPU time and picks the top sites (source\n"
		"lines, or functions with --by function); then each round runs CMD once per site and line\n"
		"speedup with that site virtually sped up (while one thread runs it, every other thread of\n"
		"every process of CMD's tree is paused by the same amount), with a baseline run before\n"
		"each site. Progress is the run's wall time less the inserted delays, or the program's\n"
		"Coz progress points (COZ_PROGRESS, COZ_BEGIN/COZ_END from coz.h, unchanged). Per site and\n"
		"line speedup it prints the program's speedup with a 95 % confidence interval over the\n"
		"rounds. Programs need debug information (-g) for file:line. CMD's own output is not shown.\n"
		"Ctrl-C prints the rounds finished so far and exits 130.\n",
	.flags = OPT_CMD_STOP_AT_NON_OPTION,
};

/* A site's note when its curve cannot be told (item 4): the numbers, and what to change. */
static void site_note(const struct whatif_site *s, const struct whatif_opts *o, char *buf, size_t len)
{
	buf[0] = 0;
	const struct whatif_curve_point *top = s->npts ? &s->pts[s->npts - 1] : NULL;
	if (s->verdict == WHATIF_FEW && s->samples >= WHATIF_MIN_SAMPLES)
		snprintf(buf, len, "%ld profiling samples in it, none in its own rounds: no delay was inserted (its code was not "
			 "run then, or its module was not found in the processes)", s->samples);
	else if (s->verdict == WHATIF_FEW)
		snprintf(buf, len, "%ld profiling samples in it (fewer than %d): run the program longer (a thread samples itself "
			 "at most once a kernel tick, whatever --sample-period, now %g ms, asks)", s->samples, WHATIF_MIN_SAMPLES,
			 o->period_ms);
	else if (s->verdict == WHATIF_NOISE && top && top->ci == top->ci)
		snprintf(buf, len, "at line speedup %.0f %% the program speedup is %+.1f %% ± %.1f %%: within the runs' noise; "
			 "more rounds (--rounds, now %d) or a longer run narrow it", 100 * top->line_speedup,
			 100 * top->program_speedup, 100 * top->ci, o->rounds);
	else if (s->verdict == WHATIF_NOISE)
		snprintf(buf, len, "no confidence interval: fewer than 2 runs finished per point; use --rounds 2 or more");
}

static void site_render(struct emit *e, const struct whatif_site *s, const struct whatif_opts *o)
{
	char title[300];
	snprintf(title, sizeof(title), "site %s", s->where);
	emit_object_begin(e, NULL, title);
	emit_string(e, WR_KEY(SITE), "site", s->where);
	emit_string(e, WR_KEY(SITE_BINARY), "binary", s->path);
	emit_int(e, WR_KEY(SITE_SAMPLES), "profiling samples", s->samples, NULL);
	emit_number(e, WR_KEY(SITE_SHARE), "share of the samples", s->share, NULL, "%.3f");
	emit_string(e, WR_KEY(SITE_VERDICT), "verdict", whatif_verdict_names[s->verdict]);
	char note_buf[400];
	site_note(s, o, note_buf, sizeof(note_buf));
	if (note_buf[0])
		emit_string(e, WR_KEY(SITE_NOTE), "note", note_buf);
	emit_table_begin(e, WR_KEY(POINTS), "");
	for (int k = 0; k < s->npts; k++) {
		const struct whatif_curve_point *p = &s->pts[k];
		emit_row_begin(e);
		emit_number(e, WR_KEY(PT_LINE), "line speedup", p->line_speedup, NULL, "%.2f");
		emit_number(e, WR_KEY(PT_PROGRAM), "program speedup", p->program_speedup, NULL, "%+.3f");
		emit_number(e, WR_KEY(PT_CI), "± (95 %)", p->ci, NULL, "%.3f");
		emit_int(e, WR_KEY(PT_RUNS), "runs", p->n, NULL);
		emit_int(e, WR_KEY(PT_NOISY), "noisy", p->noisy, NULL);
		emit_number(e, WR_KEY(PT_SITE_SAMPLES), "site samples per run", p->site_samples, NULL, "%.0f");
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_object_end(e);
}

/* The OpenMP runtimes' waits the profile saw: named, never tried (a wait is not worth optimizing). */
static void waiting_render(struct emit *e, const struct whatif_result *r)
{
	emit_table_begin(e, WR_KEY(WAITING), "waiting in an OpenMP runtime (never worth optimizing: the work waited for is)");
	for (int i = 0; i < r->nwaiting; i++) {
		emit_row_begin(e);
		emit_string(e, WR_KEY(WAIT_SITE), "site", r->waiting[i].where);
		emit_int(e, WR_KEY(WAIT_SAMPLES), "profiling samples", r->waiting[i].samples, NULL);
		emit_number(e, WR_KEY(WAIT_SHARE), "share", r->waiting[i].share, NULL, "%.3f");
		emit_row_end(e);
	}
	emit_table_end(e);
}

/* The notes on the whole answer: never an empty one (item 4). */
static void notes_render(struct emit *e, const struct whatif_result *r, const struct whatif_opts *o)
{
	char buf[600];
	emit_array_begin(e, WR_KEY(NOTES), "notes");
	if (r->nsites == 0 && r->runs_failed == 0) {
		snprintf(buf, sizeof(buf), "no site: the profiling run (%.3f s) took %ld samples, none in code with a symbol%s; "
			 "run the program longer, build it with -g, or sample more often (--sample-period, now %g ms)",
			 r->profile_wall_s, r->profile_samples, o->by_function ? "" : " and line information", o->period_ms);
		emit_string(e, NULL, "", buf);
	}
	if (o->progress_point && strcmp(r->progress, o->progress_point) != 0) {
		snprintf(buf, sizeof(buf), "no progress point '%s' in the program (it has: %s): measured by its wall time",
			 o->progress_point, r->points_seen[0] ? r->points_seen : "none");
		emit_string(e, NULL, "", buf);
	}
	if (r->runs_failed) {
		snprintf(buf, sizeof(buf), "%d of %d runs failed (first: %s %d) and were left out%s%s", r->runs_failed, r->runs,
			 r->first_signal ? "signal" : "exit status", r->first_signal ? r->first_signal : r->first_status,
			 r->err_head[0] ? "; its stderr: " : "", r->err_head);
		emit_string(e, NULL, "", buf);
	}
	if (r->runs_noisy) {
		snprintf(buf, sizeof(buf), "%d of %d runs were disturbed (the first: %s): their spread widens the intervals; "
			 "a quieter machine or more --rounds narrow them", r->runs_noisy, r->runs, r->noisy_why);
		emit_string(e, NULL, "", buf);
	}
	if (r->delay_share_max > 0.75) {
		snprintf(buf, sizeof(buf), "a run spent %.0f %% of its wall time in inserted delays: the effective times are "
			 "differences of large numbers, whose noise widens the intervals", 100 * r->delay_share_max);
		emit_string(e, NULL, "", buf);
	}
	if (r->interrupted) {
		snprintf(buf, sizeof(buf), "interrupted by signal %d: the rounds finished before it are shown", r->interrupted);
		emit_string(e, NULL, "", buf);
	}
	emit_array_end(e);
}

static void whatif_render(struct emit *e, const struct whatif_result *r, const struct whatif_opts *o)
{
	double m = NAN, sd = 0, sum = 0, q = 0;
	int n = 0;
	for (int i = 0; i < r->base.n; i++)
		if (r->base.period_s[i] == r->base.period_s[i]) {
			sum += r->base.period_s[i];
			n++;
		}
	m = n ? sum / n : NAN;
	for (int i = 0; i < r->base.n; i++)
		if (r->base.period_s[i] == r->base.period_s[i])
			q += (r->base.period_s[i] - m) * (r->base.period_s[i] - m);
	sd = n > 1 ? sqrt(q / (n - 1)) : NAN;
	emit_string(e, WR_KEY(PROGRAM), "program", o->argv[0]);
	emit_string(e, WR_KEY(BY), "sites are", o->by_function ? "function" : "line");
	emit_string(e, WR_KEY(PROGRESS), "progress", r->progress);
	emit_string(e, WR_KEY(PROGRESS_KIND), "progress kind",
		    r->latency ? "latency" : r->throughput ? "throughput" : "end_to_end");
	if (r->visits_runs)
		emit_number(e, WR_KEY(VISITS), "progress point visits per run", r->visits_mean, NULL, "%.1f");
	emit_int(e, WR_KEY(ROUNDS), "rounds", o->rounds, NULL);
	emit_number(e, WR_KEY(PERIOD), "sample period (thread CPU time)", o->period_ms, "ms", "%g");
	emit_int(e, WR_KEY(PROFILE_SAMPLES), "profiling samples", r->profile_samples, NULL);
	emit_number(e, WR_KEY(PROFILE_WALL), "profiling run", r->profile_wall_s, "s", "%.3f");
	cli_conditions_render(e, WR_KEY(PROFILE_COND), WR_KEY(PROFILE_NOISY), &r->profile_cond);
	emit_int(e, WR_KEY(RUNS_NOISY), "runs disturbed by other load", r->runs_noisy, NULL);
	emit_number(e, WR_KEY(BASE_MEAN), "baseline, per unit of progress", m, "s", "%.4g");
	emit_number(e, WR_KEY(BASE_SPREAD), "baseline spread (rel. sd)", m > 0 ? sd / m : NAN, NULL, "%.3f");
	emit_int(e, WR_KEY(BASE_RUNS), "baseline runs", n, NULL);
	emit_int(e, WR_KEY(RUNS), "runs", r->runs, NULL);
	emit_int(e, WR_KEY(RUNS_FAILED), "runs failed", r->runs_failed, NULL);
	emit_int(e, WR_KEY(PROCESSES), "processes sharing the delays (most)", r->processes_max, NULL);
	emit_number(e, WR_KEY(DELAY_SHARE), "inserted delay / wall time (most)", r->delay_share_max, NULL, "%.3f");
	emit_list_begin(e, WR_KEY(SITES), "");
	for (int s = 0; s < r->nsites; s++)
		site_render(e, &r->sites[s], o);
	emit_list_end(e);
	waiting_render(e, r);
	notes_render(e, r, o);
	if (r->interrupted)
		emit_bool(e, WR_KEY(INTERRUPTED), "interrupted", 1);
}

static int whatif_finish(const struct whatif_result *r, const struct whatif_opts *o, int json, const char *plot)
{
	struct emit *e = emit_new(json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (!e)
		return error("out of memory"), EXIT_FAIL;
	whatif_render(e, r, o);
	int code = cli_emit_end(e, "whatif");
	cli_conditions_summary();
	if (plot)
		cli_whatif_plot(plot, r, 0);
	if (r->interrupted) {
		error("interrupted by signal %d: printed the rounds finished before it", r->interrupted);
		return INTERRUPT_EXIT;
	}
	if (code == EXIT_OK && r->runs_failed && (r->nsites == 0 || r->runs_failed == r->runs)) {
		error("'%s' failed (%s %d)%s%s", o->argv[0], r->first_signal ? "signal" : "exit status",
		      r->first_signal ? r->first_signal : r->first_status, r->err_head[0] ? ": " : "", r->err_head);
		code = EXIT_FAIL;
	}
	return code;
}

static const char *const by_names[] = { "line", "function", NULL };

int cmd_whatif(int argc, char **argv)
{
	struct whatif_opts wo = { .nsites = 3, .rounds = 3, .period_ms = 1, .timeout_s = 600 };
	int json = 0, by = 0;
	const char *plot = NULL;
	struct opt opts[] = {
		OPT_CHOICE(0, "by", &by, "line|function", by_names, "what a site is (default line)"),
		OPT_INT(0, "sites", &wo.nsites, "N", 1, WHATIF_SITES_MAX, "the N most sampled sites are tried (default 3)"),
		OPT_CALLBACK(0, "speedups", &wo, "LIST",
			     "line speedups to try, fractions or percentages (default 0.1,0.2,...,1)", speedups_cb),
		OPT_INT('r', "rounds", &wo.rounds, "R", 1, 16, "runs of each site and line speedup (default 3)"),
		OPT_DOUBLE(0, "sample-period", &wo.period_ms, "MS", 0.05, 100,
			   "one sample per MS ms of a thread's CPU time (default 1)"),
		OPT_STRING(0, "progress-point", &wo.progress_point, "NAME",
			   "measure by this Coz progress point (default: the first one the program has, else wall time)"),
		OPT_DOUBLE(0, "timeout", &wo.timeout_s, "S", 0, 1e6, "stop a run after S seconds (default 600; 0: never)"),
		OPT_JSON(&json),
		OPT_PLOT(&plot),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	int n = opt_parse(argc, argv, &whatif_cmd, opts);
	if (n < 0)
		return opt_exit_code(n);
	if (n == 0)
		return error_usage("whatif", "no program to run: archscope whatif [options] -- CMD ARGS"), EXIT_USAGE;
	if (cli_output_dir_check("whatif", "--plot", plot) != 0)
		return EXIT_USAGE;
	if (wo.nsites * wo.rounds > WHATIF_ROUNDS_MAX)
		return error_usage("whatif", "--sites %d x --rounds %d: at most %d baseline runs (fewer sites or rounds)",
				   wo.nsites, wo.rounds, WHATIF_ROUNDS_MAX), EXIT_USAGE;
	if (!wo.nspeedups)
		for (int i = 1; i <= 10; i++)
			wo.speedups[wo.nspeedups++] = i / 10.0;
	wo.argv = argv;
	wo.by_function = by == 1;
	wo.progress = whatif_progress;
	struct as_error err = { 0 };
	char preload[4096];
	if (scale_preload_find(preload, sizeof(preload), &err) != 0)
		return error_err(&err), err.code == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
	wo.preload = preload;
	struct whatif_result *res = calloc(1, sizeof(*res));
	if (!res)
		return error("out of memory"), EXIT_FAIL;
	interrupt_install();
	int rc = whatif_run(&wo, res, &err);
	interrupt_restore();
	progress_done();
	if (rc) {
		free(res);
		error_err(&err);
		return rc == -ENOENT ? EXIT_USAGE : EXIT_FAIL;
	}
	int code = whatif_finish(res, &wo, json, plot);
	free(res);
	return code;
}
