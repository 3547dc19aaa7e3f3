/* archscope compare: two stat results (A, B) event by event with Welch's t-test, exact p values,
 * Benjamini–Hochberg q over every event compared, Hedges' g and the ratio B/A with its 95 %
 * interval, sorted by q then by size of change (EvSel's comparison, NUMA thesis §4.1.2, mended).
 * The two results are files `stat` wrote (their conditions compared, differences warned of), or
 * two commands run here in turn, A B A B ..., so that a drift of the machine hits both alike. The
 * statistics are measure/stat-compare.c's; here: reading, the conditions, -r's runs, rendering. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "cli/cli.h"
#include "cli/parse-options.h"
#include "common/interrupt.h"
#include "machine/result-stat-compare.h"
#include "measure/stat-compare.h"
#include "measure/stat-json.h"
#include "measure/stat-select.h"
#include "measure/stat-show.h"
#include "measure/stat.h"
#include "report/emit.h"

struct compare_report {
	const char *path_a, *path_b;
	double alpha, min_change_pct;
	struct measure_stat_compare c; /* the events compared */
	struct measure_stat_json a, b; /* the results read (names point into them) */
	/* -r: the two commands run here, interleaved */
	int interleaved, runs, runs_a, runs_b, interrupted, signal;
	const char *cmd_a, *cmd_b;
	int nwarn;                     /* conditions that differ between the files */
};

