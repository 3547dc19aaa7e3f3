/* Unit tests of machine files: Kerncraft's two published files load, check and read back typed;
 * write -> read -> write gives the same bytes; every machine file read, written from its struct and
 * read again gives the same struct; a probe run's answers give a valid file with the derived
 * values; bad input gives one clear message naming the line and the key; quantities with units. */
#include <glob.h>
#include <math.h>
#include <stdlib.h>

#include "common/atomicfile.h"
#include "machine/diff.h"
#include "machine/file.h"
#include "machine/probes.h"
#include "machine/write.h"
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

/* A JSON document as YAML: key order kept, strings that would read back as something else quoted. */
static void test_machine__mtree_from_json(void)
{
	json_t *doc = json_pack("{s:s,s:i,s:[i,i],s:{s:s,s:s,s:s}}", "command", "topology", "n", 2, "list", 1, 2, "inner",
				"key", "va:lue", "num", "64", "word", "yes");
	struct mtree t = { .root = mnode_from_json(doc) };
	json_decref(doc);
	CHECK(t.root != NULL);
	struct as_error err = { 0 };
	char *buf = mtree_emit_string(&t, &err);
	mtree_free(&t);
	CHECK(buf != NULL);
	CHECK(strstr(buf, "command: topology") != NULL);
	CHECK(strstr(buf, "list: [1, 2]") != NULL);
	CHECK(strstr(buf, "key: va:lue") != NULL);
	CHECK(strstr(buf, "num: '64'") != NULL); /* a string that reads as a number stays a string */
	CHECK(strstr(buf, "word: 'yes'") != NULL);
	CHECK(strstr(buf, "n: 2\n") != NULL);
	free(buf);
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
static char msg[AS_ERROR_MSG_MAX];
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
#define FLOPS "FLOPs per cycle: {DP: {total: 4}}\n"
#define UP "  upstream throughput: [16 B/cy, half-duplex]\n"

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
	CHECK(strstr(first_problem(s, strlen(s)), "line 1: (top): incomplete: missing key 'FLOPs per cycle'") != NULL);
	s = GOOD_HEAD FLOPS "memory hierarchy:\n" L1 "- level: MEM\n" UP;
	CHECK_STR(first_problem(s, strlen(s)), "");
}

/* Sizes that agree and stay in bounds (issue 35): size per group against sets x ways x cl_size
 * (Kerncraft's kB for KiB accepted), a power-of-two line, at most 1 GiB of L1 and 4 GiB a cache. */
static void test_machine__sizes_consistent_and_bounded(void)
{
	const char *s = GOOD_HEAD FLOPS "memory hierarchy:\n" L1 "  size per group: 32.00 kB\n- level: MEM\n" UP;
	CHECK_STR(first_problem(s, strlen(s)), ""); /* 64 x 8 x 64 = 32768 B: kB read as KiB */
	s = GOOD_HEAD FLOPS "memory hierarchy:\n" L1 "  size per group: 32.77 kB\n- level: MEM\n" UP;
	CHECK_STR(first_problem(s, strlen(s)), ""); /* ... or as 1000 B, to the written digits */
	s = GOOD_HEAD FLOPS "memory hierarchy:\n" L1 "  size per group: 48 KiB\n- level: MEM\n" UP;
	CHECK(strstr(first_problem(s, strlen(s)), "line 8: memory hierarchy[0].size per group: 48 KiB contradicts cache per "
						  "group: sets 64 x ways 8 x cl_size 64 = 32768 B (32 KiB)") != NULL);
	s = GOOD_HEAD FLOPS "memory hierarchy:\n- level: L1\n  cache per group: {sets: 64, ways: 8, cl_size: 48}\n- level: MEM\n" UP;
	CHECK(strstr(first_problem(s, strlen(s)), "cl_size: a line of 48 B: expected a power of two from 8 to 4096 B") != NULL);
	s = GOOD_HEAD FLOPS "memory hierarchy:\n- level: L1\n  cache per group: {sets: 16777216, ways: 1024, cl_size: 64}\n"
			    "- level: MEM\n" UP; /* 1 TiB */
	CHECK(strstr(first_problem(s, strlen(s)), "= 1 TiB: more than 1 GiB, the most a first-level cache may hold") != NULL);
	s = GOOD_HEAD FLOPS "memory hierarchy:\n" L1 "- level: L2\n  cache per group: {sets: 1, ways: 1, cl_size: 64}\n"
			    "  size per group: 8 GB\n" UP "- level: MEM\n" UP;
	CHECK(strstr(first_problem(s, strlen(s)), "size per group: 8 GB: more than 4 GiB") != NULL);
}

