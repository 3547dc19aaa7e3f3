/* The c2c probe (BlackjackBench §3.1.4, see c2c.h): two pinned threads take turns updating a
 * shared block, each reading what the other just wrote; a cache line bounced between them for the
 * one-way latency; every pair of a CPU list, and the locality tree of the matrices. */
#include "probe/c2c.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/order.h"
#include "machine/probes.h"
#include "common/buffer.h"
#include "common/team.h"
#include "common/timer.h"

struct c2c_run {
	size_t words;
	uint64_t rounds;
	uint64_t *block;
	_Alignas(64) atomic_int turn;      /* whose turn it is: 0 or 1; a line of its own */
	char pad1[60];
	_Alignas(64) atomic_uint_fast64_t ball; /* ping-pong counter; a line of its own */
	char pad2[56];
	uint64_t ns;
	int oom;
};

/* The work of one side (0 or 1) of a pair; every member of the team calls the same function, so
 * the team barriers inside line up when several pairs run at once. */
static void bw_side(struct team *t, int side, struct c2c_run *r)
{
	if (side == 0) {
		/* The first thread allocates and touches the block: first-touch places it near it. */
		r->block = aligned_alloc(4096, (r->words * sizeof(uint64_t) + 4095) / 4096 * 4096);
		if (r->block)
			memset(r->block, 0, r->words * sizeof(uint64_t));
		else
			r->oom = 1;
		atomic_store(&r->turn, 0);
	}
	team_barrier(t);
	if (!r->oom) {
		uint64_t t0 = timer_now_ns();
		for (uint64_t k = 0; k < r->rounds; k++) {
			while (atomic_load_explicit(&r->turn, memory_order_acquire) != side)
				;
			uint64_t *x = r->block;
			for (size_t i = 0; i < r->words; i++)
				x[i] += 1;
			atomic_store_explicit(&r->turn, 1 - side, memory_order_release);
		}
		if (side == 0) {
			/* wait for the other side's last turn, so the time covers both */
			while (atomic_load_explicit(&r->turn, memory_order_acquire) != 0)
				;
			r->ns = timer_now_ns() - t0;
		}
	}
	team_barrier(t);
	if (side == 0)
		free(r->block);
}

static void pp_side(struct team *t, int side, struct c2c_run *r)
{
	if (side == 0)
		atomic_store(&r->ball, 0);
	team_barrier(t);
	uint64_t t0 = timer_now_ns();
	/* Side 0 moves the ball from even to odd, side 1 from odd to even: each move waits for the
	 * line to come back from the other core. */
	for (uint64_t k = 0; k < r->rounds; k++) {
		uint64_t want = 2 * k + (uint64_t)side;
		while (atomic_load_explicit(&r->ball, memory_order_acquire) != want)
			;
		atomic_store_explicit(&r->ball, want + 1, memory_order_release);
	}
	if (side == 0) {
		while (atomic_load_explicit(&r->ball, memory_order_acquire) != 2 * r->rounds)
			;
		r->ns = timer_now_ns() - t0;
	}
}

/* Several pairs at once: members 2p and 2p + 1 of the team are the two sides of pair p. */
struct c2c_round {
	struct c2c_run *runs;
	int latency;                   /* 1: line ping-pong, 0: block updates */
};

static void round_member(struct team *t, int tid, int cpu, void *arg)
{
	struct c2c_round *rd = arg;
	(void)cpu;
	if (rd->latency)
		pp_side(t, tid % 2, &rd->runs[tid / 2]);
	else
		bw_side(t, tid % 2, &rd->runs[tid / 2]);
}

int probe_c2c_round(int n, int round, int (*pairs)[2])
{
	/* Circle method: index m - 1 stays, the others rotate; with n odd, m - 1 = n is a bye. */
	int m = n % 2 ? n + 1 : n, np = 0;
	if (n < 2 || round < 0 || round >= m - 1)
		return 0;
	for (int k = 0; k < m / 2; k++) {
		int a = k == 0 ? m - 1 : (round + k) % (m - 1);
		int b = (round - k + (m - 1)) % (m - 1);
		if (a >= n || b >= n)
			continue;
		pairs[np][0] = a < b ? a : b;
		pairs[np][1] = a < b ? b : a;
		np++;
	}
	return np;
}

int probe_c2c_rounds(int n)
{
	return n < 2 ? 0 : n % 2 ? n : n - 1;
}

/* Runs np pairs at once (CPUs a[p], b[p]), each for the same number of rounds; ns[p] gets each
 * pair's time. */
