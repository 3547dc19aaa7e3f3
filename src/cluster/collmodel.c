/* The LogGP model of the collectives: the textbook algorithm of each (Thakur, Rabenseifner, Gropp,
 * "Optimization of Collective Communication Operations in MPICH", 2005) as rounds of point-to-point
 * messages, each message costing what LogGP says a message of its size costs. Pure. */
#include "cluster/cluster.h"

#include <math.h>

#define CLUSTER_COLL_X_NAME(id, name, algo) name,
#define CLUSTER_COLL_X_ALGO(id, name, algo) algo,
static const char *const coll_names[] = { CLUSTER_COLL_OPS(CLUSTER_COLL_X_NAME) };
static const char *const coll_algos[] = { CLUSTER_COLL_OPS(CLUSTER_COLL_X_ALGO) };
static const char *const comm_names[] = { "world", "one rank per node", "one node" };

const char *cluster_coll_name(int op)
{
	return op >= 0 && op < CLUSTER_COLL_NOPS ? coll_names[op] : "?";
}

const char *cluster_coll_algorithm(int op)
{
	return op >= 0 && op < CLUSTER_COLL_NOPS ? coll_algos[op] : "?";
}

const char *cluster_comm_name(int kind)
{
	return kind >= 0 && kind < CLUSTER_COMM_KINDS ? comm_names[kind] : "?";
}

void cluster_coll_counts(int op, size_t bytes, int p, int *skip, int *iters)
{
	/* bytes each rank sends per call */
	double per = op == CLUSTER_COLL_ALLGATHER || op == CLUSTER_COLL_ALLTOALL ? (double)bytes * (p > 1 ? p - 1 : 1) : (double)bytes;
	int n = 100;
	if (per > 0 && (double)(4u << 20) / per < n)
		n = (int)((double)(4u << 20) / per);
	*iters = n < 5 ? 5 : n;
	*skip = 1 + *iters / 10;
}

double cluster_loggp_message_us(const struct cluster_loggp *g, size_t s)
{
	if (!g || !isfinite(g->rtt_us) || g->rtt_us <= 0)
		return NAN;
	double G = isfinite(g->G_ns_per_byte) && g->G_ns_per_byte > 0 ? g->G_ns_per_byte * 1e-3 : 0;
	double extra = s > 8 ? (double)(s - 8) : 0;
	return g->rtt_us / 2 + extra * G;
}

static int ceil_log2(int p)
{
	int k = 0;
	while ((1 << k) < p)
		k++;
	return k;
}

double cluster_coll_predict(int op, int p, size_t bytes, const struct cluster_loggp *g)
{
	if (p < 2)
		return 0;
	int lg = ceil_log2(p);
	switch (op) {
	case CLUSTER_COLL_BARRIER:
		return lg * cluster_loggp_message_us(g, 0);
	case CLUSTER_COLL_BCAST:
	case CLUSTER_COLL_REDUCE:
	case CLUSTER_COLL_ALLREDUCE:
		return lg * cluster_loggp_message_us(g, bytes);
	case CLUSTER_COLL_ALLGATHER:
	case CLUSTER_COLL_ALLTOALL:
		return (p - 1) * cluster_loggp_message_us(g, bytes);
	default:
		return NAN;
	}
}

int cluster_comm_layer(const struct cluster_layers *L, const int *ranks, int n)
{
	for (int k = 0; L && k < L->n; k++) {
		int one = 1;
		for (int i = 1; i < n && one; i++)
			one = L->layer[k].group[ranks[i]] == L->layer[k].group[ranks[0]];
		if (one)
			return k;
	}
	return -1;
}

void cluster_coll_model(struct cluster_coll *rows, int n, const int layer_of[CLUSTER_COMM_KINDS], const struct cluster_loggp *loggp,
			int nlayers)
{
	for (int i = 0; i < n; i++) {
		struct cluster_coll *c = &rows[i];
		int k = c->comm >= 0 && c->comm < CLUSTER_COMM_KINDS ? layer_of[c->comm] : -1;
		c->layer = k;
		c->model_us = c->model_error = NAN;
		if (k < 0 || k >= nlayers || loggp[k].a == loggp[k].b)
			continue;
		c->model_us = cluster_coll_predict(c->op, c->ranks, c->bytes, &loggp[k]);
		if (isfinite(c->model_us) && c->t_max_us > 0)
			c->model_error = c->model_us / c->t_max_us - 1;
	}
}
