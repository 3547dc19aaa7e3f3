/* Unit tests of src/report/emit.c: one set of calls, the text people read and the JSON programs
 * read, side by side. */
#include <errno.h>
#include <stdlib.h>

#include "common/cpuset.h"
#include "report/emit.h"
#include "report/output.h"
#include "harness.h"

typedef void (*render_fn)(struct emit *e);

static int end_rc;

/* Everything the renderer printed in this mode. */
static char *render(render_fn fn, enum emit_mode mode)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct emit *e = emit_new(mode, f);
	struct as_error err = { 0 };
	fn(e);
	end_rc = emit_end(e, "test", NULL, &err);
	emit_free(e);
	fclose(f);
	return buf;
}

static char *text_of(render_fn fn)
{
	return render(fn, EMIT_TEXT);
}

/* The envelope's "results", compact, keys in the order they were emitted. */
static char *json_of(render_fn fn)
{
	char *s = render(fn, EMIT_JSON);
	json_t *doc = json_loads(s, 0, NULL);
	free(s);
	if (!doc)
		return strdup("(not json)");
	char *r = json_dumps(json_object_get(doc, "results"), JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	json_decref(doc);
	return r;
}

#define CHECK_RENDER(fn, text, json)                                                           \
	do {                                                                                   \
		char *t_ = text_of(fn), *j_ = json_of(fn);                                     \
		int same_ = !strcmp(t_, text) && !strcmp(j_, json);                            \
		if (!same_)                                                                    \
			printf("# text:\n%s# json: %s\n", t_, j_);                             \
		free(t_);                                                                      \
		free(j_);                                                                      \
		CHECK(same_);                                                                  \
	} while (0)

static void fields(struct emit *e)
{
	emit_string(e, "file", "file", "a.csv");
	emit_int(e, "points", "points", 40, NULL);
	emit_number(e, "x", "x after step", 13, "B", NULL);
	emit_number(e, "ratio", "step", 2.6834156, NULL, "%.3g");
	emit_number(e, "none", "final plateau", NAN, "ns", NULL);
	emit_bool(e, "monotone", "made monotone first", 1);
	emit_size(e, "memory_bytes", "memory", 3u << 20);
	emit_null(e, "distances", "distances", "not reported");
	emit_string(e, "source", NULL, "hwloc");     /* JSON only */
	emit_int(e, NULL, "diameter", 25, "%");      /* text only */
}

static void test_emit__fields(void)
{
	CHECK_RENDER(fields,
		     "  file                 a.csv\n"
		     "  points               40\n"
		     "  x after step         13 B\n"
		     "  step                 2.68\n"
		     "  final plateau        none\n"
		     "  made monotone first  yes\n"
		     "  memory               3 MiB\n"
		     "  distances            not reported\n"
		     "  diameter             25 %\n",
		     "{\"file\":\"a.csv\",\"points\":40,\"x\":13.0,\"ratio\":2.6834156,\"none\":null,\"monotone\":true,"
		     "\"memory_bytes\":3145728,\"distances\":null,\"source\":\"hwloc\"}");
	CHECK(end_rc == 0);
}

static void headings(struct emit *e)
{
	emit_heading(e, "topology as the OS reports it (API %s)", "2.8");
	emit_int(e, "cores", "cores", 2, NULL);
	emit_annotate(e, " (%d per package)", 2);
	emit_object_begin(e, "clock", "clock");
	emit_number(e, "ghz", "core clock", 3.5, "GHz", "%.3f");
	emit_object_begin(e, "tsc", "time-stamp counter");
	emit_number(e, "ghz", "rate", 2.0, "GHz", "%.3f");
	emit_object_end(e);
	emit_object_end(e);
	emit_object_begin(e, "flat", ""); /* no heading: joins the block around it */
	emit_int(e, "n", "n", 1, NULL);
	emit_object_end(e);
	emit_object_begin(e, "hidden", NULL); /* JSON only, with all it holds */
	emit_int(e, "n", "n", 2, NULL);
	emit_object_end(e);
	emit_object_begin(e, NULL, "text only");
	emit_int(e, "n", "n", 3, NULL);
	emit_object_end(e);
}

static void test_emit__headings_and_nesting(void)
{
	CHECK_RENDER(headings,
		     "topology as the OS reports it (API 2.8)\n"
		     "  cores  2 (2 per package)\n"
		     "\n"
		     "clock\n"
		     "  core clock  3.500 GHz\n"
		     "\n"
		     "  time-stamp counter\n"
		     "    rate  2.000 GHz\n"
		     "\n"
		     "  n  1\n"
		     "\n"
		     "text only\n"
		     "  n  3\n",
		     "{\"cores\":2,\"clock\":{\"ghz\":3.5,\"tsc\":{\"ghz\":2.0}},\"flat\":{\"n\":1},\"hidden\":{\"n\":2}}");
}

static void tables(struct emit *e)
{
	emit_table_begin(e, "clusters", "clusters");
	for (int i = 0; i < 2; i++) {
		emit_row_begin(e);
		emit_int(e, NULL, "cluster", i + 1, NULL); /* text only: an index column */
		emit_number(e, "min_x", "min x", 1 + 10 * i, "B", NULL);
		emit_number(e, "min_y", "min y", 1.5 * (i + 1), NULL, NULL);
		emit_int(e, "points", NULL, 12 - i, NULL); /* JSON only */
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_answer(e, "answer", "answer", &(struct emit_answer){ 2, "clusters", 1.0, "QT", NAN, 0, NULL });
	emit_table_begin(e, "distances", "numa distances");
	for (int i = 0; i < 2; i++) {
		emit_tuple_begin(e);
		emit_text(e, "", "node%d", i);
		for (int j = 0; j < 2; j++) {
			char label[16];
			snprintf(label, sizeof(label), "node%d", j);
			emit_int(e, NULL, label, i == j ? 10 : 21, NULL);
		}
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_table_begin(e, "empty", "nothing");
	emit_table_end(e);
}

static void test_emit__tables(void)
{
	CHECK_RENDER(tables,
		     "clusters\n"
		     "  cluster  min x  min y\n"
		     "        1    1 B    1.5\n"
		     "        2   11 B      3\n"
		     "\n"
		     "  answer  2 clusters (confidence 1.00)\n"
		     "\n"
		     "numa distances\n"
		     "         node0  node1\n"
		     "  node0     10     21\n"
		     "  node1     21     10\n"
		     "\n"
		     "nothing\n"
		     "  none\n",
		     "{\"clusters\":[{\"min_x\":1.0,\"min_y\":1.5,\"points\":12},{\"min_x\":11.0,\"min_y\":3.0,\"points\":11}],"
		     "\"answer\":{\"value\":2.0,\"unit\":\"clusters\",\"confidence\":1.0,\"method\":\"QT\",\"os_reported\":null},"
		     "\"distances\":[[10,21],[21,10]],\"empty\":[]}");
}

static void values(struct emit *e)
{
	struct as_cpulist l = { .n = 4, .cpu = { 0, 1, 2, 5 } };
	emit_cpulist(e, "allowed_cpus", "allowed cpus", &l);
	emit_annotate(e, " (%d of %d)", 4, 8);
	emit_stat(e, "gbs", "bandwidth", &(struct emit_stat){ 10.0, 12.5, 13.0 }, "GB/s", "%.1f");
	emit_array_begin(e, "sizes", "sizes");
	emit_int(e, NULL, "", 32, "KiB");
	emit_int(e, NULL, "", 1024, "KiB");
	emit_array_end(e);
	emit_answer_begin(e, "line", "cache line",
			  &(struct emit_answer){ 64, "B", 0.9, "pairs", 64, 1, "%.0f" });
	emit_number(e, "median_ns", "latency", 1.25, "ns", NULL);
	emit_object_end(e);
	emit_answer(e, "clock", "clock", &(struct emit_answer){ 3.0, "GHz", 0.7, "adds", 2.5, 0, "%.3f" });
	emit_answer(e, "none", "nothing", &(struct emit_answer){ NAN, "B", 0, "steps", NAN, 0, NULL });
}

static void test_emit__values(void)
{
	CHECK_RENDER(values,
		     "  allowed cpus  0-2,5 (4 of 8)\n"
		     "  bandwidth     12.5 ± 1.5 GB/s\n"
		     "  sizes         32 KiB, 1024 KiB\n"
		     "  cache line    64 B (confidence 0.90; the OS reports 64 B)\n"
		     "  latency       1.25 ns\n"
		     "  clock         3.000 GHz (confidence 0.70; the OS reports 2.500 GHz)\n"
		     "  nothing       none\n",
		     "{\"allowed_cpus\":[0,1,2,5],\"gbs\":{\"min\":10.0,\"median\":12.5,\"max\":13.0},\"sizes\":[32,1024],"
		     "\"line\":{\"value\":64.0,\"unit\":\"B\",\"confidence\":0.9,\"method\":\"pairs\",\"os_reported\":64,"
		     "\"median_ns\":1.25},"
		     "\"clock\":{\"value\":3.0,\"unit\":\"GHz\",\"confidence\":0.7,\"method\":\"adds\",\"os_reported\":2.5},"
		     "\"none\":{\"value\":null,\"unit\":\"B\",\"confidence\":0.0,\"method\":\"steps\",\"os_reported\":null}}");
}

static void answers_in_rows(struct emit *e)
{
	emit_table_begin(e, "levels", "levels");
	emit_row_begin(e);
	emit_int(e, "level", "level", 1, NULL);
	emit_answer(e, "size", "size", &(struct emit_answer){ 49152, "B", 0.8, "QT", 49152, 1, NULL });
	emit_stat(e, "gbs", "GB/s", &(struct emit_stat){ 1, 2, 3 }, NULL, NULL);
	emit_row_end(e);
	emit_table_end(e);
}

static void test_emit__answers_in_rows(void)
{
	CHECK_RENDER(answers_in_rows,
		     /* sizes for people in binary units (issue 29); the JSON keeps the bytes */
		     "levels\n"
		     "  level    size   GB/s\n"
		     "      1  48 KiB  2 ± 1\n",
		     "{\"levels\":[{\"level\":1,\"size\":{\"value\":49152.0,\"unit\":\"B\",\"confidence\":0.8,\"method\":\"QT\","
		     "\"os_reported\":49152},\"gbs\":{\"min\":1.0,\"median\":2.0,\"max\":3.0}}]}");
}

static void unbalanced(struct emit *e)
{
	emit_table_begin(e, "t", "t");
	emit_row_begin(e);
}

static void extra_end(struct emit *e)
{
	emit_object_end(e);
}

static void test_emit__unbalanced(void)
{
	free(text_of(unbalanced));
	CHECK(end_rc == -EINVAL);
	free(text_of(extra_end));
	CHECK(end_rc == -EINVAL);
	free(json_of(unbalanced));
	CHECK(end_rc == -EINVAL);
}

static void test_emit__envelope(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct emit *e = emit_new(EMIT_JSON, f);
	struct as_error err = { 0 };
	CHECK(!emit_is_text(e));
	emit_int(e, "n", "n", 1, NULL);
	CHECK(emit_end(e, "analyze", json_pack("{s:s}", "hostname", "h"), &err) == 0);
	emit_free(e);
	fclose(f);
	json_t *doc = json_loads(buf, 0, NULL);
	free(buf);
	CHECK(doc != NULL);
	char *s = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(doc);
	char want[256];
	snprintf(want, sizeof(want), "{\"archscope\":\"%s\",\"command\":\"analyze\",\"machine\":{\"hostname\":\"h\"},"
		 "\"results\":{\"n\":1}}", ARCHSCOPE_VERSION);
	int same = !strcmp(s, want);
	free(s);
	CHECK(same);
}

/* Strings and keys that are not UTF-8 (a path, an event name, a program argument): the JSON stays
 * valid, each bad byte is U+FFFD, and the count is there for the note. */
static void not_utf8(struct emit *e)
{
	emit_string(e, "path", "path", "/tmp/caf\xe9.txt");                  /* Latin-1 */
	emit_string(e, "ok", "ok", "caf\xc3\xa9");                           /* UTF-8, kept */
	emit_string(e, "cut", "cut", "\xe2\x82");                            /* a sequence cut short */
	emit_string(e, "surrogate", "surrogate", "\xed\xa0\x80");           /* an encoded surrogate */
	emit_string(e, "ev\xff", "event", "x");                             /* a key */
	emit_array_begin(e, "argv", "argv");
	emit_string(e, NULL, "", "\xc0\xaf");                                /* overlong '/' */
	emit_array_end(e);
}

static void test_emit__not_utf8(void)
{
	CHECK_RENDER(not_utf8,
		     "  path       /tmp/caf\xe9.txt\n  ok         caf\xc3\xa9\n  cut        \xe2\x82\n  surrogate  \xed\xa0\x80\n"
		     "  event      x\n  argv       \xc0\xaf\n",
		     "{\"path\":\"/tmp/caf\xef\xbf\xbd.txt\",\"ok\":\"caf\xc3\xa9\",\"cut\":\"\xef\xbf\xbd\xef\xbf\xbd\","
		     "\"surrogate\":\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\",\"ev\xef\xbf\xbd\":\"x\","
		     "\"argv\":[\"\xef\xbf\xbd\xef\xbf\xbd\"]}");
	CHECK(end_rc == 0); /* never "emit: out of memory" */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct emit *e = emit_new(EMIT_JSON, f);
	not_utf8(e);
	CHECK(emit_not_utf8(e) == 1 + 2 + 3 + 1 + 2);
	struct as_error err = { 0 };
	CHECK(emit_end(e, "test", NULL, &err) == 0);
	emit_free(e);
	fclose(f);
	free(buf);
	size_t r = 0;
	json_t *j = output_json_string("a\x80z", &r);
	CHECK(j && r == 1 && !strcmp(json_string_value(j), "a\xef\xbf\xbdz"));
	json_decref(j);
}

static void singular(struct emit *e)
{
	emit_answer(e, "fp", "fp", &(struct emit_answer){ 1, "contexts", 0.9, "ramp", 2, 1, "%.0f" });
	emit_int(e, "n", "threads", 1, "threads");
	emit_int(e, "m", "threads", 2, "threads");
	emit_number(e, "w", "ways", 1, "ways", NULL);
	emit_number(e, "x", "time", 1, "s", NULL);
	emit_number(e, "y", "mean", 1, "cycles", "%.2f");
}

/* "1 context", "1 thread", "1 way"; "2 threads", "1 s" and "1.00 cycles" as they are; the JSON
 * keeps the unit as given */
static void test_emit__one_is_singular(void)
{
	CHECK_RENDER(singular,
		     "  fp       1 context (confidence 0.90; the OS reports 2 contexts)\n"
		     "  threads  1 thread\n"
		     "  threads  2 threads\n"
		     "  ways     1 way\n"
		     "  time     1 s\n"
		     "  mean     1.00 cycles\n",
		     "{\"fp\":{\"value\":1.0,\"unit\":\"contexts\",\"confidence\":0.9,\"method\":\"ramp\",\"os_reported\":2},"
		     "\"n\":1,\"m\":2,\"w\":1.0,\"x\":1.0,\"y\":1.0}");
}

TESTS(T(test_emit__fields), T(test_emit__headings_and_nesting), T(test_emit__tables), T(test_emit__values),
      T(test_emit__answers_in_rows), T(test_emit__unbalanced), T(test_emit__envelope), T(test_emit__not_utf8),
      T(test_emit__one_is_singular))
