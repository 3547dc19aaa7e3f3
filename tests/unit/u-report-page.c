/* Unit tests of the report page (page/page.h) and its SVG writer (report/svg.h), on synthetic
 * documents: escaping, axes, a heatmap's unmeasured cells, the inputs accepted and refused, the
 * figures a probe document gives, and embedded data that no input can end. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "page/page.h"
#include "report/svg.h"
#include "harness.h"

/* Runs fn(f) into a string (malloc). */
#define CAPTURE(buf, stmt)                                                                     \
	do {                                                                                   \
		size_t len_ = 0;                                                               \
		FILE *f = open_memstream(&(buf), &len_);                                       \
		stmt;                                                                          \
		fclose(f);                                                                     \
	} while (0)

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
		n++;
	return n;
}

static void test_report_page__svg_escape(void)
{
	char *s = NULL;
	CAPTURE(s, svg_escape(f, "a<b & \"c\" 'd' >\x01"));
	CHECK_STR(s, "a&lt;b &amp; &quot;c&quot; &#39;d&#39; &gt; ");
	free(s);
	s = NULL;
	CAPTURE(s, svg_text(f, 1, 2, "tick", "end", "</svg><script>"));
	CHECK(strstr(s, "&lt;/svg&gt;&lt;script&gt;") != NULL);
	CHECK(strstr(s, "<script") == NULL);
	free(s);
}

static void test_report_page__axes(void)
{
	struct svg_axis a = { .lo = 1000, .hi = 3e8, .log = 2, .p0 = 0, .p1 = 100 };
	svg_axis_nice(&a);
	CHECK_NEAR(a.lo, 512, 0);
	CHECK_NEAR(a.hi, 536870912, 0); /* 2^29 */
	CHECK_NEAR(svg_axis_pos(&a, 512), 0, 1e-9);
	CHECK_NEAR(svg_axis_pos(&a, 536870912), 100, 1e-9);
	CHECK_NEAR(svg_axis_pos(&a, 1e12), 100, 1e-9); /* clamped */
	struct svg_axis l = { .lo = 0.3, .hi = 9.2, .log = 0, .p0 = 200, .p1 = 0 };
	svg_axis_nice(&l);
	CHECK_NEAR(l.lo, 0, 1e-12);
	CHECK_NEAR(l.hi, 10, 1e-12);
	CHECK_NEAR(svg_axis_pos(&l, 5), 100, 1e-9);
	char b[32];
	svg_fmt_bytes(49152, b, sizeof(b));
	CHECK_STR(b, "48 KiB");
}

static void test_report_page__heatmap_and_bars(void)
{
	const double v[4] = { NAN, 8.2, 8.1, NAN };
	const char *const names[2] = { "CPU 0", "CPU 1" };
	char *s = NULL;
	CAPTURE(s, svg_heatmap(f, "c2c", 2, 2, v, names, names, "GB/s", "from \\ to"));
	CHECK(count(s, "class=\"none\"") == 2); /* the diagonal, not measured */
	CHECK(count(s, "class=\"cell\"") == 2);
	CHECK(strstr(s, "CPU 0 → CPU 1: 8.2 GB/s") != NULL);
	CHECK(strncmp(s, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39) == 0);
	free(s);
	s = NULL;
	const double bars[4] = { 250, 290, 7.4, NAN };
	const char *const groups[2] = { "L1", "MEM" }, *const series[2] = { "1 thread", "2 threads" };
	CAPTURE(s, svg_chart_bars(f, "bw", groups, 2, series, 2, bars, "GB/s", 0));
	CHECK(count(s, "<rect x=") >= 3 + 2); /* three bars (one NaN), frame and legend swatches */
	CHECK(strstr(s, "MEM, 2 threads") == NULL);
	free(s);
}

