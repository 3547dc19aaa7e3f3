/* Unit tests of topo/ on hwloc XML topologies in tests/fixtures/topo/ (README.md there says how
 * each was made): one recorded machine and synthetic ones with 1 node, 2 sockets of 2 NUMA nodes,
 * SMT, and a hybrid processor's two kinds of cores. */
#include <stdlib.h>

#include "harness.h"
#include "topo/topo.h"
#include "topo/hwloc-export.h"

#include <hwloc.h>
#include <math.h>
#include <unistd.h>

#define KiB 1024ull
#define MiB (1024 * KiB)
#define GiB (1024 * MiB)

static struct topo t; /* large (caches and nodes carry CPU lists): not on the stack */

static int load(const char *name)
{
	char path[1024];
	struct as_error err = { 0 };
	snprintf(path, sizeof(path), "%s/tests/fixtures/topo/%s", ARCHSCOPE_SOURCE_DIR, name);
	int rc = topo_load_xml(&t, path, &err);
	if (rc)
		printf("# topo_load_xml %s: %s\n", name, err.msg);
	return rc;
}

/* How many caches of a level and type ("data", "instruction", "unified") have size_bytes and
 * ncpus CPUs each. */
static int ncaches(int level, const char *type, uint64_t size_bytes, int ncpus)
{
	int n = 0;
	for (int i = 0; i < t.ncaches; i++) {
		const struct topo_cache *c = &t.caches[i];
		n += c->level == level && !strcmp(c->type, type) && c->size_bytes == size_bytes && c->cpus.n == ncpus;
	}
	return n;
}

static int list_is_range(const struct as_cpulist *l, int first, int last)
{
	if (l->n != last - first + 1)
		return 0;
	for (int i = 0; i < l->n; i++)
		if (l->cpu[i] != first + i)
			return 0;
	return 1;
}

static const struct topo_pu *pu_of(int os_index)
{
	for (int i = 0; i < t.npus_listed; i++)
		if (t.pu[i].os_index == os_index)
			return &t.pu[i];
	return NULL;
}

/* This machine when the test was written: a KVM guest on AMD EPYC Zen 5, 2 cores, one node. */
static void test_topo__recorded_kvm_zen5_two_cores(void)
{
	CHECK(load("recorded-kvm-zen5-2core.xml") == 0);
	CHECK(t.packages == 1 && t.cores == 2 && t.pus == 2);
	CHECK(!strncmp(t.cpu_model, "Oxide Virtual Turin-like Processor", 34));
	CHECK(t.nnodes == 1 && t.nodes[0].os_index == 0);
	CHECK(t.nodes[0].memory_bytes == 5731287040ull && t.memory_bytes == 5731287040ull);
	CHECK(list_is_range(&t.nodes[0].cpus, 0, 1));
	CHECK(t.memtotal_bytes == 0); /* a file says nothing of the running machine's meminfo */
	CHECK(!t.has_distances);      /* hwloc keeps no 1x1 matrix, and a file has no sysfs */
	CHECK(ncaches(1, "data", 48 * KiB, 1) == 2);
	CHECK(ncaches(1, "instruction", 32 * KiB, 1) == 2);
	CHECK(ncaches(2, "unified", 1 * MiB, 1) == 2);
	CHECK(ncaches(3, "unified", 532676608, 1) == 2); /* the guest sees a 508 MiB L3 per core */
	const struct topo_cache *l1 = topo_data_cache(&t, 1);
	CHECK(l1 && l1->size_bytes == 48 * KiB && l1->line_bytes == 64 && l1->ways == 12);
	CHECK(topo_data_cache(&t, 2)->ways == 8);
	CHECK(!topo_data_cache(&t, 4));
	CHECK(list_is_range(&t.allowed, 0, 1));
	CHECK(t.npus_listed == 2 && t.pu[1].os_index == 1 && t.pu[1].core == 1 && t.pu[1].package == 0);
	CHECK(t.pu[0].allowed && t.pu[1].allowed);
	CHECK(t.nkinds == 1 && t.kinds[0].core_type[0] == 0 && list_is_range(&t.kinds[0].cpus, 0, 1));
	CHECK(t.pu[0].kind == 0);
	topo_release(&t);
}

