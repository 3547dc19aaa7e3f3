/* archscope analyze: re-derives an answer from a saved curve (x,y CSV) with the same statistics
 * the probes use, so anyone can check an answer from the raw data. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/steps.h"
#include "cli/cli.h"
#include "cli/parse-options.h"
#include "machine/result-analyze.h"
#include "report/csv.h"
#include "report/emit.h"

/* The methods, once: AM_<ID> and method_names[AM_<ID>], the name --method takes. */
#define ANALYZE_METHODS(X)                                                                         \
	X(MONOTONE, "monotone") X(FIRST_STEP, "first-step") X(BIGGEST_STEP, "biggest-step")        \
	X(SCALED_STEP, "scaled-step") X(QT, "qt") X(LEVELS, "levels")
enum analyze_method {
#define X(id, name) AM_##id,
	ANALYZE_METHODS(X)
#undef X
};
static const char *const method_names[] = {
#define X(id, name) name,
	ANALYZE_METHODS(X)
#undef X
	NULL
};

struct analyze_opts {
	int method;          /* enum analyze_method */
	int monotone;        /* qt: make the curve monotone first */
	double diameter;     /* qt: relative cluster diameter */
	const char *unit;    /* of x */
	int json;
	const char *path;
};

/* One analysis of one curve: what the renderer prints. */
struct analyze_result {
	const struct analyze_opts *o;
	size_t n;
	double *x, *y;       /* the curve as read */
	double *ym;          /* y as analysed: monotone, or as read */
	struct step_answer step;        /* step methods */
	struct level lv[16];            /* levels */
	int nlevels;
	double final_last;   /* levels: y of the final plateau's last point, NaN: none */
	struct qt_cluster cl[64];       /* qt */
	int nclusters;
};

static const char *const step_descs[] = {
	[AM_FIRST_STEP] = "first step above the mean relative increase (BlackjackBench 4.2.1)",
	[AM_BIGGEST_STEP] = "biggest relative step (BlackjackBench 4.2.2)",
	[AM_SCALED_STEP] = "biggest scaled step dY*Y (BlackjackBench 4.2.2)",
};

/* Reads the curve and runs the method. Returns 0, or an exit code after error(). */
static int analyze_run(struct analyze_result *r)
{
	const struct analyze_opts *o = r->o;
	struct as_error err = { 0 };
	if (csv_read_xy(o->path, &r->x, &r->y, &r->n, &err) != 0) {
		error_err(&err);
		return EXIT_USAGE;
	}
	for (size_t i = 1; i < r->n; i++)
		if (!(r->x[i] > r->x[i - 1])) {
			error("'%s': x must increase from row to row (data row %zu: %g after %g)", o->path, i + 1, r->x[i],
			      r->x[i - 1]);
			return EXIT_USAGE;
		}
	r->ym = malloc((r->n ? r->n : 1) * sizeof(double));
	if (!r->ym) {
		error("out of memory");
		return EXIT_FAIL;
	}
	if (o->method == AM_MONOTONE || (o->method == AM_QT && o->monotone))
		steps_monotone(r->y, r->ym, r->n);
	else
		memcpy(r->ym, r->y, r->n * sizeof(double));

	if ((o->method == AM_LEVELS || o->method == AM_QT) && r->n > STEPS_QT_MAX_POINTS) {
		error("'%s': %zu points: -m %s clusters at most %d (its time grows with the square of the "
		      "points); thin the curve, or use a step method", o->path, r->n, method_names[o->method], STEPS_QT_MAX_POINTS);
		return EXIT_USAGE;
	}
	switch (o->method) {
	case AM_FIRST_STEP:
		r->step = steps_first(r->ym, r->n);
		break;
	case AM_BIGGEST_STEP:
		r->step = steps_biggest_relative(r->ym, r->n);
		break;
	case AM_SCALED_STEP:
		r->step = steps_biggest_scaled(r->ym, r->n);
		break;
	case AM_LEVELS: {
		double final_min;
		r->nlevels = steps_hierarchy(r->x, r->y, r->n, r->lv, 16, &final_min, &r->final_last);
		if (r->nlevels < 0) {
			error("'%s': cannot derive levels from these values", o->path);
			return EXIT_USAGE;
		}
		break;
	}
	case AM_QT:
		r->nclusters = steps_qt_cluster(r->x, r->ym, r->n, o->diameter, r->cl, 64);
		if (r->nclusters < 0) {
			error("'%s': cannot cluster these values", o->path);
			return EXIT_USAGE;
		}
		break;
	default:
		break;
	}
	return 0;
}

