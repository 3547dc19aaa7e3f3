/* Unit tests of stat's pieces that need no program: the summary of per-run values (not counted
 * is missing, never 0; Bessel's stddev; zero and constant), perf's event names, -e lists, metric
 * groups read from share/groups and their formulas, tracepoints found in a tracefs tree, and the
 * event list of a forced PMU, and stat results read back for compare (good and bad files, and the
 * inputs of tests/fixtures/fuzz/statjson-*.json). */
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/stats.h"
#include "harness.h"
#include "machine/result-stat.h"
#include "machine/schema.h"
#include "measure/counters.h"
#include "measure/events.h"
#include "measure/stat-compare.h"
#include "measure/stat-json.h"
#include "measure/stat-select.h"
#include "measure/stat-show.h"
#include "measure/stat.h"

static void test_measure_stat__summary(void)
{
	double v[] = { 10, NAN, 12, 14 };
	struct stat_event e = { .values = v };
	measure_stat_summarise(&e, 4);
	CHECK(e.n == 3);
	CHECK_NEAR(e.mean, 12, 1e-12);
	CHECK_NEAR(e.stddev, 2, 1e-12); /* sqrt(((-2)^2 + 0 + 2^2) / (3 - 1)) */
	CHECK(e.min == 10 && e.max == 14 && !e.zero && !e.constant);
	double z[] = { 0, 0, 0 };
	e.values = z;
	measure_stat_summarise(&e, 3);
	CHECK(e.zero && e.constant && e.mean == 0 && e.stddev == 0);
	double none[] = { NAN, NAN };
	e.values = none;
	measure_stat_summarise(&e, 2);
	CHECK(e.n == 0 && isnan(e.mean) && isnan(e.stddev) && !e.zero); /* not counted is not 0 */
	double one[] = { 7 };
	e.values = one;
	measure_stat_summarise(&e, 1);
	CHECK(e.n == 1 && e.mean == 7 && isnan(e.stddev) && !e.constant);
}

/* A counter the kernel multiplexed (counted 25 % of its enabled time) is scaled by
 * counters_scale and flagged; one never scheduled is not counted, not 0. */
static void test_measure_stat__multiplexed(void)
{
	double v[3], sh[3];
	struct stat_event e = { .values = v, .share = sh };
	double share = 0, value = counters_scale(1000, 100, 100, &share);
	measure_stat_record(&e, 0, value, share);
	CHECK(!e.multiplexed);
	value = counters_scale(250, 400, 100, &share);
	measure_stat_record(&e, 1, value, share);
	CHECK(e.multiplexed && v[1] == 1000 && sh[1] == 0.25);
	measure_stat_record(&e, 2, NAN, 0);
	measure_stat_summarise(&e, 3);
	CHECK(e.n == 2 && e.mean == 1000 && e.constant);
}

static void test_measure_stat__names(void)
{
	CHECK_STR(measure_stat_alias("page-faults"), "perf::PERF_COUNT_SW_PAGE_FAULTS");
	CHECK_STR(measure_stat_alias("INST_RETIRED:ANY_P"), "INST_RETIRED:ANY_P");
	CHECK(measure_stat_is_software("perf::PERF_COUNT_SW_TASK_CLOCK:u=1"));
	CHECK(!measure_stat_is_software("perf::PERF_COUNT_HW_CPU_CYCLES"));
	struct stat_select s;
	struct as_error err = { 0 };
	measure_stat_select_init(&s);
	CHECK(measure_stat_select_add(&s, "page-faults, task-clock", &err) == 0);
	CHECK(measure_stat_select_add(&s, "cycles", &err) == 0);
	CHECK(s.n == 3);
	CHECK_STR(s.names[1], "task-clock");
	/* what a user typed twice, or empty, is an error naming it (issue 35) */
	CHECK(measure_stat_select_add(&s, "cycles", &err) == -EINVAL && strstr(err.msg, "'cycles' is given twice"));
	CHECK(measure_stat_select_add(&s, "faults", &err) == -EINVAL && strstr(err.msg, "'page-faults' and 'faults'"));
	CHECK(measure_stat_select_add(&s, "", &err) == -EINVAL && strstr(err.msg, "empty event name"));
	CHECK(measure_stat_select_add(&s, "branches,,instructions", &err) == -EINVAL && strstr(err.msg, "empty"));
	measure_stat_select_release(&s);
	/* --all: every software event first, then this CPU's PMUs (or perf's generic events) */
	measure_stat_select_init(&s);
	CHECK(measure_stat_select_all(&s, &err) == 0);
	CHECK(s.n > 12);
	CHECK_STR(s.names[0], "task-clock");
	measure_stat_select_release(&s);
}

static double value_of(void *ctx, const char *name)
{
	(void)ctx;
	return !strcmp(name, "branches") ? 200 : !strcmp(name, "branch-misses") ? 5 : NAN;
}

