/* Core-to-core communication (BlackjackBench §3.1.4): two pinned threads take turns updating a
 * shared block, each reading what the other just wrote; and a cache line bounced between them
 * for the one-way latency. */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/order.h"
#include "common/team.h"
#include "common/timer.h"
#include "probe/core.h"

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
