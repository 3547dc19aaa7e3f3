/* Unit tests of the in-core analysis on recorded compiler and llvm-mca output: the innermost loop
 * and its unroll in clang's Sandy Bridge (AVX, lane inserts) and gcc's Cooper Lake (AVX-512)
 * assembly, llvm-mca's JSON with the sub-unit port names of llvm 14, the machine file's port lists
 * and the load ports found without them, the C the kernel becomes, and the settings read from a
 * machine file. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "harness.h"
#include "model/incore/incore.h"
#include "model/kernel.h"
#include "machine/mtree.h"

static char *fixture(const char *name)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/tests/fixtures/incore/%s", ARCHSCOPE_SOURCE_DIR, name);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = 0;
	fclose(f);
	return buf;
}

static struct kernel *parse(const char *text)
{
	struct as_error err = { 0 };
	struct kernel *k = kernel_new();
	if (kernel_parse_buffer(k, "k.c", text, strlen(text), &err)) {
		kernel_free(k);
		return NULL;
	}
	return k;
}

static const char JACOBI[] = "double a[M][N];\ndouble b[M][N];\ndouble s;\n\n"
			     "for (int j = 1; j < M - 1; ++j)\n"
			     "\tfor (int i = 1; i < N - 1; ++i)\n"
			     "\t\tb[j][i] = (a[j][i - 1] + a[j][i + 1] + a[j - 1][i] + a[j + 1][i]) * s;\n";
static const char TRIAD[] = "double a[N];\ndouble b[N];\ndouble c[N];\ndouble s;\n\n"
			    "for (int i = 0; i < N; ++i)\n\ta[i] = b[i] + s * c[i];\n";

static void test_incore__loop_clang_avx(void)
{
	char *s = fixture("jacobi-clang-sandybridge.s");
	CHECK(s != NULL);
	struct asm_loop l;
	struct as_error err = { 0 };
	CHECK(incore_find_loop(s, "archscope_kernel", &l, &err) == 0);
	CHECK(!strcmp(l.label, ".LBB0_2"));
	CHECK(l.ninstr == 16);
	/* vextractf128 + vmovupd %xmm: 32 B stored; four vmovups %xmm and four vinsertf128 loads */
	CHECK(l.store_bytes == 32);
	CHECK(l.load_bytes == 128);
	struct kernel *k = parse(JACOBI);
	CHECK(k != NULL);
	CHECK(incore_unroll(k, &l) == 4);
	incore_loop_free(&l);
	CHECK(incore_find_loop(s, "no_such_function", &l, &err) != 0);
	CHECK(strstr(err.msg, "no function"));
	kernel_free(k);
	free(s);
}

static void test_incore__loop_gcc_avx512(void)
{
	char *s = fixture("triad-gcc-cooperlake.s");
	CHECK(s != NULL);
	struct asm_loop l;
	struct as_error err = { 0 };
	CHECK(incore_find_loop(s, "archscope_kernel", &l, &err) == 0);
	CHECK(l.ninstr == 6);
	CHECK(l.store_bytes == 64 && l.load_bytes == 128);
	struct kernel *k = parse(TRIAD);
	CHECK(k != NULL);
	CHECK(incore_unroll(k, &l) == 8);
	incore_loop_free(&l);
	kernel_free(k);
	free(s);
	/* a function without a loop */
	CHECK(incore_find_loop("f:\n\tret\n\t.size f, .-f\n", "f", &l, &err) != 0);
	CHECK(strstr(err.msg, "no loop"));
}

/* gcc -O3 -march=native on a matrix-vector product: y[j] stays in %xmm0, so a pass that loads
 * 64 B of A and 64 B of x is 8 iterations, not 128 / 24 */
static void test_incore__unroll_invariant_access(void)
{
	static const char MATVEC[] = "double A[M][N];\ndouble x[N];\ndouble y[M];\n\n"
				     "for (int j = 0; j < M; ++j)\n\tfor (int i = 0; i < N; ++i)\n"
				     "\t\ty[j] = y[j] + A[j][i] * x[i];\n";
	struct kernel *k = parse(MATVEC);
	CHECK(k != NULL);
	struct asm_loop l = { .ninstr = 20, .store_bytes = 0, .load_bytes = 128 };
	CHECK(incore_unroll(k, &l) == 8);
	kernel_free(k);
}

