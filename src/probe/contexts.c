/* The contexts probe (BlackjackBench §3.4, see contexts.h): teams of unpinned threads doing the
 * same work, their time normalised to one thread, and the first step of that curve. */
#include "probe/contexts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/order.h"
#include "analysis/steps.h"
#include "common/team.h"
#include "common/timer.h"
#include "probe/chase.h"
#include "probe/plan.h"

const char *probe_contexts_kind_name(enum contexts_kind k)
{
	static const char *const names[CONTEXTS_KINDS] = {
#define X(id, name) name,
		CONTEXTS_LIST(X)
#undef X
	};
	return k >= 0 && k < CONTEXTS_KINDS ? names[k] : "?";
}

/* Operands come from a volatile, so the compiler cannot fold x / 1 away; the values stay 1. */
static volatile double fp_one = 1.0;
static volatile uint64_t int_one = 1;

/* Four independent chains of divisions of type T by one, iters times; keep: what holds the
 * chains in registers after each step (nothing for doubles). */
#define DIVISION_CHAINS(T, one, iters, keep)                     \
	T d = (one), a = (one), b = (one), c = (one), e = (one); \
	for (uint64_t i = 0; i < (iters); i++) {                 \
		a = a / d;                                       \
		b = b / d;                                       \
		c = c / d;                                       \
		e = e / d;                                       \
		keep;                                            \
	}                                                        \
	return (uint64_t)(a + b + c + e)

static uint64_t work_fp(uint64_t iters)
{
	DIVISION_CHAINS(double, fp_one, iters, (void)0);
}

static uint64_t work_int(uint64_t iters)
{
	DIVISION_CHAINS(uint64_t, int_one, iters, __asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(e)));
}

struct ctx_run {
	enum contexts_kind kind;
	uint64_t iters;
	uint64_t seed;
	volatile uint64_t sink;
};

static void member(struct team *t, int tid, int cpu, void *arg)
{
	struct ctx_run *r = arg;
	(void)t;
	(void)cpu;
	if (r->kind == CONTEXTS_FP) {
		r->sink += work_fp(r->iters);
	} else if (r->kind == CONTEXTS_INT) {
		r->sink += work_int(r->iters);
	} else {
		/* Each thread chases its own 8 KiB block, first touched by itself. */
		enum { BLOCK = 8192, LINE = 64 };
		char *block = aligned_alloc(4096, BLOCK);
		if (!block)
			return;
		size_t off[BLOCK / LINE];
		struct rng g;
		rng_init(&g, r->seed + (uint64_t)tid);
		for (size_t i = 0; i < BLOCK / LINE; i++)
			off[i] = i * LINE;
		rng_shuffle(&g, off, BLOCK / LINE);
		void *p = chase_link(block, off, BLOCK / LINE);
		chase_run(&p, r->iters);
		r->sink += (uintptr_t)p & 1;
		free(block);
	}
}

/* Wall time of one team run: all threads start together and the slowest one ends it. */
static int timed_team(int m, struct ctx_run *r, double *ns, struct as_error *err)
{
	struct as_cpulist cpus = { .n = m };
	uint64_t t0 = timer_now_ns();
	int rc = team_run(&cpus, 0, member, r, err);
	*ns = (double)(timer_now_ns() - t0);
	return rc;
}

/* Calibrates one thread's work to about 20 ms (5 ms with --quick): long against thread start-up
 * (tens of us), short against the scheduler's balancing. */
static int calibrate(const struct probe_opts *o, struct ctx_run *r, struct as_error *err)
{
	double ns, target = o->quick ? 5e6 : 20e6;
	for (;;) {
		int rc = timed_team(1, r, &ns, err);
		if (rc != 0)
			return rc;
		if (ns >= target || r->iters > (1ull << 40))
			return 0;
		r->iters = ns < target / 16 ? r->iters * 16 : (uint64_t)((double)r->iters * target / ns) + 1;
	}
}

/* The time of a team of m threads normalised to one thread, over the repetitions: the fastest
 * (*best) and the median (*med) ratio. Each repetition of m > 1 threads is timed beside a
 * one-thread reference run right before or after it (the order alternating), and divided by it:
 * a burst of other work or a clock that moves between team sizes changes both alike, so the
 * knee does not move with them (issue 47 item 4). m = 1: its fastest is 1. */
