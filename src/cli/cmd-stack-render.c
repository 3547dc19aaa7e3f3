/* The renderer of `archscope stack`: one stack per thread count (text and JSON from the same
 * calls), the one-sentence answer, the plot and the message for a program that failed. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd-stack.h"
#include "common/atomicfile.h"
#include "machine/result-stack.h"
#include "report/emit.h"
#include "report/plot.h"

/* The notes of a point's problems (item 12), one string each. */
static int bad_notes(unsigned bad, const char *notes[], int max)
{
	int n = 0;
	for (size_t i = 0; i < SCALE_BAD_KINDS && n < max; i++)
		if (bad & scale_bad_texts[i].flag)
			notes[n++] = scale_bad_texts[i].text;
	return n;
}

/* The sentence of item 6 for one point. */
static void answer_sentence(const struct scale_point *p, char *buf, size_t len)
{
	const struct scale_exec *m = &p->ex[p->median];
	const struct scale_stack *s = &m->stack;
	double sp = s->actual == s->actual ? s->actual : s->estimated;
	/* the measured speedup first: T1/TN as timed, whatever the stack is held against */
	int k;
	if (p->speedup_strong == p->speedup_strong && fabs(p->speedup_strong - sp) > 0.005)
		k = snprintf(buf, len, "at %d thread%s the measured speedup is %.2f x of %d (T1/TN; %.2f x against %s, %s scaling); ",
			     p->threads, p->threads == 1 ? "" : "s", p->speedup_strong, p->threads, sp,
			     p->speedup_serial > 0 ? "the 1-thread run's work on one CPU"
						   : "the 1-thread run without other processes' load",
			     p->cls);
	else
		k = snprintf(buf, len, "at %d thread%s the measured speedup is %.2f x of %d (%s scaling); ", p->threads,
			     p->threads == 1 ? "" : "s", sp, p->threads, p->cls);
	if (k < 0 || (size_t)k >= len)
		return;
	if (p->dominant_unclear) {
		snprintf(buf + k, len - (size_t)k, "no delimiter stands out: the runs disagree by %.2f x on the largest, which "
			 "one run puts below %s", p->dominant_spread, p->runner_up);
		return;
	}
	if (p->inflation_unconfirmed) {
		snprintf(buf + k, len - (size_t)k, "no delimiter stands out: work_inflation (%.2f x) is not confirmed by the "
			 "program's CPU time, which grew %.0f %% (other processes' load on shared caches and memory, or the clock, "
			 "is what tier 0 cannot attribute)", s->comp[COMP_INFLATION], 100 * (p->cpu_ratio - 1));
		return;
	}
	int comp = p->dominant, part = p->dominant_part;
	if (comp == SCALE_NONE) {
		snprintf(buf + k, len - (size_t)k, "no delimiter stands out (base >= 0.9 N)");
		return;
	}
	k += snprintf(buf + k, len - (size_t)k, "the dominant delimiter is %s (%.2f x, %.0f %% of the bar", scale_comp_name(comp),
		      s->comp[comp], 100 * s->comp[comp] / p->threads);
	if (part >= 0 && (size_t)k < len)
		k += snprintf(buf + k, len - (size_t)k, ", mostly %s", scale_part_names[part]);
	if ((size_t)k < len)
		k += snprintf(buf + k, len - (size_t)k, ")");
	if (comp == COMP_INFLATION && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, ": the threads did more work, or the same work slower, than one "
			 "thread alone (memory, caches, coherence, parallelization overhead; tier 0 cannot split it)");
	else if (part == PART_OTHER && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, ": off the CPU outside every wrapped call (I/O, a pipe, raw futex calls)");
	else if (m->have_record && (comp == COMP_SPINNING || comp == COMP_YIELDING || comp == COMP_IMBALANCE))
		for (size_t q = 0; q < m->rec.nsites && (size_t)k < len; q++)
			if (scale_site_shown(m->rec.sites[q].prim, comp, part) && m->rec.sites[q].where[0]) {
				char cut[168];
				scale_where_short(m->rec.sites[q].where, cut, sizeof(cut), 160);
				snprintf(buf + k, len - (size_t)k, "; top wait site %s", cut);
				break;
			}
}

