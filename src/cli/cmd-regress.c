/* archscope regress: runs a program at each value of a parameter, R times each, and fits every
 * event against the parameter's real values: constant, linear, quadratic, exponential and power,
 * best by AICc (EvSel's regression, NUMA thesis §4.1.2, beyond its linear fits on the run index). */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fit.h"
#include "cli/cli.h"
#include "cli/parse-options.h"
#include "common/atomicfile.h"
#include "common/interrupt.h"
#include "common/number.h"
#include "machine/result-stat-regress.h"
#include "measure/stat-select.h"
#include "measure/stat-show.h"
#include "measure/stat.h"
#include "report/emit.h"
#include "report/plot.h"

#define REGRESS_VALUES_MAX 64

struct regress_event {
	const char *name, *unit;
	int npts;
	double *x, *y;          /* every counted run: the parameter's value and the event's */
	double mean[REGRESS_VALUES_MAX]; /* per parameter value (NaN: not counted) */
	struct fit_all fit;
	int fitted;
	const char *reason;     /* why not fitted */
};

struct regress_report {
	char name[64];          /* the parameter */
	int nvalues;
	double values[REGRESS_VALUES_MAX];
	char text[REGRESS_VALUES_MAX][64];
	int runs;
	struct measure_stat m[REGRESS_VALUES_MAX];
	int measured;           /* values measured */
	int nev;
	struct regress_event *ev;
	const char *plot_dir;
	char command[1024];
	int interrupted, signal;
};

/* "N=1,2,4" into the result. Returns 0 or -1 after error_usage(). */
static int parse_param(const char *s, struct regress_report *r)
{
	const char *eq = strchr(s, '=');
	if (!eq || eq == s)
		return error_usage("regress", "--param '%s': expected NAME=v1,v2,... (as N=1,2,4)", s);
	if ((size_t)(eq - s) >= sizeof(r->name))
		return error_usage("regress", "--param: the name '%.20s...' is %d characters, more than the %zu allowed",
				   s, (int)(eq - s), sizeof(r->name) - 1);
	snprintf(r->name, sizeof(r->name), "%.*s", (int)(eq - s), s);
	for (const char *p = eq + 1;;) {
		size_t n = strcspn(p, ",");
		if (r->nvalues >= REGRESS_VALUES_MAX)
			return error_usage("regress", "--param %s: more than %d values (the limit)", r->name, REGRESS_VALUES_MAX);
		/* every item between commas is a value: "1,,2", "1,2," and "N=" have an empty one */
		if (n == 0)
			return error_usage("regress", "--param '%s': an empty value (at %s); give NAME=v1,v2,... without "
					   "empty items", s, !*p ? "the end" : p == eq + 1 ? "the start" : "',,'");
		if (n >= sizeof(r->text[0]))
			return error_usage("regress", "--param %s: the value '%.20s...' is %zu characters, more than the %zu "
					   "allowed", r->name, p, n, sizeof(r->text[0]) - 1);
		snprintf(r->text[r->nvalues], sizeof(r->text[0]), "%.*s", (int)n, p);
		double v;
		if (number_parse_double(r->text[r->nvalues], -DBL_MAX, DBL_MAX, &v) != 0)
			return error_usage("regress", "parameter value '%s' is not a decimal number", r->text[r->nvalues]);
		/* a value given twice adds no information about the shape and, with as many values as
		 * coefficients, leaves a fit singular: say so rather than fit it */
		for (int j = 0; j < r->nvalues; j++)
			if (r->values[j] == v)
				return error_usage("regress", "--param %s: the value %s is given twice ('%s' and '%s'); give "
							      "each value once (-r repeats the runs)",
						   r->name, r->text[r->nvalues], r->text[j], r->text[r->nvalues]);
		r->values[r->nvalues++] = v;
		if (!p[n])
			break;
		p += n + 1;
	}
	if (r->nvalues < 2)
		return error_usage("regress", "--param needs at least 2 values to regress against");
	return 0;
}

/* argv with every "{NAME}" replaced by the value's text (malloc'd strings). */
static char **substitute(char **argv, int argc, const char *name, const char *value)
{
	char key[80];
	snprintf(key, sizeof(key), "{%s}", name);
	char **out = calloc((size_t)argc + 1, sizeof(char *));
	for (int i = 0; out && i < argc; i++) {
		size_t cap = strlen(argv[i]) * (strlen(value) + 1) + 1;
		char *s = malloc(cap), *w = s;
		if (!s)
			break;
		for (const char *p = argv[i]; *p;) {
			if (!strncmp(p, key, strlen(key))) {
				w += sprintf(w, "%s", value);
				p += strlen(key);
			} else {
				*w++ = *p++;
			}
		}
		*w = 0;
		out[i] = s;
	}
	return out;
}

