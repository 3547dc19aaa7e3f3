/* Scalar variants of the streaming kernels, built without auto-vectorisation (see CMakeLists.txt)
 * so that "scalar" means one double per instruction. */
#include "bench/kernels-scalar.h"

#define VT double
#define W 1
#define ATTR __attribute__((unused))
#define FN(name) scalar_##name
#define LOAD(p) (*(p))
#define STORE(p, v) (*(p) = (v))
#define NTSTORE(p, v) (*(p) = (v))
#define FENCE() ((void)0)
#define SET1(x) ((double)(x))
#define ADD(x, y) ((x) + (y))
#define MUL(x, y) ((x) * (y))
#define FMA(x, y, z) ((x) * (y) + (z))
#define HSUM(x) (x)
#if defined(__x86_64__) || defined(__i386__)
#define KEEP(v) __asm__ volatile("" ::"x"(v))
#else
#define KEEP(v) __asm__ volatile("" ::"r"(v))
#endif
#include "bench/kernels-simd.h"

const struct bench_kernel bench_kernels_scalar[] = {
	{ "load", "scalar", NULL, 1, 0, 0, 0, 0, "load a[i]", scalar_load },
	{ "store", "scalar", NULL, 0, 1, 0, 0, 0, "a[i] = s", scalar_store },
	{ "copy", "scalar", NULL, 1, 1, 0, 0, 0, "a[i] = b[i]", scalar_copy },
	{ "update", "scalar", NULL, 0, 0, 1, 1, 0, "a[i] = s * a[i]", scalar_update },
	{ "stream", "scalar", NULL, 2, 1, 0, 2, 0, "a[i] = b[i] + s * c[i]", scalar_stream },
	{ "triad", "scalar", NULL, 3, 1, 0, 2, 0, "a[i] = b[i] + c[i] * d[i]", scalar_triad },
	{ "daxpy", "scalar", NULL, 1, 0, 1, 2, 0, "a[i] = a[i] + s * b[i]", scalar_daxpy },
	{ "sum", "scalar", NULL, 1, 0, 0, 1, 0, "s += a[i]", scalar_sum },
	{ "ddot", "scalar", NULL, 2, 0, 0, 2, 0, "s += a[i] * b[i]", scalar_ddot },
};
const size_t bench_nkernels_scalar = sizeof(bench_kernels_scalar) / sizeof(bench_kernels_scalar[0]);