/* A minimal probe document: clock, one cache level with a curve, an instr op. */
static json_t *probe_doc(const char *host)
{
	json_error_t e;
	json_t *d = json_loads(
		"{\"archscope\": \"0.1.0\", \"command\": \"probe\","
		" \"machine\": {\"hostname\": \"h\", \"pmu\": false, \"thp\": \"never\", \"governor\": \"powersave\", \"date\": \"2026-01-01T00:00:00Z\"},"
		" \"results\": {"
		"  \"clock\": {\"value\": 3.0, \"unit\": \"GHz\", \"confidence\": 0.3, \"method\": \"add chain\", \"os_reported\": 2.5, \"tsc_ghz\": 2.5},"
		"  \"caches\": {\"levels\": [{\"level\": 1, \"size\": {\"value\": 32768, \"unit\": \"B\", \"confidence\": 1,"
		"     \"method\": \"qt\", \"os_reported\": 49152}, \"latency\": {\"value\": 1.3, \"unit\": \"ns\", \"confidence\": 1,"
		"     \"method\": \"min\", \"os_reported\": null}}],"
		"   \"memory_latency\": {\"value\": 80, \"unit\": \"ns\", \"confidence\": 0.9, \"method\": \"last\", \"os_reported\": null},"
		"   \"curve\": [{\"size_bytes\": 1024, \"min_ns\": 1.3, \"median_ns\": 1.4}, {\"size_bytes\": 65536, \"min_ns\": 5, \"median_ns\": 5.5},"
		"              {\"size_bytes\": 67108864, \"min_ns\": 80, \"median_ns\": 85}]},"
		"  \"line\": {\"value\": 64, \"unit\": \"B\", \"confidence\": 0.75, \"method\": \"coherence\", \"os_reported\": 64,"
		"   \"reason\": \"the stride witness says 128 B\","
		"   \"witnesses\": {\"stride\": {\"value\": 128, \"unit\": \"B\", \"confidence\": 0.9, \"method\": \"pairs\", \"os_reported\": null}}},"
		"  \"instr\": {\"ops\": [{\"op\": \"add\", \"type\": \"int64\", \"width_bits\": 64, \"latency_cy\": 1, \"throughput_per_cy\": 4,"
		"   \"in_flight\": 4}], \"flops_per_cycle\": {\"DP\": {\"vector\": {\"ADD\": 8, \"MUL\": 8, \"FMA\": 16, \"total\": 16}}}}"
		" }}",
		0, &e);
	if (d && host)
		json_object_set_new(json_object_get(d, "machine"), "hostname", json_string(host));
	return d;
}

static void test_report_page__sources_checked(void)
{
	struct as_error err = { 0 };
	json_t *p = probe_doc(NULL);
	CHECK(p != NULL);
	CHECK(page_source_check(p, "p.json", &err) == 0);
	json_t *stat = json_pack("{s:s, s:s, s:{}, s:{}}", "archscope", "0.1.0", "command", "stat", "machine", "results");
	CHECK(page_source_check(stat, "s.json", &err) == -EINVAL);
	CHECK(strstr(err.msg, "'s.json' is a result of 'stat'") != NULL);
	json_t *arr = json_array();
	CHECK(page_source_check(arr, "a.json", &err) == -EINVAL);
	CHECK(strstr(err.msg, "not a JSON object") != NULL);
	/* two probe results: refused */
	struct page_source two[2] = { { "a.json", p }, { "b.json", p } };
	struct page_input in = { .sources = two, .n = 2, .version = "t", .date = "d", .loadavg_start = NAN };
	struct page_summary sum;
	char *s = NULL;
	int rc = 0;
	CAPTURE(s, rc = page_write(f, &in, &sum, &err));
	CHECK(rc == -EINVAL);
	CHECK(strstr(err.msg, "two probe results ('a.json' and 'b.json')") != NULL);
	free(s);
	json_decref(p);
	json_decref(stat);
	json_decref(arr);
}