static void test_measure_stat__groups(void)
{
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/share/groups", ARCHSCOPE_SOURCE_DIR);
	char list[512];
	measure_stat_select_group_list(dir, list, sizeof(list));
	CHECK(strstr(list, "BRANCH") && strstr(list, "FLOPS") && strstr(list, "MEM") && strstr(list, "L2") &&
	      strstr(list, "L3"));
	struct stat_select s;
	struct as_error err = { 0 };
	measure_stat_select_init(&s);
	CHECK(measure_stat_select_group(&s, dir, "branch", &err) == 0);
	CHECK_STR(s.group, "BRANCH");
	CHECK(s.n >= 2 && s.nmetrics >= 1);
	/* no PMU event encodes here unless libpfm4 knows this CPU: the generic block, perf's names */
	int found = 0;
	for (int i = 0; i < s.nmetrics; i++)
		if (!strcmp(s.metric[i].unit, "%") && !strcmp(s.group_pmu, "generic")) {
			CHECK_NEAR(measure_stat_metric_eval(&s, &s.metric[i], value_of, NULL), 2.5, 1e-12);
			found = 1;
		}
	CHECK(found || strcmp(s.group_pmu, "generic"));
	measure_stat_select_release(&s);
	measure_stat_select_init(&s);
	CHECK(measure_stat_select_group(&s, dir, "NOSUCH", &err) == -ENOENT);
	CHECK(strstr(err.msg, "BRANCH") != NULL);
	measure_stat_select_release(&s);
	struct stat_metric m = { .expr = "branch-misses / nosuch * 100" };
	CHECK(isnan(measure_stat_metric_eval(NULL, &m, value_of, NULL)));
	struct stat_metric z = { .expr = "branches / 0" };
	CHECK(isnan(measure_stat_metric_eval(NULL, &z, value_of, NULL)));
	struct stat_metric k = { .expr = "branches * 2 / 4" };
	CHECK_NEAR(measure_stat_metric_eval(NULL, &k, value_of, NULL), 100, 1e-12);
	/* precedence, parentheses, $N, a minus between spaces */
	measure_stat_select_init(&s);
	CHECK(measure_stat_select_add(&s, "branches,branch-misses", &err) == 0);
	struct stat_metric p = { .expr = "($1 + 2 * $2) / 10 - 1" };
	CHECK_NEAR(measure_stat_metric_eval(&s, &p, value_of, NULL), 20, 1e-12);
	struct stat_metric bad = { .expr = "($1 + 2" }, out = { .expr = "$3" };
	CHECK(isnan(measure_stat_metric_eval(&s, &bad, value_of, NULL)) && isnan(measure_stat_metric_eval(&s, &out, value_of, NULL)));
	measure_stat_select_release(&s);
}

/* A group file is checked whole: each refused text gives -EINVAL naming the line and why; the
 * share/groups files pass, every block of them. */
