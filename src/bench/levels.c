/* Working sets per memory level and the sweep of kernels over levels and thread counts; see
 * levels.h. */
#include "bench/levels.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/buffer.h"

void bench_levels_from(const double *level_bytes, int nl, struct bench_levels *out)
{
	if (nl > BENCH_MAX_LEVELS - 1)
		nl = BENCH_MAX_LEVELS - 1;
	*out = (struct bench_levels){ .n = nl + 1 };
	for (int i = 0; i < nl; i++) {
		snprintf(out->name[i], sizeof(out->name[i]), "L%d", i + 1);
		out->level_bytes[i] = level_bytes[i];
		out->size[i] = (size_t)(i == 0 ? level_bytes[0] / 2 : sqrt(level_bytes[i - 1] * level_bytes[i]));
	}
	double s = fmax(8 * (nl ? level_bytes[nl - 1] : 0), 512.0 * (1 << 20));
	size_t avail = buffer_mem_available();
	if (avail && s > avail / 4.0)
		s = avail / 4.0;
	snprintf(out->name[nl], sizeof(out->name[nl]), "MEM");
	out->size[nl] = (size_t)s;
}

size_t bench_levels_size(const struct bench_levels *lv, int level, int threads)
{
	return level < lv->n - 2 ? lv->size[level] * (size_t)threads : lv->size[level];
}

static size_t cell(const struct bench_sweep_result *res, int level, int threads, int kernel)
{
	return ((size_t)level * (size_t)res->nthreads + (size_t)(threads - 1)) * (size_t)res->nkernels + (size_t)kernel;
}

static int stopping(const struct bench_sweep *s, const struct bench_sweep_result *res)
{
	return res->stopped || (s->stop && *s->stop);
}

/* The kernels of one (level, threads) pair. */
static void run_pair(const struct bench_sweep *s, struct bench_sweep_result *res, int l, int t, int total)
{
	res->entered[(size_t)l * (size_t)res->nthreads + (size_t)(t - 1)] = 1;
	struct bench_opts o = s->run;
	o.cpus.n = t;
	for (int i = 0; i < t; i++)
		o.cpus.cpu[i] = s->cpus->cpu[i];
	o.size_bytes = bench_levels_size(s->lv, l, t);
	if (s->max_bytes && o.size_bytes > s->max_bytes)
		o.size_bytes = s->max_bytes;
	for (int k = 0; k < s->nkernels && !stopping(s, res); k++) {
		struct bench_sweep_point pt = { .level = l, .threads = t, .kernel = k, .level_name = s->lv->name[l],
						.k = s->kernels[k], .size_bytes = o.size_bytes, .done = ++res->done,
						.total = total };
		if (s->report)
			s->report(s->arg, &pt, NULL);
		o.kernel = s->kernels[k];
		struct as_error err = { 0 };
		size_t c = cell(res, l, t, k);
		if (bench_run(&o, &res->run[c], &err) == 0) {
			res->state[c] = BENCH_SWEEP_OK;
		} else {
			res->state[c] = BENCH_SWEEP_FAILED;
			if (s->report && s->report(s->arg, &pt, &err))
				res->stopped = 1;
		}
	}
}

int bench_sweep_run(const struct bench_sweep *s, struct bench_sweep_result *res, struct as_error *err)
{
	int nl = s->lv->n, nt = s->max_threads;
	*res = (struct bench_sweep_result){ .nlevels = nl, .nthreads = nt, .nkernels = s->nkernels };
	size_t pairs = (size_t)nl * (size_t)nt, cells = pairs * (size_t)s->nkernels;
	res->entered = calloc(pairs ? pairs : 1, 1);
	res->state = calloc(cells ? cells : 1, 1);
	res->run = calloc(cells ? cells : 1, sizeof(*res->run));
	if (!res->entered || !res->state || !res->run) {
		bench_sweep_release(res);
		return as_error_set(err, -ENOMEM, "bench: no memory for the results of %zu runs", cells);
	}
	int total = (int)cells;
	if (s->threads_outer) {
		for (int t = 1; t <= nt && !stopping(s, res); t++)
			for (int l = 0; l < nl && !stopping(s, res); l++)
				run_pair(s, res, l, t, total);
	} else {
		for (int l = 0; l < nl && !stopping(s, res); l++)
			for (int t = 1; t <= nt && !stopping(s, res); t++)
				run_pair(s, res, l, t, total);
	}
	return 0;
}

enum bench_sweep_state bench_sweep_state(const struct bench_sweep_result *res, int level, int threads, int kernel)
{
	if (level < 0 || level >= res->nlevels || threads < 1 || threads > res->nthreads || kernel < 0 ||
	    kernel >= res->nkernels)
		return BENCH_SWEEP_NOT_RUN;
	return (enum bench_sweep_state)res->state[cell(res, level, threads, kernel)];
}

const struct bench_result *bench_sweep_get(const struct bench_sweep_result *res, int level, int threads, int kernel)
{
	if (bench_sweep_state(res, level, threads, kernel) != BENCH_SWEEP_OK)
		return NULL;
	return &res->run[cell(res, level, threads, kernel)];
}

int bench_sweep_entered(const struct bench_sweep_result *res, int level, int threads)
{
	if (level < 0 || level >= res->nlevels || threads < 1 || threads > res->nthreads)
		return 0;
	return res->entered[(size_t)level * (size_t)res->nthreads + (size_t)(threads - 1)];
}

void bench_sweep_release(struct bench_sweep_result *res)
{
	free(res->entered);
	free(res->state);
	free(res->run);
	*res = (struct bench_sweep_result){ 0 };
}

void bench_sweep_ecm_cycles(const struct bench_sweep_result *res, int load, int store, int nlev,
			    struct bench_ecm_cycles *out)
{
	const struct bench_result *r;
	out->nlevels = 0;
	while (out->nlevels < nlev && out->nlevels < BENCH_MAX_LEVELS && (r = bench_sweep_get(res, out->nlevels, 1, load)) &&
	       r->cy_per_cl.min > 0) {
		out->load_cy[out->nlevels] = r->cy_per_cl.min;
		out->nlevels++;
	}
	const struct bench_result *st = bench_sweep_get(res, 0, 1, store);
	out->store_l1_cy = st ? st->cy_per_cl.min : 0;
}
