/* The timeslice probe (BlackjackBench §3.6, see timeslice.h): gaps in the timelines of
 * oversubscribed threads, and their mode. */
#include "probe/timeslice.h"
#include "common/array.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/team.h"
#include "common/timer.h"
#include "machine/probes.h"
#include "probe/schedstat.h"

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
			double *ng = array_grow(g, &cap, n, sizeof(double), 64);
			if (!ng)
				break;
			g = ng;
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

int probe_timeslice_run(const struct probe_opts *o, int threads, double run_s, struct probe_timeslice_result *res,
			struct as_error *err)
{
	free(res->gaps_us);
	res->gaps_us = NULL;
	res->n = 0;
	if (threads < 2 || threads > 256)
		return as_error_set(err, -EINVAL, "probe timeslice: %d threads (2..256)", threads);
	struct slice_run *r = calloc(1, sizeof(*r));
	if (!r)
		return as_error_set(err, -ENOMEM, "probe timeslice: out of memory");
	r->run_ns = (uint64_t)(run_s * 1e9);
	r->threshold_ns = 20000; /* 20 us: far above a loop iteration, far below any time slice */
	probe_opts_report(o, "timeslice", "oversubscribed threads running", 0, 1);
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

void probe_timeslice_result_init(struct probe_timeslice_result *r)
{
	memset(r, 0, sizeof(*r));
}

void probe_timeslice_result_release(struct probe_timeslice_result *r)
{
	free(r->gaps_us);
	probe_timeslice_result_init(r);
}

void probe_timeslice_analyze(struct probe_timeslice_result *r, struct machine_probes *rec)
{
	static const double q[TIMESLICE_NQUANTILES] = { 0.1, 0.25, 0.5, 0.75, 0.9 };
	r->have_mode = dist_mode_log_time(r->gaps_us, r->n, 20, &r->mode) == 0;
	const struct dist_mode *m = &r->mode;
	struct machine_answer *slice = &rec->timeslice;
	rec->have[MP_TIMESLICE] = MP_HAVE_YES;
	probe_answer_clear(slice);
	probe_answer_set(slice, r->have_mode ? m->value / 1000.0 : NAN,
			 r->have_mode ? fmin(1.0, m->share * 2.0) * fmin(1.0, (double)m->count / 20.0) : 0,
			 "2x oversubscribed unpinned threads record gaps above 20 us in their own timeline; the log-histogram bin (20 per decade) holding the most lost time");
	/* Gaps on a busy machine are other processes' slices too, often several in a row; the
	 * kernel's account of our own threads' slices is not. When the two witnesses are more than
	 * 25 % apart the kernel's stands, with the gaps' answer in the reason. */
	double k = rec->schedstat.value, g = slice->value;
	if (isfinite(k) && k > 0 && (!isfinite(g) || fabs(g / k - 1) > 0.25)) {
		probe_answer_set(slice, k, rec->schedstat.confidence * 0.75, rec->schedstat.method);
		slice->os_reported = rec->schedstat.os_reported;
		if (isfinite(g))
			snprintf(slice->reason, sizeof(slice->reason),
				 "the gaps' mode is %.2f ms, %.0f %% from the kernel's schedstat: other processes ran "
				 "in the gaps (a busy machine) or a hypervisor stopped the guest",
				 g, 100 * (g / k - 1));
		else
			snprintf(slice->reason, sizeof(slice->reason), "no gaps above the threshold; the kernel's schedstat only");
	}
	rec->timeslice_ev.threads = r->threads;
	rec->timeslice_ev.run_s = r->run_s;
	rec->timeslice_ev.gaps = (long long)r->n;
	rec->timeslice_ev.threshold_us = r->threshold_us;
	for (int i = 0; i < TIMESLICE_NQUANTILES; i++)
		rec->timeslice_ev.quantile_ms[i] = r->n ? dist_quantile_sorted(r->gaps_us, r->n, q[i]) / 1000.0 : NAN;
}

/* The second witness into rec->schedstat: what the kernel counts for two busy threads sharing
 * env->cpu (none, with the reason, where schedstat is missing). */
static void schedstat_witness(struct probe_env *env, const struct probe_opts *o, struct machine_probes *rec)
{
	struct machine_answer *a = &rec->schedstat;
	int stopped = probe_opts_stopped(o);
	probe_answer_clear(a);
	if (!stopped)
		probe_answer_set(a, NAN, 0, "two busy threads pinned to one CPU; the kernel's schedstat run time / slices");
	if (stopped)
		return;
	struct schedstat_slice ss;
	struct as_error serr = { 0 };
	probe_opts_report(o, "timeslice", "two threads on one CPU (schedstat)", 1, 2);
	if (schedstat_slice_run(env->cpu, 2, env->quick ? 0.3 : 1.0, &ss, &serr) == 0) {
		a->value = ss.mean_slice_ms;
		a->confidence = ss.slices[0] + ss.slices[1] >= 20 ? 0.9 : 0.5;
	} else {
		snprintf(a->reason, sizeof(a->reason), "%.180s", serr.msg);
	}
}

int probe_timeslice_find(struct probe_env *env, probe_progress_fn *progress, struct probe_timeslice_result *out,
			 struct machine_probes *rec, struct as_error *err)
{
	probe_timeslice_result_init(out);
	int rc = cpu_allow_self(&env->allowed, err);
	if (rc != 0)
		return rc;
	struct probe_opts o = probe_opts_of(env, progress, HUGE_DEFAULT);
	out->cpus = env->allowed.n;
	rc = probe_timeslice_run(&o, 2 * env->allowed.n, env->quick ? 0.5 : 2.0, out, err);
	cpu_pin_self(env->cpu, NULL);
	if (rc != 0)
		return rc;
	schedstat_witness(env, &o, rec);
	probe_timeslice_analyze(out, rec);
	return 0;
}
