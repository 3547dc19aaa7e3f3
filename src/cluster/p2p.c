/* Point to point per message size, as the OSU micro-benchmarks measure it between two ranks, the
 * others waiting asleep: osu_latency (ping-pong, half the round trip, the mean over the timed
 * iterations), osu_bw (a window of 64 non-blocking sends into one receive buffer, then a 4-byte
 * ack; bytes over the time of all timed windows) and osu_bibw (both ranks post a window of
 * receives and a window of sends at once). Their iteration counts per size are osu's (skip and
 * loop, "large" above 8 KiB), or with the short counts a tenth of them, capped by the bytes moved. */
#include "cluster/cluster-impl.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* osu's counts: osu_latency 100 + 10,000 iterations up to 8 KiB, 10 + 1,000 above; osu_bw and
 * osu_bibw 10 + 100 windows up to 8 KiB, 2 + 20 above. */
#define OSU_LARGE ((size_t)8192)

void cluster_p2p_counts(size_t bytes, int window, int full, int what, int *skip, int *iters)
{
	int large = bytes > OSU_LARGE;
	if (what == CLUSTER_P2P_LATENCY) {
		*skip = large ? 10 : 100;
		*iters = large ? 1000 : 10000;
	} else {
		*skip = large ? 2 : 10;
		*iters = large ? 20 : 100;
	}
	if (full)
		return;
	/* short: a tenth of osu's, and at most 32 MiB moved in the timed iterations of one size */
	*skip = *skip / 10 > 1 ? *skip / 10 : 1;
	*iters /= 10;
	double per = what == CLUSTER_P2P_LATENCY ? 2.0 * (double)bytes : (double)bytes * (window > 0 ? window : 1);
	int cap = (int)((double)(32u << 20) / (per > 1 ? per : 1));
	int floor = what == CLUSTER_P2P_LATENCY ? 10 : 2;
	if (cap < *iters)
		*iters = cap;
	if (*iters < floor)
		*iters = floor;
}

/* osu_latency: skip + iters round trips, each rank sending from sbuf and receiving into rbuf as
 * osu_latency does; the initiator's mean half round trip in us. */
static int p2p_latency(MPI_Comm c, int peer, int init, char *sbuf, char *rbuf, size_t bytes, int skip, int iters, double *us)
{
	double t0 = 0;
	for (int i = 0; i < skip + iters; i++) {
		if (i == skip)
			t0 = cluster_now_us();
		if (init) {
			if (MPI_Send(sbuf, (int)bytes, MPI_BYTE, peer, CLUSTER_TAG_PP, c) != MPI_SUCCESS ||
			    MPI_Recv(rbuf, (int)bytes, MPI_BYTE, peer, CLUSTER_TAG_PP, c, MPI_STATUS_IGNORE) != MPI_SUCCESS)
				return -EIO;
		} else if (MPI_Recv(rbuf, (int)bytes, MPI_BYTE, peer, CLUSTER_TAG_PP, c, MPI_STATUS_IGNORE) != MPI_SUCCESS ||
			   MPI_Send(sbuf, (int)bytes, MPI_BYTE, peer, CLUSTER_TAG_PP, c) != MPI_SUCCESS)
			return -EIO;
	}
	*us = (cluster_now_us() - t0) / (2.0 * iters);
	return 0;
}

/* osu_bw (bi = 0: the initiator sends, the other receives into one buffer and acks) or osu_bibw
 * (bi = 1: both post a window of receives into one buffer and a window of sends, then wait for
 * all); the initiator's GB/s over all timed windows. */
