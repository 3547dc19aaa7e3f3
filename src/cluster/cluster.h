/* The cluster module (Servet, cited by BlackjackBench §2; OSU Micro-Benchmarks, mpiGraph, netgauge),
 * on Open MPI: where each rank runs, the nodes compared by the quick probes, rank-pair sweeps in
 * rounds of disjoint pairs (latency, bandwidth, mpiGraph's shift pattern, sizes), layers from the
 * matrices, LogGP per layer by netgauge's PRTT method, and contention. Built only when Open MPI is
 * found: only the archscope-cluster executable links it. Collective calls take the world
 * communicator and must be made by every rank in the same order; library code never prints. */
#ifndef ARCHSCOPE_CLUSTER_CLUSTER_H
#define ARCHSCOPE_CLUSTER_CLUSTER_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "common/conditions.h"
#include "common/cpuset.h"
#include "common/error.h"
#include "cluster/figures.h"

#define CLUSTER_HOST_MAX 64
#define CLUSTER_MAX_RANKS AS_MAX_CPUS   /* P x P matrices on rank 0 (8 MiB each at 1,024); rank lists are as_cpulists */
#define CLUSTER_MASK_WORDS (AS_MAX_CPUS / 64)
#define CLUSTER_MAX_LEVELS 8
#define CLUSTER_MAX_SIZES 16

/* --- placement (place.c) ------------------------------------------------------------------- */

/* One rank as it describes itself; gathered so that every rank holds every rank's. */
struct cluster_rank {
	int rank;
	int node;                /* its node's index: nodes numbered in the order of their lowest rank */
	int node_rank;           /* its place among the ranks of its node (0: the leader) */
	int numa_node;           /* the NUMA node holding all its CPUs (hwloc); -1: they span several or none is known */
	int pmu;                 /* 1: perf_event_open of the instructions counter works there */
	int online_cpus;         /* CPUs its machine has online */
	uint64_t cpumask[CLUSTER_MASK_WORDS]; /* the CPUs it may run on (sched_getaffinity) */
	uint64_t digest;         /* FNV-1a of the executable it runs (0: unreadable) */
	char host[CLUSTER_HOST_MAX];   /* MPI_Get_processor_name */
	char boot_id[40];        /* the kernel's boot id: namespaces of one machine share it */
	char version[24];        /* ARCHSCOPE_VERSION of its executable */
};

struct cluster_place {
	int size, rank;          /* of the world communicator */
	int nnodes;
	struct cluster_rank *ranks;  /* [size], on every rank */
	int *leader;             /* [nnodes]: each node's lowest rank */
	int *node_size;          /* [nnodes]: ranks per node */
	MPI_Comm node_comm;      /* the ranks of this rank's node (MPI_COMM_TYPE_SHARED) */
};

/* Collective: this rank's host, CPUs, NUMA node (hwloc), PMU, version and executable digest, the
 * node split by MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), and everybody's of it all. 0 or
 * -errno; an MPI failure is -EIO. */
int cluster_place_init(struct cluster_place *p, MPI_Comm world, const char *version, struct as_error *err);
void cluster_place_release(struct cluster_place *p);
/* The rank's CPU set as a list. */
void cluster_rank_cpus(const struct cluster_rank *r, struct as_cpulist *out);
/* The ranks whose version or executable differs from rank 0's: 0 when all agree, else their
 * number, with the first one in *first (for the message). */
int cluster_place_mismatch(const struct cluster_place *p, int *first);
/* Two ranks of different nodes on one machine (same boot id) pinned to the same single CPU: a
 * busy-polling MPI then answers only when the scheduler's tick preempts the other (the 4 ms seen
 * between namespace nodes under Open MPI's default binding). 1 with the pair in *a, *b; else 0. */
int cluster_place_shared_cpu(const struct cluster_place *p, int *a, int *b);
/* The most ranks sharing one machine (boot id) and the CPUs their sets cover together; a machine
 * with more ranks than CPUs is oversubscribed. Returns ranks - cpus of the worst machine (<= 0:
 * none is). */
int cluster_place_oversubscribed(const struct cluster_place *p, int *ranks, int *cpus);

