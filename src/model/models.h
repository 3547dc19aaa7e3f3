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
	double mem_saturated_cy; /* the memory transfer at the saturated (best over the cores) benchmark
				  * bandwidth, Kerncraft's T_L3MEM: the one saturation and scaling use; 0 = none */
};

/* Transfer costs measured on the machine: for each level i below L1 (1 .. nlevels-1), core cycles
 * per cache line loaded from it (in) and evicted to it (out), fitted by least squares to the one-core
 * benchmark kernels: the difference of a kernel's cycles per cache line of work between level i and
 * level i-1 is in * lines in + out * lines out (lines per 8 iterations: every read stream and the
 * write-allocate of every write-only stream in, every write stream out). A negative cost means the
 * transfers of that kind overlap with those of the level above. */
struct ecm_fit {
	int ok[MACHINE_MAX_LEVELS];      /* the fit of level i had at least 3 kernels and was determined */
	double in[MACHINE_MAX_LEVELS], out[MACHINE_MAX_LEVELS];
	double rms[MACHINE_MAX_LEVELS];  /* root mean square residual, cy per cache line of work */
	int nkernels[MACHINE_MAX_LEVELS];
};

/* Fits every level it can; returns the number of levels fitted, or a negative error when none. */
int model_ecm_fit(const struct machine *m, struct ecm_fit *fit, struct as_error *err);

/* Kerncraft's choice of the benchmark for a level: the kernel whose read/write stream ratio is
 * closest to reads/writes. cores 0 = the best over the cores sharing the level (ECM), else that
 * core count (Roofline). Returns the kernel index (or -1) and the bandwidth in B/s, corrected
 * for write-allocate outside L1. */
int model_bandwidth(const struct machine *m, int level, double reads, double writes, int cores, double *bw,
		    struct as_error *err);

/* fit NULL: the machine file's upstream throughput per level (Kerncraft); else the fitted costs
 * where the fit has the level. Memory without a fit: the matching benchmark's bandwidth. */
int model_ecm_data(const struct machine *m, const struct cache_traffic *t, const struct ecm_fit *fit,
		   struct ecm_data *out, struct as_error *err);

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
