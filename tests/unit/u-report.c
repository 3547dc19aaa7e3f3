/* Unit tests of src/report: tables, answers, JSON envelope, CSV, plot quoting. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/csv.h"
#include "report/plot.h"
#include "report/output.h"
#include "report/table.h"
#include "harness.h"

static char *capture_table(struct table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	table_print(t, f, "");
	fclose(f);
	return buf;
}

static void test_report__table_alignment(void)
{
	struct table *t = table_new(3, "name", "size", "note");
	table_cell(t, "L1");
	table_cell(t, "48 KiB");
	table_cell(t, "data");
	table_cell(t, "L2");
	table_cell(t, "2048 KiB");
	table_cell(t, "unified");
	char *s = capture_table(t);
	table_free(t);
	/* numbers right-aligned to the widest cell, text left-aligned */
	CHECK(strstr(s, "name      size  note\n") != NULL);
	CHECK(strstr(s, "L1      48 KiB  data\n") != NULL);
	CHECK(strstr(s, "L2    2048 KiB  unified\n") != NULL);
	free(s);
}

static void test_report__answer_fields(void)
{
	json_t *a = output_answer(64, "B", 0.9, "paired accesses", json_integer(64));
	CHECK(json_real_value(json_object_get(a, "value")) == 64);
	CHECK_STR(json_string_value(json_object_get(a, "unit")), "B");
	CHECK(json_integer_value(json_object_get(a, "os_reported")) == 64);
	json_decref(a);
	a = output_answer(NAN, "B", 0.0, "none", NULL);
	CHECK(json_is_null(json_object_get(a, "value")));
	CHECK(json_is_null(json_object_get(a, "os_reported")));
	json_decref(a);
}

static void test_report__envelope(void)
{
	json_t *doc = output_envelope("topology", json_object(), json_pack("{s:i}", "n", 2));
	CHECK_STR(json_string_value(json_object_get(doc, "command")), "topology");
	CHECK_STR(json_string_value(json_object_get(doc, "archscope")), ARCHSCOPE_VERSION);
	CHECK(json_integer_value(json_object_get(json_object_get(doc, "results"), "n")) == 2);
	json_decref(doc);
}

