/* The flop-counting Roofline (Kerncraft paper §1.2): per memory level the kernel's intensity and
 * the benchmark bandwidth the machine file measured for traffic like its own give a bound; the
 * lowest bound, or the core's peak, is the prediction. */
#ifndef ARCHSCOPE_MODEL_ROOFLINE_H
#define ARCHSCOPE_MODEL_ROOFLINE_H

#include "model/predict.h"

struct roofline_level {
	char name[16];
	double bytes_per_it;       /* data volume out of this level per iteration */
	double intensity;          /* flop/B (0 when the kernel has no flops) */
	double bw_bytes_s;
	char kernel[32];
	double perf_flops_s;       /* intensity x bandwidth */
	double cy_per_cl;          /* the same bound as time per cache line of work */
};

struct roofline {
	int n;
	struct roofline_level level[MACHINE_MAX_LEVELS];
	double peak_flops_s;       /* FLOPs per cycle x clock x cores */
	double cpu_cy_per_cl;
	int bottleneck;            /* index into level[], or -1 for the core */
	double perf_flops_s, cy_per_cl;
};

/* flops_per_it and bytes at L1 come from the kernel (loads + stores per iteration, elsize). */
int model_roofline(const struct machine *m, const struct cache_traffic *t, double flops_per_it, int elsize, int cores,
		   struct roofline *out, struct as_error *err);

#endif
