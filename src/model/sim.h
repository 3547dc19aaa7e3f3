/* The simulator as a cache predictor (paper §2.4.1): the kernel's address stream, in loop order,
 * through a cachesim built from the machine file; a warm-up, then whole inner rows measured, the
 * counts divided per cache line of work. */
#ifndef ARCHSCOPE_MODEL_SIM_H
#define ARCHSCOPE_MODEL_SIM_H

#include "model/cachesim.h"
#include "model/predict.h"

struct sim_info {
	int64_t warmup_iterations, measured_iterations;
	uint64_t accesses;          /* simulated, warm-up included */
	uint64_t seed;
	uint64_t measured_accesses;
	double measured_seconds;    /* the simulator's own time for the measured part */
};

/* The simulator's configuration for the machine's cache levels with `cores` cores in use (shared
 * levels get their share of the sets). */
int sim_config(const struct machine *m, int cores, struct cachesim_config *cfg, int *n, struct as_error *err);

/* min_iterations: the measured part (whole rows when rows are shorter than it; at most a sweep). */
int sim_predict(const struct kernel *k, const struct kbound *b, const struct machine *m, int cores, uint64_t seed,
		int64_t min_iterations, struct cache_traffic *out, struct sim_info *info, struct as_error *err);

/* Where a walk over the iteration space stands: every loop's index. */
struct sim_cursor {
	int64_t idx[KERNEL_MAX_LOOPS];
};

void sim_cursor_init(struct sim_cursor *c, const struct kbound *b);
/* Feeds `iterations` iterations (wrapping around the nest) of the kernel's address stream into s
 * from the cursor on. Returns the accesses made. */
uint64_t sim_walk(struct cachesim *s, const struct kernel *k, const struct kbound *b, struct sim_cursor *c, int64_t iterations);

#endif