static void test_measure_stat__group_refused(void)
{
	static const char head[] = "SHORT t\nEVENTSET generic\ninstructions\nbranches\ncycles\nMETRICS\n";
	static const struct {
		const char *text; /* after head when it starts with '+' */
		const char *want;
	} bad[] = {
		{ "+Ratio | % | $99 / $1\n", "line 7: metric 'Ratio': '$99' (column 1): the set has 3 events ($1 to $3)" },
		{ "+Ratio | % | $1 +\n", "line 7: metric 'Ratio': an operand is missing at the end" },
		{ "+Ratio | % | 0x10 * $1\n", "line 7: metric 'Ratio': '0x10' (column 1) is not a decimal number" },
		{ "+Ratio | % | $1 * 1e999\n", "line 7: metric 'Ratio': the number '1e999' (column 6) is out of range" },
		{ "+Ratio | % | nosuch / $1\n", "line 7: metric 'Ratio': 'nosuch' (column 1) is no event of the set" },
		{ "+Ratio | % | ($1 / $2\n", "line 7: metric 'Ratio': the '(' at column 1 is not closed" },
		{ "+Ratio | % | $1 / $2)\n", "line 7: metric 'Ratio': the ')' at column 8 has no '('" },
		{ "+Ratio | % | $1 $2\n", "line 7: metric 'Ratio': '$2' (column 4): an operator (+ - * /) is missing" },
		{ "+Ratio | % | $x\n", "line 7: metric 'Ratio': '$x' (column 1) is not an event's place" },
		{ "+Ratio | %\n", "line 7: 'Ratio | %' is no metric" },
		{ "+ | % | $1\n", "line 7: a metric without a label" },
		{ "+Ratio | % |\n", "line 7: metric 'Ratio' has no expression" },
		{ "+Ratio | % | $1\nRatio | % | $2\n", "line 8: metric 'Ratio' is given twice in EVENTSET 'generic' (first on line 7)" },
		{ "SHORT t\nEVENTSET a\ncycles\ninstructions\ncycles\n",
		  "line 5: event 'cycles' is listed twice in EVENTSET 'a' (first on line 3): list it once" },
		{ "EVENTSET a\npage-faults\nfaults\n", "line 3: events 'page-faults' (line 2) and 'faults' of EVENTSET 'a' are "
						       "the same event" },
		{ "EVENTSET a\ncyc les\n", "line 2: event name 'cyc les' holds a space (column 4)" },
		{ "EVENTSET a\ncycl\xc3\xa9s\n", "line 2: event name 'cycl\xc3\xa9s' holds a byte that is not ASCII (column 5)" },
		{ "EVENTSET a\nRatio | % | $1\n", "line 2: 'Ratio | % | $1' looks like a metric" },
		{ "cycles\n", "line 1: 'cycles' before EVENTSET" },
		{ "METRICS\n", "line 1: METRICS before EVENTSET" },
		{ "EVENTSET\ncycles\n", "line 1: EVENTSET without a label" },
		{ "EVENTSET a\nEVENTSET b\ncycles\n", "line 1: EVENTSET 'a' lists no events" },
		{ "EVENTSET a\ncycles\nEVENTSET b\n", "line 3: EVENTSET 'b' lists no events" },
		{ "EVENTSET a\ncycles\nEVENTSET a\ncycles\n", "line 3: EVENTSET 'a' is given twice (first on line 1)" },
		{ "EVENTSET a\nMETRICS\n", "line 1: EVENTSET 'a' lists no events" },
		{ "EVENTSET a\ncycles\nMETRICS\nMETRICS\n", "line 4: a second METRICS line" },
		{ "SHORT a\nSHORT b\n", "line 2: a second SHORT line (the first is line 1)" },
		{ "# nothing\n", "no EVENTSET" },
		{ "", "no EVENTSET" },
	};
	struct stat_group *g = calloc(1, sizeof(*g));
	CHECK(g != NULL);
	char text[4096];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "%s%s", bad[i].text[0] == '+' ? head : "", bad[i].text + (bad[i].text[0] == '+'));
		struct as_error err = { 0 };
		int rc = measure_stat_group_parse(g, text, strlen(text), "G.txt", measure_stat_alias, &err);
		if (rc != -EINVAL || !strstr(err.msg, bad[i].want) || strncmp(err.msg, "metric group 'G.txt': ", 22))
			printf("# case %zu: rc %d, '%s'\n", i, rc, err.msg);
		CHECK(rc == -EINVAL && strstr(err.msg, bad[i].want) && !strncmp(err.msg, "metric group 'G.txt': ", 22));
	}
	/* fields longer than their room: refused, never cut */
	char longname[200];
	memset(longname, 'A', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	const char *fmts[] = { "EVENTSET a\n%s\n", "EVENTSET a\ncycles\nMETRICS\n%s | x | $1\n",
			       "EVENTSET a\ncycles\nMETRICS\nx | %s | $1\n", "EVENTSET %s\ncycles\n", "SHORT %s%s%s\n" };
	const char *what[] = { "the event name is 199 bytes long: at most 127", "the metric's label is 199 bytes long: at most 63",
			       "the metric's unit is 199 bytes long: at most 31", "the EVENTSET label is 199 bytes long: at most 63",
			       "the SHORT title is 597 bytes long: at most 127" };
	for (int i = 0; i < 5; i++) {
		snprintf(text, sizeof(text), fmts[i], longname, longname, longname);
		struct as_error err = { 0 };
		CHECK(measure_stat_group_parse(g, text, strlen(text), "G.txt", NULL, &err) == -EINVAL);
		if (!strstr(err.msg, what[i]))
			printf("# long %d: '%s'\n", i, err.msg);
		CHECK(strstr(err.msg, what[i]) != NULL);
	}
	/* a good one: events, metrics and lines kept; $N and names evaluate */
	snprintf(text, sizeof(text), "%sRatio | %% | branches / instructions * 100\nIPC | x | $1 / $3\n", head);
	struct as_error err = { 0 };
	CHECK(measure_stat_group_parse(g, text, strlen(text), "G.txt", measure_stat_alias, &err) == 0);
	CHECK(g->nblocks == 1 && g->block[0].n == 3 && g->block[0].nmetrics == 2 && g->block[0].metric_line[1] == 8);
	CHECK_STR(g->title, "t");
	const char *const names[] = { "branches", "branch-misses", "instructions" };
	CHECK_NEAR(measure_stat_expr_eval("$1 / $2 - - 1", names, 3, value_of, NULL), 41, 1e-12);
	CHECK(isnan(measure_stat_expr_eval("$1 / $4", names, 3, value_of, NULL)));
	/* every share/groups file, every block */
	const char *groups[] = { "BRANCH", "FLOPS", "MEM", "L2", "L3" };
	for (int i = 0; i < 5; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/share/groups/%s.txt", ARCHSCOPE_SOURCE_DIR, groups[i]);
		if (measure_stat_group_read(g, path, measure_stat_alias, &err) != 0)
			printf("# %s\n", err.msg);
		CHECK(measure_stat_group_read(g, path, measure_stat_alias, &err) == 0 && g->nblocks == 3);
	}
	free(g);
}

/* Each group's first block is Intel's, the second AMD's: with a forced PMU (in a child: libpfm4
 * reads LIBPFM_FORCE_PMU once) the right block is taken, so the data files' event names encode. */
