/* Seeded, reproducible pseudo-random numbers (xoshiro256**, seeded through splitmix64) for random
 * permutations and positions. The seed is always reported so a run can be repeated. */
#ifndef ARCHSCOPE_COMMON_RNG_H
#define ARCHSCOPE_COMMON_RNG_H

#include <stddef.h>
#include <stdint.h>

struct rng {
	uint64_t s[4];
	uint64_t seed;
};

void rng_init(struct rng *r, uint64_t seed);
/* A seed from the clock and pid, for runs where the user gave none. */
uint64_t rng_seed_from_time(void);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, bound) without modulo bias; bound > 0. */
uint64_t rng_below(struct rng *r, uint64_t bound);
/* Fisher-Yates shuffle of n size_t values. */
void rng_shuffle(struct rng *r, size_t *v, size_t n);

#endif
