/* archscope compare: two stat results (A, B) event by event with Welch's t-test, exact p values,
 * Benjamini–Hochberg q over every event compared, Hedges' g and the ratio B/A with its 95 %
 * interval, sorted by q then by size of change (EvSel's comparison, NUMA thesis §4.1.2, mended). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "cli/cli.h"
#include "cli/parse-options.h"
#include "measure/stat-json.h"
#include "measure/stat-select.h"
#include "report/emit.h"

struct cmp_event {
	const char *name, *unit;
	struct stats_sample a, b;
	struct stats_welch w;
	double q, g, ratio, lo, hi;
	int significant;
};

struct compare_result {
	const char *path_a, *path_b;
	double alpha, min_change_pct;
	int n, tests;
	struct cmp_event *ev;
	int few_runs;      /* some event has fewer than 3 runs on a side */
	struct measure_stat_json a, b; /* the results read (names point into them) */
	char only_a[1024], only_b[1024];
};

static int wanted(const struct stat_select *only, const char *name)
{
	if (!only->n)
		return 1;
	for (int i = 0; i < only->n; i++)
		if (!strcmp(only->names[i], name))
			return 1;
	return 0;
}

static void append(char *buf, size_t len, const char *name)
{
	size_t used = strlen(buf);
	if (used + strlen(name) + 3 < len)
		snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
}

static int cmp_order(const void *x, const void *y)
{
	const struct cmp_event *a = x, *b = y;
	int na = isnan(a->q), nb = isnan(b->q);
	if (na != nb)
		return na - nb;
	if (!na && a->q != b->q)
		return a->q < b->q ? -1 : 1;
	double ca = isnan(a->ratio) || a->ratio <= 0 ? 0 : fabs(log(a->ratio));
	double cb = isnan(b->ratio) || b->ratio <= 0 ? 0 : fabs(log(b->ratio));
	return ca > cb ? -1 : ca < cb ? 1 : strcmp(a->name, b->name);
}

static int compare_run(struct compare_result *r, const struct stat_select *only)
{
	struct as_error err = { 0 };
	if (measure_stat_json_read(&r->a, r->path_a, &err) != 0 || measure_stat_json_read(&r->b, r->path_b, &err) != 0) {
		error_err(&err);
		return EXIT_USAGE;
	}
	r->ev = calloc(r->a.n + 1, sizeof(*r->ev));
	if (!r->ev)
		return error("out of memory") ? EXIT_FAIL : EXIT_FAIL;
	for (size_t i = 0; i < r->a.n; i++) {
		const struct measure_stat_json_event *e = &r->a.ev[i];
		if (!wanted(only, e->name))
			continue;
		const struct measure_stat_json_event *f = measure_stat_json_find(&r->b, e->name);
		if (!f) {
			append(r->only_a, sizeof(r->only_a), e->name);
			continue;
		}
		struct cmp_event *c = &r->ev[r->n++];
		c->name = e->name;
		c->unit = e->unit;
		stats_sample(e->values, e->n, &c->a);
		stats_sample(f->values, f->n, &c->b);
		stats_welch_t(&c->a, &c->b, &c->w);
		c->g = stats_hedges_g(&c->a, &c->b);
		c->ratio = stats_ratio_ci(&c->a, &c->b, 0.95, &c->lo, &c->hi);
		if ((c->a.n && c->a.n < 3) || (c->b.n && c->b.n < 3))
			r->few_runs = 1;
	}
	for (size_t i = 0; i < r->b.n; i++) {
		const char *name = r->b.ev[i].name;
		if (wanted(only, name) && !measure_stat_json_find(&r->a, name))
			append(r->only_b, sizeof(r->only_b), name);
	}
	double *p = malloc((size_t)(r->n + 1) * sizeof(double)), *q = malloc((size_t)(r->n + 1) * sizeof(double));
	if (!p || !q) {
		free(p);
		free(q);
		error("out of memory");
		return EXIT_FAIL;
	}
	for (int k = 0; k < r->n; k++)
		p[k] = r->ev[k].w.p;
	r->tests = stats_bh(p, (size_t)r->n, q);
	for (int k = 0; k < r->n; k++) {
		struct cmp_event *c = &r->ev[k];
		c->q = q[k];
		double change = isnan(c->ratio) ? (c->a.mean != c->b.mean ? INFINITY : 0) : fabs(c->ratio - 1) * 100;
		c->significant = !isnan(c->q) && c->q < r->alpha && change >= r->min_change_pct;
	}
	free(p);
	free(q);
	qsort(r->ev, (size_t)r->n, sizeof(*r->ev), cmp_order);
	return 0;
}