static void test_measure_stat__group_blocks(void)
{
	const char *pmus[] = { "skx", "icx", "spr", "amd64_fam19h_zen4" };
	const char *want[] = { "intel", "intel", "intel", "amd" };
	for (int k = 0; k < 4; k++) {
		pid_t pid = fork();
		CHECK(pid >= 0);
		if (pid == 0) {
			setenv("LIBPFM_FORCE_PMU", pmus[k], 1);
			char dir[4096];
			snprintf(dir, sizeof(dir), "%s/share/groups", ARCHSCOPE_SOURCE_DIR);
			const char *groups[] = { "BRANCH", "FLOPS", "MEM", "L2", "L3" };
			for (int g = 0; g < 5; g++) {
				struct stat_select s;
				struct as_error err = { 0 };
				measure_stat_select_init(&s);
				if (measure_stat_select_group(&s, dir, groups[g], &err) != 0 || strcmp(s.group_pmu, want[k]) ||
				    s.nmetrics < 1)
					_exit(10 + g);
				measure_stat_select_release(&s);
			}
			_exit(0);
		}
		int st = 0;
		CHECK(waitpid(pid, &st, 0) == pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
}

/* A tracefs tree with one tracepoint: listed, and its id read. */
static void test_measure_stat__tracepoints(void)
{
	char root[] = "/tmp/archscope-u-tracefs-XXXXXX";
	CHECK(mkdtemp(root) != NULL);
	char path[512];
	snprintf(path, sizeof(path), "%s/events", root);
	CHECK(mkdir(path, 0755) == 0);
	snprintf(path, sizeof(path), "%s/events/sched", root);
	CHECK(mkdir(path, 0755) == 0);
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch", root);
	CHECK(mkdir(path, 0755) == 0);
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/id", root);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	fprintf(f, "316\n");
	fclose(f);
	uint64_t id = 0;
	CHECK(counters_tracepoint_id(root, "sched:sched_switch", &id) == 0 && id == 316);
	CHECK(counters_tracepoint_id(root, "sched:nosuch", &id) == -ENOENT);
	CHECK(counters_tracepoint_id(root, "../x", &id) == -ENOENT);
	struct events_list l;
	struct as_error err = { 0 };
	CHECK(measure_events_list(&l, "sched_sw*", 0, root, &err) == 0);
	int seen = 0;
	for (int i = 0; i < l.n; i++)
		seen |= l.e[i].kind == EVENTS_TRACEPOINT && !strcmp(l.e[i].name, "sched:sched_switch");
	measure_events_release(&l);
	remove(path);
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/events/sched", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/events", root);
	rmdir(path);
	rmdir(root);
	CHECK(seen);
}

/* A forced PMU (in a child: libpfm4 reads LIBPFM_FORCE_PMU once) lists that CPU's events with
 * unit masks, and does not try them here. */
static void test_measure_stat__forced_list(void)
{
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		setenv("LIBPFM_FORCE_PMU", "amd64_fam19h_zen4", 1);
		struct events_list l;
		struct as_error err = { 0 };
		if (measure_events_list(&l, "RETIRED_INSTRUCTIONS", 1, "/nonexistent", &err) != 0)
			_exit(2);
		int ok = 0;
		for (int i = 0; i < l.n; i++)
			if (!strcmp(l.e[i].name, "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS"))
				ok = !l.e[i].checked && strstr(l.e[i].reason, "forced") && l.e[i].kind == EVENTS_HARDWARE;
		measure_events_release(&l);
		_exit(ok ? 0 : 3);
	}
	int st = 0;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* stat --all on every PMU libpfm4 knows, each forced in its own child (LIBPFM_FORCE_PMU is read
 * once, when libpfm4 starts; the list itself comes from another child so that this process never
 * starts it): the selection, the result's events and the plan succeed whatever the length of the
 * PMU's names ("amd64_fam19h_zen4::..." once failed as too long). Exit 0: the forced PMU's
 * events were selected; 1: libpfm4 did not force it (not a core PMU); above: a failure. */
static int all_on_forced_pmu(const char *pmu)
{
	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	struct stat_select sel;
	struct as_error err = { 0 };
	measure_stat_select_init(&sel);
	if (measure_stat_select_all(&sel, &err) != 0) {
		printf("# %s: measure_stat_select_all: %s\n", pmu, err.msg);
		return 2;
	}
	size_t plen = strlen(pmu);
	int mine = 0;
	for (int i = 0; i < sel.n; i++)
		mine += !strncmp(sel.names[i], pmu, plen) && !strncmp(sel.names[i] + plen, "::", 2);
	struct measure_stat m;
	if (measure_stat_init(&m, (const char *const *)sel.names, sel.n, 1, &err) != 0) {
		printf("# %s: measure_stat_init: %s\n", pmu, err.msg);
		return 3;
	}
	if (m.nevents < sel.n || measure_stat_plan(&m, &err) != 0) {
		printf("# %s: measure_stat_plan: %s\n", pmu, err.msg);
		return 4;
	}
	for (int i = 0; i < m.nevents; i++)
		if (m.ev[i].source == STAT_PERF && !m.ev[i].available && !m.ev[i].reason[0]) {
			printf("# %s: %s neither counted nor said why\n", pmu, m.ev[i].name);
			return 5;
		}
	measure_stat_release(&m);
	measure_stat_select_release(&sel);
	return mine > 0 ? 0 : 1;
}

static void test_measure_stat__all_every_pmu(void)
{
	int fd[2];
	CHECK(pipe(fd) == 0);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		close(fd[0]);
		FILE *w = fdopen(fd[1], "w");
		struct as_error err = { 0 };
		if (!w || counters_pfm_start(&err) != 0)
			_exit(2);
		pfm_pmu_t p;
		pfm_for_all_pmus(p)
		{
			pfm_pmu_info_t pi;
			memset(&pi, 0, sizeof(pi));
			pi.size = sizeof(pi);
			if (pfm_get_pmu_info(p, &pi) == PFM_SUCCESS && pi.name && pi.type != PFM_PMU_TYPE_OS_GENERIC)
				fprintf(w, "%s\n", pi.name);
		}
		fclose(w);
		_exit(0);
	}
	close(fd[1]);
	FILE *r = fdopen(fd[0], "r");
	CHECK(r != NULL);
	char name[256];
	int tried = 0, forced = 0, zen4 = 0, bad = 0;
	while (fgets(name, sizeof(name), r)) {
		name[strcspn(name, "\n")] = 0;
		fflush(stdout);
		pid_t c = fork();
		if (c == 0)
			_exit(all_on_forced_pmu(name));
		int st = 0;
		if (c < 0 || waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st) > 1) {
			printf("# --all under LIBPFM_FORCE_PMU=%s failed (status %d)\n", name, st);
			bad++;
			continue;
		}
		tried++;
		forced += WEXITSTATUS(st) == 0;
		zen4 |= WEXITSTATUS(st) == 0 && !strcmp(name, "amd64_fam19h_zen4");
	}
	fclose(r);
	int st = 0;
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	printf("# --all: %d PMUs tried, %d forced with their events\n", tried, forced);
	CHECK(bad == 0);
	CHECK(tried >= 20 && forced >= 20);
	CHECK(zen4);
}