static int run_round(const int *a, const int *b, int np, int latency, size_t words, uint64_t rounds,
		     struct c2c_run *runs, uint64_t *ns, struct as_error *err)
{
	struct as_cpulist cpus = { .n = 2 * np };
	for (int p = 0; p < np; p++) {
		memset(&runs[p], 0, sizeof(runs[p]));
		runs[p].words = words;
		runs[p].rounds = rounds;
		cpus.cpu[2 * p] = a[p];
		cpus.cpu[2 * p + 1] = b[p];
	}
	struct c2c_round rd = { .runs = runs, .latency = latency };
	int rc = team_run(&cpus, 1, round_member, &rd, err);
	for (int p = 0; p < np && !rc; p++) {
		if (runs[p].oom)
			rc = as_error_set(err, -ENOMEM, "probe c2c: out of memory for the block");
		ns[p] = runs[p].ns;
	}
	return rc;
}

/* Calibrates the rounds so the slowest pair runs the target time, then takes each pair's best
 * and median over the repetitions, in ns per round. */
static int measure(const struct probe_opts *o, const int *a, const int *b, int np, int latency, size_t words,
		   double *best_ns_per_round, double *median_ns_per_round, struct as_error *err)
{
	struct c2c_run *runs = aligned_alloc(64, (size_t)np * sizeof(struct c2c_run));
	uint64_t *ns = malloc((size_t)np * sizeof(uint64_t));
	double *v = malloc((size_t)np * 8 * sizeof(double));
	int rc = 0;
	if (!runs || !ns || !v) {
		rc = as_error_set(err, -ENOMEM, "probe c2c: out of memory");
		goto out;
	}
	uint64_t rounds = 4, target = o->quick ? 2000000 : 5000000, slow;
	for (;;) {
		if ((rc = run_round(a, b, np, latency, words, rounds, runs, ns, err)) != 0)
			goto out;
		slow = 0;
		for (int p = 0; p < np; p++)
			slow = ns[p] > slow ? ns[p] : slow;
		if (slow >= target || rounds > (1ull << 32))
			break;
		rounds = slow < target / 16 ? rounds * 16 : rounds * target / (slow ? slow : 1) + 1;
	}
	/* The calibration's last run, of these rounds, is the first repetition. Runs of 50 ms or
	 * more (large blocks) stand far above the noise: 3 repetitions (2 quick), else 5 (3). */
	int reps = slow >= 50000000 ? (o->quick ? 2 : 3) : (o->quick ? 3 : 5);
	for (int p = 0; p < np; p++)
		v[p * 8] = (double)ns[p] / (double)rounds;
	for (int i = 1; i < reps; i++) {
		if ((rc = run_round(a, b, np, latency, words, rounds, runs, ns, err)) != 0)
			goto out;
		for (int p = 0; p < np; p++)
			v[p * 8 + i] = (double)ns[p] / (double)rounds;
	}
	for (int p = 0; p < np; p++) {
		best_ns_per_round[p] = order_kth(v + p * 8, (size_t)reps, 0);
		median_ns_per_round[p] = order_median(v + p * 8, (size_t)reps);
	}
out:
	free(runs);
	free(ns);
	free(v);
	return rc;
}

int probe_c2c_bandwidth(const struct probe_opts *o, int a, int b, size_t block_bytes, double *best_gbs,
			double *median_gbs, struct as_error *err)
{
	double best, med;
	size_t words = block_bytes / sizeof(uint64_t);
	if (words == 0)
		return as_error_set(err, -EINVAL, "probe c2c: block of %zu bytes is too small", block_bytes);
	int rc = measure(o, &a, &b, 1, 0, words, &best, &med, err);
	if (rc)
		return rc;
	/* One round = both threads update the whole block once; the paper counts the lines updated
	 * by the first thread: one block per round (one-way bandwidth, half the two-way traffic). */
	*best_gbs = (double)block_bytes / best;
	*median_gbs = (double)block_bytes / med;
	return 0;
}

int probe_c2c_latency(const struct probe_opts *o, int a, int b, double *best_ns, double *median_ns,
		      struct as_error *err)
{
	double best, med;
	int rc = measure(o, &a, &b, 1, 1, 0, &best, &med, err);
	if (rc)
		return rc;
	/* a round is two one-way moves of the line */
	*best_ns = best / 2;
	*median_ns = med / 2;
	return 0;
}

void probe_c2c_matrix_init(struct probe_c2c_matrix *m)
{
	memset(m, 0, sizeof(*m));
}