static void compare_render(struct emit *e, const struct compare_result *r)
{
	emit_string(e, "a", "A", r->path_a);
	emit_string(e, "b", "B", r->path_b);
	emit_number(e, "alpha", "alpha (q below)", r->alpha, NULL, "%g");
	emit_number(e, "min_change_pct", "min change", r->min_change_pct, "%", "%g");
	emit_int(e, "tests", "events tested", r->tests, NULL);
	int flagged = 0;
	for (int k = 0; k < r->n; k++)
		flagged += r->ev[k].significant;
	emit_int(e, "significant", "significant", flagged, NULL);
	emit_table_begin(e, "events", "events (sorted by q, then by size of change)");
	for (int k = 0; k < r->n; k++) {
		const struct cmp_event *c = &r->ev[k];
		emit_row_begin(e);
		emit_string(e, "name", "event", c->name);
		emit_number(e, "mean_a", "mean A", c->a.mean, c->unit, "%.6g");
		emit_number(e, "mean_b", "mean B", c->b.mean, NULL, "%.6g");
		emit_number(e, "ratio", "B/A", c->ratio, NULL, "%.4f");
		emit_number(e, "ratio_low", "95 % low", c->lo, NULL, "%.4f");
		emit_number(e, "ratio_high", "95 % high", c->hi, NULL, "%.4f");
		emit_number(e, "p", "p", c->w.p, NULL, "%.3g");
		emit_number(e, "q", "q", c->q, NULL, "%.3g");
		emit_number(e, "hedges_g", "g", c->g, NULL, "%.3g");
		emit_bool(e, "significant", "flag", c->significant);
		emit_number(e, "t", NULL, c->w.t, NULL, NULL);
		emit_number(e, "df", NULL, c->w.df, NULL, NULL);
		emit_int(e, "n_a", NULL, (long long)c->a.n, NULL);
		emit_int(e, "n_b", NULL, (long long)c->b.n, NULL);
		emit_number(e, "stddev_a", NULL, sqrt(c->a.var), NULL, NULL);
		emit_number(e, "stddev_b", NULL, sqrt(c->b.var), NULL, NULL);
		emit_bool(e, "constants", NULL, c->w.exact);
		emit_string(e, "unit", NULL, c->unit);
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_string(e, "only_in_a", r->only_a[0] ? "only in A" : NULL, r->only_a);
	emit_string(e, "only_in_b", r->only_b[0] ? "only in B" : NULL, r->only_b);
	emit_bool(e, "few_runs", NULL, r->few_runs);
}

static const char *const compare_usage[] = { "archscope compare [--alpha Q] [--min-change PCT] [-e EVENT,...] [--json] A.json B.json",
					     NULL };
static const struct opt_cmd compare_cmd = {
	.name = "compare",
	.usage = compare_usage,
	.description =
		"Compares two results of 'archscope stat -o FILE' (or --json) event by event: Welch's t-test (variances\n"
		"may differ) with the exact p value of the t distribution and Welch-Satterthwaite degrees of freedom,\n"
		"Benjamini-Hochberg q values over all events compared (so testing hundreds of events at once does\n"
		"not flag dozens by chance), Hedges' g and the ratio B/A with a 95 % interval. An event is flagged\n"
		"when q < alpha and it changed by at least --min-change percent. Two constants: equal ones are not\n"
		"significant, different ones are (p 0). Sorted by q, then by size of change.\n",
	.epilog = "Fewer than 3 runs on a side gives a warning: such a test has little power.\n",
};

int cmd_compare(int argc, char **argv)
{
	struct compare_result r = { .alpha = 0.05, .min_change_pct = 1 };
	struct opt_strings events = { 0 };
	int json = 0;
	const struct opt options[] = {
		OPT_DOUBLE(0, "alpha", &r.alpha, "Q", 0, 1, "false discovery rate: flag events with q below Q (default 0.05)",
			   .flags = OPT_F_ABOVE_MIN),
		OPT_DOUBLE(0, "min-change", &r.min_change_pct, "PCT", 0, 1e9,
			   "and a change of at least PCT percent (default 1; 0: statistical significance alone)"),
		OPT_STRINGS('e', "event", &events, "EVENT", "compare only these events (repeatable, comma lists)"),
		OPT_JSON(&json),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &compare_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc != 2) {
		error_usage("compare", "two stat results are required (A.json B.json)");
		return EXIT_USAGE;
	}
	r.path_a = argv[0];
	r.path_b = argv[1];
	struct stat_select only;
	stat_select_init(&only);
	struct as_error err = { 0 };
	for (int i = 0; i < events.n; i++)
		if (stat_select_add(&only, events.v[i], &err) != 0) {
			error_err(&err);
			stat_select_release(&only);
			return EXIT_FAIL;
		}
	int rc = compare_run(&r, &only);
	if (rc == 0) {
		if (!r.n)
			note("no event is in both results");
		if (r.few_runs)
			note("fewer than 3 runs on a side for some events: their tests have little power");
		struct emit *e = emit_new(json ? EMIT_JSON : EMIT_TEXT, stdout);
		if (e) {
			compare_render(e, &r);
			rc = cli_emit_end(e, "compare");
		} else {
			rc = error("out of memory") ? EXIT_FAIL : EXIT_FAIL;
		}
	}
	stat_select_release(&only);
	free(r.ev);
	measure_stat_json_release(&r.a);
	measure_stat_json_release(&r.b);
	return rc;
}
