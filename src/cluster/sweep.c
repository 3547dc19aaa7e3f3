/* The rank-pair sweeps: ping-pong latency, windowed bandwidth (osu_bw) and mpiGraph's shift pattern,
 * in steps of disjoint pairs. After each step every rank sends rank 0 one record of what it
 * measured, so rank 0 holds the matrices so far (for --raw, and to name who did not answer when a
 * run is cut), then all wait on a barrier that does not spin. */
#include "cluster/cluster-impl.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/order.h"
#include "cluster/budget.h"
#include "common/timer.h"

int cluster_barrier_idle(MPI_Comm comm)
{
	MPI_Request rq;
	if (MPI_Ibarrier(comm, &rq) != MPI_SUCCESS)
		return -EIO;
	return cluster_wait_idle(&rq, 1);
}

int cluster_wait_idle(MPI_Request *rq, int n)
{
	long ns = 2000;
	for (;;) {
		int done = 0;
		if (MPI_Testall(n, rq, &done, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
			return -EIO;
		if (done)
			return 0;
		struct timespec ts = { 0, ns };
		nanosleep(&ts, NULL);
		if (ns < 1000000)
			ns *= 2;
	}
}

double cluster_now_us(void)
{
	return (double)timer_now_ns() * 1e-3;
}

char *cluster_buffer(struct cluster_run *run, size_t bytes)
{
	(void)run;
	char *b = malloc(bytes ? bytes : 1);
	if (b)
		memset(b, 1, bytes);
	return b;
}

int cluster_pingpong(MPI_Comm c, int peer, int initiator, char *buf, size_t bytes, int warm, int reps, double *half_us)
{
	for (int i = -warm; i < reps; i++) {
		if (initiator) {
			double t0 = cluster_now_us();
			if (MPI_Send(buf, (int)bytes, MPI_BYTE, peer, CLUSTER_TAG_PP, c) != MPI_SUCCESS ||
			    MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, CLUSTER_TAG_PP, c, MPI_STATUS_IGNORE) != MPI_SUCCESS)
				return -EIO;
			if (i >= 0)
				half_us[i] = (cluster_now_us() - t0) / 2;
		} else if (MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, CLUSTER_TAG_PP, c, MPI_STATUS_IGNORE) != MPI_SUCCESS ||
			   MPI_Send(buf, (int)bytes, MPI_BYTE, peer, CLUSTER_TAG_PP, c) != MPI_SUCCESS)
			return -EIO;
	}
	return 0;
}

/* osu_bw's window: `window` non-blocking sends of `bytes` into ONE receive buffer on the receiver
 * (osu_bw and osu_bibw post every receive of a window on the same buffer, so what is measured is the
 * transport, not the receiver's cache misses on fresh memory), then a 4-byte ack. */
int cluster_stream(MPI_Comm c, int peer, int sender, size_t bytes, int window, int bursts, double *gbs)
{
	char *buf = malloc(bytes ? bytes : 1);
	MPI_Request *rq = malloc((size_t)window * sizeof(*rq));
	int rc = buf && rq ? 0 : -ENOMEM;
	char ack[4] = { 0 };
	if (buf)
		memset(buf, 1, bytes ? bytes : 1);
	for (int b = -1; b < bursts && rc == 0; b++) { /* one burst to warm up */
		double t0 = cluster_now_us();
		for (int w = 0; w < window && rc == 0; w++)
			rc = sender ? MPI_Isend(buf, (int)bytes, MPI_BYTE, peer, CLUSTER_TAG_BW, c, &rq[w])
				    : MPI_Irecv(buf, (int)bytes, MPI_BYTE, peer, CLUSTER_TAG_BW, c, &rq[w]);
		if (rc == 0)
			rc = MPI_Waitall(window, rq, MPI_STATUSES_IGNORE);
		if (rc == 0)
			rc = sender ? MPI_Recv(ack, 4, MPI_BYTE, peer, CLUSTER_TAG_ACK, c, MPI_STATUS_IGNORE)
				    : MPI_Send(ack, 4, MPI_BYTE, peer, CLUSTER_TAG_ACK, c);
		if (rc != 0)
			rc = -EIO;
		else if (sender && b >= 0)
			gbs[b] = (double)bytes * window / ((cluster_now_us() - t0) * 1e3);
	}
	free(buf);
	free(rq);
	return rc;
}