void probe_c2c_matrix_release(struct probe_c2c_matrix *m)
{
	free(m->bandwidth_gbs);
	free(m->latency_ns);
	probe_c2c_matrix_init(m);
}

/* The memory the blocks of the pairs measured at once may take: an eighth of RAM, at most 1 GiB. */
static size_t c2c_concurrent_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	size_t cap = 1ul << 30;
	if (pages > 0 && page > 0 && (size_t)pages / 8 * (size_t)page < cap)
		cap = (size_t)pages / 8 * (size_t)page;
	return cap;
}

int probe_c2c_sweep(const struct probe_opts *o, const struct as_cpulist *cpus, const size_t *block_bytes, int nblocks,
		    struct probe_c2c_matrix *out, struct as_error *err)
{
	probe_c2c_matrix_init(out);
	int n = cpus->n, nb = nblocks;
	if (n < 2 || nb < 0 || nb > PROBE_C2C_MAX_BLOCKS)
		return as_error_set(err, -EINVAL, "c2c: %d CPUs and %d block sizes (2 or more CPUs, 0..%d sizes)", n, nb,
				    PROBE_C2C_MAX_BLOCKS);
	out->cpus = *cpus;
	out->nblocks = nb;
	for (int k = 0; k < nb; k++)
		out->block_bytes[k] = block_bytes[k];
	out->bandwidth_gbs = calloc((size_t)(nb ? nb : 1) * (size_t)n * (size_t)n, sizeof(double));
	out->latency_ns = calloc((size_t)n * (size_t)n, sizeof(double));
	if (!out->bandwidth_gbs || !out->latency_ns)
		return as_error_set(err, -ENOMEM, "c2c: out of memory");
	double *bw = out->bandwidth_gbs, *lat = out->latency_ns;
	/* Round robin: n - 1 rounds (n with n odd) of disjoint pairs measured at once, so the sweep
	 * grows with n, not with the n (n - 1) / 2 pairs. */
	int nrounds = probe_c2c_rounds(n), done = 0, total = nrounds * (nb + 1), rc = 0;
	int (*pairs)[2] = malloc((size_t)(n / 2 + 1) * sizeof(*pairs));
	int *a = malloc((size_t)(n / 2 + 1) * 2 * sizeof(int)), *b = a ? a + n / 2 + 1 : NULL;
	double *best = malloc((size_t)(n / 2 + 1) * 2 * sizeof(double)), *med = best ? best + n / 2 + 1 : NULL;
	if (!pairs || !a || !best) {
		free(pairs);
		free(a);
		free(best);
		return as_error_set(err, -ENOMEM, "c2c: out of memory");
	}
	out->concurrent_pairs = n / 2;
	char label[96], sz[32];
	for (int r = 0; r < nrounds && !rc && !probe_opts_stopped(o); r++) {
		int np = probe_c2c_round(n, r, pairs);
		for (int p = 0; p < np; p++) {
			a[p] = cpus->cpu[pairs[p][0]];
			b[p] = cpus->cpu[pairs[p][1]];
		}
		for (int k = 0; k <= nb && !rc && !probe_opts_stopped(o); k++) {
			if (k < nb)
				snprintf(label, sizeof(label), "round %d/%d (%d pair%s at once), %s blocks", r + 1, nrounds,
					 np, np == 1 ? "" : "s", buffer_format_size(block_bytes[k], sz, sizeof(sz)));
			else
				snprintf(label, sizeof(label), "round %d/%d (%d pair%s at once), line ping-pong", r + 1,
					 nrounds, np, np == 1 ? "" : "s");
			probe_opts_report(o, "c2c", label, done++, total);
			size_t words = k < nb ? block_bytes[k] / sizeof(uint64_t) : 0;
			if (k < nb && words == 0) {
				rc = as_error_set(err, -EINVAL, "probe c2c: block of %zu bytes is too small", block_bytes[k]);
				break;
			}
			/* Large blocks of many pairs at once could exhaust memory: batches of pairs whose
			 * blocks together stay within c2c_concurrent_bytes(). */
			int batch = k < nb ? (int)(c2c_concurrent_bytes() / block_bytes[k]) : np;
			batch = batch < 1 ? 1 : batch;
			if (batch < out->concurrent_pairs)
				out->concurrent_pairs = batch;
			for (int p0 = 0; p0 < np && !rc; p0 += batch)
				rc = measure(o, a + p0, b + p0, np - p0 < batch ? np - p0 : batch, k == nb, words, best + p0,
					     med + p0, err);
			if (rc)
				break;
			for (int p = 0; p < np; p++) {
				int i = pairs[p][0], j = pairs[p][1];
				if (k < nb) /* one block per round, as the paper counts (probe_c2c_bandwidth) */
					bw[((size_t)k * n + i) * n + j] = bw[((size_t)k * n + j) * n + i] =
						(double)block_bytes[k] / best[p];
				else /* a round is two one-way moves of the line */
					lat[(size_t)i * n + j] = lat[(size_t)j * n + i] = best[p] / 2;
			}
		}
	}
	free(pairs);
	free(a);
	free(best);
	return rc;
}

