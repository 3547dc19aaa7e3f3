/* LogGP by netgauge's method (Hoefler, Lichei, Rehm: "Low-Overhead LogGP Parameter Assessment for
 * Modern Interconnection Networks", 2007): parametrised round trips PRTT(n, d, s), in which one
 * rank sends n messages of s bytes, waiting d between them, and the other answers the last with
 * one message of s bytes; the send and receive overheads timed around the calls themselves. */
#include "cluster/cluster-impl.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/order.h"
#include "common/timer.h"

/* One PRTT(n, d, s): the initiator's time in us; *o_s gets the median time in MPI_Send. */
static int prtt_once(MPI_Comm c, int peer, int init, char *buf, size_t s, int n, double d_us, double *t_us,
		     double *osend)
{
	if (init) {
		double t0 = cluster_now_us();
		for (int i = 0; i < n; i++) {
			double ts = cluster_now_us();
			if (MPI_Send(buf, (int)s, MPI_BYTE, peer, CLUSTER_TAG_PRTT, c) != MPI_SUCCESS)
				return -EIO;
			if (osend)
				osend[i] = cluster_now_us() - ts;
			if (d_us > 0 && i < n - 1)
				timer_spin_ns((uint64_t)(d_us * 1e3));
		}
		if (MPI_Recv(buf, (int)s, MPI_BYTE, peer, CLUSTER_TAG_PRTT, c, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -EIO;
		*t_us = cluster_now_us() - t0;
		return 0;
	}
	for (int i = 0; i < n; i++)
		if (MPI_Recv(buf, (int)s, MPI_BYTE, peer, CLUSTER_TAG_PRTT, c, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -EIO;
	return MPI_Send(buf, (int)s, MPI_BYTE, peer, CLUSTER_TAG_PRTT, c) == MPI_SUCCESS ? 0 : -EIO;
}

/* The median of reps PRTT(n, d, s) (after two warm-ups) on the initiator; o_s medians too when
 * asked for. */
static int prtt_median(MPI_Comm c, int peer, int init, char *buf, size_t s, int n, double d_us, int reps, double *t,
		       double *o_s, double *work, double *osend)
{
	int no = 0;
	for (int r = -2; r < reps; r++) {
		double tt = 0;
		if (prtt_once(c, peer, init, buf, s, n, d_us, &tt, o_s && r >= 0 ? osend + (size_t)no : NULL) != 0)
			return -EIO;
		if (r >= 0) {
			work[r] = tt;
			if (o_s)
				no += n;
		}
	}
	if (init) {
		*t = order_median(work, (size_t)reps);
		if (o_s)
			*o_s = order_median(osend, (size_t)no);
	}
	return 0;
}

static int prtt_run(MPI_Comm c, int peer, int init, int reps, struct cluster_prtt *m)
{
	static const size_t sizes[CLUSTER_PRTT_SIZES] = { 8, (size_t)128 << 10, (size_t)256 << 10, (size_t)512 << 10,
							  (size_t)1 << 20 };
	m->n = 16;
	m->nsizes = CLUSTER_PRTT_SIZES;
	memcpy(m->size, sizes, sizeof(sizes));
	int big = reps / 10 > 5 ? reps / 10 : 5;
	char *buf = malloc(sizes[CLUSTER_PRTT_SIZES - 1]);
	double *work = malloc((size_t)reps * sizeof(double));
	double *osend = malloc((size_t)reps * m->n * sizeof(double));
	int rc = buf && work && osend ? 0 : -ENOMEM;
	if (buf)
		memset(buf, 1, sizes[CLUSTER_PRTT_SIZES - 1]);
	for (int k = 0; k < m->nsizes && rc == 0; k++) {
		int r = k == 0 ? reps : big;
		rc = prtt_median(c, peer, init, buf, m->size[k], 1, 0, r, &m->prtt1_us[k], NULL, work, osend);
		if (rc == 0)
			rc = prtt_median(c, peer, init, buf, m->size[k], m->n, 0, r, &m->prttn_us[k], NULL, work, osend);
	}
	/* the delay: longer than a message's gap, so each send pays its overhead alone */
	double d = 0;
	if (rc == 0 && init)
		d = fmax(2 * m->prtt1_us[0], 5.0);
	if (rc == 0 && MPI_Sendrecv_replace(&d, 1, MPI_DOUBLE, peer, CLUSTER_TAG_PRTT, peer, CLUSTER_TAG_PRTT, c,
					    MPI_STATUS_IGNORE) != MPI_SUCCESS)
		rc = -EIO;
	if (rc == 0 && !init) /* the initiator's d came back in the exchange */
		m->d_us = d;
	else if (rc == 0) {
		m->d_us = fmax(2 * m->prtt1_us[0], 5.0);
		d = m->d_us;
	}
	if (rc == 0)
		rc = prtt_median(c, peer, init, buf, m->size[0], m->n, m->d_us, reps, &m->prttd_us, &m->o_s_us, work, osend);
	/* o_r: the responder waits until the message is surely there, then times its receive */
	for (int r = -2; r < reps && rc == 0; r++) {
		if (init) {
			if (MPI_Send(buf, (int)m->size[0], MPI_BYTE, peer, CLUSTER_TAG_PRTT, c) != MPI_SUCCESS ||
			    MPI_Recv(buf, (int)m->size[0], MPI_BYTE, peer, CLUSTER_TAG_PRTT, c, MPI_STATUS_IGNORE) != MPI_SUCCESS)
				rc = -EIO;
			continue;
		}
		/* the message is there (the delay, then MPI_Iprobe says so): the receive's own cost */
		timer_spin_ns((uint64_t)(m->d_us * 1e3));
		for (int flag = 0; !flag && rc == 0;)
			if (MPI_Iprobe(peer, CLUSTER_TAG_PRTT, c, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
				rc = -EIO;
		double t0 = cluster_now_us();
		if (MPI_Recv(buf, (int)m->size[0], MPI_BYTE, peer, CLUSTER_TAG_PRTT, c, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			rc = -EIO;
		if (r >= 0)
			work[r] = cluster_now_us() - t0;
		if (rc == 0 && MPI_Send(buf, (int)m->size[0], MPI_BYTE, peer, CLUSTER_TAG_PRTT, c) != MPI_SUCCESS)
			rc = -EIO;
	}
	double o_r = rc == 0 && !init ? order_median(work, (size_t)reps) : NAN;
	if (rc == 0 && MPI_Sendrecv_replace(&o_r, 1, MPI_DOUBLE, peer, CLUSTER_TAG_PRTT, peer, CLUSTER_TAG_PRTT, c,
					    MPI_STATUS_IGNORE) != MPI_SUCCESS)
		rc = -EIO;
	if (rc == 0 && init)
		m->o_r_us = o_r;
	free(buf);
	free(work);
	free(osend);
	return rc;
}

int cluster_prtt_measure(struct cluster_run *run, int a, int b, int reps, struct cluster_prtt *out, struct as_error *err)
{
	memset(out, 0, sizeof(*out));
	int rc = 0;
	if (run->rank == a || run->rank == b)
		rc = prtt_run(run->comm, run->rank == a ? b : a, run->rank == a, reps, out);
	/* a's figures to rank 0 */
	if (rc == 0 && a != 0) {
		if (run->rank == a && MPI_Send(out, (int)sizeof(*out), MPI_BYTE, 0, CLUSTER_TAG_PRTT, run->comm) != MPI_SUCCESS)
			rc = -EIO;
		if (run->rank == 0) {
			MPI_Request rq;
			if (MPI_Irecv(out, (int)sizeof(*out), MPI_BYTE, a, CLUSTER_TAG_PRTT, run->comm, &rq) != MPI_SUCCESS ||
			    cluster_wait_idle(&rq, 1) != 0)
				rc = -EIO;
		}
	}
	if (rc == 0 && cluster_barrier_idle(run->comm) != 0)
		rc = -EIO;
	if (rc)
		return as_error_set(err, rc, "PRTT runs between ranks %d and %d failed%s", a, b,
				    rc == -ENOMEM ? ": out of memory" : ": an MPI call returned an error");
	return 0;
}

void cluster_loggp_derive(const struct cluster_prtt *m, struct cluster_loggp *out)
{
	out->L_us = out->o_s_us = out->o_r_us = out->g_us = out->G_ns_per_byte = out->o_prtt_us = out->rtt_us = NAN;
	if (m->n < 2 || m->nsizes < 1)
		return;
	double gG[CLUSTER_PRTT_SIZES];
	for (int k = 0; k < m->nsizes; k++)
		gG[k] = (m->prttn_us[k] - m->prtt1_us[k]) / (m->n - 1);
	/* G: least squares of g + (s-1)G over the large sizes */
	double G = NAN;
	int nl = m->nsizes - 1;
	if (nl >= 2) {
		double sx = 0, sy = 0, sxx = 0, sxy = 0;
		for (int k = 1; k < m->nsizes; k++) {
			double x = (double)m->size[k] - 1;
			sx += x;
			sy += gG[k];
			sxx += x * x;
			sxy += x * gG[k];
		}
		double den = nl * sxx - sx * sx;
		if (den > 0)
			G = (nl * sxy - sx * sy) / den;
	}
	double s1 = (double)m->size[0] - 1;
	double Gs = isfinite(G) ? s1 * G : 0;
	out->rtt_us = m->prtt1_us[0];
	out->G_ns_per_byte = G * 1e3;
	out->g_us = gG[0] - Gs;
	out->o_s_us = m->o_s_us;
	out->o_r_us = m->o_r_us;
	out->o_prtt_us = (m->prttd_us - m->prtt1_us[0]) / (m->n - 1) - m->d_us;
	out->L_us = m->prtt1_us[0] / 2 - m->o_s_us - m->o_r_us - Gs;
}