static int measure_team(const struct probe_opts *o, int m, struct ctx_run *r, double *best, double *med,
			struct as_error *err)
{
	int reps = o->quick ? 3 : 5;
	double t[8], ref[8];
	for (int i = 0; i < reps; i++) {
		int rc = 0;
		if (m > 1 && (i & 1))
			rc = timed_team(1, r, &ref[i], err);
		if (!rc)
			rc = timed_team(m, r, &t[i], err);
		if (!rc && m > 1 && !(i & 1))
			rc = timed_team(1, r, &ref[i], err);
		if (rc != 0)
			return rc;
	}
	if (m == 1) {
		double b = order_kth(t, (size_t)reps, 0);
		*best = 1;
		*med = order_median(t, (size_t)reps) / b;
		return 0;
	}
	probe_contexts_ratios(t, ref, reps, best, med);
	return 0;
}

void probe_contexts_ratios(const double *team_ns, const double *ref_ns, int reps, double *best, double *med)
{
	double ratio[64];
	int n = reps < 64 ? reps : 64;
	for (int i = 0; i < n; i++)
		ratio[i] = team_ns[i] / ref_ns[i];
	*best = n ? order_kth(ratio, (size_t)n, 0) : NAN;
	*med = n ? order_median(ratio, (size_t)n) : NAN;
}

int probe_contexts_run(const struct probe_opts *o, enum contexts_kind kind, int max_threads,
		       struct probe_curve *out, struct as_error *err)
{
	struct ctx_run r = { .kind = kind, .iters = 1000, .seed = o->seed };
	int rc = calibrate(o, &r, err);
	if (rc != 0)
		return rc;
	for (int m = 1; m <= max_threads && !probe_opts_stopped(o); m++) {
		char label[48];
		snprintf(label, sizeof(label), "%s, %d thread%s", probe_contexts_kind_name(kind), m, m == 1 ? "" : "s");
		probe_opts_report(o, "contexts", label, m - 1, max_threads);
		double best, med;
		if ((rc = measure_team(o, m, &r, &best, &med, err)) != 0)
			return rc;
		if ((rc = probe_curve_add(out, m, best, med)) != 0)
			return as_error_set(err, rc, "probe contexts: out of memory");
		if (best > 2.0)
			break;
	}
	return 0;
}

int probe_contexts_search_run(const struct probe_opts *o, enum contexts_kind kind, int max_threads,
			      struct probe_curve *out, int *teams, struct as_error *err)
{
	struct ctx_run r = { .kind = kind, .iters = 1000, .seed = o->seed };
	*teams = 0;
	int rc = calibrate(o, &r, err);
	if (rc != 0)
		return rc;
	struct probe_contexts_search s;
	probe_contexts_search_init(&s, max_threads);
	double medv[64];
	int m;
	while ((m = probe_contexts_search_next(&s)) > 0 && !probe_opts_stopped(o)) {
		char label[64];
		snprintf(label, sizeof(label), "%s, %d thread%s (team size %d)", probe_contexts_kind_name(kind), m,
			 m == 1 ? "" : "s", *teams + 1);
		probe_opts_report(o, "contexts", label, *teams, *teams + 1);
		double best, med;
		if ((rc = measure_team(o, m, &r, &best, &med, err)) != 0)
			return rc;
		int i = 0;
		while (i < s.n && s.m[i] != m)
			i++;
		if (i == s.n || med < medv[i])
			medv[i < 64 ? i : 63] = med;
		probe_contexts_search_add(&s, m, best);
		(*teams)++;
	}
	/* the curve in increasing M */
	for (int k = 0; k < s.n; k++) {
		int lo = -1;
		for (int i = 0; i < s.n; i++)
			if ((lo < 0 || s.m[i] < s.m[lo]) && (k == 0 || s.m[i] > (int)out->x[out->n - 1]))
				lo = i;
		if (lo < 0)
			break;
		if ((rc = probe_curve_add(out, s.m[lo], s.y[lo], fmax(medv[lo], s.y[lo]))) != 0)
			return as_error_set(err, rc, "probe contexts: out of memory");
	}
	return 0;
}

void probe_contexts_result_init(struct probe_contexts_result *r)
{
	memset(r, 0, sizeof(*r)); /* zeroed curves are empty (memory.h) */
}

void probe_contexts_result_release(struct probe_contexts_result *r)
{
	for (int k = 0; k < CONTEXTS_KINDS; k++)
		probe_curve_release(&r->curve[k]);
	probe_contexts_result_init(r);
}

