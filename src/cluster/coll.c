/* Collectives as IMB-MPI1 measures them: on a communicator, after a barrier and warm-up calls, each
 * rank times a run of calls and takes the mean per call; the least, mean and most of those over the
 * ranks are t_min, t_avg and t_max. One communicator and operation at a time: the world, one rank
 * per node (the leaders) and the ranks of rank 0's node, the ranks outside waiting asleep. */
#include "cluster/cluster-impl.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int coll_call(int op, MPI_Comm c, char *sbuf, char *rbuf, size_t bytes)
{
	int n = (int)(bytes / sizeof(float)), b = (int)bytes;
	switch (op) {
	case CLUSTER_COLL_BARRIER:
		return MPI_Barrier(c);
	case CLUSTER_COLL_BCAST:
		return MPI_Bcast(sbuf, b, MPI_BYTE, 0, c);
	case CLUSTER_COLL_REDUCE:
		return MPI_Reduce(sbuf, rbuf, n, MPI_FLOAT, MPI_SUM, 0, c);
	case CLUSTER_COLL_ALLREDUCE:
		return MPI_Allreduce(sbuf, rbuf, n, MPI_FLOAT, MPI_SUM, c);
	case CLUSTER_COLL_ALLGATHER:
		return MPI_Allgather(sbuf, b, MPI_BYTE, rbuf, b, MPI_BYTE, c);
	case CLUSTER_COLL_ALLTOALL:
		return MPI_Alltoall(sbuf, b, MPI_BYTE, rbuf, b, MPI_BYTE, c);
	default:
		return MPI_ERR_ARG;
	}
}

/* One operation at one size on c (every member calls it): the times on c's rank 0. */
static int coll_time(MPI_Comm c, int p, int op, size_t bytes, char *sbuf, char *rbuf, struct cluster_coll *out)
{
	int skip, iters;
	cluster_coll_counts(op, bytes, p, &skip, &iters);
	if (MPI_Barrier(c) != MPI_SUCCESS)
		return -EIO;
	for (int i = 0; i < skip; i++)
		if (coll_call(op, c, sbuf, rbuf, bytes) != MPI_SUCCESS)
			return -EIO;
	if (MPI_Barrier(c) != MPI_SUCCESS)
		return -EIO;
	double t0 = cluster_now_us();
	for (int i = 0; i < iters; i++)
		if (coll_call(op, c, sbuf, rbuf, bytes) != MPI_SUCCESS)
			return -EIO;
	double t = (cluster_now_us() - t0) / iters, lo = 0, hi = 0, sum = 0;
	if (MPI_Reduce(&t, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, c) != MPI_SUCCESS ||
	    MPI_Reduce(&t, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, c) != MPI_SUCCESS ||
	    MPI_Reduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, c) != MPI_SUCCESS)
		return -EIO;
	out->ranks = p;
	out->op = op;
	out->bytes = op == CLUSTER_COLL_BARRIER ? 0 : bytes;
	out->iters = iters;
	out->t_min_us = lo;
	out->t_avg_us = sum / p;
	out->t_max_us = hi;
	out->layer = -1;
	out->model_us = out->model_error = NAN;
	return 0;
}

/* Every operation and size on communicator c of p ranks (this rank a member). */
static int coll_comm(MPI_Comm c, int kind, int p, const size_t *sizes, int nsizes, struct cluster_coll *out, int max, int *n)
{
	size_t most = 4;
	for (int s = 0; s < nsizes; s++)
		if (sizes[s] > most)
			most = sizes[s];
	char *sbuf = malloc(most * (size_t)p), *rbuf = malloc(most * (size_t)p);
	int rc = sbuf && rbuf ? 0 : -ENOMEM;
	if (rc == 0) {
		memset(sbuf, 0, most * (size_t)p);
		memset(rbuf, 0, most * (size_t)p);
	}
	for (int op = 0; op < CLUSTER_COLL_NOPS && rc == 0; op++)
		for (int s = 0; s < nsizes && rc == 0; s++) {
			if (op == CLUSTER_COLL_BARRIER && s > 0)
				break;
			struct cluster_coll row = { .comm = kind };
			rc = coll_time(c, p, op, sizes[s] < 4 ? 4 : sizes[s], sbuf, rbuf, &row);
			if (rc == 0 && *n < max)
				out[(*n)++] = row;
		}
	free(sbuf);
	free(rbuf);
	return rc;
}

int cluster_coll_measure(struct cluster_run *run, const struct cluster_place *p, const size_t *sizes, int nsizes,
			 struct cluster_coll *out, int max, struct as_error *err)
{
	const struct cluster_rank *me = &p->ranks[run->rank];
	int n = 0, rc = 0;
	/* which communicators: of 2 ranks or more, and not the world again */
	int member[CLUSTER_COMM_KINDS] = { 1, me->node_rank == 0, me->node == 0 };
	int size[CLUSTER_COMM_KINDS] = { p->size, p->nnodes, p->node_size[0] };
	int use[CLUSTER_COMM_KINDS] = { 1, p->nnodes >= 2 && p->nnodes < p->size, p->node_size[0] >= 2 && p->node_size[0] < p->size };
	int steps = use[0] + use[1] + use[2], step = 0;
	for (int k = 0; k < CLUSTER_COMM_KINDS && rc == 0; k++) {
		if (!use[k])
			continue;
		cluster_step_begin(run, "collectives", ++step, steps, -1);
		MPI_Comm c = MPI_COMM_NULL;
		if (k == CLUSTER_COMM_WORLD) {
			c = run->comm;
		} else if (MPI_Comm_split(run->comm, member[k] ? 0 : MPI_UNDEFINED, run->rank, &c) != MPI_SUCCESS) {
			rc = -EIO;
			break;
		}
		if (member[k])
			rc = coll_comm(c, k, size[k], sizes, nsizes, out, max, &n);
		if (k != CLUSTER_COMM_WORLD && c != MPI_COMM_NULL)
			MPI_Comm_free(&c);
		if (rc == 0 && cluster_barrier_idle(run->comm) != 0)
			rc = -EIO;
	}
	if (rc)
		return as_error_set(err, rc, "collectives failed%s", rc == -ENOMEM ? ": out of memory" : ": an MPI call returned an error");
	return run->rank == 0 ? n : 0;
}
