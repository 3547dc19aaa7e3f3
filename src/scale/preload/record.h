/* The record the preload library (libarchscope-preload.so) writes at the program's exit and
 * scale/record.c reads: one text file per process, rec.<pid>, in $ARCHSCOPE_STACK_DIR. Shared by
 * both sides, libc only. Lines (all times in ns of CLOCK_MONOTONIC, counts plain):
 *   P pid start_ns end_ns threads_max schedstat_ok
 *   T tid start_ns end_ns run_ns runq_ns wait_ns[0] ... wait_ns[PRIM_COUNT-1] calls[0] ... calls[..]
 *   S prim address_hex wait_ns calls      (call sites of slow waits: return addresses)
 *   M start_hex end_hex offset_hex path   (executable mappings, to turn addresses into file:line) */
#ifndef ARCHSCOPE_SCALE_PRELOAD_RECORD_H
#define ARCHSCOPE_SCALE_PRELOAD_RECORD_H

/* The primitives the wrappers time. The order is the record's column order. */
enum scale_prim {
	PRIM_MUTEX,
	PRIM_RWLOCK,
	PRIM_COND,
	PRIM_BARRIER,
	PRIM_SEM,
	PRIM_SLEEP,
	PRIM_FUTEX,
	PRIM_YIELD,        /* sched_yield */
	PRIM_PTHREAD_SPIN, /* pthread_spin_lock: spinning, not blocking */
	PRIM_JOIN,         /* pthread_join: the end-of-program imbalance */
	PRIM_COUNT
};

#define SCALE_PRIM_NAMES                                                                          \
	{ "mutex", "rwlock", "cond", "barrier", "semaphore", "sleep", "futex", "sched_yield",      \
	  "pthread_spin", "join" }
#define SCALE_PRIM_NAMES_USER                                                                     \
	{ "mutex", "rwlock", "cond", "barrier", "semaphore", "sleep", "futex", "sched_yield",      \
	  "pthread_spin", "join", "user_spin" }

/* The environment: where records go, and the variable that points archscope at the library. */
#define SCALE_ENV_DIR "ARCHSCOPE_STACK_DIR"
#define SCALE_ENV_PRELOAD "ARCHSCOPE_PRELOAD"
#define SCALE_PRELOAD_NAME "libarchscope-preload.so"

#endif
