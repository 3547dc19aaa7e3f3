/* Unit tests of machine files: Kerncraft's two published files load, check and read back typed;
 * write -> read -> write gives the same bytes; bad input gives one clear message naming the line
 * and the key; quantities with units. */
#include <stdlib.h>

#include "machine/file.h"
#include "harness.h"

static int load_fixture(const char *name, struct mtree *t)
{
	char path[1024];
	struct as_error err = { 0 };
	snprintf(path, sizeof(path), "%s/tests/fixtures/machines/%s", ARCHSCOPE_SOURCE_DIR, name);
	int rc = mtree_load(path, t, &err);
	if (rc)
		printf("# %s\n", err.msg);
	return rc;
}

static void test_machine__kerncraft_snb(void)
{
	struct mtree t;
	CHECK(load_fixture("kerncraft-snb-e5-2680.yml", &t) == 0);
	char *report;
	int n = machine_check(&t, "snb", &report);
	if (n)
		printf("# %s", report);
	CHECK(n == 0);
	struct machine m;
	machine_read(&t, &m);
	CHECK_NEAR(m.clock_hz, 2.7e9, 1);
	CHECK(m.cores_per_socket == 8 && m.sockets == 2 && m.threads_per_core == 2);
	CHECK_NEAR(m.flops_dp[0], 8, 0);
	CHECK(m.nlevels == 4);
	CHECK_STR(m.level[0].name, "L1");
	CHECK(m.level[0].sets == 64 && m.level[0].ways == 8 && m.level[0].cl_size == 64);
	CHECK_NEAR(m.level[2].size_bytes, 20480.0 * 16 * 64, 0);
	CHECK_NEAR(m.level[1].upstream_bytes_per_cy, 32, 0);
	CHECK(m.level[0].upstream_bytes_per_cy == 0); /* "architecture code analyzer" */
	CHECK(!m.level[3].has_cache);
	mtree_free(&t);
}

static void roundtrip(const char *name)
{
	struct mtree t, u;
	struct as_error err = { 0 };
	CHECK(load_fixture(name, &t) == 0);
	char *a = mtree_emit_string(&t, &err);
	CHECK(a != NULL);
	CHECK(mtree_parse(a, strlen(a), "a", &u, &err) == 0);
	char *b = mtree_emit_string(&u, &err);
	CHECK(b != NULL);
	CHECK(strcmp(a, b) == 0);
	/* tags, flow lists and quoted strings survive */
	CHECK(strstr(a, "!!omap") != NULL);
	CHECK(strstr(a, "'0'") != NULL);
	free(a);
	free(b);
	mtree_free(&t);
	mtree_free(&u);
}

static void test_machine__roundtrip_skx(void)
{
	roundtrip("kerncraft-skx.yml");
}

static void test_machine__roundtrip_snb(void)
{
	roundtrip("kerncraft-snb-e5-2680.yml");
}

static void test_machine__header_comments_kept(void)
{
	const char *src = "# Core 2 Q9550, ECM paper Table 1\n# second line\n\nmodel name: x\n# lost\nclock: 1 GHz\n";
	struct mtree t;
	struct as_error err = { 0 };
	CHECK(mtree_parse(src, strlen(src), "h", &t, &err) == 0);
	char *a = mtree_emit_string(&t, &err);
	CHECK_STR(a, "# Core 2 Q9550, ECM paper Table 1\n# second line\nmodel name: x\nclock: 1 GHz\n");
	free(a);
	mtree_free(&t);
	/* a carriage return ends a comment line: what follows is content (found by fuzzing) */
	const char *cr = "# comment\rkey: 1\r\n# next\r\nother: 2\n";
	CHECK(mtree_parse(cr, strlen(cr), "cr", &t, &err) == 0);
	a = mtree_emit_string(&t, &err);
	CHECK_STR(a, "# comment\nkey: 1\nother: 2\n");
	free(a);
	mtree_free(&t);
	/* local and verbatim tags are dropped, YAML's own kept (found by fuzzing) */
	const char *tags = "a: !<%21> x\nb: !local y\nc: !!str 5\n";
	CHECK(mtree_parse(tags, strlen(tags), "tags", &t, &err) == 0);
	a = mtree_emit_string(&t, &err);
	CHECK_STR(a, "a: x\nb: y\nc: !!str 5\n");
	free(a);
	mtree_free(&t);
	const char *nel = "# comment \xc2\x85key: 1\n";
	CHECK(mtree_parse(nel, strlen(nel), "nel", &t, &err) == 0);
	CHECK(t.header == NULL);
	mtree_free(&t);
}

/* The first problem reported for a document, or the parse error. */
static char msg[2048];
static const char *first_problem(const char *src, size_t len)
{
	struct mtree t;
	struct as_error err = { 0 };
	if (mtree_parse(src, len, "x.yaml", &t, &err) != 0) {
		snprintf(msg, sizeof(msg), "%s", err.msg);
		return msg;
	}
	char *report = NULL;
	int n = machine_check(&t, "x.yaml", &report);
	snprintf(msg, sizeof(msg), "%s", n ? report : "");
	free(report);
	mtree_free(&t);
	return msg;
}

