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
/* body(o) for the four vectors at offsets 0, W, 2W, 3W: written out, not a loop, so -O2 unrolls. */
#define UNROLL4(body) do { body(0); body(W); body(2 * W); body(3 * W); } while (0)

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

static ATTR double FN(store)(double *const *arr, size_t n, double s)
{
	double *a = arr[0];
	VT vs = SET1(s);
	for (size_t i = 0; i < n; i += STEP) {
		STORE(a + i, vs); STORE(a + i + W, vs); STORE(a + i + 2 * W, vs); STORE(a + i + 3 * W, vs);
	}
	return 0;
}

static ATTR double FN(store_nt)(double *const *arr, size_t n, double s)
{
	double *a = arr[0];
	VT vs = SET1(s);
	for (size_t i = 0; i < n; i += STEP) {
		NTSTORE(a + i, vs); NTSTORE(a + i + W, vs); NTSTORE(a + i + 2 * W, vs); NTSTORE(a + i + 3 * W, vs);
	}
	FENCE();
	return 0;
}

static ATTR double FN(copy)(double *const *arr, size_t n, double s)
{
	double *a = arr[0];
	const double *b = arr[1];
	(void)s;
	for (size_t i = 0; i < n; i += STEP) {
		STORE(a + i, LOAD(b + i)); STORE(a + i + W, LOAD(b + i + W));
		STORE(a + i + 2 * W, LOAD(b + i + 2 * W)); STORE(a + i + 3 * W, LOAD(b + i + 3 * W));
	}
	return 0;
}

static ATTR double FN(copy_nt)(double *const *arr, size_t n, double s)
{
	double *a = arr[0];
	const double *b = arr[1];
	(void)s;
	for (size_t i = 0; i < n; i += STEP) {
		NTSTORE(a + i, LOAD(b + i)); NTSTORE(a + i + W, LOAD(b + i + W));
		NTSTORE(a + i + 2 * W, LOAD(b + i + 2 * W)); NTSTORE(a + i + 3 * W, LOAD(b + i + 3 * W));
	}
	FENCE();
	return 0;
}

static ATTR double FN(update)(double *const *arr, size_t n, double s)
{
	double *a = arr[0];
	VT vs = SET1(s);
#define B(j) STORE(a + i + (j), MUL(vs, LOAD(a + i + (j))))
	for (size_t i = 0; i < n; i += STEP)
		UNROLL4(B);
#undef B
	return 0;
}

static ATTR double FN(stream)(double *const *arr, size_t n, double s)
{
	double *a = arr[0];
	const double *b = arr[1], *c = arr[2];
	VT vs = SET1(s);
#define B(j) STORE(a + i + (j), FMA(vs, LOAD(c + i + (j)), LOAD(b + i + (j))))
	for (size_t i = 0; i < n; i += STEP)
		UNROLL4(B);
#undef B
	return 0;
}

static ATTR double FN(triad)(double *const *arr, size_t n, double s)
{
	double *a = arr[0];
	const double *b = arr[1], *c = arr[2], *d = arr[3];
	(void)s;
#define B(j) STORE(a + i + (j), FMA(LOAD(c + i + (j)), LOAD(d + i + (j)), LOAD(b + i + (j))))
	for (size_t i = 0; i < n; i += STEP)
		UNROLL4(B);
#undef B
	return 0;
}

static ATTR double FN(triad_nt)(double *const *arr, size_t n, double s)
{
	double *a = arr[0];
	const double *b = arr[1], *c = arr[2], *d = arr[3];
	(void)s;
#define B(j) NTSTORE(a + i + (j), FMA(LOAD(c + i + (j)), LOAD(d + i + (j)), LOAD(b + i + (j))))
	for (size_t i = 0; i < n; i += STEP)
		UNROLL4(B);
#undef B
	FENCE();
	return 0;
}

static ATTR double FN(daxpy)(double *const *arr, size_t n, double s)
{
	double *a = arr[0];
	const double *b = arr[1];
	VT vs = SET1(s);
#define B(j) STORE(a + i + (j), FMA(vs, LOAD(b + i + (j)), LOAD(a + i + (j))))
	for (size_t i = 0; i < n; i += STEP)
		UNROLL4(B);
#undef B
	return 0;
}

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
#undef UNROLL4
