/* The 2D 5-point stencil, blocked from the layer conditions (stencil.h): the plan through the
 * model's kernel parser and layer conditions, the naive and blocked sweeps, the interleaved timing. */
#include "tune/stencil.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/order.h"
#include "common/buffer.h"
#include "common/timer.h"
#include "model/kernel.h"
#include "model/lc.h"

/* The kernel as `model` reads it (kernels/jacobi-2d-5pt.c). */
static const char stencil_text[] = "double a[M][N];\ndouble b[M][N];\ndouble s;\n\n"
				   "for (int j = 1; j < M - 1; ++j)\n\tfor (int i = 1; i < N - 1; ++i)\n"
				   "\t\tb[j][i] = (a[j][i - 1] + a[j][i + 1] + a[j - 1][i] + a[j + 1][i]) * s;\n";

#define REASON(p, ...)                                                                           \
	do {                                                                                     \
		if ((p)->nreasoning < (int)(sizeof((p)->reasoning) / sizeof((p)->reasoning[0]))) \
			snprintf((p)->reasoning[(p)->nreasoning++], sizeof((p)->reasoning[0]), __VA_ARGS__); \
	} while (0)

struct lc_ctx {
	struct kernel *k;
	struct lc_analysis *a;
	struct kbound b;
	int sym_m, sym_n;
	double line;
};

static int analyse_at(struct lc_ctx *c, int64_t rows, int64_t cols, struct as_error *err)
{
	int64_t vals[POLY_MAX_SYMS] = { 0 };
	vals[c->sym_m] = rows;
	vals[c->sym_n] = cols;
	int rc = kernel_bind(c->k, vals, (int64_t)c->line, &c->b, err);
	return rc ? rc : lc_analyse(c->k, &c->b, c->line, c->a, err);
}

/* The best condition that still depends on N: the rows that must stay in the cache. */
static int row_condition(const struct lc_ctx *c)
{
	for (int i = c->a->ncond - 1; i >= 0; i--)
		if (!c->a->cond[i].all_fit && c->a->cond[i].sym && (poly_syms(&c->a->cond[i].req) & (1u << c->sym_n)))
			return i;
	return -1;
}

static double req_at(struct lc_ctx *c, int cond, int64_t rows, int64_t cols)
{
	int64_t vals[POLY_MAX_SYMS] = { 0 }, r = 0;
	vals[c->sym_m] = rows;
	vals[c->sym_n] = cols;
	return poly_eval(&c->a->cond[cond].req, vals, &r) == 0 ? (double)r : NAN;
}

static int plan_levels(const struct machine *m, struct lc_ctx *c, struct tune_stencil_plan *p, int blocked,
		       struct as_error *err)
{
	int rc = analyse_at(c, p->rows, blocked ? p->block + 2 : p->cols, err);
	if (rc)
		return rc;
	for (int i = 0; i < p->nlevels; i++) {
		int act = lc_active(c->a, p->level[i].size_bytes);
		int hits = act >= 0 ? c->a->cond[act].hits : 0, misses = act >= 0 ? c->a->cond[act].misses : 0;
		if (blocked) {
			p->level[i].blocked_hits = hits;
			p->level[i].blocked_misses = misses;
		} else {
			p->level[i].naive_hits = hits;
			p->level[i].naive_misses = misses;
			p->level[i].width_limit = p->cond >= 0 ? lc_transition(c->a, p->cond, &c->b, c->sym_n, p->level[i].size_bytes) : 0;
		}
	}
	(void)m;
	return 0;
}