static void test_report_page__page_from_probe(void)
{
	json_t *p = probe_doc("</script><script>alert(1)</script>");
	CHECK(p != NULL);
	struct page_source one[1] = { { "probe.json", p } };
	struct page_input in = { .sources = one, .n = 1, .version = "t", .date = "d", .loadavg_start = NAN };
	struct page_summary sum;
	struct as_error err = { 0 };
	char *s = NULL;
	int rc = -1;
	CAPTURE(s, rc = page_write(f, &in, &sum, &err));
	CHECK(rc == 0);
	/* one script element, the data; the host name inside it cannot end it */
	CHECK(count(s, "<script") == 1);
	CHECK(count(s, "</script>") == 1);
	CHECK(strstr(s, "\\u003c/script>\\u003cscript>") != NULL);
	CHECK(strstr(s, "&lt;/script&gt;") != NULL); /* in the title and heading, escaped */
	/* figures: latency and the Roofline (compute ceiling) at least; each one SVG */
	CHECK(sum.figures >= 2);
	CHECK(count(s, "<figure ") == sum.figures);
	CHECK(count(s, "<svg ") == sum.figures);
	CHECK(strstr(s, "id=\"fig-latency\"") != NULL);
	CHECK(strstr(s, "id=\"fig-roofline\"") != NULL);
	/* the OS-reported L1 size marked beside the measured one */
	CHECK(strstr(s, "L1 32 KiB") != NULL);
	CHECK(strstr(s, "L1 48 KiB (OS)") != NULL);
	/* answers with reason and witness */
	CHECK(sum.answers == 5);
	CHECK(strstr(s, "the stride witness says 128 B") != NULL);
	CHECK(strstr(s, "witness stride") != NULL);
	/* warnings: no PMU, powersave, THP never, a noisy clock */
	CHECK(sum.nwarnings == 4);
	CHECK(strncmp(sum.warnings[0], "No PMU", 6) == 0);
	CHECK(strstr(s, "governor is &#39;powersave&#39;") != NULL);
	CHECK(strstr(s, "huge pages are off") != NULL);
	CHECK(strstr(s, "confidence 0.30") != NULL);
	/* DP vector peak 16 flop/cy x 3 GHz */
	CHECK(strstr(s, "DP vector peak 48 GFLOP/s") != NULL);
	free(s);
	json_decref(p);
}

/* The page says only what it knows (issue 51 item 6): a low-confidence answer marked, SMT in
 * words, "1 context". */
static void test_report_page__words(void)
{
	json_t *p = probe_doc(NULL);
	CHECK(p != NULL);
	json_t *m = json_object_get(p, "machine"), *r = json_object_get(p, "results");
	json_object_set_new(m, "smt", json_string("notsupported"));
	json_object_set_new(m, "smt_active", json_false());
	json_error_t e;
	json_object_set_new(json_object_get(r, "caches"), "memory_latency_random",
			    json_loads("{\"value\": 134, \"unit\": \"ns\", \"confidence\": 0.9, \"method\": \"random\", "
				       "\"os_reported\": null}", 0, &e));
	json_object_set_new(r, "contexts", json_loads("{\"fp\": {\"value\": 1, \"unit\": \"contexts\", \"confidence\": 0.9, "
						      "\"method\": \"m\", \"os_reported\": null}}", 0, &e));
	json_object_set_new(r, "assoc", json_loads("{\"levels\": [{\"level\": 1, \"ways\": {\"value\": 12, \"unit\": \"ways\", "
						   "\"confidence\": 0.01, \"method\": \"m\", \"os_reported\": 12}}]}", 0, &e));
	struct page_source one[1] = { { "probe.json", p } };
	struct page_input in = { .sources = one, .n = 1, .version = "t", .date = "d", .loadavg_start = NAN };
	struct page_summary sum;
	struct as_error err = { 0 };
	char *s = NULL;
	int rc = -1;
	CAPTURE(s, rc = page_write(f, &in, &sum, &err));
	CHECK(rc == 0);
	CHECK(strstr(s, "not supported") != NULL);
	CHECK(strstr(s, "notsupported") == NULL || strstr(s, "\"notsupported\"") != NULL); /* raw only in the data */
	CHECK(strstr(s, "inactive") == NULL);
	CHECK(strstr(s, "1 context<") != NULL || strstr(s, "1 context ") != NULL);
	CHECK(strstr(s, "1 contexts") == NULL);
	CHECK(strstr(s, "12 ways (low confidence)") != NULL);
	free(s);
	json_decref(p);
}

