/* A second kernel where blocking matters: the 2D 5-point Jacobi sweep
 *     b[j][i] = (a[j][i-1] + a[j][i+1] + a[j-1][i] + a[j+1][i]) * s
 * on an M x N grid, blocked in i (columns) so that the layer condition `model` computes (the
 * Kerncraft paper's §2.4.2, model/lc.h) holds in a cache level; naive and blocked timed against
 * each other, interleaved. */
#ifndef ARCHSCOPE_TUNE_STENCIL_H
#define ARCHSCOPE_TUNE_STENCIL_H

#include <stdint.h>

#include "common/conditions.h"
#include "common/error.h"
#include "machine/machine.h"

/* What the layer conditions say at one cache level. */
struct tune_stencil_level {
	char name[16];
	double size_bytes;
	int naive_hits, naive_misses;     /* per iteration, with the full row length N */
	int blocked_hits, blocked_misses; /* with the block width */
	int64_t width_limit;              /* largest N for which the best row condition holds (-1 always, 0 never) */
};

struct tune_stencil_plan {
	int64_t rows, cols;               /* M, N */
	double grid_bytes;                /* both arrays */
	double last_cache_bytes;
	int nlevels;
	struct tune_stencil_level level[8];
	int cond;                         /* the row condition (index in the analysis) */
	double cond_bytes;                /* its requirement at N, bytes */
	int target;                       /* the level blocked for */
	int64_t block;                    /* block width (columns) */
	char reasoning[6][256];
	int nreasoning;
};

/* Parses the kernel (libclang, through model/kernel.h), analyses it at M x N and at the block
 * width, and picks the block: the outermost cache level whose row condition fails at N and holds
 * for a block of at least 256 columns. rows, cols 0: 16 rows (quick: 64) long enough to break the
 * condition in the last cache level (quick: in L1 only, for tests), at most 512 MiB and a quarter
 * of the free memory. */
int tune_stencil_plan(const struct machine *m, int64_t rows, int64_t cols, int quick, struct tune_stencil_plan *p,
		      struct as_error *err);

struct tune_stencil_run {
	double naive_s[3], blocked_s[3];  /* min, median, max seconds per sweep */
	double naive_mlups, blocked_mlups;  /* median, million lattice updates per second */
	double speedup;                   /* naive median time / blocked median time */
	int reps;
	double max_diff;                  /* |b_naive - b_blocked|, must be 0 */
	struct conditions cond;           /* what the timing ran in (common/conditions.h) */
};

/* Times `reps` sweeps of each, interleaved (order alternating). -ENOMEM, -EIO when the two
 * disagree. stop: set to end early. */
int tune_stencil_measure(const struct tune_stencil_plan *p, int reps, volatile int *stop, struct tune_stencil_run *r,
			 struct as_error *err);

#endif
