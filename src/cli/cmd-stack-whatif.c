/* `stack --whatif`: whatif's rounds on the stack's program at the stack's thread count
 * (scale/whatif.h, whatif_run_threads), each site printed as one line beside the stack: its line
 * speedup, the program's speedup with its interval, and its critical-path share. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd-stack-whatif.h"
#include "cli/parse-options.h"
#include "machine/result-stack.h"
#include "report/emit.h"

void cli_stack_whatif_init(struct stack_whatif *w)
{
	memset(w, 0, sizeof(*w));
	w->wo.nsites = 2;
	w->wo.rounds = 2;
	w->wo.period_ms = 1;
	w->wo.speedups[0] = 0.5;
	w->wo.speedups[1] = 1;
	w->wo.nspeedups = 2;
}

int cli_stack_whatif_speedups_cb(const struct opt *o, const char *arg, const char *value)
{
	(void)value;
	struct stack_whatif *w = o->value;
	char why[200];
	if (whatif_speedups_parse(arg, w->wo.speedups, &w->wo.nspeedups, why, sizeof(why)) != 0) {
		error("--whatif-speedups '%s': %s", arg, why);
		return -1;
	}
	return 0;
}

static void whatif_progress(void *ctx, const char *what, int run, int runs)
{
	const struct stack_whatif *w = ctx;
	progress("stack --whatif: %d thread%s, run %d of %d: %s", w->threads, w->threads == 1 ? "" : "s", run + 1, runs,
		 what);
}

int cli_stack_whatif_run(struct stack_whatif *w, const struct scale_opts *so, struct as_error *err)
{
	w->res = calloc(1, sizeof(*w->res));
	if (!w->res)
		return as_error_set(err, -ENOMEM, "out of memory");
	w->threads = whatif_threads_for_stack(so->threads, so->npoints);
	w->wo.argv = so->argv;
	w->wo.preload = so->preload;
	w->wo.timeout_s = so->timeout_s;
	w->wo.progress = whatif_progress;
	w->wo.ctx = w;
	return whatif_run_threads(&w->wo, w->threads, w->res, err);
}

void cli_stack_whatif_release(struct stack_whatif *w)
{
	free(w->res);
	w->res = NULL;
}

/* The one line of a site beside the stack: "line X: +50 % -> program +28.1 % (±9.0), stack: it
 * is on the critical path 74 % of the time". */
static void site_sentence(const struct whatif_site *s, int by_function, char *buf, size_t len)
{
	const struct whatif_curve_point *p = whatif_site_top(s);
	int k = snprintf(buf, len, "%s %s: ", by_function ? "function" : "line", s->where);
	if (k < 0 || (size_t)k >= len)
		return;
	if (p && p->ci == p->ci)
		k += snprintf(buf + k, len - (size_t)k, "+%.0f %% -> program %+.1f %% (±%.1f)", 100 * p->line_speedup,
			      100 * p->program_speedup, 100 * p->ci);
	else if (p)
		k += snprintf(buf + k, len - (size_t)k, "+%.0f %% -> program %+.1f %% (± not known: one run)",
			      100 * p->line_speedup, 100 * p->program_speedup);
	else
		k += snprintf(buf + k, len - (size_t)k, "no run finished");
	if (k < 0 || (size_t)k >= len)
		return;
	if (s->crit_share == s->crit_share)
		snprintf(buf + k, len - (size_t)k, ", stack: it is on the critical path %.0f %% of the time",
			 100 * s->crit_share);
	else
		snprintf(buf + k, len - (size_t)k, ", stack: its critical-path share is not known");
}

