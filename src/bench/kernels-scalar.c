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

/* The scalar rows of kernels-simd.h's list (no non-temporal twins: a scalar store is a store). */
#define SCALAR_ROW(unused, name, r, w, rw, f, nt, formula) { #name, "scalar", NULL, r, w, rw, f, 0, formula, scalar_##name },
const struct bench_kernel bench_kernels_scalar[] = { BENCH_KERNEL_LIST(SCALAR_ROW, 0) };
const size_t bench_nkernels_scalar = sizeof(bench_kernels_scalar) / sizeof(bench_kernels_scalar[0]);