/* A stat result read back: the recorded fixture, null as not counted, and each kind of bad file
 * failing with a message that names it. */
static void test_measure_stat__json(void)
{
	struct measure_stat_json s;
	struct as_error err = { 0 };
	CHECK(measure_stat_json_read(&s, ARCHSCOPE_SOURCE_DIR "/tests/fixtures/measure/compare-b.json", &err) == 0);
	const struct measure_stat_json_event *e = measure_stat_json_find(&s, "not-counted");
	CHECK(s.n >= 7 && e && e->n >= 1 && isnan(e->values[0]));
	e = measure_stat_json_find(&s, "const-diff");
	CHECK(e && e->n == 5 && e->values[0] == 101 && !strcmp(e->unit, "events"));
	CHECK(!measure_stat_json_find(&s, "no-such-event"));
	measure_stat_json_release(&s);
	CHECK(s.n == 0 && !s.ev);

	const char *ok = "{\"results\":{\"events\":[{\"name\":\"x\",\"values\":[1,null,3]},{\"name\":\"y\",\"unit\":null}]}}";
	CHECK(measure_stat_json_parse(&s, ok, strlen(ok), "ok.json", &err) == 0);
	CHECK(s.n == 2 && s.ev[0].n == 3 && isnan(s.ev[0].values[1]) && !s.ev[0].unit && s.ev[1].n == 0);
	measure_stat_json_release(&s);

	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "", "cannot read stat result 'bad.json': not JSON" },
		{ "{\"results\":", "not JSON: line 1, column " },
		{ "[1,2]", "is not a result of 'archscope stat --json'" },
		{ "{\"results\":{\"events\":{}}}", "no results.events" },
		{ "{\"results\":{\"events\":[1]}}", "results.events[0] is not an object" },
		{ "{\"results\":{\"events\":[{\"name\":\"a\"},{\"values\":[1]}]}}", "results.events[1] has no name" },
		{ "{\"results\":{\"events\":[{\"name\":\"a\",\"unit\":3}]}}", "unit is not a string" },
		{ "{\"results\":{\"events\":[{\"name\":\"a\",\"values\":\"1\"}]}}", "values is not a list" },
		{ "{\"results\":{\"events\":[{\"name\":\"a\",\"values\":[1,\"2\"]}]}}", "values[1] is not a number or null" },
		/* issue 35: the last of two keys does not win silently, and an event is not compared twice */
		{ "{\"results\":{\"events\":[{\"name\":\"a\",\"values\":[1],\"values\":[2]}]}}", "duplicate object key" },
		{ "{\"results\":{\"events\":[{\"name\":\"a\"}],\"events\":[]}}", "duplicate object key" },
		{ "{\"results\":{\"events\":[{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"a\"}]}}",
		  "results.events[0] and [2] are both named 'a'" },
		/* issue 52: impossible values (a count below 0, beyond a 64-bit counter; a negative load) */
		{ "{\"results\":{\"events\":[{\"name\":\"a\",\"values\":[1,-1]}]}}", "values[1] is -1: a count or time is never negative" },
		{ "{\"results\":{\"events\":[{\"name\":\"a\",\"values\":[1e308]}]}}", "values[0] is 1e+308: above 2^64" },
		{ "{\"results\":{\"events\":[],\"conditions\":{\"loadavg_before\":[0,-2,0]}}}", "results.conditions.loadavg_before[1] is -2" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		as_error_clear(&err);
		int rc = measure_stat_json_parse(&s, bad[i].text, strlen(bad[i].text), "bad.json", &err);
		if (rc != -EINVAL || !strstr(err.msg, bad[i].msg) || !strstr(err.msg, "bad.json"))
			printf("# case %zu: rc %d, message '%s'\n", i, rc, err.msg);
		CHECK(rc == -EINVAL && strstr(err.msg, bad[i].msg) && strstr(err.msg, "bad.json"));
		CHECK(s.n == 0 && !s.ev);
	}
	/* not a regular file, and a missing one */
	as_error_clear(&err);
	CHECK(measure_stat_json_read(&s, "/dev/zero", &err) == -EINVAL && strstr(err.msg, "regular file"));
	as_error_clear(&err);
	CHECK(measure_stat_json_read(&s, ARCHSCOPE_SOURCE_DIR "/no/such/file.json", &err) == -ENOENT && err.msg[0]);

	/* what the fuzz target found, if anything: each input fails with a message or reads */
	glob_t g;
	if (glob(ARCHSCOPE_SOURCE_DIR "/tests/fixtures/fuzz/statjson-*.json", 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			as_error_clear(&err);
			int rc = measure_stat_json_read(&s, g.gl_pathv[i], &err);
			CHECK(rc == 0 || err.msg[0]);
			/* and compare's statistics on every neighbouring pair, as the fuzz target runs them */
			for (size_t k = 0; k < s.n; k++) {
				struct stats_sample x, y;
				struct stats_welch w;
				double lo, hi;
				stats_sample(s.ev[k].values, s.ev[k].n, &x);
				stats_sample(s.ev[(k + 1) % s.n].values, s.ev[(k + 1) % s.n].n, &y);
				if (stats_welch_t(&x, &y, &w) == 0)
					CHECK(w.p >= 0 && w.p <= 1);
				stats_ratio_ci(&x, &y, 0.95, &lo, &hi);
			}
			measure_stat_json_release(&s);
		}
		globfree(&g);
	}
}

