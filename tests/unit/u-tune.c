/* Unit tests of tune/: block.c, the optimisation of BlackjackBench §6 on register counts and L1
 * sizes whose optima were worked out by hand (comments), and the paper's own example; the machine
 * file input, the ISA choice, the generated source, the stencil plan and its sweep. */
#include <errno.h>
#include <stdlib.h>

#include "harness.h"
#include "machine/file.h"
#include "machine/mtree.h"
#include "tune/block.h"
#include "tune/gemm.h"
#include "tune/gen.h"
#include "tune/input.h"
#include "tune/isa.h"
#include "tune/stencil.h"

static void test_tune__ratio(void)
{
	CHECK_NEAR(tune_block_ratio(3, 3, 1), 18.0 / 33.0, 1e-15);
	CHECK_NEAR(tune_block_ratio(4, 2, 1), 16.0 / 30.0, 1e-15);
	CHECK_NEAR(tune_block_ratio(2, 2, 2), 16.0 / 28.0, 1e-15);
	CHECK(tune_block_ratio(0, 3, 1) == 0);
}

/* (m + 1)(n + 1) <= R + 1; by hand: R = 8 -> 2x2 (0.5 beats 1x3's 6/13); R = 16 -> 3x3 (18/33,
 * the paper's); R = 32 -> 5x4 and 4x5 tie at 40/69, the larger m wins, 3x7 has 42/73; R = 4096 ->
 * 63x63 (64 x 62 = 3968 < 3969, the paper's); R = 6144 -> 82x73, not the square 77x77: 83 * 74 =
 * 6142 <= 6145 and 1/82 + 1/73 = 0.025894 < 2/77 = 0.025974 (the ratio is 2 / (3 + 1/m + 1/n)). */
static void test_tune__solve_hand_checked(void)
{
	static const struct {
		long r;
		int m, n;
	} want[] = { { 8, 2, 2 }, { 16, 3, 3 }, { 32, 5, 4 }, { 4096, 63, 63 }, { 6144, 82, 73 }, { 3, 1, 1 } };
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct tune_block b;
		CHECK(tune_block_solve(want[i].r, &b, NULL) == 0);
		if (b.m != want[i].m || b.n != want[i].n || b.k != 1)
			printf("# R = %ld: got %d x %d x %d, want %d x %d x 1\n", want[i].r, b.m, b.n, b.k, want[i].m,
			       want[i].n);
		CHECK(b.m == want[i].m && b.n == want[i].n && b.k == 1);
		CHECK(b.m * b.n + b.m + b.n <= want[i].r);
	}
	struct tune_block b;
	struct as_error err = { 0 };
	CHECK(tune_block_solve(2, &b, &err) == -EINVAL);
	CHECK(strstr(err.msg, "too small") != NULL);
}

/* The O(sqrt(R)) solver finds what trying every m finds (ties to the larger m), and a huge
 * capacity is answered at once or refused, never looped over for hours. */
static void test_tune__solve_bounded(void)
{
	for (long r = 3; r <= 3000; r++) {
		struct tune_block b, want = { 0, 0, 0 };
		double best = -1;
		for (long m = 1; m + m + 1 <= r; m++) {
			long n = (r + 1) / (m + 1) - 1;
			double q = tune_block_ratio((int)m, (int)n, 1);
			if (q > best + 1e-12 || (fabs(q - best) <= 1e-12 && m > want.m)) {
				best = q;
				want = (struct tune_block){ (int)m, (int)n, 1 };
			}
		}
		CHECK(tune_block_solve(r, &b, NULL) == 0);
		if (b.m != want.m || b.n != want.n)
			printf("# R = %ld: got %d x %d, every m gives %d x %d\n", r, b.m, b.n, want.m, want.n);
		CHECK(b.m == want.m && b.n == want.n);
	}
	struct tune_block b;
	struct as_error err = { 0 };
	CHECK(tune_block_solve(TUNE_BLOCK_MAX_CAPACITY, &b, &err) == 0); /* 46341 steps, not 10^9 */
	CHECK((long)b.m * b.n + b.m + b.n <= TUNE_BLOCK_MAX_CAPACITY && b.m >= 46000 && b.n >= 46000);
	CHECK(tune_block_solve(TUNE_BLOCK_MAX_CAPACITY + 1, &b, &err) == -EINVAL && strstr(err.msg, "beyond"));
}

