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

TESTS(T(test_report_page__svg_escape), T(test_report_page__axes), T(test_report_page__heatmap_and_bars),
      T(test_report_page__sources_checked), T(test_report_page__page_from_probe),
      T(test_report_page__words))
