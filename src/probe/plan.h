/* The planner of a full probe: which pairs of CPUs c2c measures on a topology (classes of pairs
 * that share the same objects, a few pairs per class, a handful of pairs to verify them, finer
 * classes where measured pairs disagree), how they go into rounds of pairs on disjoint cores,
 * which team sizes contexts tries (doubling, then bisection), and the predicted time of each
 * group from step costs measured beforehand. Planning only: nothing here is timed, and no answer
 * comes from the topology; it only decides what to measure and how to fill what was not. */
#ifndef ARCHSCOPE_PROBE_PLAN_H
#define ARCHSCOPE_PROBE_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "common/cpuset.h"
#include "common/error.h"
#include "common/rng.h"
#include "topo/topo.h"

#define PROBE_PLAN_MAX_BLOCKS 16 /* = PROBE_C2C_MAX_BLOCKS */

/* --- c2c by topology class ------------------------------------------------------------------ */

/* Why a pair was measured. */
enum probe_c2c_role {
	PROBE_C2C_UNMEASURED,
	PROBE_C2C_SAMPLE,   /* one of the few pairs measured for its class */
	PROBE_C2C_VERIFY,   /* a random pair measured to check its class */
	PROBE_C2C_SPLIT,    /* measured for a finer class after its class's pairs disagreed */
	PROBE_C2C_ALL,      /* every pair (--all-pairs) */
};
const char *probe_c2c_role_name(enum probe_c2c_role r);

/* How far a class has been refined: the topology's class, then by the pair of packages, of NUMA
 * nodes, of last-level caches the two CPUs are in, and the pair itself. */
enum { PROBE_C2C_LEVEL_TOPOLOGY, PROBE_C2C_LEVEL_PACKAGES, PROBE_C2C_LEVEL_NODES, PROBE_C2C_LEVEL_LLC,
       PROBE_C2C_LEVEL_PAIR };

struct probe_c2c_class {
	char name[112];       /* topo_share_name(), then " [nodes 0,3]" etc. for finer classes */
	int level;            /* PROBE_C2C_LEVEL_* */
	int parent;           /* the class it was split from; -1 */
	int split;            /* split into finer classes: its pairs belong to those now */
	int npairs;           /* pairs of the class */
	int nmeasured;        /* of them measured */
	int unresolved;       /* its measured pairs disagree and the budget allowed no finer classes */
	/* Its figures: the median over its measured pairs (NAN where none measured that block). */
	double bw_gbs[PROBE_PLAN_MAX_BLOCKS];
	double lat_ns;
};

struct probe_c2c_plan {
	const struct topo *topo;      /* NULL: no topology (one class, "unknown") */
	int n;                        /* CPUs */
	int *cpu;                     /* [n] OS indices */
	const struct topo_pu **pu;    /* [n] NULL where the topology does not list the CPU */
	int npairs;                   /* n (n - 1) / 2; pair (i, j), i < j: probe_c2c_pair_index */
	int nblocks;
	size_t block_bytes[PROBE_PLAN_MAX_BLOCKS];
	int samples;                  /* pairs measured per class (fewer in a class that has fewer) */
	int verify;                   /* random pairs measured beside one per class to check them */
	int quick;
	const struct probe_plan_costs *costs; /* the time model of the rounds */
	size_t concurrent_bytes;      /* blocks of the pairs measured at once stay within it */
	double budget_s;              /* predicted seconds all rounds may take: what the probe's budget
				       * (probe_plan_budget_s) leaves after the other groups
				       * (probe_plan_rest_s), or where that is less than the first
				       * batch's, half of it more, at most 3 s (1 s quick); finer classes
				       * beyond it are not made */
	double spent_s;               /* predicted seconds of the rounds planned so far */
	double gap;                   /* pairs of a class agree when within this ratio (the tree's) */
	int *pair_class;              /* [npairs] */
	unsigned char *role;          /* [npairs] enum probe_c2c_role */
	double *bw;                   /* [npairs * nblocks] measured GB/s, NAN: not measured */
	double *lat;                  /* [npairs] measured ns, NAN: not measured */
	int nclasses;
	size_t cap;
	struct probe_c2c_class *cls;
	int rounds;                   /* rounds planned so far */
	int *core_key;                /* [n] the core each CPU is on (pairs of a round use disjoint
				       * cores); the CPU's own index where the topology says nothing */
	struct rng rng;
};

static inline int probe_c2c_pair_index(int n, int i, int j)
{
	return i * n - i * (i + 1) / 2 + (j - i - 1);
}
/* The CPUs (indices) of pair p. */
void probe_c2c_pair_of(int n, int p, int *i, int *j);

