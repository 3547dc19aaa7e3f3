/* Unit tests of src/cluster/'s pure parts (no MPI_Init): the tournament schedule, layers from
 * synthetic matrices, LogGP from PRTT figures made by the model's own formulas, the node
 * comparison, and the placement checks on hand-made placements. Built only with Open MPI. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h"
#include "harness.h"

static void test_cluster__tournament_meets_every_pair_once(void)
{
	for (int p = 2; p <= 41; p++) {
		int rounds = cluster_rounds(p);
		CHECK(rounds == (p % 2 ? p : p - 1));
		int *met = calloc((size_t)p * p, sizeof(int));
		CHECK(met);
		for (int r = 0; r < rounds; r++) {
			int sitting = 0;
			for (int i = 0; i < p; i++) {
				int j = cluster_round_partner(p, r, i);
				if (j < 0) {
					sitting++;
					continue;
				}
				CHECK(j != i && j < p);
				CHECK(cluster_round_partner(p, r, j) == i); /* disjoint pairs */
				met[i * p + j]++;
			}
			CHECK(sitting == p % 2);
		}
		for (int i = 0; i < p; i++)
			for (int j = 0; j < p; j++)
				CHECK(met[i * p + j] == (i != j));
		free(met);
	}
	CHECK(cluster_rounds(1) == 0);
	CHECK(cluster_round_partner(1, 0, 0) == -1);
	CHECK(cluster_round_partner(4, 3, 0) == -1); /* no round 3 of 3 */
}

/* lat[i][j] from a level function, with a deterministic +-15 % wobble (noise of a busy machine) */
static double *matrix_of(int p, double (*level)(int, int), double wobble)
{
	double *m = malloc((size_t)p * p * sizeof(double));
	for (int i = 0; i < p; i++)
		for (int j = 0; j < p; j++) {
			double w = 1 + wobble * (((i * 7 + j * 13) % 11) / 10.0 - 0.5) * 2;
			m[i * p + j] = i == j ? NAN : level(i < j ? i : j, i < j ? j : i) * w;
		}
	/* symmetric, as the sweep fills it */
	for (int i = 0; i < p; i++)
		for (int j = i + 1; j < p; j++)
			m[j * p + i] = m[i * p + j];
	return m;
}

static double two_nodes(int i, int j)
{
	return i / 3 == j / 3 ? 0.5 : 20;
}

static void test_cluster__layers_separate_two_nodes(void)
{
	double *lat = matrix_of(6, two_nodes, 0.15);
	struct cluster_layers L;
	struct as_error err = { 0 };
	CHECK(cluster_layers_build(6, lat, NULL, NULL, NULL, NULL, 1.5, &L, &err) == 0);
	CHECK(L.n == 2);
	CHECK(L.layer[0].ngroups == 2);
	for (int r = 0; r < 6; r++)
		CHECK(L.layer[0].group[r] == L.layer[0].group[r / 3 * 3]);
	CHECK(L.layer[0].group[0] != L.layer[0].group[3]);
	CHECK(L.layer[1].ngroups == 1);
	CHECK(L.layer[0].npairs == 6 && L.layer[1].npairs == 9);
	CHECK(L.layer[0].latency_us < 0.6 && L.layer[1].latency_us > 15);
	CHECK(L.layer[0].rep_a == 0 && L.layer[0].rep_b == 1);
	CHECK(L.layer[1].rep_a == 0 && L.layer[1].rep_b == 3);
	CHECK(isnan(L.layer[0].bandwidth_gbs));
	cluster_layers_release(&L);
	free(lat);
}

static double uniform(int i, int j)
{
	(void)i, (void)j;
	return 3;
}

static void test_cluster__uniform_matrix_is_one_layer(void)
{
	double *lat = matrix_of(5, uniform, 0.1);
	struct cluster_layers L;
	struct as_error err = { 0 };
	CHECK(cluster_layers_build(5, lat, NULL, NULL, NULL, NULL, 1.5, &L, &err) == 0);
	CHECK(L.n == 1 && L.layer[0].ngroups == 1 && L.layer[0].npairs == 10);
	cluster_layers_release(&L);
	free(lat);
	/* two ranks: one pair, one layer */
	double two[4] = { NAN, 7, 7, NAN };
	CHECK(cluster_layers_build(2, two, NULL, NULL, NULL, NULL, 1.5, &L, &err) == 0);
	CHECK(L.n == 1 && L.layer[0].npairs == 1 && L.layer[0].latency_us == 7);
	cluster_layers_release(&L);
	CHECK(cluster_layers_build(1, two, NULL, NULL, NULL, NULL, 1.5, &L, &err) == -EINVAL);
}