struct clique_tree *probe_c2c_tree(const struct probe_c2c_matrix *m)
{
	int n = m->cpus.n, nb = m->nblocks;
	const double *mats[PROBE_C2C_MAX_BLOCKS];
	for (int k = 0; k < nb; k++)
		mats[k] = m->bandwidth_gbs + (size_t)(nb - 1 - k) * n * n;
	struct clique_tree *tree = malloc(sizeof(*tree));
	if (!tree || clique_tree_build(mats, nb, n, 1.25, tree) != 0) {
		free(tree);
		return NULL;
	}
	return tree;
}

size_t probe_c2c_split_bytes(const struct probe_c2c_matrix *m, const struct clique_tree *t, int node)
{
	int at = t->node[node].split_at;
	return at >= 0 && at < m->nblocks ? m->block_bytes[m->nblocks - 1 - at] : 0;
}

void probe_c2c_result_init(struct probe_c2c_result *r)
{
	memset(r, 0, sizeof(*r));
	probe_c2c_matrix_init(&r->m);
}

void probe_c2c_result_release(struct probe_c2c_result *r)
{
	probe_c2c_matrix_release(&r->m);
	probe_c2c_plan_release(&r->plan);
	free(r->tree);
	probe_c2c_result_init(r);
}

/* The probe's threads as a backend: pairs whose blocks together would pass
 * c2c_concurrent_bytes() go in batches; *concurrent the fewest pairs measured at once. */
struct threads_backend {
	const struct probe_opts *o;
	int *concurrent;
};

static int threads_measure(void *ctx, const int *a, const int *b, int np, size_t block_bytes, double *value,
			   struct as_error *err)
{
	struct threads_backend *tb = ctx;
	double *best = malloc((size_t)np * 2 * sizeof(double));
	if (!best)
		return as_error_set(err, -ENOMEM, "c2c: out of memory");
	double *med = best + np;
	size_t words = block_bytes / sizeof(uint64_t);
	int rc = 0;
	if (block_bytes && words == 0) {
		free(best);
		return as_error_set(err, -EINVAL, "probe c2c: block of %zu bytes is too small", block_bytes);
	}
	int batch = block_bytes ? (int)(c2c_concurrent_bytes() / block_bytes) : np;
	batch = batch < 1 ? 1 : batch;
	if (batch < *tb->concurrent)
		*tb->concurrent = batch;
	for (int p0 = 0; p0 < np && !rc; p0 += batch)
		rc = measure(tb->o, a + p0, b + p0, np - p0 < batch ? np - p0 : batch, block_bytes == 0, words, best + p0,
			     med + p0, err);
	for (int p = 0; p < np && !rc; p++) /* one block per round, as the paper counts; a line's
					       * round trip is two one-way moves */
		value[p] = block_bytes ? (double)block_bytes / best[p] : best[p] / 2;
	free(best);
	return rc;
}

/* Runs one step of a round: the pairs q[0..np) at block k (k == nblocks: latency) through be,
 * their figures into the plan. */
