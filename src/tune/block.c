/* The blocking optimisation of BlackjackBench §6 and its practical adjustments; see block.h. The
 * search is exhaustive over the (small) feasible set, so ties and rounding are explicit. */
#include "tune/block.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

double tune_block_ratio(int m, int n, int k)
{
	if (m <= 0 || n <= 0 || k <= 0)
		return 0;
	double f = 2.0 * m * n * k;
	return f / (f + (double)m * n + (double)m * k + (double)n * k);
}

static long footprint(long m, long n, long k)
{
	return m * n + m * k + n * k;
}

/* Better: a higher ratio, or the same ratio (to 1e-12) with a larger m. */
static int block_better(double r, long m, double best_r, long best_m)
{
	if (r > best_r + 1e-12)
		return 1;
	return fabs(r - best_r) <= 1e-12 && m > best_m;
}

int tune_block_solve(long capacity, struct tune_block *out, struct as_error *err)
{
	if (capacity < 3)
		return as_error_set(err, -EINVAL, "capacity %ld is too small for any block (needs 3: one element of each operand)",
				    capacity);
	if (capacity > TUNE_BLOCK_MAX_CAPACITY)
		return as_error_set(err, -EINVAL, "capacity %ld is beyond what the optimisation handles (at most %ld)", capacity,
				    (long)TUNE_BLOCK_MAX_CAPACITY);
	memset(out, 0, sizeof(*out));
	double best = -1;
	/* k = 1: mn + m + n <= capacity, i.e. (m + 1)(n + 1) <= capacity + 1. The best n for an m is
	 * the largest that fits (the ratio grows with n), and the ratio is symmetric in m and n, so
	 * the smaller side of an optimum is at most sqrt(capacity + 1) - 1: each small side is tried
	 * as m and as n, O(sqrt(capacity)) steps instead of O(capacity). */
	for (long a = 1; (a + 1) * (a + 1) <= capacity + 1; a++) {
		long b = (capacity + 1) / (a + 1) - 1;
		if (b < 1)
			break;
		const long cand[2][2] = { { a, b }, { b, a } };
		for (int c = 0; c < 2; c++) {
			long m = cand[c][0], n = cand[c][1];
			double r = tune_block_ratio((int)m, (int)n, 1);
			if (block_better(r, m, best, out->m)) {
				best = r;
				out->m = (int)m;
				out->n = (int)n;
				out->k = 1;
			}
		}
	}
	return 0;
}

static int is_pow2(long x)
{
	return x > 0 && (x & (x - 1)) == 0;
}

static long gcd(long a, long b)
{
	while (b) {
		long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

#define REASON(b, ...)                                                                           \
	do {                                                                                     \
		if ((b)->nreasoning < (int)(sizeof((b)->reasoning) / sizeof((b)->reasoning[0]))) \
			snprintf((b)->reasoning[(b)->nreasoning++], sizeof((b)->reasoning[0]), __VA_ARGS__); \
	} while (0)

/* The register block adjusted as the paper does (3x3 -> 4x2): among blocks whose sizes in
 * elements are powers of two (so every even power-of-two matrix size, and every multiple of the
 * block, needs no cleanup code), the best ratio within the registers; ties to the larger m. */
static int reg_adjust(const struct tune_machine *tm, struct tune_blocking *b, struct as_error *err)
{
	double best = -1;
	int bm = 0, bn = 0;
	for (int mv = 1; mv <= tm->registers; mv++) {
		if (!is_pow2((long)mv * tm->vector_doubles))
			continue;
		for (int n = 1; n <= tm->registers; n *= 2)
			if (footprint(mv, n, 1) <= tm->registers) {
				double r = tune_block_ratio(mv, n, 1);
				if (block_better(r, (long)mv, best, bm)) {
					best = r;
					bm = mv;
					bn = n;
				}
			}
	}
	if (!bm)
		return as_error_set(err, -EINVAL, "%d registers hold no register block with power-of-two sizes", tm->registers);
	b->reg_m_vectors = bm;
	b->reg = (struct tune_block){ bm * tm->vector_doubles, bn, 1 };
	b->reg_registers_used = (int)footprint(bm, bn, 1);
	return 0;
}

int tune_blocking_plan(const struct tune_machine *tm, struct tune_blocking *b, struct as_error *err)
{
	memset(b, 0, sizeof(*b));
	if (tm->registers < 3)
		return as_error_set(err, -EINVAL, "register count %d: at least 3 live registers are needed", tm->registers);
	if (tm->vector_doubles < 1)
		return as_error_set(err, -EINVAL, "vector width %d doubles", tm->vector_doubles);
	if (!(tm->l1_bytes >= 3 * 8.0))
		return as_error_set(err, -EINVAL, "L1 size %.0f B is too small for a block of doubles", tm->l1_bytes);
	if (!(tm->line_bytes >= 8))
		return as_error_set(err, -EINVAL, "cache line %.0f B is smaller than a double", tm->line_bytes);
	int rc = tune_block_solve(tm->registers, &b->reg_solved, err);
	if (rc)
		return rc;
	REASON(b, "registers: %d vectors of %d double%s; max 2mnk/(2mnk+mn+mk+nk) with mn+mk+nk <= %d, k = 1 "
		  "(m in vectors): m = %d, n = %d (%.4f)",
		  tm->registers, tm->vector_doubles, tm->vector_doubles == 1 ? "" : "s", tm->registers,
		  b->reg_solved.m, b->reg_solved.n, tune_block_ratio(b->reg_solved.m, b->reg_solved.n, 1));
	if ((rc = reg_adjust(tm, b, err)))
		return rc;
	REASON(b, "even sizes, no cleanup code: powers of two in elements -> m = %d vector%s = %d rows, n = %d "
		  "(%.4f, %d of %d registers)",
		  b->reg_m_vectors, b->reg_m_vectors == 1 ? "" : "s", b->reg.m, b->reg.n,
		  tune_block_ratio(b->reg_m_vectors, b->reg.n, 1), b->reg_registers_used, tm->registers);

	long cap = (long)(tm->l1_bytes / 8);
	if ((rc = tune_block_solve(cap, &b->l1_solved, err)))
		return rc;
	REASON(b, "L1: %.0f B = %ld doubles; the same optimisation: m = %d, n = %d, k = 1",
	       tm->l1_bytes, cap, b->l1_solved.m, b->l1_solved.n);
	long line = (long)(tm->line_bytes / 8);
	long s = 0;
	while (footprint(s + 1, s + 1, 1) + (line - 1) * (s + 1) <= cap)
		s++;
	b->l1_line_limit = s;
	REASON(b, "room for the strided operand: each of its n elements brings a %.0f B line (%ld doubles): "
		  "m = n, m*n + m + %ld*n <= %ld -> %ld",
		  tm->line_bytes, line, line, cap, s);
	long step = b->reg.m / gcd(b->reg.m, b->reg.n) * b->reg.n;
	long side = s / step * step;
	if (side < step)
		return as_error_set(err, -EINVAL,
				    "an L1 of %.0f B has room for a %ld x %ld block, smaller than the register block %d x %d",
				    tm->l1_bytes, s, s, b->reg.m, b->reg.n);
	b->l1 = (struct tune_block){ (int)side, (int)side, 1 };
	b->predicted_best_n = side;
	REASON(b, "a multiple of the register block (%d x %d, step %ld): m = n = %ld; predicted best matrix size %ld",
	       b->reg.m, b->reg.n, step, side, side);
	return 0;
}
