/* Unit tests of the counter layer: libpfm4 encodings (generic names, and a forced Skylake-SP PMU so
 * model-specific names encode on any machine), the scaling of multiplexed counts, and counting on
 * this thread: a software event always, a hardware one where the machine has it (else the error
 * must say why); and counting around the repetitions of a program that stops itself. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "measure/bracket.h"
#include "measure/counters.h"
#include "measure/sysfs-pmu.h"

/* Runs first, in a child: libpfm4 reads LIBPFM_FORCE_PMU once, when it starts. */
static void test_measure__forced_pmu_encoding(void)
{
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		setenv("LIBPFM_FORCE_PMU", "skx", 1);
		uint32_t type;
		uint64_t config;
		char fq[192];
		struct as_error err = { 0 };
		if (counters_encode("CPU_CLK_UNHALTED:THREAD_P", &type, &config, fq, sizeof(fq), &err) != 0)
			_exit(2);
		if (type != PERF_TYPE_RAW || (config & 0xffff) != 0x003c || !strstr(fq, "skx::"))
			_exit(3);
		if (counters_encode("INST_RETIRED:ANY_P", &type, &config, NULL, 0, &err) != 0 || (config & 0xffff) != 0x00c0)
			_exit(4);
		if (counters_encode("L1D:REPLACEMENT", &type, &config, NULL, 0, &err) != 0 || (config & 0xffff) != 0x0151)
			_exit(5);
		_exit(0);
	}
	int st = 0;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st));
	CHECK(WEXITSTATUS(st) == 0);
}

static void test_measure__generic_encoding(void)
{
	uint32_t type;
	uint64_t config;
	struct as_error err = { 0 };
	CHECK(counters_encode("cycles", &type, &config, NULL, 0, &err) == 0);
	CHECK(type == PERF_TYPE_HARDWARE && config == PERF_COUNT_HW_CPU_CYCLES);
	CHECK(counters_encode("instructions", &type, &config, NULL, 0, &err) == 0);
	CHECK(type == PERF_TYPE_HARDWARE && config == PERF_COUNT_HW_INSTRUCTIONS);
	CHECK(counters_encode("no_such_event_xyz", &type, &config, NULL, 0, &err) == -ENOENT);
	CHECK(strstr(err.msg, "no_such_event_xyz") != NULL);
}

static void test_measure__scaling(void)
{
	double share;
	CHECK_NEAR(counters_scale(1000, 100, 100, &share), 1000, 0);
	CHECK_NEAR(share, 1, 0);
	CHECK_NEAR(counters_scale(1000, 200, 50, &share), 4000, 1e-9);
	CHECK_NEAR(share, 0.25, 1e-12);
	CHECK_NEAR(counters_scale(5, 0, 0, &share), 0, 0);
	CHECK_NEAR(share, 0, 0);
	CHECK_NEAR(counters_scale(7, 10, 0, &share), 0, 0);
}

static volatile double sink;

static void spin(void)
{
	double x = 1;
	for (int i = 0; i < 2000000; i++)
		x = x * 1.0000001 + 1e-9;
	sink = x;
}

static void test_measure__count_self(void)
{
	struct counter_set s;
	struct as_error err = { 0 };
	const char *sw[] = { "perf::PERF_COUNT_SW_TASK_CLOCK" };
	CHECK(counters_open(&s, sw, 1, 0, &err) == 0);
	CHECK(counters_reset_enable(&s) == 0);
	spin();
	CHECK(counters_disable(&s) == 0);
	CHECK(counters_read(&s, &err) == 0);
	CHECK(s.value[0] > 0);
	CHECK(counters_find(&s, sw[0]) == 0 && counters_find(&s, "cycles") == -1);
	counters_close(&s);
	/* Hardware: counts where the machine has a PMU; otherwise a message that says why. */
	const char *hw[] = { "cycles", "instructions" };
	int rc = counters_open(&s, hw, 2, 0, &err);
	if (rc == 0) {
		CHECK(counters_reset_enable(&s) == 0);
		spin();
		CHECK(counters_disable(&s) == 0);
		CHECK(counters_read(&s, &err) == 0);
		CHECK(s.value[0] > 1e6 && s.value[1] > 1e6);
		counters_close(&s);
	} else {
		CHECK(rc == -EOPNOTSUPP || rc == -EACCES || rc == -EPERM);
		CHECK(strstr(err.msg, "cycles") != NULL);
		CHECK(s.n == 0);
	}
	CHECK(counters_open(&s, hw, 0, 0, &err) == -EINVAL);
}