static void test_report__csv_roundtrip_and_errors(void)
{
	char dir[] = "/tmp/archscope-csv-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[256], cmd[300];
	snprintf(path, sizeof(path), "%s/c.csv", dir);
	double data[] = { 1024, 1.5, 2048, 1.6, 4096, 4.25 };
	struct as_error err = { 0 };
	CHECK(csv_write(path, "size_bytes,latency_ns", data, 3, 2, &err) == 0);
	double *x, *y;
	size_t n;
	CHECK(csv_read_xy(path, &x, &y, &n, &err) == 0);
	CHECK(n == 3 && x[2] == 4096 && y[2] == 4.25);
	free(x);
	free(y);
	FILE *f = fopen(path, "w");
	fputs("x,y\n1,2\n3,oops\n", f);
	fclose(f);
	CHECK(csv_read_xy(path, &x, &y, &n, &err) < 0);
	CHECK(strstr(err.msg, "line 3") != NULL);
	f = fopen(path, "w");
	fputs("x,y\n", f);
	fclose(f);
	CHECK(csv_read_xy(path, &x, &y, &n, &err) < 0);
	CHECK(strstr(err.msg, "no data rows") != NULL);
	snprintf(path, sizeof(path), "%s/none.csv", dir);
	CHECK(csv_read_xy(path, &x, &y, &n, &err) < 0);
	CHECK(strstr(err.msg, "cannot open") != NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

/* The one JSON reader: duplicate keys and "\u0000" refused with file, line and column; lines
 * counted from first_line (a JSON-lines file); OUTPUT_JSON_NUL lets NUL through. */
static void test_report__json_parse(void)
{
	struct as_error err = { 0 };
	const char *ok = "{\"a\": 1,\n \"b\": {\"a\": 2}}";
	json_t *d = output_json_parse(ok, strlen(ok), "matrix file", "m.json", 1, 0, &err);
	CHECK(d && json_integer_value(json_object_get(d, "a")) == 1);
	json_decref(d);
	const char *dup = "{\"a\": 1,\n \"a\": 2}";
	CHECK(output_json_parse(dup, strlen(dup), "matrix file", "m.json", 1, 0, &err) == NULL && err.code == -EINVAL);
	CHECK(strstr(err.msg, "cannot read matrix file 'm.json': not JSON: line 2, column ") != NULL);
	CHECK(strstr(err.msg, "duplicate object key") && strstr(err.msg, "give each key once"));
	as_error_clear(&err);
	CHECK(output_json_parse(dup, strlen(dup), "sample file", "s.jsonl", 40, 0, &err) == NULL);
	CHECK(strstr(err.msg, "'s.jsonl': not JSON: line 41, column ") != NULL);
	const char *nul = "{\"a\": \"x\\u0000y\"}";
	CHECK(output_json_parse(nul, strlen(nul), "result", "r.json", 1, 0, &err) == NULL);
	d = output_json_parse(nul, strlen(nul), "result", "r.json", 1, OUTPUT_JSON_NUL, &err);
	CHECK(d && json_string_length(json_object_get(d, "a")) == 3);
	json_decref(d);
	CHECK(output_json_parse("", 0, "result", "e.json", 1, 0, &err) == NULL && strstr(err.msg, "'e.json': not JSON: line 1"));
	CHECK(output_json_parse("[1] x", 5, "result", "t.json", 1, 0, NULL) == NULL);
	char dir[] = "/tmp/archscope-json-XXXXXX", path[64];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/d.json", dir);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	fputs(dup, f);
	fclose(f);
	CHECK(output_json_read(path, "stat result", 1 << 20, &err) == NULL && strstr(err.msg, "cannot read stat result '"));
	CHECK(output_json_read(dir, "stat result", 1 << 20, &err) == NULL && strstr(err.msg, "is a directory"));
	unlink(path);
	rmdir(dir);
}

/* A first line of names is a header; one that starts a field with a number is a malformed row. */
static void test_report__csv_header_or_row(void)
{
	char dir[] = "/tmp/archscope-csvh-XXXXXX", path[64];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/c.csv", dir);
	static const struct {
		const char *text;
		int ok;
	} cases[] = {
		{ "size_bytes,latency_ns\n1,2\n", 1 }, { "x y\n1 2\n", 1 }, { "L1 size; ns\n1;2\n", 1 },
		{ "1,2x\n1,2\n", 0 },                  { "16;\n1,2\n", 0 }, { "size,12\n1,2\n", 0 },
		{ "1e999,1\n1,2\n", 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f = fopen(path, "w");
		CHECK(f != NULL);
		fputs(cases[i].text, f);
		fclose(f);
		double *x = NULL, *y = NULL;
		size_t n = 0;
		struct as_error err = { 0 };
		int rc = csv_read_xy(path, &x, &y, &n, &err);
		if ((rc == 0) != cases[i].ok)
			printf("# case %zu: rc %d: %s\n", i, rc, err.msg);
		CHECK((rc == 0) == cases[i].ok);
		CHECK(cases[i].ok || strstr(err.msg, "line 1: expected two decimal numbers 'x,y' or a header"));
		free(x);
		free(y);
	}
	unlink(path);
	rmdir(dir);
}

static void test_report__plot_with_and_without_gnuplot(void)
{
	char dir[] = "/tmp/archscope-plot-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char sub[300], path[400], cmd[500];
	snprintf(sub, sizeof(sub), "%s/a/b", dir);
	struct as_error err = { 0 };
	/* a missing parent is an error (no tree of directories from a typing error) */
	CHECK(plot_dir_prepare(sub, &err) == -ENOENT && strstr(err.msg, "its parent does not exist"));
	snprintf(sub, sizeof(sub), "%s/a", dir);
	CHECK(plot_dir_prepare(sub, &err) == 0);
	CHECK(plot_dir_prepare(sub, &err) == 0); /* already there */
	const char *body = "set xlabel 'x'\nplot '-' with lines title 'y'\n1 1\n2 4\ne";
	/* Without gnuplot on PATH: the script is written, the return says "skipped". */
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	setenv("PATH", "/nonexistent", 1);
	int rc = plot_render(sub, "curve", body, &err);
	if (old) {
		setenv("PATH", old, 1);
		free(old);
	}
	CHECK(rc == 1);
	snprintf(path, sizeof(path), "%s/curve.gp", sub);
	CHECK(access(path, R_OK) == 0);
	/* With gnuplot (where installed): both pictures exist. */
	if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
		CHECK(plot_render(sub, "curve", body, &err) == 0);
		snprintf(path, sizeof(path), "%s/curve.svg", sub);
		CHECK(access(path, R_OK) == 0);
		snprintf(path, sizeof(path), "%s/curve.png", sub);
		CHECK(access(path, R_OK) == 0);
		CHECK(plot_render(sub, "broken", "plot nosuchfunction(x)", &err) < 0);
		CHECK(strstr(err.msg, "gnuplot failed") != NULL);
		/* a name is data: a quoted title that tries system() runs nothing */
		char title[1024], q[2400], b2[5000], marker[400];
		snprintf(marker, sizeof(marker), "%s/ran", dir);
		snprintf(title, sizeof(title), "x'.system('touch %s').'`touch %s`", marker, marker);
		snprintf(b2, sizeof(b2), "set title %s noenhanced\nplot x title %s", plot_quote(title, q, sizeof(q)), q);
		CHECK(plot_render(sub, "hostile", b2, &err) == 0);
		CHECK(access(marker, F_OK) != 0);
		/* a picture's name that is a symbolic link is not written through */
		char victim[400], link[400];
		snprintf(victim, sizeof(victim), "%s/victim", dir);
		snprintf(link, sizeof(link), "%s/curve2.svg", sub);
		FILE *v = fopen(victim, "w");
		CHECK(v && fputs("keep", v) >= 0 && fclose(v) == 0);
		CHECK(symlink(victim, link) == 0);
		CHECK(plot_render(sub, "curve2", body, &err) < 0 && strstr(err.msg, "symbolic link"));
		v = fopen(victim, "r");
		char got[16] = "";
		CHECK(v && fgets(got, sizeof(got), v) && fclose(v) == 0);
		CHECK_STR(got, "keep");
		/* a multiplot: the body runs once per terminal, so the PNG has every panel too */
		CHECK(plot_render(sub, "multi", "set multiplot layout 2,1\nplot x\nplot x*x\nunset multiplot", &err) == 0);
		snprintf(path, sizeof(path), "%s/multi.gp", sub);
		FILE *g = fopen(path, "r");
		char line[256];
		int multis = 0, replots = 0;
		while (g && fgets(line, sizeof(line), g)) {
			multis += !strncmp(line, "set multiplot", 13);
			replots += strstr(line, "replot") != NULL;
		}
		CHECK(g && fclose(g) == 0);
		CHECK(multis == 2 && replots == 0);
		/* no private directory is left behind */
		snprintf(cmd, sizeof(cmd), "ls -A '%s' | grep -q archscope-plot", sub);
		CHECK(system(cmd) != 0);
	}
	CHECK(plot_render(sub, "../escape", body, &err) == -EINVAL);
	/* not a directory, a symbolic link */
	snprintf(path, sizeof(path), "%s/curve.gp", sub);
	CHECK(plot_dir_prepare(path, &err) == -ENOTDIR && strstr(err.msg, "is not a directory"));
	char ln[400];
	snprintf(ln, sizeof(ln), "%s/link", dir);
	CHECK(symlink(sub, ln) == 0);
	CHECK(plot_dir_prepare(ln, &err) == -ELOOP && strstr(err.msg, "is a symbolic link"));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

/* plot_quote: single quotes doubled, control bytes and bytes that are not UTF-8 as '?', long
 * names cut with "..." inside the quotes; plot_comment: no line break. */
static void test_report__plot_quote(void)
{
	char b[64];
	CHECK_STR(plot_quote("a'b", b, sizeof(b)), "'a''b'");
	CHECK_STR(plot_quote("x\ny\r\t", b, sizeof(b)), "'x?y?" "?'");
	CHECK_STR(plot_quote("caf\xe9 \xc3\xa9", b, sizeof(b)), "'caf? \xc3\xa9'");
	CHECK_STR(plot_quote("`ls` @m \\", b, sizeof(b)), "'`ls` @m \\'");
	CHECK_STR(plot_quote("", b, sizeof(b)), "''");
	char small[12];
	CHECK_STR(plot_quote("abcdefghijklmnop", small, sizeof(small)), "'abcdef...'");
	CHECK_STR(plot_quote("abcdefg", small, sizeof(small)), "'abcdefg'");
	CHECK(strlen(plot_quote("''''''''''''''''''''", small, sizeof(small))) < sizeof(small));
	CHECK_STR(plot_comment("a\nb'c", b, sizeof(b)), "a?b'c");
}

TESTS(T(test_report__plot_quote), T(test_report__plot_with_and_without_gnuplot), T(test_report__table_alignment), T(test_report__answer_fields), T(test_report__envelope),
      T(test_report__csv_roundtrip_and_errors), T(test_report__json_parse), T(test_report__csv_header_or_row))