static void test_topo__one_node_two_cores(void)
{
	CHECK(load("synthetic-1node-2core.xml") == 0);
	CHECK(t.packages == 1 && t.cores == 2 && t.pus == 2);
	CHECK(!strcmp(t.cpu_model, "unknown"));
	CHECK(t.nnodes == 1 && t.nodes[0].memory_bytes == 4 * GiB && t.memory_bytes == 4 * GiB);
	CHECK(ncaches(3, "unified", 8 * MiB, 2) == 1);
	CHECK(ncaches(2, "unified", 512 * KiB, 1) == 2);
	CHECK(ncaches(1, "data", 32 * KiB, 1) == 2);
	CHECK(t.ncaches == 5);
	CHECK(!t.has_distances && t.nkinds == 0 && t.pu[0].kind == -1);
	CHECK(t.pu[0].core == 0 && t.pu[1].core == 1);
	topo_release(&t);
}

/* Two threads per core: PUs 2c and 2c+1 share core c and its L1 and L2. */
static void test_topo__smt_two_threads_per_core(void)
{
	CHECK(load("synthetic-smt.xml") == 0);
	CHECK(t.packages == 1 && t.cores == 4 && t.pus == 8);
	for (int i = 0; i < 8; i++) {
		CHECK(t.pu[i].os_index == i && t.pu[i].core == i / 2 && t.pu[i].package == 0);
		CHECK(t.pu[i].allowed);
	}
	CHECK(ncaches(1, "data", 32 * KiB, 2) == 4);
	CHECK(ncaches(2, "unified", 1 * MiB, 2) == 4);
	CHECK(ncaches(3, "unified", 16 * MiB, 8) == 1);
	const struct topo_cache *l1 = topo_data_cache(&t, 1);
	CHECK(l1 && l1->cpus.n == 2 && l1->cpus.cpu[0] == 0 && l1->cpus.cpu[1] == 1);
	CHECK(t.nnodes == 1 && t.nodes[0].memory_bytes == 16 * GiB);
	topo_release(&t);
}

/* Two sockets of two NUMA nodes each, with a SLIT: 10 local, 12 in the socket, 32 across. */
static void test_topo__two_sockets_four_nodes(void)
{
	CHECK(load("synthetic-2pack-4numa.xml") == 0);
	CHECK(t.packages == 2 && t.cores == 16 && t.pus == 32);
	CHECK(t.nnodes == 4 && t.memory_bytes == 64 * GiB);
	for (int n = 0; n < 4; n++) {
		CHECK(t.nodes[n].os_index == n && t.nodes[n].memory_bytes == 16 * GiB);
		CHECK(list_is_range(&t.nodes[n].cpus, 8 * n, 8 * n + 7));
	}
	CHECK(t.has_distances && !strcmp(t.distances_source, "hwloc"));
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			CHECK_NEAR((double)t.distance[i][j], i == j ? 10 : i / 2 == j / 2 ? 12 : 32, 0);
	CHECK(pu_of(0)->package == 0 && pu_of(15)->package == 0 && pu_of(16)->package == 1);
	CHECK(pu_of(31)->package == 1 && pu_of(31)->core == 15);
	CHECK(ncaches(3, "unified", 32 * MiB, 8) == 4);
	CHECK(ncaches(2, "unified", 1 * MiB, 2) == 16);
	CHECK(ncaches(1, "data", 48 * KiB, 2) == 16);
	CHECK(list_is_range(&t.allowed, 0, 31));
	topo_release(&t);
}

/* A hybrid processor (i5-12600K layout): hwloc's two cpukinds are visible, ranked by efficiency,
 * with their core types, frequencies and CPUs, and every PU knows its kind. */
