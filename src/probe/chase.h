/* Pointer chasing, the core of the memory probes: a buffer of pointers where each element holds
 * the address of the next one to visit, walked by an unrolled loop whose every load depends on
 * the previous one, so the time per step is the latency of wherever the line lives. */
#ifndef ARCHSCOPE_PROBE_CHASE_H
#define ARCHSCOPE_PROBE_CHASE_H

#include <stddef.h>
#include <stdint.h>

#include "common/rng.h"

/* Follows the chain from *start for `steps` loads (rounded up to a multiple of 64, the unroll
 * factor); returns elapsed ns and leaves *start where it stopped, so the next call continues. */
uint64_t chase_run(void **start, uint64_t steps);

/* Links `count` slots into one random cycle. Slot k lives at base + offset[k]; slots are visited
 * in the order given by `offset` after the caller arranged it (e.g. page-segmented shuffle). */
void *chase_link(char *base, const size_t *offset, size_t count);

/* Page-segmented random order (BlackjackBench §3.1.2) of one slot per `stride` bytes in
 * [0, bytes): pages in random order, and within each page the slots in random order, so every
 * TLB miss is amortised over page/stride cache misses. Writes count offsets; returns count. */
size_t chase_order_segmented(struct rng *r, size_t bytes, size_t stride, size_t page, size_t *offset);

struct chase_stats {
	double min_ns;      /* per access, fastest repetition */
	double median_ns;   /* per access, median repetition */
	uint64_t steps;     /* accesses per repetition */
	int reps;
};

/* Times a chain: warm-up of `warm` steps, then calibrates steps per repetition so that `reps`
 * repetitions together take at least min_total_ns, and reports min and median per access. */
void chase_measure(void **start, uint64_t warm, int reps, uint64_t min_total_ns, struct chase_stats *st);

#endif
