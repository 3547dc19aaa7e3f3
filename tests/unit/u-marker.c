/* The marker library's region accounting (measure/marker/account.c) on synthetic starts and stops:
 * nesting, threads, unmatched calls, names; its record read back and summed (measure/regions.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "measure/marker/account.h"
#include "measure/regions.h"

static const char *const names[MARKER_NEVENTS] = { "task-clock", "context-switches", "cpu-migrations",
						  "page-faults", "cycles", "instructions" };
static const char *const units[MARKER_NEVENTS] = { "ns", "events", "events", "events", "events", "events" };

static void counts(uint64_t *c, uint64_t base)
{
	for (int e = 0; e < MARKER_NEVENTS; e++)
		c[e] = base * (uint64_t)(e + 1);
}

static void test_marker__nesting(void)
{
	struct marker_thread *t = calloc(1, sizeof(*t));
	CHECK(t);
	t->available = 0x0f; /* software counters only, as in a VM */
	uint64_t c[MARKER_NEVENTS];
	counts(c, 0);
	CHECK(marker_region_start(t, "outer", 1000, c) == 0);
	for (int i = 0; i < 3; i++) {
		counts(c, 100 + 10 * (uint64_t)i);
		CHECK(marker_region_start(t, "inner", 2000 + 100 * (uint64_t)i, c) == 0);
		counts(c, 105 + 10 * (uint64_t)i);
		CHECK(marker_region_stop(t, "inner", 2050 + 100 * (uint64_t)i, c) == 0);
	}
	/* a region cannot be nested in itself; a stop without a start changes nothing */
	CHECK(marker_region_start(t, "outer", 2500, c) == -EFAULT);
	CHECK(marker_region_stop(t, "never", 2500, c) == -EFAULT);
	CHECK(t->unmatched == 2);
	counts(c, 200);
	CHECK(marker_region_stop(t, "outer", 3000, c) == 0);
	CHECK(marker_region_stop(t, "inner", 3000, c) == -EFAULT);
	CHECK(t->unmatched == 3);
	int nev = 10, calls = -1;
	double ev[10], time_s = -1;
	marker_region_get(t, "inner", &nev, ev, &time_s, &calls);
	CHECK(nev == MARKER_NEVENTS && calls == 3);
	CHECK_NEAR(time_s, 150e-9, 1e-15);
	CHECK_NEAR(ev[0], 15, 0);  /* 3 x 5 */
	CHECK_NEAR(ev[3], 60, 0);  /* 3 x 5 x 4 */
	CHECK_NEAR(ev[4], 0, 0);   /* not available: 0, as LIKWID gives */
	marker_region_get(t, "outer", &nev, ev, &time_s, &calls);
	CHECK(calls == 1);
	CHECK_NEAR(time_s, 2000e-9, 1e-15);
	CHECK_NEAR(ev[1], 400, 0);
	nev = 2; /* the caller's array is shorter */
	marker_region_get(t, "outer", &nev, ev, &time_s, &calls);
	CHECK(nev == 2);
	CHECK(marker_region_reset(t, "inner") == 0);
	marker_region_get(t, "inner", &nev, ev, &time_s, &calls);
	CHECK(calls == 0 && time_s == 0 && ev[0] == 0);
	CHECK(marker_region_reset(t, "none") == -ENOENT);
	marker_region_get(t, "none", &nev, ev, &time_s, &calls);
	CHECK(calls == 0 && time_s == 0);
	free(t);
}

static void test_marker__names(void)
{
	struct marker_thread *t = calloc(1, sizeof(*t));
	CHECK(t);
	uint64_t c[MARKER_NEVENTS] = { 0 };
	char longname[MARKER_NAME_MAX + 2];
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	CHECK(marker_region_start(t, longname, 0, c) == -ENAMETOOLONG);
	CHECK(marker_region_start(t, "", 0, c) == -EINVAL);
	CHECK(marker_region_start(t, NULL, 0, c) == -EINVAL);
	CHECK(t->refused == 1);
	char name[16];
	for (int i = 0; i < MARKER_REGIONS_MAX; i++) {
		snprintf(name, sizeof(name), "r%d", i);
		CHECK(marker_region_find(t, name, 1) == i);
	}
	CHECK(marker_region_find(t, "one more", 1) == -ENOSPC);
	CHECK(t->refused == 2);
	char esc[3 * MARKER_NAME_MAX + 1];
	marker_name_escape("a b%c\n$(x)", esc);
	CHECK_STR(esc, "a%20b%25c%0A$(x)");
	free(t);
}