static int run_step(const struct probe_opts *o, struct probe_c2c_plan *p, const struct probe_c2c_backend *be, const int *q,
		    int np, int k, int r, int nrounds, int *done, int total, struct probe_c2c_result *out, struct as_error *err)
{
	if (np == 0)
		return 0;
	int *a = malloc((size_t)np * 2 * sizeof(int));
	double *v = malloc((size_t)np * sizeof(double));
	if (!a || !v) {
		free(a);
		free(v);
		return as_error_set(err, -ENOMEM, "c2c: out of memory");
	}
	int *b = a + np;
	for (int i = 0; i < np; i++) {
		int ci, cj;
		probe_c2c_pair_of(p->n, q[i], &ci, &cj);
		a[i] = p->cpu[ci];
		b[i] = p->cpu[cj];
	}
	char label[112], sz[32];
	if (k < p->nblocks)
		snprintf(label, sizeof(label), "round %d/%d (%d pair%s at once), %s blocks", r + 1, nrounds, np, np == 1 ? "" : "s",
			 buffer_format_size(p->block_bytes[k], sz, sizeof(sz)));
	else
		snprintf(label, sizeof(label), "round %d/%d (%d pair%s at once), line ping-pong", r + 1, nrounds, np,
			 np == 1 ? "" : "s");
	int d = (*done)++;
	probe_opts_report(o, "c2c", label, d, total > d ? total : d + 1);
	uint64_t t0 = timer_now_ns();
	int rc = be->measure(be->ctx, a, b, np, k < p->nblocks ? p->block_bytes[k] : 0, v, err);
	out->step_s[k] += (double)(timer_now_ns() - t0) * 1e-9;
	out->steps++;
	for (int i = 0; i < np && !rc; i++) {
		if (k < p->nblocks)
			p->bw[(size_t)q[i] * p->nblocks + k] = v[i];
		else
			p->lat[q[i]] = v[i];
	}
	free(a);
	free(v);
	return rc;
}

/* Measures a batch, round by round: each round's pairs at every block size (a pair skips the
 * sizes where its class's curve has settled), the latency, then the skipped sizes of the pairs
 * whose largest block disagrees with their settled level. */
static int run_batch(const struct probe_opts *o, struct probe_c2c_plan *p, const struct probe_c2c_backend *be,
		     const struct probe_c2c_batch *bt, int skip, int *done, struct probe_c2c_result *out,
		     struct as_error *err)
{
	int nb = p->nblocks, rc = 0;
	int *q = malloc((size_t)(bt->n ? bt->n : 1) * sizeof(int));
	int *from = malloc((size_t)(bt->n ? bt->n : 1) * sizeof(int)); /* first block skipped; nb none */
	if (!q || !from) {
		free(q);
		free(from);
		return as_error_set(err, -ENOMEM, "c2c: out of memory");
	}
	int total = *done + bt->nrounds * (nb + 1);
	for (int r = 0; r < bt->nrounds && !rc && !probe_opts_stopped(o); r++) {
		int np = 0;
		for (int k = 0; k < bt->n; k++)
			if (bt->round[k] == r) {
				q[np] = bt->pair[k];
				from[np++] = nb;
			}
		for (int k = 0; k <= nb && !rc && !probe_opts_stopped(o); k++) {
			int *sel = malloc((size_t)np * sizeof(int)), ns = 0;
			if (!sel) {
				rc = as_error_set(err, -ENOMEM, "c2c: out of memory");
				break;
			}
			for (int i = 0; i < np; i++) {
				if (skip && k < nb && from[i] == nb && probe_c2c_plan_settled(p, p->pair_class[q[i]], k))
					from[i] = k;
				if (k == nb || from[i] > k || k == nb - 1)
					sel[ns++] = q[i];
			}
			rc = run_step(o, p, be, sel, ns, k, r, bt->nrounds, done, total, out, err);
			free(sel);
		}
		/* the skipped sizes of a pair whose largest block left its settled level */
		for (int k = 0; k < nb - 1 && !rc && !probe_opts_stopped(o); k++) {
			int *sel = malloc((size_t)np * sizeof(int)), ns = 0;
			if (!sel) {
				rc = as_error_set(err, -ENOMEM, "c2c: out of memory");
				break;
			}
			for (int i = 0; i < np; i++) {
				if (from[i] > k)
					continue;
				double level = p->bw[(size_t)q[i] * nb + from[i] - 1], top = p->bw[(size_t)q[i] * nb + nb - 1];
				if (!(fabs(top / level - 1) <= 0.10))
					sel[ns++] = q[i];
				else if (k == from[i])
					out->skipped += nb - 1 - from[i];
			}
			out->backfilled += ns;
			rc = run_step(o, p, be, sel, ns, k, r, bt->nrounds, done, total, out, err);
			free(sel);
		}
		out->rounds++;
	}
	free(q);
	free(from);
	return rc;
}