/* --- the round schedule (sched.c; pure) ------------------------------------------------------ */

/* Rounds of the round-robin tournament (circle method) over p ranks: p - 1 for even p, p for odd
 * p (one rank sits out each round). Every pair meets exactly once; no rank is in two pairs of a
 * round. */
int cluster_rounds(int p);
/* The partner of rank i in round r, or -1 when i sits out. */
int cluster_round_partner(int p, int r, int i);

/* --- measurements between ranks (sweep.c) --------------------------------------------- */

/* Where a run stands, for the signal handler of rank 0 that names what was going on when mpirun
 * ended the run (a rank died, or Ctrl-C). Written only by rank 0. */
struct cluster_status {
	const char *volatile phase;     /* static text */
	volatile int step, steps;       /* 1-based step of the phase */
	volatile int peer;              /* rank 0's partner in this step, -1 none */
	volatile int waiting;           /* 1 while rank 0 collects the step's records */
	unsigned char *volatile answered;   /* [size]: sent its record of this step */
};

struct cluster_opts {
	int reps;                /* timed ping-pongs per pair and size */
	size_t bw_bytes;         /* message size of the bandwidth runs */
	int window;              /* messages in flight (osu_bw's window) */
	int bursts;              /* windows timed per pair and direction; the median counts */
	int one_pair;            /* 1: the pairs of a round one after another, not at once */
	/* rank 0: before each step; may be NULL */
	void (*progress)(void *arg, const char *phase, int step, int steps);
	/* rank 0: after each step's records are in; may be NULL */
	void (*step_done)(void *arg, const char *phase, int step, int steps);
	void *arg;
	struct cluster_status *status;   /* rank 0; may be NULL */
	/* rank 0: [size x size] the relative spread, (max - min) / median, of each bandwidth
	 * direction's windows (cluster/slow.h's threshold); may be NULL */
	double *bw_spread;
	double *shift_spread;    /* the same of the shift's windows, at the receiver */
	/* every rank: the plan of the next bandwidth or shift sweep under a time budget
	 * (cluster_sweep_plan); NULL: every step */
	struct cluster_sweep_budget *budget;
};

/* A sweep under a time budget: its steps in the order of cluster/budget.h (the floor first), run
 * while rank 0 finds that one more step, at the mean cost of those run, ends by the deadline. */
struct cluster_sweep_budget {
	int n, floor;            /* every rank: the steps in order[]; the floor */
	int *order;              /* every rank: [n] step indexes (cluster_sweep_plan allocates) */
	double deadline_s;       /* rank 0: on timer_now_ns()'s clock, in seconds */
	double t0_s;             /* rank 0: when the sweep's first step began */
	int ran;                 /* every rank: the steps run */
	int over;                /* rank 0: the floor alone ran past the deadline */
};

struct cluster_run {
	MPI_Comm comm;
	int rank, size;
	const struct cluster_opts *o;
	double *scratch;         /* internal */
};

/* Half round trips of an 8-byte (or `bytes`) ping-pong, every pair once, in the rounds of the
 * tournament: med and p99 [size x size] (rank 0; both triangles, NaN on the diagonal and where
 * not measured), in us. Collective. 0 or -errno. */
int cluster_sweep_latency(struct cluster_run *run, size_t bytes, double *med_us, double *p99_us, struct as_error *err);
/* The same under the phase name `phase` (progress, --raw's progress.txt): "latency again". */
int cluster_sweep_latency_as(struct cluster_run *run, const char *phase, size_t bytes, double *med_us, double *p99_us,
			     struct as_error *err);
/* Windowed bandwidth (osu_bw: `window` messages of bw_bytes in flight, then a short ack; the
 * median of `bursts` windows) of every pair in both directions, pairs in tournament rounds:
 * bw[i*size + j] from i to j in GB/s (rank 0). Collective. */
int cluster_sweep_bandwidth(struct cluster_run *run, double *bw_gbs, struct as_error *err);
/* mpiGraph's shift pattern: in step k every rank sends to rank + k and receives from rank - k at
 * once, size - 1 steps; bw[i*size + j] from i to j, measured at the receiver (rank 0). */