/* --- steps and their records ------------------------------------------------------------------- */

int cluster_step_end(struct cluster_run *run, const char *phase, int step, int steps, const double *mine,
		     cluster_store_fn *store, void *ctx)
{
	const struct cluster_opts *o = run->o;
	int rc = 0;
	if (run->rank != 0) {
		if (MPI_Send(mine, CLUSTER_REC, MPI_DOUBLE, 0, CLUSTER_TAG_REC, run->comm) != MPI_SUCCESS)
			return -EIO;
	} else {
		int p = run->size;
		double *recs = malloc((size_t)p * CLUSTER_REC * sizeof(double));
		MPI_Request *rq = malloc((size_t)p * sizeof(*rq));
		int *idx = malloc((size_t)p * sizeof(int));
		if (!recs || !rq || !idx) {
			free(recs);
			free(rq);
			free(idx);
			return -ENOMEM;
		}
		struct cluster_status *st = o->status;
		if (st && st->answered) {
			memset(st->answered, 0, (size_t)p);
			st->answered[0] = 1;
			st->waiting = 1;
		}
		store(ctx, 0, mine);
		rq[0] = MPI_REQUEST_NULL;
		for (int r = 1; r < p && rc == 0; r++)
			if (MPI_Irecv(recs + (size_t)r * CLUSTER_REC, CLUSTER_REC, MPI_DOUBLE, r, CLUSTER_TAG_REC, run->comm, &rq[r]) !=
			    MPI_SUCCESS)
				rc = -EIO;
		long ns = 2000;
		for (int left = p - 1; left > 0 && rc == 0;) {
			int got = 0;
			if (MPI_Testsome(p, rq, &got, idx, MPI_STATUSES_IGNORE) != MPI_SUCCESS) {
				rc = -EIO;
				break;
			}
			if (got == MPI_UNDEFINED)
				break;
			for (int k = 0; k < got; k++) {
				if (st && st->answered)
					st->answered[idx[k]] = 1;
				store(ctx, idx[k], recs + (size_t)idx[k] * CLUSTER_REC);
			}
			left -= got;
			if (got == 0) {
				struct timespec ts = { 0, ns };
				nanosleep(&ts, NULL);
				if (ns < 1000000)
					ns *= 2;
			} else {
				ns = 2000;
			}
		}
		if (st)
			st->waiting = 0;
		free(recs);
		free(rq);
		free(idx);
		if (rc == 0 && o->step_done)
			o->step_done(o->arg, phase, step, steps);
	}
	if (rc == 0 && cluster_barrier_idle(run->comm) != 0)
		rc = -EIO;
	return rc;
}

void cluster_step_begin(struct cluster_run *run, const char *phase, int step, int steps, int peer)
{
	const struct cluster_opts *o = run->o;
	if (run->rank != 0)
		return;
	if (o->status) {
		o->status->phase = phase;
		o->status->step = step;
		o->status->steps = steps;
		o->status->peer = peer;
	}
	if (o->progress)
		o->progress(o->arg, phase, step, steps);
}

/* The pairs of tournament round r as a list of disjoint pairs (lower rank first); returns the count. */
static int round_pairs(int p, int r, int (*pairs)[2])
{
	int n = 0;
	for (int i = 0; i < p; i++) {
		int j = cluster_round_partner(p, r, i);
		if (j > i) {
			pairs[n][0] = i;
			pairs[n][1] = j;
			n++;
		}
	}
	return n;
}

/* Every rank: whether the step at position pos of a budgeted sweep runs (rank 0 decides, all hear
 * it): the floor always, then while one more step at the mean cost so far ends by the deadline.
 * 1, 0, or -EIO. */
