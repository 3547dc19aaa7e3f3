/* The streaming-benchmark runner (see run.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/run.h"
#include "analysis/order.h"
#include "common/buffer.h"
#include "common/team.h"
#include "common/timer.h"

/* Stream k starts k * 256 bytes (four cache lines) into its page: a load and a store of the same
 * iteration never share address bits 6..11 (4 KiB aliasing); with four streams a load can alias
 * only a store made at least 416 elements earlier. The offset stays small so every stream crosses
 * its 4 KiB pages within a few lines of the others: the L2 streamer starts over at each page, and
 * streams staggered by 1088 bytes (the earlier offset) ran 4-10 % slower in L2 than unstaggered
 * ones (stream, triad and copy at 1 MB, 1 and 2 threads;
 * bench/results/vs-likwid-kvm-xeon-6-207.txt). */

struct shared {
	const struct bench_opts *o;
	size_t n;               /* elements per stream per thread */
	uint64_t sweeps;        /* decided by thread 0 */
	double t[BENCH_MAX_REPS][BENCH_MAX_THREADS]; /* per repetition, per thread */
	double huge[BENCH_MAX_THREADS];        /* per thread: fraction of its streams on huge pages */
	int failed;
	struct as_error err;
	int sink;
};

static double sweep(const struct bench_kernel *k, double *const *arr, size_t n, uint64_t times)
{
	double acc = 0;
	for (uint64_t i = 0; i < times; i++)
		acc += k->fn(arr, n, 1.000001);
	return acc;
}

static void member(struct team *team, int tid, int cpu, void *arg)
{
	(void)cpu;
	struct shared *sh = arg;
	const struct bench_opts *o = sh->o;
	const struct bench_kernel *k = o->kernel;
	int na = bench_arrays(k);
	struct buffer buf[BENCH_MAX_ARRAYS] = { { 0 } };
	double *arr[BENCH_MAX_ARRAYS] = { 0 };
	int ok = 1;
	size_t stagger = bench_stream_offset(o->stream_offset);
	for (int a = 0; a < na; a++) {
		struct as_error e = { 0 };
		size_t off = (size_t)a * stagger;
		if (buffer_alloc(&buf[a], sh->n * sizeof(double) + off, sh->o->small_pages ? HUGE_NEVER : HUGE_ALWAYS, &e) != 0) {
			if (!__atomic_exchange_n(&sh->failed, 1, __ATOMIC_SEQ_CST))
				sh->err = e;
			ok = 0;
			break;
		}
		arr[a] = (double *)((char *)buf[a].data + off);
		/* First touch by the thread that uses the data. */
		for (size_t i = 0; i < sh->n; i++)
			arr[a][i] = 1.0 + (double)(i & 7) * 0.125;
	}
	double huge = 0, mapped = 0;
	for (int a = 0; a < na && ok; a++) {
		double f = buffer_huge_fraction(&buf[a]);
		huge += isnan(f) ? NAN : f * (double)buf[a].mapped;
		mapped += (double)buf[a].mapped;
	}
	sh->huge[tid] = ok && mapped > 0 ? huge / mapped : NAN;
	team_barrier(team);
	if (!__atomic_load_n(&sh->failed, __ATOMIC_SEQ_CST) && ok) {
		double acc = sweep(k, arr, sh->n, 1); /* warm-up */
		/* Calibration: thread 0 times growing sweep counts until 20 ms, then scales. */
		uint64_t s = 1;
		for (;;) {
			team_barrier(team);
			uint64_t t0 = timer_now_ns();
			acc += sweep(k, arr, sh->n, s);
			team_barrier(team);
			double dt = (double)(timer_now_ns() - t0) * 1e-9;
			if (tid == 0) {
				if (dt >= 0.02 || s >= (1ull << 40))
					sh->sweeps = (uint64_t)fmax(1.0, ceil((double)s * o->min_time_s / fmax(dt, 1e-9)));
				else
					sh->sweeps = 0;
			}
			team_barrier(team);
			if (sh->sweeps)
				break;
			s *= 4;
		}
		for (int r = 0; r < o->reps; r++) {
			team_barrier(team);
			uint64_t t0 = timer_now_ns();
			acc += sweep(k, arr, sh->n, sh->sweeps);
			sh->t[r][tid] = (double)(timer_now_ns() - t0) * 1e-9;
		}
		team_barrier(team);
		if (acc == -1.0) /* never true; makes the reductions' results live */
			__atomic_store_n(&sh->sink, 1, __ATOMIC_RELAXED);
	}
	/* After the first barrier every member sees the same `failed`, so all skip or all run: the
	 * barrier counts match. Repetitions are not cut short by Ctrl-C for the same reason. */
	for (int a = 0; a < na; a++)
		buffer_release(&buf[a]);
}