static void site_render(struct emit *e, const struct whatif_site *s, int by_function)
{
	char line[600];
	site_sentence(s, by_function, line, sizeof(line));
	const struct whatif_curve_point *top = whatif_site_top(s);
	emit_object_begin(e, NULL, line);
	emit_string(e, SR_KEY(WI_SITE), "site", s->where);
	emit_int(e, SR_KEY(WI_SITE_SAMPLES), "profiling samples", s->samples, NULL);
	emit_number(e, SR_KEY(WI_SITE_SHARE), "share of the samples", s->share, NULL, "%.3f");
	emit_string(e, SR_KEY(WI_SITE_VERDICT), "verdict", whatif_verdict_names[s->verdict]);
	emit_number(e, SR_KEY(WI_SITE_CRIT), "on the critical path (share of the span)", s->crit_share, NULL, "%.3f");
	emit_number(e, SR_KEY(WI_SITE_LINE), "line speedup", top ? top->line_speedup : NAN, NULL, "%.2f");
	emit_number(e, SR_KEY(WI_SITE_PROGRAM), "program speedup", top ? top->program_speedup : NAN, NULL, "%+.3f");
	emit_number(e, SR_KEY(WI_SITE_CI), "± (95 %)", top ? top->ci : NAN, NULL, "%.3f");
	emit_table_begin(e, SR_KEY(WI_POINTS), "");
	for (int k = 0; k < s->npts; k++) {
		emit_row_begin(e);
		emit_number(e, SR_KEY(WI_PT_LINE), "line speedup", s->pts[k].line_speedup, NULL, "%.2f");
		emit_number(e, SR_KEY(WI_PT_PROGRAM), "program speedup", s->pts[k].program_speedup, NULL, "%+.3f");
		emit_number(e, SR_KEY(WI_PT_CI), "± (95 %)", s->pts[k].ci, NULL, "%.3f");
		emit_int(e, SR_KEY(WI_PT_RUNS), "runs", s->pts[k].n, NULL);
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_object_end(e);
}

static void notes_render(struct emit *e, const struct stack_whatif *w)
{
	const struct whatif_result *r = w->res;
	char buf[500];
	emit_array_begin(e, SR_KEY(WI_NOTES), "notes");
	if (r->nsites == 0) {
		snprintf(buf, sizeof(buf), "no site: the profiling run (%.3f s) took %ld samples, none in code with a symbol "
			 "and line information; build the program with -g or run it longer", r->profile_wall_s, r->profile_samples);
		emit_string(e, NULL, "", buf);
	}
	if (r->nsites > 0 && r->crit_threads == 0)
		emit_string(e, NULL, "", "the critical-path shares are not known: the profiling run's record (its threads' CPU "
			    "time, the stack's schedstat) could not be read");
	if (r->runs_failed) {
		snprintf(buf, sizeof(buf), "%d of %d of whatif's runs failed and were left out", r->runs_failed, r->runs);
		emit_string(e, NULL, "", buf);
	}
	if (r->runs_noisy) {
		snprintf(buf, sizeof(buf), "%d of %d runs were disturbed (the first: %s): their spread widens the intervals; "
			 "more --whatif-rounds narrow them", r->runs_noisy, r->runs, r->noisy_why);
		emit_string(e, NULL, "", buf);
	}
	emit_array_end(e);
}

void cli_stack_whatif_render(struct emit *e, const struct stack_whatif *w)
{
	const struct whatif_result *r = w->res;
	if (!r)
		return;
	char title[200];
	snprintf(title, sizeof(title), "whatif at %d thread%s: the program's speedup if a site were faster", w->threads,
		 w->threads == 1 ? "" : "s");
	emit_object_begin(e, SR_KEY(WI), title);
	emit_int(e, SR_KEY(WI_THREADS), "threads", w->threads, NULL);
	emit_int(e, SR_KEY(WI_ROUNDS), "rounds", w->wo.rounds, NULL);
	emit_number(e, SR_KEY(WI_PROFILE_WALL), "profiling run", r->profile_wall_s, "s", "%.3f");
	emit_number(e, SR_KEY(WI_SPAN), "its span", r->crit_span_s > 0 ? r->crit_span_s : NAN, "s", "%.3f");
	cli_conditions_render(e, SR_KEY(WI_COND), SR_KEY(WI_NOISY), &r->profile_cond);
	emit_int(e, SR_KEY(WI_RUNS_NOISY), "runs disturbed by other load", r->runs_noisy, NULL);
	emit_int(e, SR_KEY(WI_CRIT), "threads that bound the run", r->crit_threads, NULL);
	emit_int(e, SR_KEY(WI_SEEN), "threads with CPU time and samples", r->crit_threads_seen, NULL);
	emit_list_begin(e, SR_KEY(WI_SITES), "");
	for (int s = 0; s < r->nsites; s++)
		site_render(e, &r->sites[s], w->wo.by_function);
	emit_list_end(e);
	emit_table_begin(e, SR_KEY(WI_WAITING), "waiting in an OpenMP runtime (never worth optimizing)");
	for (int i = 0; i < r->nwaiting; i++) {
		emit_row_begin(e);
		emit_string(e, SR_KEY(WI_WAIT_SITE), "site", r->waiting[i].where);
		emit_int(e, SR_KEY(WI_WAIT_SAMPLES), "profiling samples", r->waiting[i].samples, NULL);
		emit_number(e, SR_KEY(WI_WAIT_SHARE), "share", r->waiting[i].share, NULL, "%.3f");
		emit_row_end(e);
	}
	emit_table_end(e);
	notes_render(e, w);
	if (r->interrupted)
		emit_bool(e, SR_KEY(WI_INTERRUPTED), "interrupted", 1);
	emit_object_end(e);
}