static int step_wanted(struct cluster_run *run, struct cluster_sweep_budget *b, int pos)
{
	if (!b)
		return 1;
	int go = 1;
	if (run->rank == 0) {
		double now = (double)timer_now_ns() * 1e-9;
		if (pos == 0)
			b->t0_s = now;
		if (pos == b->floor && pos > 0 && now > b->deadline_s)
			b->over = 1;
		if (pos >= b->floor)
			go = now + (now - b->t0_s) / pos <= b->deadline_s;
	}
	if (MPI_Bcast(&go, 1, MPI_INT, 0, run->comm) != MPI_SUCCESS)
		return -EIO;
	b->ran += go;
	return go;
}

/* The tournament's steps: step s is round round_of[s] from its pair first_of[s] (one pair a step
 * with one_pair, else the whole round). Returns the count, or -1 when out of memory. */
static int pair_step_list(int p, int one_pair, int **round_of, int **first_of)
{
	int rounds = cluster_rounds(p), steps = one_pair ? p * (p - 1) / 2 : rounds, s = 0;
	*round_of = malloc(sizeof(int) * (size_t)(steps + 1));
	*first_of = malloc(sizeof(int) * (size_t)(steps + 1));
	if (!*round_of || !*first_of)
		return -1;
	for (int r = 0; r < rounds; r++) {
		int per = one_pair ? p / 2 : 1; /* a round's pairs: p / 2 (odd p: one rank sits out) */
		for (int k = 0; k < per && s < steps; k++) {
			(*round_of)[s] = r;
			(*first_of)[s++] = k;
		}
	}
	return s;
}

int cluster_pair_steps(struct cluster_run *run, const char *phase, cluster_pair_fn *fn, void *fnctx,
		       cluster_store_fn *store, void *ctx)
{
	int p = run->size, *round_of = NULL, *first_of = NULL;
	struct cluster_sweep_budget *b = run->o->budget;
	int (*pairs)[2] = malloc(sizeof(*pairs) * (size_t)(p / 2 + 1));
	int steps = pair_step_list(p, run->o->one_pair, &round_of, &first_of), rc = 0;
	if (!pairs || steps < 0)
		rc = -ENOMEM;
	int n = b ? b->n : steps;
	for (int pos = 0; pos < n && rc == 0; pos++) {
		int go = step_wanted(run, b, pos);
		if (go <= 0) {
			rc = go;
			break;
		}
		int s = b ? b->order[pos] : pos;
		int np = round_pairs(p, round_of[s], pairs);
		int first = first_of[s], per_step = run->o->one_pair ? 1 : np;
		int peer = -1, initiator = 0;
		for (int k = first; k < first + per_step && k < np; k++) {
			if (pairs[k][0] == run->rank)
				peer = pairs[k][1], initiator = 1;
			else if (pairs[k][1] == run->rank)
				peer = pairs[k][0];
		}
		cluster_step_begin(run, phase, pos + 1, n, run->rank == 0 ? peer : -1);
		double rec[CLUSTER_REC];
		for (int k = 0; k < CLUSTER_REC; k++)
			rec[k] = NAN;
		rec[0] = peer;
		if (peer >= 0)
			rc = fn(run, peer, initiator, rec, fnctx);
		if (rc == 0)
			rc = cluster_step_end(run, phase, pos + 1, n, rec, store, ctx);
	}
	free(pairs);
	free(round_of);
	free(first_of);
	return rc;
}