static void mca_loop(struct incore_mca *m, const char *const *text, const double *lat, const int *load, int n)
{
	memset(m, 0, sizeof(*m));
	m->ninstr = n;
	for (int i = 0; i < n; i++) {
		snprintf(m->instr[i], sizeof(m->instr[i]), "%s", text[i]);
		m->latency[i] = lat[i];
		m->may_load[i] = load[i];
	}
}

/* the loop's recurrence with llvm-mca's latencies and with probed ones (gcc -O3 on sum) */
static void test_incore__chain(void)
{
	static const char *const sum[] = { "vaddsd (%rdi), %xmm0, %xmm0",    "addq $64, %rdi",
					   "vaddsd -56(%rdi), %xmm0, %xmm0", "vaddsd -48(%rdi), %xmm0, %xmm0",
					   "vaddsd -40(%rdi), %xmm0, %xmm0", "vaddsd -32(%rdi), %xmm0, %xmm0",
					   "vaddsd -24(%rdi), %xmm0, %xmm0", "vaddsd -16(%rdi), %xmm0, %xmm0",
					   "vaddsd -8(%rdi), %xmm0, %xmm0",  "cmpq %rdi, %rax",
					   "jne .L2" };
	static const double lat[] = { 9, 1, 9, 9, 9, 9, 9, 9, 9, 1, 1 };
	static const int load[] = { 1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0 };
	struct incore_mca m;
	mca_loop(&m, sum, lat, load, 11);
	struct incore_op ops[] = { { "add", "double", 64, 2.0 }, { "add", "double", 512, 3.5 }, { "mul", "double", 64, 4.0 } };
	struct incore_chain c;
	/* llvm-mca's 9 cy include a 5-cy load that is not on the chain through %xmm0 */
	incore_chain(&m, ops, 3, &c);
	CHECK(fabs(c.mca_cy_per_pass - 32) < 1e-9);
	CHECK(fabs(c.probed_cy_per_pass - 16) < 1e-9);
	CHECK(c.nprobed == 8);
	/* no probed latencies: both the same */
	incore_chain(&m, NULL, 0, &c);
	CHECK(c.nprobed == 0 && fabs(c.probed_cy_per_pass - 32) < 1e-9);
	/* the legacy two-operand form reads its destination; a vector-triad loop carries only the
	 * induction variable */
	static const char *const legacy[] = { "addsd %xmm1, %xmm0", "mulsd %xmm2, %xmm1", "jne .L3" };
	static const double llat[] = { 4, 4, 1 };
	static const int lload[] = { 0, 0, 0 };
	mca_loop(&m, legacy, llat, lload, 3);
	incore_chain(&m, ops, 3, &c);
	CHECK(fabs(c.mca_cy_per_pass - 4) < 1e-9);      /* %xmm1 (mul) is carried too, 4 cy each */
	CHECK(fabs(c.probed_cy_per_pass - 4) < 1e-9);   /* the mul chain: 4 probed; the add: 2 */
	static const char *const triad[] = { "vmovupd (%rcx,%rax), %zmm0", "vmovupd (%rsi,%rax), %zmm1",
					     "vfmadd132pd (%rdx,%rax), %zmm1, %zmm0", "vmovupd %zmm0, (%rdi,%rax)",
					     "addq $64, %rax", "cmpq $6144, %rax", "jne .L2" };
	static const double tlat[] = { 8, 8, 11, 1, 1, 1, 1 };
	static const int tload[] = { 1, 1, 1, 0, 0, 0, 0 };
	mca_loop(&m, triad, tlat, tload, 7);
	incore_chain(&m, ops, 3, &c);
	CHECK(fabs(c.mca_cy_per_pass - 1) < 1e-9 && fabs(c.probed_cy_per_pass - 1) < 1e-9);
}

