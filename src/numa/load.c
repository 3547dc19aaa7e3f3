/* The load generator (see load.h). A phase is one team of pinned threads started from a helper
 * thread; each member allocates its streams bound to its flow's DST node, touches them, meets the
 * others on the barrier, then sweeps its streams in chunks and adds the bytes to its own counter.
 * The calling thread samples the counters every interval. */
#include "numa/load.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/kernels.h"
#include "bench/run.h"
#include "common/buffer.h"
#include "common/team.h"
#include "common/timer.h"

#define CHUNK_ELEMS 8192 /* per stream per kernel call: 64 KiB, a multiple of BENCH_ELEM_ALIGN */
#define PAD 8            /* counters a cache line apart */

struct phase {
	const struct numa_load_opts *o;
	const struct bench_kernel *k;
	struct as_cpulist cpus;        /* the team */
	int flow[AS_MAX_CPUS];         /* member -> flow */
	size_t n;                      /* elements per stream per thread */
	uint64_t *bytes;               /* [member * PAD] */
	int ready, failed, stop;
	struct as_error err;
	double placed[NUMA_MAX_FLOWS];
	struct as_error team_err;
	int team_rc;
};

static void member(struct team *team, int tid, int cpu, void *arg)
{
	(void)cpu;
	struct phase *ph = arg;
	const struct bench_kernel *k = ph->k;
	int f = ph->flow[tid], na = bench_arrays(k), dst = ph->o->flows[f].dst;
	size_t stagger = bench_stream_offset(0);
	struct buffer buf[BENCH_MAX_ARRAYS] = { { 0 } };
	double *arr[BENCH_MAX_ARRAYS];
	struct as_error e = { 0 };
	int ok = 1;
	for (int a = 0; a < na && ok; a++) {
		size_t bytes = ph->n * sizeof(double) + (size_t)a * stagger;
		ok = buffer_alloc(&buf[a], bytes, HUGE_ALWAYS, &e) == 0 && numa_place_memory(buf[a].data, buf[a].mapped, dst, &e) == 0;
		if (ok) {
			arr[a] = (double *)((char *)buf[a].data + (size_t)a * stagger);
			for (size_t i = 0; i < ph->n; i++) /* first touch, on DST by the binding */
				arr[a][i] = 1.0;
		}
	}
	if (!ok && !__atomic_exchange_n(&ph->failed, 1, __ATOMIC_SEQ_CST))
		ph->err = e;
	/* The first member of each flow checks where its pages went. */
	if (ok && (tid == 0 || ph->flow[tid - 1] != f))
		ph->placed[f] = numa_place_check(arr[0], ph->n * sizeof(double), dst, 32);
	__atomic_add_fetch(&ph->ready, 1, __ATOMIC_SEQ_CST);
	team_barrier(team);
	volatile double sink = 0;
	uint64_t per_chunk = (uint64_t)CHUNK_ELEMS * (uint64_t)bench_bytes_real(k);
	while (ok && !__atomic_load_n(&ph->failed, __ATOMIC_RELAXED) && !__atomic_load_n(&ph->stop, __ATOMIC_RELAXED)) {
		for (size_t off = 0; off + CHUNK_ELEMS <= ph->n; off += CHUNK_ELEMS) {
			double *c[BENCH_MAX_ARRAYS];
			for (int a = 0; a < na; a++)
				c[a] = arr[a] + off;
			sink += k->fn(c, CHUNK_ELEMS, 1.000001);
			__atomic_add_fetch(&ph->bytes[(size_t)tid * PAD], per_chunk, __ATOMIC_RELAXED);
			if (__atomic_load_n(&ph->stop, __ATOMIC_RELAXED))
				break;
		}
	}
	(void)sink;
	for (int a = 0; a < na; a++)
		buffer_release(&buf[a]);
}