/* A probe -o file cut inside its archscope section fails, wherever the cut falls on a line
 * boundary (the recorded file of the Xeon guest, cut after each of its archscope lines). */
static void test_machine__cut_archscope_section(void)
{
	size_t len = 0;
	struct as_error err = { 0 };
	char *text = file_read_input(ARCHSCOPE_SOURCE_DIR "/machines/kvm-xeon-6-207.yaml", "machine file", 1 << 24, &len, &err);
	CHECK(text != NULL);
	CHECK_STR(first_problem(text, len), "");
	char *as = strstr(text, "\narchscope:\n");
	CHECK(as != NULL);
	int cuts = 0, passed = 0;
	for (char *p = as + 1; (p = strchr(p, '\n')) && (size_t)(p + 1 - text) < len; p++) {
		size_t at = (size_t)(p + 1 - text);
		cuts++;
		if (!first_problem(text, at)[0]) {
			passed++;
			printf("# passes when cut after byte %zu\n", at);
		}
	}
	free(text);
	CHECK(cuts > 500 && passed == 0);
}

/* Validation by meaning (issue 29): what has the right shape but cannot be a machine. */
static void test_machine__checks_by_meaning(void)
{
	const char *s = "model name: m\nclock: 1e299 GHz\ncores per socket: 4\n" FLOPS "memory hierarchy:\n" L1 "- level: MEM\n" UP;
	CHECK(strstr(first_problem(s, strlen(s)), "line 2: clock: 1e299 GHz is outside 0.1 to 10 GHz") != NULL);
	s = "model name: m\nclock: 0.05 GHz\ncores per socket: 4\n" FLOPS "memory hierarchy:\n" L1 "- level: MEM\n" UP;
	CHECK(strstr(first_problem(s, strlen(s)), "outside 0.1 to 10 GHz") != NULL);
	s = GOOD_HEAD FLOPS "memory hierarchy:\n" L1 "- level: MEM\n  upstream throughput: [-32 B/cy, half-duplex]\n";
	CHECK(strstr(first_problem(s, strlen(s)), "upstream throughput[0]: expected a positive rate") != NULL);
	s = GOOD_HEAD FLOPS "memory hierarchy:\n- level: L1\n  cache per group: {sets: 64, ways: 8, cl_size: 64, load_from: L9}\n"
		"- level: MEM\n" UP;
	CHECK(strstr(first_problem(s, strlen(s)), "load_from: 'L9' is no other level of this file") != NULL);
	s = GOOD_HEAD FLOPS "memory hierarchy:\n" L1 "- level: L2\n  cache per group: {sets: 8, ways: 8, cl_size: 64}\n" UP
		"- level: MEM\n" UP;
	CHECK(strstr(first_problem(s, strlen(s)), "L2 holds 4 KiB per group, less than L1 above it (32 KiB)") != NULL);
	s = GOOD_HEAD FLOPS "memory hierarchy:\n" L1;
	CHECK(strstr(first_problem(s, strlen(s)), "incomplete: the hierarchy ends with cache L1") != NULL);
	s = GOOD_HEAD "FLOPs per cycle: {SP: {total: 8}}\nmemory hierarchy:\n" L1 "- level: MEM\n" UP;
	CHECK(strstr(first_problem(s, strlen(s)), "incomplete: missing 'DP.total'") != NULL);
	s = GOOD_HEAD FLOPS "memory hierarchy:\n" L1 "- level: MEM\n" UP "archscope: {incomplete: true}\n";
	CHECK(strstr(first_problem(s, strlen(s)), "interrupted 'probe -o'") != NULL);
	/* no line anywhere: the models would have to assume one */
	s = GOOD_HEAD FLOPS "memory hierarchy:\n- level: MEM\n";
	CHECK(strstr(first_problem(s, strlen(s)), "cacheline size: incomplete: missing") != NULL);
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
	/* decimal prefixes are exact: the same bytes as the same quantity in kB */
	CHECK(machine_quantity("2.05 MB", &v, u, sizeof(u)) == 0);
	CHECK(v == 2050000.0);
	CHECK(machine_quantity("1.5e3 kB", &v, u, sizeof(u)) == 0);
	CHECK_NEAR(v, 1.5e6, 1e-6);
	CHECK(machine_quantity("8", &v, u, sizeof(u)) == 0);
	CHECK_STR(u, "");
	CHECK(machine_quantity("fast", &v, u, sizeof(u)) == -1);
	CHECK(machine_quantity("3 GHz!", &v, u, sizeof(u)) == -1);
	CHECK(machine_quantity("nan GHz", &v, u, sizeof(u)) == -1);
}