static void test_incore__mca_file_ports(void)
{
	char *s = fixture("jacobi-clang-sandybridge-mca.json");
	CHECK(s != NULL);
	struct incore_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	/* Kerncraft's Sandy Bridge file */
	const char *ol[] = { "SBDivider", "SBFPDivider", "SBPort0", "SBPort1", "SBPort23", "SBPort4", "SBPort5" };
	for (int i = 0; i < 7; i++)
		snprintf(cfg.ol[cfg.n_ol++], INCORE_PORT_LEN, "%s", ol[i]);
	snprintf(cfg.nol[cfg.n_nol++], INCORE_PORT_LEN, "SBPort23");
	struct incore_mca m;
	struct as_error err = { 0 };
	CHECK(incore_parse_mca(s, &cfg, &m, &err) == 0);
	int u0 = -1, u1 = -1, p1 = -1;
	for (int p = 0; p < m.nports; p++) {
		if (!strcmp(m.port[p], "SBPort23.0"))
			u0 = p;
		if (!strcmp(m.port[p], "SBPort23.1"))
			u1 = p;
		if (!strcmp(m.port[p], "SBPort1"))
			p1 = p;
	}
	CHECK(u0 >= 0 && u1 >= 0 && p1 >= 0);
	CHECK(m.is_nol[u0] && m.is_nol[u1] && !m.is_nol[p1] && m.is_ol[p1]);
	CHECK(m.ninstr == 16);
	CHECK(m.pressure[u0] > 4.4 && m.pressure[u0] < 4.6);
	CHECK(m.t_nol_pass > 4.4 && m.t_nol_pass < 4.6);
	CHECK(m.cycles_per_pass > 4 && m.cycles_per_pass < 6);
	incore_mca_free(&m);
	free(s);
	CHECK(incore_parse_mca("{\"CodeRegions\": 1}", &cfg, &m, &err) != 0);
	CHECK(incore_parse_mca("not json", &cfg, &m, &err) != 0 && strstr(err.msg, "not JSON"));
}

static void test_incore__mca_load_ports(void)
{
	/* no port lists: the load ports of the recorded probe (plain integer loads) */
	char *probe = fixture("loadports-cooperlake-mca.json"), *s = fixture("triad-gcc-cooperlake-mca.json");
	CHECK(probe && s);
	struct incore_mca pm, m;
	struct as_error err = { 0 };
	CHECK(incore_parse_mca(probe, NULL, &pm, &err) == 0);
	struct incore_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	for (int p = 0; p < pm.nports; p++)
		if (pm.pressure[p] > 0.01)
			snprintf(cfg.nol[cfg.n_nol++], INCORE_PORT_LEN, "%s", pm.port[p]);
	CHECK(cfg.n_nol == 2 && !strcmp(cfg.nol[0], "SKXPort2") && !strcmp(cfg.nol[1], "SKXPort3"));
	CHECK(incore_parse_mca(s, &cfg, &m, &err) == 0);
	CHECK(m.t_nol_pass > 0.99 && m.t_nol_pass < 1.01); /* two 64 B loads on two ports */
	CHECK(m.t_ol_pass > 1.2 && m.t_ol_pass < 1.3);
	incore_mca_free(&m);
	/* the heuristic without any list: ports only loads use */
	CHECK(incore_parse_mca(s, NULL, &m, &err) == 0);
	int n2 = 0;
	for (int p = 0; p < m.nports; p++)
		n2 += m.is_nol[p] && (!strcmp(m.port[p], "SKXPort2") || !strcmp(m.port[p], "SKXPort3"));
	CHECK(n2 == 2);
	incore_mca_free(&m);
	incore_mca_free(&pm);
	free(probe);
	free(s);
}

static void test_incore__codegen(void)
{
	struct kernel *k = parse(JACOBI);
	CHECK(k != NULL);
	int64_t v[2];
	v[kernel_sym_find(k, "M")] = 100;
	v[kernel_sym_find(k, "N")] = 200;
	struct kbound *b = calloc(1, sizeof(*b));
	struct as_error err = { 0 };
	CHECK(kernel_bind(k, v, 64, b, &err) == 0);
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	CHECK(incore_codegen(k, b, JACOBI, strlen(JACOBI), 1, f, &err) == 0);
	fclose(f);
	CHECK(strstr(buf, "#define M 100L") && strstr(buf, "#define N 200L"));
	CHECK(strstr(buf, "double (*restrict a)[(1L*N)]"));
	CHECK(strstr(buf, "#line 5 \"k.c\"\nfor (int j = 1;"));
	CHECK(strstr(buf, "archscope_alloc(160000ULL, 0U)") && strstr(buf, "archscope_alloc(160000ULL, 256U)"));
	CHECK(strstr(buf, "madvise(p, total, MADV_HUGEPAGE)"));
	CHECK(strstr(buf, "seconds_per_call"));
	free(buf);
	free(b);
	kernel_free(k);
}