static void compare_render(struct emit *e, const struct compare_report *r)
{
	emit_string(e, CR_KEY(A), "A", r->path_a);
	emit_string(e, CR_KEY(B), "B", r->path_b);
	emit_string(e, CR_KEY(MODE), "runs", r->interleaved ? "interleaved" : "files");
	if (r->interleaved) {
		emit_annotate(e, ": A B A B ..., %d + %d runs, so that a drift of the machine hits both alike", r->runs_a,
			      r->runs_b);
		emit_int(e, CR_KEY(RUNS_A), NULL, r->runs_a, NULL);
		emit_int(e, CR_KEY(RUNS_B), NULL, r->runs_b, NULL);
	}
	emit_int(e, CR_KEY(COND_DIFFER), NULL, r->nwarn, NULL);
	emit_number(e, CR_KEY(ALPHA), "alpha (q below)", r->alpha, NULL, "%g");
	emit_number(e, CR_KEY(MIN_CHANGE), "min change", r->min_change_pct, "%", "%g");
	emit_int(e, CR_KEY(TESTS), "events tested", r->c.tests, NULL);
	int flagged = 0;
	for (int k = 0; k < r->c.n; k++)
		flagged += r->c.ev[k].significant;
	emit_int(e, CR_KEY(SIGNIFICANT), "significant", flagged, NULL);
	emit_table_begin(e, CR_KEY(EVENTS), "events (sorted by q, then by size of change)");
	for (int k = 0; k < r->c.n; k++) {
		const struct measure_stat_compare_event *c = &r->c.ev[k];
		emit_row_begin(e);
		emit_string(e, CR_KEY(EV_NAME), "event", c->name);
		/* text: each mean with its unit, times in s/ms, counts as integers (JSON: every digit) */
		struct stat_disp d = measure_stat_disp_of(c->unit ? c->unit : "", isnan(c->a.mean) ? c->b.mean : c->a.mean);
		char ma[64], mb[64];
		measure_stat_disp_format(&d, c->a.mean, ma, sizeof(ma), 1);
		measure_stat_disp_format(&d, c->b.mean, mb, sizeof(mb), 1);
		emit_number(e, CR_KEY(EV_MEAN_A), NULL, c->a.mean, NULL, NULL);
		emit_text(e, "mean A", "%s", ma);
		emit_number(e, CR_KEY(EV_MEAN_B), NULL, c->b.mean, NULL, NULL);
		emit_text(e, "mean B", "%s", mb);
		emit_number(e, CR_KEY(EV_RATIO), "B/A", c->ratio, NULL, "%.4f");
		emit_number(e, CR_KEY(EV_RATIO_LOW), "95 % low", c->lo, NULL, "%.4f");
		emit_number(e, CR_KEY(EV_RATIO_HIGH), "95 % high", c->hi, NULL, "%.4f");
		emit_number(e, CR_KEY(EV_P), "p", c->w.p, NULL, "%.3g");
		emit_number(e, CR_KEY(EV_Q), "q", c->q, NULL, "%.3g");
		emit_number(e, CR_KEY(EV_G), "g", c->g, NULL, "%.3g");
		emit_bool(e, CR_KEY(EV_SIGNIFICANT), "flag", c->significant);
		emit_number(e, CR_KEY(EV_T), NULL, c->w.t, NULL, NULL);
		emit_number(e, CR_KEY(EV_DF), NULL, c->w.df, NULL, NULL);
		emit_int(e, CR_KEY(EV_N_A), NULL, (long long)c->a.n, NULL);
		emit_int(e, CR_KEY(EV_N_B), NULL, (long long)c->b.n, NULL);
		emit_number(e, CR_KEY(EV_STDDEV_A), NULL, sqrt(c->a.var), NULL, NULL);
		emit_number(e, CR_KEY(EV_STDDEV_B), NULL, sqrt(c->b.var), NULL, NULL);
		emit_bool(e, CR_KEY(EV_CONSTANTS), NULL, c->w.exact);
		emit_string(e, CR_KEY(EV_UNIT), NULL, c->unit);
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_string(e, CR_KEY(ONLY_A), r->c.only_a[0] ? "only in A" : NULL, r->c.only_a);
	emit_string(e, CR_KEY(ONLY_B), r->c.only_b[0] ? "only in B" : NULL, r->c.only_b);
	emit_bool(e, CR_KEY(FEW_RUNS), NULL, r->c.few_runs);
	emit_bool(e, CR_KEY(INTERRUPTED), NULL, r->interrupted);
	if (r->interrupted)
		emit_text(e, "interrupted", "by %s after %d + %d runs: the cut run is left out", strsignal(r->signal),
			  r->runs_a, r->runs_b);
}

static void compare_render_cb(struct emit *e, const void *ctx)
{
	compare_render(e, ctx);
}

/* The conditions two stat results were measured under (results.conditions): a warning per field
 * that differs beyond what measure_stat_json_cond_diff allows, naming it and both values. */
static int compare_conditions(const struct compare_report *r)
{
	struct measure_stat_cond_diff d[MEASURE_STAT_COND_DIFFS];
	int n = measure_stat_json_cond_diff(&r->a, &r->b, d, MEASURE_STAT_COND_DIFFS);
	if (n < 0) {
		warning("only %s records the conditions of its runs (load, clock, CPU, kernel): the other was "
			"written by an older archscope; compare with care",
			r->a.ncond ? "A" : "B");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		if (d[i].apart[0])
			warning("conditions differ: %s is %s in A and %s in B (more than %s apart)", d[i].key, d[i].a, d[i].b,
				d[i].apart);
		else
			warning("conditions differ: %s is %s in A and %s in B", d[i].key, d[i].a, d[i].b);
	}
	if (n)
		warning("%d condition%s differ between A and B: a change may come from the machine, not the program "
			"('compare -r R -- A -- B' runs both in turn)", n, n == 1 ? "" : "s");
	return n;
}

/* The two files are read at once, one in a thread of its own: reading (jansson) is most of the
 * time of a large comparison (two files of 100k events: about 0.6 s each here). */
struct compare_read {
	struct measure_stat_json *s;
	const char *path;
	struct as_error err;
	int rc;
};

static void *compare_read_thread(void *arg)
{
	struct compare_read *c = arg;
	c->rc = measure_stat_json_read(c->s, c->path, &c->err);
	return NULL;
}

static int compare_read_both(struct compare_report *r)
{
	struct compare_read ra = { .s = &r->a, .path = r->path_a }, rb = { .s = &r->b, .path = r->path_b };
	pthread_t t;
	/* standard input is read by one reader only: no thread when a file is "-" */
	int threaded = strcmp(r->path_a, "-") && strcmp(r->path_b, "-") &&
		       pthread_create(&t, NULL, compare_read_thread, &ra) == 0;
	if (!threaded)
		compare_read_thread(&ra);
	compare_read_thread(&rb);
	if (threaded)
		pthread_join(t, NULL);
	if (ra.rc || rb.rc) {
		error_err(ra.rc ? &ra.err : &rb.err);
		return EXIT_USAGE;
	}
	return 0;
}

/* The names of the events of a and b (each once, in the order of the files) into buf[len], cut
 * with "..." when they do not fit; "no events" when there are none. */
static void events_list(const struct measure_stat_json *a, const struct measure_stat_json *b, char *buf, size_t len)
{
	size_t used = 0;
	int n = 0, cut = 0;
	buf[0] = '\0';
	for (int side = 0; side < 2 && !cut; side++) {
		const struct measure_stat_json *s = side ? b : a;
		for (size_t i = 0; i < s->n && !cut; i++) {
			if (side && measure_stat_json_find(a, s->ev[i].name))
				continue;
			int w = snprintf(buf + used, len - used, "%s'%s'", n ? ", " : "", s->ev[i].name);
			if (w < 0 || (size_t)w >= len - used - 5) {
				buf[used] = '\0';
				cut = 1;
			} else {
				used += (size_t)w;
				n++;
			}
		}
	}
	if (cut)
		snprintf(buf + used, len - used, "%s...", n ? ", " : "");
	else if (!n)
		snprintf(buf, len, "no events");
}

/* -r R -- A -- B: A and B run R times each, in turn (A B A B ...), with the same events. */
static int compare_interleaved(struct compare_report *r, const struct cli_stat_args *sa, char **argv_a, char **argv_b)
{
	struct stat_select sel;
	int rc = cli_stat_select("compare", sa, &sel);
	if (rc)
		return rc;
	struct measure_stat ma, mb;
	struct as_error err = { 0 };
	memset(&ma, 0, sizeof(ma));
	memset(&mb, 0, sizeof(mb));
	if (measure_stat_init(&ma, (const char *const *)sel.names, sel.n, r->runs, &err) != 0 ||
	    measure_stat_plan(&ma, &err) != 0 ||
	    measure_stat_init(&mb, (const char *const *)sel.names, sel.n, r->runs, &err) != 0 ||
	    measure_stat_plan(&mb, &err) != 0) {
		error_err(&err);
		rc = EXIT_FAIL;
		goto out;
	}
	struct stat_opts o = { .runs = r->runs, .stdout_fd = -1, .stderr_fd = 2 };
	interrupt_install();
	if (measure_stat_begin(&ma, argv_a, &o, &err) != 0 || measure_stat_begin(&mb, argv_b, &o, &err) != 0) {
		error_err(&err);
		rc = EXIT_FAIL;
		goto out;
	}
	int total = ma.runs * ma.passes;
	for (int k = 0; k < total && rc == 0; k++) {
		progress("compare: run %d of %d (A, then B)", k + 1, total);
		int ra = measure_stat_step(&ma, argv_a, &o, &err);
		int rb = ra >= 0 && !ma.interrupted ? measure_stat_step(&mb, argv_b, &o, &err) : 0;
		if (ra < 0 || rb < 0) {
			progress_done();
			error_err(&err);
			rc = ra == -ENOENT || ra == -EACCES || ra == -ENOEXEC || rb == -ENOENT || rb == -EACCES || rb == -ENOEXEC
				     ? EXIT_USAGE
				     : EXIT_FAIL;
		}
		if (ma.interrupted || mb.interrupted)
			break;
	}
	progress_done();
	if (rc)
		goto out;
	/* the interleaving holds only for pairs: a cut B leaves its A without a partner, and out */
	if (mb.nrun < ma.nrun) {
		int k = ma.nrun - 1, pass = ma.run[k].pass;
		for (int i = 0; i < ma.nevents; i++) {
			struct stat_event *ev = &ma.ev[i];
			if (ev->values && (ev->source == STAT_PERF ? ev->pass == pass : pass == 0))
				ev->values[k % ma.runs] = NAN;
		}
		ma.nrun--;
	}
	measure_stat_finish(&ma);
	measure_stat_finish(&mb);
	r->runs_a = ma.nrun;
	r->runs_b = mb.nrun;
	r->interrupted = ma.interrupted || mb.interrupted || interrupt_signal();
	r->signal = interrupt_signal();
	for (int k = 0; k < ma.nrun; k++)
		if (!ma.run[k].exited || ma.run[k].status)
			warning("A ('%s') %s in run %d", r->cmd_a, ma.run[k].exited ? "exited non-zero" : "crashed", k + 1);
	for (int k = 0; k < mb.nrun; k++)
		if (!mb.run[k].exited || mb.run[k].status)
			warning("B ('%s') %s in run %d", r->cmd_b, mb.run[k].exited ? "exited non-zero" : "crashed", k + 1);
	if (measure_stat_json_from_stat(&r->a, &ma, &err) != 0 || measure_stat_json_from_stat(&r->b, &mb, &err) != 0)
		rc = error("out of memory") ? EXIT_FAIL : EXIT_FAIL;
out:
	measure_stat_release(&ma);
	measure_stat_release(&mb);
	measure_stat_select_release(&sel);
	return rc;
}

/* -r R -- A ... -- B ...: opt_parse stopped at the first "--"; the second splits the two. B's argv
 * (A's ends where the "--" was), or NULL when either is missing. */
static char **compare_command_b(int argc, char **argv)
{
	int sep = -1;
	for (int i = 0; i < argc && sep < 0; i++)
		if (!strcmp(argv[i], "--"))
			sep = i;
	if (sep <= 0 || sep == argc - 1)
		return NULL;
	argv[sep] = NULL;
	return argv + sep + 1;
}

/* Two files A and B: read (each held to stat's description) and their conditions compared. 0, or
 * an exit code after error(). */
static int compare_files(struct compare_report *r, const struct cli_stat_args *sa, int argc, char **argv)
{
	if (sa->all || sa->group)
		return error_usage("compare", "--all and -M choose what -r counts; files are compared on every event they share"),
		       EXIT_USAGE;
	if (argc != 2) {
		error_usage("compare", "two stat results are required (A.json B.json), or -r RUNS -- COMMAND-A -- COMMAND-B");
		return EXIT_USAGE;
	}
	if (cli_stdin_once("compare", argv, argc) != 0)
		return EXIT_USAGE;
	r->path_a = argv[0];
	r->path_b = argv[1];
	int rc = compare_read_both(r);
	if (rc == 0)
		r->nwarn = compare_conditions(r);
	return rc;
}

static const char *const compare_usage[] = {
	"archscope compare [--alpha Q] [--min-change PCT] [-e EVENT,...] [-o FILE] [--json] A.json B.json",
	"archscope compare -r RUNS [-e EVENT,...|--all|-M GROUP] [--alpha Q] [--min-change PCT] [-o FILE] [--json] -- COMMAND-A ... -- COMMAND-B ...",
	NULL
};
static const struct opt_cmd compare_cmd = {
	.name = "compare",
	.usage = compare_usage,
	.description =
		"Compares two results of 'archscope stat -o FILE' event by event: Welch's t-test (variances\n"
		"may differ) with the exact p value of the t distribution and Welch-Satterthwaite degrees of freedom,\n"
		"Benjamini-Hochberg q values over all events compared (so testing hundreds of events at once does\n"
		"not flag dozens by chance), Hedges' g and the ratio B/A with a 95 % interval. An event is flagged\n"
		"when q < alpha and it changed by at least --min-change percent. Two constants: equal ones are not\n"
		"significant, different ones are (p 0). Sorted by q, then by size of change. The conditions the\n"
		"files record (load, measured clock, governor, CPU, kernel, version, affinity) are compared too: a\n"
		"warning names each that differs. With -r, the two commands run here in turn, A B A B ... RUNS\n"
		"times each, so that a drift of the machine (load, clock) hits both alike; their report goes to\n"
		"stderr (or -o FILE), never into the programs' stdout.\n",
	.epilog = "Fewer than 3 runs on a side gives a warning: such a test has little power. Exit 2: bad files or\n"
		  "options, or a command that cannot be started; 130: interrupted (-r; the pairs done are compared).\n",
};

/* -e with files: the events compared, each in A or B. 0, or EXIT_USAGE after error(). */
static int compare_only(const struct compare_report *r, const struct cli_stat_args *sa, struct stat_select *only)
{
	struct as_error err = { 0 };
	for (int i = 0; i < sa->events.n; i++)
		if (measure_stat_select_add(only, sa->events.v[i], &err) != 0)
			return error_usage("compare", "-e: %s", err.msg), EXIT_USAGE;
	for (int i = 0; i < only->n; i++)
		if (!measure_stat_json_find(&r->a, only->names[i]) && !measure_stat_json_find(&r->b, only->names[i])) {
			char have[600];
			events_list(&r->a, &r->b, have, sizeof(have));
			error_usage("compare", "-e: '%s' is in neither '%s' nor '%s' (they hold %s)", only->names[i], r->path_a,
				    r->path_b, have);
			return EXIT_USAGE;
		}
	return 0;
}

/* The report: -r's to stderr or -o FILE (as stat's, never into the programs' stdout); files' to
 * stdout, and the JSON to -o FILE too. EXIT_OK, or EXIT_FAIL after error(). */
static int compare_deliver(const struct compare_report *r, const char *out, int json)
{
	if (r->interleaved)
		return cli_report_deliver("compare", out, json, r->interrupted, compare_render_cb, r);
	int rc;
	struct emit *e = emit_new(json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (e) {
		compare_render(e, r);
		rc = cli_emit_end(e, "compare");
	} else {
		rc = error("out of memory") ? EXIT_FAIL : EXIT_FAIL;
	}
	if (rc == 0 && out) {
		char *buf;
		size_t len;
		rc = cli_report_render("compare", 1, compare_render_cb, r, &buf, &len);
		if (rc == 0)
			rc = cli_report_write_file(out, buf, len);
		free(buf);
	}
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_report r = { .alpha = MEASURE_STAT_COMPARE_ALPHA, .min_change_pct = MEASURE_STAT_COMPARE_MIN_CHANGE_PCT };
	struct cli_stat_args sa = { 0 };
	const char *out = NULL;
	int json = 0;
	r.runs = 0;
	const struct opt options[] = {
		OPT_DOUBLE(0, "alpha", &r.alpha, "Q", 0, 1, "false discovery rate: flag events with q below Q (default 0.05)",
			   .flags = OPT_F_ABOVE_MIN),
		OPT_DOUBLE(0, "min-change", &r.min_change_pct, "PCT", 0, 1e9,
			   "and a change of at least PCT percent (default 1; 0: statistical significance alone)"),
		OPT_STRINGS('e', "event", &sa.events, "EVENT", "compare (with -r: count) only these events (repeatable, comma lists)"),
		OPT_INT('r', "repeat", &r.runs, "RUNS", 2, 100000, "run COMMAND-A and COMMAND-B RUNS times each, in turn"),
		OPT_FLAG(0, "all", &sa.all, "with -r: every event of this CPU's PMUs and every software event"),
		OPT_STRING('M', "metrics", &sa.group, "GROUP", "with -r: the events of a metric group from share/archscope/groups"),
		OPT_STRING('o', "output", &out, "FILE", "write the JSON result to FILE (atomically)"),
		OPT_JSON(&json),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &compare_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (out && cli_output_check("compare", out, 0) != 0)
		return EXIT_USAGE;
	int rc = 0;
	struct stat_select only;
	measure_stat_select_init(&only);
	struct as_error err = { 0 };
	char cmd_a[1024], cmd_b[1024];
	if (r.runs) {
		char **argv_a = argv, **argv_b = compare_command_b(argc, argv);
		if (!argv_b)
			return error_usage("compare", "-r runs two commands: compare -r RUNS -- COMMAND-A ... -- COMMAND-B ..."),
			       EXIT_USAGE;
		cli_command_line(argv_a, cmd_a, sizeof(cmd_a));
		cli_command_line(argv_b, cmd_b, sizeof(cmd_b));
		r.cmd_a = cmd_a;
		r.cmd_b = cmd_b;
		r.path_a = cmd_a;
		r.path_b = cmd_b;
		r.interleaved = 1;
		rc = compare_interleaved(&r, &sa, argv_a, argv_b);
	} else {
		rc = compare_files(&r, &sa, argc, argv);
	}
	if (rc == 0 && !r.interleaved)
		rc = compare_only(&r, &sa, &only);
	if (rc == 0 && measure_stat_compare_run(&r.c, &r.a, &r.b, &only, r.alpha, r.min_change_pct, &err) != 0)
		rc = error_err(&err) ? EXIT_FAIL : EXIT_FAIL;
	if (rc == 0) {
		if (!r.c.n)
			note("no event is in both results");
		if (r.c.few_runs)
			note("fewer than %d runs on a side for some events: their tests have little power",
			     MEASURE_STAT_COMPARE_FEW_RUNS);
		rc = compare_deliver(&r, out, json);
	}
	if (r.interleaved)
		interrupt_restore();
	measure_stat_select_release(&only);
	measure_stat_compare_release(&r.c);
	measure_stat_json_release(&r.a);
	measure_stat_json_release(&r.b);
	if (r.interrupted)
		return INTERRUPT_EXIT;
	return rc;
}
