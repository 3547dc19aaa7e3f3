/* A cache hierarchy simulator in the spirit of pycachesim: set-associative levels with LRU, FIFO
 * or random replacement, write-allocate/write-back or no-write-allocate, inclusive (back-
 * invalidating), non-inclusive and victim (exclusive) last-level caches. It follows every access
 * through the levels and counts loads, stores, hits, misses, fetched and written-back lines.
 * Cost: an L1 hit on the most recent line of its set is a few instructions (cachesim_access is
 * inline for that); everything else goes through cachesim_access_slow. */
#ifndef ARCHSCOPE_MODEL_CACHESIM_H
#define ARCHSCOPE_MODEL_CACHESIM_H

#include <stdint.h>

#include "common/error.h"
#include "machine/machine.h"

#define CACHESIM_MAX_LEVELS 8

enum cachesim_inclusion { CS_NON_INCLUSIVE, CS_INCLUSIVE };

struct cachesim_config {
	char name[16];
	uint64_t sets, ways, cl_size;
	enum machine_replacement replacement;
	int write_allocate, write_back;
	int load_from, store_to, victims_to; /* level indices, -1 = memory (victims_to: none) */
	enum cachesim_inclusion inclusion;   /* inclusive: an eviction here invalidates the levels above */
};

struct cachesim_stats {
	uint64_t loads, stores, hits, misses;
	uint64_t fetched;   /* lines brought in from the next level (or memory) */
	uint64_t written;   /* lines sent to the next level: dirty write-backs, victims, passed stores */
};

/* Tags are 32 bits so that a large last-level cache's tag array stays small enough for the host's
 * caches: (line / sets) << 1 | dirty, the set index being implied by the position. */
struct cachesim_level {
	uint32_t *tags;     /* sets x ways, most recent first (LRU, FIFO); empty ways at the end */
	uint64_t setmask;   /* sets - 1 when sets is a power of two, else 0 */
	unsigned setshift;  /* log2(sets) when sets is a power of two */
	uint64_t setmagic;  /* else: 2^64 / sets + 1, for division by multiplication (Lemire) */
	uint64_t sets, ways;
	struct cachesim_stats st;
	struct cachesim_config cfg;
};

struct cachesim {
	int nlevels;
	unsigned shift;     /* log2 of the line size */
	uint64_t rng;
	uint64_t mem_loads, mem_stores; /* lines */
	struct cachesim_level lv[CACHESIM_MAX_LEVELS];
};

struct cachesim *cachesim_new(const struct cachesim_config *cfg, int n, uint64_t seed, struct as_error *err);
void cachesim_free(struct cachesim *s);
void cachesim_reset_stats(struct cachesim *s);

void cachesim_access_slow(struct cachesim *s, uint64_t addr, int store);

#define CACHESIM_EMPTY UINT32_MAX

/* The largest address the simulator takes: tags must fit in 31 bits for every level. */
uint64_t cachesim_max_address(const struct cachesim *s);

static inline void cachesim_access(struct cachesim *s, uint64_t addr, int store)
{
	struct cachesim_level *L = &s->lv[0];
	uint64_t line = addr >> s->shift;
	if (L->setmask || L->sets == 1) {
		uint32_t *set = L->tags + (line & L->setmask) * L->ways;
		if ((set[0] >> 1) == (uint32_t)(line >> L->setshift)) { /* an empty way never matches */
			if (store) {
				if (L->cfg.write_back)
					set[0] |= 1;
				L->st.stores++;
				if (!L->cfg.write_back) {
					cachesim_access_slow(s, addr, 2); /* write-through: pass the store on */
					return;
				}
			} else {
				L->st.loads++;
			}
			L->st.hits++;
			return;
		}
	}
	cachesim_access_slow(s, addr, store);
}

#endif