/* Line-crossing accesses: which streams of a vector loop start off the vector width, per row */
static struct kbound *bind2(struct kernel *k, int64_t m, int64_t n)
{
	int64_t v[2];
	v[kernel_sym_find(k, "M")] = m;
	v[kernel_sym_find(k, "N")] = n;
	struct kbound *b = calloc(1, sizeof(*b));
	struct as_error err = { 0 };
	if (b && kernel_bind(k, v, 64, b, &err)) {
		free(b);
		return NULL;
	}
	return b;
}

static void test_incore__split_count(void)
{
	struct kernel *k = parse(JACOBI);
	CHECK(k != NULL);
	double ld, st;
	/* N = 184: every row starts on a line (184 x 8 B = 23 lines); i starts at 1, so a[j][i-1] is
	 * aligned and a[j][i+1], a[j-1][i], a[j+1][i] and the store b[j][i] are not, with zmm */
	struct kbound *b = bind2(k, 184, 184);
	CHECK(b != NULL);
	incore_split_count(k, b, 64, &ld, &st);
	CHECK(fabs(ld - 3.0) < 1e-9 && fabs(st - 1.0) < 1e-9);
	/* ymm: a[j][i+1] starts 16 B into the line, off the 32 B width; a[j][i-1] on it */
	incore_split_count(k, b, 32, &ld, &st);
	CHECK(fabs(ld - 3.0) < 1e-9 && fabs(st - 1.0) < 1e-9);
	/* xmm: a[j][i+1] starts on 16 B, a[j][i-1] too; the odd offsets (a[j+-1][i], b) do not */
	incore_split_count(k, b, 16, &ld, &st);
	CHECK(fabs(ld - 2.0) < 1e-9 && fabs(st - 1.0) < 1e-9);
	free(b);
	/* N = 181: a row is 1448 B, 40 B past a line, so rows start on 8 different offsets and each
	 * stream is on the 64 B width in one row of 8 (the 64 sampled rows: 8 of them) */
	b = bind2(k, 181, 181);
	CHECK(b != NULL);
	incore_split_count(k, b, 64, &ld, &st);
	CHECK(fabs(ld - 3.5) < 1e-9 && fabs(st - 0.875) < 1e-9);
	incore_split_count(k, b, 0, &ld, &st); /* scalar: nothing spans two lines */
	CHECK(ld == 0 && st == 0);
	free(b);
	kernel_free(k);
	/* the triad: every stream starts on element 0 of an aligned array */
	k = parse(TRIAD);
	CHECK(k != NULL);
	int64_t v[1] = { 1000 };
	b = calloc(1, sizeof(*b));
	struct as_error err = { 0 };
	CHECK(b && kernel_bind(k, v, 64, b, &err) == 0);
	incore_split_count(k, b, 64, &ld, &st);
	CHECK(ld == 0 && st == 0);
	free(b);
	kernel_free(k);
}

static void test_incore__loop_vector_bytes(void)
{
	const char *files[2] = { "jacobi-clang-sandybridge.s", "triad-gcc-cooperlake.s" };
	const int want[2] = { 16, 64 }; /* clang's loads are xmm halves (vinsertf128); gcc's zmm */
	for (int i = 0; i < 2; i++) {
		char *s = fixture(files[i]);
		CHECK(s != NULL);
		struct asm_loop l;
		struct as_error err = { 0 };
		CHECK(incore_find_loop(s, "archscope_kernel", &l, &err) == 0);
		CHECK(incore_loop_vector_bytes(&l) == want[i]);
		incore_loop_free(&l);
		free(s);
	}
	struct asm_loop l = { .text = (char *)".L2:\n\tvmovsd (%rax), %xmm0\n\tvaddsd 8(%rax), %xmm0, %xmm0\n\tjne .L2\n" };
	CHECK(incore_loop_vector_bytes(&l) == 0);
}

