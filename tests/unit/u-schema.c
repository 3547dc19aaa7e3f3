/* Described results (machine/schema.h): a fake result type defined the way every result type is
 * (one X-macro list), its paths, lookups, setting keys, and the check of documents against it; and
 * every registered description is well formed (parents first, no key twice under one parent). */
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "machine/schema.h"

#define FAKE_RESULT(X)                                                                         \
	X(FK_NAME, FK_ROOT, TEXT, "name", "", 0, "what ran")                                   \
	X(FK_RUNS, FK_ROOT, ROWS, "runs", "", 0, "one row per run")                            \
	X(FK_RUN_THREADS, FK_RUNS, INT, "threads", "", 0, "threads of the run")                \
	X(FK_RUN_GBS, FK_RUNS, SPREAD, "gbs", "GB/s", 0, "bandwidth")                          \
	X(FK_RUN_COND, FK_RUNS, REF, "conditions", "conditions", SCHEMA_OPT, "what it ran in") \
	X(FK_TOTAL, FK_ROOT, OBJECT, "total", "", SCHEMA_OPT, "over every run")                \
	X(FK_TOTAL_TIME, FK_TOTAL, NUMBER, "time_s", "s", 0, "wall time")                      \
	X(FK_EVENTS, FK_ROOT, MAP, "events", "", SCHEMA_OPT, "by event name")                  \
	X(FK_EVENT_VALUE, FK_EVENTS, NUMBER, "value", "", 0, "its count")                      \
	X(FK_LAT, FK_ROOT, MATRIX, "latency_ns", "ns", SCHEMA_OPT, "CPU by CPU")

SCHEMA_ENUM(FK, FAKE_RESULT);
SCHEMA_DEFINE(fake_result, "fake", FAKE_RESULT);

static json_t *doc(const char *text)
{
	return json_loads(text, 0, NULL);
}

static void test_schema__paths(void)
{
	char buf[128];
	CHECK(FK_COUNT == 10 && fake_result.n == FK_COUNT);
	CHECK_STR(schema_path(&fake_result, FK_RUN_GBS, buf, sizeof(buf)), "runs[].gbs");
	CHECK_STR(schema_path(&fake_result, FK_TOTAL_TIME, buf, sizeof(buf)), "total.time_s");
	CHECK_STR(schema_path(&fake_result, FK_EVENT_VALUE, buf, sizeof(buf)), "events{}.value");
	CHECK(schema_find(&fake_result, "total.time_s") == FK_TOTAL_TIME);
	CHECK(schema_find(&fake_result, "runs[].threads") == FK_RUN_THREADS);
	CHECK(schema_find(&fake_result, "runs.threads") == -1);
	CHECK_STR(schema_unit(&fake_result, FK_RUN_GBS), "GB/s");
	CHECK_STR(SCHEMA_KEY(fake_result, FK_TOTAL_TIME), "time_s");
}

static void test_schema__get_and_set(void)
{
	json_t *r = json_object();
	CHECK(schema_set(&fake_result, r, FK_TOTAL_TIME, json_real(2.5)) == 0);
	CHECK(schema_set(&fake_result, r, FK_NAME, json_string("triad")) == 0);
	CHECK_NEAR(schema_num(&fake_result, r, FK_TOTAL_TIME), 2.5, 0);
	CHECK_STR(schema_str(&fake_result, r, FK_NAME), "triad");
	CHECK(schema_str(&fake_result, r, FK_TOTAL_TIME) == NULL);
	CHECK(isnan(schema_num(&fake_result, r, FK_NAME)));
	json_t *row = json_object();
	CHECK(schema_set(&fake_result, row, FK_RUN_THREADS, json_integer(4)) == 0);
	CHECK(schema_int(&fake_result, row, FK_RUN_THREADS, -1) == 4);
	CHECK(schema_int(&fake_result, r, FK_RUN_THREADS, -1) == -1);
	json_decref(row);
	json_decref(r);
}

static void test_schema__check_accepts(void)
{
	json_t *r = doc("{\"name\": \"triad\", \"runs\": [{\"threads\": 1, \"gbs\": {\"min\": 1, \"median\": 2, \"max\": null},"
			" \"conditions\": {\"wall_s\": 0.5, \"cpus\": 1, \"other_cpus\": 1, \"foreign_cpus\": 0,"
			" \"foreign_other_cpus\": 0.1, \"steal_pct\": 0, \"switches_per_s\": 10, \"clock_ghz\": null,"
			" \"clock_expected_ghz\": null, \"involuntary_switches\": null, \"migrations\": 0, \"attempts\": 1,"
			" \"noisy\": false, \"why\": \"\"}}],"
			" \"events\": {\"cycles\": {\"value\": 12}}, \"latency_ns\": [[null, 1.5], [1.5, null]]}");
	struct as_error err = { 0 };
	CHECK(r != NULL);
	int rc = schema_check(&fake_result, r, &err);
	if (rc)
		printf("# %s\n", err.msg);
	CHECK(rc == 0);
	json_decref(r);
}