static void analyze_release(struct analyze_result *r)
{
	free(r->x);
	free(r->y);
	free(r->ym);
}

/* monotone: the curve as read and made monotone; no answer. */
static void render_monotone(struct emit *e, const struct analyze_result *r)
{
	const char *unit = r->o->unit;
	emit_table_begin(e, AR_KEY(CURVE), "monotone curve");
	for (size_t i = 0; i < r->n; i++) {
		emit_tuple_begin(e);
		emit_number(e, NULL, "x", r->x[i], unit, NULL);
		emit_text(e, "y", "%g", r->y[i]);
		emit_number(e, NULL, "y monotone", r->ym[i], NULL, NULL);
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_null(e, AR_KEY(ANSWER), NULL, NULL);
}

/* A step method: the x of the last point before the step, and the step. */
static void render_step(struct emit *e, const struct analyze_result *r)
{
	const struct analyze_opts *o = r->o;
	const char *unit = o->unit;
	const struct step_answer *a = &r->step;
	emit_answer(e, AR_KEY(ANSWER), "answer",
		    &(struct emit_answer){ .value = a->index >= 0 ? r->x[a->index] : NAN, .unit = unit,
					   .confidence = a->confidence, .method = step_descs[o->method],
					   .os_reported = NAN });
	emit_int(e, AR_KEY(STEP_INDEX), NULL, a->index, NULL);
	emit_number(e, AR_KEY(STEP_SIZE), "step", a->size, NULL, "%.3g");
	emit_number(e, AR_KEY(THRESHOLD), "threshold", a->threshold, NULL, "%.3g");
	if (a->index >= 0)
		emit_number(e, AR_KEY(X_AFTER), "x after the step", r->x[a->index + 1], unit, NULL);
}

/* levels: each level's edge, the final plateau, and how many. */
static void render_levels(struct emit *e, const struct analyze_result *r)
{
	const char *unit = r->o->unit;
	emit_table_begin(e, AR_KEY(LEVELS), "levels");
	for (int i = 0; i < r->nlevels; i++) {
		const struct level *l = &r->lv[i];
		emit_row_begin(e);
		emit_int(e, AR_KEY(LEVEL), "level", i + 1, NULL);
		emit_answer(e, AR_KEY(LEVEL_SIZE), "size (edge)",
			    &(struct emit_answer){ .value = l->size, .unit = unit, .confidence = l->confidence,
						   .method = "edge halfway to the next level (BlackjackBench 4.2.3 QT levels)",
						   .os_reported = NAN });
		emit_number(e, AR_KEY(LEVEL_QT_MAX_X), "qt max x", l->qt_max_x, unit, NULL);
		emit_number(e, AR_KEY(LEVEL_LATENCY), "min y", l->latency, NULL, NULL);
		emit_int(e, AR_KEY(LEVEL_POINTS), "points", (long long)l->points, NULL);
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_number(e, AR_KEY(FINAL_PLATEAU), "final plateau (memory)", r->final_last, NULL, NULL);
	emit_answer(e, AR_KEY(ANSWER), "answer",
		    &(struct emit_answer){ .value = r->nlevels, .unit = "levels", .confidence = 1.0,
					   .method = "QT levels spanning an octave, below the final plateau",
					   .os_reported = NAN });
}

/* qt: the clusters of y and how many. */
static void render_qt(struct emit *e, const struct analyze_result *r)
{
	const struct analyze_opts *o = r->o;
	const char *unit = o->unit;
	emit_table_begin(e, AR_KEY(CLUSTERS), "clusters");
	for (int i = 0; i < r->nclusters; i++) {
		const struct qt_cluster *c = &r->cl[i];
		emit_row_begin(e);
		emit_int(e, NULL, "cluster", i + 1, NULL);
		emit_number(e, AR_KEY(CL_MIN_X), "min x", c->min_x, unit, NULL);
		emit_number(e, AR_KEY(CL_MAX_X), "max x", c->max_x, unit, NULL);
		emit_number(e, AR_KEY(CL_MIN_Y), "min y", c->min_y, NULL, NULL);
		emit_number(e, AR_KEY(CL_MAX_Y), "max y", c->max_y, NULL, NULL);
		emit_int(e, AR_KEY(CL_POINTS), "points", (long long)c->points, NULL);
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_bool(e, AR_KEY(MONOTONE), "made monotone first", o->monotone);
	emit_number(e, NULL, "diameter", o->diameter * 100, "% of the cluster mean", "%.0f");
	emit_answer(e, AR_KEY(ANSWER), "answer",
		    &(struct emit_answer){ .value = r->nclusters, .unit = "clusters", .confidence = 1.0,
					   .method = "QT clustering, variable diameter (BlackjackBench 4.2.3)",
					   .os_reported = NAN });
}

/* The one renderer: text for people, JSON for programs, from the same calls. */
static void analyze_render(struct emit *e, const struct analyze_result *r)
{
	const struct analyze_opts *o = r->o;
	emit_string(e, AR_KEY(FILE), "file", o->path);
	emit_string(e, AR_KEY(METHOD), "method", method_names[o->method]);
	emit_int(e, AR_KEY(POINTS), "points", (long long)r->n, NULL);
	switch (o->method) {
	case AM_MONOTONE:
		render_monotone(e, r);
		break;
	case AM_FIRST_STEP:
	case AM_BIGGEST_STEP:
	case AM_SCALED_STEP:
		render_step(e, r);
		break;
	case AM_LEVELS:
		render_levels(e, r);
		break;
	case AM_QT:
		render_qt(e, r);
		break;
	}
}

static const char *const analyze_usage[] = { "archscope analyze --method METHOD [options] FILE.csv", NULL };
static const struct opt_section analyze_sections[] = {
	{ "methods",
	  "  monotone      the curve made non-decreasing: y_i = min over j >= i of y_j\n"
	  "  first-step    first point whose relative increase exceeds the mean relative increase\n"
	  "  biggest-step  the biggest relative increase (y_i+1 - y_i) / y_i\n"
	  "  scaled-step   the biggest scaled increase (y_i+1 - y_i) * y_i+1\n"
	  "  qt            QT clustering of y with a diameter of 25 % of each cluster's mean\n"
	  "  levels        the cache probe's whole derivation: monotone, QT, levels spanning an octave,\n"
	  "                each level's edge halfway to the next; the last plateau is memory\n"
	  "For step methods the answer is the x of the last point before the step.\n",
	  NULL },
	{ NULL, NULL, NULL },
};
static const struct opt_cmd analyze_cmd = {
	.name = "analyze",
	.usage = analyze_usage,
	.description = "Runs one of the probes' analyses on a saved curve: a CSV whose first two columns are x and y\n"
		       "(a header line and '#' comments are allowed), such as the files `probe --raw DIR` writes.\n",
	.sections = analyze_sections,
};

int cmd_analyze(int argc, char **argv)
{
	struct analyze_opts o = { .method = -1, .monotone = 1, .diameter = 0.25, .unit = "" };
	const struct opt options[] = {
		OPT_CHOICE('m', "method", &o.method, "METHOD", method_names, "the analysis (required)",
			   .flags = OPT_F_REQUIRED),
		OPT_SET_INT(0, "no-monotone", &o.monotone, 0, "qt: cluster the curve as it is (default: make it monotone first)"),
		OPT_DOUBLE(0, "diameter", &o.diameter, "F", 0, 10, "qt: relative cluster diameter (default 0.25)",
			   .flags = OPT_F_ABOVE_MIN),
		OPT_STRING(0, "unit", &o.unit, "UNIT", "unit of x for the answer (default: none)"),
		OPT_JSON(&o.json),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &analyze_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc != 1) {
		error_usage("analyze", argc ? "only one CSV file is analysed at a time" : "a CSV file is required");
		return EXIT_USAGE;
	}
	o.path = argv[0];

	struct analyze_result r = { .o = &o, .final_last = NAN };
	int rc = analyze_run(&r);
	if (rc == 0) {
		struct emit *e = emit_new(o.json ? EMIT_JSON : EMIT_TEXT, stdout);
		if (e) {
			analyze_render(e, &r);
			rc = cli_emit_end(e, "analyze");
		} else {
			rc = EXIT_FAIL;
			error("out of memory");
		}
	}
	analyze_release(&r);
	return rc;
}
