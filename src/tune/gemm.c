/* The interleaved benchmark of the tuned kernel and OpenBLAS dgemm, the reference check and the
 * check of the prediction (gemm.h). */
#include "tune/gemm.h"

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "analysis/order.h"
#include "common/rng.h"
#include "common/timer.h"

enum { CBLAS_COL_MAJOR = 102, CBLAS_NO_TRANS = 111 };

int tune_openblas_open(struct tune_openblas *b, struct as_error *err)
{
	memset(b, 0, sizeof(*b));
	/* before the library starts: its pool is sized from this at load time */
	setenv("OPENBLAS_NUM_THREADS", "1", 1);
	static const char *const names[] = { "libopenblas.so.0", "libopenblas.so" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && !b->dl; i++)
		if ((b->dl = dlopen(names[i], RTLD_NOW | RTLD_LOCAL)) != NULL)
			snprintf(b->lib, sizeof(b->lib), "%s", names[i]);
	if (!b->dl)
		return as_error_set(err, -ENOENT, "cannot load OpenBLAS (libopenblas.so.0; Debian package libopenblas0): %s",
				    dlerror());
	*(void **)&b->dgemm = dlsym(b->dl, "cblas_dgemm");
	if (!b->dgemm) {
		tune_openblas_close(b);
		return as_error_set(err, -ENOENT, "OpenBLAS has no cblas_dgemm");
	}
	void (*set_threads)(int);
	*(void **)&set_threads = dlsym(b->dl, "openblas_set_num_threads");
	if (set_threads)
		set_threads(1);
	char *(*config)(void);
	*(void **)&config = dlsym(b->dl, "openblas_get_config");
	if (config)
		snprintf(b->config, sizeof(b->config), "%s", config());
	return 0;
}

void tune_openblas_close(struct tune_openblas *b)
{
	if (b->dl)
		dlclose(b->dl);
	memset(b, 0, sizeof(*b));
}

int tune_sizes_fill(long *sizes, long lo, long hi, long step)
{
	int n = 0;
	for (long s = lo; s <= hi && n < TUNE_MAX_SIZES && step > 0; s += step)
		sizes[n++] = s;
	return n;
}

/* C -= A*B, the plain triple loop every result is compared with. */
static void gemm_ref(long n, const double *a, const double *b, double *c)
{
	for (long j = 0; j < n; j++)
		for (long p = 0; p < n; p++) {
			double bj = b[p + j * n];
			for (long i = 0; i < n; i++)
				c[i + j * n] -= a[i + p * n] * bj;
		}
}

static double rel_diff(long n, const double *x, const double *ref)
{
	double d = 0, m = 0;
	for (long i = 0; i < n * n; i++) {
		d = fmax(d, fabs(x[i] - ref[i]));
		m = fmax(m, fabs(ref[i]));
	}
	return m > 0 ? d / m : d;
}

struct gemm_data {
	double *a, *b, *c, *c0, *ref;
	const struct tune_openblas *blas;
};

static void call(const struct gemm_data *d, tune_gemm_fn *kern, long n, double *c)
{
	if (kern)
		kern(n, d->a, d->b, c);
	else
		d->blas->dgemm(CBLAS_COL_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, (int)n, (int)n, (int)n, -1.0, d->a, (int)n,
			       d->b, (int)n, 1.0, c, (int)n);
}

/* Involuntary context switches of this thread so far (0 where unknown). */
static long preemptions(void)
{
	struct rusage ru;
	return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nivcsw : 0;
}

/* Seconds for `calls` calls. A repetition during which the thread was preempted (another
 * program ran on its CPU: the time includes its slice) is run once more; *disturbed
 * counts the repetitions preempted both times (their time is kept). */
static double time_calls(const struct gemm_data *d, tune_gemm_fn *kern, long n, long calls, int *disturbed)
{
	double t = 0;
	for (int attempt = 0; attempt < 2; attempt++) {
		long p0 = preemptions();
		uint64_t t0 = timer_now_ns();
		for (long i = 0; i < calls; i++)
			call(d, kern, n, d->c);
		t = (double)(timer_now_ns() - t0) * 1e-9;
		if (preemptions() == p0)
			return t;
	}
	if (disturbed)
		(*disturbed)++;
	return t;
}