/* The first field in which two machines differ, or NULL. probed is left out: it records that the
 * file has the archscope section, which only a probe run's answers give. */
static const char *machine_differs(const struct machine *a, const struct machine *b)
{
#define SAME_TEXT(f)                                                                               \
	if (strcmp(a->f, b->f))                                                                    \
		return #f;
#define SAME(f)                                                                                    \
	if (a->f != b->f)                                                                          \
		return #f;
	SAME_TEXT(kerncraft_version) SAME_TEXT(model_name) SAME_TEXT(model_type) SAME_TEXT(isa)
	SAME(clock_hz) SAME(sockets) SAME(cores_per_socket) SAME(threads_per_core) SAME(cores_per_numa_domain)
	SAME(nincore) SAME(ncompiler) SAME(cacheline_bytes) SAME(nlevels) SAME(nkernels) SAME(nbench)
	for (int i = 0; i < a->nincore; i++) {
		SAME_TEXT(incore[i].name) SAME_TEXT(incore[i].value)
	}
	for (int i = 0; i < a->ncompiler; i++) {
		SAME_TEXT(compiler[i].name) SAME_TEXT(compiler[i].value)
	}
	for (int i = 0; i < 4; i++) {
		SAME(flops_dp[i]) SAME(flops_sp[i])
	}
	for (int i = 0; i < a->nlevels; i++) {
		SAME_TEXT(level[i].name) SAME(level[i].has_cache) SAME(level[i].sets) SAME(level[i].ways)
		SAME(level[i].cl_size) SAME(level[i].size_bytes) SAME(level[i].groups) SAME(level[i].cores_per_group)
		SAME(level[i].threads_per_group) SAME(level[i].replacement) SAME(level[i].write_allocate)
		SAME(level[i].write_back) SAME(level[i].inclusive) SAME_TEXT(level[i].load_from) SAME_TEXT(level[i].store_to)
		SAME_TEXT(level[i].victims_to) SAME(level[i].upstream_bytes_per_cy) SAME(level[i].upstream_full_duplex)
		SAME(level[i].upstream_is_memory) SAME_TEXT(level[i].upstream_text) SAME(level[i].transfers_overlap)
	}
	for (int i = 0; i < a->nkernels; i++) {
		SAME_TEXT(kernel[i].name) SAME_TEXT(kernel[i].bench_name) SAME(kernel[i].flops_per_it)
		SAME(kernel[i].read_bytes) SAME(kernel[i].write_bytes) SAME(kernel[i].rw_bytes)
		SAME(kernel[i].read_streams) SAME(kernel[i].write_streams) SAME(kernel[i].rw_streams)
	}
	for (int i = 0; i < a->nbench; i++) {
		SAME_TEXT(bench[i].level) SAME(bench[i].ncores)
		for (int c = 0; c < a->bench[i].ncores; c++) {
			SAME(bench[i].cores[c]) SAME(bench[i].size_per_core_bytes[c]) SAME(bench[i].size_per_thread_bytes[c])
			SAME(bench[i].total_bytes[c])
			for (int k = 0; k < a->nkernels; k++)
				SAME(bench[i].bw[k][c])
		}
	}
	return NULL;
#undef SAME
#undef SAME_TEXT
}