int cluster_sweep_shift(struct cluster_run *run, double *bw_gbs, struct as_error *err);

/* Collective: the order of the steps of the bandwidth sweep (shift 0: the tournament's steps) or
 * of the shift (1: its distances), by the layer class of the pairs each measures (cluster/
 * budget.h), computed on rank 0 from L (rank 0; NULL or no layers: one class) and sent to every
 * rank. b->deadline_s is left to the caller. 0 or -errno (-EIO: MPI). */
struct cluster_layers;
int cluster_sweep_plan(struct cluster_run *run, const struct cluster_layers *L, int shift, struct cluster_sweep_budget *b,
		       struct as_error *err);
void cluster_sweep_budget_release(struct cluster_sweep_budget *b);
/* The pairs (ordered: i to j) with a finite value in the p x p matrix m. */
int cluster_matrix_measured(const double *m, int p);

/* A wait that does not spin: MPI_Ibarrier tested with growing sleeps (up to 1 ms), so ranks with
 * nothing to do leave the CPUs to those measuring. */
int cluster_barrier_idle(MPI_Comm comm);
/* Waits for n requests the same way. 0 or -EIO. */
int cluster_wait_idle(MPI_Request *rq, int n);
/* Sets the p x p matrix m to NaN (m may be NULL). */
void cluster_matrix_clear(double *m, int p);

/* --- LogGP by netgauge's PRTT method (loggp.c) ------------------------------------------------ */

#define CLUSTER_PRTT_SIZES 5
/* What one pair's PRTT runs measured (all times in us, medians of the repetitions). */
struct cluster_prtt {
	int n;                   /* messages per PRTT(n, ., .) */
	double d_us;             /* the delay of PRTT(n, d, s) */
	int nsizes;
	size_t size[CLUSTER_PRTT_SIZES];        /* [0] the small size (8 B) */
	double prtt1_us[CLUSTER_PRTT_SIZES];    /* PRTT(1, 0, s) */
	double prttn_us[CLUSTER_PRTT_SIZES];    /* PRTT(n, 0, s) */
	double prttd_us;         /* PRTT(n, d, size[0]) */
	double o_s_us;           /* time in MPI_Send of a small message, sender side */
	double o_r_us;           /* time in MPI_Recv of a small message that has arrived */
};

struct cluster_loggp {
	int a, b;                /* the pair measured */
	double L_us, o_s_us, o_r_us, g_us, G_ns_per_byte;
	double o_prtt_us;        /* netgauge's o from PRTT(n, d, s): the sender's cost per message */
	double rtt_us;           /* PRTT(1, 0, 8 B) */
};

/* Collective: PRTT runs between ranks a and b, the others waiting (cluster_barrier_idle); the
 * figures on rank 0. reps: repetitions of each PRTT. */
int cluster_prtt_measure(struct cluster_run *run, int a, int b, int reps, struct cluster_prtt *out, struct as_error *err);
/* LogGP from PRTT figures (Hoefler et al.): g + (s-1)G = (PRTT(n,0,s) - PRTT(1,0,s)) / (n-1); G the
 * least-squares slope of that over the large sizes, g its value at the small size less (s-1)G;
 * o = (PRTT(n,d,s) - PRTT(1,0,s)) / (n-1) - d; L = PRTT(1,0,s)/2 - o_s - o_r - (s-1)G. Pure. */
void cluster_loggp_derive(const struct cluster_prtt *m, struct cluster_loggp *out);

/* --- point to point per message size, as the OSU micro-benchmarks (p2p.c) ---------------------- */

#define CLUSTER_P2P_MAX_SIZES 32
enum { CLUSTER_P2P_LATENCY, CLUSTER_P2P_BANDWIDTH };

struct cluster_p2p_point {
	size_t bytes;
	double latency_us;       /* osu_latency: mean half round trip */
	double bandwidth_gbs;    /* osu_bw: one direction, windows into one receive buffer */
	double bibandwidth_gbs;  /* osu_bibw: both directions at once, the sum */
	int lat_iters, bw_iters; /* timed iterations (round trips; windows) */
};

