/* The Execution-Cache-Memory model for streaming kernels (ECM paper §3-4): the time of one cache
 * line update (one line per stream, 8 double iterations) in each memory level is the time the
 * core needs with all data in L1, plus the cache-line transfers between every pair of levels the
 * data crosses, summed without overlap. The hierarchy is taken as inclusive (Intel): a line read
 * from level k passes through every level above it; a written line is first read (write-allocate)
 * and later evicted, unless its stores are non-temporal, which skip the caches and write to
 * memory once. Pure functions: the parameters come from measurement or a machine file. */
#ifndef ARCHSCOPE_ANALYSIS_ECM_H
#define ARCHSCOPE_ANALYSIS_ECM_H

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

#endif