/* The classes of every pair of cpus (2 .. 256 CPUs) by what they share in t (NULL or a CPU it
 * does not list: class "unknown"), with nblocks block sizes. quick: 2 samples per class and 2
 * random pairs to verify, 3 and 4 otherwise. seed: which pairs are picked. The time model is
 * probe_plan_costs_default with blocks of at most 1 GiB (an eighth of t's memory) at once. *p is
 * initialised here; release it also after an error. 0, -EINVAL, -ENOMEM. */
int probe_c2c_plan_init(struct probe_c2c_plan *p, const struct topo *t, const struct as_cpulist *cpus,
			const size_t *block_bytes, int nblocks, int quick, uint64_t seed, struct as_error *err);
void probe_c2c_plan_release(struct probe_c2c_plan *p);

/* A set of pairs to measure, in rounds: pairs[k] is a pair index; round[k] its round (0-based,
 * counted from this batch); pairs of one round are on disjoint cores and run at once. */
struct probe_c2c_batch {
	int n, nrounds;
	size_t cap;
	int *pair;
	int *round;
};
void probe_c2c_batch_release(struct probe_c2c_batch *b);

/* The first batch: the samples of every class and the pairs that verify them (roles SAMPLE and
 * VERIFY). 0 or -ENOMEM. */
int probe_c2c_plan_first(struct probe_c2c_plan *p, struct probe_c2c_batch *out);

/* After the batch was measured (p->bw and p->lat hold its pairs' figures): the class figures,
 * and for every class whose measured pairs disagree (a pair more than p->gap from the class's
 * median at a block, or in latency), finer classes and their samples while the predicted time of
 * the rounds stays within p->budget_s (a class that cannot be split is marked unresolved). out
 * gets the next batch; out->n = 0: done. 0 or -ENOMEM. */
int probe_c2c_plan_next(struct probe_c2c_plan *p, struct probe_c2c_batch *out);

/* Every pair (--all-pairs): the round-robin schedule of probe_c2c_round, roles ALL. */
int probe_c2c_plan_all(struct probe_c2c_plan *p, struct probe_c2c_batch *out);

/* The predicted seconds of a batch's rounds (p->costs, p->concurrent_bytes). */
double probe_c2c_plan_batch_s(const struct probe_c2c_plan *p, const struct probe_c2c_batch *b);
/* The predicted seconds of every pair in round robin. */
double probe_c2c_plan_all_s(const struct probe_c2c_plan *p);

/* The first batch: probe_c2c_plan_first, or every pair (probe_c2c_plan_all) where that is
 * predicted to take less time (a small machine, whose pairs on disjoint cores need more rounds
 * than the round robin's disjoint CPUs); *all says which. 0 or -ENOMEM. */
int probe_c2c_plan_start(struct probe_c2c_plan *p, struct probe_c2c_batch *out, int *all);

/* The class's figure at block k: its median, or where no pair of it measured that block
 * (skipped where the curve had settled), interpolated in log(block) between its nearest
 * measured blocks. NAN when it has none. */
double probe_c2c_plan_class_bw(const struct probe_c2c_plan *p, int cls, int k);

/* Whether class cls's curve has settled before block k: its medians at the three blocks before
 * k were measured and are within 10 % of each other, and k is not the largest block (always
 * measured). A pair of a settled class skips block k. */
int probe_c2c_plan_settled(const struct probe_c2c_plan *p, int cls, int k);

/* Fills bw[(k * n + i) * n + j] (nblocks matrices) and lat[i * n + j] by class: every pair gets
 * its class's figures (probe_c2c_plan_class_bw; the class median latency); 0 on the diagonal. */
void probe_c2c_plan_fill(const struct probe_c2c_plan *p, double *bw, double *lat);

/* Pairs measured. */
int probe_c2c_plan_measured(const struct probe_c2c_plan *p);

/* --- the block sizes ------------------------------------------------------------------------ */

/* c2c's block sizes: 4 KiB x 4^k (x 16^k with quick) up to top_bytes, at most 256 MiB (64 MiB
 * with quick) and 16 sizes. Returns the count. */
int probe_c2c_blocks(size_t top_bytes, int quick, size_t *out);

/* --- contexts: team sizes ------------------------------------------------------------------- */

/* The search over team sizes M = 1 .. max: doubling M until the time normalised to M = 1 exceeds
 * 1.5 (or max is reached), then bisection between the last flat point (within 10 % of 1) and
 * the next measured one down to neighbours; an ambiguous point (above 1.1, below 1.3) is measured
 * again and the faster figure kept. next() says which M to measure after the points so far. */