/* One event at a time (stat's way): a full set refuses more, a failed add leaves the set as it
 * was, a counter enabled alone counts, and software events libpfm4 4.13 lacks still encode. */
static void test_measure__add(void)
{
	struct counter_set s;
	struct as_error err = { 0 };
	struct counters_how how = { .grouped = 0 };
	counters_init(&s);
	CHECK(s.n == 0 && s.fd[0] == -1);
	CHECK(counters_add(&s, "perf::PERF_COUNT_SW_TASK_CLOCK", 0, &how, &err) == 0 && s.n == 1);
	CHECK(counters_add(&s, "no_such_event_xyz", 0, &how, &err) == -ENOENT && s.n == 1);
	CHECK(counters_enable_one(&s, 0) == 0);
	spin();
	CHECK(counters_read_one(&s, 0, &err) == 0);
	CHECK(s.value[0] > 0 && s.running[0] == 1);
	while (s.n < COUNTERS_MAX)
		CHECK(counters_add(&s, "perf::PERF_COUNT_SW_PAGE_FAULTS", 0, &how, &err) == 0);
	CHECK(counters_add(&s, "perf::PERF_COUNT_SW_PAGE_FAULTS", 0, &how, &err) == -E2BIG);
	counters_close(&s);
	CHECK(s.n == 0);
	uint32_t type;
	uint64_t config;
	char fq[192];
	CHECK(counters_encode("perf::PERF_COUNT_SW_ALIGNMENT_FAULTS", &type, &config, fq, sizeof(fq), &err) == 0);
	CHECK(type == PERF_TYPE_SOFTWARE && config == PERF_COUNT_SW_ALIGNMENT_FAULTS);
	CHECK(strstr(counters_why_not(-ENOENT), "PMU") && strstr(counters_why_not(-EACCES), "perf_event_paranoid"));
	/* kernel-mode counting: root, or perf_event_paranoid at most 1 (a missing file counts as 2) */
	int paranoid = 2;
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (f) {
		if (fscanf(f, "%d", &paranoid) != 1)
			paranoid = 2;
		fclose(f);
	}
	CHECK(counters_kernel_allowed() == (geteuid() == 0 || paranoid <= 1));
}

/* Bracketing a program that stops itself around two repetitions: a software event counts on any
 * machine; the repetition with the fewest of it is kept. */
static void test_measure__bracket(void)
{
	struct measure_bracket b;
	struct as_error err = { 0 };
	const char *sw[] = { "perf::PERF_COUNT_SW_TASK_CLOCK", "perf::PERF_COUNT_SW_CONTEXT_SWITCHES" };
	CHECK(measure_bracket_init(&b, sw, 2, &err) == 0);
	struct spawn_hooks h = measure_bracket_hooks(&b);
	char *argv[] = { "sh", "-c",
			 "kill -STOP $$; i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; kill -STOP $$; "
			 "kill -STOP $$; kill -STOP $$",
			 NULL };
	struct spawn_result r;
	CHECK(spawn_run_hooked(argv, NULL, NULL, 60, -1, &h, &r, &err) == 0);
	measure_bracket_release(&b);
	CHECK(r.exited && r.status == 0 && r.stops == 4);
	CHECK(b.counted == 2 && !b.failed && !b.reason[0]);
	CHECK(b.best[0] > 0 && b.best[0] < 1e9); /* ns: the short repetition, far below a second */
	CHECK(strstr(b.fq[0], "TASK_CLOCK") != NULL && !strcmp(b.name[1], sw[1]));
	/* an event that does not open: the reason names it */
	const char *bad[] = { "no_such_event_xyz" };
	CHECK(measure_bracket_init(&b, bad, 1, &err) == 0);
	h = measure_bracket_hooks(&b);
	CHECK(spawn_run_hooked(argv, NULL, NULL, 60, -1, &h, &r, &err) == 0);
	measure_bracket_release(&b);
	CHECK(b.counted == 0 && b.failed && strstr(b.reason, "no_such_event_xyz"));
	/* a program that never stops */
	char *plain[] = { "true", NULL };
	CHECK(measure_bracket_init(&b, sw, 1, &err) == 0);
	h = measure_bracket_hooks(&b);
	CHECK(spawn_run_hooked(plain, NULL, NULL, 60, -1, &h, &r, &err) == 0);
	measure_bracket_release(&b);
	CHECK(b.counted == 0 && !b.failed && strstr(b.reason, "did not stop"));
	CHECK(measure_bracket_init(&b, sw, 0, &err) == -E2BIG);
}