/* The reasons runs were rejected, as one string. */
static void reject_text(unsigned why, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = 0;
	for (size_t i = 0; i < SCALE_REJECT_KINDS && k < len; i++)
		if (why & scale_reject_texts[i].flag)
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? "; " : "", scale_reject_texts[i].text);
}

/* The speedups of a point and the stack's error against the one it is held to. */
static void point_speedups(struct emit *e, const struct scale_point *p, const struct scale_result *res)
{
	const struct scale_exec *m = &p->ex[p->median];
	const struct scale_stack *s = &m->stack;
	emit_int(e, SR_KEY(RUN_THREADS), "threads", p->threads, NULL);
	emit_number(e, SR_KEY(RUN_WALL), "wall time", m->wall_s, "s", "%.3f");
	emit_number(e, SR_KEY(RUN_SPAN), "program span", m->span_s, "s", "%.3f");
	emit_number(e, SR_KEY(RUN_SPEEDUP), "speedup actual (T1/TN)", p->speedup_strong, "x", "%.2f");
	int unloaded = res->t1_unloaded_s > 0 && res->t1_unloaded_s < res->t1_s;
	if (unloaded)
		emit_number(e, SR_KEY(RUN_SPEEDUP_UNLOADED), "speedup without the other load (T1 less its wait for them)",
			    p->speedup_unloaded, "x", "%.2f");
	int serial = p->speedup_serial > 0;
	if (serial)
		emit_number(e, SR_KEY(RUN_SPEEDUP_SERIAL), "speedup over the 1-thread run's work on one CPU",
			    p->speedup_serial, "x", "%.2f");
	if (p->work_grows)
		emit_number(e, SR_KEY(RUN_SPEEDUP_SCALED), "speedup scaled (Gustafson: work ratio x T1/TN)",
			    p->speedup_scaled, "x", "%.2f");
	if (p->work_ratio == p->work_ratio && p->threads > 1)
		emit_number(e, SR_KEY(RUN_WORK_RATIO), "work of this run / the 1-thread run's", p->work_ratio, "x", "%.2f");
	emit_number(e, SR_KEY(RUN_ESTIMATED), "speedup estimated (this run)", s->estimated, "x", "%.2f");
	emit_number(e, SR_KEY(RUN_ERROR),
		    p->work_grows ? "|S^-S_scaled|/N"
		    : serial      ? "|S^-S_serial|/N"
		    : unloaded    ? "|S^-S_unloaded|/N"
				  : "|S^-S|/N",
		    p->error, NULL, "%.3f");
	if (p->error == p->error)
		emit_annotate(e, " (%.1f %%)", 100 * p->error);
	if (unloaded || serial || p->work_grows) {
		emit_number(e, SR_KEY(RUN_ERROR_RAW), "|S^-T1/TN|/N", p->error_raw, NULL, "%.3f");
		if (p->error_raw == p->error_raw)
			emit_annotate(e, " (%.1f %%)", 100 * p->error_raw);
	}
	emit_array_begin(e, SR_KEY(RUN_ERROR_PER_RUN), "|S^-S|/N of each run");
	for (int r = 0; r < p->nex; r++) {
		const struct scale_stack *x = &p->ex[r].stack;
		emit_number(e, NULL, "", res->t1_s > 0 ? fabs(x->estimated - x->actual) / p->threads : NAN, NULL, "%.3f");
	}
	emit_array_end(e);
}

