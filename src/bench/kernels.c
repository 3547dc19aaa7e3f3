/* SSE, AVX2, AVX2+FMA and AVX-512 variants of the streaming kernels (bodies in kernels-simd.h), each built
 * for its ISA with a target attribute and run only where __builtin_cpu_supports says so. */
#include <string.h>

#include "bench/kernels-scalar.h"
#include "bench/kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define KEEP(v) __asm__ volatile("" ::"v"(v))
#define FENCE() _mm_sfence()

#define VT __m128d
#define W 2
#define ATTR __attribute__((target("sse2"), unused))
#define FN(name) sse_##name
#define LOAD(p) _mm_load_pd(p)
#define STORE(p, v) _mm_store_pd((p), (v))
#define NTSTORE(p, v) _mm_stream_pd((p), (v))
#define SET1(x) _mm_set1_pd(x)
#define ADD(x, y) _mm_add_pd((x), (y))
#define MUL(x, y) _mm_mul_pd((x), (y))
#define FMA(x, y, z) ADD(MUL((x), (y)), (z))
#define HSUM(x) (_mm_cvtsd_f64(x) + _mm_cvtsd_f64(_mm_unpackhi_pd((x), (x))))
#include "bench/kernels-simd.h"
#include "bench/kernels-undef.h"

#define VT __m256d
#define W 4
#define ATTR __attribute__((target("avx2"), unused))
#define FN(name) avx2_##name
#define LOAD(p) _mm256_load_pd(p)
#define STORE(p, v) _mm256_store_pd((p), (v))
#define NTSTORE(p, v) _mm256_stream_pd((p), (v))
#define SET1(x) _mm256_set1_pd(x)
#define ADD(x, y) _mm256_add_pd((x), (y))
#define MUL(x, y) _mm256_mul_pd((x), (y))
#define FMA(x, y, z) ADD(MUL((x), (y)), (z)) /* AVX2 alone does not promise FMA */
#define HSUM(x) avx2_hsum(x)
static __attribute__((target("avx2"))) double avx2_hsum(__m256d x)
{
	__m128d lo = _mm256_castpd256_pd128(x), hi = _mm256_extractf128_pd(x, 1);
	lo = _mm_add_pd(lo, hi);
	return _mm_cvtsd_f64(lo) + _mm_cvtsd_f64(_mm_unpackhi_pd(lo, lo));
}
#include "bench/kernels-simd.h"
/* AVX2 with FMA3: the same 256-bit kernels (the macros above stay), fused where a kernel multiplies
 * and adds. Every AVX2 core from Intel and AMD has FMA3, but the ISA does not promise it, so it is
 * its own variant. */
#undef ATTR
#undef FN
#undef FMA
#define ATTR __attribute__((target("avx2,fma"), unused))
#define FN(name) avx2fma_##name
#define FMA(x, y, z) _mm256_fmadd_pd((x), (y), (z))
#include "bench/kernels-simd.h"
#include "bench/kernels-undef.h"

#define VT __m512d
#define W 8
#define ATTR __attribute__((target("avx512f"), unused))
#define FN(name) avx512_##name
#define LOAD(p) _mm512_load_pd(p)
#define STORE(p, v) _mm512_store_pd((p), (v))
#define NTSTORE(p, v) _mm512_stream_pd((p), (v))
#define SET1(x) _mm512_set1_pd(x)
#define ADD(x, y) _mm512_add_pd((x), (y))
#define MUL(x, y) _mm512_mul_pd((x), (y))
#define FMA(x, y, z) _mm512_fmadd_pd((x), (y), (z))
#define HSUM(x) _mm512_reduce_add_pd(x)
#include "bench/kernels-simd.h"

/* A variant's rows from kernels-simd.h's list: each kernel, then its non-temporal twin where it
 * has one. */
#define SIMD_ROW(v, isa, name, r, w, rw, f, nt, formula) \
	{ #name, #v, isa, r, w, rw, f, 0, formula, v##_##name }, SIMD_NT_##nt(v, isa, name, r, w, rw, f, formula)
#define SIMD_NT_0(...)
#define SIMD_NT_1(v, isa, name, r, w, rw, f, formula) \
	{ #name, #v "-nt", isa, r, w, rw, f, 1, formula " (non-temporal)", v##_##name##_nt },
#define ROWS(v, isa) BENCH_KERNEL_LIST(SIMD_ROW, v, isa)

static const struct bench_kernel simd_kernels[] = { ROWS(sse, "sse2") ROWS(avx2, "avx2") ROWS(avx2fma, "avx2+fma")
						    ROWS(avx512, "avx512f") };
#define NSIMD (sizeof(simd_kernels) / sizeof(simd_kernels[0]))
#else
static const struct bench_kernel simd_kernels[1];
#define NSIMD 0
#endif

/* One table, scalar first, then by growing width: the last supported row of a name is the
 * widest. Filled on first use from the two sources. */
static struct bench_kernel all[96];
static size_t nall;

static void fill(void)
{
	if (nall)
		return;
	_Static_assert(sizeof(all) / sizeof(all[0]) >= NSIMD + 16, "kernel table too small");
	for (size_t i = 0; i < bench_nkernels_scalar && nall < sizeof(all) / sizeof(all[0]); i++)
		all[nall++] = bench_kernels_scalar[i];
	for (size_t i = 0; i < NSIMD && nall < sizeof(all) / sizeof(all[0]); i++)
		all[nall++] = simd_kernels[i];
}

const struct bench_kernel *bench_kernel_table(size_t *n)
{
	fill();
	*n = nall;
	return all;
}

int bench_kernel_supported(const struct bench_kernel *k)
{
	if (!k->isa)
		return 1;
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (!strcmp(k->isa, "sse2"))
		return __builtin_cpu_supports("sse2");
	if (!strcmp(k->isa, "avx2"))
		return __builtin_cpu_supports("avx2");
	if (!strcmp(k->isa, "avx2+fma"))
		return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
	if (!strcmp(k->isa, "avx512f"))
		return __builtin_cpu_supports("avx512f");
#endif
	return 0;
}

const struct bench_kernel *bench_kernel_find(const char *name, const char *variant)
{
	fill();
	for (size_t i = 0; i < nall; i++)
		if (!strcmp(all[i].name, name) && !strcmp(all[i].variant, variant))
			return &all[i];
	return NULL;
}

const struct bench_kernel *bench_kernel_best(const char *name)
{
	fill();
	const struct bench_kernel *best = NULL;
	for (size_t i = 0; i < nall; i++)
		if (!strcmp(all[i].name, name) && !all[i].nontemporal && bench_kernel_supported(&all[i]))
			best = &all[i];
	return best;
}
