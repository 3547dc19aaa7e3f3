/* The NUMA matrices (thesis §4.4, the topology as adjacency matrices): for every pair (CPUs of
 * node i, memory of node j) the idle latency by pointer chase in two patterns (page-local, as the
 * probe's caches curve, and fully random), the bandwidth of one thread and of all CPUs of node i
 * by bench's streaming runner, and the firmware's SLIT beside them; measured here, or read back
 * from what `numa matrix --json` wrote. */
#ifndef ARCHSCOPE_NUMA_MATRIX_H
#define ARCHSCOPE_NUMA_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "numa/place.h"
#include "topo/topo.h"

struct numa_matrix {
	int n;                                   /* nodes */
	int node[NUMA_MAX_NODES];                /* OS node numbers, in topology order */
	int cpus[NUMA_MAX_NODES];                /* threads of the all-CPU run of node i */
	double latency_ns[NUMA_MAX_NODES][NUMA_MAX_NODES];        /* page-local pattern (the lines of each
								   * 4 KiB page one after another, pages in
								   * random order), fastest repetition;
								   * NAN: not measured */
	double latency_median_ns[NUMA_MAX_NODES][NUMA_MAX_NODES];
	double latency_random_ns[NUMA_MAX_NODES][NUMA_MAX_NODES]; /* fully random pattern (every line of the
								   * buffer in one random cycle) */
	double latency_random_median_ns[NUMA_MAX_NODES][NUMA_MAX_NODES];
	double bandwidth_gbs[NUMA_MAX_NODES][NUMA_MAX_NODES];     /* all CPUs of i, median, real bytes */
	double bandwidth_1thread_gbs[NUMA_MAX_NODES][NUMA_MAX_NODES];
	double slit[NUMA_MAX_NODES][NUMA_MAX_NODES];              /* NAN when the firmware gives none */
	double placed[NUMA_MAX_NODES][NUMA_MAX_NODES];            /* fraction of the chase's pages found on j */
	char kernel[32];                         /* the streaming kernel, "load-avx512" */
	int write_allocate;                      /* the kernel's stores read their line first */
	size_t latency_bytes, bandwidth_bytes;   /* working sets */
	double line_bytes;                       /* the chases' slot spacing */
	double bandwidth_huge_fraction;          /* the least share of a run's streams on huge pages (NAN: unknown) */
	int reps;                                /* bandwidth: repetitions of >= min_time_s, median */
	double min_time_s;
	uint64_t seed;
	unsigned char noisy[NUMA_MAX_NODES][NUMA_MAX_NODES]; /* bits 1 << what (0 page-local, 1 random
								 * latency, 2 one-thread, 3 all-CPU bandwidth):
								 * measured while other work disturbed it
								 * (common/conditions.h) */
	int noisy_count;                         /* measurements flagged noisy */
	char noisy_first[300];                   /* the first one's "node 0 reading node 1, latency: why" */
	int placement;                           /* memory was bound with libnuma */
	int complete;                            /* every pair measured (not interrupted) */
};

struct numa_matrix_opts {
	const char *kernel;        /* bench kernel name, "load" when NULL */
	size_t latency_bytes;      /* chase buffer; 0: 1 GiB */
	size_t bandwidth_bytes;    /* all streams of one run; 0: 1 GiB */
	size_t line_bytes;         /* slot spacing of the chases (the probed line); 0: 64 */
	int quick;                 /* fewer repetitions (bench's: 5 of >= 0.1 s, quick 3 of >= 0.05 s) */
	uint64_t seed;
	volatile int *stop;        /* set (by a signal): return the pairs measured so far */
	/* Before each measurement (may be NULL): pair i, j (indices), what ("latency", ...). */
	void (*progress)(void *arg, int i, int j, const char *what, int done, int total);
	void *arg;
};

/* Sets every figure to NAN (and the SLIT from t when t is not NULL) for t's nodes. */
void numa_matrix_init(struct numa_matrix *m, const struct topo *t);

/* Measures every pair of t's nodes (t is the running machine): the two latencies on huge pages
 * bound to node j from the first CPU of node i (page-local: the fastest of 3 passes on fresh
 * buffers, 2 quick; random: of 2, 1 quick), then bench_run of the kernel with bench's repetitions,
 * huge pages and stream offset, one thread on the first CPU of node i and a thread on every CPU
 * of node i (at most 64), the team started under a policy binding node j. Working sets above a quarter of
 * the available memory or of a node's memory are cut to it. 0, or a negative errno; a pair that
 * failed keeps NAN and the error says which. */
int numa_matrix_measure(struct numa_matrix *m, const struct topo *t, const struct numa_matrix_opts *o,
			struct as_error *err);

#define NUMA_MATRIX_MAX_BYTES ((size_t)16 << 20)

/* Reads a matrix back from `numa matrix --json` (the whole envelope or its "results"; through the
 * checked reader: a regular file or "-", text, at most NUMA_MATRIX_MAX_BYTES): nodes,
 * bandwidth_gbs and bandwidth_1thread_gbs n x n are required, latency_ns, latency_random_ns and
 * slit optional; a
 * wrong shape or a missing member is an error naming the file and the member. */
int numa_matrix_read(struct numa_matrix *m, const char *path, struct as_error *err);
/* The same from text in memory (name is used in messages). */
int numa_matrix_parse(struct numa_matrix *m, const char *text, const char *name, struct as_error *err);

/* Index of OS node `node` in m, or -1. */
int numa_matrix_index(const struct numa_matrix *m, int node);

#endif
