/* What the memory probes share (see memory.h): curves, run settings, and the timing of a linked
 * set of slots. Each probe builds its list of slot offsets in its own file (line.c, caches.c,
 * assoc.c, tlb.c) and times a dependent walk over them here (chase.h). */
#include "probe/memory.h"
#include "common/array.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/steps.h"

void probe_curve_init(struct probe_curve *c)
{
	memset(c, 0, sizeof(*c));
}

void probe_curve_release(struct probe_curve *c)
{
	free(c->x);
	free(c->min_ns);
	free(c->median_ns);
	memset(c, 0, sizeof(*c));
}

int probe_curve_add(struct probe_curve *c, double x, double min_ns, double median_ns)
{
	if (c->n == c->cap) { /* the three columns grow to the same capacity */
		size_t cx = c->cap, cm = c->cap, cd = c->cap;
		double *nx = array_grow(c->x, &cx, c->n, sizeof(double), 64);
		if (nx)
			c->x = nx;
		double *nm = nx ? array_grow(c->min_ns, &cm, c->n, sizeof(double), 64) : NULL;
		if (nm)
			c->min_ns = nm;
		double *nd = nm ? array_grow(c->median_ns, &cd, c->n, sizeof(double), 64) : NULL;
		if (!nd)
			return -ENOMEM;
		c->median_ns = nd;
		c->cap = cx;
	}
	c->x[c->n] = x;
	c->min_ns[c->n] = min_ns;
	c->median_ns[c->n] = median_ns;
	c->n++;
	return 0;
}

double *probe_curve_monotone(const struct probe_curve *c)
{
	double *y = malloc((c->n ? c->n : 1) * sizeof(double));
	if (y)
		steps_monotone(c->min_ns, y, c->n);
	return y;
}

int probe_points_copy(struct machine_probes_curve *d, const double *x, const double *min, const double *median,
		      size_t n)
{
	free(d->pt);
	d->pt = NULL;
	d->n = 0;
	if (n > MACHINE_PROBES_MAX_POINTS)
		n = MACHINE_PROBES_MAX_POINTS;
	if (!n)
		return 0;
	if (!(d->pt = malloc(n * sizeof(*d->pt))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		d->pt[i] = (struct machine_probes_point){ x[i], min[i], median ? median[i] : NAN };
	d->n = (int)n;
	return 0;
}

int probe_points_of(struct machine_probes_curve *d, const struct probe_curve *c)
{
	return probe_points_copy(d, c->x, c->min_ns, c->median_ns, c->n);
}

int probe_points_step(const struct machine_probes_curve *c, double at, double *before_ns, double *after_ns,
		      double *next_x)
{
	int i = 0;
	while (i < c->n && c->pt[i].x != at)
		i++;
	if (i + 1 >= c->n)
		return -1;
	double *min = malloc(2 * (size_t)c->n * sizeof(double)), *y = min + c->n;
	if (!min)
		return -1;
	for (int k = 0; k < c->n; k++)
		min[k] = c->pt[k].min;
	steps_monotone(min, y, (size_t)c->n);
	*before_ns = y[i];
	*after_ns = y[i + 1];
	if (next_x)
		*next_x = c->pt[i + 1].x;
	free(min);
	return 0;
}

int probe_reps(const struct probe_opts *o)
{
	return o->quick ? 9 : 31;
}

uint64_t probe_point_ns(const struct probe_opts *o)
{
	return o->quick ? 1000000ull : 5000000ull; /* all repetitions of a point together */
}

struct probe_opts probe_opts_of(const struct probe_env *env, probe_progress_fn *progress, enum huge_policy huge)
{
	struct probe_opts o = {
		.quick = env->quick, .seed = env->seed, .stop = env->interrupted, .progress = progress, .huge = huge,
	};
	return o;
}

int probe_opts_stopped(const struct probe_opts *o)
{
	return o->stop && *o->stop;
}

void probe_opts_report(const struct probe_opts *o, const char *probe, const char *point, int done, int total)
{
	if (o->progress)
		o->progress(o->progress_ctx, probe, point, done, total);
}

int probe_doublings(size_t lo, size_t hi)
{
	int n = 0;
	for (size_t s = lo; s <= hi; s *= 2)
		n++;
	return n;
}

size_t *probe_pairs_alloc(struct rng *r, size_t n)
{
	size_t *order = malloc(3 * n * sizeof(size_t));
	if (!order)
		return NULL;
	for (size_t b = 0; b < n; b++)
		order[b] = b;
	rng_shuffle(r, order, n);
	return order;
}

size_t probe_size_series(size_t lo, size_t hi, size_t align, int quick, size_t *out, size_t max)
{
	static const double full[] = { 1.0, 1.25, 1.5, 1.75 }, fast[] = { 1.0, 1.5 };
	const double *m = quick ? fast : full;
	int per = quick ? 2 : 4;
	size_t n = 0;
	for (size_t p = 1; p <= hi && n < max; p *= 2) {
		for (int i = 0; i < per && n < max; i++) {
			size_t s = (size_t)((double)p * m[i]);
			s = s / align * align;
			if (s < lo || s > hi || s == 0 || (n && s <= out[n - 1]))
				continue;
			out[n++] = s;
		}
		if (p > SIZE_MAX / 2)
			break;
	}
	return n;
}

int probe_slots_measure(const struct probe_opts *o, char *base, const size_t *off, size_t count, double x,
			struct probe_curve *out)
{
	void *p = chase_link(base, off, count);
	uint64_t warm = 2 * (uint64_t)count;
	if (warm > (1u << 18))
		warm = 1u << 18;
	struct chase_stats st;
	chase_measure(&p, warm, probe_reps(o), probe_point_ns(o), &st);
	return probe_curve_add(out, x, st.min_ns, st.median_ns);
}

