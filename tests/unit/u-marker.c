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
#include "scale/regions.h"

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
	t->nev = MARKER_NEVENTS;
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
	a->index = 0, a->tid = 100, a->available = 0x3f, a->nev = MARKER_NEVENTS;
	b->index = 1, b->tid = 101, b->available = 0x0f, b->nev = MARKER_NEVENTS;
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
	CHECK(marker_record_write(fd, 4242, "signal 15", MARKER_NEVENTS, names, units, 0, NULL, a) == 0);
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

/* $ARCHSCOPE_MARKER_EVENTS as stat --regions -e sets it: type, config, unit, name per line. */
static void test_marker__events_parse(void)
{
	struct marker_event ev[4];
	CHECK(marker_events_parse("1 1 ns task-clock\n0 1 events instructions", ev, 4) == 2);
	CHECK(ev[0].type == 1 && ev[0].config == 1 && ev[1].type == 0);
	CHECK_STR(ev[0].unit, "ns");
	CHECK_STR(ev[1].name, "instructions");
	CHECK(marker_events_parse("4 5439548 events amd64_fam1ah_zen5::RETIRED_INSTRUCTIONS\n", ev, 4) == 1);
	CHECK(ev[0].type == 4 && ev[0].config == 5439548);
	/* malformed: a missing field, a sign, a type beyond 32 bits, a space in the name, nothing */
	CHECK(marker_events_parse("1 1 ns", ev, 4) == -EINVAL);
	CHECK(marker_events_parse("-1 1 ns x", ev, 4) == -EINVAL);
	CHECK(marker_events_parse("4294967296 1 ns x", ev, 4) == -EINVAL);
	CHECK(marker_events_parse("1 1 ns two words", ev, 4) == -EINVAL);
	CHECK(marker_events_parse("1 99999999999999999999999 ns x", ev, 4) == -EINVAL);
	CHECK(marker_events_parse("", ev, 4) == -EINVAL);
	CHECK(marker_events_parse("1 1 ns a\n1 1 ns b\n1 1 ns c", ev, 2) == -E2BIG);
	/* the name and the unit have their room */
	char line[300];
	snprintf(line, sizeof(line), "1 1 %s x", "aaaaaaaaaaaaaaaaaaaa");
	CHECK(marker_events_parse(line, ev, 4) == -EINVAL);
}

/* stat --regions -e: the names encoded into the list the marker library parses back (software
 * events: every machine has them). */
static void test_marker__events_env(void)
{
	static const char *const two[2] = { "page-faults", "task-clock" };
	struct as_error err = { 0 };
	char *env = measure_regions_events_env(two, 2, &err);
	CHECK(env);
	struct marker_event ev[MARKER_EVENTS_MAX];
	CHECK(env && marker_events_parse(env, ev, MARKER_EVENTS_MAX) == 2);
	CHECK_STR(ev[0].name, "page-faults");
	CHECK_STR(ev[0].unit, "events");
	CHECK_STR(ev[1].unit, "ns");
	CHECK(ev[1].type == 1 && ev[1].config == 1); /* PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK */
	CHECK(ev[0].type == 1 && ev[0].config == 2); /* PERF_COUNT_SW_PAGE_FAULTS */
	free(env);
	static const char *const unknown[2] = { "task-clock", "no-such-event" };
	CHECK(!measure_regions_events_env(unknown, 2, &err) && strstr(err.msg, "no-such-event"));
	static const char *const spaced[1] = { "task clock" };
	CHECK(!measure_regions_events_env(spaced, 1, &err) && err.code == -EINVAL);
	const char *many[MARKER_EVENTS_MAX + 1];
	for (int i = 0; i <= MARKER_EVENTS_MAX; i++)
		many[i] = "task-clock";
	CHECK(!measure_regions_events_env(many, MARKER_EVENTS_MAX + 1, &err) && err.code == -E2BIG);
}

/* Under stack --regions: two counters of the user's, each region's CPU, run-queue and wait times
 * written, read back and split into the region's stack (scale/regions.c). */