/* read -> write (from the struct) -> YAML text -> read: the same struct, for every machine file
 * kept in the tree. */
/* Inputs the fuzz target fuzz-machine found (tests/fixtures/fuzz/machine-*.yaml): the struct read
 * from them, written, read back and written again gives the same bytes. */
static void test_machine__fuzz_cases(void)
{
	glob_t g;
	CHECK(glob(ARCHSCOPE_SOURCE_DIR "/tests/fixtures/fuzz/machine-*.yaml", 0, NULL, &g) == 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct mtree t, w, w2, w3;
		struct as_error err = { 0 };
		if (mtree_load(g.gl_pathv[i], &t, &err) != 0)
			continue; /* a reader's error with a message is a pass */
		struct machine *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
		CHECK(a && b);
		machine_read(&t, a);
		if (machine_write_tree(a, &w, &err) == 0) {
			char *x = mtree_emit_string(&w, &err);
			CHECK(x && mtree_parse(x, strlen(x), "written", &w2, &err) == 0);
			machine_read(&w2, b);
			CHECK(machine_write_tree(b, &w3, &err) == 0);
			char *y = mtree_emit_string(&w3, &err);
			CHECK(y && !strcmp(x, y));
			if (x && y && strcmp(x, y))
				printf("# %s: written twice, the bytes differ\n", g.gl_pathv[i]);
			free(x);
			free(y);
			mtree_free(&w);
			mtree_free(&w2);
			mtree_free(&w3);
		}
		free(a);
		free(b);
		mtree_free(&t);
	}
	CHECK(g.gl_pathc >= 1);
	globfree(&g);
}

static void test_machine__struct_roundtrip(void)
{
	const char *patterns[] = { ARCHSCOPE_SOURCE_DIR "/tests/fixtures/machines/*.yml", ARCHSCOPE_SOURCE_DIR "/machines/*.yaml" };
	int files = 0;
	for (int p = 0; p < 2; p++) {
		glob_t g;
		CHECK(glob(patterns[p], 0, NULL, &g) == 0);
		for (size_t i = 0; i < g.gl_pathc; i++, files++) {
			struct mtree t, u, w;
			struct as_error err = { 0 };
			CHECK(mtree_load(g.gl_pathv[i], &t, &err) == 0);
			struct machine *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
			CHECK(a && b);
			machine_read(&t, a);
			CHECK(machine_write_tree(a, &u, &err) == 0);
			char *text = mtree_emit_string(&u, &err), *report = NULL;
			CHECK(text != NULL);
			CHECK(mtree_parse(text, strlen(text), "written", &w, &err) == 0);
			int problems = machine_check(&w, g.gl_pathv[i], &report);
			if (problems)
				printf("# %s", report);
			CHECK(problems == 0);
			machine_read(&w, b);
			const char *field = machine_differs(a, b);
			if (field)
				printf("# %s: %s differs after writing and reading back\n", g.gl_pathv[i], field);
			CHECK(field == NULL);
			free(text);
			free(a);
			free(b);
			mtree_free(&t);
			mtree_free(&u);
			mtree_free(&w);
		}
		globfree(&g);
	}
	CHECK(files >= 7);
}

/* A probe run of 2 cores with 48 KiB 12-way L1, 2 MiB L2 of unknown ways and a 20 MiB L3. */
static struct machine_probes sample_answers;

