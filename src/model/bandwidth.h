/* The machine file's benchmark bandwidths as the models use them: Kerncraft's choice of the
 * benchmark kernel for a level's traffic, shared by ECMData (memory) and the Roofline (every level). */
#ifndef ARCHSCOPE_MODEL_BANDWIDTH_H
#define ARCHSCOPE_MODEL_BANDWIDTH_H

#include "common/error.h"
#include "machine/machine.h"

/* The benchmark measurements of the level named `name` (case-insensitive), or NULL. */
const struct machine_bench_level *model_bench_level(const struct machine *m, const char *name);

/* Kerncraft's choice of the benchmark for a level: the kernel whose read/write stream ratio is
 * closest to reads/writes. cores 0 = the best over the cores sharing the level (ECM), else that
 * core count (Roofline). Returns the kernel index (or a negative error) and the bandwidth in B/s,
 * corrected for write-allocate outside L1. */
int model_bandwidth(const struct machine *m, int level, double reads, double writes, int cores, double *bw,
		    struct as_error *err);

#endif
