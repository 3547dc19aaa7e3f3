/* Register and L1 blocking of the update C -= A*B from probed values (BlackjackBench §6): the
 * paper's discrete optimisation, its practical adjustments, and the reasoning as text. Pure: no
 * measurement, no I/O. */
#ifndef ARCHSCOPE_TUNE_BLOCK_H
#define ARCHSCOPE_TUNE_BLOCK_H

#include "common/error.h"

struct tune_block {
	int m, n, k;
};

/* The paper's objective: flops per (flops + loaded elements) of an m x n x k block,
 * 2mnk / (2mnk + mn + mk + nk); 0 for an empty block. */
double tune_block_ratio(int m, int n, int k);

/* The paper's optimisation: maximise tune_block_ratio over m, n >= 1 with k = 1 under the
 * storage constraint mn + mk + nk <= capacity (the resident m x n block plus one k-slice of each
 * streamed operand), in units of whatever capacity counts (registers, or elements of L1).
 * Ties go to the larger m (the unit-stride dimension). O(sqrt(capacity)) steps. -EINVAL when
 * capacity < 3 or above TUNE_BLOCK_MAX_CAPACITY (blocks count in int). */
#define TUNE_BLOCK_MAX_CAPACITY 2147483647L
int tune_block_solve(long capacity, struct tune_block *out, struct as_error *err);

/* The input of the tuning: what the machine file (or the user) says. */
struct tune_machine {
	int registers;         /* vector registers live at once (probed live ranges) */
	int vector_doubles;    /* doubles per vector register of the ISA used (1 = scalar) */
	double l1_bytes;
	double line_bytes;
};

/* The chosen blocks and why. Register blocks count m in vectors (m_vectors) and in elements. */
struct tune_blocking {
	struct tune_block reg_solved;   /* the optimum, m in vectors */
	struct tune_block reg;          /* adjusted, m in elements (m_vectors * vector_doubles) */
	int reg_m_vectors;
	int reg_registers_used;         /* m_vectors * n + m_vectors + n */
	struct tune_block l1_solved;    /* the optimum in elements of L1 */
	long l1_line_limit;             /* largest square side with room for the strided operand's lines */
	struct tune_block l1;           /* adjusted: multiple of the register block */
	long predicted_best_n;          /* matrix size where the kernel should peak: the L1 block */
	char reasoning[8][256];         /* one line per step, for people */
	int nreasoning;
};

/* The whole tuning: register block (registers counted in vectors, then the adjustment to sizes
 * that are powers of two in elements so even matrix sizes need no cleanup code, the paper's
 * 3x3 -> 4x2), L1 block (in doubles, then room for one line per element of the non-unit-stride
 * operand, then rounding down to a multiple of the register block). -EINVAL on missing or
 * impossible values (no registers, no L1, an L1 smaller than the register block). */
int tune_blocking_plan(const struct tune_machine *tm, struct tune_blocking *out, struct as_error *err);

#endif