static void test_marker__record_stack(void)
{
	static const char *const evn[2] = { "task-clock", "INST_RETIRED:ANY_P" }, *const evu[2] = { "ns", "events" };
	static const char *const stn[5] = { "cpu", "runq", "mutex", "pthread_spin", "join" };
	struct marker_thread *t = calloc(1, sizeof(*t));
	CHECK(t);
	t->nev = 2, t->available = 0x1, t->tid = 7;
	uint64_t c[2] = { 0, 0 }, st0[5] = { 0, 0, 0, 0, 0 };
	/* "spin": 1 s, of which 0.6 s spinning in pthread_spin_lock and 0.1 s in the run queue */
	uint64_t st1[5] = { 900000000ull, 100000000ull, 0, 600000000ull, 0 };
	CHECK(marker_region_start(t, "spin", 0, c) == 0);
	CHECK(marker_region_stack(t, "spin", st0, 5, 0) == 0);
	CHECK(marker_region_stack(t, "spin", st1, 5, 1) == 0);
	c[0] = 900000000ull;
	CHECK(marker_region_stop(t, "spin", 1000000000ull, c) == 0);
	CHECK(marker_region_stack(t, "spin", st1, 5, 1) == -EFAULT); /* not running */
	/* "wait": 1 s, 0.5 s of CPU and 0.5 s asleep in a mutex */
	uint64_t st2[5] = { 1400000000ull, 100000000ull, 500000000ull, 600000000ull, 0 };
	CHECK(marker_region_start(t, "wait", 1000000000ull, c) == 0);
	CHECK(marker_region_stack(t, "wait", st1, 5, 0) == 0);
	CHECK(marker_region_stack(t, "wait", st2, 5, 1) == 0);
	CHECK(marker_region_stop(t, "wait", 2000000000ull, c) == 0);
	char path[] = "/tmp/archscope-u-marker.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(marker_record_write(fd, 9, "exit", 2, evn, evu, 5, stn, t) == 0);
	off_t len = lseek(fd, 0, SEEK_CUR);
	char *text = calloc((size_t)len + 1, 1);
	CHECK(text && pread(fd, text, (size_t)len, 0) == len);
	close(fd);
	unlink(path);
	CHECK(strstr(text, "\nstack cpu runq mutex pthread_spin join\n") && strstr(text, "\nrstack 900000000 100000000 0 600000000 0\n"));
	struct measure_regions r = { 0 };
	struct as_error err = { 0 };
	CHECK(measure_regions_parse(&r, "a", text, (size_t)len, 0, &err) == 0);
	CHECK(measure_regions_parse(&r, "b", text, (size_t)len, 1, &err) == 0);
	CHECK(r.nevent == 2 && r.nstack == 5 && r.nsample == 4);
	CHECK_STR(r.event[1], "INST_RETIRED:ANY_P");
	CHECK_STR(r.stack_name[3], "pthread_spin");
	CHECK(r.s[0].nst == 5 && r.s[0].st[3] == 600000000.0 && isnan(r.s[0].count[1]));
	/* runs 0 and 1 at N = 2 */
	int run_threads[2] = { 2, 2 };
	struct scale_region_stacks rs;
	CHECK(scale_region_stacks_compute(&r, run_threads, 2, &rs) == 0);
	CHECK(rs.n == 2 && rs.without == 0);
	const struct scale_region_stack *spin = &rs.rs[0], *wait = &rs.rs[1];
	CHECK_STR(spin->name, "spin");
	CHECK(spin->threads == 2 && spin->runs == 2 && spin->region_threads == 1);
	CHECK_NEAR(spin->thread_s, 1, 1e-9);
	CHECK_NEAR(spin->share[SRP_SPINNING], 0.6, 1e-9);
	/* the run-queue time outside the waits, scaled by the share of the busy time not spinning */
	CHECK_NEAR(spin->share[SRP_SCHEDULING], 0.1 * 0.4, 1e-9);
	CHECK_NEAR(spin->share[SRP_BASE], 1 - 0.6 - 0.04, 1e-9);
	CHECK(spin->dominant == SRP_SPINNING);
	CHECK_NEAR(wait->share[SRP_YIELDING], 0.5, 1e-9);
	/* off the CPU 0.4 s (1 - 0.5 CPU - 0.1 queue), all inside the mutex wait: its wake-up
	 * queueing is the rest of the wait, 0.1 s; no scheduling, no blocked_other */
	CHECK_NEAR(wait->share[SRP_BLOCKED_OTHER], 0, 1e-9);
	CHECK_NEAR(wait->share[SRP_SCHEDULING], 0, 1e-9);
	CHECK_NEAR(wait->share[SRP_BASE], 0.5, 1e-9);
	CHECK(wait->dominant == SRP_YIELDING);
	double sum = 0;
	for (int k = 0; k < SRP_COUNT; k++)
		sum += wait->share[k];
	CHECK_NEAR(sum, 1, 1e-9);
	/* a record whose counters differ from the others' is refused */
	char *other = strdup(text);
	CHECK(other);
	char *ev = strstr(other, "INST_RETIRED");
	ev[0] = 'X';
	CHECK(measure_regions_parse(&r, "c", other, strlen(other), 2, &err) == -EINVAL && strstr(err.msg, "counters"));
	free(other);
	scale_region_stacks_release(&rs);
	measure_regions_release(&r);
	free(text);
	free(t);
}

TESTS(T(test_marker__nesting), T(test_marker__names), T(test_marker__record_threads), T(test_marker__events_parse), T(test_marker__events_env),
      T(test_marker__record_stack))