int tune_stencil_plan(const struct machine *m, int64_t rows, int64_t cols, int quick, struct tune_stencil_plan *p,
		      struct as_error *err)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < m->nlevels && p->nlevels < 8; i++)
		if (m->level[i].has_cache && m->level[i].size_bytes > 0) {
			snprintf(p->level[p->nlevels].name, sizeof(p->level[0].name), "%s", m->level[i].name);
			p->level[p->nlevels++].size_bytes = m->level[i].size_bytes;
		}
	if (!p->nlevels)
		return as_error_set(err, -EINVAL, "the machine file has no cache levels with sizes");
	p->last_cache_bytes = p->level[p->nlevels - 1].size_bytes;
	struct lc_ctx c = { .line = m->level[0].cl_size > 0 ? (double)m->level[0].cl_size : machine_line_bytes(m) };
	c.k = kernel_new();
	c.a = calloc(1, sizeof(*c.a));
	int rc = 0;
	if (!c.k || !c.a) {
		rc = as_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = kernel_parse_buffer(c.k, "jacobi-2d-5pt.c", stencil_text, sizeof(stencil_text) - 1, err)))
		goto out;
	c.sym_m = kernel_sym_find(c.k, "M");
	c.sym_n = kernel_sym_find(c.k, "N");
	/* the condition's form does not depend on the sizes: find it on a small grid */
	if ((rc = analyse_at(&c, 16, 1024, err)))
		goto out;
	p->cond = row_condition(&c);
	if (p->cond < 0) {
		rc = as_error_set(err, -EINVAL, "the stencil has no layer condition that depends on its row length");
		goto out;
	}
	/* the default grid: rows that break the condition in the last cache (quick: in L1), and
	 * enough of them that the grid is beyond the last cache */
	int lim = quick ? 0 : p->nlevels - 1;
	if (cols <= 0) {
		cols = 1024;
		while (req_at(&c, p->cond, 16, cols) <= p->level[lim].size_bytes && cols < ((int64_t)1 << 28))
			cols *= 2;
	}
	if (rows <= 0)
		rows = quick ? 64 : 16;
	/* at most 512 MiB and a quarter of the free memory: a large (or mismeasured) last cache
	 * gets shorter rows, which may then fit in it (the reasoning says so) */
	double cap = 512.0 * 1048576, avail = (double)buffer_mem_available();
	if (avail > 0 && avail / 4 < cap)
		cap = avail / 4;
	int capped = 0;
	while (2.0 * 8 * (double)rows * (double)cols > cap && cols > 1024) {
		cols /= 2;
		capped = 1;
	}
	p->rows = rows;
	p->cols = cols;
	p->grid_bytes = 2.0 * 8 * (double)rows * (double)cols;
	p->cond_bytes = req_at(&c, p->cond, rows, cols);
	if ((rc = plan_levels(m, &c, p, 0, err)))
		goto out;
	char name[16];
	snprintf(name, sizeof(name), "%s", p->level[p->nlevels - 1].name);
	REASON(p, "grid %lld x %lld doubles, 2 arrays: %.1f MiB (last cache %s: %.1f MiB)", (long long)rows,
	       (long long)cols, p->grid_bytes / 1048576, name, p->last_cache_bytes / 1048576);
	if (capped)
		REASON(p, "grid capped at %.0f MiB of memory: the row condition may hold in the last cache", cap / 1048576);
	REASON(p, "the row condition (%d hits, %d misses per update) needs %.0f KiB at N = %lld", c.a->cond[p->cond].hits,
	       c.a->cond[p->cond].misses, p->cond_bytes / 1024, (long long)cols);
	/* the outermost level where the condition fails: its transfers (nearest memory) cost the
	 * most, and its block is the widest (long streams, few edges); the levels inside it keep
	 * the misses they had. Blocks under 256 columns are mostly edges. */
	p->target = -1;
	for (int i = p->nlevels - 1; i >= 0 && p->target < 0; i--)
		if (p->level[i].width_limit >= 256 && p->level[i].width_limit < cols)
			p->target = i;
	if (p->target < 0) {
		p->block = cols - 2;
		REASON(p, "the condition holds in every level, or no block of >= 256 columns makes it hold: no blocking");
	} else {
		/* the block is the inner loop's length; the condition counts the row length N = block + 2 */
		p->block = p->level[p->target].width_limit - 2;
		snprintf(name, sizeof(name), "%s", p->level[p->target].name);
		REASON(p, "outermost level where it fails at N and holds for a block of >= 256 columns: %s (%.0f KiB) -> "
			  "block %lld columns",
		       name, p->level[p->target].size_bytes / 1024, (long long)p->block);
	}
	rc = plan_levels(m, &c, p, 1, err);
out:
	kernel_free(c.k);
	free(c.a);
	return rc;
}

static void sweep_naive(int64_t rows, int64_t cols, const double *restrict a, double *restrict b, double s)
{
	for (int64_t j = 1; j < rows - 1; j++)
		for (int64_t i = 1; i < cols - 1; i++)
			b[j * cols + i] = (a[j * cols + i - 1] + a[j * cols + i + 1] + a[(j - 1) * cols + i] + a[(j + 1) * cols + i]) * s;
}