/* Loads and stores at probed costs: the sum, less what the loop doing both showed to overlap */
static void test_incore__memops(void)
{
	struct incore_split c = { .width_bits = 512, .load_cy = 0.5, .store_cy = 1.0, .mixed_cy = 1.0 };
	/* a load and a store cost no more than the store: the loads hide under the stores */
	CHECK(fabs(incore_memops_cy(&c, 4, 1) - 2.0) < 1e-12); /* 4 x 0.5 + 1 - 1 x min(2, 1) */
	CHECK(fabs(incore_memops_cy(&c, 1, 1) - 1.0) < 1e-12);
	/* they cost the sum: no overlap */
	c.mixed_cy = 1.5;
	CHECK(fabs(incore_memops_cy(&c, 4, 1) - 3.0) < 1e-12);
	/* half overlapping; a mixed cost above the sum (noise) is no overlap, below the larger one full */
	c.mixed_cy = 1.25;
	CHECK(fabs(incore_memops_cy(&c, 1, 1) - 1.25) < 1e-12);
	c.mixed_cy = 2.0;
	CHECK(fabs(incore_memops_cy(&c, 1, 1) - 1.5) < 1e-12);
	c.mixed_cy = 0.7;
	CHECK(fabs(incore_memops_cy(&c, 1, 1) - 1.0) < 1e-12);
	c.mixed_cy = 0; /* not measured: nothing to say */
	CHECK(incore_memops_cy(&c, 4, 1) == 0);
}

static void test_incore__config(void)
{
	/* Kerncraft's omap lists, a compiler the file does not list, probed latencies */
	static const char y[] = "in-core model: !!omap\n  - IACA: SKX\n  - LLVM-MCA: -mcpu=skylake-avx512 -x\n"
				"compiler: !!omap\n- no-such-cc-1: -O1\n- sh: -O3 -march=skylake-avx512\n"
				"overlapping model:\n  ports:\n    LLVM-MCA: [SKXPort0, SKXPort1]\n"
				"non-overlapping model:\n  ports:\n    LLVM-MCA: [SKXPort2, SKXPort3]\n"
				"archscope:\n  probes:\n    instr:\n      ops:\n"
				"        - {op: add, type: double, width_bits: 64, latency_cy: 3.0}\n"
				"        - {op: mul, type: double, width_bits: 64, latency_cy: -2}\n"
				"      line_split:\n"
				"        - {width_bits: 512, load_cy: 0.5, load_split_cy: 1.1, store_cy: 1.0, store_split_cy: 1.7, mixed_cy: 1.0}\n"
				"        - {width_bits: 256, load_cy: 0.5, load_split_cy: -1, store_cy: 1.0, store_split_cy: 1.7}\n";
	struct mtree t;
	struct as_error err = { 0 };
	CHECK(mtree_parse(y, strlen(y), "m.yml", &t, &err) == 0);
	struct incore_config cfg;
	incore_config_read(&t, NULL, &cfg); /* the first installed: sh */
	CHECK(!strcmp(cfg.compiler, "sh") && !strcmp(cfg.flags, "-O3 -march=skylake-avx512"));
	CHECK(!strcmp(cfg.mcpu, "skylake-avx512"));
	CHECK(cfg.n_ol == 2 && !strcmp(cfg.ol[1], "SKXPort1") && cfg.n_nol == 2 && !strcmp(cfg.nol[0], "SKXPort2"));
	CHECK(cfg.nops == 1 && !strcmp(cfg.op[0].op, "add") && cfg.op[0].width_bits == 64 && cfg.op[0].latency_cy == 3.0);
	CHECK(cfg.nsplit == 1 && cfg.split[0].width_bits == 512 && cfg.split[0].load_split_cy == 1.1 &&
	      cfg.split[0].store_split_cy == 1.7); /* the row with a negative cost is left out */
	CHECK(cfg.split[0].mixed_cy == 1.0);
	incore_config_read(&t, "no-such-cc-1", &cfg);
	CHECK(!strcmp(cfg.compiler, "no-such-cc-1") && !strcmp(cfg.flags, "-O1"));
	incore_config_read(&t, "icx", &cfg);
	CHECK(!strcmp(cfg.compiler, "icx") && !strcmp(cfg.flags, "-O3 -march=native"));
	mtree_free(&t);
	CHECK(mtree_parse("isa: x86\n", 9, "m.yml", &t, &err) == 0);
	incore_config_read(&t, NULL, &cfg);
	CHECK(!strcmp(cfg.compiler, "cc") && !cfg.mcpu[0] && cfg.n_ol == 0 && cfg.n_nol == 0 && cfg.nops == 0);
	mtree_free(&t);
}

TESTS(T(test_incore__config), T(test_incore__loop_clang_avx), T(test_incore__loop_gcc_avx512), T(test_incore__unroll_invariant_access),
      T(test_incore__chain),       T(test_incore__mca_file_ports),
      T(test_incore__mca_load_ports), T(test_incore__codegen), T(test_incore__split_count),
      T(test_incore__loop_vector_bytes), T(test_incore__memops))