/* Rank 0: the pairs of the sweep with their step and class, then the order. */
static int plan_order(int p, int one_pair, const struct cluster_layers *L, int shift, struct cluster_sweep_budget *b)
{
	const int *groups[CLUSTER_MAX_LAYERS];
	int nl = L ? L->n : 0, *round_of = NULL, *first_of = NULL;
	for (int k = 0; k < nl; k++)
		groups[k] = L->layer[k].group;
	int steps = shift ? p - 1 : pair_step_list(p, one_pair, &round_of, &first_of);
	int npairs = shift ? p * (p - 1) : p * (p - 1) / 2, n = 0, rc = steps < 0 ? -ENOMEM : 0;
	int *step = malloc(sizeof(int) * (size_t)(npairs + 1)), *cls = malloc(sizeof(int) * (size_t)(npairs + 1));
	int (*pairs)[2] = malloc(sizeof(*pairs) * (size_t)(p / 2 + 1));
	b->order = malloc(sizeof(int) * (size_t)(steps + 1));
	if (!step || !cls || !pairs || !b->order)
		rc = -ENOMEM;
	for (int s = 0; rc == 0 && s < steps; s++) {
		if (shift) {
			for (int i = 0; i < p; i++)
				step[n] = s, cls[n++] = cluster_budget_class(groups, nl, i, (i + s + 1) % p);
			continue;
		}
		int np = round_pairs(p, round_of[s], pairs), first = first_of[s], per = one_pair ? 1 : np;
		for (int k = first; k < first + per && k < np; k++)
			step[n] = s, cls[n++] = cluster_budget_class(groups, nl, pairs[k][0], pairs[k][1]);
	}
	if (rc == 0 && (b->n = cluster_budget_order(n, step, cls, steps, b->order, &b->floor)) < 0)
		rc = -EINVAL;
	free(step);
	free(cls);
	free(pairs);
	free(round_of);
	free(first_of);
	return rc;
}

int cluster_sweep_plan(struct cluster_run *run, const struct cluster_layers *L, int shift, struct cluster_sweep_budget *b,
		       struct as_error *err)
{
	int p = run->size, hdr[3] = { 0, 0, 0 };
	memset(b, 0, sizeof(*b));
	if (run->rank == 0) {
		hdr[0] = plan_order(p, run->o->one_pair, L, shift, b);
		hdr[1] = b->n, hdr[2] = b->floor;
	}
	if (MPI_Bcast(hdr, 3, MPI_INT, 0, run->comm) != MPI_SUCCESS)
		return as_error_set(err, -EIO, "MPI_Bcast of the budget's plan failed");
	if (hdr[0])
		return as_error_set(err, hdr[0], "planning the %s under the budget failed", shift ? "shift" : "bandwidth sweep");
	b->n = hdr[1], b->floor = hdr[2];
	if (run->rank != 0 && !(b->order = malloc(sizeof(int) * (size_t)(b->n + 1))))
		return as_error_set(err, -ENOMEM, "out of memory");
	if (MPI_Bcast(b->order, b->n, MPI_INT, 0, run->comm) != MPI_SUCCESS)
		return as_error_set(err, -EIO, "MPI_Bcast of the budget's plan failed");
	return 0;
}

void cluster_sweep_budget_release(struct cluster_sweep_budget *b)
{
	free(b->order);
	b->order = NULL;
}

int cluster_matrix_measured(const double *m, int p)
{
	int n = 0;
	for (int i = 0; m && i < p; i++)
		for (int j = 0; j < p; j++)
			n += i != j && isfinite(m[(size_t)i * p + j]);
	return n;
}

/* --- latency --------------------------------------------------------------------------------- */

struct lat_ctx {
	size_t bytes;
	char *buf;
	double *samples;
	double *med, *p99;
	int p;
};

static int lat_pair(struct cluster_run *run, int peer, int initiator, double *rec, void *arg)
{
	struct lat_ctx *c = arg;
	int reps = run->o->reps;
	int warm = reps / 10 > 5 ? reps / 10 : 5;
	if (cluster_pingpong(run->comm, peer, initiator, c->buf, c->bytes, warm, reps, c->samples) != 0)
		return -EIO;
	if (initiator) {
		rec[1] = order_median(c->samples, (size_t)reps);
		rec[2] = order_kth(c->samples, (size_t)reps, (size_t)(0.99 * (reps - 1) + 0.5));
	}
	return 0;
}

