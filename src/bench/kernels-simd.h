/* The kernel bodies once, for every vector width: kernels.c includes this file once per ISA with
 * the macros below defined (VT vector type, W doubles per vector, LOAD/STORE aligned, NTSTORE
 * non-temporal, SET1, ADD, MUL, FMA (x*y + z; fused where the ISA has it), KEEP forces a loaded vector to exist, HSUM horizontal sum).
 * Four vectors per iteration: enough independent loads and stores to fill the ports. */
#ifndef ARCHSCOPE_BENCH_KERNEL_LIST
#define ARCHSCOPE_BENCH_KERNEL_LIST
/* The kernels' metadata, once, beside their bodies below (struct bench_kernel, kernels.h): per
 * kernel K(..., name, reads, writes, read+writes, flops, nt, formula), where ... are the caller's
 * arguments passed through and nt 1 says the kernel has a non-temporal twin FN(name_nt) (the SIMD
 * variants list it after the kernel, as "<variant>-nt"). kernels-scalar.c and kernels.c expand
 * this list into their tables; a new kernel is a body below and a row here. */
#define BENCH_KERNEL_LIST(K, ...)                                                                  \
	K(__VA_ARGS__, load, 1, 0, 0, 0, 0, "load a[i]")                                           \
	K(__VA_ARGS__, store, 0, 1, 0, 0, 1, "a[i] = s")                                           \
	K(__VA_ARGS__, copy, 1, 1, 0, 0, 1, "a[i] = b[i]")                                         \
	K(__VA_ARGS__, update, 0, 0, 1, 1, 0, "a[i] = s * a[i]")                                   \
	K(__VA_ARGS__, stream, 2, 1, 0, 2, 0, "a[i] = b[i] + s * c[i]")                            \
	K(__VA_ARGS__, triad, 3, 1, 0, 2, 1, "a[i] = b[i] + c[i] * d[i]")                          \
	K(__VA_ARGS__, daxpy, 1, 0, 1, 2, 0, "a[i] = a[i] + s * b[i]")                             \
	K(__VA_ARGS__, sum, 1, 0, 0, 1, 0, "s += a[i]")                                            \
	K(__VA_ARGS__, ddot, 2, 0, 0, 2, 0, "s += a[i] * b[i]")
#endif

#define STEP (4 * W)
/* A kernel that writes a[i] = VALUE(offset) for the four vectors of a step through ST (STORE, or
 * NTSTORE for a non-temporal twin), then runs END (FENCE() after non-temporal stores, else
 * (void)0); the arguments after END declare the arrays it reads and writes. Written out, not a
 * loop, so -O2 unrolls. */
#define WRITE_KERNEL(name, ST, VALUE, END, ...)                                                    \
	static ATTR double FN(name)(double *const *arr, size_t n, double s)                        \
	{                                                                                          \
		__VA_ARGS__;                                                                       \
		VT vs = SET1(s);                                                                   \
		(void)vs;                                                                          \
		for (size_t i = 0; i < n; i += STEP) {                                             \
			ST(a + i, VALUE(0)); ST(a + i + W, VALUE(W));                              \
			ST(a + i + 2 * W, VALUE(2 * W)); ST(a + i + 3 * W, VALUE(3 * W));          \
		}                                                                                  \
		END;                                                                               \
		return 0;                                                                          \
	}
/* What each writing kernel stores at offset j of the step at i (the formulas of the list above). */
#define V_STORE(j) vs
#define V_COPY(j) LOAD(b + i + (j))
#define V_UPDATE(j) MUL(vs, LOAD(a + i + (j)))
#define V_STREAM(j) FMA(vs, LOAD(c + i + (j)), LOAD(b + i + (j)))
#define V_TRIAD(j) FMA(LOAD(c + i + (j)), LOAD(d + i + (j)), LOAD(b + i + (j)))
#define V_DAXPY(j) FMA(vs, LOAD(b + i + (j)), LOAD(a + i + (j)))

static ATTR double FN(load)(double *const *arr, size_t n, double s)
{
	const double *a = arr[0];
	(void)s;
	for (size_t i = 0; i < n; i += STEP) {
		VT v0 = LOAD(a + i), v1 = LOAD(a + i + W), v2 = LOAD(a + i + 2 * W), v3 = LOAD(a + i + 3 * W);
		KEEP(v0); KEEP(v1); KEEP(v2); KEEP(v3);
	}
	return 0;
}

WRITE_KERNEL(store, STORE, V_STORE, (void)0, double *a = arr[0])
WRITE_KERNEL(store_nt, NTSTORE, V_STORE, FENCE(), double *a = arr[0])
WRITE_KERNEL(copy, STORE, V_COPY, (void)0, double *a = arr[0]; const double *b = arr[1])
WRITE_KERNEL(copy_nt, NTSTORE, V_COPY, FENCE(), double *a = arr[0]; const double *b = arr[1])
WRITE_KERNEL(update, STORE, V_UPDATE, (void)0, double *a = arr[0])
WRITE_KERNEL(stream, STORE, V_STREAM, (void)0, double *a = arr[0]; const double *b = arr[1], *c = arr[2])
WRITE_KERNEL(triad, STORE, V_TRIAD, (void)0, double *a = arr[0]; const double *b = arr[1], *c = arr[2], *d = arr[3])
WRITE_KERNEL(triad_nt, NTSTORE, V_TRIAD, FENCE(), double *a = arr[0]; const double *b = arr[1], *c = arr[2], *d = arr[3])
WRITE_KERNEL(daxpy, STORE, V_DAXPY, (void)0, double *a = arr[0]; const double *b = arr[1])

static ATTR double FN(sum)(double *const *arr, size_t n, double s)
{
	const double *a = arr[0];
	VT s0 = SET1(0), s1 = SET1(0), s2 = SET1(0), s3 = SET1(0);
	(void)s;
	for (size_t i = 0; i < n; i += STEP) {
		s0 = ADD(s0, LOAD(a + i)); s1 = ADD(s1, LOAD(a + i + W));
		s2 = ADD(s2, LOAD(a + i + 2 * W)); s3 = ADD(s3, LOAD(a + i + 3 * W));
	}
	return HSUM(ADD(ADD(s0, s1), ADD(s2, s3)));
}

static ATTR double FN(ddot)(double *const *arr, size_t n, double s)
{
	const double *a = arr[0], *b = arr[1];
	VT s0 = SET1(0), s1 = SET1(0), s2 = SET1(0), s3 = SET1(0);
	(void)s;
	for (size_t i = 0; i < n; i += STEP) {
		s0 = FMA(LOAD(a + i), LOAD(b + i), s0);
		s1 = FMA(LOAD(a + i + W), LOAD(b + i + W), s1);
		s2 = FMA(LOAD(a + i + 2 * W), LOAD(b + i + 2 * W), s2);
		s3 = FMA(LOAD(a + i + 3 * W), LOAD(b + i + 3 * W), s3);
	}
	return HSUM(ADD(ADD(s0, s1), ADD(s2, s3)));
}

#undef STEP
#undef WRITE_KERNEL
#undef V_STORE
#undef V_COPY
#undef V_UPDATE
#undef V_STREAM
#undef V_TRIAD
#undef V_DAXPY
