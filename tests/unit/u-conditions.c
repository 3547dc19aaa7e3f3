/* Unit tests of the conditions of a measurement (common/conditions.h) on recorded /proc/stat
 * texts and synthetic figures, and of the flags and physical bounds of probe answers
 * (machine/probes.h: machine_probes_flag, machine_probes_bounds). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomicfile.h"
#include "common/conditions.h"
#include "machine/probes.h"
#include "harness.h"

#define FIX ARCHSCOPE_SOURCE_DIR "/tests/fixtures/conditions/"

static void test_conditions__stat_ticks_recorded(void)
{
	char *a = file_read_all(FIX "stat-amd-zen5-26-2-before.txt", NULL);
	char *b = file_read_all(FIX "stat-amd-zen5-26-2-after.txt", NULL);
	CHECK(a && b);
	struct as_cpulist one = { .n = 1, .cpu = { 1 } }, zero = { .n = 1, .cpu = { 0 } }, missing = { .n = 1, .cpu = { 7 } };
	double b0, s0, t0, b1, s1, t1;
	CHECK(cond_stat_ticks(a, &one, &b0, &s0, &t0) == 0);
	CHECK(cond_stat_ticks(b, &one, &b1, &s1, &t1) == 0);
	/* the 1 s busy loop on CPU 1: about 100 ticks of USER_HZ 100 */
	CHECK(b1 - b0 >= 95 && b1 - b0 <= 105);
	CHECK_NEAR(s1 - s0, 0, 0);
	CHECK(t1 - t0 >= 95 && t1 - t0 <= 106);
	CHECK(cond_stat_ticks(a, &zero, &b0, &s0, &t0) == 0);
	CHECK(cond_stat_ticks(b, &zero, &b1, &s1, &t1) == 0);
	CHECK(b1 - b0 <= 5); /* CPU 0 stayed idle */
	CHECK(cond_stat_ticks(a, &missing, &b0, &s0, &t0) == -1);
	CHECK(cond_stat_ticks("cpu0 1 2\n", &zero, &b0, &s0, &t0) == -1);
	/* steal is its own column, never busy */
	const char *x = "cpu  1 1 1 1 1 1 1 1\ncpu0 10 0 5 100 0 1 1 40 0 0\n";
	CHECK(cond_stat_ticks(x, &zero, &b0, &s0, &t0) == 0);
	CHECK_NEAR(b0, 17, 0);
	CHECK_NEAR(s0, 40, 0);
	CHECK_NEAR(t0, 157, 0);
	free(a);
	free(b);
}

static struct conditions quiet(int cpus, int other, unsigned flags)
{
	struct conditions c = { .wall_s = 10, .cpus = cpus, .other_cpus = other, .flags = flags, .steal_pct = 0,
				.clock_ghz = 3.0, .clock_expected_ghz = 3.0, .attempts = 1 };
	return c;
}

static void test_conditions__judge_thresholds(void)
{
	struct conditions c = quiet(2, 0, 0);
	cond_judge(&c);
	CHECK(!c.noisy);
	CHECK_STR(c.why, "");
	c.foreign_cpus = COND_FOREIGN_MAX * 2 * 0.9; /* below 0.1 of each CPU */
	cond_judge(&c);
	CHECK(!c.noisy);
	c.foreign_cpus = 1.4;
	cond_judge(&c);
	CHECK(c.noisy);
	CHECK_STR(c.why, "other processes used 1.4 of 2 CPUs");
	c = quiet(1, 1, 0);
	c.foreign_other_cpus = 1.0; /* a step that shares nothing ignores the other CPU */
	cond_judge(&c);
	CHECK(!c.noisy);
	c.flags = COND_SHARED;
	cond_judge(&c);
	CHECK(c.noisy);
	CHECK(strstr(c.why, "1.0 of the 1 other CPU (they share caches and memory)") != NULL);
	c = quiet(1, 0, 0);
	c.steal_pct = 12;
	c.clock_ghz = 2.4;
	cond_judge(&c);
	CHECK_STR(c.why, "steal 12 %, clock 2.40 GHz against the 3.00 GHz its cycles assume");
	c = quiet(1, 0, 0);
	c.clock_ghz = NAN; /* not measured: not judged */
	cond_judge(&c);
	CHECK(!c.noisy);
}