/* The paper's Core i7: 16 registers, 32 KiB L1, 64 B lines -> 3x3x1 and 63x63x1, adjusted to
 * 4x2x1 and m = n = 56 (59 with room for 8 doubles per strided element, 56 a multiple of 4). */
static void test_tune__paper_core_i7(void)
{
	struct tune_blocking b;
	struct tune_machine tm = { .registers = 16, .vector_doubles = 1, .l1_bytes = 32768, .line_bytes = 64 };
	CHECK(tune_blocking_plan(&tm, &b, NULL) == 0);
	CHECK(b.reg_solved.m == 3 && b.reg_solved.n == 3 && b.reg_solved.k == 1);
	CHECK(b.reg.m == 4 && b.reg.n == 2 && b.reg.k == 1);
	CHECK(b.l1_solved.m == 63 && b.l1_solved.n == 63);
	CHECK(b.l1_line_limit == 59);
	CHECK(b.l1.m == 56 && b.l1.n == 56 && b.l1.k == 1);
	CHECK(b.predicted_best_n == 56);
	CHECK(b.nreasoning >= 4);
}

/* Vector registers: AVX-512 (32 registers of 8 doubles, 48 KiB L1): 5x4 vectors solved; powers of
 * two in elements: 4 vectors x 4 (32 rows, 24 registers) beats 2x8 and 8x2 (32/58); L1 6144
 * doubles: 82x73, lines: 74^2 + 9*74 = 6142 -> 74 -> multiple of 32 -> 64. AVX2 (16 of 4, 32 KiB):
 * 4 vectors x 2 = 16 x 2 (ties 2x4, larger m), 59 -> 48. SSE2 (16 of 2): 8 x 2, 59 -> 56. */
static void test_tune__vector_isas(void)
{
	struct tune_blocking b;
	struct tune_machine avx512 = { 32, 8, 49152, 64 };
	CHECK(tune_blocking_plan(&avx512, &b, NULL) == 0);
	CHECK(b.reg_solved.m == 5 && b.reg_solved.n == 4);
	CHECK(b.reg_m_vectors == 4 && b.reg.m == 32 && b.reg.n == 4 && b.reg_registers_used == 24);
	CHECK(b.l1_solved.m == 82 && b.l1_solved.n == 73 && b.l1_line_limit == 74 && b.predicted_best_n == 64);
	struct tune_machine avx2 = { 16, 4, 32768, 64 };
	CHECK(tune_blocking_plan(&avx2, &b, NULL) == 0);
	CHECK(b.reg_m_vectors == 4 && b.reg.m == 16 && b.reg.n == 2 && b.predicted_best_n == 48);
	struct tune_machine sse2 = { 16, 2, 32768, 64 };
	CHECK(tune_blocking_plan(&sse2, &b, NULL) == 0);
	CHECK(b.reg.m == 8 && b.reg.n == 2 && b.predicted_best_n == 56);
	/* a larger (noisy) probed count, 42: 6x5 solved, still 4x4 vectors with powers of two (8x4 needs 44) */
	struct tune_machine wide = { 42, 8, 49152, 64 };
	CHECK(tune_blocking_plan(&wide, &b, NULL) == 0);
	CHECK(b.reg_solved.m == 6 && b.reg_solved.n == 5);
	CHECK(b.reg.m == 32 && b.reg.n == 4);
}

static void test_tune__bad_input(void)
{
	struct tune_blocking b;
	struct as_error err = { 0 };
	struct tune_machine noregs = { 0, 8, 49152, 64 };
	CHECK(tune_blocking_plan(&noregs, &b, &err) == -EINVAL);
	CHECK(strstr(err.msg, "register") != NULL);
	struct tune_machine nol1 = { 32, 8, 0, 64 };
	CHECK(tune_blocking_plan(&nol1, &b, &err) == -EINVAL);
	CHECK(strstr(err.msg, "L1") != NULL);
	/* 2 KiB = 256 doubles: 12^2 + 9*12 = 252, smaller than a 32-row register block */
	struct tune_machine tiny = { 32, 8, 2048, 64 };
	CHECK(tune_blocking_plan(&tiny, &b, &err) == -EINVAL);
	CHECK(strstr(err.msg, "smaller than the register block") != NULL);
}