/* 2 nodes x 2 sockets x 2 ranks */
static double three_levels(int i, int j)
{
	return i / 4 != j / 4 ? 10 : i / 2 != j / 2 ? 0.8 : 0.3;
}

static void test_cluster__layers_nest_sockets_in_nodes(void)
{
	double *lat = matrix_of(8, three_levels, 0.05);
	double *bw = malloc(64 * sizeof(double));
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++)
			bw[i * 8 + j] = i == j ? NAN : i / 4 != j / 4 ? 1 : 10;
	struct cluster_layers L;
	struct as_error err = { 0 };
	CHECK(cluster_layers_build(8, lat, NULL, bw, NULL, NULL, 1.5, &L, &err) == 0);
	CHECK(L.n == 3);
	CHECK(L.layer[0].ngroups == 4 && L.layer[1].ngroups == 2 && L.layer[2].ngroups == 1);
	CHECK(L.layer[0].latency_us < L.layer[1].latency_us && L.layer[1].latency_us < L.layer[2].latency_us);
	CHECK(L.layer[2].bandwidth_gbs == 1 && L.layer[1].bandwidth_gbs == 10);
	/* the QT levels of the pair latencies agree with the tree: three, of 4, 8 and 16 pairs */
	CHECK(L.nlevels == 3);
	CHECK(L.level[0].pairs == 4 && L.level[1].pairs == 8 && L.level[2].pairs == 16);
	CHECK(L.level[0].max_us < L.level[1].min_us && L.level[1].max_us < L.level[2].min_us);
	for (int r = 0; r < 8; r++) {
		CHECK(L.layer[0].group[r] == L.layer[0].group[r / 2 * 2]);
		CHECK(L.layer[1].group[r] == L.layer[1].group[r / 4 * 4]);
	}
	cluster_layers_release(&L);
	free(lat);
	free(bw);
}

static void test_cluster__layers_beyond_the_tree_are_nodes(void)
{
	int p = 300;
	double *lat = malloc((size_t)p * p * sizeof(double));
	int *node = malloc((size_t)p * sizeof(int));
	for (int i = 0; i < p; i++) {
		node[i] = i / 100;
		for (int j = 0; j < p; j++)
			lat[i * p + j] = i == j ? NAN : i / 100 == j / 100 ? 1 : 5;
	}
	struct cluster_layers L;
	struct as_error err = { 0 };
	CHECK(cluster_layers_build(p, lat, NULL, NULL, NULL, node, 1.5, &L, &err) == 0);
	CHECK(L.n == 2 && L.layer[0].ngroups == 3 && L.layer[1].ngroups == 1);
	CHECK(L.layer[0].latency_us == 1 && L.layer[1].latency_us == 5);
	CHECK(L.nlevels == -1); /* 44,850 pairs: too many for QT clustering */
	cluster_layers_release(&L);
	free(lat);
	free(node);
}

/* PRTT figures as LogGP says they come out, then back to the parameters */
static void test_cluster__loggp_from_prtt(void)
{
	double L = 5, os = 1, orr = 1.5, g = 2, G = 0.001; /* us, us/B */
	struct cluster_prtt m = { .n = 16, .nsizes = 5, .size = { 8, 131072, 262144, 524288, 1048576 } };
	for (int k = 0; k < m.nsizes; k++) {
		double s1 = (double)m.size[k] - 1;
		m.prtt1_us[k] = 2 * (os + L + s1 * G + orr);
		m.prttn_us[k] = m.prtt1_us[k] + (m.n - 1) * (g + s1 * G);
	}
	m.d_us = 2 * m.prtt1_us[0];
	m.prttd_us = m.prtt1_us[0] + (m.n - 1) * (os + m.d_us);
	m.o_s_us = os;
	m.o_r_us = orr;
	struct cluster_loggp out;
	cluster_loggp_derive(&m, &out);
	CHECK_NEAR(out.G_ns_per_byte, 1.0, 1e-9);
	CHECK_NEAR(out.g_us, g, 1e-9);
	CHECK_NEAR(out.L_us, L, 1e-9);
	CHECK_NEAR(out.o_prtt_us, os, 1e-9);
	CHECK_NEAR(out.rtt_us, m.prtt1_us[0], 1e-12);
	/* too few messages: nothing */
	m.n = 1;
	cluster_loggp_derive(&m, &out);
	CHECK(isnan(out.L_us) && isnan(out.G_ns_per_byte));
}

static struct cluster_node_fig node_of(double clock, double spread, int cpus)
{
	struct cluster_node_fig f;
	memset(&f, 0, sizeof(f));
	f.measured = CLUSTER_FIG_CLOCK | CLUSTER_FIG_CACHES;
	f.cpus = cpus;
	f.clock_ghz = clock;
	f.clock_spread = spread;
	f.nlevels = 1;
	f.level_bytes[0] = 49152;
	f.level_ns[0] = 1.4;
	f.level_spread[0] = 0.02;
	f.size_step = 1 / 3.0;
	f.memory_ns = 90;
	f.memory_spread = 0.03;
	return f;
}

