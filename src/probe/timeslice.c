/* The scheduler's time slice (BlackjackBench §3.6): with twice as many busy threads as CPUs, a
 * thread sees gaps in its own timeline while another runs; the typical gap is the time slice. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/team.h"
#include "common/timer.h"
#include "probe/core.h"

struct slice_run {
	uint64_t run_ns, threshold_ns;
	double *gaps[256];
	size_t count[256], cap[256];
	int oom;
};

static void member(struct team *t, int tid, int cpu, void *arg)
{
	struct slice_run *r = arg;
	(void)t;
	(void)cpu;
	size_t cap = 4096, n = 0;
	double *g = malloc(cap * sizeof(double));
	if (!g) {
		r->oom = 1;
		return;
	}
	uint64_t t0 = timer_now_ns(), ts = t0, te = t0;
	while (te - t0 < r->run_ns) {
		te = timer_now_ns();
		if (te - ts > r->threshold_ns) {
			if (n == cap) {
				double *ng = realloc(g, 2 * cap * sizeof(double));
				if (!ng)
					break;
				g = ng;
				cap *= 2;
			}
			g[n++] = (double)(te - ts) / 1000.0;
		}
		ts = te;
	}
	r->gaps[tid] = g;
	r->count[tid] = n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int probe_timeslice_run(const struct probe_opts *o, int threads, double run_s, struct timeslice_result *res,
			struct as_error *err)
{
	memset(res, 0, sizeof(*res));
	if (threads < 2 || threads > 256)
		return as_error_set(err, -EINVAL, "probe timeslice: %d threads (2..256)", threads);
	struct slice_run *r = calloc(1, sizeof(*r));
	if (!r)
		return as_error_set(err, -ENOMEM, "probe timeslice: out of memory");
	r->run_ns = (uint64_t)(run_s * 1e9);
	r->threshold_ns = 20000; /* 20 us: far above a loop iteration, far below any time slice */
	if (o->progress)
		o->progress(o->progress_ctx, "timeslice", "oversubscribed threads running", 0, 1);
	struct as_cpulist cpus = { .n = threads };
	int rc = team_run(&cpus, 0, member, r, err);
	size_t total = 0;
	for (int i = 0; i < threads; i++)
		total += r->count[i];
	if (!rc && !r->oom) {
		res->gaps_us = malloc((total ? total : 1) * sizeof(double));
		if (!res->gaps_us)
			rc = as_error_set(err, -ENOMEM, "probe timeslice: out of memory");
		for (int i = 0; i < threads && res->gaps_us; i++) {
			memcpy(res->gaps_us + res->n, r->gaps[i], r->count[i] * sizeof(double));
			res->n += r->count[i];
		}
		if (res->gaps_us)
			qsort(res->gaps_us, res->n, sizeof(double), cmp_double);
	} else if (!rc) {
		rc = as_error_set(err, -ENOMEM, "probe timeslice: out of memory");
	}
	for (int i = 0; i < threads; i++)
		free(r->gaps[i]);
	free(r);
	res->threads = threads;
	res->run_s = run_s;
	res->threshold_us = 20.0;
	return rc;
}

void timeslice_result_release(struct timeslice_result *res)
{
	free(res->gaps_us);
	memset(res, 0, sizeof(*res));
}