static int p2p_window(MPI_Comm c, int peer, int init, char *sbuf, char *rbuf, MPI_Request *rq, size_t bytes, int window,
		      int skip, int iters, int bi, double *gbs)
{
	char ack[4] = { 0 };
	double t0 = 0;
	for (int i = 0; i < skip + iters; i++) {
		if (i == skip)
			t0 = cluster_now_us();
		int n = 0;
		for (int w = 0; w < window && (bi || !init); w++)
			if (MPI_Irecv(rbuf, (int)bytes, MPI_BYTE, peer, CLUSTER_TAG_BW, c, &rq[n++]) != MPI_SUCCESS)
				return -EIO;
		for (int w = 0; w < window && (bi || init); w++)
			if (MPI_Isend(sbuf, (int)bytes, MPI_BYTE, peer, CLUSTER_TAG_BW, c, &rq[n++]) != MPI_SUCCESS)
				return -EIO;
		if (MPI_Waitall(n, rq, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
			return -EIO;
		if (!bi && (init ? MPI_Recv(ack, 4, MPI_BYTE, peer, CLUSTER_TAG_ACK, c, MPI_STATUS_IGNORE)
				 : MPI_Send(ack, 4, MPI_BYTE, peer, CLUSTER_TAG_ACK, c)) != MPI_SUCCESS)
			return -EIO;
	}
	double t = cluster_now_us() - t0;
	*gbs = (double)bytes * window * iters * (bi ? 2 : 1) / (t * 1e3);
	return 0;
}

static int p2p_run(MPI_Comm c, int peer, int init, const size_t *sizes, int n, int window, int full, struct cluster_p2p *out)
{
	size_t most = 1;
	for (int k = 0; k < n; k++)
		if (sizes[k] > most)
			most = sizes[k];
	char *sbuf = malloc(most), *rbuf = malloc(most);
	MPI_Request *rq = malloc(2 * (size_t)window * sizeof(*rq));
	int rc = sbuf && rbuf && rq ? 0 : -ENOMEM;
	if (rc == 0) {
		memset(sbuf, 1, most);
		memset(rbuf, 2, most);
	}
	for (int k = 0; k < n && rc == 0; k++) {
		struct cluster_p2p_point *pt = &out->pt[k];
		int skip, iters;
		pt->bytes = sizes[k];
		cluster_p2p_counts(sizes[k], window, full, CLUSTER_P2P_LATENCY, &skip, &iters);
		pt->lat_iters = iters;
		rc = p2p_latency(c, peer, init, sbuf, rbuf, sizes[k], skip, iters, &pt->latency_us);
		cluster_p2p_counts(sizes[k], window, full, CLUSTER_P2P_BANDWIDTH, &skip, &iters);
		pt->bw_iters = iters;
		if (rc == 0)
			rc = p2p_window(c, peer, init, sbuf, rbuf, rq, sizes[k], window, skip, iters, 0, &pt->bandwidth_gbs);
		if (rc == 0)
			rc = p2p_window(c, peer, init, sbuf, rbuf, rq, sizes[k], window, skip, iters, 1, &pt->bibandwidth_gbs);
	}
	free(sbuf);
	free(rbuf);
	free(rq);
	return rc;
}

int cluster_p2p_measure(struct cluster_run *run, int a, int b, const size_t *sizes, int n, int full, struct cluster_p2p *out,
			struct as_error *err)
{
	memset(out, 0, sizeof(*out));
	if (n > CLUSTER_P2P_MAX_SIZES)
		n = CLUSTER_P2P_MAX_SIZES;
	out->a = a;
	out->b = b;
	out->n = n;
	out->window = run->o->window;
	out->full = full;
	int rc = 0;
	if (run->rank == a || run->rank == b)
		rc = p2p_run(run->comm, run->rank == a ? b : a, run->rank == a, sizes, n, run->o->window, full, out);
	/* a's figures to rank 0 */
	if (rc == 0 && a != 0) {
		if (run->rank == a && MPI_Send(out, (int)sizeof(*out), MPI_BYTE, 0, CLUSTER_TAG_P2P, run->comm) != MPI_SUCCESS)
			rc = -EIO;
		if (run->rank == 0) {
			MPI_Request rq;
			if (MPI_Irecv(out, (int)sizeof(*out), MPI_BYTE, a, CLUSTER_TAG_P2P, run->comm, &rq) != MPI_SUCCESS ||
			    cluster_wait_idle(&rq, 1) != 0)
				rc = -EIO;
		}
	}
	if (rc == 0 && cluster_barrier_idle(run->comm) != 0)
		rc = -EIO;
	if (rc)
		return as_error_set(err, rc, "point-to-point runs between ranks %d and %d failed%s", a, b,
				    rc == -ENOMEM ? ": out of memory" : ": an MPI call returned an error");
	return 0;
}