struct probe_contexts_search {
	int max;
	int n;                        /* points so far, in the order measured */
	int m[64];
	double y[64];                 /* normalised time (fastest) */
	int remeasured[64];
	int done;
};
void probe_contexts_search_init(struct probe_contexts_search *s, int max);
/* The next team size to measure; 0 when the search is done. */
int probe_contexts_search_next(struct probe_contexts_search *s);
/* Records the normalised time y of team size m (the one next() gave). */
void probe_contexts_search_add(struct probe_contexts_search *s, int m, double y);

/* --- the whole probe ------------------------------------------------------------------------- */

/* What one step of a group costs, measured beforehand (bench/probe-plan.sh on the machine named
 * in source; probe_plan_costs_default). Seconds. */
struct probe_plan_costs {
	const char *source;                /* where and how they were measured */
	double group_s[2][10];             /* [quick][group] the groups that do not grow with the
					    * CPUs: clock line caches assoc tlb instr . registers
					    * timeslice . (the probe table's order; contexts and c2c 0) */
	double contexts_calib_s[2];        /* calibrating one thread's work, per kind */
	double contexts_thread_s;          /* starting and joining one thread, per repetition */
	double c2c_step_s[2][PROBE_PLAN_MAX_BLOCKS]; /* [quick][k] one pair, block 4 KiB x 4^k
					    * (x 16^k quick): calibration and repetitions; 0 beyond
					    * the sizes measured */
	double c2c_bytes_s[2];             /* per byte of block beyond the largest size measured */
	double c2c_latency_s[2];           /* the line ping-pong of one pair */
	double c2c_thread_s;               /* per thread started, per run of a step */
	int c2c_runs[2];                   /* runs of a step (calibration and repetitions) */
};
const struct probe_plan_costs *probe_plan_costs_default(void);

enum { PROBE_PLAN_MAX_STEPS = 12, PROBE_PLAN_MAX_TEAMS = 64 };

struct probe_plan_step {
	char group[12];
	int steps;                         /* measurement points (team sizes, c2c block steps, ...) */
	double seconds;                    /* predicted */
	char what[200];
};

struct probe_plan {
	int cpus;                          /* CPUs the probe would use (allowed, at most 256 for c2c) */
	int pus;                           /* hardware threads the topology lists */
	int quick;
	int nsteps;
	struct probe_plan_step step[PROBE_PLAN_MAX_STEPS];
	double predicted_s;
	/* contexts: the team sizes for one kind when the OS's hardware threads are the contexts
	 * and the time ramps past them; all_teams_steps: how many the full sweep 1 .. 2N + 2 would run */
	int teams, team[PROBE_PLAN_MAX_TEAMS], all_teams_steps;
	/* c2c: classes and the first batch (what runs when the classes hold) */
	struct probe_c2c_plan c2c;
	struct probe_c2c_batch c2c_batch;
	int c2c_all_pairs;                 /* every pair is planned: fewer predicted seconds */
	int c2c_all_pairs_rounds;          /* rounds of the full sweep, for comparison */
	double c2c_all_pairs_s;
	double contexts_all_teams_s;
	double predicted_all_s;            /* the full probe with --all-pairs and every team size */
	double predicted_max_s;            /* the full probe when c2c's classes disagree and finer
					    * ones take its whole budget (c2c.budget_s) */
	size_t llc_bytes;                  /* the largest cache the topology lists (sizes c2c's blocks) */
};

/* Plans a full probe (quick: --quick) of topology t on cpus (t's allowed CPUs when NULL) with
 * the step costs c (probe_plan_costs_default when NULL). *out is initialised here; release it
 * also after an error. 0, -EINVAL (fewer than one CPU), -ENOMEM. */
int probe_plan_make(const struct topo *t, const struct as_cpulist *cpus, int quick, uint64_t seed,
		    const struct probe_plan_costs *c, struct probe_plan *out, struct as_error *err);
void probe_plan_release(struct probe_plan *p);

/* The time a full probe may take (plan.c's budget): 30 s on 16 CPUs or fewer, 60 s on 128 or more,
 * in between in proportion; 10 s with quick. */
double probe_plan_budget_s(int quick, int cpus);
/* The predicted seconds of every group but c2c on that many CPUs (contexts' search as the plan
 * assumes it). */
double probe_plan_rest_s(const struct probe_plan_costs *c, int quick, int cpus);

/* The predicted seconds of one c2c step: np pairs at once with blocks of block_bytes (0: the
 * line ping-pong), in batches whose blocks stay within concurrent_bytes. */
double probe_plan_c2c_step_s(const struct probe_plan_costs *c, int quick, int k, size_t block_bytes, int np,
			     size_t concurrent_bytes);

#endif