/* A process waking every 50 us takes ~0.2 of a CPU (the ticks rarely see it) but switches ~14,000
 * times a second (measured on the Zen 5 guest): noisy by its switches alone; a quiet guest's ~100
 * a second is not. */
static void test_conditions__judge_wakeup_storm(void)
{
	struct conditions c = quiet(1, 1, 0);
	c.switches_per_s = 14000;
	cond_judge(&c);
	CHECK(c.noisy);
	CHECK_STR(c.why, "other processes switched 14000 times a second (a wakeup or interrupt storm)");
	c.switches_per_s = 100;
	cond_judge(&c);
	CHECK(!c.noisy);
	c.switches_per_s = 2100; /* 1,000 per CPU of the 2 and 20 for the 10 s step's grain */
	cond_judge(&c);
	CHECK(c.noisy);
}

/* /proc/stat counts 10 ms ticks: a 50 ms step with one tick of another process is not noisy, a
 * 10 s step with the same share is. */
static void test_conditions__judge_tick_grain(void)
{
	struct conditions c = quiet(1, 0, 0);
	c.wall_s = 0.05;
	c.foreign_cpus = 0.2; /* one tick in 50 ms */
	cond_judge(&c);
	CHECK(!c.noisy);
	c.wall_s = 10;
	cond_judge(&c);
	CHECK(c.noisy);
}

static void test_conditions__hook_first_windows(void)
{
	setenv("ARCHSCOPE_TEST_CONDITIONS", "foreign=1.4,steal=12,windows=1", 1);
	int before = cond_summary_steps();
	struct cond_window w;
	struct conditions c;
	struct as_cpulist one = { .n = 1, .cpu = { 0 } }, two = { .n = 2, .cpu = { 0, 1 } };
	cond_window_begin(&w, &two, &two, 0);
	cond_window_end(&w, &c);
	CHECK(c.noisy);
	CHECK_NEAR(c.foreign_cpus, 1.4, 0);
	CHECK_NEAR(c.steal_pct, 12, 0);
	setenv("ARCHSCOPE_TEST_CONDITIONS", "foreign=1.4,windows=2", 1);
	cond_window_begin(&w, &one, &one, 0);
	cond_window_end(&w, &c);
	CHECK_NEAR(c.foreign_cpus, 1, 0); /* never more than the CPUs used */
	setenv("ARCHSCOPE_TEST_CONDITIONS", "foreign=1.4,steal=12,windows=2", 1);
	cond_window_begin(&w, &one, &one, 0);
	cond_window_end(&w, &c);
	CHECK(c.foreign_cpus != 1.4 && c.steal_pct != 12); /* measured, whatever the load is */
	unsetenv("ARCHSCOPE_TEST_CONDITIONS");
	CHECK(cond_summary_steps() == before + 3);
	char line[600];
	CHECK(strstr(cond_summary(line, sizeof(line)), "conditions: ") == line);
	CHECK(strstr(line, "steps measured") != NULL);
}

static int step_calls, step_misnumbered;
static int step_fn(void *arg, int attempt)
{
	step_calls++;
	step_misnumbered += attempt != step_calls;
	return *(int *)arg;
}

/* cond_step: measured again while noisy up to the attempts asked for, never after an error or a
 * stop, and counted once in the summary (its last attempt). */
static void test_conditions__step_attempts(void)
{
	setenv("ARCHSCOPE_TEST_CONDITIONS", "steal=12", 1); /* every window noisy */
	struct conditions c;
	int ok = 0, bad = -EIO;
	volatile int stop = 0;
	step_calls = 0;
	int finals = cond_summary_flagged();
	CHECK(cond_step(NULL, 0, 3, &stop, step_fn, &ok, &c) == 0);
	CHECK(step_calls == 3 && c.attempts == 3 && c.noisy);
	CHECK(cond_summary_flagged() == finals + 1);
	step_calls = 0;
	CHECK(cond_step(NULL, 0, 3, &stop, step_fn, &bad, &c) == -EIO);
	CHECK(step_calls == 1 && c.attempts == 1);
	stop = 1;
	step_calls = 0;
	CHECK(cond_step(NULL, 0, 3, &stop, step_fn, &ok, &c) == 0);
	CHECK(step_calls == 1 && step_misnumbered == 0);
	unsetenv("ARCHSCOPE_TEST_CONDITIONS");
}