int probe_contexts_entry(enum contexts_kind kind)
{
	return kind == CONTEXTS_FP ? MP_CONTEXTS_FP : kind == CONTEXTS_INT ? MP_CONTEXTS_INT : MP_CONTEXTS_MEM;
}

static const char *const kind_method[CONTEXTS_KINDS] = {
	"M unpinned threads of FP divisions, time normalised to M = 1; first big step, or the knee of max(1, M/C) where the time ramps",
	"M unpinned threads of integer divisions, time normalised to M = 1; first big step, or the knee of max(1, M/C) where the time ramps",
	"M unpinned threads chasing pointers in an L1-resident block, time normalised to M = 1; first big step, or the knee of max(1, M/C) where the time ramps",
};

static double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* The relative step from point i to i + 1 per thread added. */
static double unit_step(const double *x, const double *y, size_t i)
{
	double dx = x[i + 1] - x[i] > 0 ? x[i + 1] - x[i] : 1;
	if (y[i] <= 0)
		return y[i + 1] > y[i] ? INFINITY : 0;
	return (y[i + 1] - y[i]) / y[i] / dx;
}

/* steps_first_significant (§4.2.1 with small bumps passed over) on steps per thread added: the
 * first step above the mean step, passing over steps below share x the biggest. */
static struct step_answer first_significant(const double *x, const double *y, size_t n, double share)
{
	struct step_answer a = { .index = -1 };
	if (n < 2)
		return a;
	double mean = 0, big = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		mean += unit_step(x, y, i);
		big = fmax(big, unit_step(x, y, i));
	}
	mean /= (double)(n - 1);
	a.threshold = mean;
	int equal_ok = 1;
	for (size_t i = 0; i + 1 < n; i++)
		if (unit_step(x, y, i) > mean && unit_step(x, y, i) > 0)
			equal_ok = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		double st = unit_step(x, y, i);
		if ((st > mean || (equal_ok && st >= mean)) && st > 0) {
			a.index = (int)i;
			a.size = st;
			double noise = 0;
			for (size_t k = 0; k < i; k++)
				noise = fmax(noise, fabs(unit_step(x, y, k)));
			a.confidence = clamp01(1.0 - fmax(noise, mean * 0.5) / st);
			break;
		}
	}
	if (a.index < 0)
		return a;
	for (size_t i = (size_t)a.index; i + 1 < n; i++) {
		double st = unit_step(x, y, i);
		if (st > a.threshold && st >= share * big && st > 0) {
			if ((int)i != a.index) {
				double bump = 0;
				for (size_t k = 0; k < i; k++)
					bump = fmax(bump, unit_step(x, y, k));
				a.index = (int)i;
				a.size = st;
				a.confidence = clamp01(1.0 - fmax(bump, a.threshold * 0.5) / st);
			}
			break;
		}
	}
	return a;
}

/* The knee C (1 .. the largest M) of y = flat x max(1, M / C), flat the median of the points at
 * M <= C, best in relative least squares; -1 when none fits. *confidence = 1 - 4 x rms error. */
static int knee(const double *x, const double *y, size_t n, double *confidence)
{
	int best = -1;
	double best_err = INFINITY, *v = malloc((n ? n : 1) * sizeof(double));
	if (!v)
		return -1;
	for (int c = 1; n && c <= (int)x[n - 1]; c++) {
		size_t m = 0;
		for (size_t i = 0; i < n && x[i] <= c; i++)
			v[m++] = y[i];
		if (m == 0)
			continue;
		double flat = order_median(v, m);
		if (!(flat > 0))
			continue;
		double e = 0;
		for (size_t i = 0; i < n; i++) {
			double pred = flat * (x[i] > c ? x[i] / c : 1.0), r = (y[i] - pred) / pred;
			e += r * r;
		}
		e = sqrt(e / (double)n);
		if (e < best_err) {
			best_err = e;
			best = c;
		}
	}
	free(v);
	*confidence = best < 0 ? 0 : clamp01(1.0 - 4.0 * best_err);
	return best;
}

