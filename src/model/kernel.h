/* A loop kernel in the language of Kerncraft (paper §2.1): scalar and array declarations with
 * symbolic sizes, one loop nest, assignments in the innermost body. The parser (kernel-parse*.c)
 * builds it; kernel_bind() turns it into numbers for given constants. Indices are linearised:
 * a[j][i] on a[M][N] is element j*N + i, as is a flattened a[j*N+i]. */
#ifndef ARCHSCOPE_MODEL_KERNEL_H
#define ARCHSCOPE_MODEL_KERNEL_H

#include <stdint.h>

#include "common/error.h"
#include "model/poly.h"

#define KERNEL_MAX_LOOPS 8
#define KERNEL_MAX_ARRAYS 32
#define KERNEL_MAX_DIMS 6
#define KERNEL_MAX_ACCESSES 256
/* Input limits (docs/archscope-model.md): a kernel file of at most 1 MiB, brackets nested at
 * most 64 deep, at most 1000 operators in one statement, expressions read at most 512 operators
 * deep; beyond them the reader says which limit, before libclang sees the text. */
#define KERNEL_MAX_BYTES (1u << 20)
#define KERNEL_MAX_NESTING 64
#define KERNEL_MAX_STMT_OPS 1000
#define KERNEL_MAX_EXPR_DEPTH 512
#define KERNEL_NAME_LEN 64

struct kpos {
	int line, col;
};

/* An affine index: sum of coef[l] * (index of loop l) + c, in elements. */
struct kaff {
	struct poly coef[KERNEL_MAX_LOOPS];
	struct poly c;
};

struct karray {
	char name[KERNEL_NAME_LEN];
	int elsize;            /* bytes: 8 double, 4 float */
	int ndims;             /* 0 for a scalar */
	struct poly dim[KERNEL_MAX_DIMS];
	struct kpos pos;
};

struct kloop {
	char var[KERNEL_NAME_LEN];
	struct poly start, end; /* iterations start, start+step, ... while < end */
	int64_t step;           /* > 0 */
	struct kpos pos;
};

struct kaccess {
	int array;
	int write;
	struct kaff idx;
	struct kpos pos;
};

struct kernel {
	char file[256];
	int nsyms;
	char sym[POLY_MAX_SYMS][KERNEL_NAME_LEN];
	struct kpos sym_pos[POLY_MAX_SYMS];    /* first use, for "has no value" errors */
	int narrays;                           /* arrays and scalars */
	struct karray array[KERNEL_MAX_ARRAYS];
	int nloops;                            /* outermost first */
	struct kloop loop[KERNEL_MAX_LOOPS];
	int naccesses;                         /* array accesses of the body, in evaluation order */
	struct kaccess acc[KERNEL_MAX_ACCESSES];
	int flops_add, flops_sub, flops_mul, flops_div; /* per iteration of the innermost loop */
	int statements;
};

/* The kernel with every constant bound: numbers a predictor can iterate over. Arrays are laid
 * out one after the other from address 0, each start rounded up to `align` bytes. */
struct kbound {
	int64_t val[POLY_MAX_SYMS];
	int nloops;
	int64_t start[KERNEL_MAX_LOOPS], end[KERNEL_MAX_LOOPS], step[KERNEL_MAX_LOOPS];
	int64_t trips[KERNEL_MAX_LOOPS];
	int64_t iterations;                     /* product of trips */
	int narrays;
	int64_t elems[KERNEL_MAX_ARRAYS], bytes[KERNEL_MAX_ARRAYS], base[KERNEL_MAX_ARRAYS];
	int64_t total_bytes;                    /* arrays only, without alignment gaps */
	int naccesses;
	int64_t coef[KERNEL_MAX_ACCESSES][KERNEL_MAX_LOOPS];
	int64_t off[KERNEL_MAX_ACCESSES];       /* elements */
};

struct kernel *kernel_new(void);
void kernel_free(struct kernel *k);

/* Parses a kernel file with libclang (kernel-parse.c), or reads it back from the parse cache
 * (kernel-cache.h) when the same text parsed before. Errors are "FILE:LINE:COL: what". */
int kernel_parse_file(struct kernel *k, const char *path, struct as_error *err);
/* kernel_parse_buffer() through the parse cache: text already read (from standard input). An
 * entry the cache could not use (kernel-cache.h) is said in *note (may be NULL); the kernel is
 * then parsed. */
int kernel_parse_text(struct kernel *k, const char *name, const char *text, size_t len, struct as_error *note,
		      struct as_error *err);
int kernel_parse_buffer(struct kernel *k, const char *name, const char *text, size_t len, struct as_error *err);

/* Index of constant `name`, or -1. */
int kernel_sym_find(const struct kernel *k, const char *name);

/* Binds vals[] (one per symbol, all required) and checks sizes: positive dimensions, byte
 * counts within 63 bits, loops that run, accesses inside their arrays. Errors name positions. */
int kernel_bind(const struct kernel *k, const int64_t *vals, int64_t align, struct kbound *b, struct as_error *err);

/* Element size of the kernel's arrays (the largest, if they differ), and the flops per iteration. */
int kernel_elsize(const struct kernel *k);
int kernel_flops(const struct kernel *k);

/* The source text of access i, "a[j][i-1]" rebuilt from the index ("a[j*N + i - 1]"). */
void kernel_access_format(const struct kernel *k, int i, char *buf, size_t len);

#endif
