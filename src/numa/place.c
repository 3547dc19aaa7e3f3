/* Placement of numa's threads and memory (see place.h): flows checked against the topology and
 * given CPUs, memory bound through libnuma's mbind/set_mempolicy and checked with move_pages. */
#include "numa/place.h"

#include <errno.h>
#include <math.h>
#include <numa.h>
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MASK_LONGS (AS_MAX_CPUS / (8 * sizeof(unsigned long)))

/* A number in [0, max] from [s, end); returns the position after it or NULL. */
static const char *parse_num(const char *s, long max, long *out)
{
	if (*s < '0' || *s > '9')
		return NULL;
	long v = 0;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (*s++ - '0');
		if (v > max)
			return NULL;
	}
	*out = v;
	return s;
}

int numa_flow_parse(const char *text, struct numa_flow *f, struct as_error *err)
{
	long v[3];
	const char *s = text;
	for (int i = 0; i < 3; i++) {
		s = parse_num(s, i < 2 ? AS_MAX_CPUS - 1 : AS_MAX_CPUS, &v[i]);
		if (!s || *s != (i < 2 ? ':' : '\0'))
			return as_error_set(err, -EINVAL, "flow '%s': expected SRC:DST:THREADS (node numbers and a thread count)",
					    text);
		if (i < 2)
			s++;
	}
	if (v[2] < 1)
		return as_error_set(err, -EINVAL, "flow '%s': needs at least one thread", text);
	*f = (struct numa_flow){ (int)v[0], (int)v[1], (int)v[2] };
	return 0;
}

int numa_node_index(const struct topo *t, int os_node)
{
	for (int i = 0; i < t->nnodes; i++)
		if (t->nodes[i].os_index == os_node)
			return i;
	return -1;
}

/* The topology's record of PU os_index, or NULL. */
static const struct topo_pu *pu_of(const struct topo *t, int os_index)
{
	for (int i = 0; i < t->npus_listed; i++)
		if (t->pu[i].os_index == os_index)
			return &t->pu[i];
	return NULL;
}

static int allowed(const struct topo *t, int cpu)
{
	for (int i = 0; i < t->allowed.n; i++)
		if (t->allowed.cpu[i] == cpu)
			return 1;
	return 0;
}

void numa_node_cpus(const struct topo *t, int ni, struct as_cpulist *out)
{
	const struct as_cpulist *all = &t->nodes[ni].cpus;
	int rank[AS_MAX_CPUS], core[AS_MAX_CPUS], cpu[AS_MAX_CPUS], n = 0, maxrank = 0;
	for (int i = 0; i < all->n; i++) {
		if (!allowed(t, all->cpu[i]))
			continue;
		const struct topo_pu *p = pu_of(t, all->cpu[i]);
		cpu[n] = all->cpu[i];
		core[n] = p ? p->core : -1 - i; /* unknown core: a core of its own */
		rank[n] = 0;
		for (int k = 0; k < n; k++)
			if (core[k] == core[n])
				rank[n]++;
		if (rank[n] > maxrank)
			maxrank = rank[n];
		n++;
	}
	out->n = 0;
	for (int r = 0; r <= maxrank; r++)
		for (int i = 0; i < n; i++)
			if (rank[i] == r)
				out->cpu[out->n++] = cpu[i];
}

