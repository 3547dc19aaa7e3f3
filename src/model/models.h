/* The data-side models (Kerncraft paper §1.2, §2.3): ECMData (cycles per cache line of work for
 * each transfer between levels) and the flop-counting Roofline (a bound per level from measured
 * bandwidths). Both take a cache_traffic from a predictor and numbers from the machine file. */
#ifndef ARCHSCOPE_MODEL_MODELS_H
#define ARCHSCOPE_MODEL_MODELS_H

#include "model/predict.h"

struct ecm_transfer {
	char name[16];         /* the level the data comes from: L2, L3, MEM */
	double lines_in, lines_out; /* per cache line of work */
	double cy;             /* core cycles per cache line of work */
	double bytes_per_cy;   /* the rate used */
	char source[48];       /* "32 B/cy half-duplex" or "copy benchmark" */
	double bw_bytes_s;     /* memory: the benchmark bandwidth used, write-allocate corrected */
};

struct ecm_data {
	int n;
	struct ecm_transfer t[MACHINE_MAX_LEVELS];
	double total_cy;
};

/* Kerncraft's choice of the benchmark for a level: the kernel whose read/write stream ratio is
 * closest to reads/writes. cores 0 = the best over the cores sharing the level (ECM), else that
 * core count (Roofline). Returns the kernel index (or -1) and the bandwidth in B/s, corrected
 * for write-allocate outside L1. */
int model_bandwidth(const struct machine *m, int level, double reads, double writes, int cores, double *bw,
		    struct as_error *err);

int model_ecm_data(const struct machine *m, const struct cache_traffic *t, struct ecm_data *out, struct as_error *err);

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