static void fill_instr(struct machine_probes *p, double fma_tp, double sp_total)
{
	p->nops = 1;
	machine_probes_row_init(MP_INSTR_OPS, &p->op[0]);
	strcpy(p->op[0].op, "fma");
	strcpy(p->op[0].type, "float");
	p->op[0].width_bits = 512;
	p->op[0].throughput_per_cy = fma_tp;
	p->flops_per_cy[0][1][0] = sp_total;
}

/* The case: 66.37 SP FLOP/cy from an FMA throughput of 2.07 per cycle, above the 64 two
 * 512-bit FMA pipes issue; 64.0 from 2.0 is right; a Zen 4 (256-bit pipes, 512-bit ops at 1 per
 * cycle: 32) is right at 32. */
static void test_conditions__bounds_flops(void)
{
	struct machine_probes *p = malloc(sizeof(*p));
	CHECK(p);
	machine_probes_init(p);
	char why[240];
	fill_instr(p, 2.07, 66.37);
	CHECK(machine_probes_bounds(p, MP_G_INSTR, 2, why, sizeof(why)) == 1);
	CHECK(strstr(why, "66.4 FLOP/cy above the 64") != NULL);
	fill_instr(p, 2.0, 64.0);
	CHECK(machine_probes_bounds(p, MP_G_INSTR, 2, why, sizeof(why)) == 0);
	fill_instr(p, 1.0, 32.5);
	CHECK(machine_probes_bounds(p, MP_G_INSTR, 2, why, sizeof(why)) == 0);
	fill_instr(p, 1.0, 40);
	CHECK(machine_probes_bounds(p, MP_G_INSTR, 2, why, sizeof(why)) == 1);
	machine_probes_release(p);
	free(p);
}

static void test_conditions__bounds_levels_contexts_c2c_slice(void)
{
	struct machine_probes *p = malloc(sizeof(*p));
	CHECK(p);
	machine_probes_init(p);
	char why[240];
	p->ncaches = 2;
	machine_probes_row_init(MP_CACHES_LEVELS, &p->cache[0]);
	machine_probes_row_init(MP_CACHES_LEVELS, &p->cache[1]);
	p->cache[0].level = 1, p->cache[1].level = 2;
	p->cache[0].size.value = 48 << 10, p->cache[1].size.value = 1 << 20;
	p->cache[0].latency.value = 1.1, p->cache[1].latency.value = 3.5;
	p->memory_latency.value = 90;
	CHECK(machine_probes_bounds(p, MP_G_CACHES, 2, why, sizeof(why)) == 0);
	p->cache[1].latency.value = 0.9;
	CHECK(machine_probes_bounds(p, MP_G_CACHES, 2, why, sizeof(why)) == 1);
	CHECK(strstr(why, "L2 latency 0.90 ns below L1's 1.10 ns") != NULL);
	p->cache[1].latency.value = 3.5;
	p->memory_latency.value = 2;
	CHECK(machine_probes_bounds(p, MP_G_CACHES, 2, why, sizeof(why)) == 1);
	p->memory_latency.value = 90;
	p->contexts_fp.value = 2;
	CHECK(machine_probes_bounds(p, MP_G_CONTEXTS, 2, why, sizeof(why)) == 0);
	p->contexts_fp.value = 3;
	CHECK(machine_probes_bounds(p, MP_G_CONTEXTS, 2, why, sizeof(why)) == 1);
	p->contexts_fp.value = 0;
	CHECK(machine_probes_bounds(p, MP_G_CONTEXTS, 2, why, sizeof(why)) == 1);
	int cpus[2] = { 0, 1 };
	double lat[4] = { NAN, 96, 1021, NAN };
	p->c2c.ncpus = 2, p->c2c.cpus = cpus, p->c2c.latency_ns = lat;
	CHECK(machine_probes_bounds(p, MP_G_C2C, 2, why, sizeof(why)) == 1); /* 1021 ns > 3 x 90 */
	CHECK(strstr(why, "1->0 1021 ns above 3 x the memory latency") != NULL);
	lat[2] = 100;
	CHECK(machine_probes_bounds(p, MP_G_C2C, 2, why, sizeof(why)) == 0);
	lat[2] = 0.5; /* below L1 */
	CHECK(machine_probes_bounds(p, MP_G_C2C, 2, why, sizeof(why)) == 1);
	p->c2c.ncpus = 0, p->c2c.cpus = NULL, p->c2c.latency_ns = NULL;
	p->timeslice.value = 3.95;
	CHECK(machine_probes_bounds(p, MP_G_TIMESLICE, 2, why, sizeof(why)) == 0);
	p->timeslice.value = 0.01;
	CHECK(machine_probes_bounds(p, MP_G_TIMESLICE, 2, why, sizeof(why)) == 1);
	machine_probes_release(p);
	free(p);
}

