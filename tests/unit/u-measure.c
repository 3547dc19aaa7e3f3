/* Unit tests of the counter layer: libpfm4 encodings (generic names, and a forced Skylake-SP PMU so
 * model-specific names encode on any machine), the scaling of multiplexed counts, and counting on
 * this thread: a software event always, a hardware one where the machine has it (else the error
 * must say why). */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "measure/counters.h"

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

TESTS(T(test_measure__forced_pmu_encoding), T(test_measure__generic_encoding), T(test_measure__scaling),
      T(test_measure__count_self))
