/* The c2c probe (BlackjackBench §3.1.4): one-way bandwidth and latency between every pair of a
 * list of CPUs, the matrices they make, and the locality tree of cliques of CPUs that communicate
 * faster with each other. The all-pairs sweep takes any CPU list (a command measuring between
 * NUMA nodes passes one CPU per node). */
#ifndef ARCHSCOPE_PROBE_C2C_H
#define ARCHSCOPE_PROBE_C2C_H

#include <stddef.h>

#include "analysis/clique.h"
#include "common/cpuset.h"
#include "common/error.h"
#include "probe/memory.h"
#include "probe/plan.h"
#include "probe/probe.h"

#define PROBE_C2C_MAX_CPUS 256    /* the probe measures the first 256 allowed CPUs */
#define PROBE_C2C_MAX_BLOCKS 16

/* One-way bandwidth (GB/s) between two pinned threads taking turns updating a block of
 * block_bytes first touched by the thread on cpu a; best and median of the repetitions. */
int probe_c2c_bandwidth(const struct probe_opts *o, int a, int b, size_t block_bytes, double *best_gbs,
			double *median_gbs, struct as_error *err);
/* One-way latency (ns) of a cache line bounced between cpu a and cpu b. */
int probe_c2c_latency(const struct probe_opts *o, int a, int b, double *best_ns, double *median_ns,
		      struct as_error *err);

/* The matrices of an all-pairs sweep, n = cpus.n. Both are symmetric, 0 on the diagonal and
 * where a pair was not measured (stopped early). */
struct probe_c2c_matrix {
	struct as_cpulist cpus;        /* index i of the matrices is cpus.cpu[i] */
	int nblocks;
	size_t block_bytes[PROBE_C2C_MAX_BLOCKS]; /* increasing */
	double *bandwidth_gbs;         /* [(k * n + i) * n + j]: one-way GB/s between i and j with
					* blocks of block_bytes[k], best of the repetitions */
	double *latency_ns;            /* [i * n + j]: one-way latency of a cache line, best */
	int concurrent_pairs;          /* pairs measured at once in a round (n / 2; fewer for large
					* blocks, whose pairs go in batches that fit in memory) */
};

static inline double probe_c2c_bw(const struct probe_c2c_matrix *m, int k, int i, int j)
{
	size_t n = (size_t)m->cpus.n;
	return m->bandwidth_gbs[((size_t)k * n + (size_t)i) * n + (size_t)j];
}

static inline double probe_c2c_lat(const struct probe_c2c_matrix *m, int i, int j)
{
	return m->latency_ns[(size_t)i * (size_t)m->cpus.n + (size_t)j];
}

/* The round-robin schedule of the sweep (circle method): probe_c2c_rounds(n) rounds (n - 1 for
 * n even, n for n odd), each a set of disjoint pairs of indices 0..n-1 (i < j), every pair in
 * exactly one round. probe_c2c_round fills pairs[0..k) for round `round` and returns k (n / 2
 * at most; 0 for a round out of range). */
int probe_c2c_rounds(int n);
int probe_c2c_round(int n, int round, int (*pairs)[2]);

void probe_c2c_matrix_init(struct probe_c2c_matrix *m);
void probe_c2c_matrix_release(struct probe_c2c_matrix *m);

/* The all-pairs sweep: for every pair of the CPUs in cpus (two or more; the matrices take
 * nblocks x n x n doubles), the bandwidth at each of nblocks (0..PROBE_C2C_MAX_BLOCKS) block
 * sizes, then the latency, in probe_c2c_rounds(n) rounds whose disjoint pairs run at once (each
 * pair's figures are measured while the other pairs of its round run); o->progress before each measurement, o->stop ends it early. *out is
 * initialised here; release it also after an error. Returns 0 or a negative errno (err says
 * what failed). */
int probe_c2c_sweep(const struct probe_opts *o, const struct as_cpulist *cpus, const size_t *block_bytes, int nblocks,
		    struct probe_c2c_matrix *out, struct as_error *err);

/* The locality tree of a sweep: clique splitting (gap 1.25) from the largest block's matrix
 * down, as the paper orders them. NULL when it cannot be built (no memory, bad input); free()
 * it. */
struct clique_tree *probe_c2c_tree(const struct probe_c2c_matrix *m);