static void probed_sample(struct machine_probed *p)
{
	struct machine_probes *a = &sample_answers;
	machine_probes_release(a);
	machine_probes_init(a);
	*p = (struct machine_probed){ .cpus = 2, .seed = 7, .probes = a };
	snprintf(p->model_name, sizeof(p->model_name), "Test CPU");
	snprintf(p->incore_cpu, sizeof(p->incore_cpu), "skylake");
	a->have[MP_CLOCK] = a->have[MP_LINE] = a->have[MP_CACHES] = a->have[MP_ASSOC] = MP_HAVE_YES;
	a->have[MP_CONTEXTS] = a->have[MP_INSTR] = MP_HAVE_YES;
	/* the probes the sample leaves out ran and found nothing (probe -o writes every probe) */
	a->have[MP_TLB] = a->have[MP_REGISTERS] = a->have[MP_TIMESLICE] = a->have[MP_C2C] = MP_HAVE_NULL;
	a->clock.value = 2.9412;
	a->contexts_fp.value = 2;
	a->contexts_int.value = 4;
	a->line.value = 64;
	const double bytes[] = { 49152, 2097152, 20971520 }, ways[] = { 12, NAN, 20 };
	a->ncaches = a->nassoc = 3;
	for (int i = 0; i < 3; i++) {
		machine_probes_row_init(MP_CACHES_LEVELS, &a->cache[i]);
		machine_probes_row_init(MP_ASSOC_LEVELS, &a->assoc[i]);
		a->cache[i].level = a->assoc[i].level = i + 1;
		a->cache[i].size.value = bytes[i];
		a->assoc[i].ways.value = ways[i];
	}
	for (int k = 0; k < 4; k++) {
		a->flops_per_cy[0][1][k] = 32.04;
		a->flops_per_cy[1][1][k] = 16.02;
	}
	p->has_ecm = 1;
	p->ecm = (struct machine_ecm_rates){ .l1_load_bytes_per_cy = 128, .l1_store_bytes_per_cy = 64, .ntransfers = 3,
					     .cy_per_cl = { 1, 4, 8 } };
}

/* --- the probe answers' description (machine/probes.h) ----------------------------------- */

/* The table is a tree: parents before children, containers as parents, keys unique among
 * siblings, optional entries outside table rows, a unit on every answer, each entry said. */
static void test_machine__probes_table(void)
{
	const struct machine_probe_field *f = machine_probe_fields;
	for (int id = 0; id < MP_COUNT; id++) {
		CHECK(f[id].id == id && f[id].key && *f[id].key && f[id].what && *f[id].what && f[id].unit);
		int p = f[id].parent;
		CHECK(p < id);
		CHECK(p == MP_ROOT || f[p].kind == MP_OBJECT || f[p].kind == MP_ANSWER || f[p].kind == MP_TABLE);
		CHECK(f[id].kind != MP_ANSWER || *f[id].unit);
		for (int q = 0; q < id; q++)
			CHECK(f[q].parent != p || strcmp(f[q].key, f[id].key) != 0);
		int in_row = 0;
		for (int a = p; a != MP_ROOT; a = f[a].parent)
			in_row |= f[a].kind == MP_TABLE;
		CHECK(!(in_row && (f[id].flags & MP_F_OPT)));
		CHECK(!in_row || machine_probes_at(&sample_answers, id) == NULL);
	}
	char path[256];
	CHECK_STR(machine_probes_path(MP_CACHES_SIZE, 0, path, sizeof(path)), "caches.levels[].size");
	CHECK_STR(machine_probes_path(MP_SPLIT, 1, path, sizeof(path)), "archscope.probes.instr.line_split");
	CHECK_STR(MP_KEY(INSTR_LATENCY), "latency_cy");
}