/* A Roofline ceiling or point read back from the page's SVG: its coordinates and its title. */
struct svg_item {
	double x1, y1, x2, y2;
	char title[256];
};

/* The elements `<TAG x.. y..>` with a <title> in svg (lines: both ends; circles: the centre). */
static int svg_items(const char *svg, const char *tag, struct svg_item *it, int max)
{
	int n = 0;
	char open[16], close[16];
	snprintf(open, sizeof(open), "<%s ", tag);
	snprintf(close, sizeof(close), "</%s>", tag);
	for (const char *p = svg; n < max && (p = strstr(p, open)) != NULL; p++) {
		const char *end = strchr(p, '>'), *t = strstr(p, "><title>"), *e = strstr(p, close);
		if (!end || !t || t != end || !e)
			continue;
		struct svg_item *x = &it[n];
		int ok = !strcmp(tag, "line")
				 ? sscanf(p, "<line x1=\"%lf\" y1=\"%lf\" x2=\"%lf\" y2=\"%lf\"", &x->x1, &x->y1, &x->x2, &x->y2) == 4
				 : sscanf(p, "<circle cx=\"%lf\" cy=\"%lf\"", &x->x1, &x->y1) == 2;
		const char *ts = t + strlen("><title>"), *te = strstr(ts, "</title>");
		if (!ok || !te || te - ts >= (int)sizeof(x->title))
			continue;
		snprintf(x->title, sizeof(x->title), "%.*s", (int)(te - ts), ts);
		n++;
	}
	return n;
}

/* How far (pixels, SVG y grows downwards) point p lies under line l, the line extended. */
static double under(const struct svg_item *p, const struct svg_item *l)
{
	double y = l->y1 + (l->y2 - l->y1) * (p->x1 - l->x1) / (l->x2 - l->x1);
	return p->y1 - y;
}

static json_t *fixture(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/tests/fixtures/report/%s", ARCHSCOPE_SOURCE_DIR, name);
	json_error_t e;
	return json_load_file(path, 0, &e);
}

/* The Roofline's points against the ceilings of the machine file they used (issue 51 item 6): the
 * recorded run measured MEM at 6.61 GB/s, the models' machine file says 15.7 GB/s; both are drawn,
 * each labelled with its source, and every "X-bound" point lies on or under the ceiling its label
 * names, read back from the SVG's numbers. */