/* Fills the operands of size n and checks both kernels against the triple loop. */
static int gemm_check(const struct gemm_data *d, tune_gemm_fn *kern, long n, struct rng *r, struct tune_gemm_point *p)
{
	for (long i = 0; i < n * n; i++) {
		d->a[i] = (double)(rng_next(r) >> 11) * 0x1p-52 - 1.0;
		d->b[i] = (double)(rng_next(r) >> 11) * 0x1p-52 - 1.0;
		d->c0[i] = (double)(rng_next(r) >> 11) * 0x1p-52 - 1.0;
	}
	memcpy(d->ref, d->c0, sizeof(double) * n * n);
	gemm_ref(n, d->a, d->b, d->ref);
	memcpy(d->c, d->c0, sizeof(double) * n * n);
	call(d, kern, n, d->c);
	p->err_tuned = rel_diff(n, d->c, d->ref);
	p->err_openblas = NAN;
	if (d->blas) {
		memcpy(d->c, d->c0, sizeof(double) * n * n);
		call(d, NULL, n, d->c);
		p->err_openblas = rel_diff(n, d->c, d->ref);
	}
	/* rounding: n products and sums of numbers below 1 in magnitude */
	return p->err_tuned <= 1e-12 * (double)n ? 0 : -1;
}

static void stat_of(const double *v, int n, struct tune_stat *s)
{
	s->min = s->max = n ? v[0] : NAN;
	for (int i = 1; i < n; i++) {
		s->min = fmin(s->min, v[i]);
		s->max = fmax(s->max, v[i]);
	}
	s->median = order_median(v, (size_t)n);
}

static void gemm_judge(const struct tune_gemm_opts *o, struct tune_gemm_run *out)
{
	out->peak_n = 0;
	out->ratio_at_predicted = NAN;
	double best = -1;
	for (int i = 0; i < out->n; i++)
		if (out->p[i].tuned.median > best) {
			best = out->p[i].tuned.median;
			out->peak_n = out->p[i].n;
		}
	best = -1;
	for (int i = 0; i < out->n; i++)
		if (out->p[i].tuned.max > best) {
			best = out->p[i].tuned.max;
			out->peak_n_best = out->p[i].n;
		}
	int near = -1;
	for (int i = 0; i < out->n; i++)
		if (near < 0 || labs(out->p[i].n - o->predicted_n) < labs(out->p[near].n - o->predicted_n))
			near = i;
	if (near < 0)
		return;
	out->ratio_n = out->p[near].n;
	long step = 0;
	if (near > 0)
		step = out->p[near].n - out->p[near - 1].n;
	if (near + 1 < out->n && out->p[near + 1].n - out->p[near].n > step)
		step = out->p[near + 1].n - out->p[near].n;
	out->step = step;
	out->peak_near_prediction = labs(out->peak_n - o->predicted_n) <= step;
	if (out->have_openblas && out->p[near].openblas.median > 0)
		out->ratio_at_predicted = out->p[near].tuned.median / out->p[near].openblas.median;
}