static void test_topo__hybrid_kinds_are_visible(void)
{
	CHECK(load("hybrid-i5-12600k.xml") == 0);
	CHECK(t.packages == 1 && t.cores == 10 && t.pus == 16);
	CHECK(!strcmp(t.cpu_model, "12th Gen Intel(R) Core(TM) i5-12600K"));
	CHECK(t.nkinds == 2);
	const struct topo_cpukind *e = &t.kinds[0], *p = &t.kinds[1];
	CHECK(e->efficiency == 0 && !strcmp(e->core_type, "IntelAtom") && e->max_mhz == 3600);
	CHECK(p->efficiency == 1 && !strcmp(p->core_type, "IntelCore") && p->max_mhz == 4900);
	CHECK(list_is_range(&e->cpus, 12, 15) && list_is_range(&p->cpus, 0, 11));
	for (int i = 0; i < 16; i++)
		CHECK(pu_of(i)->kind == (i < 12 ? 1 : 0));
	CHECK(pu_of(10)->core == 5 && pu_of(11)->core == 5 && pu_of(12)->core == 6 && pu_of(15)->core == 9);
	/* performance cores: own L2 and L1, two threads each; efficiency cores: one L2 for four */
	CHECK(ncaches(2, "unified", 1280 * KiB, 2) == 6);
	CHECK(ncaches(2, "unified", 2 * MiB, 4) == 1);
	CHECK(ncaches(1, "data", 48 * KiB, 2) == 6 && ncaches(1, "data", 32 * KiB, 1) == 4);
	CHECK(ncaches(1, "instruction", 32 * KiB, 2) == 6 && ncaches(1, "instruction", 64 * KiB, 1) == 4);
	CHECK(ncaches(3, "unified", 20 * MiB, 16) == 1);
	CHECK(t.nnodes == 1 && t.nodes[0].memory_bytes == 32 * GiB);
	topo_release(&t);
}

static void test_topo__missing_file_is_an_error_naming_it(void)
{
	struct as_error err = { 0 };
	CHECK(topo_load_xml(&t, "/nonexistent/topo.xml", &err) < 0);
	CHECK(strstr(err.msg, "'/nonexistent/topo.xml'") != NULL);
	CHECK(t.pu == NULL);
}

/* The running machine: holds anywhere (at least one PU, one allowed, one node). */
static void test_topo__this_machine_loads(void)
{
	struct as_error err = { 0 };
	CHECK(topo_load(&t, &err) == 0);
	CHECK(t.pus >= 1 && t.cores >= 1 && t.allowed.n >= 1 && t.nnodes >= 1);
	CHECK(t.memtotal_bytes > 0);
	for (int i = 0; i < t.npus_listed; i++)
		CHECK(t.pu[i].kind >= -1 && t.pu[i].kind < t.nkinds);
	topo_release(&t);
}

/* What two CPUs share (topo_pair_share, topo_share_name): the innermost object of both, the SLIT
 * between their nodes, their kinds of core. */
static const char *share_of(int a, int b, struct topo_share *s)
{
	static char name[112];
	const struct topo_pu *pa = topo_pu_find(&t, a), *pb = topo_pu_find(&t, b);
	if (!pa || !pb)
		return "(no such CPU)";
	topo_pair_share(&t, pa, pb, s);
	return topo_share_name(&t, s, name, sizeof(name));
}

static void test_topo__pair_share(void)
{
	struct topo_share s;
	CHECK(load("synthetic-2pack-4numa.xml") == 0);
	CHECK_STR(share_of(0, 1, &s), "smt");
	CHECK(s.same_node == 1 && s.pus == 2);
	CHECK_STR(share_of(0, 2, &s), "L3"); /* one L3 per node */
	CHECK_STR(share_of(0, 8, &s), "package d=12");
	CHECK(s.same_node == 0 && s.distance == 12);
	CHECK_STR(share_of(0, 16, &s), "machine d=32");
	CHECK(s.pus == 32);
	uint64_t llc;
	CHECK(topo_pu_llc(topo_pu_find(&t, 0), &llc) >= 0 && llc == 32 * MiB);
	CHECK(topo_pu_find(&t, 99) == NULL);
	topo_release(&t);
	CHECK(load("hybrid-i5-12600k.xml") == 0);
	CHECK_STR(share_of(0, 1, &s), "smt IntelCore");
	CHECK_STR(share_of(12, 13, &s), "L2 IntelAtom");
	CHECK_STR(share_of(0, 12, &s), "L3 IntelAtom-IntelCore");
	CHECK(s.kind_a == 0 && s.kind_b == 1 && s.distance == 0);
	topo_release(&t);
}