static void test_cluster__slow_node_is_an_outlier(void)
{
	struct cluster_node_fig f[4] = { node_of(3.0, 0.01, 8), node_of(3.01, 0.01, 8), node_of(2.4, 0.01, 8),
					 node_of(2.99, 0.01, 4) };
	struct cluster_outlier out[16];
	int alike[4];
	int n = cluster_nodes_compare(f, 4, 0.02, out, 16, alike);
	CHECK(n == 2);
	CHECK(out[0].node == 3 && strcmp(out[0].figure, "cpus") == 0 && out[0].value == 4 && out[0].median == 8);
	CHECK(out[1].node == 2 && strcmp(out[1].figure, "clock") == 0);
	CHECK(out[1].difference < -0.15 && out[1].difference > -0.25);
	CHECK_NEAR(out[1].noise, 0.02, 1e-12);
	CHECK(alike[0] == 0 && alike[1] == 0 && alike[2] == 2 && alike[3] == 3);
}

static void test_cluster__noise_hides_a_small_difference(void)
{
	/* 5 % apart, but one node's own repetitions spread by 8 %: within the run's noise */
	struct cluster_node_fig f[3] = { node_of(3.0, 0.01, 8), node_of(3.0, 0.08, 8), node_of(2.85, 0.01, 8) };
	struct cluster_outlier out[16];
	int alike[3];
	CHECK(cluster_nodes_compare(f, 3, 0.02, out, 16, alike) == 0);
	CHECK(alike[0] == 0 && alike[1] == 0 && alike[2] == 0);
	/* one node: nothing to compare */
	CHECK(cluster_nodes_compare(f, 1, 0.02, out, 16, alike) == 0 && alike[0] == 0);
}

static void rank_on(struct cluster_rank *r, int rank, int node, const char *boot, int cpu_lo, int cpu_hi)
{
	memset(r, 0, sizeof(*r));
	r->rank = rank;
	r->node = node;
	snprintf(r->boot_id, sizeof(r->boot_id), "%s", boot);
	snprintf(r->version, sizeof(r->version), "0.1.0");
	snprintf(r->host, sizeof(r->host), "node%d", node);
	r->digest = 42;
	for (int c = cpu_lo; c <= cpu_hi; c++)
		r->cpumask[c / 64] |= 1ull << (c % 64);
}

static void test_cluster__placement_checks(void)
{
	struct cluster_rank ranks[4];
	struct cluster_place p = { .size = 4, .nnodes = 2, .ranks = ranks };
	/* two namespace nodes of one machine, default binding: both nodes' first rank on CPU 0 */
	rank_on(&ranks[0], 0, 0, "b1", 0, 0);
	rank_on(&ranks[1], 1, 0, "b1", 1, 1);
	rank_on(&ranks[2], 2, 1, "b1", 0, 0);
	rank_on(&ranks[3], 3, 1, "b1", 1, 1);
	int a = -1, b = -1, n, c, first;
	CHECK(cluster_place_shared_cpu(&p, &a, &b) == 1 && a == 0 && b == 2);
	CHECK(cluster_place_oversubscribed(&p, &n, &c) == 2 && n == 4 && c == 2);
	/* real nodes: different kernels */
	snprintf(ranks[2].boot_id, sizeof(ranks[2].boot_id), "b2");
	snprintf(ranks[3].boot_id, sizeof(ranks[3].boot_id), "b2");
	CHECK(cluster_place_shared_cpu(&p, &a, &b) == 0);
	CHECK(cluster_place_oversubscribed(&p, &n, &c) == 0 && n == 2 && c == 2);
	CHECK(cluster_place_mismatch(&p, &first) == 0 && first == -1);
	snprintf(ranks[3].version, sizeof(ranks[3].version), "0.2.0");
	ranks[2].digest = 7;
	CHECK(cluster_place_mismatch(&p, &first) == 2 && first == 2);
	struct as_cpulist l;
	cluster_rank_cpus(&ranks[1], &l);
	CHECK(l.n == 1 && l.cpu[0] == 1);
}

TESTS(T(test_cluster__tournament_meets_every_pair_once), T(test_cluster__layers_separate_two_nodes),
      T(test_cluster__uniform_matrix_is_one_layer), T(test_cluster__layers_nest_sockets_in_nodes),
      T(test_cluster__layers_beyond_the_tree_are_nodes), T(test_cluster__loggp_from_prtt),
      T(test_cluster__slow_node_is_an_outlier), T(test_cluster__noise_hides_a_small_difference),
      T(test_cluster__placement_checks))
