/* Unit tests of cluster/slow.c on synthetic matrices: a slow pair and a slow node are named, and
 * nothing else; a healthy matrix whose noise is within its repetition spread gives nothing; the
 * threshold is the spread given, not a constant. No MPI_Init. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/slow.h"
#include "harness.h"

/* A deterministic wobble of +-w around 1, different for each direction of a pair. */
static double wobble(int i, int j, double w)
{
	return 1 + w * (((i * 7 + j * 13) % 11) / 10.0 - 0.5) * 2;
}

/* latency (symmetric) and bandwidth (directed) of p ranks, nodes of `per` ranks: shared memory
 * inside a node (0.4 us, 8 GB/s), the network between (20 us, 1 GB/s) */
static void matrices(int p, int per, double w, double *lat, double *bw)
{
	for (int i = 0; i < p; i++)
		for (int j = 0; j < p; j++) {
			int same = i / per == j / per;
			int a = i < j ? i : j, b = i < j ? j : i;
			lat[i * p + j] = i == j ? NAN : (same ? 0.4 : 20) * wobble(a, b, w);
			bw[i * p + j] = i == j ? NAN : (same ? 8 : 1) * wobble(i, j, w);
		}
}

static void fill(double *m, int p, double v)
{
	for (int k = 0; k < p * p; k++)
		m[k] = k / p == k % p ? NAN : v;
}

static int find(int size, int per, const double *lat, const double *ls, const double *bw, const double *bs,
		struct cluster_slow *out, int max)
{
	int node_of[16];
	for (int r = 0; r < size; r++)
		node_of[r] = r / per;
	struct cluster_layers L;
	struct as_error err = { 0 };
	if (cluster_layers_build(size, lat, NULL, NULL, NULL, node_of, 1.5, &L, &err) != 0)
		return -1;
	/* both figures measured twice, the second time the same */
	int n = cluster_slow_find(size, lat, ls, lat, ls, bw, bs, bw, bs, node_of, &L, 0.02, out, max);
	cluster_layers_release(&L);
	return n;
}

static void test_cluster_slow__healthy_noise_gives_nothing(void)
{
	enum { P = 6 };
	double lat[P * P], bw[P * P], ls[P * P], bs[P * P];
	struct cluster_slow out[64];
	matrices(P, 1, 0.15, lat, bw);
	/* repetitions as spread as the pairs differ: nothing stands out */
	fill(ls, P, 0.25);
	fill(bs, P, 0.25);
	CHECK(find(P, 1, lat, ls, bw, bs, out, 64) == 0);
	/* the same matrices, two ranks a node: still nothing, in either layer */
	CHECK(find(P, 2, lat, ls, bw, bs, out, 64) == 0);
	/* the threshold is the spread measured: repetitions far tighter than the pairs' differences
	 * make the outer pairs of the wobble slow */
	fill(ls, P, 0.01);
	fill(bs, P, 0.01);
	CHECK(find(P, 1, lat, ls, bw, bs, out, 64) > 0);
	/* unknown spreads: the floor (2 %) */
	CHECK(find(P, 1, lat, NULL, bw, NULL, out, 64) > 0);
}

static void test_cluster_slow__a_slow_pair_is_named(void)
{
	enum { P = 5 };
	double lat[P * P], bw[P * P], ls[P * P], bs[P * P];
	struct cluster_slow out[64];
	matrices(P, 1, 0.1, lat, bw);
	fill(ls, P, 0.25);
	fill(bs, P, 0.25);
	bw[1 * P + 3] = 0.1;     /* one direction of one link */
	int n = find(P, 1, lat, ls, bw, bs, out, 64);
	CHECK(n == 1);
	CHECK(out[0].what == CLUSTER_SLOW_BANDWIDTH && out[0].a == 1 && out[0].b == 3 && out[0].layer == 0);
	CHECK(out[0].value == 0.1);
	CHECK_NEAR(out[0].layer_median, 1, 0.1);
	CHECK(out[0].noise == 0.25);
	CHECK_STR(cluster_slow_what_name(out[0].what), "bandwidth");
	CHECK_STR(cluster_slow_unit(out[0].what), "GB/s");
	/* a latency 3 times the layer's, both directions one value */
	matrices(P, 1, 0.1, lat, bw);
	lat[0 * P + 2] = lat[2 * P + 0] = 60;
	n = find(P, 1, lat, ls, bw, bs, out, 64);
	CHECK(n == 1);
	CHECK(out[0].what == CLUSTER_SLOW_LATENCY && out[0].a == 0 && out[0].b == 2 && out[0].value == 60);
	CHECK_NEAR(out[0].layer_median, 20, 2);
	/* unless the pair's own repetitions spread more than that */
	ls[0 * P + 2] = ls[2 * P + 0] = 3;
	CHECK(find(P, 1, lat, ls, bw, bs, out, 64) == 0);
}

