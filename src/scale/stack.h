/* Speedup stacks (Eyerman et al., "Speedup Stacks"): one N-thread run's per-thread time split
 * into the base speedup and one component per scaling delimiter, in speedup units (N x share of
 * the threads' time), summing to N; and the answers read from a stack (dominant delimiter, the
 * paper's Fig. 6 class). Pure arithmetic on recorded accounts: no I/O. */
#ifndef ARCHSCOPE_SCALE_STACK_H
#define ARCHSCOPE_SCALE_STACK_H

#include <stddef.h>
#include <stdint.h>

#include "scale/preload/record.h"

/* One thread's account (seconds). */
struct scale_thread {
	int tid;
	double start_s, end_s;  /* alive from start to end */
	double run_s, runq_s;   /* on a CPU; runnable but waiting for one (schedstat) */
	double wait_s[PRIM_COUNT];
	uint64_t calls[PRIM_COUNT];
	double spin_s;          /* spinning in user code no wrapper sees (sampling, spin.h) */
};

/* The components, in the order they stack. */
enum scale_comp {
	COMP_BASE,
	COMP_POSITIVE,  /* positive_interference */
	COMP_SPINNING,
	COMP_YIELDING,
	COMP_IMBALANCE,
	COMP_SCHEDULING,
	COMP_INFLATION, /* work_inflation: what tier 0 cannot attribute, S^ - S (signed) */
	COMP_COUNT
};
extern const char *const scale_comp_names[COMP_COUNT];

/* by_primitive: the parts of spinning and yielding. */
enum scale_part {
	PART_MUTEX,
	PART_RWLOCK,
	PART_COND,
	PART_BARRIER,
	PART_SEM,
	PART_SLEEP,
	PART_FUTEX,
	PART_YIELD,
	PART_PTHREAD_SPIN,
	PART_USER_SPIN,    /* spinning found by sampling */
	PART_OTHER,        /* blocked outside every wrapper (I/O, calls no wrapper sees) */
	PART_COUNT
};
extern const char *const scale_part_names[PART_COUNT];

struct scale_stack {
	int threads;            /* N */
	double span_s;          /* T_p: the process's span, first to last instruction it ran */
	double estimated;       /* S^ = N - overheads, from this run alone */
	double actual;          /* S = T_1 / T_N; NaN when no 1-thread run */
	double comp[COMP_COUNT];
	double part[PART_COUNT];
	double join_s;          /* seconds threads spent in pthread_join (shown inside imbalance) */
	double scaled;          /* 1, or the factor the overheads were scaled by to fit N (more
				   threads wanted a CPU than N: not every wait was a lost slot) */
};

/* Builds the stack of one run of N threads lasting span_s from its threads' accounts. Without a
 * 1-thread time (t1_s NaN) base = S^ and work_inflation = 0. Returns 0, or -EINVAL. */
int scale_stack_build(const struct scale_thread *th, size_t n, int threads, double span_s, double t1_s,
		      struct scale_stack *out);

/* The paper's Fig. 6 class scaled to N: "good" (S >= 10/16 N), "poor" (S < 5/16 N), else
 * "moderate". */
const char *scale_stack_class(double speedup, int threads);
/* The largest component other than base (and positive_interference), or "none" when base >=
 * 0.9 N. */
const char *scale_stack_dominant(const double comp[COMP_COUNT], int threads);

#endif