/* The conditions stat records, read back flattened (arrays as KEY[i]); and 100k events found by
 * name (compare's lookup once was a linear search: 32 s for 100k; bench/compare-speed.sh times it). */
static void test_measure_stat__json_conditions_and_many(void)
{
	struct measure_stat_json s;
	struct as_error err = { 0 };
	const char *doc = "{\"results\":{\"events\":[{\"name\":\"x\",\"values\":[1]}],\"conditions\":"
			  "{\"loadavg_before\":[0.5,0.25,0.125],\"governor\":\"performance\",\"cpu_mhz_os\":null,"
			  "\"clock_ghz_before\":3.5}}}";
	CHECK(measure_stat_json_parse(&s, doc, strlen(doc), "c.json", &err) == 0);
	const struct measure_stat_json_cond *c = measure_stat_json_cond(&s, "loadavg_before[1]");
	CHECK(c && !c->text && c->value == 0.25);
	c = measure_stat_json_cond(&s, "governor");
	CHECK(c && c->text && !strcmp(c->text, "performance"));
	c = measure_stat_json_cond(&s, "cpu_mhz_os");
	CHECK(c && !c->text && isnan(c->value));
	CHECK(measure_stat_json_cond(&s, "clock_ghz_before")->value == 3.5 && !measure_stat_json_cond(&s, "none"));
	measure_stat_json_release(&s);

	enum { N = 100000 };
	size_t cap = (size_t)N * 48 + 64, len = 0;
	char *text = malloc(cap);
	CHECK(text != NULL);
	len += (size_t)snprintf(text + len, cap - len, "{\"results\":{\"events\":[");
	for (int i = 0; i < N; i++) /* in an order that is not sorted */
		len += (size_t)snprintf(text + len, cap - len, "%s{\"name\":\"ev%d\",\"values\":[%d,%d]}", i ? "," : "",
					(i * 7919) % N, i, i + 1);
	len += (size_t)snprintf(text + len, cap - len, "]}}");
	int rc = measure_stat_json_parse(&s, text, len, "many.json", &err);
	free(text);
	CHECK(rc == 0 && s.n == N);
	for (int i = 0; i < N; i++) {
		char name[32];
		snprintf(name, sizeof(name), "ev%d", i);
		const struct measure_stat_json_event *e = measure_stat_json_find(&s, name);
		if (!e || strcmp(e->name, name) != 0) {
			measure_stat_json_release(&s);
			CHECK(!"every event found by its name");
		}
	}
	CHECK(!measure_stat_json_find(&s, "ev100000") && !measure_stat_json_find(&s, "") && !measure_stat_json_find(&s, "zz"));
	/* the first and last in file order */
	CHECK(measure_stat_json_find(&s, "ev0") == &s.ev[0] && measure_stat_json_find(&s, "ev0")->values[0] == 0);
	measure_stat_json_release(&s);
}

/* The numbers stat shows beside its counts, on a synthetic result of two runs: perf stat's rates
 * (GHz from cycles over task-clock, IPC, CPUs utilized), the standard error, the display scales and
 * perf stat -x's lines. */
static void test_measure_stat__show(void)
{
	double tc_v[] = { 2e9, 2e9 }, cy_v[] = { 6e9, 6e9 }, in_v[] = { 3e9, 3e9 }, wall_v[] = { 1e9, 1e9 };
	double one[] = { 1, 1 };
	struct stat_event ev[] = {
		{ .name = "task-clock", .unit = "ns", .source = STAT_PERF, .available = 1, .values = tc_v, .share = one },
		{ .name = "cycles", .unit = "events", .source = STAT_PERF, .hardware = 1, .available = 1, .values = cy_v,
		  .share = one },
		{ .name = "instructions", .unit = "events", .source = STAT_PERF, .hardware = 1, .available = 1,
		  .values = in_v, .share = one },
		{ .name = "wall-time", .unit = "ns", .source = STAT_WALL, .available = 1, .values = wall_v, .share = one },
	};
	for (int i = 0; i < 4; i++)
		measure_stat_summarise(&ev[i], 2);
	struct stat_run run[2] = { { .exited = 1, .status = 0 }, { .exited = 0, .status = 9 } };
	struct measure_stat m = { .nevents = 4, .ev = ev, .runs = 2, .passes = 1, .nrun = 2, .run = run };
	struct stat_rate r = measure_stat_rate(&m, &ev[1]);
	CHECK_NEAR(r.value, 3.0, 1e-12);
	CHECK(!strcmp(r.unit, "GHz"));
	r = measure_stat_rate(&m, &ev[2]);
	CHECK_NEAR(r.value, 0.5, 1e-12);
	CHECK(!strcmp(r.unit, "IPC"));
	r = measure_stat_rate(&m, &ev[0]);
	CHECK_NEAR(r.value, 2.0, 1e-12);
	CHECK(!strcmp(r.unit, "CPUs utilized"));
	CHECK(isnan(measure_stat_rate(&m, &ev[3]).value)); /* the wall time has none */
	char buf[64];
	measure_stat_rate_format(&r, buf, sizeof(buf));
	CHECK(!strcmp(buf, "2.000 CPUs utilized"));
	CHECK(measure_stat_sem(&ev[1]) == 0);
	struct stat_disp d = measure_stat_disp_of("ns", 2e9);
	measure_stat_disp_format(&d, 2e9, buf, sizeof(buf), 1);
	CHECK(!strcmp(buf, "2.000 s"));
	d = measure_stat_disp_of("events", 1234567);
	measure_stat_disp_format(&d, 1234567, buf, sizeof(buf), 1);
	CHECK(!strcmp(buf, "1,234,567"));
	d = measure_stat_disp_of("KiB", 2048);
	measure_stat_disp_format(&d, 2048, buf, sizeof(buf), 1);
	CHECK(!strcmp(buf, "2.0 MiB"));
	measure_stat_disp_format(&d, NAN, buf, sizeof(buf), 0);
	CHECK(!strcmp(buf, "none"));
	char *csv = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&csv, &len);
	CHECK(f);
	measure_stat_csv_write(f, &m, ",");
	fclose(f);
	CHECK(strstr(csv, "2000.00,msec,task-clock,0.00%,,100.00,2.000,CPUs utilized\n"));
	CHECK(strstr(csv, "6000000000,,cycles,0.00%,,100.00,3.000,GHz\n"));
	free(csv);
	int failed, crashed;
	measure_stat_failures(&m, &failed, &crashed);
	CHECK(failed == 0 && crashed == 1);
}

