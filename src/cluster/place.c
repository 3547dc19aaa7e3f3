/* Where each rank runs: host, CPU set, NUMA node (hwloc through topo/), the node split of
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) with one leader per node, and what must agree across
 * nodes (version, executable) or may surprise (two nodes on one machine sharing a CPU). */
#include "cluster/cluster.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/counters.h"
#include "topo/topo.h"

static uint64_t exe_digest(void)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	uint64_t h = 1469598103934665603ull;
	unsigned char buf[1 << 16];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 1099511628211ull;
	close(fd);
	return n < 0 ? 0 : h;
}

static void read_line(const char *path, char *out, size_t len)
{
	out[0] = 0;
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(out, (int)len, f))
		out[strcspn(out, "\n")] = 0;
	fclose(f);
}

/* This rank's own description (node fields are filled later). */
static void describe_self(struct cluster_rank *me, int rank, const char *version)
{
	memset(me, 0, sizeof(*me));
	me->rank = rank;
	me->numa_node = -1;
	int len = 0;
	char name[MPI_MAX_PROCESSOR_NAME];
	if (MPI_Get_processor_name(name, &len) != MPI_SUCCESS)
		snprintf(name, sizeof(name), "?");
	snprintf(me->host, sizeof(me->host), "%.63s", name);
	snprintf(me->version, sizeof(me->version), "%s", version);
	read_line("/proc/sys/kernel/random/boot_id", me->boot_id, sizeof(me->boot_id));
	if (!me->boot_id[0]) /* no boot id: a machine per host name */
		snprintf(me->boot_id, sizeof(me->boot_id), "host %.34s", me->host);
	me->digest = exe_digest();
	me->pmu = counters_hw_check() == 0; /* an instructions counter opens */
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	me->online_cpus = online > 0 ? (int)online : 0;
	struct as_cpulist cpus;
	struct as_error e = { 0 };
	if (cpulist_allowed(&cpus, &e) == 0)
		for (int i = 0; i < cpus.n; i++)
			me->cpumask[cpus.cpu[i] / 64] |= 1ull << (cpus.cpu[i] % 64);
	/* the NUMA node whose CPUs hold all of ours */
	struct topo *t = malloc(sizeof(*t));
	if (t && topo_load(t, &e) == 0) {
		for (int n = 0; n < t->nnodes && cpus.n > 0; n++) {
			int all = 1;
			for (int i = 0; i < cpus.n && all; i++) {
				int in = 0;
				for (int k = 0; k < t->nodes[n].cpus.n && !in; k++)
					in = t->nodes[n].cpus.cpu[k] == cpus.cpu[i];
				all = in;
			}
			if (all) {
				me->numa_node = t->nodes[n].os_index;
				break;
			}
		}
		topo_release(t);
	}
	free(t);
}

void cluster_rank_cpus(const struct cluster_rank *r, struct as_cpulist *out)
{
	out->n = 0;
	for (int c = 0; c < AS_MAX_CPUS; c++)
		if (r->cpumask[c / 64] >> (c % 64) & 1)
			out->cpu[out->n++] = c;
}

