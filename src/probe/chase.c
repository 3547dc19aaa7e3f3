/* Pointer chasing (see chase.h). */
#include "probe/chase.h"

#include <stdlib.h>

#include "analysis/order.h"
#include "common/timer.h"

#define STEP8 p = *(void **)p; p = *(void **)p; p = *(void **)p; p = *(void **)p; \
	      p = *(void **)p; p = *(void **)p; p = *(void **)p; p = *(void **)p;

uint64_t chase_run(void **start, uint64_t steps)
{
	void *p = *start;
	uint64_t loops = (steps + 63) / 64;
	uint64_t t0 = timer_now_ns();
	while (loops--) {
		STEP8 STEP8 STEP8 STEP8 STEP8 STEP8 STEP8 STEP8
	}
	uint64_t t1 = timer_now_ns();
	*start = p;
	return t1 - t0;
}

void *chase_link(char *base, const size_t *offset, size_t count)
{
	for (size_t k = 0; k < count; k++)
		*(void **)(base + offset[k]) = base + offset[(k + 1) % count];
	return base + offset[0];
}

size_t chase_order_segmented(struct rng *r, size_t bytes, size_t stride, size_t page, size_t *offset)
{
	if (stride == 0 || page < stride)
		return 0;
	size_t per_page = page / stride;
	size_t pages = bytes / page;
	size_t count = 0;
	if (pages == 0) {
		/* Smaller than a page: one random order over the slots there are. */
		size_t n = bytes / stride;
		for (size_t k = 0; k < n; k++)
			offset[k] = k * stride;
		rng_shuffle(r, offset, n);
		return n;
	}
	size_t *porder = malloc(pages * sizeof(size_t));
	if (!porder)
		return 0;
	for (size_t p = 0; p < pages; p++)
		porder[p] = p;
	rng_shuffle(r, porder, pages);
	for (size_t p = 0; p < pages; p++) {
		size_t *seg = offset + count;
		for (size_t k = 0; k < per_page; k++)
			seg[k] = porder[p] * page + k * stride;
		rng_shuffle(r, seg, per_page);
		count += per_page;
	}
	free(porder);
	return count;
}

void chase_measure(void **start, uint64_t warm, int reps, uint64_t min_total_ns, struct chase_stats *st)
{
	if (reps < 1)
		reps = 1;
	if (warm)
		chase_run(start, warm);
	/* Calibrate: enough steps that one repetition takes its share of min_total_ns. */
	uint64_t target = min_total_ns / (uint64_t)reps;
	if (target < 20000)
		target = 20000; /* 20 us: timer overhead stays below 0.2 % */
	uint64_t steps = 256;
	for (;;) {
		uint64_t ns = chase_run(start, steps);
		if (ns >= target || steps >= (1ull << 34))
			break;
		steps = ns < target / 16 ? steps * 16 : steps * target / (ns ? ns : 1) + 64;
	}
	double *per = malloc(sizeof(double) * (size_t)reps);
	steps = (steps + 63) / 64 * 64;
	for (int i = 0; i < reps; i++)
		per[i] = (double)chase_run(start, steps) / (double)steps;
	st->min_ns = order_kth(per, (size_t)reps, 0);
	st->median_ns = order_median(per, (size_t)reps);
	st->steps = steps;
	st->reps = reps;
	free(per);
}