int numa_flows_place(const struct topo *t, const struct numa_flow *f, int n, struct as_cpulist *cpus,
		     struct as_error *err)
{
	int used[NUMA_MAX_NODES] = { 0 };
	if (n > NUMA_MAX_FLOWS)
		return as_error_set(err, -EINVAL, "%d flows: at most %d", n, NUMA_MAX_FLOWS);
	for (int k = 0; k < n; k++) {
		int si = numa_node_index(t, f[k].src), di = numa_node_index(t, f[k].dst);
		for (int e = 0; e < 2; e++) {
			int node = e ? f[k].dst : f[k].src;
			if ((e ? di : si) >= 0)
				continue;
			char list[256];
			size_t w = 0;
			for (int i = 0; i < t->nnodes && w < sizeof(list); i++)
				w += (size_t)snprintf(list + w, sizeof(list) - w, "%s%d", i ? ", " : "", t->nodes[i].os_index);
			return as_error_set(err, -ENODEV, "flow %d:%d:%d: no NUMA node %d (this machine has %d node%s: %s)",
					    f[k].src, f[k].dst, f[k].threads, node, t->nnodes, t->nnodes == 1 ? "" : "s",
					    t->nnodes ? list : "none");
		}
		struct as_cpulist node;
		numa_node_cpus(t, si, &node);
		if (f[k].threads > node.n)
			return as_error_set(err, -EINVAL, "flow %d:%d:%d: node %d has %d CPU%s this process may use, not %d",
					    f[k].src, f[k].dst, f[k].threads, f[k].src, node.n, node.n == 1 ? "" : "s",
					    f[k].threads);
		if (used[si] + f[k].threads > node.n)
			return as_error_set(err, -EINVAL,
					    "flow %d:%d:%d: the flows from node %d ask for %d threads, but it has %d CPU%s this process may use",
					    f[k].src, f[k].dst, f[k].threads, f[k].src, used[si] + f[k].threads, node.n,
					    node.n == 1 ? "" : "s");
		cpus[k].n = f[k].threads;
		for (int i = 0; i < f[k].threads; i++)
			cpus[k].cpu[i] = node.cpu[used[si] + i];
		used[si] += f[k].threads;
	}
	return 0;
}

int numa_place_available(void)
{
	return numa_available() >= 0;
}

/* The node mask of one node for mbind/set_mempolicy; maxnode is the bit count. */
static int one_node(int node, unsigned long *mask, unsigned long *maxnode, struct as_error *err)
{
	if (node < 0 || node >= AS_MAX_CPUS)
		return as_error_set(err, -EINVAL, "no NUMA node %d", node);
	memset(mask, 0, MASK_LONGS * sizeof(unsigned long));
	mask[node / (8 * sizeof(unsigned long))] = 1ul << (node % (8 * sizeof(unsigned long)));
	*maxnode = MASK_LONGS * 8 * sizeof(unsigned long);
	return 0;
}

int numa_place_memory(void *addr, size_t bytes, int node, struct as_error *err)
{
	unsigned long mask[MASK_LONGS], maxnode;
	if (!numa_place_available())
		return 0;
	if (one_node(node, mask, &maxnode, err))
		return -EINVAL;
	if (mbind(addr, bytes, MPOL_BIND, mask, maxnode, 0) != 0) {
		int e = errno;
		char b[64];
		return as_error_set(err, -e, "cannot bind %zu bytes to NUMA node %d: %s", bytes, node, as_strerror(e, b, sizeof(b)));
	}
	return 0;
}

int numa_place_thread_memory(int node, struct as_error *err)
{
	unsigned long mask[MASK_LONGS], maxnode;
	if (!numa_place_available())
		return 0;
	int rc;
	if (node < 0)
		rc = set_mempolicy(MPOL_DEFAULT, NULL, 0);
	else if (one_node(node, mask, &maxnode, err))
		return -EINVAL;
	else
		rc = set_mempolicy(MPOL_BIND, mask, maxnode);
	if (rc != 0) {
		int e = errno;
		char b[64];
		return as_error_set(err, -e, "cannot bind this thread's memory to NUMA node %d: %s", node, as_strerror(e, b, sizeof(b)));
	}
	return 0;
}

double numa_place_check(const void *addr, size_t bytes, int node, int pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	if (pages < 1 || bytes < page || !numa_place_available())
		return NAN;
	if ((size_t)pages > bytes / page)
		pages = (int)(bytes / page);
	void **p = malloc((size_t)pages * sizeof(void *));
	int *status = malloc((size_t)pages * sizeof(int));
	double frac = NAN;
	if (p && status) {
		size_t step = bytes / page / (size_t)pages * page;
		for (int i = 0; i < pages; i++)
			p[i] = (char *)addr + (size_t)i * step;
		if (move_pages(0, (unsigned long)pages, p, NULL, status, 0) == 0) {
			int on = 0, known = 0;
			for (int i = 0; i < pages; i++) {
				if (status[i] < 0)
					continue;
				known++;
				on += status[i] == node;
			}
			frac = known ? (double)on / known : NAN;
		}
	}
	free(p);
	free(status);
	return frac;
}
