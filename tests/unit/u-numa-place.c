/* Unit tests of numa's placement (numa/place.c) and of the matrix's SLIT on the synthetic 2- and
 * 4-node hwloc topologies of tests/fixtures/numa/: which CPUs each flow gets, one per core first,
 * and the errors for unknown nodes and too many threads. */
#include <errno.h>
#include <stdlib.h>

#include "harness.h"
#include "numa/matrix.h"
#include "numa/place.h"
#include "topo/topo.h"

#define FIX ARCHSCOPE_SOURCE_DIR "/tests/fixtures/numa/"

static struct topo *load(const char *name)
{
	struct topo *t = calloc(1, sizeof(*t));
	struct as_error err = { 0 };
	if (t && topo_load_xml(t, name, &err) != 0) {
		printf("# %s: %s\n", name, err.msg);
		free(t);
		return NULL;
	}
	return t;
}

static void drop(struct topo *t)
{
	if (t)
		topo_release(t);
	free(t);
}

static void test_numa_place__parse_flows(void)
{
	struct numa_flow f;
	struct as_error err = { 0 };
	CHECK(numa_flow_parse("0:1:4", &f, &err) == 0);
	CHECK(f.src == 0 && f.dst == 1 && f.threads == 4);
	CHECK(numa_flow_parse("12:3:1", &f, &err) == 0 && f.src == 12 && f.dst == 3);
	const char *bad[] = { "", "0:1", "0:1:", "0:1:0", "a:1:2", "0:-1:2", "0:1:2:3", "0:1:2x", "99999:0:1", "0:0:99999" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(numa_flow_parse(bad[i], &f, &err) == -EINVAL);
		CHECK(strstr(err.msg, "flow '") != NULL);
	}
}

/* Two sockets of 4 cores x 2 threads: node 0 is PUs 0-7, the first threads of its cores 0,2,4,6. */
static void test_numa_place__one_thread_per_core_first(void)
{
	struct topo *t = load(FIX "2node-smt.xml");
	CHECK(t);
	CHECK(t->nnodes == 2);
	struct as_cpulist c;
	numa_node_cpus(t, 1, &c);
	int want[] = { 8, 10, 12, 14, 9, 11, 13, 15 };
	CHECK(c.n == 8);
	for (int i = 0; i < 8; i++)
		CHECK(c.cpu[i] == want[i]);
	/* Two flows from node 0 take disjoint CPUs: 3 threads, then 2 threads. */
	struct numa_flow f[3] = { { 0, 1, 3 }, { 0, 0, 2 }, { 1, 0, 8 } };
	struct as_cpulist cpus[3];
	struct as_error err = { 0 };
	CHECK(numa_flows_place(t, f, 3, cpus, &err) == 0);
	CHECK(cpus[0].n == 3 && cpus[0].cpu[0] == 0 && cpus[0].cpu[1] == 2 && cpus[0].cpu[2] == 4);
	CHECK(cpus[1].n == 2 && cpus[1].cpu[0] == 6 && cpus[1].cpu[1] == 1);
	CHECK(cpus[2].n == 8 && cpus[2].cpu[0] == 8 && cpus[2].cpu[7] == 15);
	drop(t);
}

static void test_numa_place__too_many_threads(void)
{
	struct topo *t = load(FIX "4node.xml");
	CHECK(t);
	CHECK(t->nnodes == 4);
	struct as_cpulist cpus[2];
	struct as_error err = { 0 };
	struct numa_flow one = { 2, 3, 4 };
	CHECK(numa_flows_place(t, &one, 1, cpus, &err) == -EINVAL);
	CHECK_STR(err.msg, "flow 2:3:4: node 2 has 3 CPUs this process may use, not 4");
	/* Each fits alone; together they ask node 3 for 4 threads. */
	struct numa_flow two[2] = { { 3, 0, 2 }, { 3, 1, 2 } };
	CHECK(numa_flows_place(t, two, 2, cpus, &err) == -EINVAL);
	CHECK(strstr(err.msg, "the flows from node 3 ask for 4 threads, but it has 3 CPUs") != NULL);
	two[1].threads = 1;
	CHECK(numa_flows_place(t, two, 2, cpus, &err) == 0);
	CHECK(cpus[0].cpu[0] == 9 && cpus[0].cpu[1] == 10 && cpus[1].cpu[0] == 11);
	drop(t);
}

static void test_numa_place__unknown_node(void)
{
	struct topo *t = load(FIX "4node.xml");
	CHECK(t);
	struct as_cpulist cpus[1];
	struct as_error err = { 0 };
	struct numa_flow f = { 0, 4, 1 };
	CHECK(numa_flows_place(t, &f, 1, cpus, &err) == -ENODEV);
	CHECK_STR(err.msg, "flow 0:4:1: no NUMA node 4 (this machine has 4 nodes: 0, 1, 2, 3)");
	f = (struct numa_flow){ 7, 0, 1 };
	CHECK(numa_flows_place(t, &f, 1, cpus, &err) == -ENODEV);
	CHECK(strstr(err.msg, "no NUMA node 7") != NULL);
	drop(t);
}

/* The matrix of a recorded machine starts with its SLIT beside and every measured figure absent. */
static void test_numa_place__matrix_takes_the_slit(void)
{
	struct topo *t = load(FIX "4node.xml");
	CHECK(t);
	struct numa_matrix *m = malloc(sizeof(*m));
	numa_matrix_init(m, t);
	CHECK(m->n == 4);
	CHECK_NEAR(m->slit[0][0], 10, 0);
	CHECK_NEAR(m->slit[0][1], 12, 0);
	CHECK_NEAR(m->slit[1][2], 32, 0);
	CHECK(isnan(m->latency_ns[0][0]) && isnan(m->bandwidth_gbs[3][3]));
	CHECK(numa_matrix_index(m, 3) == 3 && numa_matrix_index(m, 4) == -1);
	free(m);
	drop(t);
}

/* Binding and its witness on the running machine, on the first node it lists (any machine has
 * one; its number need not be 0). */
static void test_numa_place__bind_and_check_here(void)
{
	struct topo *t = calloc(1, sizeof(*t));
	struct as_error err = { 0 };
	CHECK(t && topo_load(t, &err) == 0);
	if (!numa_place_available()) {
		drop(t);
		SKIP("needs libnuma placement (the kernel has no NUMA support)");
	}
	int node = t->nodes[0].os_index;
	size_t bytes = 4u << 20;
	char *p = aligned_alloc(4096, bytes);
	CHECK(p);
	CHECK(numa_place_memory(p, bytes, node, &err) == 0);
	memset(p, 1, bytes);
	double frac = numa_place_check(p, bytes, node, 16);
	CHECK(numa_place_memory(p, bytes, -1, &err) == -EINVAL);
	free(p);
	drop(t);
	CHECK(isnan(frac) || frac == 1.0);
}

TESTS(T(test_numa_place__parse_flows), T(test_numa_place__one_thread_per_core_first), T(test_numa_place__too_many_threads),
      T(test_numa_place__unknown_node), T(test_numa_place__matrix_takes_the_slit), T(test_numa_place__bind_and_check_here))