/* Every entry of a record (root or one table row) set to a value of its own, two rows per table. */
static void probes_fill(int table, char *base, struct machine_probes *p)
{
	const struct machine_probe_field *f = machine_probe_fields;
	for (int id = 0; id < MP_COUNT; id++) {
		int t = MP_ROOT;
		for (int a = f[id].parent; a != MP_ROOT && t == MP_ROOT; a = f[a].parent)
			if (f[a].kind == MP_TABLE)
				t = a;
		if (t != table)
			continue;
		if (f[id].flags & MP_F_OPT)
			p->have[id] = MP_HAVE_YES;
		char *at = base + f[id].offset;
		int *count = (int *)(void *)(base + f[id].count);
		switch (f[id].kind) {
		case MP_ANSWER: {
			struct machine_answer *a = (struct machine_answer *)(void *)at;
			*a = (struct machine_answer){ .value = id + 0.25, .confidence = 0.5, .os_reported = id };
			snprintf(a->method, sizeof(a->method), "method %d", id);
			snprintf(a->reason, sizeof(a->reason), "reason %d", id);
			break;
		}
		case MP_REAL: *(double *)(void *)at = id + 0.5; break;
		case MP_INT: *(int *)(void *)at = id; break;
		case MP_LONG: *(long long *)(void *)at = 1000LL * id; break;
		case MP_TEXT: snprintf(at, f[id].max, "t%d", id); break;
		case MP_INTS:
			*(int **)(void *)at = calloc(2, sizeof(int));
			(*(int **)(void *)at)[1] = id;
			*count = 2;
			break;
		case MP_MATRIX: {
			double *m = malloc(4 * sizeof(double));
			m[0] = m[3] = NAN;
			m[1] = id;
			m[2] = id + 1;
			*(double **)(void *)at = m;
			*count = 2;
			break;
		}
		case MP_BOOL: *(int *)(void *)at = 1; break;
		case MP_REALS: {
			double *x = malloc(2 * sizeof(double));
			x[0] = id;
			x[1] = NAN;
			*(double **)(void *)at = x;
			*count = 2;
			break;
		}
		case MP_TABLE: {
			char *rows = at;
			if (f[id].flags & MP_F_HEAP)
				rows = *(char **)(void *)at = calloc(2, f[id].row_size);
			for (int r = 0; r < 2; r++) {
				machine_probes_row_init(id, rows + r * f[id].row_size);
				probes_fill(id, rows + r * f[id].row_size, p);
			}
			*count = 2;
			break;
		}
		case MP_OBJECT:
			if (f[id].flags & MP_F_NULLABLE)
				*count = 1;
			break;
		}
	}
}

/* The JSON at an entry's path (row 0 of every table on the way), or NULL. */
static const json_t *probes_lookup(const json_t *doc, int id)
{
	const struct machine_probe_field *f = machine_probe_fields;
	if (id == MP_ROOT)
		return doc;
	const json_t *up = probes_lookup(doc, f[id].parent);
	if (f[id].parent != MP_ROOT && f[f[id].parent].kind == MP_TABLE)
		up = json_array_get(up, 0);
	return json_object_get(up, f[id].key);
}

/* A record with every entry set: its JSON holds each at its path, reads back to the same JSON, and
 * is the machine file's archscope.probes, also after YAML and back; the Kerncraft keys derived
 * from answers are there. */
static void test_machine__probes_roundtrip(void)
{
	struct machine_probes *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct machine_probed *p = calloc(1, sizeof(*p));
	CHECK(a && b && p);
	machine_probes_init(a);
	probes_fill(MP_ROOT, (char *)a, a);
	a->have[MP_C2C_TREE] = MP_HAVE_YES;
	json_t *j = machine_probes_json(a);
	CHECK(j != NULL);
	for (int id = 0; id < MP_COUNT; id++) {
		const json_t *v = probes_lookup(j, id);
		if (!v) {
			char path[256];
			printf("# no %s\n", machine_probes_path(id, 0, path, sizeof(path)));
		}
		CHECK(v != NULL);
	}
	CHECK(json_real_value(json_object_get(probes_lookup(j, MP_CACHES_SIZE), "value")) == MP_CACHES_SIZE + 0.25);
	CHECK(json_is_integer(json_object_get(probes_lookup(j, MP_CACHES_SIZE), "os_reported")));
	CHECK(json_is_null(json_array_get(json_array_get(probes_lookup(j, MP_C2C_LATENCY), 0), 0)));
	struct as_error err = { 0 };
	CHECK(machine_probes_from_json(j, b, &err) == 0);
	json_t *again = machine_probes_json(b);
	CHECK(json_equal(j, again));
	json_decref(again);
	/* the machine file */
	p->probes = a;
	p->cpus = 2;
	snprintf(p->model_name, sizeof(p->model_name), "Test CPU");
	json_t *d = machine_probed_json(p);
	CHECK(d != NULL);
	json_t *answers = machine_probes_answers_json(a);
	CHECK(json_equal(json_object_get(json_object_get(d, "archscope"), "probes"), answers));
	for (int id = 0; id < MP_COUNT; id++)
		CHECK(!machine_probe_fields[id].kerncraft || json_object_get(d, machine_probe_fields[id].kerncraft));
	struct mtree t = { .root = mnode_from_json(d) }, u;
	json_decref(d);
	char *text = mtree_emit_string(&t, &err);
	mtree_free(&t);
	CHECK(text && mtree_parse(text, strlen(text), "probes", &u, &err) == 0);
	free(text);
	machine_probes_release(b);
	CHECK(machine_probes_read(&u, b, &err) == 1);
	mtree_free(&u);
	again = machine_probes_answers_json(b);
	CHECK(json_equal(answers, again));
	json_decref(again);
	json_decref(answers);
	json_decref(j);
	machine_probes_release(a);
	machine_probes_release(b);
	free(a);
	free(b);
	free(p);
}