int probe_c2c_run(const struct probe_opts *o, const struct topo *t, const struct as_cpulist *cpus,
		  const size_t *block_bytes, int nblocks, int all_pairs, const struct probe_c2c_backend *be,
		  struct probe_c2c_result *out, struct as_error *err)
{
	probe_c2c_result_init(out);
	int n = cpus->n, nb = nblocks;
	if (n < 2 || n > PROBE_C2C_MAX_CPUS || nb < 0 || nb > PROBE_C2C_MAX_BLOCKS)
		return as_error_set(err, -EINVAL, "c2c: %d CPUs and %d block sizes (2..%d CPUs, 0..%d sizes)", n, nb,
				    PROBE_C2C_MAX_CPUS, PROBE_C2C_MAX_BLOCKS);
	int rc = probe_c2c_plan_init(&out->plan, t, cpus, block_bytes, nb, o->quick, o->seed, err);
	if (rc)
		return rc;
	out->plan.concurrent_bytes = c2c_concurrent_bytes();
	struct probe_c2c_matrix *m = &out->m;
	m->cpus = *cpus;
	m->nblocks = nb;
	for (int k = 0; k < nb; k++)
		m->block_bytes[k] = block_bytes[k];
	m->bandwidth_gbs = calloc((size_t)(nb ? nb : 1) * (size_t)n * (size_t)n, sizeof(double));
	m->latency_ns = calloc((size_t)n * (size_t)n, sizeof(double));
	if (!m->bandwidth_gbs || !m->latency_ns)
		return as_error_set(err, -ENOMEM, "c2c: out of memory");
	m->concurrent_pairs = n / 2;
	struct threads_backend tb = { .o = o, .concurrent = &m->concurrent_pairs };
	struct probe_c2c_backend threads = { .measure = threads_measure, .ctx = &tb };
	be = be ? be : &threads;
	struct probe_c2c_batch bt;
	int chosen = 0;
	rc = all_pairs ? probe_c2c_plan_all(&out->plan, &bt) : probe_c2c_plan_start(&out->plan, &bt, &chosen);
	if (rc)
		rc = as_error_set(err, rc, "c2c: out of memory");
	out->all_pairs = all_pairs || chosen;
	out->all_pairs_chosen = chosen;
	all_pairs = out->all_pairs;
	int done = 0, widest = 0;
	while (!rc && bt.n > 0) {
		for (int r = 0; r < bt.nrounds; r++) {
			int np = 0;
			for (int k = 0; k < bt.n; k++)
				np += bt.round[k] == r;
			widest = np > widest ? np : widest;
		}
		rc = run_batch(o, &out->plan, be, &bt, !all_pairs, &done, out, err);
		probe_c2c_batch_release(&bt);
		if (rc || all_pairs || probe_opts_stopped(o))
			break;
		if ((rc = probe_c2c_plan_next(&out->plan, &bt)) != 0)
			rc = as_error_set(err, rc, "c2c: out of memory");
	}
	probe_c2c_batch_release(&bt);
	if (widest < m->concurrent_pairs)
		m->concurrent_pairs = widest;
	if (!rc) {
		/* the classes' figures from every pair measured, then the matrices by class */
		struct probe_c2c_batch none;
		double saved = out->plan.budget_s;
		out->plan.budget_s = 0; /* no further splits: only the figures */
		rc = probe_c2c_plan_next(&out->plan, &none);
		out->plan.budget_s = saved;
		probe_c2c_batch_release(&none);
		if (rc)
			return as_error_set(err, rc, "c2c: out of memory");
		probe_c2c_plan_fill(&out->plan, m->bandwidth_gbs, m->latency_ns);
	}
	return rc;
}

int probe_c2c_find(struct probe_env *env, probe_progress_fn *progress, struct probe_c2c_result *out,
		   struct machine_probes *rec, struct as_error *err)
{
	probe_c2c_result_init(out);
	out->allowed = env->allowed.n;
	int rc = 0;
	if (env->allowed.n >= 2) {
		struct as_cpulist cpus = env->allowed;
		if (cpus.n > PROBE_C2C_MAX_CPUS)
			cpus.n = PROBE_C2C_MAX_CPUS;
		/* Block sizes from below any L1 to past the last level: 4 KiB x 4^k up to 4x the measured
		 * last level (64 MiB when no level was measured), at most 256 MiB. */
		size_t top = env->nlevels ? (size_t)(4 * env->level_bytes[env->nlevels - 1]) : (64u << 20);
		size_t blocks[PROBE_C2C_MAX_BLOCKS];
		int nb = probe_c2c_blocks(top, env->quick, blocks);
		struct probe_opts o = probe_opts_of(env, progress, HUGE_DEFAULT);
		int allowed = out->allowed;
		rc = probe_c2c_run(&o, env->topo && env->topo->pu ? env->topo : NULL, &cpus, blocks, nb, env->all_pairs, NULL,
				   out, err);
		out->allowed = allowed;
	}
	if (rc == 0 && probe_c2c_analyze(out, rec) != 0)
		rc = as_error_set(err, -ENOMEM, "c2c: out of memory");
	return rc;
}