static void lat_store(void *arg, int from, const double *rec)
{
	struct lat_ctx *c = arg;
	int peer = (int)rec[0];
	if (peer < 0 || peer >= c->p || isnan(rec[1]))
		return;
	c->med[(size_t)from * c->p + peer] = c->med[(size_t)peer * c->p + from] = rec[1];
	if (c->p99)
		c->p99[(size_t)from * c->p + peer] = c->p99[(size_t)peer * c->p + from] = rec[2];
}

void cluster_matrix_clear(double *m, int p)
{
	if (m)
		for (size_t k = 0; k < (size_t)p * p; k++)
			m[k] = NAN;
}

int cluster_sweep_latency(struct cluster_run *run, size_t bytes, double *med_us, double *p99_us, struct as_error *err)
{
	return cluster_sweep_latency_as(run, bytes <= 8 ? "latency" : "latency per size", bytes, med_us, p99_us, err);
}

int cluster_sweep_latency_as(struct cluster_run *run, const char *phase, size_t bytes, double *med_us, double *p99_us,
			     struct as_error *err)
{
	struct lat_ctx c = { .bytes = bytes, .med = med_us, .p99 = p99_us, .p = run->size };
	if (run->rank == 0) {
		cluster_matrix_clear(med_us, run->size);
		cluster_matrix_clear(p99_us, run->size);
	}
	c.buf = cluster_buffer(run, bytes);
	c.samples = malloc((size_t)run->o->reps * sizeof(double));
	int rc = c.buf && c.samples ? 0 : -ENOMEM;
	if (rc == 0)
		rc = cluster_pair_steps(run, phase, lat_pair, &c, lat_store, &c);
	free(c.buf);
	free(c.samples);
	if (rc)
		return as_error_set(err, rc, "latency sweep (%zu B messages) failed%s", bytes,
				    rc == -ENOMEM ? ": out of memory" : ": an MPI call returned an error");
	return 0;
}

/* --- bandwidth, one pair at a time ------------------------------------------------------------ */

struct bw_ctx {
	double *gbs, *bw;
	double *spread;          /* rank 0: the windows' (max - min) / median per direction; may be NULL */
	int p;
};

/* (max - min) / median of n windows' GB/s: their repetition spread (cluster/slow.h). */
static double window_spread(const double *g, int n, double med)
{
	double lo = g[0], hi = g[0];
	for (int b = 1; b < n; b++)
		lo = g[b] < lo ? g[b] : lo, hi = g[b] > hi ? g[b] : hi;
	return med > 0 ? (hi - lo) / med : NAN;
}

static int bw_pair(struct cluster_run *run, int peer, int initiator, double *rec, void *arg)
{
	struct bw_ctx *c = arg;
	const struct cluster_opts *o = run->o;
	/* lower rank sends first, then the other way; each reports the direction it sent */
	for (int dir = 0; dir < 2; dir++) {
		int sender = initiator == (dir == 0);
		if (cluster_stream(run->comm, peer, sender, o->bw_bytes, o->window, o->bursts, c->gbs) != 0)
			return -EIO;
		if (sender) {
			rec[1] = order_median(c->gbs, (size_t)o->bursts);
			rec[2] = window_spread(c->gbs, o->bursts, rec[1]);
		}
	}
	return 0;
}

static void bw_store(void *arg, int from, const double *rec)
{
	struct bw_ctx *c = arg;
	int peer = (int)rec[0];
	if (peer >= 0 && peer < c->p) {
		c->bw[(size_t)from * c->p + peer] = rec[1];
		if (c->spread)
			c->spread[(size_t)from * c->p + peer] = rec[2];
	}
}

int cluster_sweep_bandwidth(struct cluster_run *run, double *bw_gbs, struct as_error *err)
{
	struct bw_ctx c = { .bw = bw_gbs, .spread = run->rank == 0 ? run->o->bw_spread : NULL, .p = run->size };
	if (run->rank == 0) {
		cluster_matrix_clear(bw_gbs, run->size);
		cluster_matrix_clear(c.spread, run->size);
	}
	c.gbs = malloc((size_t)run->o->bursts * sizeof(double));
	int rc = c.gbs ? cluster_pair_steps(run, "bandwidth", bw_pair, &c, bw_store, &c) : -ENOMEM;
	free(c.gbs);
	if (rc)
		return as_error_set(err, rc, "bandwidth sweep failed%s", rc == -ENOMEM ? ": out of memory" : ": an MPI call returned an error");
	return 0;
}

