/* Max-min fair sharing by progressive filling (see model.h). Threads of one flow are alike, so
 * the filling runs over flows weighted by their thread counts; every round raises all unfrozen
 * threads by the largest step no limit forbids, then freezes the threads that met a limit. */
#include "numa/model.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Relative slack under which a resource counts as full or a thread as at its limit. */
#define FULL_EPS 1e-9

const char *numa_limit_name(enum numa_limit l)
{
	return l == NUMA_LIMIT_THREAD ? "thread" : l == NUMA_LIMIT_MEMORY ? "memory" : "path";
}

/* Resources: memory of node index j is j; the path i->j (i != j) is n + i * n + j. */
static int res_count(int n)
{
	return n + n * n;
}

static double need(const struct numa_matrix *m, double v, const char *what, int i, int j, struct as_error *err)
{
	if (!(v > 0) || !isfinite(v))
		return as_error_set(err, -EINVAL, "the matrix has no usable %s for CPUs of node %d reading node %d", what,
				    m->node[i], m->node[j]), NAN;
	return v;
}

int numa_model_predict(const struct numa_matrix *m, const struct numa_flow *f, int n, struct numa_prediction *pred,
		       struct as_error *err)
{
	int nr = res_count(m->n);
	double *cap = calloc((size_t)nr, sizeof(double)), *used = calloc((size_t)nr, sizeof(double));
	double *act = calloc((size_t)nr, sizeof(double));
	int *si = calloc((size_t)(n ? n : 1), sizeof(int)), *di = calloc((size_t)(n ? n : 1), sizeof(int));
	unsigned char *frozen = calloc((size_t)(n ? n : 1), 1);
	double *lim = calloc((size_t)(n ? n : 1), sizeof(double));
	int rc = 0;
	if (!cap || !used || !act || !si || !di || !frozen || !lim) {
		rc = as_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (int r = 0; r < nr; r++)
		cap[r] = INFINITY;
	for (int k = 0; k < n; k++) {
		si[k] = numa_matrix_index(m, f[k].src);
		di[k] = numa_matrix_index(m, f[k].dst);
		if (si[k] < 0 || di[k] < 0) {
			char list[128] = "";
			size_t len = 0;
			for (int q = 0; q < m->n && len + 16 < sizeof(list); q++)
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%d", q ? ", " : "", m->node[q]);
			rc = as_error_set(err, -ENODEV, "flow %d:%d:%d: the matrix has no node %d (its nodes: %s)", f[k].src,
					  f[k].dst, f[k].threads, si[k] < 0 ? f[k].src : f[k].dst, list);
			goto out;
		}
		int i = si[k], j = di[k];
		if (isnan(lim[k] = need(m, m->bandwidth_1thread_gbs[i][j], "bandwidth_1thread_gbs", i, j, err)) ||
		    isnan(cap[j] = need(m, m->bandwidth_gbs[j][j], "bandwidth_gbs", j, j, err)) ||
		    (i != j && isnan(cap[m->n + i * m->n + j] = need(m, m->bandwidth_gbs[i][j], "bandwidth_gbs", i, j, err)))) {
			rc = -EINVAL;
			goto out;
		}
		pred[k] = (struct numa_prediction){ 0, 0, NUMA_LIMIT_THREAD, f[k].src };
	}
	for (int left = n; left > 0;) {
		/* Threads each unfrozen flow puts on every resource, and the largest common step. */
		for (int r = 0; r < nr; r++)
			act[r] = 0;
		double step = INFINITY;
		for (int k = 0; k < n; k++) {
			if (frozen[k])
				continue;
			act[di[k]] += f[k].threads;
			if (si[k] != di[k])
				act[m->n + si[k] * m->n + di[k]] += f[k].threads;
			step = fmin(step, lim[k] - pred[k].thread_gbs);
		}
		for (int r = 0; r < nr; r++)
			if (act[r] > 0)
				step = fmin(step, (cap[r] - used[r]) / act[r]);
		if (step < 0)
			step = 0;
		for (int k = 0; k < n; k++) {
			if (frozen[k])
				continue;
			pred[k].thread_gbs += step;
			used[di[k]] += step * f[k].threads;
			if (si[k] != di[k])
				used[m->n + si[k] * m->n + di[k]] += step * f[k].threads;
		}
		/* Freeze: at its own limit, or on a full resource (memory named before the path). */
		int froze = 0;
		for (int k = 0; k < n; k++) {
			if (frozen[k])
				continue;
			int path = m->n + si[k] * m->n + di[k];
			if (pred[k].thread_gbs >= lim[k] * (1 - FULL_EPS))
				pred[k].limit = NUMA_LIMIT_THREAD, pred[k].limit_node = f[k].src;
			else if (used[di[k]] >= cap[di[k]] * (1 - FULL_EPS))
				pred[k].limit = NUMA_LIMIT_MEMORY, pred[k].limit_node = f[k].dst;
			else if (si[k] != di[k] && used[path] >= cap[path] * (1 - FULL_EPS))
				pred[k].limit = NUMA_LIMIT_PATH, pred[k].limit_node = f[k].src;
			else
				continue;
			frozen[k] = 1;
			froze++;
		}
		if (!froze) { /* cannot happen: the step met some limit; guard against rounding */
			rc = as_error_set(err, -EDOM, "progressive filling did not converge");
			goto out;
		}
		left -= froze;
	}
	for (int k = 0; k < n; k++)
		pred[k].flow_gbs = pred[k].thread_gbs * f[k].threads;
out:
	free(cap);
	free(used);
	free(act);
	free(si);
	free(di);
	free(frozen);
	free(lim);
	return rc;
}