/* --- the record ------------------------------------------------------------------------------ */

static int bounded(int n, int max)
{
	return n < 0 ? 0 : n < max ? n : max;
}

/* An n x n matrix of the probe's pairs with NAN (null) on the diagonal: block k's bandwidths, or
 * with k < 0 the latencies. NULL on no memory. */
static double *c2c_matrix(const struct probe_c2c_matrix *m, int k)
{
	size_t n = (size_t)m->cpus.n;
	double *x = malloc(n * n * sizeof(double));
	for (size_t i = 0; x && i < n; i++)
		for (size_t j = 0; j < n; j++)
			x[i * n + j] = i == j ? NAN : k < 0 ? probe_c2c_lat(m, (int)i, (int)j) : probe_c2c_bw(m, k, (int)i, (int)j);
	return x;
}

/* The locality tree's cliques (t NULL: none built, null). */
static int c2c_tree(struct machine_probes *p, const struct probe_c2c_matrix *m, const struct clique_tree *t)
{
	struct machine_probes_c2c *c = &p->c2c;
	p->have[MP_C2C_TREE] = t ? MP_HAVE_YES : MP_HAVE_NULL;
	if (!t)
		return 0;
	if (!(c->node = calloc((size_t)t->nnodes, sizeof(*c->node))))
		return -ENOMEM;
	for (int i = 0; i < t->nnodes; i++) {
		const struct clique_node *nd = &t->node[i];
		struct machine_probes_node *d = &c->node[c->nnodes++];
		machine_probes_row_init(MP_C2C_NODES, d);
		d->parent = nd->parent;
		d->depth = nd->depth;
		d->split_at_block_bytes = nd->split_at >= 0 ? (long long)probe_c2c_split_bytes(m, t, i) : -1;
		if (!(d->cpus = malloc((size_t)(nd->n ? nd->n : 1) * sizeof(int))))
			return -ENOMEM;
		for (int a = 0; a < nd->n; a++)
			d->cpus[d->ncpus++] = m->cpus.cpu[nd->member[a]];
	}
	c->leaves = clique_tree_leaves(t);
	return 0;
}

/* The classes the matrices were filled by (a class split into finer ones is left out: its pairs
 * belong to those) with their figures. */
static int c2c_classes(struct machine_probes_c2c *c, const struct probe_c2c_plan *pl)
{
	int nb = pl->nblocks;
	if (pl->nclasses <= 0)
		return 0;
	if (!(c->cls = calloc((size_t)pl->nclasses, sizeof(*c->cls))))
		return -ENOMEM;
	for (int k = 0; k < pl->nclasses; k++) {
		const struct probe_c2c_class *s = &pl->cls[k];
		if (s->split)
			continue;
		struct machine_probes_c2c_class *d = &c->cls[c->nclasses++];
		machine_probes_row_init(MP_C2C_CLASSES, d);
		machine_probes_text(d->name, sizeof(d->name), s->name);
		d->pairs = s->npairs;
		d->measured = s->nmeasured;
		d->bandwidth_gbs = nb ? probe_c2c_plan_class_bw(pl, k, nb - 1) : NAN;
		d->latency_ns = s->lat_ns;
		for (int b = 0; b < nb; b++)
			d->blocks_measured += !isnan(s->bw_gbs[b]);
		d->level = s->level;
		machine_probes_text(d->split_from, sizeof(d->split_from), s->parent >= 0 ? pl->cls[s->parent].name : "");
		d->split = s->split;
		d->resolved = !s->unresolved;
	}
	return 0;
}

/* Every pair measured with its own figures at the largest block. */
static int c2c_pairs(struct machine_probes_c2c *c, const struct probe_c2c_plan *pl, const struct probe_c2c_matrix *m)
{
	int nb = pl->nblocks;
	if (pl->npairs <= 0)
		return 0;
	if (!(c->pair = calloc((size_t)pl->npairs, sizeof(*c->pair))))
		return -ENOMEM;
	for (int q = 0; q < pl->npairs && c->npairs < MACHINE_PROBES_MAX_PAIRS; q++) {
		if (isnan(pl->lat[q]) || pl->role[q] == PROBE_C2C_UNMEASURED)
			continue;
		int i, j;
		probe_c2c_pair_of(pl->n, q, &i, &j);
		struct machine_probes_c2c_pair *d = &c->pair[c->npairs++];
		machine_probes_row_init(MP_C2C_PAIRS, d);
		if (!(d->cpus = malloc(2 * sizeof(int))))
			return -ENOMEM;
		d->cpus[0] = m->cpus.cpu[i];
		d->cpus[1] = m->cpus.cpu[j];
		d->ncpus = 2;
		machine_probes_text(d->cls, sizeof(d->cls), pl->cls[pl->pair_class[q]].name);
		machine_probes_text(d->role, sizeof(d->role), probe_c2c_role_name((enum probe_c2c_role)pl->role[q]));
		d->bandwidth_gbs = nb ? pl->bw[(size_t)q * nb + nb - 1] : NAN;
		d->latency_ns = pl->lat[q];
	}
	return 0;
}