static void test_machine__probed_file(void)
{
	struct machine_probed *p = calloc(1, sizeof(*p));
	struct machine *m = calloc(1, sizeof(*m));
	CHECK(p && m);
	probed_sample(p);
	json_t *d = machine_probed_json(p);
	CHECK(d != NULL);
	struct mtree t = { .root = mnode_from_json(d) };
	json_decref(d);
	CHECK(t.root != NULL);
	char *report = NULL;
	int n = machine_check(&t, "probed", &report);
	if (n)
		printf("# %s", report);
	CHECK(n == 0);
	machine_read(&t, m);
	CHECK(m->probed);
	CHECK_NEAR(m->clock_hz, 2.941e9, 1);
	CHECK(m->cores_per_socket == 2 && m->threads_per_core == 2 && m->sockets == 1);
	CHECK_NEAR(m->flops_sp[0], 32.0, 1e-12);
	CHECK(m->nlevels == 4);
	/* L1: 768 lines in 12 ways; L2: fully associative (no ways); L3 shared by both cores */
	CHECK(m->level[0].sets == 64 && m->level[0].ways == 12 && m->level[0].groups == 2);
	CHECK(m->level[1].sets == 1 && m->level[1].ways == 32768);
	CHECK(m->level[2].groups == 1 && m->level[2].cores_per_group == 2 && m->level[2].threads_per_group == 4);
	CHECK_STR(m->level[2].load_from, "MEM");
	/* upstream: L2 from the L2 -> L1 transfer, 64 B in 1 cy */
	CHECK_NEAR(m->level[1].upstream_bytes_per_cy, 64, 0);
	CHECK_NEAR(m->level[2].upstream_bytes_per_cy, 16, 0);
	CHECK(m->level[3].upstream_is_memory && !m->level[3].has_cache);
	const struct mnode *assumed = mnode_get(mnode_get(t.root, "archscope"), "assumed");
	CHECK(assumed && assumed->kind == MN_SEQ && assumed->n == 4);
	CHECK_STR(assumed->vals[0]->text, "L2 associativity not measured: written as fully associative");
	CHECK_STR(mnode_get(mnode_get(mnode_get(t.root, "archscope"), "ecm"), "transfers")->vals[2]->vals[0]->text, "MEM");
	mtree_free(&t);
	/* beside a memory hog the fit gave L2 a negative cost: the file is still written, the level's
	 * upstream throughput said to be not measured, and the model's Kerncraft mode refuses it */
	p->ecm.cy_per_cl[0] = -0.91;
	d = machine_probed_json(p);
	t.root = mnode_from_json(d);
	json_decref(d);
	free(report);
	report = NULL;
	n = machine_check(&t, "probed", &report);
	if (n)
		printf("# %s", report);
	CHECK(n == 0);
	memset(m, 0, sizeof(*m));
	machine_read(&t, m);
	CHECK_STR(m->level[1].upstream_text, MACHINE_UPSTREAM_NOT_MEASURED);
	CHECK(m->level[1].upstream_bytes_per_cy == 0 && !m->level[1].upstream_full_duplex);
	CHECK_NEAR(m->level[2].upstream_bytes_per_cy, 16, 0);
	assumed = mnode_get(mnode_get(t.root, "archscope"), "assumed");
	int said = 0;
	for (size_t i = 0; assumed && i < assumed->n; i++)
		said |= strstr(assumed->vals[i]->text, "L2 upstream throughput not measured: the benchmarks' ECM fit gave -0.91") != NULL;
	CHECK(said);
	mtree_free(&t);
	free(report);
	free(p);
	free(m);
}

/* benchmarks.json of a recorded probe -o read by the machine reader and written again: the same
 * document. */