/* compare's statistics on two small results: a real shift flagged, equal constants not, a side
 * with two runs marked, the events of one side listed, the not counted sorted last; -e's
 * selection; and a measurement read as a result file (compare -r). */
static void test_measure_stat__compare(void)
{
	const char *ta = "{\"results\":{\"events\":[{\"name\":\"same\",\"values\":[5,5,5,5]},"
			 "{\"name\":\"nc\",\"values\":[null,null]},{\"name\":\"two\",\"values\":[1,2]},"
			 "{\"name\":\"x\",\"unit\":\"ns\",\"values\":[10,11,12,10,11]},{\"name\":\"onlya\",\"values\":[1]}]}}";
	const char *tb = "{\"results\":{\"events\":[{\"name\":\"x\",\"values\":[20,21,22,20,21]},"
			 "{\"name\":\"two\",\"values\":[1,2,1]},{\"name\":\"same\",\"values\":[5,5,5]},"
			 "{\"name\":\"onlyb\",\"values\":[3]},{\"name\":\"nc\",\"values\":[null]}]}}";
	struct measure_stat_json a, b;
	struct measure_stat_compare c;
	struct stat_select only;
	struct as_error err = { 0 };
	measure_stat_select_init(&only);
	CHECK(measure_stat_json_parse(&a, ta, strlen(ta), "a.json", &err) == 0);
	CHECK(measure_stat_json_parse(&b, tb, strlen(tb), "b.json", &err) == 0);
	CHECK(measure_stat_compare_run(&c, &a, &b, &only, 0.05, 1, &err) == 0);
	CHECK(c.n == 4 && c.tests == 3 && c.few_runs);
	CHECK_STR(c.only_a, "onlya");
	CHECK_STR(c.only_b, "onlyb");
	CHECK_STR(c.ev[0].name, "x");
	CHECK_STR(c.ev[0].unit, "ns");
	CHECK(c.ev[0].significant && c.ev[0].q < 0.01 && c.ev[0].w.p <= c.ev[0].q);
	CHECK_NEAR(c.ev[0].ratio, 104.0 / 54.0, 1e-12);
	CHECK(c.ev[0].lo < c.ev[0].ratio && c.ev[0].ratio < c.ev[0].hi && c.ev[0].g > 0);
	CHECK_STR(c.ev[3].name, "nc");
	CHECK(isnan(c.ev[3].q) && !c.ev[3].significant);
	for (int k = 1; k < 3; k++) {
		CHECK(!c.ev[k].significant && c.ev[k].q <= 1);
		CHECK(!strcmp(c.ev[k].name, "same") || !strcmp(c.ev[k].name, "two"));
	}
	measure_stat_compare_release(&c);
	CHECK(c.n == 0 && !c.ev);
	/* -e: only the events named; a shift of 92 % is no change above 100 % */
	CHECK(measure_stat_select_add(&only, "x,onlyb", &err) == 0);
	CHECK(measure_stat_compare_run(&c, &a, &b, &only, 0.05, 100, &err) == 0);
	CHECK(c.n == 1 && c.tests == 1 && !c.few_runs && !c.ev[0].significant);
	CHECK(c.only_a[0] == '\0');
	CHECK_STR(c.only_b, "onlyb");
	measure_stat_compare_release(&c);
	measure_stat_select_release(&only);
	measure_stat_json_release(&a);
	measure_stat_json_release(&b);

	double cy_v[] = { 3, 4, 5 };
	struct stat_event ev[] = { { .name = "cycles", .unit = "events", .values = cy_v },
				   { .name = "missing", .unit = "ns", .values = NULL } };
	struct measure_stat m = { .nevents = 2, .ev = ev, .runs = 3 };
	CHECK(measure_stat_json_from_stat(&a, &m, &err) == 0);
	const struct measure_stat_json_event *e = measure_stat_json_find(&a, "cycles");
	CHECK(a.n == 2 && e && e->n == 3 && e->values[2] == 5 && !strcmp(e->unit, "events"));
	e = measure_stat_json_find(&a, "missing");
	CHECK(e && e->n == 3 && isnan(e->values[0]) && isnan(e->values[2]));
	measure_stat_json_release(&a);
}

/* The forced-PMU cases run first: libpfm4 reads LIBPFM_FORCE_PMU when it starts, once per process,
 * and their children must not inherit a started one. */
