/* Private to the preload library (src/scale/preload/): the per-thread accounts the wrappers fill
 * and preload.c writes out. libc only; nothing here may change what the program sees. */
#ifndef ARCHSCOPE_SCALE_PRELOAD_PRELOAD_H
#define ARCHSCOPE_SCALE_PRELOAD_PRELOAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "scale/preload/record.h"

#define PRELOAD_THREADS_MAX 4096
#define PRELOAD_SITES 64 /* call sites kept per thread (open addressing; the rest are dropped) */
#define PRELOAD_WAITS 8  /* nested runtime waits and tasks run inside them (preload_rt_*) */

/* A runtime's wait in progress (OpenMP, MPI): opened and closed by separate calls, it may pause
 * while the thread runs a task inside it, and a worker's end-of-region barrier may run on into
 * the idle time before the next region (split at the region's end). */
struct preload_wait {
	uint64_t t0;       /* preload_ticks() at its start or last resume; 0: paused */
	uintptr_t site;
	signed char prim;  /* enum scale_prim; -1: a task running inside the wait below */
	char counted;      /* 0: begun inside another wait, not counted */
	char prev_inside;  /* preload_inside before it */
	char split;        /* a worker's implicit barrier: the part after the region's end is idle */
};

struct preload_site {
	uintptr_t addr; /* return address of the wrapped call; 0: free slot */
	int prim;
	uint64_t wait_ticks, calls; /* ticks of preload_ticks(), converted to ns at the record */
};

/* One thread's account; written by that thread only, read at exit. */
struct preload_thread {
	pid_t tid;
	int ended;
	uint64_t start_ns, end_ns;
	uint64_t run_ns, runq_ns; /* CPU time (thread CPU clock) and run-queue wait (schedstat): the
				     values at the start, then the differences at the end */
	int schedstat_ok;
	uint64_t wait_ticks[PRIM_COUNT], calls[PRIM_COUNT]; /* waits in preload_ticks() ticks */
	struct preload_site sites[PRELOAD_SITES];
	void *(*start_fn)(void *); /* what pthread_create was asked to run */
	void *start_arg;
	struct preload_wait ws[PRELOAD_WAITS]; /* runtime waits (preload_rt_*), innermost last */
	int nws;
	int rt_region;     /* depth of OpenMP regions this thread runs (libgomp wrappers) */
	unsigned lock_hot; /* recent lock calls that had to wait, less those that did not (wrap.c) */
	unsigned lock_turn; /* counts the lock calls of the hot regime, to time one in PRELOAD_LOCK_EVERY */
	uint64_t lock_last; /* preload_ticks() at the end of its last timed lock wait */
};

/* A thread whose lock calls keep contending, close together (lock_hot >= PRELOAD_LOCK_HOT: a
 * failed try that follows the thread's last timed wait within PRELOAD_LOCK_NEAR x 2 us adds 4, a
 * successful try takes 1) calls the real lock directly and looks at one call in
 * PRELOAD_LOCK_EVERY, whose try and timed wait stand for that many: a failed trylock before each
 * contended lock costs another access to the lock's line, and timing each one two counter reads
 * (their cost and timing every call's: bench/results/design-measurements.md, lock-regime). A
 * successful try cools the regime
 * down; a looked-at wait longer than PRELOAD_LOCK_LONG x 2 us counts once and ends it (waits
 * that long are not many alike: the estimate would be one wait times 8). Contention that is not
 * close together never heats: GNU sort's merges, whose few lock waits are heavy-tailed (a merge
 * holds its node's lock for ms), read about twice the mutex waits an inner wrapper measured in
 * about one run in three while the regime heated on any two failed tries (lock-regime). */
#define PRELOAD_LOCK_HOT 8
#define PRELOAD_LOCK_EVERY 8
#define PRELOAD_LOCK_SHORT_NS 2000
#define PRELOAD_LOCK_NEAR 10
#define PRELOAD_LOCK_LONG 25

/* Names shared by the library's files only: hidden, so that calls between them are direct (no
 * PLT, no interposition) and nothing of ours enters the program's namespace. */
