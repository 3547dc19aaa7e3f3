/* The generated micro-kernel: C source with intrinsics for an ISA and a register block, compiled
 * at run time into a shared object and loaded. The kernel computes C -= A*B on n x n column-major
 * matrices (leading dimension n), register-blocked, with no cache blocking: its data is meant to
 * live in L1, as the paper's Schur-complement kernel does. */
#ifndef ARCHSCOPE_TUNE_GEN_H
#define ARCHSCOPE_TUNE_GEN_H

#include "common/error.h"
#include "tune/isa.h"

typedef void tune_gemm_fn(long n, const double *a, const double *b, double *c);

/* The source of the kernel: m_vectors vectors x n_cols columns in registers, with every smaller
 * block (m_vectors' <= m_vectors, n' <= n_cols) for the edges and scalar code for rows left over
 * after whole vectors. Exported symbol: archscope_tune_gemm (tune_gemm_fn). Malloc'd, or NULL. */
char *tune_gen_source(enum tune_isa isa, int m_vectors, int n_cols);

struct tune_kernel {
	char dir[256];       /* temporary directory with kernel.c, kernel.so, cc.err */
	char compiler[64];
	char flags[128];
	void *dl;
	tune_gemm_fn *gemm;
	double compile_s;
};

/* Writes the source, compiles it with `compiler` (looked up in PATH) and loads it. Errors: the
 * compiler is missing (-ENOENT, naming it), it failed (-EIO with its first lines), or the object
 * does not load. */
int tune_kernel_build(struct tune_kernel *k, const char *compiler, enum tune_isa isa, int m_vectors, int n_cols,
		      struct as_error *err);
/* Unloads and removes the temporary files. */
void tune_kernel_release(struct tune_kernel *k);

#endif