/* Each run's conditions, the runs rejected, threads, processes and tier. */
static void point_runs(struct emit *e, const struct scale_point *p)
{
	const struct scale_exec *m = &p->ex[p->median];
	emit_list_begin(e, SR_KEY(RUN_CONDS), NULL);
	int noisy = 0, first = -1;
	for (int r = 0; r < p->nex; r++) {
		emit_object_begin(e, NULL, NULL);
		cli_conditions_render(e, SR_KEY(RUN_COND), SR_KEY(RUN_COND_NOISY), &p->ex[r].cond);
		emit_object_end(e);
		if (p->ex[r].cond.noisy && noisy++ == 0)
			first = r;
	}
	emit_list_end(e);
	if (noisy)
		emit_text(e, "noisy runs", "%d of %d (run %d: %s)", noisy, p->nex, first + 1, p->ex[first].cond.why);
	emit_int(e, SR_KEY(RUN_REPS), "repetitions", p->nex, NULL);
	if (p->nrejected) {
		char why[256];
		reject_text(p->rejects, why, sizeof(why));
		emit_object_begin(e, SR_KEY(RUN_REJECTED), "runs rejected and repeated");
		emit_int(e, SR_KEY(RUN_REJECTED_RUNS), "runs", p->nrejected, NULL);
		emit_string(e, SR_KEY(RUN_REJECTED_WHY), "why", why);
		emit_object_end(e);
	}
	emit_int(e, SR_KEY(RUN_THREADS_MAX), m->tier ? "threads seen" : "threads at once (most)", p->threads_max, NULL);
	if (m->have_record)
		emit_int(e, SR_KEY(RUN_PROCESSES), "processes (images recorded)", m->rec.processes, NULL);
	emit_int(e, SR_KEY(RUN_TIER), "tier", m->tier, NULL);
}

/* The stack: components with their spread, the parts of spinning and yielding, the waits for
 * other tasks. */
/* Why sched_yield time is under spinning (yield_spin), where some is: the yields kept the CPU. */
static void point_yield_spin(struct emit *e, const struct scale_stack *s)
{
	if (!(s->yield_spin_s >= 0.0005))
		return;
	char why[320];
	snprintf(why, sizeof(why),
		 "sched_yield returned at once: %.3f s of the threads' %.3f s in it was neither off the CPU nor in the "
		 "run queue (schedstat), so they kept their CPU: a yield polled in a loop is spinning",
		 s->yield_spin_s, s->yield_s);
	emit_number(e, SR_KEY(RUN_YIELD_SPIN), "sched_yield on the CPU (all threads)", s->yield_spin_s, "s", "%.3f");
	emit_string(e, SR_KEY(RUN_YIELD_SPIN_WHY), "why yield_spin", why);
}

static void point_stack(struct emit *e, const struct scale_point *p)
{
	const struct scale_stack *s = &p->ex[p->median].stack;
	emit_object_begin(e, SR_KEY(RUN_COMPONENTS), "components (speedup units, sum N)");
	for (int c = 0; c < COMP_COUNT; c++) {
		/* tier 2: work_inflation is what the counters leave unexplained */
		double v = c == COMP_INFLATION && p->have_t2 ? p->t2_rest : s->comp[c];
		emit_number(e, scale_comp_names[c], scale_comp_names[c], v, "x", "%.3f");
		if (p->nex > 1 && !(c == COMP_INFLATION && p->have_t2))
			emit_annotate(e, "  [%.3f .. %.3f over %d runs]", p->comp_min[c], p->comp_max[c], p->nex);
	}
	for (int k = 0; p->have_t2 && k < T2_COUNT; k++)
		emit_number(e, scale_t2_names[k], scale_t2_names[k], p->t2[k], "x", "%.3f");
	emit_object_end(e);
	emit_object_begin(e, SR_KEY(RUN_SPREAD), NULL);
	for (int c = 0; c < COMP_COUNT; c++) {
		emit_object_begin(e, scale_comp_names[c], NULL);
		emit_number(e, SR_KEY(RUN_SPREAD_MIN), NULL, p->comp_min[c], NULL, NULL);
		emit_number(e, SR_KEY(RUN_SPREAD_MAX), NULL, p->comp_max[c], NULL, NULL);
		emit_object_end(e);
	}
	emit_object_end(e);
	emit_object_begin(e, SR_KEY(RUN_BY_PRIM), "spinning and yielding by primitive (speedup units)");
	for (int q = 0; q < PART_COUNT; q++)
		if (!emit_is_text(e) || s->part[q] >= 0.0005)
			emit_number(e, scale_part_names[q], scale_part_names[q], s->part[q], "x", "%.3f");
	emit_object_end(e);
	point_yield_spin(e, s);
	emit_number(e, SR_KEY(RUN_JOIN), "time in pthread_join (all threads)", s->join_s, "s", "%.3f");
	emit_object_begin(e, SR_KEY(RUN_OTHERS), "waiting for other tasks (thread-seconds, inside imbalance)");
	for (int k = 0; k < OTHER_COUNT; k++)
		if (!emit_is_text(e) || s->other_s[k] >= 0.0005)
			emit_number(e, scale_other_names[k], scale_other_names[k], s->other_s[k], "s", "%.3f");
	emit_object_end(e);
	emit_number(e, SR_KEY(RUN_FOREIGN), "other processes' CPU time on these CPUs", p->foreign_cpu_s, "s", "%.3f");
}

