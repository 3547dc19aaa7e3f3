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
	double spin_s;          /* spinning in user code no wrapper sees: the thread's CPU time x the
				   share of its samples in spin loops (spin.h) */
	double rt_spin_s;       /* CPU time in an OpenMP runtime's spin loops (its samples' share),
				   the spin phase of the runtime waits the record timed */
	int proc;               /* the process it belongs to (index in scale_record.procs) */
};

/* The components, in the order they stack, with their names in stack's output. */
#define SCALE_COMPS(X)                                                                                      \
	X(COMP_BASE, "base")                                                                                    \
	X(COMP_POSITIVE, "positive_interference")                                                               \
	X(COMP_SPINNING, "spinning")                                                                            \
	X(COMP_YIELDING, "yielding")                                                                            \
	X(COMP_IMBALANCE, "imbalance")                                                                          \
	X(COMP_SCHEDULING, "scheduling")                                                                        \
	X(COMP_FOREIGN, "foreign_load")    /* the part of scheduling other processes' CPU time explains */      \
	X(COMP_INFLATION, "work_inflation") /* what tier 0 cannot attribute, S^ - S (signed) */
SCALE_ENUM(scale_comp, SCALE_COMPS, COMP_COUNT, scale_comp_names);

/* by_primitive: the parts of spinning and yielding. */
#define SCALE_PARTS(X)                                                                                      \
	X(PART_MUTEX, "mutex")                                                                                  \
	X(PART_RWLOCK, "rwlock")                                                                                \
	X(PART_COND, "cond")                                                                                    \
	X(PART_BARRIER, "barrier")                                                                              \
	X(PART_SEM, "semaphore")                                                                                \
	X(PART_SLEEP, "sleep")                                                                                  \
	X(PART_FUTEX, "futex")                                                                                  \
	X(PART_YIELD, "sched_yield")                                                                            \
	X(PART_PTHREAD_SPIN, "pthread_spin")                                                                    \
	X(PART_USER_SPIN, "user_spin")         /* spinning found by sampling */                                 \
	X(PART_OTHER, "blocked_other")         /* blocked outside every wrapper (I/O, calls no wrapper sees) */ \
	X(PART_TASKWAIT, "taskwait")           /* OpenMP taskwait/taskgroup, asleep */                          \
	X(PART_MPI, "mpi")                     /* blocking MPI calls (busy polling) */                          \
	X(PART_BARRIER_SPIN, "barrier_spin")   /* the spin phase of OpenMP barriers (KMP_BLOCKTIME,             \
						  GOMP_SPINCOUNT) */                                            \
	X(PART_TASKWAIT_SPIN, "taskwait_spin")                                                                  \
	X(PART_LOCK_SPIN, "lock_spin")         /* ... of OpenMP locks and critical sections */               \
	X(PART_YIELD_SPIN, "yield_spin")       /* sched_yield that returned at once: time in it the thread's   \
						  off-CPU and run-queue time cannot cover (a yield poll) */
SCALE_ENUM(scale_part, SCALE_PARTS, PART_COUNT, scale_part_names);
/* Whether a part belongs to spinning (else yielding). */
int scale_part_is_spin(int part);

/* Waiting for other tasks, not a delimiter of its own: the slots it leaves idle are imbalance. */
#define SCALE_OTHERS(X)                                                                                     \
	X(OTHER_JOIN, "join") X(OTHER_CHILD, "wait_child") X(OTHER_POLL, "poll") X(OTHER_IDLE, "omp_idle")      \
	X(OTHER_MPI_INIT, "mpi_init")
SCALE_ENUM(scale_wait_other, SCALE_OTHERS, OTHER_COUNT, scale_other_names);

struct scale_stack {
	int threads;            /* N */
	double span_s;          /* T_p: the process's span, first to last instruction it ran */
	double estimated;       /* S^ = N - overheads, from this run alone */
	double actual;          /* S = T_1 / T_N; NaN when no 1-thread run */
	double comp[COMP_COUNT];
	double part[PART_COUNT];
	double part_rq[PART_COUNT]; /* the wake-up queueing inside each blocking part (speedup units) */
	double join_s;          /* seconds threads spent in pthread_join (shown inside imbalance) */
	double other_s[OTHER_COUNT]; /* thread-seconds waiting for other tasks (join, children,
				   events, a runtime's idle workers) */
	double base_s;          /* thread-seconds of base (useful work), at most N x span_s */
	double base_raw_s;      /* the same before that cap: a run whose threads kept more CPUs busy
				   with work than it has slots (a "1-thread" run with a helper thread) */
	double yield_s;         /* thread-seconds in sched_yield, all threads */
	double yield_spin_s;    /* of which the threads kept their CPU (yield_spin, before scaling) */
	double scaled;          /* 1, or the factor the overheads were scaled by to fit N (more
				   threads wanted a CPU, or waited, than N slots hold) */
};

/* Builds the stack of one run of N threads lasting span_s from its threads' accounts (every
 * thread of every process of the program). Without a 1-thread time (t1_s NaN) base = S^ and
 * work_inflation = 0. The N x span_s slots go first to base, then to spinning and scheduling,
 * then to the blocking waits, then blocked_other shares what is left with the waits for other
 * tasks (join, children, events, idle workers), whose share is imbalance: threads beyond N
 * (a launcher, a runtime's helper threads) that sleep while the others work cost no slot.
 * Returns 0, or -EINVAL. */
int scale_stack_build(const struct scale_thread *th, size_t n, int threads, double span_s, double t1_s,
		      struct scale_stack *out);
/* Moves the run-queue wait that other processes explain into foreign_load: foreign_cpu_s is
 * their CPU time on the CPUs the program could use during its span; it explains scheduling
 * first, then the wake-up queueing inside the blocking waits. */
void scale_stack_foreign(struct scale_stack *s, double foreign_cpu_s);
/* Sets the actual speedup (base) to `actual` and work_inflation to S^ - actual (the scaled
 * speedup of a program whose work grows with N). */
void scale_stack_set_actual(struct scale_stack *s, double actual);

/* The paper's Fig. 6 class scaled to N: "good" (S >= 10/16 N), "poor" (S < 5/16 N), else
 * "moderate". */
const char *scale_stack_class(double speedup, int threads);
/* The largest component other than base, positive_interference and foreign_load (other
 * programs' load is not the program's delimiter), or SCALE_NONE when base (plus foreign_load)
 * >= 0.9 N. */
#define SCALE_NONE (-1)
int scale_stack_dominant(const double comp[COMP_COUNT], int threads);
/* Whether a wait site's primitive (PRIM_COUNT: spinning found by sampling) is counted in a part
 * of the stack: the same mapping the stack is built with. */
int scale_prim_in_part(int prim, int part);
/* Whether a primitive waits for other tasks (join, a child, poll, a runtime's idle worker,
 * MPI_Init): the waits of imbalance, in no part. */
int scale_prim_waits_for_others(int prim);
/* A component's name, "none" for SCALE_NONE. */
const char *scale_comp_name(int comp);
/* A primitive's name ("mutex"); PRIM_COUNT: "user_spin", spinning found by sampling. */
const char *scale_prim_name(int prim);
/* The largest part of a spinning or yielding component (SCALE_NONE for the others). */
int scale_stack_dominant_part(const struct scale_stack *s, int comp);
/* Whether a wait site of primitive prim is one of the dominant delimiter comp's (part: its
 * largest part, scale_stack_dominant_part): the sites of that part for spinning and yielding, the
 * waits for other tasks for imbalance, every other wait for the rest and for SCALE_NONE. */
int scale_site_shown(int prim, int comp, int part);

#endif
