/* The c2c probe (BlackjackBench §3.1.4, see c2c.h): two pinned threads take turns updating a
 * shared block, each reading what the other just wrote; a cache line bounced between them for the
 * one-way latency; every pair of a CPU list, and the locality tree of the matrices. */
#include "probe/c2c.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/order.h"
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

static void bw_member(struct team *t, int tid, int cpu, void *arg)
{
	struct c2c_run *r = arg;
	(void)cpu;
	if (tid == 0) {
		/* The first thread allocates and touches the block: first-touch places it near it. */
		r->block = aligned_alloc(4096, (r->words * sizeof(uint64_t) + 4095) / 4096 * 4096);
		if (r->block)
			memset(r->block, 0, r->words * sizeof(uint64_t));
		else
			r->oom = 1;
		atomic_store(&r->turn, 0);
	}
	team_barrier(t);
	if (r->oom)
		return;
	uint64_t t0 = timer_now_ns();
	for (uint64_t k = 0; k < r->rounds; k++) {
		while (atomic_load_explicit(&r->turn, memory_order_acquire) != tid)
			;
		uint64_t *x = r->block;
		for (size_t i = 0; i < r->words; i++)
			x[i] += 1;
		atomic_store_explicit(&r->turn, 1 - tid, memory_order_release);
	}
	if (tid == 0) {
		/* wait for the other side's last turn, so the time covers both */
		while (atomic_load_explicit(&r->turn, memory_order_acquire) != 0)
			;
		r->ns = timer_now_ns() - t0;
	}
	team_barrier(t);
	if (tid == 0)
		free(r->block);
}

static void pp_member(struct team *t, int tid, int cpu, void *arg)
{
	struct c2c_run *r = arg;
	(void)cpu;
	if (tid == 0)
		atomic_store(&r->ball, 0);
	team_barrier(t);
	uint64_t t0 = timer_now_ns();
	/* Thread 0 moves the ball from even to odd, thread 1 from odd to even: each move waits for
	 * the line to come back from the other core. */
	for (uint64_t k = 0; k < r->rounds; k++) {
		uint64_t want = 2 * k + (uint64_t)tid;
		while (atomic_load_explicit(&r->ball, memory_order_acquire) != want)
			;
		atomic_store_explicit(&r->ball, want + 1, memory_order_release);
	}
	if (tid == 0) {
		while (atomic_load_explicit(&r->ball, memory_order_acquire) != 2 * r->rounds)
			;
		r->ns = timer_now_ns() - t0;
	}
}

static int run_pair(int a, int b, team_fn fn, struct c2c_run *r, struct as_error *err)
{
	struct as_cpulist cpus = { .n = 2, .cpu = { a, b } };
	int rc = team_run(&cpus, 1, fn, r, err);
	if (!rc && r->oom)
		rc = as_error_set(err, -ENOMEM, "probe c2c: out of memory for the block");
	return rc;
}

/* Calibrates rounds to the target time, then takes the best and median of reps. */
static int measure(const struct probe_opts *o, int a, int b, team_fn fn, size_t words, double *best_ns_per_round,
		   double *median_ns_per_round, struct as_error *err)
{
	struct c2c_run *r = aligned_alloc(64, sizeof(struct c2c_run));
	if (!r)
		return as_error_set(err, -ENOMEM, "probe c2c: out of memory");
	memset(r, 0, sizeof(*r));
	r->words = words;
	r->rounds = 4;
	uint64_t target = o->quick ? 2000000 : 5000000;
	int rc;
	for (;;) {
		if ((rc = run_pair(a, b, fn, r, err)) != 0)
			goto out;
		if (r->ns >= target || r->rounds > (1ull << 32))
			break;
		r->rounds = r->ns < target / 16 ? r->rounds * 16 : r->rounds * target / (r->ns ? r->ns : 1) + 1;
	}
	int reps = o->quick ? 3 : 5;
	double v[8];
	for (int i = 0; i < reps; i++) {
		if ((rc = run_pair(a, b, fn, r, err)) != 0)
			goto out;
		v[i] = (double)r->ns / (double)r->rounds;
	}
	*best_ns_per_round = order_kth(v, (size_t)reps, 0);
	*median_ns_per_round = order_median(v, (size_t)reps);
out:
	free(r);
	return rc;
}

int probe_c2c_bandwidth(const struct probe_opts *o, int a, int b, size_t block_bytes, double *best_gbs,
			double *median_gbs, struct as_error *err)
{
	double best, med;
	size_t words = block_bytes / sizeof(uint64_t);
	if (words == 0)
		return as_error_set(err, -EINVAL, "probe c2c: block of %zu bytes is too small", block_bytes);
	int rc = measure(o, a, b, bw_member, words, &best, &med, err);
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
	int rc = measure(o, a, b, pp_member, 0, &best, &med, err);
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
	int npairs = n * (n - 1) / 2, done = 0, total = npairs * (nb + 1);
	int rc = 0;
	char label[96], sz[32];
	for (int i = 0; i < n && !rc && !probe_opts_stopped(o); i++)
		for (int j = i + 1; j < n && !rc && !probe_opts_stopped(o); j++) {
			int a = cpus->cpu[i], b = cpus->cpu[j];
			for (int k = 0; k < nb && !rc && !probe_opts_stopped(o); k++) {
				snprintf(label, sizeof(label), "cpu %d <-> %d, %s blocks", a, b,
					 buffer_format_size(block_bytes[k], sz, sizeof(sz)));
				probe_opts_report(o, "c2c", label, done++, total);
				double best = 0, med;
				rc = probe_c2c_bandwidth(o, a, b, block_bytes[k], &best, &med, err);
				bw[((size_t)k * n + i) * n + j] = bw[((size_t)k * n + j) * n + i] = best;
			}
			snprintf(label, sizeof(label), "cpu %d <-> %d, line ping-pong", a, b);
			probe_opts_report(o, "c2c", label, done++, total);
			double best = 0, med;
			if (!rc && !probe_opts_stopped(o))
				rc = probe_c2c_latency(o, a, b, &best, &med, err);
			lat[(size_t)i * n + j] = lat[(size_t)j * n + i] = best;
		}
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
	free(r->tree);
	probe_c2c_result_init(r);
}

int probe_c2c_find(struct probe_env *env, probe_progress_fn *progress, struct probe_c2c_result *out,
		   struct as_error *err)
{
	probe_c2c_result_init(out);
	out->allowed = env->allowed.n;
	if (env->allowed.n < 2)
		return 0;
	struct as_cpulist cpus = env->allowed;
	if (cpus.n > PROBE_C2C_MAX_CPUS)
		cpus.n = PROBE_C2C_MAX_CPUS;
	/* Block sizes from below any L1 to past the last level: 4 KiB x 4^k up to 4x the measured
	 * last level (64 MiB when no level was measured), at most 256 MiB. */
	size_t top = env->nlevels ? (size_t)(4 * env->level_bytes[env->nlevels - 1]) : (64u << 20);
	if (top > (256u << 20))
		top = 256u << 20;
	size_t blocks[PROBE_C2C_MAX_BLOCKS];
	int nb = 0;
	for (size_t b = 4096; b <= top && nb < PROBE_C2C_MAX_BLOCKS; b *= env->quick ? 16 : 4)
		blocks[nb++] = b;
	struct probe_opts o = probe_opts_of(env, progress, HUGE_DEFAULT);
	int rc = probe_c2c_sweep(&o, &cpus, blocks, nb, &out->m, err);
	if (rc == 0)
		out->tree = probe_c2c_tree(&out->m);
	return rc;
}