int tune_gemm_sweep(const struct tune_gemm_opts *o, tune_gemm_fn *kern, const struct tune_openblas *blas,
		    struct tune_gemm_run *out, struct as_error *err)
{
	memset(out, 0, sizeof(*out));
	out->have_openblas = blas != NULL;
	long nmax = 0;
	for (int i = 0; i < o->nsizes; i++)
		if (o->sizes[i] > nmax)
			nmax = o->sizes[i];
	size_t bytes = ((sizeof(double) * (size_t)(nmax * nmax) + 63) / 64) * 64;
	struct gemm_data d = { .blas = blas };
	double *all = aligned_alloc(64, 5 * bytes);
	int reps = o->reps > 0 ? o->reps : 1;
	double *g = malloc(sizeof(double) * 2 * (size_t)reps * (size_t)(o->nsizes ? o->nsizes : 1));
	if (!all || !g) {
		free(all);
		free(g);
		return as_error_set(err, -ENOMEM, "no memory for 5 matrices of %ld x %ld doubles", nmax, nmax);
	}
	d.a = all;
	d.b = all + bytes / 8;
	d.c = all + 2 * bytes / 8;
	d.c0 = all + 3 * bytes / 8;
	d.ref = all + 4 * bytes / 8;
	struct rng r;
	rng_init(&r, o->seed);
	int rc = 0;
	/* check each size, and calibrate calls so a repetition lasts min_time_s */
	for (int i = 0; i < o->nsizes && !(o->stop && *o->stop); i++) {
		struct tune_gemm_point *p = &out->p[i];
		p->n = o->sizes[i];
		if (o->progress)
			o->progress(o->ctx, "checking against the triple loop", i, o->nsizes);
		if (gemm_check(&d, kern, p->n, &r, p) != 0) {
			rc = as_error_set(err, -EIO, "the tuned kernel's result is wrong at n = %ld: relative error %.3g", p->n,
					  p->err_tuned);
			break;
		}
		long calls = 1;
		while (time_calls(&d, kern, p->n, calls, NULL) < o->min_time_s && calls < (1L << 30))
			calls *= 2;
		p->calls = calls;
		out->n = i + 1;
	}
	/* interleaved: every size of both kernels in each repetition, the order of the two alternating;
	 * a repetition other work disturbed (common/conditions.h) is measured again, reps times at most */
	struct as_cpulist here = { .n = 1, .cpu = { sched_getcpu() } };
	struct cond_window whole, one;
	cond_window_begin(&whole, &here, NULL, 0);
	for (int rep = 0; rc == 0 && rep < reps && !(o->stop && *o->stop); rep++) {
		if (o->progress)
			o->progress(o->ctx, "timing, repetition", rep, reps);
		cond_window_begin(&one, &here, NULL, 0);
		for (int i = 0; i < out->n; i++) {
			struct tune_gemm_point *p = &out->p[i];
			double flop = 2.0 * (double)p->n * (double)p->n * (double)p->n * (double)p->calls;
			for (int which = 0; which < 2; which++) {
				int blas_now = (which ^ (rep & 1)) == 1;
				if (blas_now && !blas)
					continue;
				double s = time_calls(&d, blas_now ? NULL : kern, p->n, p->calls, &p->disturbed);
				g[(2 * (size_t)i + (size_t)blas_now) * (size_t)reps + (size_t)rep] = flop / s * 1e-9;
			}
		}
		struct conditions c;
		cond_window_end(&one, &c);
		if (c.noisy && out->redone < reps && !(o->stop && *o->stop)) {
			out->redone++;
			rep--; /* this repetition again, after a burst of other work has passed */
			cond_wait_quiet(&here, NULL, 0, 1.0);
			continue;
		}
		out->noisy_reps += c.noisy;
		out->reps_done = rep + 1;
	}
	cond_window_end(&whole, &out->cond);
	out->cond.attempts = 1 + out->redone;
	if (out->noisy_reps && !out->cond.noisy) {
		out->cond.noisy = 1;
		snprintf(out->cond.why, sizeof(out->cond.why), "%d of %d repetitions disturbed by other processes",
			 out->noisy_reps, out->reps_done);
	}
	cond_summary_final(&out->cond);
	for (int i = 0; i < out->n && out->reps_done > 0; i++) {
		stat_of(&g[(2 * (size_t)i) * (size_t)reps], out->reps_done, &out->p[i].tuned);
		if (blas)
			stat_of(&g[(2 * (size_t)i + 1) * (size_t)reps], out->reps_done, &out->p[i].openblas);
		else
			out->p[i].openblas = (struct tune_stat){ NAN, NAN, NAN };
	}
	if (out->reps_done == 0)
		out->n = 0;
	gemm_judge(o, out);
	free(all);
	free(g);
	return rc;
}