size_t bench_stream_offset(int stream_offset)
{
	return stream_offset < 0 ? 0 : stream_offset ? (size_t)stream_offset : BENCH_STREAM_OFFSET;
}

size_t bench_round_size(const struct bench_kernel *k, size_t size_bytes, int threads)
{
	size_t per = size_bytes / (sizeof(double) * (size_t)bench_arrays(k) * (size_t)threads);
	per -= per % BENCH_ELEM_ALIGN;
	if (per < BENCH_ELEM_ALIGN)
		per = BENCH_ELEM_ALIGN;
	return per * sizeof(double) * (size_t)bench_arrays(k) * (size_t)threads;
}

static struct bench_stat stat_of(const double *v, int n)
{
	double tmp[BENCH_MAX_REPS];
	memcpy(tmp, v, (size_t)n * sizeof(double));
	struct bench_stat s = { INFINITY, order_median(tmp, (size_t)n), -INFINITY };
	for (int i = 0; i < n; i++) {
		s.min = fmin(s.min, v[i]);
		s.max = fmax(s.max, v[i]);
	}
	return s;
}

static int run_once(const struct bench_opts *o, struct bench_result *r, struct as_error *err)
{
	memset(r, 0, sizeof(*r));
	const struct bench_kernel *k = o->kernel;
	int threads = o->cpus.n;
	if (threads < 1 || threads > BENCH_MAX_THREADS)
		return as_error_set(err, -EINVAL, "bench: %d threads (1 to 64)", threads);
	if (o->reps < 1 || o->reps > BENCH_MAX_REPS)
		return as_error_set(err, -EINVAL, "bench: %d repetitions (1 to %d)", o->reps, BENCH_MAX_REPS);
	if (o->stream_offset > BENCH_MAX_OFFSET || (o->stream_offset > 0 && o->stream_offset % 64))
		return as_error_set(err, -EINVAL, "bench: a stream offset of %d bytes (a multiple of 64 up to %d)", o->stream_offset,
				    BENCH_MAX_OFFSET);
	if (!bench_kernel_supported(k))
		return as_error_set(err, -ENOTSUP, "bench: this CPU cannot run %s-%s (needs %s)", k->name, k->variant, k->isa);
	struct shared *sh = calloc(1, sizeof(*sh));
	if (!sh)
		return as_error_set(err, -ENOMEM, "bench: out of memory");
	sh->o = o;
	r->size_bytes = bench_round_size(k, o->size_bytes, threads);
	sh->n = r->size_bytes / (sizeof(double) * (size_t)bench_arrays(k) * (size_t)threads);
	size_t avail = buffer_mem_available();
	if (avail && r->size_bytes > avail / 10 * 9) {
		free(sh);
		char a[32], b[32];
		return as_error_set(err, -ENOMEM, "bench: %s of streams do not fit in the %s of available memory",
				    buffer_format_size(r->size_bytes, a, sizeof(a)), buffer_format_size(avail, b, sizeof(b)));
	}
	if (team_run(&o->cpus, 1, member, sh, err) != 0) {
		free(sh);
		return err ? err->code : -1;
	}
	if (sh->failed) {
		if (err)
			*err = sh->err;
		free(sh);
		return err ? err->code : -1;
	}
	r->n_per_thread = sh->n;
	r->threads = threads;
	r->sweeps = sh->sweeps;
	r->reps = o->reps;
	double gbs[BENCH_MAX_REPS], real[BENCH_MAX_REPS], cy[BENCH_MAX_REPS], gf[BENCH_MAX_REPS];
	double iters = (double)sh->n * (double)threads * (double)sh->sweeps;
	for (int i = 0; i < o->reps; i++) {
		double t = 0;
		for (int j = 0; j < threads; j++)
			t = fmax(t, sh->t[i][j]);
		r->time_s[i] = t;
		gbs[i] = iters * bench_bytes_app(k) / t * 1e-9;
		real[i] = iters * bench_bytes_real(k) / t * 1e-9;
		gf[i] = iters * k->flops / t * 1e-9;
		/* Per thread: the cache lines of doubles it updates per sweep (line_bytes / 8 iterations each). */
		double per_line = o->line_bytes / sizeof(double);
		cy[i] = o->clock_ghz > 0 && per_line >= 1 ? t * o->clock_ghz * 1e9 / ((double)sh->n * (double)sh->sweeps / per_line)
							 : NAN;
	}
	r->gbs = stat_of(gbs, o->reps);
	r->gbs_real = stat_of(real, o->reps);
	r->gflops = stat_of(gf, o->reps);
	r->cy_per_cl = stat_of(cy, o->reps);
	struct bench_stat ts = stat_of(r->time_s, o->reps);
	r->spread = (ts.max - ts.min) / ts.median;
	r->huge_fraction = 1;
	for (int t = 0; t < threads && t < 64; t++) {
		if (isnan(sh->huge[t])) {
			r->huge_fraction = NAN;
			break;
		}
		r->huge_fraction = fmin(r->huge_fraction, sh->huge[t]);
	}
	free(sh);
	return 0;
}