int cluster_place_init(struct cluster_place *p, MPI_Comm world, const char *version, struct as_error *err)
{
	memset(p, 0, sizeof(*p));
	p->node_comm = MPI_COMM_NULL;
	if (MPI_Comm_size(world, &p->size) != MPI_SUCCESS || MPI_Comm_rank(world, &p->rank) != MPI_SUCCESS)
		return as_error_set(err, -EIO, "cannot read the size of MPI_COMM_WORLD");
	p->ranks = calloc((size_t)p->size, sizeof(*p->ranks));
	if (!p->ranks)
		return as_error_set(err, -ENOMEM, "out of memory for %d ranks", p->size);
	struct cluster_rank me;
	describe_self(&me, p->rank, version);
	if (MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, p->rank, MPI_INFO_NULL, &p->node_comm) != MPI_SUCCESS)
		return as_error_set(err, -EIO, "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) failed");
	int lowest = p->rank; /* the node's leader: its lowest world rank */
	MPI_Comm_rank(p->node_comm, &me.node_rank);
	if (MPI_Allreduce(&p->rank, &lowest, 1, MPI_INT, MPI_MIN, p->node_comm) != MPI_SUCCESS)
		return as_error_set(err, -EIO, "MPI_Allreduce on the node failed");
	me.node = lowest; /* the leader's rank for now; made an index below */
	if (MPI_Allgather(&me, (int)sizeof(me), MPI_BYTE, p->ranks, (int)sizeof(me), MPI_BYTE, world) != MPI_SUCCESS)
		return as_error_set(err, -EIO, "MPI_Allgather of the placement failed");
	p->leader = calloc((size_t)p->size, sizeof(int));
	p->node_size = calloc((size_t)p->size, sizeof(int));
	if (!p->leader || !p->node_size)
		return as_error_set(err, -ENOMEM, "out of memory");
	/* nodes in the order of their lowest rank: rank r is a leader when its node's lowest is r */
	for (int r = 0; r < p->size; r++)
		if (p->ranks[r].node == r)
			p->leader[p->nnodes++] = r;
	for (int r = 0; r < p->size; r++) {
		int lead = p->ranks[r].node;
		for (int n = 0; n < p->nnodes; n++)
			if (p->leader[n] == lead) {
				p->ranks[r].node = n;
				p->node_size[n]++;
				break;
			}
	}
	return 0;
}

void cluster_place_release(struct cluster_place *p)
{
	if (p->node_comm != MPI_COMM_NULL)
		MPI_Comm_free(&p->node_comm);
	free(p->ranks);
	free(p->leader);
	free(p->node_size);
	memset(p, 0, sizeof(*p));
	p->node_comm = MPI_COMM_NULL;
}

int cluster_place_mismatch(const struct cluster_place *p, int *first)
{
	int n = 0;
	*first = -1;
	for (int r = 1; r < p->size; r++)
		if (strcmp(p->ranks[r].version, p->ranks[0].version) != 0 || p->ranks[r].digest != p->ranks[0].digest) {
			if (n++ == 0)
				*first = r;
		}
	return n;
}

static int single_cpu(const struct cluster_rank *r)
{
	int cpu = -1;
	for (int w = 0; w < CLUSTER_MASK_WORDS; w++) {
		uint64_t m = r->cpumask[w];
		if (!m)
			continue;
		if ((m & (m - 1)) || cpu >= 0)
			return -1;
		cpu = w * 64 + __builtin_ctzll(m);
	}
	return cpu;
}

int cluster_place_shared_cpu(const struct cluster_place *p, int *a, int *b)
{
	for (int i = 0; i < p->size; i++) {
		int ci = single_cpu(&p->ranks[i]);
		if (ci < 0 || !p->ranks[i].boot_id[0])
			continue;
		for (int j = i + 1; j < p->size; j++)
			if (p->ranks[j].node != p->ranks[i].node && single_cpu(&p->ranks[j]) == ci &&
			    strcmp(p->ranks[j].boot_id, p->ranks[i].boot_id) == 0) {
				*a = i;
				*b = j;
				return 1;
			}
	}
	return 0;
}

int cluster_place_oversubscribed(const struct cluster_place *p, int *ranks, int *cpus)
{
	int worst = -AS_MAX_CPUS - 1;
	*ranks = *cpus = 0;
	for (int i = 0; i < p->size; i++) {
		int first = 1;
		for (int j = 0; j < i && first; j++)
			first = strcmp(p->ranks[j].boot_id, p->ranks[i].boot_id) != 0;
		if (!first)
			continue;
		uint64_t mask[CLUSTER_MASK_WORDS] = { 0 };
		int n = 0;
		for (int j = i; j < p->size; j++)
			if (strcmp(p->ranks[j].boot_id, p->ranks[i].boot_id) == 0) {
				n++;
				for (int w = 0; w < CLUSTER_MASK_WORDS; w++)
					mask[w] |= p->ranks[j].cpumask[w];
			}
		int c = 0;
		for (int w = 0; w < CLUSTER_MASK_WORDS; w++)
			c += __builtin_popcountll(mask[w]);
		if (n - c > worst) {
			worst = n - c;
			*ranks = n;
			*cpus = c;
		}
	}
	return worst;
}
