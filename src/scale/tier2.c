/* Tier 2 arithmetic (tier2.h). */
#include "scale/tier2.h"

#include <errno.h>
#include <string.h>

SCALE_NAMES_DEFINE(SCALE_T2S, T2_COUNT, scale_t2_names);

static double pos(double x)
{
	return x > 0 ? x : 0;
}

int scale_tier2_split(const struct scale_stack *s, const struct scale_counts *one, const struct scale_counts *n,
		      double t2[T2_COUNT], double *rest)
{
	memset(t2, 0, T2_COUNT * sizeof(double));
	double wi = s->comp[COMP_INFLATION];
	*rest = wi;
	if (!(one->cycles > 0 && one->instructions > 0 && n->cycles > 0 && n->instructions > 0 && s->span_s > 0))
		return -EINVAL;
	if (wi <= 0)
		return 0;
	/* cycles per second of thread time: the N-thread run's own clock, so cycles become seconds */
	double cpi1 = one->cycles / one->instructions;
	double ghz = n->cycles / (s->estimated * s->span_s); /* base time = useful thread time */
	if (!(ghz > 0))
		return -EINVAL;
	double pen1 = one->llc_misses > 0 ? one->miss_stall_cycles / one->llc_misses : 0; /* cycles per miss */
	double penn = n->llc_misses > 0 ? n->miss_stall_cycles / n->llc_misses : 0;
	double cy[T2_COUNT];
	cy[T2_LLC] = pos(n->llc_misses - one->llc_misses) * pen1;
	cy[T2_MEMORY] = pos(penn - pen1) * n->llc_misses;
	cy[T2_COHERENCY] = pos(n->hitm - one->hitm) * pen1;
	cy[T2_PARALLELIZATION] =
		pos((n->instructions - n->spin_instructions) - (one->instructions - one->spin_instructions)) * cpi1;
	double sum = 0;
	for (int k = 0; k < T2_COUNT; k++) {
		t2[k] = cy[k] / ghz / s->span_s; /* speedup units: thread seconds / T_p */
		sum += t2[k];
	}
	if (sum > wi)
		for (int k = 0; k < T2_COUNT; k++)
			t2[k] *= wi / sum;
	*rest = wi - (sum > wi ? wi : sum);
	return 0;
}