static void test_cluster_slow__a_slow_node_and_its_links_are_named(void)
{
	enum { P = 4 };
	double lat[P * P], bw[P * P], ls[P * P], bs[P * P];
	struct cluster_slow out[64];
	matrices(P, 1, 0.1, lat, bw);
	fill(ls, P, 0.25);
	fill(bs, P, 0.25);
	for (int j = 0; j < P; j++)
		if (j != 2)
			bw[2 * P + j] = 0.2 * wobble(2, j, 0.1); /* node 2 sends slowly (tbf on its veth) */
	int n = find(P, 1, lat, ls, bw, bs, out, 64), pairs = 0, nodes = 0;
	CHECK(n == 4);
	for (int k = 0; k < n; k++) {
		if (out[k].what == CLUSTER_SLOW_BANDWIDTH) {
			CHECK(out[k].a == 2 && out[k].b != 2);
			pairs++;
		} else {
			CHECK(out[k].what == CLUSTER_SLOW_NODE_SENDING && out[k].a == 2 && out[k].b == -1);
			CHECK_NEAR(out[k].value, 0.2, 0.03);
			nodes++;
		}
	}
	CHECK(pairs == 3 && nodes == 1);
	/* max bounds what is written, not what is found */
	CHECK(find(P, 1, lat, ls, bw, bs, out, 2) == 2);
}

static void test_cluster_slow__layers_judged_apart(void)
{
	/* 3 nodes of 2 ranks: shared memory inside, the network between; node 2's sending is slow on
	 * the network, which the shared-memory layer (8 GB/s) must not hide or be judged against */
	enum { P = 6 };
	double lat[P * P], bw[P * P], ls[P * P], bs[P * P];
	struct cluster_slow out[64];
	matrices(P, 2, 0.1, lat, bw);
	fill(ls, P, 0.2);
	fill(bs, P, 0.2);
	for (int i = 4; i < 6; i++)
		for (int j = 0; j < 4; j++)
			bw[i * P + j] = 0.25;
	int n = find(P, 2, lat, ls, bw, bs, out, 64), pairs = 0, nodes = 0;
	for (int k = 0; k < n; k++) {
		CHECK(out[k].layer == 1);
		if (out[k].what == CLUSTER_SLOW_BANDWIDTH) {
			CHECK(out[k].a >= 4 && out[k].b < 4);
			pairs++;
		} else if (out[k].what == CLUSTER_SLOW_NODE_SENDING) {
			CHECK(out[k].a == 2);
			nodes++;
		}
	}
	CHECK(n == 9 && pairs == 8 && nodes == 1);
	/* too few ranks to have a median that says anything */
	struct cluster_layers L = { .size = 2 };
	CHECK(cluster_slow_find(2, lat, ls, lat, ls, bw, bs, bw, bs, NULL, &L, 0.02, out, 64) == 0);
	double m[4] = { NAN, 2, 3, NAN }, s[4];
	cluster_slow_latency_spread(2, m, (double[4]){ NAN, 3, 3, NAN }, s);
	CHECK(isnan(s[0]) && s[1] == 0.5 && s[2] == 0);
}

static void test_cluster_slow__a_layer_too_small_is_judged_outside(void)
{
	/* the latency tree puts ranks 2 and 3 in a layer of their own (10 us against 20 us: a busy
	 * machine's noise between namespace nodes); one pair has no median, so it is judged with the
	 * layer outside, and node 2's slow link to 3 is named with the others */
	enum { P = 4 };
	double lat[P * P], bw[P * P], ls[P * P], bs[P * P];
	struct cluster_slow out[64];
	matrices(P, 1, 0.1, lat, bw);
	lat[2 * P + 3] = lat[3 * P + 2] = 10;
	fill(ls, P, 0.2);
	fill(bs, P, 0.2);
	for (int j = 0; j < P; j++)
		if (j != 2)
			bw[2 * P + j] = 0.05;
	struct cluster_layers L;
	struct as_error err = { 0 };
	CHECK(cluster_layers_build(P, lat, NULL, NULL, NULL, NULL, 1.5, &L, &err) == 0);
	CHECK(L.n == 2 && L.layer[0].npairs == 1);
	int n = cluster_slow_find(P, lat, ls, lat, ls, bw, bs, bw, bs, NULL, &L, 0.02, out, 64), to3 = 0;
	for (int k = 0; k < n; k++) {
		CHECK(out[k].a == 2 && out[k].layer == 1);
		to3 += out[k].what == CLUSTER_SLOW_BANDWIDTH && out[k].b == 3;
	}
	CHECK(n == 4 && to3 == 1);
	cluster_layers_release(&L);
}