static void test_machine__probed_benchmarks_roundtrip(void)
{
	json_error_t je;
	json_t *saved = json_load_file(ARCHSCOPE_SOURCE_DIR "/tests/fixtures/kvm-xeon-6-207/probe-o/benchmarks.json", 0, &je);
	CHECK(saved != NULL);
	json_t *doc = json_pack("{s:O}", "benchmarks", saved);
	struct mtree t = { .root = mnode_from_json(doc) };
	json_decref(doc);
	struct machine *m = calloc(1, sizeof(*m));
	struct machine_probed *p = calloc(1, sizeof(*p));
	CHECK(t.root && m && p);
	machine_read(&t, m);
	p->nkernels = m->nkernels;
	memcpy(p->kernel, m->kernel, sizeof(p->kernel));
	p->nbench = m->nbench;
	memcpy(p->bench, m->bench, sizeof(p->bench));
	const json_t *ecm = json_object_get(saved, "ecm"), *tr = json_object_get(ecm, "transfers");
	p->has_ecm = 1;
	p->ecm.l1_load_bytes_per_cy = json_real_value(json_object_get(ecm, "l1_load_bytes_per_cy"));
	p->ecm.l1_store_bytes_per_cy = json_real_value(json_object_get(ecm, "l1_store_bytes_per_cy"));
	for (size_t b = 0; b < json_array_size(tr); b++)
		p->ecm.cy_per_cl[p->ecm.ntransfers++] = json_real_value(json_object_get(json_array_get(tr, b), "cy_per_cl"));
	json_t *again = machine_probed_bench_json(p);
	CHECK(again != NULL);
	if (!json_equal(again, saved)) {
		char *x = json_dumps(again, JSON_COMPACT);
		printf("# written again: %.300s\n", x);
		free(x);
	}
	CHECK(json_equal(again, saved));
	json_decref(again);
	json_decref(saved);
	mtree_free(&t);
	free(m);
	free(p);
}

static void test_machine__diff(void)
{
	const char *a = "model name: a\nclock: 2 GHz\nmemory hierarchy:\n- level: L1\n  groups: 2\n- level: MEM\n"
			"archscope: {x: 1}\n";
	const char *b = "model name: b\nclock: 2 GHz\nmemory hierarchy:\n- level: L1\n  groups: 4\n- level: L2\n  groups: 1\n";
	struct mtree ta, tb;
	struct as_error err = { 0 };
	CHECK(mtree_parse(a, strlen(a), "a", &ta, &err) == 0);
	CHECK(mtree_parse(b, strlen(b), "b", &tb, &err) == 0);
	struct machine_diff d;
	CHECK(machine_diff_init(&d, ta.root, tb.root, 0, &err) == 0);
	/* model name, clock, L1 groups, MEM level; then L2's two values only B has */
	CHECK(d.na == 5 && d.n == 7 && d.ndiffer == 5);
	CHECK_STR(d.row[2].path, "memory hierarchy[L1].level");
	CHECK_STR(d.row[3].path, "memory hierarchy[L1].groups");
	CHECK(d.row[3].differs && !strcmp(d.row[3].a, "2") && !strcmp(d.row[3].b, "4"));
	CHECK(d.row[4].b == NULL && d.row[5].a == NULL);
	machine_diff_release(&d);
	CHECK(machine_diff_init(&d, ta.root, tb.root, 1, &err) == 0);
	CHECK(d.na == 6);
	machine_diff_release(&d);
	mtree_free(&ta);
	mtree_free(&tb);
}

TESTS(T(test_machine__mtree_from_json), T(test_machine__kerncraft_snb), T(test_machine__roundtrip_skx), T(test_machine__roundtrip_snb),
      T(test_machine__header_comments_kept), T(test_machine__errors_name_line_and_key), T(test_machine__sizes_consistent_and_bounded),
      T(test_machine__cut_archscope_section), T(test_machine__checks_by_meaning),
      T(test_machine__quantities),
      T(test_machine__struct_roundtrip), T(test_machine__fuzz_cases), T(test_machine__probes_table), T(test_machine__probes_roundtrip),
      T(test_machine__probed_file), T(test_machine__probed_benchmarks_roundtrip),
      T(test_machine__diff))
