/* Tier 2: splitting work_inflation with hardware counters (the paper's llc, memory, coherency and
 * parallelization_overhead components). Real PMUs have no auxiliary tag directories, so the
 * N-thread run is compared with the 1-thread run of the same work: extra instructions are
 * parallelization overhead, extra last-level misses at the 1-thread miss penalty are LLC
 * interference (the paper's interpolation), a higher penalty per miss is memory interference,
 * and modified lines fetched from another core are coherency. Pure arithmetic on counter totals
 * over all threads of a run, collected by counts.c with counters that follow every thread of
 * the program (docs/archscope-stack.md). */
#ifndef ARCHSCOPE_SCALE_TIER2_H
#define ARCHSCOPE_SCALE_TIER2_H

#include "common/error.h"
#include "measure/counters.h"
#include "scale/stack.h"

/* Counter totals of one run (all threads), user space. */
struct scale_counts {
	double instructions;
	double cycles;
	double llc_misses;       /* last-level cache load misses */
	double miss_stall_cycles;/* cycles stalled with an LLC miss outstanding */
	double hitm;             /* loads served by a modified line in another core's cache */
	double spin_instructions;/* instructions in spin loops (excluded from the overhead); 0 if unknown */
};

/* The parts of work_inflation, with their names in stack's output (components beside it). */
#define SCALE_T2S(X)                                                                                        \
	X(T2_LLC, "llc") X(T2_MEMORY, "memory") X(T2_COHERENCY, "coherency")                                    \
	X(T2_PARALLELIZATION, "parallelization_overhead")
SCALE_ENUM(scale_t2, SCALE_T2S, T2_COUNT, scale_t2_names);

/* Splits s->comp[COMP_INFLATION] (speedup units) into t2[] from the 1-thread and N-thread
 * counts; what the counters do not explain stays in *rest (t2[] + rest = work_inflation when it
 * is positive; with a negative work_inflation nothing is split: t2[] = 0, rest = it). Each part
 * is >= 0; when the parts add up to more than work_inflation they are scaled down to it. 0, or
 * -EINVAL when the counts are unusable (no cycles or instructions). */
int scale_tier2_split(const struct scale_stack *s, const struct scale_counts *one, const struct scale_counts *n,
		      double t2[T2_COUNT], double *rest);

/* The counters of one run (counts.c): opened in archscope on itself just before it forks the
 * program (inherited, enabled at the program's exec), read after the program has exited. */
enum { SCALE_COUNT_INSTRUCTIONS, SCALE_COUNT_CYCLES, SCALE_COUNT_LLC_MISSES, SCALE_COUNT_MISS_STALLS,
       SCALE_COUNT_HITM, SCALE_COUNT_KINDS };
struct scale_counter_run {
	struct counter_set set;
	int slot[SCALE_COUNT_KINDS]; /* index in set, -1: that count is not available here */
};
/* 0 when at least instructions and cycles opened (the others are optional); else a negative
 * errno and err saying why ("hardware counters do not open: ..."), nothing left open. */
int scale_counts_open(struct scale_counter_run *c, struct as_error *err);
/* The totals over the program's threads; counts that did not open are 0. -ENODATA when
 * instructions or cycles read 0. */
int scale_counts_read(struct scale_counter_run *c, struct scale_counts *out);
void scale_counts_close(struct scale_counter_run *c);

#endif