static void free_argv(char **v)
{
	for (int i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static int regress_fit(struct regress_report *r)
{
	const struct measure_stat *m0 = &r->m[0];
	r->nev = m0->nevents;
	r->ev = calloc((size_t)r->nev, sizeof(*r->ev));
	if (!r->ev)
		return error("out of memory");
	for (int i = 0; i < r->nev; i++) {
		struct regress_event *e = &r->ev[i];
		e->name = m0->ev[i].name;
		e->unit = m0->ev[i].unit;
		size_t cap = (size_t)r->measured * (size_t)r->runs + 1;
		e->x = malloc(cap * sizeof(double));
		e->y = malloc(cap * sizeof(double));
		if (!e->x || !e->y)
			return error("out of memory");
		for (int v = 0; v < r->measured; v++) {
			const struct stat_event *se = &r->m[v].ev[i];
			e->mean[v] = se->n ? se->mean : NAN;
			for (int k = 0; k < r->m[v].runs; k++)
				if (se->values && !isnan(se->values[k])) {
					e->x[e->npts] = r->values[v];
					e->y[e->npts++] = se->values[k];
				}
		}
		if (!m0->ev[i].available)
			e->reason = m0->ev[i].reason;
		else if (fit_all(e->x, e->y, (size_t)e->npts, &e->fit) != 0 || e->fit.best < 0)
			e->reason = "too few counted runs to fit";
		else
			e->fitted = 1;
	}
	return 0;
}

/* "regress-NAME" with every byte of NAME but letters, digits, '-' and '_' as '_'. */
static const char *plot_file_name(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "regress-%s", name);
	for (char *p = buf; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
			*p = '_';
	return buf;
}

/* One plot per event with counted runs: the runs as points, the best fit as a line (the reason
 * in the title when there is none). Names are data: every one goes through plot_quote(), file
 * names are made of the event's letters and digits. 0, or -1 after a warning or an error. */
static int regress_plot(const struct regress_report *r)
{
	struct as_error err = { 0 };
	int drawn = 0, empty = 0;
	for (int i = 0; i < r->nev; i++) {
		const struct regress_event *e = &r->ev[i];
		if (e->npts < 1) {
			empty++;
			continue;
		}
		char safe[80], other[80], path[PATH_MAX], formula[256], body[4096], c1[300], c2[300];
		plot_file_name(e->name, safe, sizeof(safe));
		for (int j = 0; j < i; j++) /* two names that differ only in what became '_' get two files */
			if (!strcmp(plot_file_name(r->ev[j].name, other, sizeof(other)), safe)) {
				snprintf(safe, sizeof(safe), "regress-%d", i + 1);
				break;
			}
		char *data = NULL;
		size_t len = 0;
		FILE *ms = open_memstream(&data, &len);
		if (!ms)
			return error("out of memory");
		fprintf(ms, "# %s  %s (%s)\n", plot_comment(r->name, c1, sizeof(c1)), plot_comment(e->name, c2, sizeof(c2)),
			e->unit);
		for (int k = 0; k < e->npts; k++)
			fprintf(ms, "%.17g %.17g\n", e->x[k], e->y[k]);
		fclose(ms);
		snprintf(path, sizeof(path), "%s/%s.dat", r->plot_dir, safe);
		int rc = atomic_file_write(path, data, len, &err);
		free(data);
		if (rc)
			return error_err(&err);
		char title[600], ylabel[600], qt[1300], qx[300], qy[1300], fit[1024], label[1024] = "";
		snprintf(title, sizeof(title), "%s against %s", e->name, r->name);
		snprintf(ylabel, sizeof(ylabel), "%s (%s)", e->name, e->unit);
		if (e->fitted) {
			const struct fit_result *b = &e->fit.m[e->fit.best];
			char ft[300], qf[700];
			fit_formula((enum fit_model)e->fit.best, b->coef, formula, sizeof(formula));
			snprintf(ft, sizeof(ft), "best: %s, R² %.4f", fit_name((enum fit_model)e->fit.best), b->r2);
			snprintf(fit, sizeof(fit), ", %s with lines lw 2 title %s", formula, plot_quote(ft, qf, sizeof(qf)));
		} else {
			char ft[300], qf[700];
			snprintf(ft, sizeof(ft), "no fit: %s", e->reason ? e->reason : "too few points");
			fit[0] = '\0';
			snprintf(label, sizeof(label), "set label 1 %s at graph 0.02, graph 0.85 noenhanced\n",
				 plot_quote(ft, qf, sizeof(qf)));
		}
		snprintf(body, sizeof(body),
			 "set title %s noenhanced\nset xlabel %s noenhanced\nset ylabel %s noenhanced\nset key top left\n"
			 "%splot '%s.dat' using 1:2 with points pt 7 title 'runs'%s\n",
			 plot_quote(title, qt, sizeof(qt)), plot_quote(r->name, qx, sizeof(qx)),
			 plot_quote(ylabel, qy, sizeof(qy)), label, safe, fit);
		rc = plot_render(r->plot_dir, safe, body, &err);
		if (rc < 0)
			return error_err(&err);
		if (rc == 1) { /* said once: the scripts and data are there */
			cli_plot_done(rc, r->plot_dir, safe, &err);
			return 0;
		}
		drawn++;
	}
	if (!drawn)
		return warning("no picture in %s: no event was counted in any run", r->plot_dir), -1;
	if (empty)
		warning("%d event%s counted in no run: no picture for %s", empty, empty == 1 ? " was" : "s were",
			empty == 1 ? "it" : "them");
	return 0;
}

static void regress_render(struct emit *e, const struct regress_report *r)
{
	emit_string(e, RR_KEY(COMMAND), "command", r->command);
	emit_string(e, RR_KEY(PARAM), "parameter", r->name);
	emit_array_begin(e, RR_KEY(VALUES), "values");
	for (int v = 0; v < r->measured; v++)
		emit_number(e, NULL, "", r->values[v], NULL, "%g");
	emit_array_end(e);
	emit_int(e, RR_KEY(RUNS), "runs per value", r->runs, NULL);
	emit_table_begin(e, NULL, "events (AICc of each fit; best: the simplest shape the lowest AICc does not clearly beat)");
	for (int i = 0; i < r->nev; i++) {
		const struct regress_event *ev = &r->ev[i];
		emit_row_begin(e);
		emit_string(e, NULL, "event", ev->name);
		if (!ev->fitted) { /* the reason the JSON gives, in the fit column */
			emit_text(e, "best", "%s", ev->npts ? "<no fit>" : "<not counted>");
			emit_text(e, "R²", "%s", "");
			for (int m = 0; m < FIT_MODELS; m++)
				emit_text(e, fit_name((enum fit_model)m), "%s", "");
			emit_text(e, "fit", "%s", ev->reason ? ev->reason : "");
		} else {
			emit_string(e, NULL, "best", fit_name((enum fit_model)ev->fit.best));
			emit_number(e, NULL, "R²", ev->fit.m[ev->fit.best].r2, NULL, "%.4f");
			for (int m = 0; m < FIT_MODELS; m++)
				emit_number(e, NULL, fit_name((enum fit_model)m), ev->fit.m[m].aicc, NULL, "%.1f");
			char f[256];
			fit_formula((enum fit_model)ev->fit.best, ev->fit.m[ev->fit.best].coef, f, sizeof(f));
			emit_text(e, "fit", "%s", f);
		}
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_list_begin(e, RR_KEY(EVENTS), NULL);
	for (int i = 0; i < r->nev; i++) {
		const struct regress_event *ev = &r->ev[i];
		emit_object_begin(e, NULL, NULL);
		emit_string(e, RR_KEY(EV_NAME), NULL, ev->name);
		emit_string(e, RR_KEY(EV_UNIT), NULL, ev->unit);
		emit_string(e, RR_KEY(EV_BEST), NULL, ev->fitted ? fit_name((enum fit_model)ev->fit.best) : NULL);
		emit_number(e, RR_KEY(EV_R2), NULL, ev->fitted ? ev->fit.m[ev->fit.best].r2 : NAN, NULL, NULL);
		emit_object_begin(e, RR_KEY(EV_FITS), NULL);
		for (int m = 0; ev->fitted && m < FIT_MODELS; m++) {
			const struct fit_result *f = &ev->fit.m[m];
			emit_object_begin(e, fit_name((enum fit_model)m), NULL);
			emit_number(e, RR_KEY(FIT_R2), NULL, f->valid ? f->r2 : NAN, NULL, NULL);
			emit_number(e, RR_KEY(FIT_AICC), NULL, f->valid ? f->aicc : NAN, NULL, NULL);
			emit_array_begin(e, RR_KEY(FIT_COEF), NULL);
			for (int c = 0; f->valid && c < f->ncoef; c++)
				emit_number(e, NULL, NULL, f->coef[c], NULL, NULL);
			emit_array_end(e);
			emit_object_end(e);
		}
		emit_object_end(e);
		emit_array_begin(e, RR_KEY(EV_MEANS), NULL);
		for (int v = 0; v < r->measured; v++)
			emit_number(e, NULL, NULL, ev->mean[v], NULL, NULL);
		emit_array_end(e);
		emit_table_begin(e, RR_KEY(EV_POINTS), NULL);
		for (int k = 0; k < ev->npts; k++) {
			emit_tuple_begin(e);
			emit_number(e, NULL, NULL, ev->x[k], NULL, NULL);
			emit_number(e, NULL, NULL, ev->y[k], NULL, NULL);
			emit_row_end(e);
		}
		emit_table_end(e);
		if (ev->reason)
			emit_string(e, RR_KEY(EV_REASON), NULL, ev->reason);
		else
			emit_null(e, RR_KEY(EV_REASON), NULL, NULL);
		emit_object_end(e);
	}
	emit_list_end(e);
	emit_string(e, RR_KEY(PLOTS), r->plot_dir ? "plots" : NULL, r->plot_dir);
	emit_bool(e, RR_KEY(INTERRUPTED), NULL, r->interrupted);
	if (r->interrupted)
		emit_text(e, "interrupted", "by %s: %d of %d values measured; the cut run is left out of every fit",
			  strsignal(r->signal), r->measured, r->nvalues);
}

static void regress_render_cb(struct emit *e, const void *ctx)
{
	regress_render(e, ctx);
}

static const char *const regress_usage[] = {
	"archscope regress --param NAME=v1,v2,... [-r RUNS] [-e EVENT,...|--all|-M GROUP] [--plot DIR] [-o FILE] [--json] -- COMMAND ... {NAME} ...",
	NULL
};
static const struct opt_cmd regress_cmd = {
	.name = "regress",
	.usage = regress_usage,
	.description =
		"Runs COMMAND with {NAME} replaced by each value of the parameter, RUNS times each (as 'stat' does),\n"
		"and fits every event against the parameter's values (every counted run is a point): constant,\n"
		"linear, quadratic, exponential (log-linear) and power (log-log), each with R² and AICc; the shape\n"
		"with the lowest AICc is named best. --plot draws each event's runs and its best fit.\n"
		"The report goes to stderr (or -o FILE as JSON), never into the program's stdout.\n",
	.epilog = "Ctrl-C or SIGTERM goes to the program's process group: the values and runs done are fitted, the\n"
		  "cut run is left out, the result is marked interrupted and regress exits 130 (-o FILE is then\n"
		  "left as it was). Exit 1: the program failed or crashed; 2: bad options, a program that cannot\n"
		  "be started, or an unusable --plot DIR or -o FILE (checked before anything runs).\n",
	.flags = OPT_CMD_STOP_AT_NON_OPTION,
};

/* The command uses {NAME}: 0, or -1 after error_usage(). */
static int regress_command_check(const struct regress_report *r, int argc, char **argv)
{
	char key[80];
	snprintf(key, sizeof(key), "{%s}", r->name);
	for (int i = 0; i < argc; i++)
		if (strstr(argv[i], key))
			return 0;
	error_usage("regress", "the command does not use %s: write it where the value goes", key);
	return -1;
}

/* Runs the command at every value of the parameter, as stat does, until one fails or a signal cuts
 * it; r->measured values are kept. *failed: a run exited non-zero or crashed. 0, or an exit code
 * after error(). */
static int regress_measure(struct regress_report *r, const struct stat_select *sel, int argc, char **argv, int *failed)
{
	int rc = 0;
	for (int v = 0; v < r->nvalues && rc == 0 && !r->interrupted; v++) {
		char **args = substitute(argv, argc, r->name, r->text[v]);
		if (!args) {
			rc = EXIT_FAIL;
			error("out of memory");
			break;
		}
		if (!cli_quiet)
			progress("regress: %s = %s (%d of %d)", r->name, r->text[v], v + 1, r->nvalues);
		struct stat_opts o = { .runs = r->runs, .stdout_fd = -1, .stderr_fd = 2 };
		rc = cli_stat_measure(&r->m[v], sel, args, &o);
		free_argv(args);
		if (rc) {
			measure_stat_release(&r->m[v]);
			break;
		}
		r->interrupted = r->m[v].interrupted;
		r->signal = r->m[v].signal;
		/* a value whose runs were all cut adds no point */
		if (r->m[v].nrun == 0) {
			measure_stat_release(&r->m[v]);
			break;
		}
		r->measured = v + 1;
		*failed |= cli_program_report(r->command, &r->m[v]) != EXIT_OK;
	}
	return rc;
}

/* The fits, the plots and the report; EXIT_FAIL after error() with fewer than 2 values measured. */
static int regress_deliver(struct regress_report *r, const char *out, int json)
{
	if (r->measured < 2 || regress_fit(r) != 0) {
		error("%s: fewer than 2 parameter values were measured: nothing to fit",
		      r->interrupted ? "interrupted" : "regress");
		return EXIT_FAIL;
	}
	int prc = r->plot_dir ? regress_plot(r) : 0;
	int rc = cli_report_deliver("regress", out, json, r->interrupted, regress_render_cb, r);
	return prc ? EXIT_FAIL : rc;
}

static void regress_report_release(struct regress_report *r)
{
	for (int i = 0; i < r->nev; i++) {
		free(r->ev[i].x);
		free(r->ev[i].y);
	}
	free(r->ev);
	for (int v = 0; v < r->measured; v++)
		measure_stat_release(&r->m[v]);
}

int cmd_regress(int argc, char **argv)
{
	static struct regress_report r;
	struct cli_stat_args a = { 0 };
	struct opt_strings params = { 0 };
	const char *out = NULL;
	int json = 0;
	memset(&r, 0, sizeof(r));
	r.runs = 5;
	const struct opt options[] = {
		OPT_STRINGS(0, "param", &params, "NAME=v1,v2,...", "the parameter and its values (required; one)",
			    .flags = OPT_F_REQUIRED),
		OPT_INT('r', "repeat", &r.runs, "RUNS", 1, 100000, "runs per value (default 5)"),
		OPT_STRINGS('e', "event", &a.events, "EVENT", "events to count (repeatable, comma lists)"),
		OPT_FLAG(0, "all", &a.all, "every event of this CPU's PMUs and every software event"),
		OPT_STRING('M', "metrics", &a.group, "GROUP", "the events of a metric group from share/archscope/groups"),
		OPT_PLOT(&r.plot_dir),
		OPT_STRING('o', "output", &out, "FILE", "write the JSON result to FILE (atomically), not to stderr"),
		OPT_JSON(&json),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &regress_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	/* the fits are of one variable: a second --param would leave its {NAME} in the command */
	if (params.n > 1) {
		error_usage("regress", "--param is given %d times ('%s' and '%s'): regress fits the events against one "
			    "parameter; run it once per parameter, with the others fixed in the command", params.n,
			    params.v[0], params.v[1]);
		return EXIT_USAGE;
	}
	if (parse_param(params.v[0], &r) != 0 || cli_output_dir_check("regress", "--plot", r.plot_dir) != 0)
		return EXIT_USAGE;
	if (argc < 1) {
		error_usage("regress", "a command to run is required (archscope regress --param N=1,2 -- COMMAND {N})");
		return EXIT_USAGE;
	}
	if (regress_command_check(&r, argc, argv) != 0)
		return EXIT_USAGE;
	cli_command_line(argv, r.command, sizeof(r.command));
	/* where the results go is checked before anything runs */
	if (out && cli_output_check("regress", out, 0) != 0)
		return EXIT_USAGE;
	if (r.plot_dir) {
		struct as_error perr = { 0 };
		if (plot_dir_prepare(r.plot_dir, &perr) != 0)
			return error_usage("regress", "--plot: %s", perr.msg), EXIT_USAGE;
	}
	struct stat_select sel;
	int rc = cli_stat_select("regress", &a, &sel);
	if (rc)
		return rc;
	int failed = 0;
	interrupt_install();
	rc = regress_measure(&r, &sel, argc, argv, &failed);
	if (!r.interrupted && interrupt_signal()) {
		r.interrupted = 1;
		r.signal = interrupt_signal();
	}
	if (rc == 0)
		rc = regress_deliver(&r, out, json);
	interrupt_restore();
	regress_report_release(&r);
	measure_stat_select_release(&sel);
	if (r.interrupted)
		return INTERRUPT_EXIT;
	return rc ? rc : failed ? EXIT_FAIL : EXIT_OK;
}