#define SYSFS_TREE ARCHSCOPE_SOURCE_DIR "/tests/fixtures/measure/sysfs-pmu"

/* The recorded tree: every PMU with its type, cpumask and events, the scale and unit beside them. */
static void test_measure__sysfs_list(void)
{
	struct sysfs_pmu_list l;
	struct as_error err = { 0 };
	CHECK(sysfs_pmu_list(SYSFS_TREE, &l, &err) == 0);
	CHECK(l.n == 8);
	CHECK_STR(l.p[0].name, "amd_df"); /* sorted */
	const struct sysfs_pmu *power = NULL, *msr = NULL;
	for (int i = 0; i < l.n; i++) {
		if (!strcmp(l.p[i].name, "power"))
			power = &l.p[i];
		if (!strcmp(l.p[i].name, "msr"))
			msr = &l.p[i];
	}
	CHECK(power && msr);
	CHECK(power->type == 24);
	CHECK_STR(power->cpumask, "0");
	CHECK(power->nevents == 4); /* .scale and .unit are not events */
	CHECK_STR(power->ev[1].name, "energy-pkg");
	CHECK_STR(power->ev[1].terms, "event=0x02");
	CHECK_STR(power->ev[1].unit, "Joules");
	CHECK_NEAR(power->ev[1].scale, 2.3283064365386962890625e-10, 1e-25);
	CHECK(msr->type == 9 && msr->nevents == 1);
	CHECK_STR(msr->cpumask, ""); /* per task */
	CHECK(msr->ev[0].scale == 1 && msr->ev[0].unit[0] == 0);
	sysfs_pmu_list_release(&l);
	CHECK(sysfs_pmu_list(SYSFS_TREE "/no-such-dir", &l, &err) == -ENOENT);
}

