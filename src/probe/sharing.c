/* Coherence-unit witness of the cache line (see sharing.h). Costs reps x 8 points x (window +
 * 0.2 ms). */
#include "probe/sharing.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/order.h"
#include "common/team.h"
#include "common/timer.h"

struct sharing_run {
	char *block;          /* 4 KiB aligned; counters at offset 0 and d */
	size_t d;
	uint64_t window_ns;   /* both threads increment during the same window */
	uint64_t start_ns, end_ns;
	uint64_t count[2];
};

static void sharing_member(struct team *t, int tid, int cpu, void *arg)
{
	struct sharing_run *r = arg;
	(void)cpu;
	uint64_t *ctr = (uint64_t *)(r->block + (tid ? r->d : 0));
	__atomic_store_n(ctr, 0, __ATOMIC_RELAXED);
	if (tid == 0) {
		r->start_ns = timer_now_ns() + 200000; /* both threads are spinning by then */
		r->end_ns = r->start_ns + r->window_ns;
	}
	team_barrier(t);
	while (timer_now_ns() < r->start_ns)
		;
	uint64_t n = 0;
	do {
		/* an atomic read-modify-write: the core must own the counter's line for each one, so
		 * a line shared with the other thread moves between the cores every time (a plain
		 * increment would be merged in the store buffer and hide most of the moves) */
		for (int k = 0; k < 256; k++)
			__atomic_fetch_add(ctr, 1, __ATOMIC_RELAXED);
		n += 256;
	} while (timer_now_ns() < r->end_ns);
	r->count[tid] = n;
	team_barrier(t);
}

int probe_sharing_run(int cpu_a, int cpu_b, int reps, uint64_t window_ns, volatile int *stop,
		      struct sharing_curve *out, struct as_error *err)
{
	memset(out, 0, sizeof(*out));
	if (cpu_a == cpu_b)
		return as_error_set(err, -EINVAL, "the coherence witness needs two different CPUs (got %d twice)", cpu_a);
	if (reps < 1 || reps > 64 || window_ns < 100000)
		return as_error_set(err, -EINVAL, "sharing probe: reps must be 1..64 and the window >= 0.1 ms");
	struct sharing_run r = { .window_ns = window_ns };
	r.block = aligned_alloc(4096, 8192);
	if (!r.block)
		return as_error_set(err, -ENOMEM, "sharing probe: out of memory");
	memset(r.block, 0, 8192);
	struct as_cpulist cpus = { .n = 2, .cpu = { cpu_a, cpu_b } };
	double t[64];
	int rc = 0;
	for (size_t d = 8; d <= 1024 && out->n < SHARING_MAX_POINTS; d *= 2) {
		if (stop && *stop)
			break;
		r.d = d;
		int k;
		for (k = 0; k < reps; k++) {
			if ((rc = team_run(&cpus, 1, sharing_member, &r, err)) != 0)
				break;
			uint64_t fewer = r.count[0] < r.count[1] ? r.count[0] : r.count[1];
			t[k] = (double)window_ns / (double)(fewer ? fewer : 1);
		}
		if (rc)
			break;
		out->d_bytes[out->n] = (double)d;
		out->min_ns[out->n] = order_kth(t, (size_t)reps, 0);
		out->median_ns[out->n] = order_median(t, (size_t)reps);
		out->n++;
	}
	free(r.block);
	return rc;
}
