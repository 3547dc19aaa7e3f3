/* The record the preload library (libarchscope-preload.so) writes at the end of each process image
 * (exit, _exit, exec) and scale/record.c reads: one text file per process image, rec.<pid>.<start>,
 * in $ARCHSCOPE_STACK_DIR (written as tmp.<pid>.<start>.<tid> and renamed once complete, so that a
 * kill never leaves a torn record). Shared by both sides, libc only. Lines (all times in ns of
 * CLOCK_MONOTONIC, counts plain):
 *   V 2
 *   P pid ppid start_ns end_ns threads_max schedstat_ok comm
 *   T tid start_ns end_ns run_ns runq_ns wait_ns[0] ... wait_ns[PRIM_COUNT-1] calls[0] ... calls[..]
 *   S prim address_hex wait_ns calls      (call sites of slow waits: return addresses)
 *   M start_hex end_hex offset_hex path   (executable mappings, to turn addresses into file:line;
 *                                          the live ones first, then those dlclose unloaded)
 * Version 1 (no V line) had no ppid and comm in P and the first PRIM_V1 primitives in T. */
#ifndef ARCHSCOPE_SCALE_PRELOAD_RECORD_H
#define ARCHSCOPE_SCALE_PRELOAD_RECORD_H

/* The primitives the wrappers time, with their names in stack's output (scale_prim_name). The
 * order is the record's column order; new ones go last. */
#define SCALE_PRIMS(X)                                                                                      \
	X(PRIM_MUTEX, "mutex")                                                                                  \
	X(PRIM_RWLOCK, "rwlock")                                                                                \
	X(PRIM_COND, "cond")                                                                                    \
	X(PRIM_BARRIER, "barrier")                                                                              \
	X(PRIM_SEM, "semaphore")                                                                                \
	X(PRIM_SLEEP, "sleep")                                                                                  \
	X(PRIM_FUTEX, "futex")                                                                                  \
	X(PRIM_YIELD, "sched_yield")         /* sched_yield */                                                  \
	X(PRIM_PTHREAD_SPIN, "pthread_spin") /* pthread_spin_lock: spinning, not blocking */                    \
	X(PRIM_JOIN, "join")                 /* pthread_join: the end-of-program imbalance */                   \
	/* version 2 */                                                                                         \
	X(PRIM_OMP_BARRIER, "omp_barrier")   /* OpenMP barriers (OMPT sync_region_wait, libgomp's GOMP_barrier  \
						and the end of each parallel region): spin, then sleep */       \
	X(PRIM_OMP_TASKWAIT, "omp_taskwait") /* taskwait, taskgroup */                                          \
	X(PRIM_OMP_LOCK, "omp_lock")         /* omp_set_lock, critical, atomic, ordered */                      \
	X(PRIM_OMP_IDLE, "omp_idle")         /* a runtime's worker between parallel regions (the serial part) */ \
	X(PRIM_MPI, "mpi")                   /* blocking MPI calls: the ranks poll (spin) until the message is  \
						there */                                                        \
	X(PRIM_CHILD, "wait_child")          /* waiting for a child process (wait*, system, pclose) */          \
	X(PRIM_POLL, "poll")                 /* waiting for an event (poll, select, epoll_wait, sigsuspend ...) */ \
	X(PRIM_MPI_INIT, "mpi_init")         /* MPI_Init, MPI_Init_thread, MPI_Finalize: start-up and shutdown, \
						waiting for the other ranks (and the launcher) */

/* The enum and the names of an X-macro list of (ID, "name") rows (scale's enums). */
#define SCALE_X_ID(id, name) id,
#define SCALE_X_NAME(id, name) name,
/* enum TAG of LIST's ids then COUNT, and NAMES[COUNT], LIST's names in that order (declared here,
 * defined by SCALE_NAMES_DEFINE in one .c file). */
#define SCALE_ENUM(TAG, LIST, COUNT, NAMES)                                                                 \
	enum TAG { LIST(SCALE_X_ID) COUNT };                                                                \
	extern const char *const NAMES[COUNT]
#define SCALE_NAMES_DEFINE(LIST, COUNT, NAMES) const char *const NAMES[COUNT] = { LIST(SCALE_X_NAME) }

enum scale_prim { SCALE_PRIMS(SCALE_X_ID) PRIM_COUNT };
#define PRIM_V1 10 /* the primitives of a version-1 record */

/* The environment: where records go, and the variable that points archscope at the library. */
#define SCALE_ENV_DIR "ARCHSCOPE_STACK_DIR"
#define SCALE_ENV_PRELOAD "ARCHSCOPE_PRELOAD"
/* Set by the exec wrappers for the new image: "PID:RUN_NS:RUNQ_NS:TIME_NS", the exec'ing thread's
 * CPU and run-queue clocks and CLOCK_MONOTONIC where the old image's record ended, so that the
 * new image's main thread starts there (exec and loading on its account, nothing twice). */
#define SCALE_ENV_EXEC "ARCHSCOPE_STACK_EXEC"
#define SCALE_PRELOAD_NAME "libarchscope-preload.so"
/* "1" or "0": whether the library may time waits with the CPU's counter (scale_counter_usable),
 * answered once by archscope: CPUID exits to the hypervisor in a virtual machine, dear in every
 * process image (bench/results/stack-spin-sampling-kvm-xeon-6-207.txt) */
#define SCALE_ENV_TSC "ARCHSCOPE_STACK_TSC"

/* Whether the CPU's counter may time waits: on x86 only an invariant TSC (CPUID 0x80000007 EDX
 * bit 8: one rate on every core, in every P- and C-state), whose ticks convert to ns by one
 * ratio; the ARM generic timer always has a fixed rate. */
static inline int scale_counter_usable(void)
{
#if defined(__x86_64__)
	unsigned a, b, c, d;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x80000000u), "c"(0));
	if (a < 0x80000007u)
		return 0;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x80000007u), "c"(0));
	return (d >> 8) & 1;
#elif defined(__aarch64__)
	return 1;
#else
	return 0;
#endif
}

#endif