int bench_run(const struct bench_opts *o, struct bench_result *r, struct as_error *err)
{
	int more = o->remeasure < 0 ? 0 : o->remeasure == 0 ? 2 : o->remeasure;
	if (cond_noisy_streak() >= COND_BUSY_STREAK) /* the machine stays busy: once, flagged */
		more = 0;
	uint64_t t0 = timer_now_ns();
	double budget = 0, paused = 0;
	for (int attempt = 1;; attempt++) {
		struct cond_window w;
		struct conditions c;
		if (o->wait_quiet_s > 0) { /* --wait-quiet: off the budget, as the pauses */
			uint64_t q0 = timer_now_ns();
			cond_wait_quiet(&o->cpus, NULL, COND_SHARED, o->wait_quiet_s);
			paused += (double)(timer_now_ns() - q0) * 1e-9;
		}
		uint64_t a0 = timer_now_ns();
		cond_window_begin(&w, &o->cpus, NULL, COND_SHARED);
		int rc = run_once(o, r, err);
		cond_window_clock(&w, o->clock_ghz, o->clock_now && o->clock_ghz > 0 ? o->clock_now() : NAN);
		cond_window_end(&w, &c);
		if (rc)
			return rc;
		c.attempts = attempt;
		if (r->spread > BENCH_SPREAD_MAX) {
			size_t k = strlen(c.why);
			snprintf(c.why + k, sizeof(c.why) - k, "%srepetitions disagree by %.0f %%", k ? ", " : "",
				 100 * r->spread);
			c.noisy = 1;
		}
		r->cond = c;
		uint64_t now = timer_now_ns();
		double spent = (double)(now - t0) * 1e-9 - paused, last = (double)(now - a0) * 1e-9;
		if (attempt == 1) /* the first run's time and twice that again, with a fifth for runs that vary */
			budget = 3.6 * spent;
		if (!c.noisy || attempt > more || spent + last > budget)
			break;
		uint64_t p0 = timer_now_ns();
		cond_wait_quiet(&o->cpus, NULL, COND_SHARED, 1.0); /* let a burst of other work pass */
		paused += (double)(timer_now_ns() - p0) * 1e-9;
	}
	cond_summary_final(&r->cond);
	return 0;
}