/* The dominant delimiter, the class, the answer and the top wait sites. */
static void point_dominant(struct emit *e, const struct scale_point *p)
{
	const struct scale_exec *m = &p->ex[p->median];
	const struct scale_stack *s = &m->stack;
	emit_string(e, SR_KEY(RUN_DOMINANT), "dominant (of the program)", scale_comp_name(p->dominant));
	emit_bool(e, SR_KEY(RUN_UNCLEAR), NULL, p->dominant_unclear);
	if (p->dominant_unclear)
		emit_text(e, "why none", "the runs disagree by %.2f x on the largest, which one run puts below %s",
			  p->dominant_spread, p->runner_up);
	emit_number(e, SR_KEY(RUN_CPU_RATIO), NULL, p->cpu_ratio, NULL, NULL);
	emit_bool(e, SR_KEY(RUN_UNCONFIRMED), NULL, p->inflation_unconfirmed);
	if (p->inflation_unconfirmed)
		emit_text(e, "why none", "work_inflation is not confirmed: the program's CPU time grew %.0f %%",
			  100 * (p->cpu_ratio - 1));
	emit_string(e, SR_KEY(RUN_CLASS), "class (paper Fig. 6, scaled to N)", p->cls);
	if (s->comp[COMP_FOREIGN] > 0.0005)
		emit_string(e, SR_KEY(RUN_CLASS_PROGRAM), "class without the other load (S + foreign_load)", p->cls_program);
	char sentence[640];
	answer_sentence(p, sentence, sizeof(sentence));
	emit_string(e, SR_KEY(RUN_ANSWER), "answer", sentence);

	/* the waits of the dominant delimiter (its largest part) */
	int comp = p->dominant, part = p->dominant_part;
	emit_table_begin(e, SR_KEY(RUN_SITES), "top wait sites");
	for (size_t k = 0, shown = 0; m->have_record && k < m->rec.nsites && shown < SCALE_TOP_SITES; k++) {
		const struct scale_site *st = &m->rec.sites[k];
		if (!scale_site_shown(st->prim, comp, part))
			continue;
		shown++;
		emit_row_begin(e);
		char cut[168];
		scale_where_short(st->where, cut, sizeof(cut), 160);
		emit_string(e, SR_KEY(SITE_WHERE), "where", emit_is_text(e) ? cut : st->where);
		emit_string(e, SR_KEY(SITE_PRIM), "primitive", scale_prim_name(st->prim));
		emit_number(e, SR_KEY(SITE_WAIT), "wait", st->wait_s, "s", "%.4f");
		emit_int(e, SR_KEY(SITE_CALLS), "slow calls", (long long)st->calls, NULL);
		emit_row_end(e);
	}
	emit_table_end(e);
	if (m->samples > 0) {
		emit_number(e, SR_KEY(RUN_SAMPLES), "samples (all threads)", m->samples, NULL, "%.0f");
		emit_number(e, SR_KEY(RUN_SPIN_SAMPLES), "samples in spin loops", m->spin_samples, NULL, "%.0f");
		if (m->spin_samples > 0 && m->spin_samples <= m->samples) /* binomial: se(k)/k = sqrt((1-p)/k) */
			emit_number(e, SR_KEY(RUN_SPIN_SE), "spinning's sampling error (1 standard error)",
				    s->comp[COMP_SPINNING] * sqrt((1 - m->spin_samples / m->samples) / m->spin_samples),
				    "x", "%.3f");
	}
}

