/* The cache-line probe (BlackjackBench §3.1.1): pairs of dependent loads D bytes apart at random
 * places of a buffer far beyond any cache; while D <= line the second load hits. */
#include "probe/line.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/rng.h"

int probe_line_run(const struct probe_opts *o, struct probe_curve *out, struct as_error *err)
{
	/* A buffer far beyond any cache, so the first access of a pair misses; blocks of 512 B
	 * (the largest D) in random order, each contributing one pair. */
	size_t bytes = o->quick ? (64u << 20) : (256u << 20), block = 512;
	struct buffer buf;
	int rc = buffer_alloc(&buf, bytes, HUGE_NEVER, err);
	if (rc)
		return as_error_prefix(err, "probe line: "), rc;
	size_t blocks = bytes / block;
	size_t *order = malloc(blocks * sizeof(size_t)), *off = malloc(2 * blocks * sizeof(size_t));
	if (!order || !off) {
		free(order);
		free(off);
		buffer_release(&buf);
		return as_error_set(err, -ENOMEM, "probe line: out of memory");
	}
	struct rng r;
	rng_init(&r, o->seed);
	for (size_t b = 0; b < blocks; b++)
		order[b] = b;
	rng_shuffle(&r, order, blocks);
	/* D starts at 16 B: with 8-byte pointers a pair 8 B apart is one word, which cannot hold
	 * the two links a pair needs. */
	int total = 6, done = 0;
	for (size_t d = 16; d <= block && !probe_opts_stopped(o); d *= 2, done++) {
		char label[32];
		snprintf(label, sizeof(label), "D = %zu B", d);
		probe_opts_report(o, "line", label, done, total);
		/* Pair k: the first and the last pointer of a D-extent segment at block k's start. */
		for (size_t b = 0; b < blocks; b++) {
			off[2 * b] = order[b] * block;
			off[2 * b + 1] = order[b] * block + d - sizeof(void *);
		}
		struct chase_stats st;
		probe_slots_measure(o, buf.data, off, 2 * blocks, &st);
		rc = probe_curve_add(out, (double)d, st.min_ns, st.median_ns);
		if (rc)
			break;
	}
	free(order);
	free(off);
	buffer_release(&buf);
	return rc ? as_error_set(err, rc, "probe line: out of memory") : 0;
}