/* The generated source: every block shape up to the register block, the ISA's intrinsics, the
 * driver's exported name; SSE2 (no FMA) multiplies and subtracts. */
static void test_tune__generated_source(void)
{
	char *src = tune_gen_source(TUNE_ISA_AVX512, 4, 4);
	CHECK(src != NULL);
	CHECK(strstr(src, "#include <immintrin.h>") != NULL);
	CHECK(strstr(src, "static void mk_4_4(") != NULL && strstr(src, "static void mk_1_1(") != NULL);
	CHECK(strstr(src, "static void mk_5_") == NULL && strstr(src, "mk_4_5") == NULL);
	CHECK(strstr(src, "c3_3 = _mm512_fnmadd_pd(a3, b3, c3_3);") != NULL);
	CHECK(strstr(src, "void archscope_tune_gemm(long n,") != NULL);
	CHECK(strstr(src, "i + 32 <= n") != NULL); /* whole register blocks of 4 x 8 rows */
	free(src);
	src = tune_gen_source(TUNE_ISA_SSE2, 4, 2);
	CHECK(src != NULL);
	CHECK(strstr(src, "c0_1 = _mm_sub_pd(c0_1, _mm_mul_pd(a0, b1));") != NULL);
	CHECK(strstr(src, "fnmadd") == NULL);
	free(src);
	CHECK(tune_gen_source(TUNE_ISA_AVX2, 0, 4) == NULL);
}

static void test_tune__isa(void)
{
	CHECK(tune_isa_find("AVX512") == TUNE_ISA_AVX512 && tune_isa_find("sse2") == TUNE_ISA_SSE2);
	CHECK(tune_isa_find("neon") == -1);
	CHECK(tune_isa_get(TUNE_ISA_AVX2)->vector_doubles == 4 && !tune_isa_get(TUNE_ISA_AVX2)->wide_registers);
	setenv("ARCHSCOPE_TUNE_CPU_FLAGS", "sse2 avx2", 1);
	CHECK(tune_isa_present(TUNE_ISA_SSE2) && !tune_isa_present(TUNE_ISA_AVX2)); /* no fma */
	enum tune_isa w;
	CHECK(tune_isa_widest(&w, NULL) == 0 && w == TUNE_ISA_SSE2);
	setenv("ARCHSCOPE_TUNE_CPU_FLAGS", "fma avx512f avx2 sse2", 1);
	CHECK(tune_isa_widest(&w, NULL) == 0 && w == TUNE_ISA_AVX512);
	setenv("ARCHSCOPE_TUNE_CPU_FLAGS", "avx512fx", 1); /* a longer name is not the feature */
	CHECK(!tune_isa_present(TUNE_ISA_AVX512));
	unsetenv("ARCHSCOPE_TUNE_CPU_FLAGS");
}

static const char machine_text[] =
	"model name: synthetic\nclock: 3 GHz\ncores per socket: 1\nsockets: 1\nthreads per core: 1\n"
	"FLOPs per cycle:\n  DP: {total: 32, FMA: 32}\n"
	"memory hierarchy:\n- level: L1\n  cache per group: {sets: 64, ways: 12, cl_size: 64, replacement_policy: LRU, "
	"write_allocate: true, write_back: true, load_from: L2, store_to: L2}\n"
	"  size per group: 48 KiB\n  groups: 1\n  cores per group: 1\n  threads per group: 1\n"
	"- level: L2\n  cache per group: {sets: 1024, ways: 16, cl_size: 64, replacement_policy: LRU, "
	"write_allocate: true, write_back: true, load_from: MEM, store_to: MEM}\n"
	"  size per group: 1 MiB\n  groups: 1\n  cores per group: 1\n  threads per group: 1\n"
	"  upstream throughput: [64 B/cy, half-duplex]\n"
	"- level: MEM\n  groups: 1\n  cores per group: 1\n  threads per group: 1\n"
	"  upstream throughput: [full socket memory bandwidth, half-duplex]\n";