/* A flagged group: every answer (table rows too) carries the flag and half its confidence, and
 * the flags survive the JSON the machine file and probe-results.json are written from. */
static void test_conditions__flags_roundtrip(void)
{
	struct machine_probes *p = malloc(sizeof(*p)), *q = malloc(sizeof(*q));
	CHECK(p && q);
	machine_probes_init(p);
	p->have[MP_CACHES] = MP_HAVE_YES;
	p->ncaches = 1;
	machine_probes_row_init(MP_CACHES_LEVELS, &p->cache[0]);
	p->cache[0].level = 1;
	p->cache[0].size = (struct machine_answer){ .value = 49152, .confidence = 0.9, .os_reported = NAN };
	p->memory_latency = (struct machine_answer){ .value = 90, .confidence = 0.8, .os_reported = NAN };
	p->cond[MP_G_CACHES].attempts = 3;
	p->cond[MP_G_CACHES].noisy = 1;
	p->cond[MP_G_CACHES].foreign_cpus = 1.4;
	strcpy(p->cond[MP_G_CACHES].why, "other processes used 1.4 of 2 CPUs");
	machine_probes_flag(p, MP_G_CACHES, "other processes used 1.4 of 2 CPUs", NULL, 0.5);
	CHECK_NEAR(p->cache[0].size.confidence, 0.45, 1e-12);
	CHECK_NEAR(p->memory_latency.confidence, 0.4, 1e-12);
	CHECK_STR(p->cache[0].size.noisy, "other processes used 1.4 of 2 CPUs");
	CHECK_STR(p->contexts_fp.noisy, ""); /* other groups untouched */
	json_t *j = machine_probes_json(p);
	CHECK(j);
	json_t *size = json_object_get(json_array_get(json_object_get(json_object_get(j, "caches"), "levels"), 0), "size");
	CHECK(json_is_true(json_object_get(size, "noisy")));
	json_t *cond = json_object_get(json_object_get(j, "caches"), "conditions");
	CHECK(json_integer_value(json_object_get(cond, "attempts")) == 3);
	struct as_error err = { 0 };
	CHECK(machine_probes_from_json(j, q, &err) == 0);
	CHECK_STR(q->cache[0].size.noisy, "other processes used 1.4 of 2 CPUs");
	CHECK_STR(q->memory_latency.noisy, "other processes used 1.4 of 2 CPUs");
	CHECK(q->cond[MP_G_CACHES].noisy == 1);
	CHECK_NEAR(q->cond[MP_G_CACHES].foreign_cpus, 1.4, 1e-12);
	/* a flag without its reason still flags */
	json_object_del(size, "noisy_why");
	machine_probes_release(q);
	CHECK(machine_probes_from_json(j, q, &err) == 0);
	CHECK(q->cache[0].size.noisy[0] != '\0');
	json_decref(j);
	machine_probes_release(p);
	machine_probes_release(q);
	free(p);
	free(q);
}

TESTS(T(test_conditions__stat_ticks_recorded), T(test_conditions__judge_thresholds), T(test_conditions__judge_tick_grain), T(test_conditions__judge_wakeup_storm),
      T(test_conditions__hook_first_windows), T(test_conditions__step_attempts), T(test_conditions__bounds_flops),
      T(test_conditions__bounds_levels_contexts_c2c_slice), T(test_conditions__flags_roundtrip))