#define PRELOAD_HIDDEN __attribute__((visibility("hidden")))

/* PRELOAD_LOCK_SHORT_NS in preload_ticks() ticks, by the counter's rate over this process's run
 * so far (2 x PRELOAD_LOCK_SHORT_NS, at most 4 ticks a ns, until 1 ms of it has passed). */
uint64_t preload_lock_short_ticks(void) PRELOAD_HIDDEN;

/* Set while the calling thread is inside a timed wait (a wrapper, an OMPT wait): calls made
 * from there (glibc calling its own exported names, an OpenMP runtime yielding while it waits
 * at a barrier) are not counted twice. */
extern __thread int preload_inside __attribute__((tls_model("initial-exec"))) PRELOAD_HIDDEN;
/* The calling thread's account once it has one (preload_self() makes it), else NULL. */
extern __thread struct preload_thread *preload_me __attribute__((tls_model("initial-exec"))) PRELOAD_HIDDEN;
/* 1 when preload_ticks() reads the CPU's counter (x86 TSC with the invariant bit of CPUID
 * 0x80000007, the ARM generic timer), 0 when it reads CLOCK_MONOTONIC. */
extern int preload_counter PRELOAD_HIDDEN;

uint64_t preload_now_ns(void) PRELOAD_HIDDEN;
/* preload_ticks() when the last outermost OpenMP parallel region ended (the master's end of it);
 * a worker's end-of-region barrier wait is barrier up to it and idle after it. */
extern uint64_t preload_region_end PRELOAD_HIDDEN;

/* The clock of the wrappers' waits, in ticks: a read of the CPU's counter costs a fraction of a
 * clock_gettime (bench/results/design-measurements.md, tick-clock), which matters on every contended
 * lock. The record converts ticks to ns with the ratio of the counter to CLOCK_MONOTONIC
 * measured over this process's own run (preload.c), never a constant; where there is no usable
 * counter a tick is a ns of CLOCK_MONOTONIC. */
static inline uint64_t preload_ticks(void)
{
#if defined(__x86_64__)
	if (preload_counter) {
		unsigned lo, hi;
		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		return (uint64_t)hi << 32 | lo;
	}
#elif defined(__aarch64__)
	if (preload_counter) {
		uint64_t v;
		__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v));
		return v;
	}
#endif
	return preload_now_ns();
}

/* ns per tick of preload_ticks() over this process's run so far (1 when ticks are ns), as the
 * record converts them. */
double preload_ns_per_tick(void) PRELOAD_HIDDEN;

/* The calling thread's account, made on first use (threads the wrappers did not start too). NULL
 * when the table is full or the library is off (no $ARCHSCOPE_STACK_DIR). */
struct preload_thread *preload_self(void) PRELOAD_HIDDEN;
/* The account a wait of the calling thread is charged to: NULL inside another wait or when
 * off. The hot path is two thread-local loads. */
static inline struct preload_thread *preload_counted(void)
{
	if (preload_inside)
		return NULL;
	return preload_me ? preload_me : preload_self();
}
/* A fresh account for a thread about to be created; NULL when the table is full or the library
 * is off. The new thread calls preload_thread_begin() on it first thing. */
struct preload_thread *preload_thread_new(void) PRELOAD_HIDDEN;
void preload_thread_begin(struct preload_thread *t) PRELOAD_HIDDEN;
/* Adds one wait of `ticks` (preload_ticks()) to account t for prim, at call site addr. */
void preload_account(struct preload_thread *t, int prim, uint64_t ticks, uintptr_t addr) PRELOAD_HIDDEN;
/* Adds `calls` waits of `ticks` in all (a sampled wait standing for several). */
void preload_account_n(struct preload_thread *t, int prim, uint64_t ticks, uintptr_t addr, uint64_t calls) PRELOAD_HIDDEN;
/* Closes the calling thread's account: end time and schedstat. */
void preload_thread_end(struct preload_thread *t) PRELOAD_HIDDEN;
/* The k-th executable segment of a module dlclose unloaded (unloaded.c): 1 and its mapping, or 0
 * past the last. */