int probe_contexts_analyze(struct probe_env *env, enum contexts_kind kind, const struct probe_curve *c,
			   struct machine_probes *rec)
{
	double *y = probe_curve_monotone(c);
	if (!y)
		return -ENOMEM;
	/* Two shapes past the last context: a jump (threads stay where they started, the time
	 * doubles; two contexts share out three threads as 1.5) or, where the scheduler spreads
	 * M > C threads evenly, a gentle ramp M / C whose first step is only 1/C: 6 % at 16 CPUs, no
	 * bigger than a VM's noise. A jump is the first step of at least half the biggest one;
	 * a ramp is the knee of the proportional model y = max(1, M / C), fitted to the whole curve.
	 * Steps are per thread added, so the search's sparse points (doubling far from the knee,
	 * neighbours at it) read as the full curve does. */
	double big = 0, value = NAN, conf = 0;
	for (size_t i = 0; i + 1 < c->n; i++)
		big = fmax(big, unit_step(c->x, y, i));
	const char *shape = "jump";
	/* flat: the time never rose by more than the noise (10 %) over the threads tried */
	if (c->n < 2 || !(y[c->n - 1] > 1.1 * y[0])) {
		/* no answer */
	} else if (big >= 0.3) {
		struct step_answer a = first_significant(c->x, y, c->n, 0.5);
		if (a.index >= 0) {
			value = c->x[a.index];
			conf = a.confidence;
		}
	} else {
		int f = knee(c->x, y, c->n, &conf);
		if (f >= 1 && c->n && f < c->x[c->n - 1])
			value = f;
		else
			conf = 0;
		shape = "ramp";
	}
	free(y);
	struct machine_probes_contexts_ev *ev = &rec->contexts_ev[kind];
	machine_probes_text(ev->shape, sizeof(ev->shape), isfinite(value) ? shape : "flat");
	int os = env->topo && env->topo->pus ? env->topo->pus : env->allowed.n;
	struct machine_answer *a = machine_probes_at(rec, probe_contexts_entry(kind));
	probe_answer_clear(a);
	/* Flat to the end: at least as many contexts as threads tried, no answer. */
	probe_answer_set(a, value, isfinite(value) ? conf : 0, kind_method[kind]);
	a->os_reported = os ? os : NAN;
	double *slot = kind == CONTEXTS_FP ? &env->contexts_fp : kind == CONTEXTS_INT ? &env->contexts_int : &env->contexts_mem;
	*slot = value;
	return probe_points_of(&ev->curve, c);
}

int probe_contexts_find(struct probe_env *env, probe_progress_fn *progress, struct probe_contexts_result *out,
			struct machine_probes *rec, struct as_error *err)
{
	probe_contexts_result_init(out);
	int rc = cpu_allow_self(&env->allowed, err);
	if (rc != 0)
		return rc;
	struct probe_opts o = probe_opts_of(env, progress, HUGE_DEFAULT);
	/* Enough threads to see the time double on any machine of up to 256 CPUs. */
	out->max_threads = 2 * env->allowed.n + 2;
	if (out->max_threads > AS_MAX_CPUS)
		out->max_threads = AS_MAX_CPUS;
	machine_probes_group_release(rec, MP_G_CONTEXTS); /* recorded before: a re-measurement */
	rec->have[MP_CONTEXTS] = MP_HAVE_YES;
	machine_probes_text(rec->contexts_search, sizeof(rec->contexts_search),
			    env->all_teams ? PROBE_CONTEXTS_SEARCH_ALL : PROBE_CONTEXTS_SEARCH_BISECT);
	for (int k = 0; k < CONTEXTS_KINDS; k++)
		rec->contexts_ev[k].shape[0] = 0; /* measured kinds get theirs */
	for (int k = 0; k < CONTEXTS_KINDS && !probe_opts_stopped(&o); k++) {
		struct probe_curve *c = &out->curve[k];
		int teams = 0;
		if (env->all_teams) {
			rc = probe_contexts_run(&o, (enum contexts_kind)k, out->max_threads, c, err);
			teams = (int)c->n;
		} else {
			rc = probe_contexts_search_run(&o, (enum contexts_kind)k, out->max_threads, c, &teams, err);
		}
		if (rc == 0 && (rc = probe_contexts_analyze(env, (enum contexts_kind)k, c, rec)) != 0)
			as_error_set(err, rc, "probe contexts: out of memory");
		if (rc != 0) {
			probe_curve_release(c);
			probe_curve_init(c);
			rec->contexts_ev[k].shape[0] = 0;
			break;
		}
		rec->contexts_ev[k].teams = teams;
		out->nkinds++;
	}
	cpu_pin_self(env->cpu, NULL);
	return rc;
}