#define NOTES_MAX 12

/* The notes that explain what makes the point's stack less certain, into notes[] (the texts
 * written into bufs). Returns how many. */
struct point_note_bufs {
	char growth[400], foreign[320], one[400], work[400], lost[256];
};

static int point_notes(const struct scale_point *p, const struct scale_result *res, const char *notes[NOTES_MAX],
		       struct point_note_bufs *b)
{
	const struct scale_exec *m = &p->ex[p->median];
	const struct scale_stack *s = &m->stack;
	int nn = bad_notes(p->bad, notes, 8);
	if (p->records_bad && nn < NOTES_MAX) {
		snprintf(b->lost, sizeof(b->lost),
			 "%d record%s of the program's processes could not be read (a process killed while writing it) "
			 "and %s left out", p->records_bad, p->records_bad == 1 ? "" : "s", p->records_bad == 1 ? "was" : "were");
		notes[nn++] = b->lost;
	}
	if (s->scaled < 0.999 && nn < NOTES_MAX)
		notes[nn++] = "more threads waited or ran than N slots hold: the waits that cost no slot were scaled down to fit the bar";
	if (p->speedup_serial > 0 && nn < NOTES_MAX) {
		snprintf(b->one, sizeof(b->one),
			 "the 1-thread run is not serial: its threads kept %.2f CPUs busy with work (a helper thread "
			 "beside the one asked for); S = T1/TN %.2f x is against that run, base is the speedup over "
			 "its work on one CPU, %.2f x",
			 res->t1_busy, p->speedup_strong, p->speedup_serial);
		notes[nn++] = b->one;
	}
	if (p->work_grows && nn < NOTES_MAX) {
		snprintf(b->growth, sizeof(b->growth),
			 "the work grows with N: this run did %.2f x the 1-thread run's work (%s), as a program of fixed "
			 "time or fixed work per thread does%s; base is the scaled speedup (Gustafson) %.2f x, the "
			 "strong-scaling one is %.2f x",
			 p->work_ratio, m->have_counts ? "instructions" : "CPU time outside waits and spinning",
			 m->have_counts ? "" : " (or every thread ran that much slower: counters tell which)",
			 p->speedup_scaled, p->speedup_strong);
		notes[nn++] = b->growth;
	}
	/* work that changed without growing: what work_inflation is at tier 0 */
	if (!p->work_grows && p->threads > 1 && p->work_ratio == p->work_ratio && fabs(p->work_ratio - 1) >= 0.03 &&
	    nn < NOTES_MAX) {
		snprintf(b->work, sizeof(b->work),
			 "this run's work was %.2f x the 1-thread run's (%s): the work_inflation of %.2f x is mostly that%s",
			 p->work_ratio, m->have_counts ? "instructions" : "CPU time outside waits and spinning",
			 s->comp[COMP_INFLATION],
			 m->have_counts ? "" : " (more instructions, or the same ones slower: counters tell which)");
		notes[nn++] = b->work;
	}
	if (s->comp[COMP_FOREIGN] > 0.0005 && nn < NOTES_MAX) {
		snprintf(b->foreign, sizeof(b->foreign),
			 "other processes ran %.3f CPU-s on these CPUs during the run (%.0f %% of %d CPUs): foreign_load "
			 "%.2f x of the scheduling is theirs; the class without it is %s",
			 p->foreign_cpu_s, 100 * p->foreign_cpu_s / (m->span_s * res->cpus), res->cpus,
			 s->comp[COMP_FOREIGN], p->cls_program);
		notes[nn++] = b->foreign;
	}
	return nn;
}