/* Each document breaks the description once; the message names the path. */
static void test_schema__check_names_the_difference(void)
{
	static const struct {
		const char *json, *msg;
	} cases[] = {
		{ "{\"runs\": []}", "name: missing" },
		{ "{\"name\": 1, \"runs\": []}", "name: a value where a string is described" },
		{ "{\"name\": \"x\", \"runs\": [], \"extra\": 1}", "extra: a key the description does not name" },
		{ "{\"name\": \"x\", \"runs\": [{\"threads\": 1.5, \"gbs\": {}}]}", "runs[0].threads: a value where an integer" },
		{ "{\"name\": \"x\", \"runs\": [{\"threads\": 1, \"gbs\": {\"mean\": 1}}]}", "runs[0].gbs.mean: not a part" },
		{ "{\"name\": \"x\", \"runs\": [{\"threads\": 1}]}", "runs[0].gbs: missing" },
		{ "{\"name\": \"x\", \"runs\": [], \"events\": {\"cycles\": {\"value\": \"1\"}}}",
		  "events{cycles}.value: a value where a number" },
		{ "{\"name\": \"x\", \"runs\": [], \"latency_ns\": [[1], \"2\"]}", "latency_ns: a value where a matrix" },
		{ "{\"name\": \"x\", \"runs\": [{\"threads\": 1, \"gbs\": {}, \"conditions\": {\"wall_s\": 1}}]}",
		  "runs[0].conditions.cpus: missing" },
		{ "{\"name\": \"x\", \"runs\": [], \"total\": null}", "total: null where an object" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *r = doc(cases[i].json);
		struct as_error err = { 0 };
		CHECK(r != NULL);
		int rc = schema_check(&fake_result, r, &err);
		json_decref(r);
		if (rc != -EINVAL || !strstr(err.msg, cases[i].msg))
			printf("# case %zu: rc %d, \"%s\"\n", i, rc, err.msg);
		CHECK(rc == -EINVAL && strstr(err.msg, cases[i].msg));
	}
}

/* NUMBER_MAP: keys that are data, numbers (or null) as values; anything else is named by its path. */
#define NMAP_RESULT(X) X(NM_PARTS, NM_ROOT, NUMBER_MAP, "parts", "x", 0, "by part name")
SCHEMA_ENUM(NM, NMAP_RESULT);
SCHEMA_DEFINE(nmap_result, "fake number map", NMAP_RESULT);

static void test_schema__number_map(void)
{
	static const struct {
		const char *json, *msg; /* msg NULL: accepted */
	} cases[] = {
		{ "{\"parts\": {\"mutex\": 0.5, \"sleep\": null, \"user_spin\": 0}}", NULL },
		{ "{\"parts\": {}}", NULL },
		{ "{\"parts\": {\"mutex\": \"0.5\"}}", "parts: a value where a numbers by name is described" },
		{ "{\"parts\": [1, 2]}", "parts: a value where a numbers by name" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *r = doc(cases[i].json);
		struct as_error err = { 0 };
		CHECK(r != NULL);
		int rc = schema_check(&nmap_result, r, &err);
		json_decref(r);
		int ok = cases[i].msg ? rc == -EINVAL && strstr(err.msg, cases[i].msg) : rc == 0;
		if (!ok)
			printf("# case %zu: rc %d, \"%s\"\n", i, rc, err.msg);
		CHECK(ok);
	}
	CHECK_STR(schema_kind_name(SK_NUMBER_MAP), "numbers by name");
}

/* A model-like result: constants by name, an object with numbers keyed by data beside its described
 * keys, and parts (an object, a list) that may say instead why they could not run. */
#define PART_RESULT(X)                                                                                 \
	X(PT_DEFINES, PT_ROOT, NUMBER_MAP, "defines", "", 0, "constants by name")                      \
	X(PT_ECM, PT_ROOT, OBJECT, "ecm", "", SCHEMA_OPEN_NUMBERS, "transfers by level")               \
	X(PT_ECM_ERROR, PT_ECM, TEXT, "error", "", SCHEMA_ALONE, "why not")                            \
	X(PT_ECM_UNIT, PT_ECM, TEXT, "unit", "", 0, "their unit")                                      \
	X(PT_BLOCKS, PT_ROOT, ROWS, "blocks", "", SCHEMA_OPT, "one row per level")                     \
	X(PT_BLOCKS_ERROR, PT_BLOCKS, TEXT, "error", "", SCHEMA_ALONE, "why there are none")           \
	X(PT_BLOCK_AT, PT_BLOCKS, INT, "at_most", "", 0, "block size")

SCHEMA_ENUM(PT, PART_RESULT);
SCHEMA_DEFINE(part_result, "part", PART_RESULT);

static void test_schema__maps_and_parts(void)
{
	static const struct {
		const char *json, *msg; /* msg NULL: accepted */
	} cases[] = {
		{ "{\"defines\": {\"N\": 1, \"M\": 2.5}, \"ecm\": {\"unit\": \"cy\", \"L2\": 3, \"MEM\": null}}", NULL },
		{ "{\"defines\": {}, \"ecm\": {\"error\": \"no llvm-mca\"}, \"blocks\": {\"error\": \"no\"}}", NULL },
		{ "{\"defines\": {}, \"ecm\": {\"unit\": \"cy\"}, \"blocks\": [{\"at_most\": 4}]}", NULL },
		{ "{\"defines\": {\"N\": \"1\"}, \"ecm\": {\"unit\": \"cy\"}}", "defines: a value where" },
		{ "{\"defines\": {}, \"ecm\": {\"unit\": \"cy\", \"L2\": \"x\"}}", "ecm.L2: not a number" },
		{ "{\"defines\": {}, \"ecm\": {}}", "ecm.unit: missing" },
		{ "{\"defines\": {}, \"ecm\": {\"error\": \"x\", \"unit\": \"cy\"}}", "ecm.error: beside other keys" },
		{ "{\"defines\": {}, \"ecm\": {\"error\": 1}}", "ecm.error: a value where a string" },
		{ "{\"defines\": {}, \"ecm\": {\"unit\": \"\"}, \"blocks\": {\"at_most\": 1}}", "blocks: a value where a rows" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *r = doc(cases[i].json);
		struct as_error err = { 0 };
		CHECK(r != NULL);
		int rc = schema_check(&part_result, r, &err);
		json_decref(r);
		int ok = cases[i].msg ? rc == -EINVAL && strstr(err.msg, cases[i].msg) : rc == 0;
		if (!ok)
			printf("# case %zu: rc %d, \"%s\"\n", i, rc, err.msg);
		CHECK(ok);
	}
}

/* Every registered description: ids in order, parents before children and of a kind that holds
 * keys, no key twice under one parent, REF rows name a registered schema. */
static void test_schema__registered_well_formed(void)
{
	CHECK(schema_all[0] != NULL);
	for (int s = 0; schema_all[s]; s++) {
		const struct schema *d = schema_all[s];
		CHECK(schema_by_name(d->name) == d);
		for (int i = 0; i < d->n; i++) {
			const struct schema_key *k = &d->keys[i];
			if (k->id != i || k->parent >= i || !k->key[0] || !k->what[0])
				printf("# %s: row %d (%s)\n", d->name, i, k->key);
			CHECK(k->id == i && k->parent < i && k->key[0] && k->what[0]);
			if (k->parent >= 0) {
				enum schema_kind pk = d->keys[k->parent].kind;
				CHECK(pk == SK_OBJECT || pk == SK_ROWS || pk == SK_MAP);
			}
			if (k->kind == SK_REF || k->kind == SK_REFS)
				CHECK(schema_by_name(k->unit) != NULL);
			for (int j = 0; j < i; j++)
				CHECK(d->keys[j].parent != k->parent || strcmp(d->keys[j].key, k->key));
		}
	}
}

/* A NUMBER_MAP holds numbers (or null) by data keys; schema_check_read lets described keys be absent
 * but still holds every key present to its description. */
#define COUNTS_RESULT(X)                                                                         \
	X(CT_NAME, CT_ROOT, TEXT, "name", "", 0, "what ran")                                     \
	X(CT_BY_EVENT, CT_ROOT, NUMBER_MAP, "by_event", "", 0, "count per event")

SCHEMA_ENUM(CT, COUNTS_RESULT);
SCHEMA_DEFINE(counts_result, "counts", COUNTS_RESULT);

static void test_schema__number_map_and_read(void)
{
	static const struct {
		const char *json;
		int full, read;
	} cases[] = {
		{ "{\"name\": \"x\", \"by_event\": {\"cycles\": 1, \"page-faults\": null}}", 0, 0 },
		{ "{\"name\": \"x\", \"by_event\": {\"cycles\": \"1\"}}", -EINVAL, -EINVAL },
		{ "{\"name\": \"x\", \"by_event\": {\"cycles\": {\"value\": 1}}}", -EINVAL, -EINVAL },
		{ "{\"by_event\": {}}", -EINVAL, 0 },
		{ "{\"name\": \"x\", \"speed\": 1}", -EINVAL, -EINVAL },
		{ "{\"name\": 1}", -EINVAL, -EINVAL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *r = doc(cases[i].json);
		struct as_error err = { 0 };
		CHECK(r != NULL);
		int full = schema_check(&counts_result, r, &err), read = schema_check_read(&counts_result, r, &err);
		if (full != cases[i].full || read != cases[i].read)
			printf("# case %zu: %d %d\n", i, full, read);
		CHECK(full == cases[i].full && read == cases[i].read);
		json_decref(r);
	}
}

TESTS(T(test_schema__number_map_and_read), T(test_schema__paths), T(test_schema__get_and_set), T(test_schema__check_accepts),
      T(test_schema__check_names_the_difference), T(test_schema__number_map),
      T(test_schema__maps_and_parts), T(test_schema__registered_well_formed))
