/* Contention: how the bandwidth of one pair falls as 1, 2, 4, ... pairs of the same two nodes send
 * at once (the nodes' links and NICs shared), every node pair at the same time. */
#include "cluster/cluster-impl.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/order.h"

/* The partner of rank r when the first k ranks of each node send (-1: r is not sending or
 * receiving), and whether r sends. */
static int partner_of(const struct cluster_place *p, int r, int k, int *sender)
{
	const struct cluster_rank *me = &p->ranks[r];
	*sender = 0;
	if (p->nnodes == 1) { /* one node: its ranks 0-1, 2-3, ... */
		int pair = me->node_rank / 2;
		if (pair >= k)
			return -1;
		int want = me->node_rank ^ 1;
		*sender = me->node_rank % 2 == 0;
		for (int q = 0; q < p->size; q++)
			if (p->ranks[q].node_rank == want)
				return q;
		return -1;
	}
	int other = me->node ^ 1;
	if (other >= p->nnodes || me->node_rank >= k)
		return -1;
	*sender = me->node % 2 == 0;
	for (int q = 0; q < p->size; q++)
		if (p->ranks[q].node == other && p->ranks[q].node_rank == me->node_rank)
			return q;
	return -1;
}

/* The largest k for which every node pair has k ranks on both sides (one node: pairs in it). */
static int max_pairs(const struct cluster_place *p)
{
	if (p->nnodes == 1)
		return p->node_size[0] / 2;
	int k = p->size;
	for (int n = 0; n + 1 < p->nnodes; n += 2) {
		int m = p->node_size[n] < p->node_size[n + 1] ? p->node_size[n] : p->node_size[n + 1];
		if (m < k)
			k = m;
	}
	return k;
}

struct cont_ctx {
	double *bw;    /* [size]: what each sender got this step */
};

static void cont_store(void *arg, int from, const double *rec)
{
	struct cont_ctx *c = arg;
	c->bw[from] = rec[1];
}

int cluster_contention_measure(struct cluster_run *run, const struct cluster_place *p, struct cluster_contention *out,
			       int max, struct as_error *err)
{
	const struct cluster_opts *o = run->o;
	int K = max_pairs(p);
	if (K > max)
		K = max;
	struct cont_ctx c = { .bw = malloc((size_t)p->size * sizeof(double)) };
	double *gbs = malloc((size_t)o->bursts * sizeof(double));
	double *v = malloc((size_t)p->size * sizeof(double));
	double *tot = malloc((size_t)p->size * sizeof(double));
	int rc = c.bw && gbs && v && tot ? 0 : -ENOMEM;
	/* k = 1, 2, 4, ... and K itself: log2(K) + 1 steps, not K */
	int steps = 0, step = 0;
	for (int k = 1; k <= K; k = k * 2 > K && k < K ? K : k * 2)
		steps++;
	for (int k = 1; k <= K && rc == 0; k = k * 2 > K && k < K ? K : k * 2) {
		int sender, peer = partner_of(p, run->rank, k, &sender);
		step++;
		cluster_step_begin(run, "contention", step, steps, -1);
		for (int q = 0; q < p->size; q++)
			c.bw[q] = NAN;
		double rec[CLUSTER_REC] = { peer, NAN, NAN, NAN, NAN };
		/* all start together: a barrier that spins, as in the shift pattern */
		if (MPI_Barrier(run->comm) != MPI_SUCCESS)
			rc = -EIO;
		if (rc == 0 && peer >= 0 && cluster_stream(run->comm, peer, sender, o->bw_bytes, o->window, o->bursts, gbs) != 0)
			rc = -EIO;
		if (rc == 0 && peer >= 0 && sender)
			rec[1] = order_median(gbs, (size_t)o->bursts);
		if (rc == 0)
			rc = cluster_step_end(run, "contention", step, steps, rec, cont_store, &c);
		if (rc == 0 && run->rank == 0) {
			int n = 0, nt = 0;
			for (int q = 0; q < p->size; q++)
				if (!isnan(c.bw[q]))
					v[n++] = c.bw[q];
			/* per node pair: the sum of its senders */
			for (int a = 0; a < p->nnodes; a += p->nnodes == 1 ? 1 : 2) {
				double s = 0;
				for (int q = 0; q < p->size; q++)
					if (p->ranks[q].node == a && !isnan(c.bw[q]))
						s += c.bw[q];
				tot[nt++] = s;
			}
			out[step - 1] = (struct cluster_contention){ .pairs_per_node = k, .npairs = n,
								  .bandwidth_gbs = order_median(v, (size_t)n),
								  .total_gbs = order_median(tot, (size_t)nt) };
		}
	}
	free(c.bw);
	free(gbs);
	free(v);
	free(tot);
	if (rc)
		return as_error_set(err, rc, "contention runs failed%s", rc == -ENOMEM ? ": out of memory" : ": an MPI call returned an error");
	return rc ? rc : steps;
}