#define GOOD_HEAD "model name: m\nclock: 2 GHz\ncores per socket: 4\n"
#define L1 "- level: L1\n  cache per group: {sets: 64, ways: 8, cl_size: 64}\n"

static void test_machine__errors_name_line_and_key(void)
{
	const char *s = GOOD_HEAD "memory hierarchy:\n" L1 "- level: L2\n  cache per group:\n    sets: 512\n"
			"    ways: -3\n    cl_size: 64\n- level: MEM\n";
	CHECK(strstr(first_problem(s, strlen(s)),
		     "machine file 'x.yaml': line 10: memory hierarchy[1].cache per group.ways: expected a positive integer") != NULL);
	s = GOOD_HEAD "memory hierarchy:\n" L1 "- level: MEM\n  size per group: -5 MB\n";
	CHECK(strstr(first_problem(s, strlen(s)), "line 8: memory hierarchy[1].size per group: expected a size") != NULL);
	s = "model name: m\ncores per socket: 4\nmemory hierarchy:\n" L1;
	CHECK(strstr(first_problem(s, strlen(s)), "missing key 'clock'") != NULL);
	s = GOOD_HEAD "memory hierarchy: 3\n";
	CHECK(strstr(first_problem(s, strlen(s)), "line 4: memory hierarchy: expected a non-empty list") != NULL);
	s = "model name: m\nclock: fast\ncores per socket: 4\nmemory hierarchy:\n" L1;
	CHECK(strstr(first_problem(s, strlen(s)), "line 2: clock: expected a positive frequency") != NULL);
	s = GOOD_HEAD "memory hierarchy:\n" L1 "  cache per group: {sets: 1, ways: 1, cl_size: 1}\n";
	CHECK(strstr(first_problem(s, strlen(s)), "line 7: key 'cache per group' appears twice") != NULL);
	s = GOOD_HEAD "memory hierarchy: [\n";
	CHECK(strstr(first_problem(s, strlen(s)), "machine file 'x.yaml': line ") != NULL);
	s = "";
	CHECK(strstr(first_problem(s, 0), "the file is empty") != NULL);
	s = "# only a comment\n";
	CHECK(strstr(first_problem(s, strlen(s)), "the file is empty") != NULL);
	const char bin[] = "model\0name: \x01\x02";
	CHECK(strstr(first_problem(bin, sizeof(bin)), "binary file") != NULL);
	s = "- a\n- b\n";
	CHECK(strstr(first_problem(s, strlen(s)), "must be a mapping") != NULL);
	s = "a: &x 1\nb: *x\n";
	CHECK(strstr(first_problem(s, strlen(s)), "aliases") != NULL);
	s = "a: 1\n---\nb: 2\n";
	CHECK(strstr(first_problem(s, strlen(s)), "more than one YAML document") != NULL);
	char deep[400];
	for (int i = 0; i < 100; i++)
		deep[i] = '[';
	deep[100] = 0;
	CHECK(strstr(first_problem(deep, strlen(deep)), "machine file 'x.yaml': line 1") != NULL);
	s = GOOD_HEAD "memory hierarchy:\n" L1 "- level: MEM\n";
	CHECK_STR(first_problem(s, strlen(s)), "");
}

static void test_machine__quantities(void)
{
	double v;
	char u[32];
	CHECK(machine_quantity("2.4 GHz", &v, u, sizeof(u)) == 0);
	CHECK_NEAR(v, 2.4e9, 1);
	CHECK_STR(u, "Hz");
	CHECK(machine_quantity("32.00 kB", &v, u, sizeof(u)) == 0);
	CHECK_NEAR(v, 32000, 1e-9);
	CHECK(machine_quantity("32 KiB", &v, u, sizeof(u)) == 0);
	CHECK_NEAR(v, 32768, 1e-9);
	CHECK(machine_quantity("64 B/cy", &v, u, sizeof(u)) == 0);
	CHECK_STR(u, "B/cy");
	CHECK(machine_quantity("41.3 GB/s", &v, u, sizeof(u)) == 0);
	CHECK_NEAR(v, 41.3e9, 1);
	CHECK(machine_quantity("8", &v, u, sizeof(u)) == 0);
	CHECK_STR(u, "");
	CHECK(machine_quantity("fast", &v, u, sizeof(u)) == -1);
	CHECK(machine_quantity("3 GHz!", &v, u, sizeof(u)) == -1);
	CHECK(machine_quantity("nan GHz", &v, u, sizeof(u)) == -1);
}

TESTS(T(test_machine__kerncraft_snb), T(test_machine__roundtrip_skx), T(test_machine__roundtrip_snb),
      T(test_machine__header_comments_kept), T(test_machine__errors_name_line_and_key), T(test_machine__quantities))
