/* The pure parts of cluster's point to point and collectives: osu's iteration counts, the LogGP
 * cost of a message, each collective's model (its algorithm's rounds), the layer of a
 * communicator, and the model's error beside a measurement. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h"
#include "harness.h"

static void test_cluster_coll__osu_counts(void)
{
	int skip, iters;
	cluster_p2p_counts(8, 64, 1, CLUSTER_P2P_LATENCY, &skip, &iters);
	CHECK(skip == 100 && iters == 10000);
	cluster_p2p_counts(8192, 64, 1, CLUSTER_P2P_LATENCY, &skip, &iters);
	CHECK(skip == 100 && iters == 10000); /* 8 KiB is still small */
	cluster_p2p_counts(8193, 64, 1, CLUSTER_P2P_LATENCY, &skip, &iters);
	CHECK(skip == 10 && iters == 1000);
	cluster_p2p_counts(8, 64, 1, CLUSTER_P2P_BANDWIDTH, &skip, &iters);
	CHECK(skip == 10 && iters == 100);
	cluster_p2p_counts((size_t)4 << 20, 64, 1, CLUSTER_P2P_BANDWIDTH, &skip, &iters);
	CHECK(skip == 2 && iters == 20);
	/* short: a tenth, capped at 32 MiB moved, at least 10 round trips and 2 windows */
	cluster_p2p_counts(8, 64, 0, CLUSTER_P2P_LATENCY, &skip, &iters);
	CHECK(skip == 10 && iters == 1000);
	cluster_p2p_counts((size_t)1 << 20, 64, 0, CLUSTER_P2P_LATENCY, &skip, &iters);
	CHECK(skip == 1 && iters == 16);
	cluster_p2p_counts((size_t)4 << 20, 64, 0, CLUSTER_P2P_BANDWIDTH, &skip, &iters);
	CHECK(skip == 1 && iters == 2);
	cluster_p2p_counts(1024, 64, 0, CLUSTER_P2P_BANDWIDTH, &skip, &iters);
	CHECK(skip == 1 && iters == 10);
}

static struct cluster_loggp loggp_of(double rtt_us, double G_ns)
{
	struct cluster_loggp g = { .a = 0, .b = 1, .rtt_us = rtt_us, .G_ns_per_byte = G_ns };
	return g;
}

static void test_cluster_coll__model_counts_rounds(void)
{
	struct cluster_loggp g = loggp_of(10, 1); /* 5 us one way, 1 ns per byte */
	CHECK_NEAR(cluster_loggp_message_us(&g, 8), 5, 1e-12);
	CHECK_NEAR(cluster_loggp_message_us(&g, 1008), 6, 1e-12);
	/* 8 ranks: 3 rounds of the trees and recursive doubling, 7 of the ring and pairwise */
	CHECK_NEAR(cluster_coll_predict(CLUSTER_COLL_BARRIER, 8, 0, &g), 15, 1e-12);
	CHECK_NEAR(cluster_coll_predict(CLUSTER_COLL_BCAST, 8, 1008, &g), 18, 1e-12);
	CHECK_NEAR(cluster_coll_predict(CLUSTER_COLL_REDUCE, 8, 1008, &g), 18, 1e-12);
	CHECK_NEAR(cluster_coll_predict(CLUSTER_COLL_ALLREDUCE, 8, 1008, &g), 18, 1e-12);
	CHECK_NEAR(cluster_coll_predict(CLUSTER_COLL_ALLGATHER, 8, 1008, &g), 42, 1e-12);
	CHECK_NEAR(cluster_coll_predict(CLUSTER_COLL_ALLTOALL, 8, 1008, &g), 42, 1e-12);
	/* 5 ranks: ceil(log2 5) = 3 */
	CHECK_NEAR(cluster_coll_predict(CLUSTER_COLL_BCAST, 5, 8, &g), 15, 1e-12);
	/* a negative G (noise larger than it) counts as none */
	struct cluster_loggp n = loggp_of(10, -0.5);
	CHECK_NEAR(cluster_loggp_message_us(&n, 1 << 20), 5, 1e-12);
	struct cluster_loggp none = loggp_of(NAN, NAN);
	CHECK(isnan(cluster_coll_predict(CLUSTER_COLL_BCAST, 4, 8, &none)));
	CHECK(strcmp(cluster_coll_algorithm(CLUSTER_COLL_ALLREDUCE), "recursive doubling") == 0);
	CHECK(strcmp(cluster_coll_name(CLUSTER_COLL_ALLTOALL), "alltoall") == 0);
}

static void test_cluster_coll__layer_and_error(void)
{
	/* 4 ranks, two nodes of two: layer 0 the nodes, layer 1 all */
	int g0[4] = { 0, 0, 1, 1 }, g1[4] = { 0, 0, 0, 0 };
	struct cluster_layers L = { .size = 4, .n = 2 };
	L.layer[0].group = g0;
	L.layer[1].group = g1;
	int node0[2] = { 0, 1 }, leaders[2] = { 0, 2 }, all[4] = { 0, 1, 2, 3 };
	CHECK(cluster_comm_layer(&L, node0, 2) == 0);
	CHECK(cluster_comm_layer(&L, leaders, 2) == 1);
	CHECK(cluster_comm_layer(&L, all, 4) == 1);
	struct cluster_loggp lg[2] = { loggp_of(1, 0), loggp_of(20, 0) };
	struct cluster_coll rows[3] = {
		{ .comm = CLUSTER_COMM_NODE, .ranks = 2, .op = CLUSTER_COLL_BCAST, .bytes = 8, .t_max_us = 0.25 },
		{ .comm = CLUSTER_COMM_WORLD, .ranks = 4, .op = CLUSTER_COLL_ALLREDUCE, .bytes = 8, .t_max_us = 25 },
		{ .comm = CLUSTER_COMM_LEADERS, .ranks = 2, .op = CLUSTER_COLL_BARRIER, .t_max_us = 10 },
	};
	int layer_of[CLUSTER_COMM_KINDS] = { 1, -1, 0 };
	cluster_coll_model(rows, 3, layer_of, lg, 2);
	CHECK(rows[0].layer == 0);
	CHECK_NEAR(rows[0].model_us, 0.5, 1e-12);
	CHECK_NEAR(rows[0].model_error, 1.0, 1e-12);  /* 0.5 predicted, 0.25 measured: 100 % above */
	CHECK_NEAR(rows[1].model_us, 20, 1e-12);       /* 2 rounds of 10 us */
	CHECK_NEAR(rows[1].model_error, -0.2, 1e-12);
	CHECK(rows[2].layer == -1 && isnan(rows[2].model_us) && isnan(rows[2].model_error));
}

TESTS(T(test_cluster_coll__osu_counts), T(test_cluster_coll__model_counts_rounds), T(test_cluster_coll__layer_and_error))
