/* The record the preload library (libarchscope-preload.so) writes at the end of each process image
 * (exit, _exit, exec) and scale/record.c reads: one text file per process image, rec.<pid>.<start>,
 * in $ARCHSCOPE_STACK_DIR (written as tmp.<pid>.<start>.<tid> and renamed once complete, so that a
 * kill never leaves a torn record). Shared by both sides, libc only. Lines (all times in ns of
 * CLOCK_MONOTONIC, counts plain):
 *   V 2
 *   P pid ppid start_ns end_ns threads_max schedstat_ok comm
 *   T tid start_ns end_ns run_ns runq_ns wait_ns[0] ... wait_ns[PRIM_COUNT-1] calls[0] ... calls[..]
 *   S prim address_hex wait_ns calls      (call sites of slow waits: return addresses)
 *   M start_hex end_hex offset_hex path   (executable mappings, to turn addresses into file:line)
 * Version 1 (no V line) had no ppid and comm in P and the first PRIM_V1 primitives in T. */
#ifndef ARCHSCOPE_SCALE_PRELOAD_RECORD_H
#define ARCHSCOPE_SCALE_PRELOAD_RECORD_H

/* The primitives the wrappers time. The order is the record's column order; new ones go last. */
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
	/* version 2 */
	PRIM_OMP_BARRIER,  /* OpenMP barriers (OMPT sync_region_wait, libgomp's GOMP_barrier and
			      the end of each parallel region): spin, then sleep */
	PRIM_OMP_TASKWAIT, /* taskwait, taskgroup */
	PRIM_OMP_LOCK,     /* omp_set_lock, critical, atomic, ordered */
	PRIM_OMP_IDLE,     /* a runtime's worker between parallel regions (the serial part) */
	PRIM_MPI,          /* blocking MPI calls: the ranks poll (spin) until the message is there */
	PRIM_CHILD,        /* waiting for a child process (wait*, system, pclose) */
	PRIM_POLL,         /* waiting for an event (poll, select, epoll_wait, sigsuspend ...) */
	PRIM_MPI_INIT,     /* MPI_Init, MPI_Init_thread, MPI_Finalize: start-up and shutdown, waiting
			      for the other ranks (and the launcher) */
	PRIM_COUNT
};
#define PRIM_V1 10 /* the primitives of a version-1 record */

#define SCALE_PRIM_NAMES                                                                          \
	{ "mutex", "rwlock", "cond", "barrier", "semaphore", "sleep", "futex", "sched_yield",      \
	  "pthread_spin", "join", "omp_barrier", "omp_taskwait", "omp_lock", "omp_idle", "mpi",    \
	  "wait_child", "poll", "mpi_init" }
#define SCALE_PRIM_NAMES_USER                                                                     \
	{ "mutex", "rwlock", "cond", "barrier", "semaphore", "sleep", "futex", "sched_yield",      \
	  "pthread_spin", "join", "omp_barrier", "omp_taskwait", "omp_lock", "omp_idle", "mpi",    \
	  "wait_child", "poll", "mpi_init", "user_spin" }

/* The environment: where records go, and the variable that points archscope at the library. */
#define SCALE_ENV_DIR "ARCHSCOPE_STACK_DIR"
#define SCALE_ENV_PRELOAD "ARCHSCOPE_PRELOAD"
/* Set by the exec wrappers for the new image: "PID:RUN_NS:RUNQ_NS:TIME_NS", the exec'ing thread's
 * CPU and run-queue clocks and CLOCK_MONOTONIC where the old image's record ended, so that the
 * new image's main thread starts there (exec and loading on its account, nothing twice). */
#define SCALE_ENV_EXEC "ARCHSCOPE_STACK_EXEC"
#define SCALE_PRELOAD_NAME "libarchscope-preload.so"
/* "1" or "0": whether the library may time waits with the CPU's counter (scale_counter_usable),
 * answered once by archscope: CPUID exits to the hypervisor in a virtual machine, and the two
 * leaves cost ~20 us in every image of a KVM guest (~60 in a make -j2 build's compile) */
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