static void test_cluster_slow__the_shift_confirms_a_slow_direction(void)
{
	/* one pair slow one pair at a time (its ranks shared a CPU then) but not with every rank at
	 * once: not named; a node slow in both: named */
	enum { P = 4 };
	double lat[P * P], bw[P * P], sh[P * P], ls[P * P], bs[P * P];
	struct cluster_slow out[64];
	struct cluster_layers L;
	struct as_error err = { 0 };
	matrices(P, 1, 0.1, lat, bw);
	matrices(P, 1, 0.1, lat, sh);
	fill(ls, P, 0.2);
	fill(bs, P, 0.2);
	bw[0 * P + 1] = 0.1;
	CHECK(cluster_layers_build(P, lat, NULL, NULL, NULL, NULL, 1.5, &L, &err) == 0);
	/* measured once (no shift): nothing named, however slow */
	CHECK(cluster_slow_find(P, lat, ls, NULL, NULL, bw, bs, NULL, NULL, NULL, &L, 0.02, out, 64) == 0);
	CHECK(cluster_slow_find(P, lat, ls, NULL, NULL, bw, bs, sh, bs, NULL, &L, 0.02, out, 64) == 0);
	sh[0 * P + 1] = 0.3;
	CHECK(cluster_slow_find(P, lat, ls, NULL, NULL, bw, bs, sh, bs, NULL, &L, 0.02, out, 64) == 1);
	CHECK(out[0].a == 0 && out[0].b == 1 && out[0].value == 0.1);
	matrices(P, 1, 0.1, lat, bw);
	for (int j = 0; j < P; j++)
		if (j != 2)
			bw[2 * P + j] = 0.05, sh[2 * P + j] = 0.04;
	int n = cluster_slow_find(P, lat, ls, NULL, NULL, bw, bs, sh, bs, NULL, &L, 0.02, out, 64);
	CHECK(n == 4);
	for (int k = 0; k < n; k++)
		CHECK(out[k].a == 2 && (out[k].what == CLUSTER_SLOW_BANDWIDTH || out[k].what == CLUSTER_SLOW_NODE_SENDING));
	/* one pair's windows 30-fold apart: alone, the largest spread hides the node (20 times
	 * slower); confirmed by the shift, the typical spread is the noise and it is named */
	bs[1 * P + 3] = 30;
	CHECK(cluster_slow_find(P, lat, ls, NULL, NULL, bw, bs, NULL, NULL, NULL, &L, 0.02, out, 64) == 0);
	CHECK(cluster_slow_find(P, lat, ls, NULL, NULL, bw, bs, sh, bs, NULL, &L, 0.02, out, 64) == 4);
	CHECK(out[0].noise == 0.2);
	cluster_layers_release(&L);
}

static void test_cluster_slow__latency_named_only_when_both_sweeps_find_it(void)
{
	/* a healthy pair whose first sweep ran while the machine was busy (3 times the layer's
	 * latency) but not its second: not named; slow in both sweeps (a degraded link): named; one
	 * sweep only: nothing named */
	enum { P = 5 };
	double lat[P * P], lat2[P * P], bw[P * P], ls[P * P];
	struct cluster_slow out[64];
	struct cluster_layers L;
	struct as_error err = { 0 };
	matrices(P, 1, 0.1, lat, bw);
	matrices(P, 1, 0.1, lat2, bw);
	fill(ls, P, 0.25);
	CHECK(cluster_layers_build(P, lat, NULL, NULL, NULL, NULL, 1.5, &L, &err) == 0);
	lat[1 * P + 4] = lat[4 * P + 1] = 60;
	CHECK(cluster_slow_find(P, lat, ls, lat2, ls, NULL, NULL, NULL, NULL, NULL, &L, 0.02, out, 64) == 0);
	lat2[1 * P + 4] = lat2[4 * P + 1] = 55;
	CHECK(cluster_slow_find(P, lat, ls, lat2, ls, NULL, NULL, NULL, NULL, NULL, &L, 0.02, out, 64) == 1);
	CHECK(out[0].what == CLUSTER_SLOW_LATENCY && out[0].a == 1 && out[0].b == 4 && out[0].value == 60);
	CHECK(cluster_slow_find(P, lat, ls, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &L, 0.02, out, 64) == 0);
	/* the second sweep's own noise counts: its repetitions spread more than the pair is off */
	double ls2[P * P];
	fill(ls2, P, 0.25);
	ls2[1 * P + 4] = ls2[4 * P + 1] = 5;
	CHECK(cluster_slow_find(P, lat, ls, lat2, ls2, NULL, NULL, NULL, NULL, NULL, &L, 0.02, out, 64) == 0);
	cluster_layers_release(&L);
}

TESTS(T(test_cluster_slow__healthy_noise_gives_nothing), T(test_cluster_slow__latency_named_only_when_both_sweeps_find_it), T(test_cluster_slow__the_shift_confirms_a_slow_direction), T(test_cluster_slow__a_layer_too_small_is_judged_outside), T(test_cluster_slow__a_slow_pair_is_named),
      T(test_cluster_slow__a_slow_node_and_its_links_are_named), T(test_cluster_slow__layers_judged_apart))
