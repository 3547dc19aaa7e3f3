/* A newcomer adds a probe answer by one table row plus its measurement: this program builds the
 * table's engine (src/machine/probes.c) with one row more, a fake answer of the caches group and
 * its evidence, and shows that nothing else is needed: the answer is written at its path with the
 * table's unit, read back, left out of the machine file's answers where it is evidence, and flagged
 * with its group. (The row is this test's own: archscope's table is unchanged.) */
#define MACHINE_PROBES_TEST_ROWS(X)                                                                        \
	X(CACHES_FAKE, CACHES, ANSWER, "fake_latency", "ns", 0, NULL, "a fake answer of this test",             \
	  MP_AT(fake_latency))                                                                                   \
	X(CACHES_FAKE_CY, CACHES_FAKE, REAL, "fake_latency_cy", "cy", MP_F_EVIDENCE, NULL,                       \
	  "the fake answer in core cycles", MP_AT(fake_latency_cy))
#define MACHINE_PROBES_TEST_FIELDS                                                                         \
	struct machine_answer fake_latency;                                                                      \
	double fake_latency_cy;

#include "../../src/machine/probes.c"
#include "harness.h"
#include "probe/probe.h"

/* step 3, the measurement: what a probe's find or analyze function does for the new row, where it
 * finds the answer (probe/probe.h) */
static void fake_measure(struct machine_probes *p)
{
	p->have[MP_CACHES] = MP_HAVE_YES;
	probe_answer_clear(&p->fake_latency);
	probe_answer_set(&p->fake_latency, 42.5, 0.75, "a fake chase");
	p->fake_latency_cy = 136;
}

static void test_machine_newrow__path_and_unit(void)
{
	char path[256];
	CHECK_STR(machine_probes_path(MP_CACHES_FAKE, 0, path, sizeof(path)), "caches.fake_latency");
	CHECK_STR(machine_probes_path(MP_CACHES_FAKE_CY, 1, path, sizeof(path)),
		  "archscope.probes.caches.fake_latency.fake_latency_cy");
	CHECK_STR(MP_KEY(CACHES_FAKE), "fake_latency");
	CHECK_STR(machine_probe_fields[MP_CACHES_FAKE].unit, "ns");
	static struct machine_probes p;
	CHECK(machine_probes_at(&p, MP_CACHES_FAKE) == &p.fake_latency);
	CHECK(machine_probe_fields[MP_CACHES_FAKE].parent == MP_CACHES);
}

static void test_machine_newrow__write_read_roundtrip(void)
{
	struct machine_probes *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	CHECK(a && b);
	machine_probes_init(a);
	CHECK(isnan(a->fake_latency.value) && isnan(a->fake_latency_cy)); /* "none" until measured */
	fake_measure(a);
	json_t *j = machine_probes_json(a);
	CHECK(j != NULL);
	json_t *v = json_object_get(json_object_get(j, "caches"), "fake_latency");
	CHECK(json_real_value(json_object_get(v, "value")) == 42.5);
	CHECK_STR(json_string_value(json_object_get(v, "unit")), "ns");
	CHECK(json_real_value(json_object_get(v, "fake_latency_cy")) == 136);
	struct as_error err = { 0 };
	CHECK(machine_probes_from_json(j, b, &err) == 0);
	CHECK(b->fake_latency.value == 42.5 && b->fake_latency.confidence == 0.75 && b->fake_latency_cy == 136);
	CHECK_STR(b->fake_latency.method, "a fake chase");
	json_t *again = machine_probes_json(b);
	CHECK(json_equal(j, again));
	/* the machine file's answers: the answer, not its evidence */
	json_t *answers = machine_probes_answers_json(b);
	v = json_object_get(json_object_get(answers, "caches"), "fake_latency");
	CHECK(json_is_object(v) && !json_object_get(v, "fake_latency_cy"));
	/* a wrong kind read back is refused naming the path */
	json_object_set_new(json_object_get(j, "caches"), "fake_latency", json_string("fast"));
	CHECK(machine_probes_from_json(j, b, &err) == -EINVAL);
	CHECK(strstr(err.msg, "caches.fake_latency") != NULL);
	/* flagged with its group */
	machine_probes_flag(a, MP_G_CACHES, "busy", NULL, 0.5);
	CHECK_STR(a->fake_latency.noisy, "busy");
	CHECK(a->fake_latency.confidence == 0.375);
	json_decref(answers);
	json_decref(again);
	json_decref(j);
	machine_probes_release(a);
	machine_probes_release(b);
	free(a);
	free(b);
}

TESTS(T(test_machine_newrow__path_and_unit), T(test_machine_newrow__write_read_roundtrip))