static void test_measure__sysfs_encode(void)
{
	struct sysfs_pmu_attr a;
	struct as_error err = { 0 };
	CHECK(sysfs_pmu_encode(SYSFS_TREE, "power/energy-psys/", &a, &err) == 0);
	CHECK(a.type == 24 && a.config == 0x05 && a.config1 == 0 && !a.core);
	CHECK_STR(a.unit, "Joules");
	CHECK_STR(a.cpumask, "0");
	CHECK(sysfs_pmu_encode(SYSFS_TREE, "uncore_imc_0/cas_count_read/", &a, &err) == 0);
	CHECK(a.config == 0x0304);
	CHECK_STR(a.unit, "MiB");
	CHECK_NEAR(a.scale, 6.103515625e-5, 1e-15);
	/* terms by hand, a term overriding the alias's, a flag term without a value */
	CHECK(sysfs_pmu_encode(SYSFS_TREE, "uncore_imc_0/event=0x04,umask=0x0c,thresh/", &a, &err) == 0);
	CHECK(a.config == (0x0c04 | (1ull << 24)));
	CHECK(a.scale == 1 && a.unit[0] == 0);
	/* a field split over three ranges: 0x1f07 -> bits 0-7 = 0x07, 32-35 = 0xf, 59-60 = 0x1 */
	CHECK(sysfs_pmu_encode(SYSFS_TREE, "amd_df/event=0x1f07,umask=0x1/", &a, &err) == 0);
	CHECK(a.config == (0x07ull | 0x100ull | (0xfull << 32) | (1ull << 59)));
	CHECK(sysfs_pmu_encode(SYSFS_TREE, "msr/tsc/", &a, &err) == 0);
	CHECK(a.type == 9 && a.config == 0 && a.cpumask[0] == 0);
	/* what the kernel does not offer, and bad input */
	CHECK(sysfs_pmu_encode(SYSFS_TREE, "power/energy-gpu/", &a, &err) == -ENOENT);
	CHECK(strstr(err.msg, "no event 'energy-gpu'"));
	CHECK(sysfs_pmu_encode(SYSFS_TREE, "nopmu/x/", &a, &err) == -ENOENT);
	CHECK(strstr(err.msg, "no PMU 'nopmu'"));
	CHECK(sysfs_pmu_encode(SYSFS_TREE, "power/event=0x100/", &a, &err) == -EINVAL); /* wider than 8 bits */
	CHECK(sysfs_pmu_encode(SYSFS_TREE, "power/event=zz/", &a, &err) == -EINVAL);
	CHECK(sysfs_pmu_encode(SYSFS_TREE, "power/colour=1/", &a, &err) == -EINVAL);
	CHECK(sysfs_pmu_encode(SYSFS_TREE, "../power/energy-pkg/", &a, &err) == -ENOENT);
	CHECK(sysfs_pmu_encode(SYSFS_TREE, "power/../x/", &a, &err) == -EINVAL);
	CHECK(sysfs_pmu_encode(SYSFS_TREE, "power/energy-pkg/u", &a, &err) == -EINVAL);
	CHECK(sysfs_pmu_encode(SYSFS_TREE, "power/,/", &a, &err) == -EINVAL); /* no event */
}

static void test_measure__sysfs_names_masks(void)
{
	CHECK(sysfs_pmu_is_name("power/energy-pkg/"));
	CHECK(sysfs_pmu_is_name("cpu/event=0x3c/"));
	CHECK(!sysfs_pmu_is_name("cycles"));
	CHECK(!sysfs_pmu_is_name("sched:sched_switch"));
	CHECK(!sysfs_pmu_is_name("/x/"));
	CHECK(!sysfs_pmu_is_name("power/"));
	CHECK(!sysfs_pmu_is_name("power/energy-pkg"));
	CHECK(sysfs_pmu_cpu_in_mask("", 7));
	CHECK(sysfs_pmu_cpu_in_mask("0", 0) && !sysfs_pmu_cpu_in_mask("0", 1));
	CHECK(sysfs_pmu_cpu_in_mask("0,28", 28) && !sysfs_pmu_cpu_in_mask("0,28", 27));
	CHECK(sysfs_pmu_cpu_in_mask("0-3,8-11", 9) && !sysfs_pmu_cpu_in_mask("0-3,8-11", 5));
	CHECK(sysfs_pmu_mask_first("28,0") == 28 && sysfs_pmu_mask_first("") == 0);
	uint64_t c[3] = { 0, 0, 0 };
	CHECK(sysfs_pmu_format_apply("config1:0-63", ~0ull, c) == 0 && c[1] == ~0ull && c[0] == 0);
	CHECK(sysfs_pmu_format_apply("config:12", 1, c) == 0 && c[0] == 1ull << 12);
	CHECK(sysfs_pmu_format_apply("config:12", 2, c) == -EINVAL);
	CHECK(sysfs_pmu_format_apply("config3:0-7", 1, c) == -EINVAL);
	CHECK(sysfs_pmu_format_apply("config:7-3", 1, c) == -EINVAL);
}

TESTS(T(test_measure__forced_pmu_encoding), T(test_measure__generic_encoding), T(test_measure__scaling),
      T(test_measure__count_self), T(test_measure__add), T(test_measure__bracket),
      T(test_measure__sysfs_list), T(test_measure__sysfs_encode), T(test_measure__sysfs_names_masks))