/* Two threads of one process and a second process of the same run, written and read back. */
static void test_marker__record_threads(void)
{
	struct marker_thread *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	CHECK(a && b);
	a->index = 0, a->tid = 100, a->available = 0x3f;
	b->index = 1, b->tid = 101, b->available = 0x0f;
	a->next = b;
	uint64_t c0[MARKER_NEVENTS], c1[MARKER_NEVENTS];
	counts(c0, 10);
	counts(c1, 20);
	for (int i = 0; i < 4; i++) {
		CHECK(marker_region_start(a, "solve step", 1000000000ull * (uint64_t)i, c0) == 0);
		CHECK(marker_region_stop(a, "solve step", 1000000000ull * (uint64_t)i + 500000000ull, c1) == 0);
	}
	CHECK(marker_region_start(b, "solve step", 0, c0) == 0);
	CHECK(marker_region_stop(b, "solve step", 250000000ull, c1) == 0);
	CHECK(marker_region_start(b, "left open", 0, c0) == 0);
	char path[] = "/tmp/archscope-u-marker.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(marker_record_write(fd, 4242, "signal 15", names, units, a) == 0);
	off_t len = lseek(fd, 0, SEEK_CUR);
	char *text = calloc((size_t)len + 1, 1); /* the NUL strdup below reads to */
	CHECK(text && pread(fd, text, (size_t)len, 0) == len);
	close(fd);
	unlink(path);
	struct measure_regions r = { 0 };
	struct as_error err = { 0 };
	CHECK(measure_regions_parse(&r, "x", text, (size_t)len, 0, &err) == 0);
	CHECK(measure_regions_parse(&r, "y", text, (size_t)len, 1, &err) == 0);
	CHECK(r.records == 2 && r.partial == 2 && r.nsample == 6);
	CHECK_STR(r.event[4], "cycles");
	CHECK_STR(r.unit[0], "ns");
	CHECK(isnan(r.s[2].count[4])); /* thread b counted no hardware event */
	CHECK(measure_regions_summarise(&r) == 0);
	CHECK(r.nreg == 2);
	CHECK_STR(r.reg[0].name, "solve step");
	CHECK(r.reg[0].runs == 2 && r.reg[0].threads == 2);
	CHECK_NEAR(r.reg[0].calls, 5, 0);
	CHECK_NEAR(r.reg[0].time_s, 2.25, 1e-9);
	CHECK_NEAR(r.reg[0].count[0], 50, 0);     /* 5 calls x (20 - 10) */
	CHECK_NEAR(r.reg[0].count[4], 4 * 50, 0); /* thread a alone */
	CHECK(r.reg[1].running == 2 && r.reg[1].calls == 0);
	CHECK(isnan(r.reg[1].count[5]));
	/* cut records and strange lines are refused with the line */
	CHECK(measure_regions_parse(&r, "cut", text, (size_t)len - 4, 0, &err) == -EINVAL && strstr(err.msg, "cut short"));
	char *bad = strdup(text);
	CHECK(bad);
	char *reg = strstr(bad, "region ");
	reg[7] = '%';
	CHECK(measure_regions_parse(&r, "bad", bad, strlen(bad), 0, &err) == -EINVAL && strstr(err.msg, "line"));
	CHECK(measure_regions_parse(&r, "empty", "", 0, 0, &err) == -EINVAL);
	free(bad);
	free(text);
	measure_regions_release(&r);
	free(a);
	free(b);
}

TESTS(T(test_marker__nesting), T(test_marker__names), T(test_marker__record_threads))