/* The block size whose matrix split tree node `node` off its parent (0 for the root). */
size_t probe_c2c_split_bytes(const struct probe_c2c_matrix *m, const struct clique_tree *t, int node);

struct probe_c2c_result {
	int allowed;                   /* CPUs allowed; fewer than two: nothing measured (m.cpus.n 0) */
	struct probe_c2c_matrix m;
	struct clique_tree *tree;      /* NULL: none */
	struct probe_c2c_plan plan;    /* the classes of pairs and which pairs were measured (n 0:
					* none ran) */
	int all_pairs;                 /* every pair measured (--all-pairs), each with its own figures */
	int all_pairs_chosen;          /* ... without --all-pairs: predicted to take less time than by
					* class (a small machine) */
	int rounds;                    /* rounds of pairs on disjoint cores run */
	int steps;                     /* measurement steps (one block size or the latency, a round) */
	int skipped;                   /* block sizes of a pair not measured: its class's curve had
					* settled (three sizes within 10 %) and its largest block agreed */
	int backfilled;                /* block sizes measured after all: the largest block disagreed */
	double step_s[PROBE_C2C_MAX_BLOCKS + 1]; /* wall seconds per block size over all rounds;
						  * [nblocks]: the latency */
};

/* What measures a step: np pairs on disjoint cores at once, CPUs a[p] and b[p]; block_bytes > 0:
 * one-way GB/s of each pair into value[p]; 0: one-way latency in ns. The probe's threads, or a
 * model of a machine in the unit tests. Returns 0 or a negative errno (err says what failed). */
struct probe_c2c_backend {
	int (*measure)(void *ctx, const int *a, const int *b, int np, size_t block_bytes, double *value,
		       struct as_error *err);
	void *ctx;
};

/* c2c by class (all_pairs 0): the classes of probe_c2c_plan_init on topology t (NULL: one class),
 * their samples and verifying pairs in rounds (every pair where probe_c2c_plan_start predicts
 * that to take less time), finer classes where pairs disagree, the matrices
 * filled by class; a pair skips the block sizes where its class's curve has settled
 * (probe_c2c_plan_settled) unless its largest block then disagrees by more than 10 %. With
 * all_pairs, every pair in the round-robin rounds of probe_c2c_sweep, each with its own figures.
 * Measures through be (NULL: the probe's threads). *out is initialised here (allowed stays 0);
 * release it also after an error. 0 (also when stopped: the pairs not reached stay 0) or a
 * negative errno. */
int probe_c2c_run(const struct probe_opts *o, const struct topo *t, const struct as_cpulist *cpus,
		  const size_t *block_bytes, int nblocks, int all_pairs, const struct probe_c2c_backend *be,
		  struct probe_c2c_result *out, struct as_error *err);

void probe_c2c_result_init(struct probe_c2c_result *r);
void probe_c2c_result_release(struct probe_c2c_result *r);

struct machine_probes;

/* Measures the first PROBE_C2C_MAX_CPUS allowed CPUs with probe_c2c_run (by class, on env->topo;
 * every pair with env->all_pairs) and blocks from below any L1 to past the last level: 4 KiB x 4^k
 * (x 16^k with env->quick) up to 4x env's last level (64 MiB when no level was measured), at most
 * 256 MiB; then answers into rec (probe_c2c_analyze). With fewer than two allowed CPUs measures
 * nothing (c2c null in rec) and returns 0. *work is initialised here; release it also after an
 * error (rec then left as it was). Returns 0 (also when interrupted: the pairs not reached stay 0)
 * or a negative errno. */
int probe_c2c_find(struct probe_env *env, probe_progress_fn *progress, struct probe_c2c_result *work,
		   struct machine_probes *rec, struct as_error *err);

/* The answers of a run (probe_c2c_run) into the c2c group of rec (what it held before released):
 * the locality tree (built here into work->tree when there is none), the latency matrix and the
 * largest block's bandwidth matrix with NAN (null) on the diagonal, the classes the matrices were
 * filled by (those split into finer ones left out), every pair measured with its own figures, each
 * block's matrix and the steps' wall time; c2c null when work measured no CPUs. 0 or -ENOMEM
 * (what was written stays, freed with the record). */
int probe_c2c_analyze(struct probe_c2c_result *work, struct machine_probes *rec);

#endif