/* The inputs from a machine file: the wide or the narrow register count by ISA, L1 and line. */
static void test_tune__input(void)
{
	char text[4096];
	snprintf(text, sizeof(text), "%sarchscope:\n  probes:\n    registers:\n      fp: {value: 32.0}\n"
				     "      narrow:\n        fp: {value: 16.0}\n", machine_text);
	struct mtree t = { 0 };
	struct machine m;
	CHECK(mtree_parse(text, strlen(text), "x.yaml", &t, NULL) == 0);
	char *report = NULL;
	CHECK(machine_check(&t, "x.yaml", &report) == 0);
	machine_read(&t, &m);
	struct tune_machine tm;
	const char *from = NULL;
	CHECK(tune_input_read(&t, &m, "x.yaml", TUNE_ISA_AVX512, 0, &tm, &from, NULL) == 0);
	CHECK(tm.registers == 32 && tm.vector_doubles == 8 && tm.l1_bytes == 49152 && tm.line_bytes == 64);
	CHECK_STR(from, "archscope.probes.registers.fp");
	CHECK(tune_input_read(&t, &m, "x.yaml", TUNE_ISA_AVX2, 0, &tm, &from, NULL) == 0);
	CHECK(tm.registers == 16 && tm.vector_doubles == 4);
	CHECK_STR(from, "archscope.probes.registers.narrow.fp");
	CHECK(tune_input_read(&t, &m, "x.yaml", TUNE_ISA_AVX2, 20, &tm, &from, NULL) == 0 && tm.registers == 20);
	mtree_free(&t);
	/* no archscope section: no register count */
	struct as_error err = { 0 };
	CHECK(mtree_parse(machine_text, strlen(machine_text), "k.yaml", &t, NULL) == 0);
	machine_read(&t, &m);
	CHECK(tune_input_read(&t, &m, "k.yaml", TUNE_ISA_AVX512, 0, &tm, &from, &err) == -EINVAL);
	CHECK(strstr(err.msg, "'k.yaml' has no register count") != NULL);
	mtree_free(&t);
	/* a register count read strictly: "32abc" is no count */
	snprintf(text, sizeof(text), "%sarchscope:\n  probes:\n    registers:\n      fp: {value: 32abc}\n", machine_text);
	CHECK(mtree_parse(text, strlen(text), "x.yaml", &t, NULL) == 0);
	machine_read(&t, &m);
	CHECK(tune_input_read(&t, &m, "x.yaml", TUNE_ISA_AVX512, 0, &tm, &from, &err) == -EINVAL);
	CHECK(strstr(err.msg, "registers.fp.value: '32abc' is not a number") != NULL);
	mtree_free(&t);
	/* an L1 beyond what tune plans for */
	struct machine big = m;
	big.level[0].size_bytes = 1099511627776.0; /* 1 TiB */
	snprintf(text, sizeof(text), "%sarchscope:\n  probes:\n    registers:\n      fp: {value: 32}\n", machine_text);
	CHECK(mtree_parse(text, strlen(text), "x.yaml", &t, NULL) == 0);
	CHECK(tune_input_read(&t, &big, "x.yaml", TUNE_ISA_AVX512, 0, &tm, &from, &err) == -EINVAL);
	CHECK(strstr(err.msg, "beyond what tune plans for") != NULL);
	mtree_free(&t);
}

static void gemm_plain(long n, const double *a, const double *b, double *c)
{
	for (long j = 0; j < n; j++)
		for (long p = 0; p < n; p++)
			for (long i = 0; i < n; i++)
				c[i + j * n] -= a[i + p * n] * b[p + j * n];
}

/* C += A*B: the wrong sign */
static void gemm_wrong(long n, const double *a, const double *b, double *c)
{
	for (long j = 0; j < n; j++)
		for (long p = 0; p < n; p++)
			for (long i = 0; i < n; i++)
				c[i + j * n] += a[i + p * n] * b[p + j * n];
}

