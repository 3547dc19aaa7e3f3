/* The results of `archscope topology` (cli/cmd-topology.c writes them from this list): the machine
 * as the OS reports it through hwloc (topo/topo.h). */
#ifndef ARCHSCOPE_MACHINE_RESULT_TOPOLOGY_H
#define ARCHSCOPE_MACHINE_RESULT_TOPOLOGY_H

#include "machine/schema.h"

#define TOPOLOGY_RESULT(X)                                                                                     \
	X(TR_SOURCE, TR_ROOT, TEXT, "source", "", 0, "where it comes from (\"hwloc\")")                          \
	X(TR_HWLOC_API, TR_ROOT, TEXT, "hwloc_api_version", "", 0, "the API version of the hwloc library")       \
	X(TR_CPU_MODEL, TR_ROOT, TEXT, "cpu_model", "", 0, "the CPU's model name")                              \
	X(TR_PACKAGES, TR_ROOT, INT, "packages", "", 0, "packages (sockets)")                                   \
	X(TR_CORES, TR_ROOT, INT, "cores", "", 0, "cores")                                                      \
	X(TR_THREADS, TR_ROOT, INT, "threads", "", 0, "hardware threads")                                       \
	X(TR_THREADS_PER_CORE, TR_ROOT, INT, "threads_per_core", "", 0, "hardware threads per core")            \
	X(TR_MEMORY, TR_ROOT, INT, "memory_bytes", "B", 0, "the memory of the NUMA nodes")                      \
	X(TR_MEMTOTAL, TR_ROOT, INT, "memtotal_bytes", "B", 0, "MemTotal of /proc/meminfo (0: not read)")       \
	X(TR_CPUS, TR_ROOT, ROWS, "cpus", "", 0, "one row per hardware thread")                                 \
	X(TR_CPU, TR_CPUS, INT, "cpu", "", 0, "its OS number")                                                  \
	X(TR_CPU_CORE, TR_CPUS, INT, "core", "", 0, "its core")                                                 \
	X(TR_CPU_PACKAGE, TR_CPUS, INT, "package", "", 0, "its package")                                        \
	X(TR_CPU_ALLOWED, TR_CPUS, BOOL, "allowed", "", 0, "whether this process may run on it")                \
	X(TR_ALLOWED_CPUS, TR_ROOT, INTS, "allowed_cpus", "", 0, "the CPUs this process may run on")            \
	X(TR_CACHES, TR_ROOT, ROWS, "caches", "", 0, "one row per cache instance")                              \
	X(TR_CACHE_LEVEL, TR_CACHES, INT, "level", "", 0, "its level")                                          \
	X(TR_CACHE_TYPE, TR_CACHES, TEXT, "type", "", 0, "\"data\", \"instruction\" or \"unified\"")             \
	X(TR_CACHE_SIZE, TR_CACHES, INT, "size_bytes", "B", 0, "its size")                                      \
	X(TR_CACHE_LINE, TR_CACHES, INT, "line_bytes", "B", SCHEMA_NULL, "its line size (null: not reported)")  \
	X(TR_CACHE_WAYS, TR_CACHES, ANY, "ways", "", 0,                                                         \
	  "its associativity: an integer, \"full\" (fully associative) or null (not reported)")               \
	X(TR_CACHE_CPUS, TR_CACHES, INTS, "cpus", "", 0, "the CPUs that share it")                              \
	X(TR_NODES, TR_ROOT, ROWS, "numa_nodes", "", 0, "one row per NUMA node")                                \
	X(TR_NODE, TR_NODES, INT, "node", "", 0, "its OS number")                                               \
	X(TR_NODE_MEMORY, TR_NODES, INT, "memory_bytes", "B", 0, "its memory")                                  \
	X(TR_NODE_CPUS, TR_NODES, INTS, "cpus", "", 0, "its CPUs")                                              \
	X(TR_DISTANCES, TR_ROOT, MATRIX, "distances", "", SCHEMA_NULL,                                          \
	  "the SLIT distances node by node, relative (null: not reported by the OS)")                          \
	X(TR_DISTANCES_SOURCE, TR_ROOT, TEXT, "distances_source", "", SCHEMA_OPT, "\"hwloc\" or \"sysfs\" (with distances)")

SCHEMA_ENUM(TR, TOPOLOGY_RESULT);
extern const struct schema topology_result;
#define TR_KEY(id) SCHEMA_KEY(topology_result, TR_##id)

#endif