static void point_render(struct emit *e, const struct scale_point *p, const struct scale_result *res)
{
	char title[64];
	snprintf(title, sizeof(title), "stack at %d thread%s", p->threads, p->threads == 1 ? "" : "s");
	emit_object_begin(e, NULL, title);
	point_speedups(e, p, res);
	point_runs(e, p);
	point_stack(e, p);
	point_dominant(e, p);
	const char *notes[NOTES_MAX];
	struct point_note_bufs bufs;
	int nn = point_notes(p, res, notes, &bufs);
	emit_array_begin(e, SR_KEY(RUN_NOTES), "notes");
	for (int i = 0; i < nn; i++)
		emit_string(e, NULL, "", notes[i]);
	emit_array_end(e);
	emit_object_end(e);
}

void cli_stack_render(struct emit *e, const struct scale_opts *o, const struct scale_result *res)
{
	char cmd[1024];
	size_t k = 0;
	cmd[0] = 0;
	for (int i = 0; o->argv[i] && k < sizeof(cmd) - 2; i++)
		k += (size_t)snprintf(cmd + k, sizeof(cmd) - k, "%s%s", i ? " " : "", o->argv[i]);
	emit_string(e, SR_KEY(PROGRAM), SR_KEY(PROGRAM), cmd);
	emit_number(e, SR_KEY(T1), "1-thread span (T1)", res->t1_s, "s", "%.3f");
	if (res->t1_unloaded_s > 0 && res->t1_unloaded_s < res->t1_s)
		emit_number(e, SR_KEY(T1_UNLOADED), "T1 less its wait for CPUs other processes held", res->t1_unloaded_s, "s",
			    "%.3f");
	if (res->t1_serial_s > 0) {
		emit_number(e, SR_KEY(T1_BUSY), "CPUs the 1-thread run kept busy with work", res->t1_busy, NULL, "%.2f");
		emit_number(e, SR_KEY(T1_SERIAL), "the 1-thread run's work on one CPU", res->t1_serial_s, "s", "%.3f");
	}
	emit_int(e, SR_KEY(REPS), "repetitions", res->reps, NULL);
	emit_string(e, SR_KEY(METHOD), "method",
		    res->tier1 ? "tier 0 (preload wrappers, schedstat, sampling), tier 1 (sched tracepoints) where tier 0 saw nothing"
			       : "tier 0 (preload wrappers, schedstat, sampling; no root, no counters)");
	if (o->spin && !res->spin_available)
		emit_string(e, SR_KEY(SAMPLING), "spin sampling", res->spin_why);
	if (o->spin && res->spin_available && res->spin_period_ns) {
		emit_number(e, SR_KEY(SAMPLE_PERIOD), "sampling period (a thread's CPU time per sample)",
			    res->spin_period_ns / 1e6, "ms", "%.2f");
		if (res->spin_cost_ns >= 0) /* NaN: given by --sample-period */
			emit_number(e, SR_KEY(SAMPLE_COST), "a sample's cost, measured", res->spin_cost_ns / 1e3, "us",
				    "%.1f");
	}
	if (res->tier1_why[0])
		emit_string(e, SR_KEY(TRACEPOINTS), "tier 1 tracepoints", res->tier1_why);
	if (!res->tier2 && res->tier2_why[0]) {
		char why[320];
		snprintf(why, sizeof(why), "not used, work_inflation is not split (%s)", res->tier2_why);
		emit_string(e, SR_KEY(COUNTERS), "tier 2 counters", why);
	}
	else if (res->tier2)
		emit_string(e, SR_KEY(COUNTERS), "tier 2 counters",
			    "every run counted: work_inflation split into llc, memory, coherency, parallelization_overhead");
	if (res->interrupted)
		emit_string(e, SR_KEY(INTERRUPTED), "interrupted", strsignal(res->interrupted));
	if (res->records_bad) {
		emit_int(e, SR_KEY(RECORDS_BAD), "records unreadable", res->records_bad, NULL);
		emit_annotate(e, " (skipped: processes killed while writing them; a run that lost its own process's "
				 "record was run again)");
	}
	emit_list_begin(e, SR_KEY(RUNS), "");
	for (int i = 0; i < res->npoints; i++)
		if (!(res->one_added && i == res->one) && res->pt[i].nex)
			point_render(e, &res->pt[i], res);
	emit_list_end(e);
}