struct cluster_p2p {
	int a, b;                /* the pair: a initiates and sends in osu_bw */
	int window, full;        /* messages per window; 1: osu's own iteration counts */
	int n;
	struct cluster_p2p_point pt[CLUSTER_P2P_MAX_SIZES];
};

/* The warm-up (skip) and timed iterations of osu_latency (what = CLUSTER_P2P_LATENCY) or
 * osu_bw/osu_bibw at a message size: osu's own with full, else a tenth of them capped at 32 MiB
 * moved (at least 10 round trips, 2 windows). Pure. */
void cluster_p2p_counts(size_t bytes, int window, int full, int what, int *skip, int *iters);
/* Collective: osu_latency, osu_bw and osu_bibw between ranks a and b at each size (window:
 * run->o->window), the others waiting (cluster_barrier_idle); the figures on rank 0. */
int cluster_p2p_measure(struct cluster_run *run, int a, int b, const size_t *sizes, int n, int full, struct cluster_p2p *out,
			struct as_error *err);

/* --- collectives, as IMB-MPI1 and osu_allreduce measure them (coll.c), and their LogGP model
 * (collmodel.c; pure) ------------------------------------------------------------------------- */

#define CLUSTER_COLL_OPS(X)                                                                                \
	X(CLUSTER_COLL_BARRIER, "barrier", "dissemination")                                                    \
	X(CLUSTER_COLL_BCAST, "bcast", "binomial tree")                                                        \
	X(CLUSTER_COLL_REDUCE, "reduce", "binomial tree")                                                      \
	X(CLUSTER_COLL_ALLREDUCE, "allreduce", "recursive doubling")                                           \
	X(CLUSTER_COLL_ALLGATHER, "allgather", "ring")                                                         \
	X(CLUSTER_COLL_ALLTOALL, "alltoall", "pairwise exchange")
#define CLUSTER_COLL_X_ENUM(id, name, algo) id,
enum { CLUSTER_COLL_OPS(CLUSTER_COLL_X_ENUM) CLUSTER_COLL_NOPS };
/* The communicators: the whole job, one rank per node (the leaders), the ranks of rank 0's node. */
enum { CLUSTER_COMM_WORLD, CLUSTER_COMM_LEADERS, CLUSTER_COMM_NODE, CLUSTER_COMM_KINDS };

const char *cluster_coll_name(int op);
const char *cluster_coll_algorithm(int op);
const char *cluster_comm_name(int kind);

/* One collective at one size on one communicator: each rank's mean time per call over the timed
 * iterations, then the least, mean and most over the ranks (IMB's t_min, t_avg, t_max). */
struct cluster_coll {
	int comm;                /* CLUSTER_COMM_* */
	int ranks;               /* the communicator's size */
	int op;                  /* CLUSTER_COLL_* */
	size_t bytes;            /* the message (bcast, reduce, allreduce: the buffer; allgather, alltoall: each rank's block); 0: barrier */
	int iters;
	double t_min_us, t_avg_us, t_max_us;
	/* the model, filled by cluster_coll_model */
	int layer;               /* the layer whose LogGP it used (0-based), -1: none */
	double model_us;         /* NaN: no LogGP for that layer */
	double model_error;      /* model_us / t_max_us - 1: the last rank done is the collective done (a bcast root returns early) */
};

/* The warm-up and timed iterations of a collective at `bytes` on p ranks: 1 + 100 for small
 * messages, fewer as the bytes each rank moves per call grow (at least 1 + 5). Pure. */
void cluster_coll_counts(int op, size_t bytes, int p, int *skip, int *iters);
/* Collective (every rank of the world): the operations at each size (sizes of at least 4 B; the
 * barrier once) on each communicator of 2 ranks or more, one communicator and operation at a time,
 * the ranks outside it waiting asleep. out[] on rank 0; returns the count (<= max) or -errno. */
int cluster_coll_measure(struct cluster_run *run, const struct cluster_place *p, const size_t *sizes, int nsizes,
			 struct cluster_coll *out, int max, struct as_error *err);
/* The time of one point-to-point message of s bytes by LogGP: RTT/2 + (s - 8) G (G taken as 0 when
 * it is not positive), in us; NaN without an RTT. */