static void test_report_page__roofline_ceilings(void)
{
	const char *names[] = { "probe.json", "bench-scaling.json", "model-triad.json", "model-jacobi.json" };
	struct page_source src[4];
	for (int i = 0; i < 4; i++) {
		src[i] = (struct page_source){ names[i], fixture(names[i]) };
		CHECK(src[i].doc != NULL);
		if (!src[i].doc)
			return;
	}
	struct page_input in = { .sources = src, .n = 4, .version = "t", .date = "d", .loadavg_start = NAN };
	struct page_summary sum;
	struct as_error err = { 0 };
	char *s = NULL;
	int rc = -1;
	CAPTURE(s, rc = page_write(f, &in, &sum, &err));
	CHECK(rc == 0);
	const char *fig = strstr(s, "id=\"fig-roofline\"");
	CHECK(fig != NULL);
	const char *svg_end = fig ? strstr(fig, "</svg>") : NULL;
	CHECK(svg_end != NULL);
	if (!fig || !svg_end) {
		free(s);
		return;
	}
	char *svg = strndup(fig, (size_t)(svg_end - fig));
	struct svg_item lines[32], pts[8];
	int nl = svg_items(svg, "line", lines, 32), np = svg_items(svg, "circle", pts, 8);
	/* both MEM ceilings, named by their source */
	int measured = -1, file = -1;
	for (int i = 0; i < nl; i++) {
		if (!strcmp(lines[i].title, "MEM 6.61 GB/s (measured, bench-scaling.json)"))
			measured = i;
		if (!strcmp(lines[i].title, "MEM 15.7 GB/s (machine file kvm-xeon-6-207, stream kernel)"))
			file = i;
	}
	CHECK(measured >= 0);
	CHECK(file >= 0);
	CHECK(np == 2);
	int triad = 0;
	for (int i = 0; i < np; i++) {
		/* "KERNEL (model, LEVEL-bound: CEILING)": the ceiling drawn, of that level, the point under it */
		const char *b = strstr(pts[i].title, "-bound: "), *m = strstr(pts[i].title, "(model, ");
		CHECK(b != NULL && m != NULL);
		if (!b || !m)
			continue;
		char level[16], ceil[256];
		snprintf(level, sizeof(level), "%.*s ", (int)(b - m - 8), m + 8);
		snprintf(ceil, sizeof(ceil), "%.*s", (int)(strlen(b + 8) - 1), b + 8);
		CHECK(strncmp(ceil, level, strlen(level)) == 0);
		CHECK(strstr(ceil, "(machine file kvm-xeon-6-207, ") != NULL);
		int found = 0;
		for (int l = 0; l < nl; l++)
			if (!strcmp(lines[l].title, ceil)) {
				found = 1;
				CHECK(under(&pts[i], &lines[l]) >= -0.5);
			}
		CHECK(found);
		if (strstr(pts[i].title, "stream-triad.c (model, MEM-bound: ") == pts[i].title && measured >= 0 && file >= 0) {
			/* on its machine file's ceiling, and well above this run's: the check can fail */
			triad = 1;
			CHECK(fabs(under(&pts[i], &lines[file])) <= 0.5);
			CHECK(under(&pts[i], &lines[measured]) < -20);
		}
	}
	CHECK(triad);
	free(svg);
	free(s);
	for (int i = 0; i < 4; i++)
		json_decref(src[i].doc);
}

/* A model whose machine file agrees with the measurement shares its ceiling: one MEM line. */
static void test_report_page__roofline_one_ceiling(void)
{
	json_t *bench = fixture("bench-scaling.json"), *model = fixture("model-triad.json");
	CHECK(bench != NULL && model != NULL);
	if (!bench || !model)
		return;
	json_t *levels = json_object_get(json_object_get(json_object_get(model, "results"), "roofline"), "levels");
	size_t i;
	json_t *lv;
	json_array_foreach(levels, i, lv)
		if (!strcmp(json_string_value(json_object_get(lv, "level")), "MEM"))
			json_object_set_new(lv, "bandwidth_gbs", json_real(6.605133221 * 1.001));
	/* the prediction that bandwidth gives: 0.0625 flop/B x 6.61 GB/s */
	json_object_set_new(json_object_get(json_object_get(model, "results"), "roofline"), "gflops",
			    json_real(0.0625 * 6.605133221 * 1.001));
	struct page_source src[2] = { { "b.json", bench }, { "m.json", model } };
	struct page_input in = { .sources = src, .n = 2, .version = "t", .date = "d", .loadavg_start = NAN,
				 .run = "this run: bench, model" };
	struct page_summary sum;
	struct as_error err = { 0 };
	char *s = NULL;
	int rc = -1;
	CAPTURE(s, rc = page_write(f, &in, &sum, &err));
	CHECK(rc == 0);
	CHECK(count(s, "<title>MEM ") == 1);
	CHECK(strstr(s, "<title>MEM 6.61 GB/s (this run)</title>") != NULL);
	CHECK(strstr(s, "(model, MEM-bound: MEM 6.61 GB/s (this run))</title>") != NULL);
	CHECK(strstr(s, ">stream-triad.c: MEM-bound under 6.61 GB/s (this run)</text>") != NULL);
	free(s);
	json_decref(bench);
	json_decref(model);
}

TESTS(T(test_report_page__svg_escape), T(test_report_page__axes), T(test_report_page__heatmap_and_bars),
      T(test_report_page__sources_checked), T(test_report_page__page_from_probe),
      T(test_report_page__words), T(test_report_page__roofline_ceilings), T(test_report_page__roofline_one_ceiling))