int preload_unloaded(size_t k, uint64_t *start, uint64_t *end, uint64_t *off, const char **path) PRELOAD_HIDDEN;
/* The real function behind a wrapped name (dlsym RTLD_NEXT). */
void *preload_real(const char *name) PRELOAD_HIDDEN;
/* In a wrapper of name: real_, the real function, found once. */
#define REAL(name)                                                                                 \
	static __typeof__(name) *real_;                                                            \
	if (!real_)                                                                                \
		real_ = (__typeof__(name) *)preload_real(#name)

/* Runtime waits (OpenMP through OMPT or libgomp's entry points, MPI): begin pushes a wait of the
 * calling thread (counted unless it is inside another wait) and sets preload_inside, so the
 * runtime's own calls inside it are not counted again; end pops and charges it; task_enter
 * pauses the wait below (a task run inside a barrier is work), task_leave resumes it. All do
 * nothing when t is NULL. */
void preload_rt_begin(struct preload_thread *t, int prim, uintptr_t site, int split) PRELOAD_HIDDEN;
void preload_rt_end(struct preload_thread *t) PRELOAD_HIDDEN;
void preload_rt_task_enter(struct preload_thread *t) PRELOAD_HIDDEN;
void preload_rt_task_leave(struct preload_thread *t) PRELOAD_HIDDEN;
/* Charges the waits still open in t up to `now` (a thread or process ending inside them). */
void preload_rt_close(struct preload_thread *t, uint64_t now) PRELOAD_HIDDEN;
/* Writes this process image's record now (exit, _exit, exec). final: the threads' accounts are
 * closed for good (else only the record shows them ended). Not in a vfork child. */
void preload_record_write(int final) PRELOAD_HIDDEN;
/* Writes this image's record (preload_record_write(0)) for an exec, and in buf (capacity cap) the
 * SCALE_ENV_EXEC=... entry for the new image; buf[0] = 0 when there is none (not recording, a
 * vfork child). */
void preload_exec_prepare(char *buf, size_t cap) PRELOAD_HIDDEN;

/* Virtual speedups of `whatif` (whatif.c; nothing unless $ARCHSCOPE_WHATIF is set): whatif_on is
 * set once its shared file is mapped. pay: the calling thread pauses for the delay it owes (before
 * it wakes another thread, blocks, or ends); block/unblock bracket a wait, after which the thread
 * is credited the delay inserted meanwhile when credit (another thread ended the wait). */
extern int whatif_on PRELOAD_HIDDEN;
void whatif_init(void) PRELOAD_HIDDEN;
void whatif_pay(void) PRELOAD_HIDDEN;
void whatif_block(void) PRELOAD_HIDDEN;
void whatif_unblock(int credit) PRELOAD_HIDDEN;
void whatif_thread_start(void) PRELOAD_HIDDEN;
void whatif_thread_stop(void) PRELOAD_HIDDEN;
void whatif_atfork_child(void) PRELOAD_HIDDEN;
/* Profile mode: writes this image's samples (dir/wif.PID.START); at every end of an image. */
void whatif_write(const char *dir, int pid, unsigned long long start_ns) PRELOAD_HIDDEN;

/* Begin/end of a timed wait of the wrappers; begin returns 0 when this call is not counted. The
 * counter of another core may read a little behind (a thread moved during its wait): such a
 * difference counts as 0. */
static inline uint64_t preload_wait_begin(void)
{
	if (!preload_counted())
		return 0;
	preload_inside = 1;
	if (whatif_on) {
		whatif_pay();
		whatif_block();
	}
	return preload_ticks();
}

static inline void preload_wait_end(int prim, uint64_t t0, void *site)
{
	if (!t0)
		return;
	uint64_t t1 = preload_ticks();
	preload_account(preload_me, prim, t1 > t0 ? t1 - t0 : 0, (uintptr_t)site);
	preload_inside = 0;
	if (whatif_on)
		whatif_unblock(prim != PRIM_SLEEP && prim != PRIM_YIELD);
}

#endif
