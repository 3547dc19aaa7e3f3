/* Private to src/cluster/: the message tags, the steps every sweep is made of (a measurement by
 * disjoint pairs, one record per rank to rank 0, a barrier that does not spin) and the point-to-
 * point primitives the sweeps, LogGP and contention share. */
#ifndef ARCHSCOPE_CLUSTER_CLUSTER_IMPL_H
#define ARCHSCOPE_CLUSTER_CLUSTER_IMPL_H

#include "cluster/cluster.h"

enum {
	CLUSTER_TAG_PP = 101,
	CLUSTER_TAG_BW,
	CLUSTER_TAG_ACK,
	CLUSTER_TAG_REC,
	CLUSTER_TAG_SHIFT,
	CLUSTER_TAG_PRTT,
	CLUSTER_TAG_P2P,
	CLUSTER_TAG_COLL,
};

/* A step's record: [0] the peer (-1: none), then up to four figures. */
#define CLUSTER_REC 5

typedef void cluster_store_fn(void *ctx, int from, const double *rec);
/* Measures with peer; initiator is the lower rank of the pair. Fills rec[1..]. 0 or -errno. */
typedef int cluster_pair_fn(struct cluster_run *run, int peer, int initiator, double *rec, void *ctx);

/* Rank 0: status and progress of a step that starts (peer: rank 0's partner). */
void cluster_step_begin(struct cluster_run *run, const char *phase, int step, int steps, int peer);
/* Every rank: its record to rank 0, which stores each (store(ctx, from, rec), its own too), then
 * the idle barrier. */
int cluster_step_end(struct cluster_run *run, const char *phase, int step, int steps, const double *mine,
		     cluster_store_fn *store, void *ctx);
/* The rounds of the tournament as steps (all pairs of a round at once, or one pair a step with
 * o->one_pair), fn run by both ranks of each pair. */
int cluster_pair_steps(struct cluster_run *run, const char *phase, cluster_pair_fn *fn, void *fnctx,
		       cluster_store_fn *store, void *ctx);

double cluster_now_us(void);
/* A message buffer of bytes (at least 1), touched. NULL when out of memory. */
char *cluster_buffer(struct cluster_run *run, size_t bytes);

/* warm + reps round trips of `bytes`; the initiator writes reps half round trips in us. */
int cluster_pingpong(MPI_Comm c, int peer, int initiator, char *buf, size_t bytes, int warm, int reps, double *half_us);
/* One warm-up and `bursts` timed windows of `window` messages from sender to peer, each followed
 * by a 4-byte ack (osu_bw's), every receive of a window into one buffer; the sender writes bursts GB/s. */
int cluster_stream(MPI_Comm c, int peer, int sender, size_t bytes, int window, int bursts, double *gbs);

#endif