/* The steps' wall time and the bandwidth matrix of every block. */
static int c2c_blocks(struct machine_probes_c2c *c, const struct probe_c2c_result *r)
{
	const struct probe_c2c_matrix *m = &r->m;
	int nb = bounded(m->nblocks, MACHINE_PROBES_MAX_BLOCKS);
	int steps = r->plan.nblocks;
	c->step_latency_s = r->step_s[steps];
	if (!(c->step_blocks_s = malloc((size_t)(steps ? steps : 1) * sizeof(double))))
		return -ENOMEM;
	for (int k = 0; k < steps; k++)
		c->step_blocks_s[k] = r->step_s[k];
	c->nstep_blocks = steps;
	if (!nb)
		return 0;
	if (!(c->block = calloc((size_t)nb, sizeof(*c->block))))
		return -ENOMEM;
	for (int k = 0; k < nb; k++) {
		struct machine_probes_c2c_block *d = &c->block[c->nblocks++];
		machine_probes_row_init(MP_C2C_BLOCKS, d);
		d->block_bytes = (long long)m->block_bytes[k];
		if (!(d->bandwidth_gbs = c2c_matrix(m, k)))
			return -ENOMEM;
		d->ncpus = m->cpus.n;
	}
	return 0;
}

int probe_c2c_analyze(struct probe_c2c_result *r, struct machine_probes *p)
{
	if (!r->tree && r->m.cpus.n >= 2)
		r->tree = probe_c2c_tree(&r->m);
	const struct probe_c2c_matrix *m = &r->m;
	struct machine_probes_c2c *c = &p->c2c;
	machine_probes_group_release(p, MP_G_C2C); /* recorded before: a re-measurement */
	int n = m->cpus.n, nb = m->nblocks;
	p->have[MP_C2C] = n ? MP_HAVE_YES : MP_HAVE_NULL;
	if (!n)
		return 0;
	c->ncpus = n;
	c->cpus = malloc((size_t)n * sizeof(int));
	c->latency_ns = c2c_matrix(m, -1);
	c->bandwidth_gbs = nb ? c2c_matrix(m, nb - 1) : NULL;
	c->block_bytes = nb ? (long long)m->block_bytes[nb - 1] : 0;
	if (!c->cpus || !c->latency_ns || (nb && !c->bandwidth_gbs))
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		c->cpus[i] = m->cpus.cpu[i];
	/* how the pairs were measured: the classes the matrices were filled by */
	const struct probe_c2c_plan *pl = &r->plan;
	machine_probes_text(c->mode, sizeof(c->mode),
			    machine_probes_c2c_mode_name(r->all_pairs ? MP_C2C_MODE_ALL_PAIRS : MP_C2C_MODE_CLASSES));
	c->pairs_measured = probe_c2c_plan_measured(pl);
	c->all_pairs_chosen = r->all_pairs_chosen;
	c->steps = r->steps;
	c->skipped_blocks = r->skipped;
	c->backfilled_blocks = r->backfilled;
	c->rounds = r->rounds;
	c->concurrent_pairs = m->concurrent_pairs;
	machine_probes_text(c->method, sizeof(c->method),
			    "two pinned threads take turns updating a block first touched by the first; one-way GB/s = block bytes per round; "
			    "latency = half the round trip of a cache line bounced between them; pairs in rounds of disjoint pairs "
			    "measured at once: by class, a few pairs per topology class and random pairs to verify them, finer "
			    "classes where they disagree, the matrices filled by class (--all-pairs: every pair, round robin); "
			    "tree by clique splitting from the largest block down");
	if (c2c_tree(p, m, r->tree) || c2c_classes(c, pl) || c2c_pairs(c, pl, m) || c2c_blocks(c, r))
		return -ENOMEM;
	return 0;
}