/* machine export --hwloc's module: a recorded 4-socket, 8-node topology (tests/fixtures/topo) gets the measured Latency
 * and Bandwidth on each node from its own CPUs and the measured cache sizes as info attributes;
 * read back through hwloc's C API from the XML written. */
static void test_topo__hwloc_export_read_back(void)
{
	char in[4096], out[64];
	snprintf(in, sizeof(in), "%s/tests/fixtures/topo/hwloc-amd-opteron-4s-8n.xml", ARCHSCOPE_SOURCE_DIR);
	snprintf(out, sizeof(out), "/tmp/u-topo-export-%d.xml", (int)getpid());
	struct topo_export_values v = { .latency_ns = 98.6, .latency_method = "page-local chase", .bandwidth_bs = 40e9,
					.line_bytes = 64, .ncaches = 2 };
	v.cache[0].level = 1;
	v.cache[0].size_bytes = 32768;
	v.cache[1].level = 3;
	v.cache[1].size_bytes = 16777216;
	struct topo_export_done done;
	struct as_error err = { 0 };
	CHECK(topo_hwloc_export(in, &v, out, &done, &err) == 0);
	hwloc_topology_t h;
	CHECK(hwloc_topology_init(&h) == 0);
	CHECK(hwloc_topology_set_xml(h, out) == 0);
	CHECK(hwloc_topology_load(h) == 0);
	unlink(out);
	int nodes = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_NUMANODE);
	CHECK(nodes == 8 && done.nodes == nodes);
	for (int i = 0; i < nodes; i++) {
		hwloc_obj_t node = hwloc_get_obj_by_type(h, HWLOC_OBJ_NUMANODE, (unsigned)i);
		struct hwloc_location init = { .type = HWLOC_LOCATION_TYPE_CPUSET, .location.cpuset = node->cpuset };
		hwloc_uint64_t lat = 0, bw = 0;
		CHECK(hwloc_memattr_get_value(h, HWLOC_MEMATTR_ID_LATENCY, node, &init, 0, &lat) == 0);
		CHECK(lat == 99); /* ns, rounded */
		CHECK(hwloc_memattr_get_value(h, HWLOC_MEMATTR_ID_BANDWIDTH, node, &init, 0, &bw) == 0);
		CHECK(bw == 38147); /* 40e9 B/s in MiB/s */
		CHECK_STR(hwloc_obj_get_info_by_name(node, "ArchscopeLatencyMethod"), "page-local chase");
	}
	hwloc_obj_t l3 = hwloc_get_obj_by_type(h, HWLOC_OBJ_L3CACHE, 0), l2 = hwloc_get_obj_by_type(h, HWLOC_OBJ_L2CACHE, 0);
	CHECK(l3 && l2);
	CHECK_STR(hwloc_obj_get_info_by_name(l3, "ArchscopeMeasuredSize"), "16777216");
	CHECK_STR(hwloc_obj_get_info_by_name(l3, "ArchscopeMeasuredLineSize"), "64");
	CHECK(l3->attr->cache.size == 6291456); /* hwloc's own size stays beside it */
	CHECK(hwloc_obj_get_info_by_name(l2, "ArchscopeMeasuredSize") == NULL); /* L2 not measured */
	hwloc_topology_destroy(h);
	/* nothing measured: nothing added; an unwritable path: an error naming it */
	struct topo_export_values none = { .latency_ns = NAN, .bandwidth_bs = NAN, .line_bytes = NAN };
	CHECK(topo_hwloc_export(in, &none, out, &done, &err) == 0 && done.nodes == 0 && done.caches == 0);
	unlink(out);
	CHECK(topo_hwloc_export(in, &v, "/nonexistent-dir/x.xml", &done, &err) != 0);
	CHECK(strstr(err.msg, "/nonexistent-dir/x.xml") != NULL);
}

TESTS(T(test_topo__recorded_kvm_zen5_two_cores), T(test_topo__one_node_two_cores),
      T(test_topo__smt_two_threads_per_core), T(test_topo__two_sockets_four_nodes),
      T(test_topo__hybrid_kinds_are_visible), T(test_topo__missing_file_is_an_error_naming_it),
      T(test_topo__this_machine_loads), T(test_topo__pair_share),
      T(test_topo__hwloc_export_read_back))