double cluster_loggp_message_us(const struct cluster_loggp *g, size_t s);
/* The model of a collective of op at `bytes` on p ranks from one LogGP (the algorithm of
 * cluster_coll_algorithm: dissemination barrier ceil(log2 p) messages of 0 B; binomial bcast and
 * reduce ceil(log2 p) rounds of one message; recursive-doubling allreduce ceil(log2 p) exchanges;
 * ring allgather and pairwise alltoall p - 1 rounds of one block), in us. Pure. */
double cluster_coll_predict(int op, int p, size_t bytes, const struct cluster_loggp *g);
/* The innermost layer (0-based) whose one group holds all n ranks, -1 when none does. Pure. */
struct cluster_layers;
int cluster_comm_layer(const struct cluster_layers *L, const int *ranks, int n);
/* Fills each row's model from the LogGP of its communicator's layer (layer_of[comm], -1: none;
 * loggp[layer] counts when its pair differs, a != b): model_us and model_error. Pure. */
void cluster_coll_model(struct cluster_coll *rows, int n, const int layer_of[CLUSTER_COMM_KINDS], const struct cluster_loggp *loggp,
			int nlayers);

/* --- layers (layers.c; pure) ----------------------------------------------------------------- */

#define CLUSTER_MAX_LAYERS 8

struct cluster_layer {
	int ngroups;
	int *group;              /* [size]: each rank's group in this layer (0..ngroups-1) */
	/* the pairs that first meet in this layer: in one group here, in different groups of the
	 * layer inside (for the innermost layer: in one group) */
	int npairs;
	double latency_us, latency_p99_us; /* medians over those pairs */
	double bandwidth_gbs;    /* median over those pairs, both directions */
	double shift_gbs;        /* same, all pairs at once (NaN: not measured) */
	int rep_a, rep_b;        /* a representative pair (the lowest ranks), -1 none */
};

/* A level of the pair latencies by QT clustering (BlackjackBench §4.2.3), beside the tree. */
struct cluster_level {
	double min_us, max_us;
	int pairs;
};

struct cluster_layers {
	int size, n;             /* ranks; layers from the innermost out (the last holds every rank) */
	struct cluster_layer layer[CLUSTER_MAX_LAYERS];
	char method[160];
	/* the latencies of all pairs in QT clusters of 25 % diameter, fastest first; -1: not
	 * clustered (more pairs than STEPS_QT_MAX_POINTS) */
	int nlevels;
	struct cluster_level level[2 * CLUSTER_MAX_LAYERS];
};

/* Layers of the locality tree (BlackjackBench §3.1.4, clique_tree_build, now across nodes) of the
 * matrices: cliques split first by 1 / latency, then by bandwidth (bw may be NULL), where the pair
 * values of a clique form two groups at least `gap` apart. More than CLIQUE_MAX_CORES ranks:
 * the layers are the nodes and all (node_of, which may be NULL, gives them). 0 or -ENOMEM / -EINVAL. */
int cluster_layers_build(int size, const double *lat_us, const double *p99_us, const double *bw_gbs,
			 const double *shift_gbs, const int *node_of, double gap, struct cluster_layers *out,
			 struct as_error *err);
void cluster_layers_release(struct cluster_layers *l);

/* --- contention (contention.c) ---------------------------------------------------------------- */

struct cluster_contention {
	int pairs_per_node;
	int npairs;              /* pairs sending at once in all */
	double bandwidth_gbs;    /* per pair: median over the pairs */
	double total_gbs;        /* per node pair: median over node pairs of the sum */
};

/* Collective. Nodes paired (0 with 1, 2 with 3, ...; one node: its ranks paired among
 * themselves); for k = 1, 2, 4, ... and the most pairs the nodes have, the first k ranks of each
 * node stream at once to the ranks of the same place on the other node. out[] on rank 0, one per
 * k; returns their count (0: no pair) or -errno. */
int cluster_contention_measure(struct cluster_run *run, const struct cluster_place *p, struct cluster_contention *out,
			       int max, struct as_error *err);

/* --- the nodes compared (node.c) -------------------------------------------------------------- */

