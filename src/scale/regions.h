/* The speedup stack of each region a program marks (`stack --regions`): the marker library
 * (measure/marker/) keeps, per region and thread, its time and the thread's CPU time, run-queue
 * time and the preload library's waits between the region's start and stop; this splits each
 * region's thread time into stack's components, per thread count. Pure; it never prints. */
#ifndef ARCHSCOPE_SCALE_REGIONS_H
#define ARCHSCOPE_SCALE_REGIONS_H

#include "measure/regions.h"

/* The components of a region's stack, as stack's (docs/archscope-stack.md), in this order. */
#define SCALE_REGION_PARTS(X)                                                                               \
	X(SRP_BASE, "base")                   /* running its own work */                                   \
	X(SRP_SPINNING, "spinning")           /* spin waits: pthread_spin, mpi */                          \
	X(SRP_YIELDING, "yielding")           /* blocking waits: mutex, cond, barrier, sleep, futex ... */ \
	X(SRP_SCHEDULING, "scheduling")       /* runnable, not running, outside the waits */               \
	X(SRP_BLOCKED_OTHER, "blocked_other") /* off the CPU outside every wrapped wait (I/O, pipes) */    \
	X(SRP_IMBALANCE, "imbalance")         /* waiting for other tasks: join, wait_child, poll ... */

#define SCALE_RP_ID(id, name) id,
enum scale_region_part { SCALE_REGION_PARTS(SCALE_RP_ID) SRP_COUNT };
extern const char *const scale_region_part_name[SRP_COUNT];

struct scale_region_stack {
	const char *name;            /* the region (points into the measure_regions) */
	int threads;                 /* the run's thread count N */
	int runs;                    /* runs at N that entered it */
	int region_threads;          /* threads that entered it (the most in one run) */
	double thread_s;             /* time inside it per run, summed over its threads (mean) */
	double share[SRP_COUNT];     /* each component's share of thread_s (0..1, summing to 1) */
	double wait_s[MARKER_STACK_MAX]; /* per run (mean), by the kinds of measure_regions.stack_name
					    (cpu, runq, then the waits per primitive) */
	int dominant;                /* the largest part but base, -1: none reaches 5 % */
};

struct scale_region_stacks {
	int n;
	struct scale_region_stack *rs; /* by thread count in the order of the runs, regions in order of first use */
	int without;                 /* region samples without a stack (the preload library not seen) */
};

/* The stacks of r's regions per thread count; run_threads[run] is run `run`'s thread count (runs
 * from 0 to nrun - 1; samples of other runs are left out). 0 or -ENOMEM. */
int scale_region_stacks_compute(const struct measure_regions *r, const int *run_threads, int nrun,
				struct scale_region_stacks *out);
void scale_region_stacks_release(struct scale_region_stacks *out);

#endif
