/* Unit tests of nodes that share a machine (cluster/node.c): which nodes share a kernel (boot id)
 * and CPUs, and that their differences are not called outliers while a machine that differs
 * from the others still is. Hand-made placements and figures; no MPI_Init. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cluster/cluster.h"
#include "harness.h"

static struct cluster_node_fig node_of(double clock)
{
	struct cluster_node_fig f;
	memset(&f, 0, sizeof(f));
	f.measured = CLUSTER_FIG_CLOCK;
	f.cpus = 8;
	f.clock_ghz = clock;
	f.clock_spread = 0.01;
	return f;
}

static void rank_on(struct cluster_rank *r, int rank, int node, const char *boot, int cpu_lo, int cpu_hi)
{
	memset(r, 0, sizeof(*r));
	r->rank = rank;
	r->node = node;
	snprintf(r->boot_id, sizeof(r->boot_id), "%s", boot);
	for (int c = cpu_lo; c <= cpu_hi; c++)
		r->cpumask[c / 64] |= 1ull << (c % 64);
}

static void test_cluster_shared__machines_by_boot_id_and_cpus(void)
{
	struct cluster_rank ranks[4];
	int leader[4] = { 0, 1, 2, 3 };
	struct cluster_place p = { .size = 4, .nnodes = 4, .ranks = ranks, .leader = leader };
	/* nodes 0 and 2 are namespaces of one kernel on CPUs 0-1 and 1-2; 1 and 3 on kernels of their own */
	rank_on(&ranks[0], 0, 0, "A", 0, 1);
	rank_on(&ranks[1], 1, 1, "B", 0, 1);
	rank_on(&ranks[2], 2, 2, "A", 1, 2);
	rank_on(&ranks[3], 3, 3, "C", 0, 1);
	int machine[4], cpus[4];
	cluster_nodes_machines(&p, machine, cpus);
	CHECK(machine[0] == 0 && machine[1] == 1 && machine[2] == 0 && machine[3] == 3);
	CHECK(cpus[0] == 1 && cpus[2] == 1 && cpus[1] == 0 && cpus[3] == 0);
	/* the same kernel on CPUs apart: one machine, no CPU shared */
	rank_on(&ranks[2], 2, 2, "A", 2, 3);
	cluster_nodes_machines(&p, machine, cpus);
	CHECK(machine[2] == 0 && cpus[0] == 0 && cpus[2] == 0);
}

static void test_cluster_shared__no_outliers_among_one_machine(void)
{
	/* three namespace nodes of one machine, read 20 % apart beside each other's load */
	struct cluster_node_fig f[4] = { node_of(3.0), node_of(2.4), node_of(3.05), node_of(3.0) };
	struct cluster_outlier out[16];
	int alike[4], one[3] = { 0, 0, 0 };
	CHECK(cluster_nodes_compare(f, 3, 0.02, out, 16, alike) == 1); /* as separate machines: node 1 */
	CHECK(cluster_nodes_compare_machines(f, 3, one, 0.02, out, 16, alike) == 0);
	/* a node given fewer CPUs (taskset) differs in what it was given, not by load: still said */
	f[2].cpus = 1;
	CHECK(cluster_nodes_compare_machines(f, 3, one, 0.02, out, 16, alike) == 1);
	CHECK(out[0].node == 2 && out[0].value == 1 && out[0].median == 8);
	f[2].cpus = 8;
	/* machines A (nodes 0, 1: 3.0 and 2.4, median 2.7), B (node 2), C (node 3): A's median is
	 * 10 % off B's and C's, which the machine comparison says once per node of A */
	int two[4] = { 0, 0, 2, 3 };
	int n = cluster_nodes_compare_machines(f, 4, two, 0.02, out, 16, alike);
	CHECK(n == 2 && out[0].node == 0 && out[1].node == 1);
	CHECK_NEAR(out[0].value, 2.7, 1e-9);
	CHECK_NEAR(out[0].median, 3.025, 1e-9);
	/* A's nodes alike with the others at 3.0 and 3.05: nothing */
	f[1] = node_of(3.0);
	CHECK(cluster_nodes_compare_machines(f, 4, two, 0.02, out, 16, alike) == 0);
}

TESTS(T(test_cluster_shared__machines_by_boot_id_and_cpus), T(test_cluster_shared__no_outliers_among_one_machine))
