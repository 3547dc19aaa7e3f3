/* Private to the preload library (src/scale/preload/): the per-thread accounts the wrappers fill
 * and preload.c writes out. libc only; nothing here may change what the program sees. */
#ifndef ARCHSCOPE_SCALE_PRELOAD_PRELOAD_H
#define ARCHSCOPE_SCALE_PRELOAD_PRELOAD_H

#include <stdint.h>
#include <sys/types.h>

#include "scale/preload/record.h"

#define PRELOAD_THREADS_MAX 4096
#define PRELOAD_SITES 64 /* call sites kept per thread (open addressing; the rest are dropped) */

struct preload_site {
	uintptr_t addr; /* return address of the wrapped call; 0: free slot */
	int prim;
	uint64_t wait_ns, calls;
};

/* One thread's account; written by that thread only, read at exit. */
struct preload_thread {
	pid_t tid;
	int ended;
	uint64_t start_ns, end_ns;
	uint64_t run_ns, runq_ns; /* CPU time (thread CPU clock) and run-queue wait (schedstat): the
				     values at the start, then the differences at the end */
	int schedstat_ok;
	uint64_t wait_ns[PRIM_COUNT], calls[PRIM_COUNT];
	struct preload_site sites[PRELOAD_SITES];
	void *(*start_fn)(void *); /* what pthread_create was asked to run */
	void *start_arg;
};

/* Set while the calling thread is inside a timed wait (a wrapper, an OMPT wait): calls made
 * from there (glibc calling its own exported names, an OpenMP runtime yielding while it waits
 * at a barrier) are not counted twice. */
extern __thread int preload_inside __attribute__((tls_model("initial-exec")));

uint64_t preload_now_ns(void);
/* The calling thread's account, made on first use (threads the wrappers did not start too). NULL
 * when the table is full or the library is off (no $ARCHSCOPE_STACK_DIR). */
struct preload_thread *preload_self(void);
/* A fresh account for a thread about to be created; NULL when the table is full or the library
 * is off. The new thread calls preload_thread_begin() on it first thing. */
struct preload_thread *preload_thread_new(void);
void preload_thread_begin(struct preload_thread *t);
/* Adds one wait of ns to the calling thread's account for prim, at call site addr. */
void preload_account(int prim, uint64_t ns, uintptr_t addr);
/* Closes the calling thread's account: end time and schedstat. */
void preload_thread_end(struct preload_thread *t);
/* The real function behind a wrapped name (dlsym RTLD_NEXT). */
void *preload_real(const char *name);

#endif
