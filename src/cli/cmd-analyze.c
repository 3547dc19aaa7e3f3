/* archscope analyze: re-derives an answer from a saved curve (x,y CSV) with the same statistics
 * the probes use, so anyone can check an answer from the raw data. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/steps.h"
#include "cli/cli.h"
#include "report/csv.h"
#include "report/output.h"
#include "report/table.h"

static const char usage[] =
	"usage: archscope analyze --method METHOD [options] FILE.csv\n"
	"\n"
	"Runs one of the probes' analyses on a saved curve: a CSV whose first two columns are x and y\n"
	"(a header line and '#' comments are allowed), such as the files `probe --raw DIR` writes.\n"
	"\n"
	"methods:\n"
	"  monotone      the curve made non-decreasing: y_i = min over j >= i of y_j\n"
	"  first-step    first point whose relative increase exceeds the mean relative increase\n"
	"  biggest-step  the biggest relative increase (y_i+1 - y_i) / y_i\n"
	"  scaled-step   the biggest scaled increase (y_i+1 - y_i) * y_i+1\n"
	"  qt            QT clustering of y with a diameter of 25 % of each cluster's mean\n"
	"  levels        the cache probe's whole derivation: monotone, QT, levels spanning an octave,\n"
	"                each level's edge halfway to the next; the last plateau is memory\n"
	"For step methods the answer is the x of the last point before the step.\n"
	"\n"
	"options:\n"
	"  -m, --method METHOD  the analysis (required)\n"
	"  --no-monotone        qt: cluster the curve as it is (default: make it monotone first)\n"
	"  --diameter F         qt: relative cluster diameter (default 0.25)\n"
	"  --unit UNIT          unit of x for the answer (default: none)\n"
	"  --json               one JSON object: {\"archscope\", \"command\", \"machine\", \"results\"}\n"
	"  -h, --help           this help\n";

static const char *methods[] = { "monotone", "first-step", "biggest-step", "scaled-step", "qt", "levels" };

int cmd_analyze(int argc, char **argv)
{
	enum { OPT_NO_MONO = 256, OPT_DIAM, OPT_UNIT, OPT_JSON };
	static const struct option opts[] = {
		{ "method", required_argument, NULL, 'm' },
		{ "no-monotone", no_argument, NULL, OPT_NO_MONO },
		{ "diameter", required_argument, NULL, OPT_DIAM },
		{ "unit", required_argument, NULL, OPT_UNIT },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *method = NULL, *unit = "";
	int json = 0, monotone = 1, c;
	double diameter = 0.25;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "m:h", opts, NULL)) != -1) {
		switch (c) {
		case 'm': method = optarg; break;
		case OPT_NO_MONO: monotone = 0; break;
		case OPT_DIAM: {
			char *end;
			diameter = strtod(optarg, &end);
			if (*end || !(diameter > 0) || diameter > 10)
				usage_error("analyze", "--diameter needs a number in (0, 10], got '%s'", optarg);
			break;
		}
		case OPT_UNIT: unit = optarg; break;
		case OPT_JSON: json = 1; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default:
			if (optopt)
				usage_error("analyze", "option '%s' needs a value", argv[optind - 1]);
			usage_error("analyze", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (!method)
		usage_error("analyze", "--method is required (monotone, first-step, biggest-step, scaled-step, qt, levels)");
	int m = -1;
	for (int i = 0; i < 6; i++)
		if (strcmp(method, methods[i]) == 0)
			m = i;
	if (m < 0)
		usage_error("analyze", "unknown method '%s' (monotone, first-step, biggest-step, scaled-step, qt, levels)", method);
	if (optind + 1 != argc)
		usage_error("analyze", optind >= argc ? "a CSV file is required" : "only one CSV file is analysed at a time");
	const char *path = argv[optind];

	double *x, *y;
	size_t n;
	struct as_error err = { 0 };
	if (csv_read_xy(path, &x, &y, &n, &err) != 0)
		die_err(EXIT_USAGE, &err);
	for (size_t i = 1; i < n; i++)
		if (!(x[i] > x[i - 1])) {
			double xi = x[i], xp = x[i - 1];
			free(x);
			free(y);
			die(EXIT_USAGE, "'%s': x must increase from row to row (data row %zu: %g after %g)", path, i + 1, xi, xp);
		}

	json_t *res = json_object();
	json_object_set_new(res, "file", json_string(path));
	json_object_set_new(res, "method", json_string(method));
	json_object_set_new(res, "points", json_integer((json_int_t)n));
	double *ym = malloc(n * sizeof(double));
	if (!ym)
		die(EXIT_FAIL, "out of memory");
	if (m == 0 || (m == 4 && monotone))
		steps_monotone(y, ym, n);
	else
		memcpy(ym, y, n * sizeof(double));

	if (m == 0) {
		json_t *curve = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append_new(curve, json_pack("[f,f]", x[i], ym[i]));
		json_object_set_new(res, "curve", curve);
		json_object_set_new(res, "answer", json_null());
		if (!json) {
			printf("monotone curve of '%s' (%zu points)\n", path, n);
			struct table *t = table_new(3, "x", "y", "y monotone");
			for (size_t i = 0; i < n; i++) {
				table_cell(t, "%g", x[i]);
				table_cell(t, "%g", y[i]);
				table_cell(t, "%g", ym[i]);
			}
			table_print(t, stdout, "  ");
			table_free(t);
		}
	} else if (m >= 1 && m <= 3) {
		struct step_answer a = m == 1 ? steps_first(ym, n) : m == 2 ? steps_biggest_relative(ym, n)
									: steps_biggest_scaled(ym, n);
		const char *desc = m == 1 ? "first step above the mean relative increase (BlackjackBench 4.2.1)"
				 : m == 2 ? "biggest relative step (BlackjackBench 4.2.2)"
					  : "biggest scaled step dY*Y (BlackjackBench 4.2.2)";
		double ans = a.index >= 0 ? x[a.index] : NAN;
		json_object_set_new(res, "answer", output_answer(ans, unit, a.confidence, desc, NULL));
		json_object_set_new(res, "step_index", json_integer(a.index));
		json_object_set_new(res, "step_size", json_real(a.size));
		json_object_set_new(res, "threshold", json_real(a.threshold));
		if (a.index >= 0)
			json_object_set_new(res, "x_after_step", json_real(x[a.index + 1]));
		if (!json) {
			if (a.index < 0)
				printf("%s: no step found in '%s' (%zu points)\n", method, path, n);
			else
				printf("%s: step between x = %g%s%s and x = %g%s%s (step %.3g, threshold %.3g)\n"
				       "answer: %g%s%s (confidence %.2f)\n",
				       method, x[a.index], *unit ? " " : "", unit, x[a.index + 1], *unit ? " " : "", unit,
				       a.size, a.threshold, ans, *unit ? " " : "", unit, a.confidence);
		}
	} else if (m == 5) {
		struct level lv[16];
		double final_min, final_last;
		int k = steps_hierarchy(x, y, n, lv, 16, &final_min, &final_last);
		if (k < 0)
			die(EXIT_USAGE, "'%s': cannot derive levels from these values", path);
		json_t *arr = json_array();
		for (int i = 0; i < k; i++) {
			json_t *l = json_object();
			json_object_set_new(l, "level", json_integer(i + 1));
			json_object_set_new(l, "size", output_answer(lv[i].size, unit, lv[i].confidence,
					    "edge halfway to the next level (BlackjackBench 4.2.3 QT levels)", NULL));
			json_object_set_new(l, "qt_max_x", json_real(lv[i].qt_max_x));
			json_object_set_new(l, "latency", json_real(lv[i].latency));
			json_object_set_new(l, "points", json_integer((json_int_t)lv[i].points));
			json_array_append_new(arr, l);
		}
		json_object_set_new(res, "levels", arr);
		json_object_set_new(res, "final_plateau", isfinite(final_last) ? json_real(final_last) : json_null());
		json_object_set_new(res, "answer", output_answer(k, "levels", 1.0,
								 "QT levels spanning an octave, below the final plateau", NULL));
		if (!json) {
			printf("levels: %d in '%s' (%zu points)\n", k, path, n);
			struct table *t = table_new(5, "level", "size (edge)", "qt max x", "min y", "points");
			for (int i = 0; i < k; i++) {
				table_cell(t, "%d", i + 1);
				table_cell(t, "%g%s%s", lv[i].size, *unit ? " " : "", unit);
				table_cell(t, "%g%s%s", lv[i].qt_max_x, *unit ? " " : "", unit);
				table_cell(t, "%g", lv[i].latency);
				table_cell(t, "%zu", lv[i].points);
			}
			table_print(t, stdout, "  ");
			table_free(t);
			if (isfinite(final_last))
				printf("final plateau (memory): y = %g at the largest x\n", final_last);
			else
				printf("no final plateau: the curve ends inside a level\n");
		}
	} else {
		struct qt_cluster cl[64];
		int k = steps_qt_cluster(x, ym, n, diameter, cl, 64);
		if (k < 0)
			die(EXIT_USAGE, "'%s': cannot cluster these values", path);
		json_t *arr = json_array();
		for (int i = 0; i < k; i++)
			json_array_append_new(arr, json_pack("{s:f,s:f,s:f,s:f,s:i}", "min_x", cl[i].min_x, "max_x",
							     cl[i].max_x, "min_y", cl[i].min_y, "max_y", cl[i].max_y,
							     "points", (json_int_t)cl[i].points));
		json_object_set_new(res, "clusters", arr);
		json_object_set_new(res, "monotone", json_boolean(monotone));
		json_object_set_new(res, "answer", output_answer(k, "clusters", 1.0,
								 "QT clustering, variable diameter (BlackjackBench 4.2.3)", NULL));
		if (!json) {
			printf("qt: %d clusters in '%s' (%zu points%s, diameter %.0f %% of the cluster mean)\n", k,
			       path, n, monotone ? ", made monotone first" : "", diameter * 100);
			struct table *t = table_new(6, "cluster", "min x", "max x", "min y", "max y", "points");
			for (int i = 0; i < k; i++) {
				table_cell(t, "%d", i + 1);
				table_cell(t, "%g%s%s", cl[i].min_x, *unit ? " " : "", unit);
				table_cell(t, "%g%s%s", cl[i].max_x, *unit ? " " : "", unit);
				table_cell(t, "%g", cl[i].min_y);
				table_cell(t, "%g", cl[i].max_y);
				table_cell(t, "%zu", cl[i].points);
			}
			table_print(t, stdout, "  ");
			table_free(t);
		}
	}
	if (json)
		cli_print_json("analyze", res);
	else
		json_decref(res);
	free(ym);
	free(x);
	free(y);
	return EXIT_OK;
}
