/* Where numa's threads and memory go: the nodes of a topology (the running machine or a recorded
 * hwloc file), flows SRC:DST:THREADS checked against them and given CPUs of their source node,
 * and memory bound to a node through libnuma. */
#ifndef ARCHSCOPE_NUMA_PLACE_H
#define ARCHSCOPE_NUMA_PLACE_H

#include <stddef.h>

#include "common/cpuset.h"
#include "common/error.h"
#include "topo/topo.h"

#define NUMA_MAX_NODES TOPO_MAX_NODES
#define NUMA_MAX_FLOWS 64

/* A flow: `threads` threads on CPUs of node `src` streaming from memory of node `dst` (OS node
 * numbers, as numactl and /sys/devices/system/node name them). */
struct numa_flow {
	int src, dst, threads;
};

/* Parses "SRC:DST:THREADS" (non-negative node numbers, 1 <= THREADS <= AS_MAX_CPUS). */
int numa_flow_parse(const char *text, struct numa_flow *f, struct as_error *err);

/* The index in t->nodes of OS node `os_node`, or -1. */
int numa_node_index(const struct topo *t, int os_node);

/* The CPUs of node index `ni` this process may use, one per core first (each core's first
 * hardware thread in core order), then the second threads, and so on: n threads placed from the
 * front of this list share no core while there are cores left. */
void numa_node_cpus(const struct topo *t, int ni, struct as_cpulist *out);

/* Checks every flow against t (both nodes exist, the source node has enough allowed CPUs for
 * the flow and for all flows from it together) and gives flow k its CPUs in cpus[k]: flows from
 * one node take disjoint CPUs in the order of numa_node_cpus. Errors name the flow. */
int numa_flows_place(const struct topo *t, const struct numa_flow *f, int n, struct as_cpulist *cpus,
		     struct as_error *err);

/* Whether the kernel and libnuma can place memory (numa_available()). Without it memory goes
 * where the kernel puts it, which on a one-node machine is the only node. */
int numa_place_available(void);

/* Binds [addr, addr + bytes) to OS node `node` before it is touched (mbind MPOL_BIND through
 * libnuma). 0, or a negative errno; a no-op without placement support. */
int numa_place_memory(void *addr, size_t bytes, int node, struct as_error *err);

/* Binds the calling thread's future allocations (and those of threads it creates, which inherit
 * the policy) to OS node `node`; node < 0 restores the default policy. */
int numa_place_thread_memory(int node, struct as_error *err);

/* Of `pages` pages sampled evenly over [addr, addr + bytes) (touched already), the fraction the
 * kernel reports on OS node `node` (move_pages query): the witness that placement worked. NAN
 * when the kernel cannot say. */
double numa_place_check(const void *addr, size_t bytes, int node, int pages);

#endif
