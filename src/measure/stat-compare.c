/* Two stat results compared event by event (stat-compare.h): Welch, Benjamini–Hochberg, Hedges' g
 * and the ratio B/A (EvSel's comparison, NUMA thesis §4.1.2, mended); and a measurement turned into
 * the form a result file is read in, for compare -r. */
#include "measure/stat-compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int wanted(const struct stat_select *only, const char *name)
{
	if (!only->n)
		return 1;
	for (int i = 0; i < only->n; i++)
		if (!strcmp(only->names[i], name))
			return 1;
	return 0;
}

static void append(char *buf, size_t len, const char *name)
{
	size_t used = strlen(buf);
	if (used + strlen(name) + 3 < len)
		snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
}

static int compare_order(const void *x, const void *y)
{
	const struct measure_stat_compare_event *a = x, *b = y;
	int na = isnan(a->q), nb = isnan(b->q);
	if (na != nb)
		return na - nb;
	if (!na && a->q != b->q)
		return a->q < b->q ? -1 : 1;
	double ca = isnan(a->ratio) || a->ratio <= 0 ? 0 : fabs(log(a->ratio));
	double cb = isnan(b->ratio) || b->ratio <= 0 ? 0 : fabs(log(b->ratio));
	return ca > cb ? -1 : ca < cb ? 1 : strcmp(a->name, b->name);
}

void measure_stat_compare_release(struct measure_stat_compare *c)
{
	free(c->ev);
	memset(c, 0, sizeof(*c));
}

int measure_stat_compare_run(struct measure_stat_compare *c, const struct measure_stat_json *a,
			     const struct measure_stat_json *b, const struct stat_select *only, double alpha,
			     double min_change_pct, struct as_error *err)
{
	memset(c, 0, sizeof(*c));
	c->ev = calloc(a->n + 1, sizeof(*c->ev));
	if (!c->ev)
		return as_error_set(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < a->n; i++) {
		const struct measure_stat_json_event *e = &a->ev[i];
		if (!wanted(only, e->name))
			continue;
		const struct measure_stat_json_event *f = measure_stat_json_find(b, e->name);
		if (!f) {
			append(c->only_a, sizeof(c->only_a), e->name);
			continue;
		}
		struct measure_stat_compare_event *x = &c->ev[c->n++];
		x->name = e->name;
		x->unit = e->unit;
		stats_sample(e->values, e->n, &x->a);
		stats_sample(f->values, f->n, &x->b);
		stats_welch_t(&x->a, &x->b, &x->w);
		x->g = stats_hedges_g(&x->a, &x->b);
		x->ratio = stats_ratio_ci(&x->a, &x->b, MEASURE_STAT_COMPARE_LEVEL, &x->lo, &x->hi);
		if ((x->a.n && x->a.n < MEASURE_STAT_COMPARE_FEW_RUNS) || (x->b.n && x->b.n < MEASURE_STAT_COMPARE_FEW_RUNS))
			c->few_runs = 1;
	}
	for (size_t i = 0; i < b->n; i++) {
		const char *name = b->ev[i].name;
		if (wanted(only, name) && !measure_stat_json_find(a, name))
			append(c->only_b, sizeof(c->only_b), name);
	}
	double *p = malloc((size_t)(c->n + 1) * sizeof(double)), *q = malloc((size_t)(c->n + 1) * sizeof(double));
	if (!p || !q) {
		free(p);
		free(q);
		measure_stat_compare_release(c);
		return as_error_set(err, -ENOMEM, "out of memory");
	}
	for (int k = 0; k < c->n; k++)
		p[k] = c->ev[k].w.p;
	c->tests = stats_bh(p, (size_t)c->n, q);
	for (int k = 0; k < c->n; k++) {
		struct measure_stat_compare_event *x = &c->ev[k];
		x->q = q[k];
		double change = isnan(x->ratio) ? (x->a.mean != x->b.mean ? INFINITY : 0) : fabs(x->ratio - 1) * 100;
		x->significant = !isnan(x->q) && x->q < alpha && change >= min_change_pct;
	}
	free(p);
	free(q);
	qsort(c->ev, (size_t)c->n, sizeof(*c->ev), compare_order);
	return 0;
}

int measure_stat_json_from_stat(struct measure_stat_json *j, const struct measure_stat *m, struct as_error *err)
{
	memset(j, 0, sizeof(*j));
	j->ev = calloc((size_t)m->nevents + 1, sizeof(*j->ev));
	if (!j->ev)
		return as_error_set(err, -ENOMEM, "out of memory");
	for (int i = 0; i < m->nevents; i++) {
		struct measure_stat_json_event *e = &j->ev[j->n++];
		e->name = strdup(m->ev[i].name);
		e->unit = strdup(m->ev[i].unit);
		e->values = malloc(((size_t)m->runs + 1) * sizeof(double));
		if (!e->name || !e->unit || !e->values) {
			measure_stat_json_release(j);
			return as_error_set(err, -ENOMEM, "out of memory");
		}
		for (int k = 0; k < m->runs; k++)
			e->values[k] = m->ev[i].values ? m->ev[i].values[k] : NAN;
		e->n = (size_t)m->runs;
	}
	/* the names are unique (stat keeps one of each); the index finds them */
	int rc = measure_stat_json_index(j, "-r", err);
	if (rc)
		measure_stat_json_release(j);
	return rc;
}