void cli_stack_report_failure(const struct scale_opts *o, const struct scale_result *res)
{
	const char *head = "";
	for (int i = 0; i < res->npoints && !*head; i++)
		for (int r = 0; r < res->pt[i].nex && !*head; r++)
			head = res->pt[i].ex[r].err_head;
	if (res->bad & SCALE_BAD_TIMEOUT)
		error("'%s' ran past the time limit and was killed", o->argv[0]);
	else if (res->first_signal)
		error("'%s' crashed: killed by signal %d (%s)%s%s", o->argv[0], res->first_signal,
		      strsignal(res->first_signal), *head ? "; its stderr: " : "", head);
	else
		error("'%s' exited with status %d%s%s", o->argv[0], res->first_status, *head ? "; its stderr: " : "",
		      head);
}

void cli_stack_plot(const char *dir, const struct scale_result *res)
{
	struct as_error err = { 0 };
	if (plot_dir_prepare(dir, &err) != 0) {
		note("%s", err.msg);
		return;
	}
	char path[4200];
	snprintf(path, sizeof(path), "%s/stack.dat", dir);
	struct atomic_file af;
	if (atomic_file_open(&af, path, &err) != 0) {
		note("%s", err.msg);
		return;
	}
	FILE *f = af.fp;
	fprintf(f, "# threads");
	for (int c = 0; c < COMP_COUNT; c++)
		fprintf(f, " %s", scale_comp_names[c]);
	fprintf(f, "\n");
	int negative = 0;
	for (int i = 0; i < res->npoints; i++) {
		const struct scale_point *p = &res->pt[i];
		fprintf(f, "%d", p->threads);
		const double *comp = p->ex[p->median].stack.comp;
		double wi = comp[COMP_INFLATION];
		negative |= wi < 0;
		for (int c = 0; c < COMP_COUNT; c++) {
			/* a negative work_inflation has no bar: base is drawn as S^ = S + work_inflation,
			 * so the bar still sums to N */
			double v = c == COMP_BASE && wi < 0 ? comp[c] + wi : c == COMP_INFLATION && wi < 0 ? 0 : comp[c];
			fprintf(f, " %.4f", v > 0 ? v : 0);
		}
		fprintf(f, "\n");
	}
	if (atomic_file_commit(&af, &err) != 0) {
		note("%s", err.msg);
		return;
	}
	char body[2048];
	int k = snprintf(body, sizeof(body),
			 "set title 'speedup stacks'\nset xlabel 'threads N'\nset ylabel 'speedup (x)'\n"
			 "set style data histograms\nset style histogram rowstacked\nset style fill solid 0.8 border -1\n"
			 "set boxwidth 0.6\nset key outside right noenhanced\nset yrange [0:*]\n"
			 "plot 'stack.dat' using 2:xtic(1) title '%s'", scale_comp_names[0]);
	for (int c = 1; c < COMP_COUNT && k > 0 && (size_t)k < sizeof(body); c++)
		k += snprintf(body + k, sizeof(body) - (size_t)k, ", '' using %d title '%s'", c + 2, scale_comp_names[c]);
	int rc = plot_render(dir, "stack", body, &err);
	if (rc == 1)
		note("gnuplot is not installed: wrote %s/stack.gp and its data, but no picture", dir);
	else if (rc < 0)
		note("%s", err.msg);
	if (negative)
		note("plot: where work_inflation is negative (the N-thread run did its work faster than 1 thread), base is drawn as S^");
}