static void *team_main(void *p)
{
	struct phase *ph = p;
	ph->team_rc = team_run(&ph->cpus, 1, member, ph, &ph->team_err);
	if (ph->team_rc) /* the team never started: release the waiting sampler */
		__atomic_store_n(&ph->failed, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void sleep_until(uint64_t ns)
{
	uint64_t now = timer_now_ns();
	if (ns <= now)
		return;
	struct timespec ts = { (time_t)((ns - now) / 1000000000u), (long)((ns - now) % 1000000000u) };
	nanosleep(&ts, NULL);
}

/* Per-flow bytes now, summed over members. */
static void snapshot(const struct phase *ph, int nflows, double *out)
{
	for (int f = 0; f < nflows; f++)
		out[f] = 0;
	for (int m = 0; m < ph->cpus.n; m++)
		out[ph->flow[m]] += (double)__atomic_load_n(&ph->bytes[(size_t)m * PAD], __ATOMIC_RELAXED);
}

/* Runs the flows with on[f] set for o->duration_s; whole-phase GB/s into gbs (NAN for flows off). */
static int phase_run(const struct numa_load_opts *o, const struct bench_kernel *k, const int *on, int phase_id,
		     double *gbs, struct numa_load_result *r, struct as_error *err)
{
	struct phase *ph = calloc(1, sizeof(*ph));
	if (!ph)
		return as_error_set(err, -ENOMEM, "out of memory");
	ph->o = o;
	ph->k = k;
	for (int f = 0; f < o->n; f++) {
		gbs[f] = NAN;
		for (int t = 0; on[f] && t < o->cpus[f].n; t++) {
			ph->flow[ph->cpus.n] = f;
			ph->cpus.cpu[ph->cpus.n++] = o->cpus[f].cpu[t];
		}
	}
	size_t bytes = o->bytes_per_thread ? o->bytes_per_thread : (size_t)256 << 20;
	size_t per_stream = bytes / (size_t)bench_arrays(k) / sizeof(double);
	ph->n = per_stream / CHUNK_ELEMS * CHUNK_ELEMS;
	if (ph->n == 0)
		ph->n = CHUNK_ELEMS;
	r->bytes_per_thread = ph->n * sizeof(double) * (size_t)bench_arrays(k);
	size_t avail = buffer_mem_available();
	if (avail && r->bytes_per_thread * (size_t)ph->cpus.n > avail / 2) {
		int threads = ph->cpus.n;
		free(ph);
		return as_error_set(err, -ENOMEM, "%d threads of %zu bytes of streams each do not fit in half the %zu bytes of available memory",
				    threads, r->bytes_per_thread, avail);
	}
	ph->bytes = calloc((size_t)ph->cpus.n * PAD, sizeof(uint64_t));
	pthread_t th;
	int rc = 0, e;
	if (!ph->bytes || (e = pthread_create(&th, NULL, team_main, ph)) != 0) {
		free(ph->bytes);
		free(ph);
		return as_error_set(err, -ENOMEM, "cannot start the load threads");
	}
	while (__atomic_load_n(&ph->ready, __ATOMIC_SEQ_CST) < ph->cpus.n && !__atomic_load_n(&ph->failed, __ATOMIC_SEQ_CST))
		sleep_until(timer_now_ns() + 2000000);
	double b0[NUMA_MAX_FLOWS], b1[NUMA_MAX_FLOWS], bs[NUMA_MAX_FLOWS];
	uint64_t t0 = timer_now_ns(), tprev = t0, tend = t0;
	snapshot(ph, o->n, b0);
	memcpy(b1, b0, sizeof(b0));
	uint64_t step = (uint64_t)(o->interval_s * 1e9), stop_at = t0 + (uint64_t)(o->duration_s * 1e9);
	for (uint64_t next = t0 + step; !__atomic_load_n(&ph->failed, __ATOMIC_SEQ_CST); next += step) {
		if (next > stop_at)
			next = stop_at;
		while (timer_now_ns() < next && !(o->stop && *o->stop))
			sleep_until(timer_now_ns() + 20000000 < next ? timer_now_ns() + 20000000 : next);
		uint64_t now = timer_now_ns();
		snapshot(ph, o->n, bs);
		struct numa_load_sample s = { .phase = phase_id, .t_s = (double)(now - t0) * 1e-9 };
		for (int f = 0; f < o->n; f++)
			s.gbs[f] = on[f] && now > tprev ? (bs[f] - b1[f]) / (double)(now - tprev) : NAN;
		if (phase_id < 0 && r->nsamples < r->max_samples && r->series) {
			memcpy(r->series + (size_t)r->nsamples * (size_t)o->n, s.gbs, (size_t)o->n * sizeof(double));
			r->nsamples++;
		}
		if (o->sample)
			o->sample(o->arg, &s);
		memcpy(b1, bs, sizeof(bs));
		tprev = tend = now;
		if (now >= stop_at || (o->stop && *o->stop))
			break;
	}
	__atomic_store_n(&ph->stop, 1, __ATOMIC_SEQ_CST);
	pthread_join(th, NULL);
	if (ph->team_rc) {
		rc = ph->team_rc;
		if (err)
			*err = ph->team_err;
	} else if (ph->failed) {
		rc = ph->err.code ? ph->err.code : -EIO;
		if (err)
			*err = ph->err;
	} else {
		for (int f = 0; f < o->n; f++) {
			if (!on[f])
				continue;
			gbs[f] = tend > t0 ? (b1[f] - b0[f]) / (double)(tend - t0) : NAN;
			if (phase_id < 0 || phase_id == f)
				r->placed[f] = ph->placed[f];
		}
		if (phase_id < 0)
			r->together_s = (double)(tend - t0) * 1e-9;
	}
	free(ph->bytes);
	free(ph);
	return rc;
}

/* One phase as a step of the conditions module: measured again once where other work disturbed
 * it (the phase together starts its time series again). */
struct load_phase {
	const struct numa_load_opts *o;
	const struct bench_kernel *k;
	const int *on;
	int phase_id;
	double *gbs;
	struct numa_load_result *r;
	struct as_error *err;
};

static int load_phase_run(void *arg, int attempt)
{
	struct load_phase *x = arg;
	if (attempt > 1 && x->phase_id < 0)
		x->r->nsamples = 0;
	return phase_run(x->o, x->k, x->on, x->phase_id, x->gbs, x->r, x->err);
}

int numa_load_run(const struct numa_load_opts *o, struct numa_load_result *r, struct as_error *err)
{
	memset(r, 0, sizeof(*r));
	for (int f = 0; f < NUMA_MAX_FLOWS; f++)
		r->alone_gbs[f] = r->together_gbs[f] = r->placed[f] = NAN;
	if (o->n < 1 || o->n > NUMA_MAX_FLOWS)
		return as_error_set(err, -EINVAL, "%d flows: 1 to %d", o->n, NUMA_MAX_FLOWS);
	if (!(o->duration_s > 0) || !(o->interval_s > 0))
		return as_error_set(err, -EINVAL, "the duration and the interval must be above 0 s");
	const struct bench_kernel *k = bench_kernel_best(o->kernel ? o->kernel : "triad");
	if (!k || !bench_kernel_supported(k))
		return as_error_set(err, -EINVAL, "no streaming kernel '%s' on this CPU", o->kernel ? o->kernel : "triad");
	snprintf(r->kernel, sizeof(r->kernel), "%s-%s", k->name, k->variant);
	r->write_allocate = bench_bytes_real(k) != bench_bytes_app(k);
	int total = 0;
	for (int f = 0; f < o->n; f++)
		total += o->cpus[f].n;
	if (total > AS_MAX_CPUS)
		return as_error_set(err, -EINVAL, "%d threads in all: at most %d", total, AS_MAX_CPUS);
	double want = o->duration_s / o->interval_s + 2;
	int max = want < NUMA_LOAD_MAX_SAMPLES ? (int)want : NUMA_LOAD_MAX_SAMPLES;
	r->series = calloc((size_t)max * (size_t)o->n, sizeof(double));
	r->max_samples = max;
	if (!r->series)
		return as_error_set(err, -ENOMEM, "out of memory");
	int on[NUMA_MAX_FLOWS];
	double g[NUMA_MAX_FLOWS];
	if (o->alone && o->n > 1) {
		for (int f = 0; f < o->n && !(o->stop && *o->stop); f++) {
			for (int q = 0; q < o->n; q++)
				on[q] = q == f;
			struct load_phase ph = { o, k, on, f, g, r, err };
			int rc = cond_step(NULL, COND_SHARED, COND_STEP_ATTEMPTS, o->stop, load_phase_run, &ph, &r->alone_cond[f]);
			if (rc)
				return as_error_prefix(err, "flow %d:%d:%d alone: ", o->flows[f].src, o->flows[f].dst, o->flows[f].threads), rc;
			r->alone_gbs[f] = g[f];
		}
		r->alone_run = !(o->stop && *o->stop);
	}
	if (o->stop && *o->stop) {
		r->interrupted = 1;
		return 0;
	}
	for (int q = 0; q < o->n; q++)
		on[q] = 1;
	struct load_phase ph = { o, k, on, -1, r->together_gbs, r, err };
	int rc = cond_step(NULL, COND_SHARED, COND_STEP_ATTEMPTS, o->stop, load_phase_run, &ph, &r->together_cond);
	if (rc)
		return as_error_prefix(err, "flows together: "), rc;
	if (o->n == 1) { /* one flow: alone and together are the same run */
		r->alone_gbs[0] = r->together_gbs[0];
	}
	r->interrupted = o->stop && *o->stop;
	return 0;
}

void numa_load_result_release(struct numa_load_result *r)
{
	free(r->series);
	r->series = NULL;
}
