/* Slow links and nodes: each layer's pairs against the layer's median, with the run's own
 * repetition spread as the threshold (see slow.h), and the nodes most of whose links are slow. */
#include "cluster/slow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/order.h"

const char *cluster_slow_what_name(enum cluster_slow_what w)
{
	static const char *const name[] = { "latency", "bandwidth", "node latency", "node sending", "node receiving" };
	return (unsigned)w < sizeof(name) / sizeof(name[0]) ? name[w] : "?";
}

const char *cluster_slow_unit(enum cluster_slow_what w)
{
	return w == CLUSTER_SLOW_LATENCY || w == CLUSTER_SLOW_NODE_LATENCY ? "us" : "GB/s";
}

void cluster_slow_latency_spread(int size, const double *med_us, const double *p99_us, double *spread)
{
	for (size_t k = 0; k < (size_t)size * size; k++)
		spread[k] = med_us && p99_us && med_us[k] > 0 && isfinite(p99_us[k]) ? (p99_us[k] - med_us[k]) / med_us[k] : NAN;
}

/* One figure of one layer: which pairs are in it, their values, the median and the noise. */
struct slow_pass {
	int p, layer;
	const struct cluster_layers *L;
	const double *m, *spread;
	int directed;            /* bandwidth: both directions, lower is worse */
	const int *node_of;
	double floor;
	unsigned char *slow;     /* [p x p]: the pair (direction) is slow */
	const unsigned char *confirm; /* [p x p] or NULL: slow in the second measurement too (the shift) */
	unsigned char *confirmed;     /* [p x p]: where confirm points */
	int emit;                /* 0: flags only (the shift's pass) */
	int typical;             /* 1: the noise is the median spread of the pairs, not the largest */
	double *v, *sp;          /* scratch, p x p */
	int *judged;             /* [p x p]: the layer each pair is judged in */
	double median, noise;
	struct cluster_slow *out;
	int n, max;
};

/* The layer a pair is judged in: its innermost common layer, or where that has fewer than 3
 * pairs (no median says which is off; on a busy machine the latency tree may split off a pair by
 * noise), the next one out that, with what was carried into it, has them. [p x p] into judged. */
static void judged_layers(const struct cluster_layers *L, int p, int *judged)
{
	for (int i = 0; i < p; i++)
		for (int j = 0; j < p; j++) {
			int k = 0;
			while (k < L->n - 1 && L->layer[k].group[i] != L->layer[k].group[j])
				k++;
			judged[(size_t)i * p + j] = i == j ? -1 : k;
		}
	for (int k = 0; k < L->n - 1; k++) {
		int pairs = 0;
		for (int i = 0; i < p; i++)
			for (int j = i + 1; j < p; j++)
				pairs += judged[(size_t)i * p + j] == k;
		if (pairs >= 3)
			continue;
		for (size_t x = 0; x < (size_t)p * p; x++)
			if (judged[x] == k)
				judged[x] = k + 1;
	}
}

static int in_layer(const struct slow_pass *s, int i, int j)
{
	return s->judged[(size_t)i * s->p + j] == s->layer;
}

static int node(const struct slow_pass *s, int r)
{
	return s->node_of ? s->node_of[r] : r;
}

/* How much worse than the median: latency / median - 1, or median / bandwidth - 1. */
static double worse(const struct slow_pass *s, double v)
{
	return s->directed ? s->median / v - 1 : v / s->median - 1;
}

static void add(struct slow_pass *s, enum cluster_slow_what w, int a, int b, double value, double noise)
{
	if (s->n < s->max)
		s->out[s->n] = (struct cluster_slow){ w, a, b, s->layer, value, s->median, noise };
	s->n++;
}

/* The pairs: median and noise of the layer (the largest repetition spread of its pairs, or with
 * `typical` the median one), then each pair worse than the median by more than the noise (and
 * confirmed, where there is a confirmation). 0 when the layer has too few values. */
static int pass_pairs(struct slow_pass *s)
{
	int p = s->p;
	size_t nv = 0, ns = 0;
	for (int i = 0; i < p; i++)
		for (int j = s->directed ? 0 : i + 1; j < p; j++) {
			size_t ij = (size_t)i * p + j;
			if (i == j || !in_layer(s, i, j) || !(s->m[ij] > 0) || !isfinite(s->m[ij]))
				continue;
			s->v[nv++] = s->m[ij];
			if (s->spread && isfinite(s->spread[ij]))
				s->sp[ns++] = s->spread[ij];
		}
	if (nv < 3)
		return 0;
	s->median = order_median(s->v, nv);
	s->noise = s->typical && ns ? order_median(s->sp, ns) : 0;
	for (size_t k = 0; k < ns && !s->typical; k++)
		if (s->sp[k] > s->noise)
			s->noise = s->sp[k];
	if (!(s->noise > s->floor))
		s->noise = s->floor;
	for (int i = 0; i < p; i++)
		for (int j = s->directed ? 0 : i + 1; j < p; j++) {
			size_t ij = (size_t)i * p + j;
			if (i == j || !in_layer(s, i, j) || !(s->m[ij] > 0) || !isfinite(s->m[ij]))
				continue;
			if (worse(s, s->m[ij]) > s->noise && (!s->confirm || s->confirm[ij])) {
				s->slow[ij] = 1;
				if (s->emit)
					add(s, s->directed ? CLUSTER_SLOW_BANDWIDTH : CLUSTER_SLOW_LATENCY, i, j, s->m[ij], s->noise);
			}
		}
	return 1;
}