static void sweep_blocked(int64_t rows, int64_t cols, int64_t w, const double *restrict a, double *restrict b, double s)
{
	for (int64_t ib = 1; ib < cols - 1; ib += w) {
		int64_t ie = ib + w < cols - 1 ? ib + w : cols - 1;
		for (int64_t j = 1; j < rows - 1; j++)
			for (int64_t i = ib; i < ie; i++)
				b[j * cols + i] =
					(a[j * cols + i - 1] + a[j * cols + i + 1] + a[(j - 1) * cols + i] + a[(j + 1) * cols + i]) * s;
	}
}

static void stats3(double *v, int n, double out[3])
{
	out[0] = out[2] = v[0];
	for (int i = 1; i < n; i++) {
		out[0] = fmin(out[0], v[i]);
		out[2] = fmax(out[2], v[i]);
	}
	out[1] = order_median(v, (size_t)n);
}

/* The timed repetitions, naive and blocked interleaved (a burst of other work hits both). */
struct stencil_reps {
	const struct tune_stencil_plan *p;
	int reps;
	volatile int *stop;
	double *a, *b, s, *tn, *tb;
	struct tune_stencil_run *r;
};

static int stencil_reps_run(void *arg, int attempt)
{
	struct stencil_reps *x = arg;
	(void)attempt;
	x->r->reps = 0;
	for (int rep = 0; rep < x->reps && !(x->stop && *x->stop); rep++) {
		for (int which = 0; which < 2; which++) {
			int blocked = which ^ (rep & 1);
			uint64_t t0 = timer_now_ns();
			if (blocked)
				sweep_blocked(x->p->rows, x->p->cols, x->p->block, x->a, x->b, x->s);
			else
				sweep_naive(x->p->rows, x->p->cols, x->a, x->b, x->s);
			(blocked ? x->tb : x->tn)[rep] = (double)(timer_now_ns() - t0) * 1e-9;
		}
		x->r->reps = rep + 1;
	}
	return 0;
}

int tune_stencil_measure(const struct tune_stencil_plan *p, int reps, volatile int *stop, struct tune_stencil_run *r,
			 struct as_error *err)
{
	memset(r, 0, sizeof(*r));
	size_t n = (size_t)p->rows * (size_t)p->cols;
	struct buffer ba = { 0 }, bb = { 0 };
	double *tn = calloc((size_t)reps, sizeof(double)), *tb = calloc((size_t)reps, sizeof(double));
	int rc = 0;
	if (!tn || !tb) {
		rc = as_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = buffer_alloc(&ba, n * sizeof(double), HUGE_ALWAYS, err)) || (rc = buffer_alloc(&bb, n * sizeof(double), HUGE_ALWAYS, err)))
		goto out;
	double *a = ba.data, *b = bb.data;
	for (size_t i = 0; i < n; i++) {
		a[i] = (double)(i % 1000) * 1e-3;
		b[i] = 0;
	}
	const double s = 0.25;
	/* the two must give the same numbers (same operations in the same order per point) */
	sweep_naive(p->rows, p->cols, a, b, s);
	double probe = b[(size_t)(p->rows / 2) * (size_t)p->cols + (size_t)p->cols / 2], sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += b[i];
	memset(b, 0, n * sizeof(double));
	sweep_blocked(p->rows, p->cols, p->block, a, b, s);
	double sum2 = 0;
	for (size_t i = 0; i < n; i++)
		sum2 += b[i];
	r->max_diff = fmax(fabs(sum - sum2), fabs(probe - b[(size_t)(p->rows / 2) * (size_t)p->cols + (size_t)p->cols / 2]));
	if (r->max_diff != 0) {
		rc = as_error_set(err, -EIO, "the blocked sweep differs from the naive one (by %.3g)", r->max_diff);
		goto out;
	}
	/* the stencil shares caches and memory: other CPUs' load disturbs it too; measured again
	 * once where it was disturbed */
	struct stencil_reps sr = { p, reps, stop, a, b, s, tn, tb, r };
	cond_step(NULL, COND_SHARED, COND_STEP_ATTEMPTS, stop, stencil_reps_run, &sr, &r->cond);
	if (r->reps > 0) {
		stats3(tn, r->reps, r->naive_s);
		stats3(tb, r->reps, r->blocked_s);
		double ups = (double)(p->rows - 2) * (double)(p->cols - 2);
		r->naive_mlups = ups / r->naive_s[1] * 1e-6;
		r->blocked_mlups = ups / r->blocked_s[1] * 1e-6;
		r->speedup = r->naive_s[1] / r->blocked_s[1];
	}
out:
	buffer_release(&ba);
	buffer_release(&bb);
	free(tn);
	free(tb);
	return rc;
}