/* --- mpiGraph's shift pattern ----------------------------------------------------------------- */

static void shift_store(void *arg, int from, const double *rec)
{
	struct bw_ctx *c = arg;
	int src = (int)rec[0];
	if (src >= 0 && src < c->p) {
		c->bw[(size_t)src * c->p + from] = rec[1];
		if (c->spread)
			c->spread[(size_t)src * c->p + from] = rec[2];
	}
}

int cluster_sweep_shift(struct cluster_run *run, double *bw_gbs, struct as_error *err)
{
	const struct cluster_opts *o = run->o;
	int p = run->size;
	struct bw_ctx c = { .bw = bw_gbs, .spread = run->rank == 0 ? o->shift_spread : NULL, .p = p };
	if (run->rank == 0) {
		cluster_matrix_clear(bw_gbs, p);
		cluster_matrix_clear(c.spread, p);
	}
	char *sbuf = cluster_buffer(run, o->bw_bytes);
	char *rbuf = cluster_buffer(run, o->bw_bytes); /* one receive buffer per window, as osu_bw */
	MPI_Request *rq = malloc(2 * (size_t)o->window * sizeof(*rq));
	double *gbs = malloc((size_t)o->bursts * sizeof(double));
	int rc = sbuf && rbuf && rq && gbs ? 0 : -ENOMEM;
	struct cluster_sweep_budget *bud = o->budget;
	int n = bud ? bud->n : p - 1;
	for (int pos = 0; pos < n && rc == 0; pos++) {
		int go = step_wanted(run, bud, pos);
		if (go <= 0) {
			rc = go;
			break;
		}
		int k = bud ? bud->order[pos] + 1 : pos + 1;
		int dst = (run->rank + k) % p, src = (run->rank - k + p) % p;
		cluster_step_begin(run, "shift", pos + 1, n, -1);
		for (int b = -1; b < o->bursts && rc == 0; b++) {
			if (MPI_Barrier(run->comm) != MPI_SUCCESS) {
				rc = -EIO;
				break;
			}
			double t0 = cluster_now_us();
			for (int w = 0; w < o->window && rc == 0; w++)
				if (MPI_Irecv(rbuf, (int)o->bw_bytes, MPI_BYTE, src, CLUSTER_TAG_SHIFT,
					      run->comm, &rq[w]) != MPI_SUCCESS ||
				    MPI_Isend(sbuf, (int)o->bw_bytes, MPI_BYTE, dst, CLUSTER_TAG_SHIFT, run->comm, &rq[o->window + w]) !=
					    MPI_SUCCESS)
					rc = -EIO;
			if (rc == 0 && MPI_Waitall(o->window, rq, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
				rc = -EIO;
			double t1 = cluster_now_us();
			if (rc == 0 && MPI_Waitall(o->window, rq + o->window, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
				rc = -EIO;
			if (b >= 0)
				gbs[b] = (double)o->bw_bytes * o->window / ((t1 - t0) * 1e3);
		}
		double med = rc == 0 ? order_median(gbs, (size_t)o->bursts) : NAN;
		double rec[CLUSTER_REC] = { src, med, rc == 0 ? window_spread(gbs, o->bursts, med) : NAN, NAN, NAN };
		if (rc == 0)
			rc = cluster_step_end(run, "shift", pos + 1, n, rec, shift_store, &c);
	}
	free(sbuf);
	free(rbuf);
	free(rq);
	free(gbs);
	if (rc)
		return as_error_set(err, rc, "shift sweep failed%s", rc == -ENOMEM ? ": out of memory" : ": an MPI call returned an error");
	return 0;
}
