/* Streaming kernels (ECM paper §2, likwid-bench and Kerncraft names). Each kernel declares its
 * streams, bytes and flops per iteration once, beside its code (BENCH_KERNEL_LIST in
 * kernels-simd.h): every derived number (GB/s, write-allocate traffic, cycles per cache line,
 * flop/s) comes from that list, expanded into one table per variant. */
#ifndef ARCHSCOPE_BENCH_KERNELS_H
#define ARCHSCOPE_BENCH_KERNELS_H

#include <stddef.h>

#define BENCH_MAX_ARRAYS 4
/* Elements per call are a multiple of this (the widest vector x the unroll factor). */
#define BENCH_ELEM_ALIGN 64

/* One sweep over n doubles of each array; s is the scalar. Returns a value that depends on the
 * data (the reductions' result, else 0) so nothing is dead. */
typedef double (*bench_fn)(double *const *arrays, size_t n, double s);

struct bench_kernel {
	const char *name;     /* load store copy update stream triad daxpy sum ddot */
	const char *variant;  /* scalar sse avx2 avx512, "-nt" appended for non-temporal stores */
	const char *isa;      /* __builtin_cpu_supports name, NULL for scalar */
	int reads;            /* read-only streams */
	int writes;           /* write-only streams (write-allocate unless non-temporal) */
	int rws;              /* read-and-write streams */
	int flops;            /* per iteration (one element of each stream) */
	int nontemporal;
	const char *formula;
	bench_fn fn;
};

/* Every kernel in every variant built here (supported by this CPU or not). */
const struct bench_kernel *bench_kernel_table(size_t *n);

static inline int bench_arrays(const struct bench_kernel *k)
{
	return k->reads + k->writes + k->rws;
}

/* Bytes per iteration the application asks for: 8 per read, per write, 16 per read+write. */
static inline int bench_bytes_app(const struct bench_kernel *k)
{
	return 8 * (k->reads + k->writes + 2 * k->rws);
}

/* Bytes per iteration the memory hierarchy moves: a write-only stream is read first
 * (write-allocate) unless its stores are non-temporal. */
static inline int bench_bytes_real(const struct bench_kernel *k)
{
	return bench_bytes_app(k) + (k->nontemporal ? 0 : 8 * k->writes);
}

/* The fastest variant of `name` this CPU runs (NULL when the name is unknown). */
const struct bench_kernel *bench_kernel_best(const char *name);
/* The kernel `name` in `variant`, or NULL. */
const struct bench_kernel *bench_kernel_find(const char *name, const char *variant);
/* 1 when the CPU can run k. */
int bench_kernel_supported(const struct bench_kernel *k);

#endif