/* The conditions two results differ in, as compare warns of them (the rules live in measure/, not
 * in the command): strings equal, the clock within 5 %, the load within 1. */
static void test_measure_stat__cond_diff(void)
{
	struct measure_stat_json a, b, none;
	struct as_error err = { 0 };
	const char *da = "{\"results\":{\"events\":[{\"name\":\"x\",\"values\":[1]}],\"conditions\":"
			 "{\"loadavg_before\":[0.5],\"governor\":\"performance\",\"clock_ghz_before\":3.5,\"cpus_online\":128}}}";
	const char *db = "{\"results\":{\"events\":[{\"name\":\"x\",\"values\":[1]}],\"conditions\":"
			 "{\"loadavg_before\":[2.0],\"governor\":\"powersave\",\"clock_ghz_before\":3.6,\"cpus_online\":1024}}}";
	const char *dn = "{\"results\":{\"events\":[{\"name\":\"x\",\"values\":[1]}]}}";
	CHECK(measure_stat_json_parse(&a, da, strlen(da), "a.json", &err) == 0);
	CHECK(measure_stat_json_parse(&b, db, strlen(db), "b.json", &err) == 0);
	CHECK(measure_stat_json_parse(&none, dn, strlen(dn), "n.json", &err) == 0);
	struct measure_stat_cond_diff d[MEASURE_STAT_COND_DIFFS];
	CHECK(measure_stat_json_cond_diff(&a, &a, d, MEASURE_STAT_COND_DIFFS) == 0);
	int n = measure_stat_json_cond_diff(&a, &b, d, MEASURE_STAT_COND_DIFFS);
	CHECK(n == 3); /* 3.5 and 3.6 GHz are within 5 % */
	CHECK_STR(d[0].key, "governor");
	CHECK_STR(d[0].a, "'performance'");
	CHECK_STR(d[0].apart, "");
	CHECK_STR(d[1].key, "cpus_online");
	CHECK_STR(d[1].b, "1024");
	CHECK_STR(d[2].key, "loadavg_before[0]");
	CHECK_STR(d[2].apart, "1");
	CHECK(measure_stat_json_cond_diff(&a, &b, d, 1) == 1);
	CHECK(measure_stat_json_cond_diff(&a, &none, d, MEASURE_STAT_COND_DIFFS) == -1);
	measure_stat_json_release(&a);
	measure_stat_json_release(&b);
	measure_stat_json_release(&none);
}

/* Results recorded from stat, regress, phases, memhist, events and compare (the `--json` of this
 * build in tests/fixtures/measure/NAME-result.json) are what their descriptions say, key for key
 * (machine/result-stat*.h);
 * a stat result read back by compare's reader keeps its events; a key removed or of another kind
 * is named by its path. */
static void test_measure_stat__results_described(void)
{
	static const char *const files[] = { "stat-result", "stat-result-group", "stat-result-interval", "regress-result",
					     "phases-result", "compare-result", "memhist-result", "events-result" };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/tests/fixtures/measure/%s.json", ARCHSCOPE_SOURCE_DIR, files[i]);
		json_t *doc = json_load_file(path, 0, NULL);
		CHECK(doc != NULL);
		const struct schema *s = schema_by_name(json_string_value(json_object_get(doc, "command")));
		CHECK(s != NULL);
		struct as_error err = { 0 };
		int rc = schema_check(s, json_object_get(doc, "results"), &err);
		if (rc)
			printf("# %s: %s\n", files[i], err.msg);
		CHECK(rc == 0);
		json_decref(doc);
	}
	char path[512];
	snprintf(path, sizeof(path), "%s/tests/fixtures/measure/stat-result.json", ARCHSCOPE_SOURCE_DIR);
	json_t *doc = json_load_file(path, 0, NULL);
	json_t *results = json_object_get(doc, "results");
	struct measure_stat_json back;
	struct as_error err = { 0 };
	CHECK(measure_stat_json_read(&back, path, &err) == 0);
	CHECK(back.n == json_array_size(schema_get(&stat_result, results, ST_EVENTS)));
	CHECK(measure_stat_json_cond(&back, ST_KEY(COND_KERNEL)) != NULL);
	measure_stat_json_release(&back);
	json_t *run0 = json_array_get(schema_get(&stat_result, results, ST_RUNS_DETAIL), 0);
	json_object_del(run0, ST_KEY(RUN_SECONDS));
	CHECK(schema_check(&stat_result, results, &err) == -EINVAL && strstr(err.msg, "runs_detail[0].seconds: missing"));
	CHECK(schema_check_read(&stat_result, results, &err) == 0);
	schema_set(&stat_result, run0, ST_RUN_SECONDS, json_string("1 s"));
	CHECK(schema_check_read(&stat_result, results, &err) == -EINVAL &&
	      strstr(err.msg, "runs_detail[0].seconds: a value where a number"));
	json_decref(doc);
}

TESTS(T(test_measure_stat__results_described), T(test_measure_stat__group_blocks), T(test_measure_stat__forced_list), T(test_measure_stat__all_every_pmu), T(test_measure_stat__summary), T(test_measure_stat__multiplexed),
      T(test_measure_stat__names), T(test_measure_stat__groups), T(test_measure_stat__group_refused), T(test_measure_stat__tracepoints),
      T(test_measure_stat__json), T(test_measure_stat__json_conditions_and_many), T(test_measure_stat__show), T(test_measure_stat__compare), T(test_measure_stat__cond_diff))