/* A node's links in the layer (dir 0: either end for latency, out of it for bandwidth; 1: into
 * it): slow when more than half of them are, at least 2. */
static void pass_node(struct slow_pass *s, int x, int dir, enum cluster_slow_what w)
{
	int p = s->p;
	size_t nv = 0, nslow = 0;
	for (int i = 0; i < p; i++)
		for (int j = s->directed ? 0 : i + 1; j < p; j++) {
			size_t ij = (size_t)i * p + j;
			int mine = s->directed ? node(s, dir ? j : i) == x : (node(s, i) == x || node(s, j) == x);
			if (i == j || !mine || node(s, i) == node(s, j) || !in_layer(s, i, j) ||
			    !(s->m[ij] > 0) || !isfinite(s->m[ij]))
				continue;
			s->v[nv++] = s->m[ij];
			nslow += s->slow[ij];
		}
	if (nv >= 2 && 2 * nslow > nv)
		add(s, w, x, -1, order_median(s->v, nv), s->noise);
}

static void pass_figure(struct slow_pass *s, int nnodes)
{
	memset(s->slow, 0, (size_t)s->p * s->p);
	if (!s->m || !pass_pairs(s))
		return;
	for (int x = 0; x < nnodes; x++) {
		if (s->directed) {
			pass_node(s, x, 0, CLUSTER_SLOW_NODE_SENDING);
			pass_node(s, x, 1, CLUSTER_SLOW_NODE_RECEIVING);
		} else {
			pass_node(s, x, 0, CLUSTER_SLOW_NODE_LATENCY);
		}
	}
}

/* A figure's second measurement (the shift for bandwidth, the second latency sweep for latency):
 * which pairs it finds slow in the layer, or NULL when it was not measured or the layer has too
 * few of its values. typical: its noise the median spread of the pairs, not the largest. */
static const unsigned char *second_confirms(struct slow_pass *s, const double *m2, const double *spread2, int directed,
					    int typical)
{
	if (!m2)
		return NULL;
	memset(s->slow, 0, (size_t)s->p * s->p);
	s->m = m2, s->spread = spread2, s->directed = directed, s->emit = 0, s->confirm = NULL, s->typical = typical;
	if (!pass_pairs(s))
		return NULL;
	memcpy(s->confirmed, s->slow, (size_t)s->p * s->p);
	return s->confirmed;
}

int cluster_slow_find(int size, const double *lat_us, const double *lat_spread, const double *lat2_us,
		      const double *lat2_spread, const double *bw_gbs,
		      const double *bw_spread, const double *shift_gbs, const double *shift_spread, const int *node_of,
		      const struct cluster_layers *layers, double floor, struct cluster_slow *out, int max)
{
	if (size < 3 || !layers || layers->size != size || layers->n < 1)
		return 0;
	for (int k = 0; k < layers->n; k++)
		if (!layers->layer[k].group)
			return 0;
	size_t pp = (size_t)size * size;
	struct slow_pass s = { .p = size, .L = layers, .node_of = node_of, .floor = floor, .out = out, .max = max };
	s.slow = malloc(pp);
	s.v = malloc(pp * sizeof(double));
	s.sp = malloc(pp * sizeof(double));
	s.judged = malloc(pp * sizeof(int));
	s.confirmed = malloc(pp);
	if (!s.slow || !s.v || !s.sp || !s.judged || !s.confirmed) {
		free(s.confirmed);
		free(s.slow);
		free(s.v);
		free(s.sp);
		free(s.judged);
		return 0;
	}
	judged_layers(layers, size, s.judged);
	int nnodes = 0;
	for (int r = 0; r < size; r++)
		if (node(&s, r) + 1 > nnodes)
			nnodes = node(&s, r) + 1;
	for (int k = 0; k < layers->n; k++) {
		s.layer = k;
		/* each figure judged only where it was measured twice and both find the pair slow: one
		 * measurement's outlier is where its ranks were scheduled then, a degraded link is in both */
		const unsigned char *confirm = lat_us ? second_confirms(&s, lat2_us, lat2_spread, 0, 0) : NULL;
		s.m = confirm ? lat_us : NULL, s.spread = lat_spread, s.directed = 0, s.emit = 1, s.confirm = confirm, s.typical = 0;
		pass_figure(&s, nnodes);
		confirm = bw_gbs ? second_confirms(&s, shift_gbs, shift_spread, 1, 1) : NULL;
		s.m = confirm ? bw_gbs : NULL, s.spread = bw_spread, s.directed = 1, s.emit = 1, s.confirm = confirm, s.typical = 1;
		pass_figure(&s, nnodes);
	}
	free(s.confirmed);
	free(s.slow);
	free(s.v);
	free(s.sp);
	free(s.judged);
	return s.n < max ? s.n : max;
}
