/* The machine as the OS reports it, through hwloc: packages, cores, hardware threads, caches,
 * NUMA nodes with their SLIT distances, kinds of cores on hybrid processors, and the CPUs this
 * process may use; or the same read from a recorded hwloc XML file. These values are what probes
 * print as `os_reported`; no probe derives its answer from them. */
#ifndef ARCHSCOPE_TOPO_TOPO_H
#define ARCHSCOPE_TOPO_TOPO_H

#include <stdint.h>

#include "common/cpuset.h"
#include "common/error.h"

#define TOPO_MAX_CACHES 256
#define TOPO_MAX_NODES 64
#define TOPO_MAX_KINDS 8

struct topo_cache {
	int level;              /* 1, 2, 3, ... */
	char type[12];          /* "data", "instruction", "unified" */
	uint64_t size_bytes;
	int line_bytes;         /* 0 when unknown */
	int ways;               /* -1 fully associative, 0 unknown */
	struct as_cpulist cpus; /* CPUs sharing this instance */
};

struct topo_node {
	int os_index;
	uint64_t memory_bytes;
	struct as_cpulist cpus;
};

/* A kind of core (hwloc cpukinds): a hybrid processor has two or more, such as Intel's
 * performance (CoreType IntelCore) and efficiency (IntelAtom) cores; other machines one or none. */
struct topo_cpukind {
	int efficiency;         /* hwloc's rank, 0 = the most power-efficient kind; -1 unranked */
	char core_type[32];     /* hwloc info CoreType, "" when absent */
	int max_mhz;            /* hwloc info FrequencyMaxMHz, 0 when absent */
	struct as_cpulist cpus;
};

/* One CPU-side object holding a PU (its core, a data or unified cache, a group such as a cluster
 * of cores, a die, its package): what two CPUs share is the innermost object in both chains. */
enum topo_anc_type { TOPO_ANC_CORE, TOPO_ANC_CACHE, TOPO_ANC_GROUP, TOPO_ANC_DIE, TOPO_ANC_PACKAGE };
#define TOPO_PU_ANCESTORS 12

struct topo_anc {
	enum topo_anc_type type;
	int level;              /* cache level (1, 2, ...); 0 for the other types */
	int cluster;            /* a group whose hwloc subtype is "Cluster" */
	int id;                 /* hwloc's global index of the object: equal ids, the same object */
	int pus;                /* PUs it holds */
	uint64_t bytes;         /* cache size; 0 for the other types */
};

struct topo_pu {
	int os_index;
	int core;               /* logical index of its core */
	int package;            /* logical index of its package */
	int kind;               /* index into topo.kinds, -1 when the machine lists no kinds */
	int allowed;            /* in the process's affinity mask and hwloc's allowed set (a file's:
				 * in its allowed set) */
	int node;               /* index into topo.nodes of the NUMA node holding it, -1 none */
	int nanc;               /* its CPU-side objects from the core outwards (up to the package;
				 * the machine is not listed), innermost first */
	struct topo_anc anc[TOPO_PU_ANCESTORS];
};

struct topo {
	char cpu_model[128];
	char hwloc_version[16];    /* API version of the hwloc library */
	int packages, cores, pus;
	uint64_t memory_bytes;     /* memory hwloc places in NUMA nodes */
	uint64_t memtotal_bytes;   /* MemTotal of /proc/meminfo (can differ: hot-plugged memory);
				    * 0 for a topology read from a file */
	int ncaches;
	struct topo_cache caches[TOPO_MAX_CACHES];
	int nnodes;
	struct topo_node nodes[TOPO_MAX_NODES];
	int has_distances;
	char distances_source[32]; /* "hwloc" or "sysfs" */
	uint64_t distance[TOPO_MAX_NODES][TOPO_MAX_NODES];
	int nkinds;                /* 0 when hwloc knows no kinds, 2 or more on a hybrid processor */
	struct topo_cpukind kinds[TOPO_MAX_KINDS]; /* from the most power-efficient kind up */
	int npus_listed;
	struct topo_pu *pu;        /* pus entries */
	struct as_cpulist allowed;
};

/* The running machine. */
int topo_load(struct topo *t, struct as_error *err);

#define TOPO_MAX_XML_BYTES ((size_t)64 << 20)

/* A recorded machine: an hwloc XML file (`lstopo --of xml`; read by the checked reader of
 * common/atomicfile.h, "-" for standard input, at most TOPO_MAX_XML_BYTES; an XML error is
 * named with its line before hwloc sees the file). Nothing of the running machine enters:
 * allowed CPUs are the file's allowed set (no affinity mask), memtotal_bytes is 0 and distances are
 * the file's only (no sysfs). Errors name the file. Release with topo_release. */
int topo_load_xml(struct topo *t, const char *path, struct as_error *err);

void topo_release(struct topo *t);

/* The line of the first data (or unified) cache level as the OS reports it; 0 when unknown. */
int topo_line_bytes(const struct topo *t);

/* The OS-reported data cache of a level (type data or unified), first instance; NULL if none. */
const struct topo_cache *topo_data_cache(const struct topo *t, int level);

/* The PU with OS index os_index; NULL when the topology does not list it. */
const struct topo_pu *topo_pu_find(const struct topo *t, int os_index);

/* What two PUs share according to the topology: the innermost object holding both (their core,
 * a cache, a cluster or other group, a die, their NUMA node, their package, or nothing), the
 * SLIT distance between their nodes when these differ, and their kinds of core. Planning data
 * (which pairs of CPUs behave alike); never a measured answer. */
struct topo_share {
	char what[16];          /* "smt", "L1" .. "L5", "cluster", "group", "die", "node", "package",
				 * "machine" (nothing shared) */
	int same_node;          /* 1, 0, or -1 when either PU has no node */
	uint64_t distance;      /* SLIT between their nodes when different and known; else 0 */
	int kind_a, kind_b;     /* kinds (kind_a <= kind_b), -1 when the machine lists none */
	int pus;                /* PUs of the innermost shared object (of the machine: all) */
};
void topo_pair_share(const struct topo *t, const struct topo_pu *a, const struct topo_pu *b, struct topo_share *out);

/* The name of a share for people and JSON: what, then " d=DIST" across nodes of known distance,
 * then the kinds of core on a machine with several ("IntelCore", "IntelAtom-IntelCore"). */
char *topo_share_name(const struct topo *t, const struct topo_share *s, char *buf, size_t len);

/* The id of the outermost cache holding the PU (its last level; -1 none) and that cache's size. */
int topo_pu_llc(const struct topo_pu *p, uint64_t *bytes);

#endif
