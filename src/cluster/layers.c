/* Layers of the network between ranks: BlackjackBench's locality tree (§3.1.4, analysis/clique.h)
 * built on the rank-pair matrices instead of the core-pair ones, read as layers from the innermost
 * group out, with the figures of the pairs that first meet in each layer. */
#include "cluster/cluster.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/clique.h"
#include "analysis/order.h"
#include "analysis/steps.h"

void cluster_layers_release(struct cluster_layers *l)
{
	for (int k = 0; k < CLUSTER_MAX_LAYERS; k++)
		free(l->layer[k].group);
	memset(l, 0, sizeof(*l));
}

static int finite_off_diagonal(const double *m, int p)
{
	for (int i = 0; i < p; i++)
		for (int j = 0; j < p; j++)
			if (i != j && !(isfinite(m[(size_t)i * p + j]) && m[(size_t)i * p + j] > 0))
				return 0;
	return 1;
}

/* The layer's figures: the pairs whose innermost common layer is k. */
static int layer_figures(struct cluster_layers *L, int k, const double *lat, const double *p99, const double *bw,
			 const double *shift)
{
	int p = L->size;
	size_t cap = (size_t)p * (p - 1);
	double *a = malloc((cap ? cap : 1) * sizeof(double)), *b = malloc((cap ? cap : 1) * sizeof(double));
	double *c = malloc((cap ? cap : 1) * sizeof(double)), *d = malloc((cap ? cap : 1) * sizeof(double));
	if (!a || !b || !c || !d) {
		free(a), free(b), free(c), free(d);
		return -ENOMEM;
	}
	struct cluster_layer *y = &L->layer[k];
	size_t na = 0, nb = 0, nc = 0, nd = 0;
	y->npairs = 0;
	y->rep_a = y->rep_b = -1;
	for (int i = 0; i < p; i++)
		for (int j = i + 1; j < p; j++) {
			if (y->group[i] != y->group[j] || (k > 0 && L->layer[k - 1].group[i] == L->layer[k - 1].group[j]))
				continue;
			if (y->npairs++ == 0)
				y->rep_a = i, y->rep_b = j;
			size_t ij = (size_t)i * p + j, ji = (size_t)j * p + i;
			if (lat && !isnan(lat[ij]))
				a[na++] = lat[ij];
			if (p99 && !isnan(p99[ij]))
				b[nb++] = p99[ij];
			for (int t = 0; t < 2; t++) {
				size_t x = t ? ji : ij;
				if (bw && !isnan(bw[x]))
					c[nc++] = bw[x];
				if (shift && !isnan(shift[x]))
					d[nd++] = shift[x];
			}
		}
	y->latency_us = order_median(a, na);
	y->latency_p99_us = order_median(b, nb);
	y->bandwidth_gbs = order_median(c, nc);
	y->shift_gbs = order_median(d, nd);
	free(a), free(b), free(c), free(d);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The QT levels of the pair latencies (the paper's clustering of a sorted curve), a witness of the
 * layers that does not depend on the tree's gap. */
static void qt_levels(struct cluster_layers *L, const double *lat)
{
	int p = L->size;
	size_t n = 0, cap = (size_t)p * (p - 1) / 2;
	L->nlevels = -1;
	if (!lat || cap > STEPS_QT_MAX_POINTS)
		return;
	double *y = malloc((cap ? cap : 1) * sizeof(double)), *x = malloc((cap ? cap : 1) * sizeof(double));
	struct qt_cluster *c = malloc((cap ? cap : 1) * sizeof(*c));
	if (y && x && c) {
		for (int i = 0; i < p; i++)
			for (int j = i + 1; j < p; j++)
				if (isfinite(lat[(size_t)i * p + j]))
					y[n++] = lat[(size_t)i * p + j];
		qsort(y, n, sizeof(double), cmp_double);
		for (size_t k = 0; k < n; k++)
			x[k] = (double)k;
		int k = n ? steps_qt_cluster(x, y, n, 0.25, c, (int)n) : 0;
		if (k >= 0) {
			L->nlevels = k < 2 * CLUSTER_MAX_LAYERS ? k : 2 * CLUSTER_MAX_LAYERS;
			for (int q = 0; q < L->nlevels; q++)
				L->level[q] = (struct cluster_level){ c[q].min_y, c[q].max_y, (int)c[q].points };
		}
	}
	free(y);
	free(x);
	free(c);
}

int cluster_layers_build(int size, const double *lat_us, const double *p99_us, const double *bw_gbs,
			 const double *shift_gbs, const int *node_of, double gap, struct cluster_layers *out,
			 struct as_error *err)
{
	memset(out, 0, sizeof(*out));
	out->size = size;
	if (size < 2 || !(gap > 1))
		return as_error_set(err, -EINVAL, "layers need at least 2 ranks and a gap above 1");
	int p = size;
	if (p <= CLIQUE_MAX_CORES) {
		double *inv = malloc((size_t)p * p * sizeof(double));
		struct clique_tree *t = malloc(sizeof(*t));
		if (!inv || !t) {
			free(inv);
			free(t);
			return as_error_set(err, -ENOMEM, "out of memory for the locality tree");
		}
		for (size_t k = 0; k < (size_t)p * p; k++)
			inv[k] = lat_us && lat_us[k] > 0 && isfinite(lat_us[k]) ? 1 / lat_us[k] : 0;
		/* the latency splits each clique again and again (a matrix splits a clique once), then the
		 * bandwidth may split what latency could not tell apart */
		const double *mats[CLUSTER_MAX_LAYERS];
		int nm = 0, use_bw = bw_gbs && finite_off_diagonal(bw_gbs, p);
		while (nm < CLUSTER_MAX_LAYERS - 1 - use_bw)
			mats[nm++] = inv;
		if (use_bw)
			mats[nm++] = bw_gbs;
		if (clique_tree_build(mats, nm, p, gap, t) != 0) {
			free(inv);
			free(t);
			return as_error_set(err, -EINVAL, "the locality tree refused %d ranks", p);
		}
		free(inv);
		int depth = 0;
		for (int n = 0; n < t->nnodes; n++)
			if (t->node[n].depth > depth)
				depth = t->node[n].depth;
		if (depth + 1 > CLUSTER_MAX_LAYERS)
			depth = CLUSTER_MAX_LAYERS - 1;
		/* layer k (innermost first) is the tree cut at depth (depth - k): each rank in the
		 * deepest tree node of at most that depth holding it */
		for (int k = 0; k <= depth; k++) {
			int cut = depth - k;
			struct cluster_layer *y = &out->layer[k];
			y->group = malloc((size_t)p * sizeof(int));
			int *id = malloc((size_t)t->nnodes * sizeof(int));
			if (!y->group || !id) {
				free(id);
				free(t);
				cluster_layers_release(out);
				return as_error_set(err, -ENOMEM, "out of memory for the layers");
			}
			for (int n = 0; n < t->nnodes; n++)
				id[n] = -1;
			for (int r = 0; r < p; r++) {
				int best = 0;
				for (int n = 0; n < t->nnodes; n++) {
					if (t->node[n].depth > cut || t->node[n].depth < t->node[best].depth)
						continue;
					for (int m = 0; m < t->node[n].n; m++)
						if (t->node[n].member[m] == r) {
							best = n;
							break;
						}
				}
				if (id[best] < 0)
					id[best] = y->ngroups++;
				y->group[r] = id[best];
			}
			free(id);
		}
		out->n = depth + 1;
		free(t);
		snprintf(out->method, sizeof(out->method),
			 "locality tree (BlackjackBench 3.1.4) split by 1/latency%s, groups at least %.2fx apart",
			 use_bw ? " then bandwidth" : "", gap);
	} else {
		/* too many ranks for the tree: the nodes, then everything */
		int k = 0;
		if (node_of) {
			struct cluster_layer *y = &out->layer[k++];
			y->group = malloc((size_t)p * sizeof(int));
			if (!y->group)
				return as_error_set(err, -ENOMEM, "out of memory for the layers");
			for (int r = 0; r < p; r++) {
				y->group[r] = node_of[r];
				if (node_of[r] + 1 > y->ngroups)
					y->ngroups = node_of[r] + 1;
			}
		}
		struct cluster_layer *y = &out->layer[k++];
		y->group = calloc((size_t)p, sizeof(int));
		if (!y->group) {
			cluster_layers_release(out);
			return as_error_set(err, -ENOMEM, "out of memory for the layers");
		}
		y->ngroups = 1;
		out->n = k;
		snprintf(out->method, sizeof(out->method), "more than %d ranks: the nodes (MPI_COMM_TYPE_SHARED), then all",
			 CLIQUE_MAX_CORES);
	}
	qt_levels(out, lat_us);
	for (int k = 0; k < out->n; k++)
		if (layer_figures(out, k, lat_us, p99_us, bw_gbs, shift_gbs) != 0) {
			cluster_layers_release(out);
			return as_error_set(err, -ENOMEM, "out of memory for the layers");
		}
	return 0;
}
