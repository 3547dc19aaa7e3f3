/* The Execution-Cache-Memory model, in one place: the streaming-kernel form of the ECM paper
 * (bench --ecm and the machine file's calibration), the data transfers of a loop kernel (ECMData,
 * Kerncraft paper §2.3) with their costs from the machine file or fitted to its benchmarks, and the
 * full model that adds the in-core times T_OL and T_nOL: the prediction per memory level, the
 * saturation point and the multi-core scaling. Pure functions: no I/O. */
#ifndef ARCHSCOPE_MODEL_ECM_H
#define ARCHSCOPE_MODEL_ECM_H

#include "model/predict.h"

/* --- streaming kernels (ECM paper §3-4) -----------------------------------------------------------
 * The time of one cache line update (one line per stream, 8 double iterations) in each memory level
 * is the time the core needs with all data in L1, plus the cache-line transfers between every pair
 * of levels the data crosses, summed without overlap. The hierarchy is taken as inclusive (Intel):
 * a line read from level k passes through every level above it; a written line is first read
 * (write-allocate) and later evicted, unless its stores are non-temporal, which skip the caches and
 * write to memory once. */

#define ECM_MAX_LEVELS 8

/* A kernel's streams (as struct bench_kernel declares them). */
struct ecm_streams {
	int reads, writes, rws;
	int nontemporal;
};

struct ecm_params {
	double cl_bytes;           /* cache line, bytes */
	double l1_load_bpc;        /* L1 load bytes per core cycle */
	double l1_store_bpc;       /* L1 store bytes per core cycle */
	int loads_stores_overlap;  /* 1: loads and stores issue in the same cycle (max), 0: add */
	int ntransfers;            /* levels below L1: L2, L3, ..., memory */
	double cy_per_cl[ECM_MAX_LEVELS]; /* cycles per line between level i+1 and i+2 (0: L2<->L1) */
};

/* Cycles the core spends per cache-line update with every stream in L1. */
double ecm_core_cycles(const struct ecm_params *p, const struct ecm_streams *s);

/* Cache lines that cross the boundary below level `boundary` (0: between L1 and L2) per update,
 * when the data lives below that boundary. */
int ecm_lines_crossing(const struct ecm_streams *s, int boundary, int nboundaries);

/* Predicted cycles per cache-line update with the data in level `level` (0 = L1, ntransfers =
 * memory). Returns a negative number when the parameters are unusable. */
double ecm_predict(const struct ecm_params *p, const struct ecm_streams *s, int level);

/* Parameters from measurements of the load-only and store-only kernels: load_cy[level] is the
 * load kernel's measured cycles per line in L1, L2, ..., memory (nlevels values), store_l1_cy the
 * store kernel's in L1. A transfer rate that would come out negative (a level measured faster
 * than the one above it) is set to 0 and counted in the return value (0: every rate positive). */
int ecm_params_from_loads(struct ecm_params *p, double cl_bytes, const double *load_cy, int nlevels,
			  double store_l1_cy, int overlap);

/* --- the data transfers of a loop kernel (ECMData) ------------------------------------------------ */

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

/* fit NULL: the machine file's upstream throughput per level (Kerncraft); else the fitted costs
 * where the fit has the level. Memory without a fit: the matching benchmark's bandwidth. */
int model_ecm_data(const struct machine *m, const struct cache_traffic *t, const struct ecm_fit *fit,
		   struct ecm_data *out, struct as_error *err);

/* --- the full model: { T_OL || T_nOL | T_L1L2 | T_L2L3 | ... } ------------------------------------ */

struct ecm_full {
	int ok;                              /* 0: no in-core times or no data transfers */
	double t_ol, t_nol;                  /* core cycles per cache line of work */
	int n;
	char name[MACHINE_MAX_LEVELS][40];   /* T_L1L2, T_L2L3, T_L3MEM */
	double t[MACHINE_MAX_LEVELS];
	double cum[MACHINE_MAX_LEVELS + 1];  /* prediction with the data in L1, L2, ...: max(T_OL, T_nOL + sum) */
	double prediction;                   /* for the given sizes: every transfer the predictor found */
	double t_mem;                        /* the last transfer (memory), at the saturated bandwidth where known */
	int n_s;                             /* saturation: cores at which memory bandwidth is the limit (0: none) */
};

/* The in-core times with the data transfers: the sums per level, the prediction and the saturation
 * point n_S = ceil(T_ECM / T_mem). */
void ecm_full_compute(const struct ecm_data *d, double t_ol, double t_nol, struct ecm_full *f);

/* Multi-core scaling: cycles per cache line of work with `cores` cores of one memory domain,
 * max(T_ECM / cores, T_mem). */
double ecm_full_cy_at(const struct ecm_full *f, long cores);

/* The cores of one memory domain (NUMA domain, else socket, else 1): how far scaling goes. */
long ecm_domain_cores(const struct machine *m);

#endif