/* CLUSTER_FIG_*: cluster/figures.h */

/* A node's figures as its leader measured them; plain data, sent to rank 0 as bytes. NaN where a
 * probe found nothing. Each figure has its own spread, the noise of its repetitions. */
struct cluster_node_fig {
	int measured;            /* CLUSTER_FIG_* that ran */
	int cpu;                 /* where the leader ran them */
	int cpus;                /* CPUs the leader may use */
	int pmu;
	uint64_t seed;
	double seconds;
	double clock_ghz, clock_spread;           /* spread: (fastest - median) / fastest */
	double line_bytes;
	int nlevels;
	double level_bytes[CLUSTER_MAX_LEVELS];
	double level_ns[CLUSTER_MAX_LEVELS], level_spread[CLUSTER_MAX_LEVELS]; /* (median - min) / min */
	double size_step;        /* relative resolution of the cache sizes (the size series' step) */
	double memory_ns, memory_spread;
	int nbw;
	char bw_level[CLUSTER_MAX_LEVELS + 1][12];
	size_t bw_bytes[CLUSTER_MAX_LEVELS + 1];
	double bw_gbs[CLUSTER_MAX_LEVELS + 1], bw_spread[CLUSTER_MAX_LEVELS + 1];
	double contexts[3];      /* fp, int, mem */
	char failed[200];        /* what failed, "" when nothing */
	struct conditions cond;  /* what the node's figures were measured in (common/conditions.h) */
};

struct cluster_node_opts {
	unsigned figures;        /* CLUSTER_FIG_* */
	int cpu;                 /* the CPU to pin to */
	size_t max_bytes;        /* largest buffer of the caches probe and the memory bandwidth run; 0: the probes' own */
	uint64_t seed;
	volatile int *stop;
};

/* Runs the quick probes of the figures asked for on the calling thread (pinned to o->cpu): the
 * clock, the caches (sizes, latencies, memory latency), bench's load kernel one thread per level,
 * contexts. Never collective. 0, or -errno with what ran kept in *out. */
int cluster_node_measure(const struct cluster_node_opts *o, struct cluster_node_fig *out, struct as_error *err);

/* One figure of the node table. */
struct cluster_figure {
	char name[40];           /* "clock", "L2 size", "MEM bandwidth", "cpus", ... */
	const char *unit;
	double value;
};
/* The figures of a node in a fixed order (the same names for every node): returns the count. */
int cluster_node_figures(const struct cluster_node_fig *f, struct cluster_figure *out, double *spread, int max);

struct cluster_outlier {
	int node;
	char figure[40];
	const char *unit;
	double value, median;
	double difference;       /* (value - median) / median */
	double noise;            /* the run's noise of this figure: the largest spread of a node's own repetitions */
};

/* Every node whose figure is off the nodes' median by more than the run's own noise of it (at
 * least `floor`, relative); *alike: groups of nodes whose figures all agree within that noise,
 * alike[node] = its group's lowest node (up to 256 nodes; beyond, each node its own). Returns the
 * number of outliers written (<= max). */
int cluster_nodes_compare(const struct cluster_node_fig *f, int n, double floor, struct cluster_outlier *out, int max,
			  int *alike);
/* The same where nodes may share a machine: machine[node] (cluster_nodes_machines; NULL: each
 * node its own) names it, and a node is judged against the median of the nodes on the other
 * machines only: nodes of one machine measured the same hardware, so what tells them apart is
 * each other's load, not the machine. Nodes all on one machine give no outliers of a measured
 * figure; counts (cpus: what the node was given) are compared node by node as before. */
int cluster_nodes_compare_machines(const struct cluster_node_fig *f, int n, const int *machine, double floor,
				   struct cluster_outlier *out, int max, int *alike);
/* Which nodes share a machine: machine[node] the lowest node whose leader has the same kernel
 * boot id (namespaces or containers of one kernel), shares_cpus[node] 1 when a rank of the node
 * may run on a CPU a rank of another node of that machine may run on. Both [p->nnodes]. */
void cluster_nodes_machines(const struct cluster_place *p, int *machine, int *shares_cpus);

#endif