/* The sweep without OpenBLAS on a correct and a wrong kernel: sizes, repetitions, the check. */
static void test_tune__sweep(void)
{
	struct tune_gemm_opts o = { .nsizes = 3, .sizes = { 8, 16, 24 }, .reps = 3, .min_time_s = 1e-5, .predicted_n = 16,
				    .seed = 1 };
	struct tune_gemm_run *r = calloc(1, sizeof(*r));
	CHECK(r != NULL);
	CHECK(tune_gemm_sweep(&o, gemm_plain, NULL, r, NULL) == 0);
	CHECK(r->n == 3 && r->reps_done == 3 && !r->have_openblas);
	for (int i = 0; i < 3; i++)
		CHECK(r->p[i].tuned.median > 0 && r->p[i].tuned.min <= r->p[i].tuned.median && r->p[i].err_tuned < 1e-12);
	CHECK(r->step == 8 && r->ratio_n == 16 && isnan(r->ratio_at_predicted));
	CHECK(r->peak_n == 8 || r->peak_n == 16 || r->peak_n == 24);
	CHECK(r->peak_near_prediction); /* every size is within one step of 16 */
	struct as_error err = { 0 };
	CHECK(tune_gemm_sweep(&o, gemm_wrong, NULL, r, &err) == -EIO);
	CHECK(strstr(err.msg, "wrong at n = 8") != NULL);
	free(r);
}

/* The stencil's plan on published Zen 5 caches (48 KiB, 1 MiB, 32 MiB): the row condition needs
 * 32*N - 16 bytes (three rows of a and the row of b, as `model` prints it), so it holds up to
 * N = 1536 in L1, 32768 in L2 and 1048576 in L3. At N = 2^21 it fails everywhere: the block is
 * for L3, 1048576 - 2 columns. The quick grid: the first power of two from 1024 breaking L1 is
 * 2048 (65520 B > 49152 B), L2 holds there: blocked for L1, 1534 columns. */
static void test_tune__stencil_plan(void)
{
	struct machine *m = calloc(1, sizeof(*m));
	struct tune_stencil_plan *p = calloc(1, sizeof(*p));
	CHECK(m && p);
	const double sizes[] = { 49152, 1048576, 33554432 };
	const char *names[] = { "L1", "L2", "L3" };
	for (int i = 0; i < 3; i++) {
		snprintf(m->level[i].name, sizeof(m->level[i].name), "%s", names[i]);
		m->level[i].has_cache = 1;
		m->level[i].size_bytes = sizes[i];
		m->level[i].cl_size = 64;
	}
	snprintf(m->level[3].name, sizeof(m->level[3].name), "MEM");
	m->nlevels = 4;
	m->cacheline_bytes = 64;
	struct as_error err = { 0 };
	int rc = tune_stencil_plan(m, 16, 1 << 21, 0, p, &err);
	if (rc)
		printf("# %s\n", err.msg);
	CHECK(rc == 0);
	CHECK(p->nlevels == 3);
	CHECK(p->level[0].width_limit == 1536 && p->level[1].width_limit == 32768 && p->level[2].width_limit == 1048576);
	CHECK(p->target == 2 && p->block == 1048574);
	CHECK(p->level[2].blocked_misses < p->level[2].naive_misses);
	CHECK(p->grid_bytes == 2.0 * 8 * 16 * (1 << 21) && p->grid_bytes > p->last_cache_bytes);
	CHECK(tune_stencil_plan(m, 0, 0, 1, p, &err) == 0);
	CHECK(p->rows == 64 && p->cols == 2048);
	CHECK(p->target == 0 && p->block == 1534);
	CHECK(p->level[0].blocked_misses < p->level[0].naive_misses && p->level[1].naive_misses == p->level[1].blocked_misses);
	free(m);
	free(p);
}

TESTS(T(test_tune__ratio), T(test_tune__solve_hand_checked), T(test_tune__solve_bounded), T(test_tune__paper_core_i7), T(test_tune__vector_isas),
      T(test_tune__bad_input), T(test_tune__generated_source), T(test_tune__isa),
      T(test_tune__input), T(test_tune__sweep), T(test_tune__stencil_plan))
