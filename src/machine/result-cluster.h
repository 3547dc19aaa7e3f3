/* The results of `archscope cluster` (cli/cluster/cmd-cluster-render*.c write them, every reader
 * finds them here): the placement, each node leader's quick probe figures and the outliers, the
 * layers with LogGP, the rank-by-rank matrices (row: from, column: to, null on the diagonal and
 * where not measured), contention, the time of each phase and the settings. */
#ifndef ARCHSCOPE_MACHINE_RESULT_CLUSTER_H
#define ARCHSCOPE_MACHINE_RESULT_CLUSTER_H

#include "machine/schema.h"

#define CLUSTER_RESULT_NODES(X)                                                                                  \
	X(CL_SIZE, CL_ROOT, INT, "size", "ranks", 0, "ranks in the run")                                             \
	X(CL_RANKS, CL_ROOT, ROWS, "ranks", "", 0, "one row per rank: where it ran")                                 \
	X(CL_RANK, CL_RANKS, INT, "rank", "", 0, "its rank in MPI_COMM_WORLD")                                       \
	X(CL_RANK_HOST, CL_RANKS, TEXT, "host", "", 0, "its host name")                                              \
	X(CL_RANK_NODE, CL_RANKS, INT, "node", "", 0, "its node (MPI_Comm_split_type, one kernel)")                  \
	X(CL_RANK_CPUS, CL_RANKS, INTS, "cpus", "", 0, "the CPUs it is bound to")                                    \
	X(CL_RANK_NUMA, CL_RANKS, INT, "numa_node", "", SCHEMA_NULL, "its NUMA node (null: several)")               \
	X(CL_NODES, CL_ROOT, ROWS, "nodes", "", 0, "one row per node, its leader's quick probe figures")             \
	X(CL_NODE, CL_NODES, INT, "node", "", 0, "the node")                                                         \
	X(CL_NODE_HOST, CL_NODES, TEXT, "host", "", 0, "its leader's host name")                                     \
	X(CL_NODE_LEADER, CL_NODES, INT, "leader", "", 0, "the rank that probed it")                                 \
	X(CL_NODE_RANKS, CL_NODES, INTS, "ranks", "", 0, "its ranks")                                                \
	X(CL_NODE_VERSION, CL_NODES, TEXT, "version", "", 0, "the archscope version its leader ran")                 \
	X(CL_NODE_PMU, CL_NODES, BOOL, "pmu", "", 0, "an instructions counter opens there")                          \
	X(CL_NODE_CPUS, CL_NODES, INT, "cpus", "CPUs", SCHEMA_OPT, "CPUs online (probed nodes only, as what follows)") \
	X(CL_NODE_CPU, CL_NODES, INT, "cpu", "", SCHEMA_OPT, "the CPU it probed on")                                 \
	X(CL_NODE_CLOCK, CL_NODES, NUMBER, "clock_ghz", "GHz", SCHEMA_OPT, "the core clock")                         \
	X(CL_NODE_LINE, CL_NODES, NUMBER, "line_bytes", "B", SCHEMA_OPT, "the cache line")                           \
	X(CL_NODE_CACHES, CL_NODES, ROWS, "caches", "", SCHEMA_OPT, "one row per cache level")                       \
	X(CL_CACHE_LEVEL, CL_NODE_CACHES, INT, "level", "", 0, "1, 2, ...")                                          \
	X(CL_CACHE_SIZE, CL_NODE_CACHES, NUMBER, "size_bytes", "B", 0, "its size")                                   \
	X(CL_CACHE_LATENCY, CL_NODE_CACHES, NUMBER, "latency_ns", "ns", 0, "its load-to-use latency")                \
	X(CL_NODE_MEMORY, CL_NODES, NUMBER, "memory_latency_ns", "ns", SCHEMA_OPT, "memory's latency")               \
	X(CL_NODE_BW, CL_NODES, ROWS, "bandwidth", "", SCHEMA_OPT, "the load kernel's bandwidth per level")          \
	X(CL_BW_LEVEL, CL_NODE_BW, TEXT, "level", "", 0, "the level (\"L1\" ... \"memory\")")                        \
	X(CL_BW_SIZE, CL_NODE_BW, INT, "size_bytes", "B", 0, "the working set")                                      \
	X(CL_BW_GBS, CL_NODE_BW, NUMBER, "gbs", "GB/s", 0, "the bandwidth")                                          \
	X(CL_NODE_CONTEXTS, CL_NODES, OBJECT, "contexts", "", SCHEMA_OPT, "hardware contexts per core found")         \
	X(CL_CONTEXTS_FP, CL_NODE_CONTEXTS, NUMBER, "fp", "", 0, "by floating-point work")                           \
	X(CL_CONTEXTS_INT, CL_NODE_CONTEXTS, NUMBER, "int", "", 0, "by integer work")                                \
	X(CL_CONTEXTS_MEM, CL_NODE_CONTEXTS, NUMBER, "mem", "", 0, "by memory work")                                 \
	X(CL_NODE_ALIKE, CL_NODES, INT, "alike", "", SCHEMA_OPT, "the first node it is alike (itself: none before)")  \
	X(CL_NODE_SECONDS, CL_NODES, NUMBER, "seconds", "s", SCHEMA_OPT, "the probes' time")                         \
	X(CL_NODE_FAILED, CL_NODES, TEXT, "failed", "", SCHEMA_OPT, "what failed")                                   \
	X(CL_NODE_COND, CL_NODES, REF, "conditions", "conditions", SCHEMA_OPT, "what the probes ran in")             \
	X(CL_NODE_NOISY, CL_NODES, BOOL, "noisy", "", SCHEMA_OPT, "the probes were disturbed")                       \
	X(CL_ALIKE, CL_ROOT, ROWS, "alike", "", SCHEMA_OPT, "groups of nodes alike (probed nodes only)")             \
	X(CL_ALIKE_NODES, CL_ALIKE, INTS, "nodes", "", 0, "the nodes of a group")                                    \
	X(CL_OUTLIERS, CL_ROOT, ROWS, "outliers", "", 0, "figures off the nodes' median by more than the noise")     \
	X(CL_OUT_NODE, CL_OUTLIERS, INT, "node", "", 0, "the node")                                                  \
	X(CL_OUT_HOST, CL_OUTLIERS, TEXT, "host", "", 0, "its leader's host name")                                   \
	X(CL_OUT_FIGURE, CL_OUTLIERS, TEXT, "figure", "", 0, "the figure")                                           \
	X(CL_OUT_VALUE, CL_OUTLIERS, NUMBER, "value", "", 0, "its value there (in unit)")                            \
	X(CL_OUT_MEDIAN, CL_OUTLIERS, NUMBER, "median", "", 0, "the nodes' median (in unit)")                        \
	X(CL_OUT_UNIT, CL_OUTLIERS, TEXT, "unit", "", 0, "the figure's unit")                                        \
	X(CL_OUT_DIFF, CL_OUTLIERS, NUMBER, "difference", "", 0, "value / median - 1")                               \
	X(CL_OUT_NOISE, CL_OUTLIERS, NUMBER, "noise", "", 0, "the run's noise of that figure (relative)")

#define CLUSTER_RESULT_LAYERS(X)                                                                                 \
	X(CL_LAYERS, CL_ROOT, ROWS, "layers", "", 0, "the layers of the network, innermost first")                   \
	X(CL_LAYER_GROUPS, CL_LAYERS, MATRIX, "groups", "", 0, "the ranks of each group")                            \
	X(CL_LAYER_PAIRS, CL_LAYERS, INT, "pairs", "", 0, "pairs of ranks whose innermost common group it is")       \
	X(CL_LAYER_LATENCY, CL_LAYERS, NUMBER, "latency_us", "us", 0, "median latency over its pairs")               \
	X(CL_LAYER_P99, CL_LAYERS, NUMBER, "latency_p99_us", "us", 0, "the 99th percentile")                         \
	X(CL_LAYER_BW, CL_LAYERS, NUMBER, "bandwidth_gbs", "GB/s", 0, "median bandwidth, a pair at a time")          \
	X(CL_LAYER_SHIFT, CL_LAYERS, NUMBER, "bandwidth_shift_gbs", "GB/s", 0, "the same with every rank at once")    \
	X(CL_LOGGP, CL_LAYERS, OBJECT, "loggp", "", SCHEMA_NULL, "LogGP of one pair (null: not measured)")           \
	X(CL_LOGGP_PAIR, CL_LOGGP, INTS, "pair", "", 0, "the two ranks")                                             \
	X(CL_LOGGP_L, CL_LOGGP, NUMBER, "L_us", "us", 0, "L, the latency")                                           \
	X(CL_LOGGP_OS, CL_LOGGP, NUMBER, "o_s_us", "us", 0, "o_s, the send overhead")                                \
	X(CL_LOGGP_OR, CL_LOGGP, NUMBER, "o_r_us", "us", 0, "o_r, the receive overhead")                             \
	X(CL_LOGGP_G, CL_LOGGP, NUMBER, "g_us", "us", 0, "g, the gap between messages")                              \
	X(CL_LOGGP_GB, CL_LOGGP, NUMBER, "G_ns_per_byte", "ns/B", 0, "G, the gap per byte")                          \
	X(CL_LOGGP_O_PRTT, CL_LOGGP, NUMBER, "o_prtt_us", "us", 0, "o from netgauge's PRTT method")                  \
	X(CL_LOGGP_RTT, CL_LOGGP, NUMBER, "rtt_us", "us", 0, "the round trip")                                       \
	X(CL_LEVELS, CL_ROOT, ROWS, "latency_levels", "", SCHEMA_OPT, "levels of the pair latencies, fastest first") \
	X(CL_LEVEL_MIN, CL_LEVELS, NUMBER, "min_us", "us", 0, "from")                                                \
	X(CL_LEVEL_MAX, CL_LEVELS, NUMBER, "max_us", "us", 0, "to")                                                  \
	X(CL_LEVEL_PAIRS, CL_LEVELS, INT, "pairs", "", 0, "pairs in it")

/* Point to point per message size, one pair per layer, by the OSU micro-benchmarks' methods. */
#define CLUSTER_RESULT_P2P(X)                                                                                    \
	X(CL_P2P, CL_ROOT, ROWS, "point_to_point", "", SCHEMA_OPT,                                                    \
	  "osu_latency, osu_bw and osu_bibw per message size, one pair per layer")                                     \
	X(CL_P2P_LAYER, CL_P2P, INT, "layer", "", 0, "the layer (1: innermost)")                                     \
	X(CL_P2P_PAIR, CL_P2P, INTS, "pair", "", 0, "the two ranks (the first sends in osu_bw)")                     \
	X(CL_P2P_WINDOW, CL_P2P, INT, "window", "messages", 0, "messages per window of osu_bw and osu_bibw")          \
	X(CL_P2P_COUNTS, CL_P2P, TEXT, "counts", "", 0, "\"osu\": osu's iteration counts; \"short\": a tenth, capped")   \
	X(CL_P2P_SIZES, CL_P2P, ROWS, "sizes", "", 0, "one row per message size")                                   \
	X(CL_P2P_BYTES, CL_P2P_SIZES, INT, "bytes", "B", 0, "the message size")                                     \
	X(CL_P2P_LATENCY, CL_P2P_SIZES, NUMBER, "latency_us", "us", 0, "osu_latency: mean half round trip")          \
	X(CL_P2P_BW, CL_P2P_SIZES, NUMBER, "bandwidth_gbs", "GB/s", 0, "osu_bw: one direction, windowed")            \
	X(CL_P2P_BIBW, CL_P2P_SIZES, NUMBER, "bibandwidth_gbs", "GB/s", 0, "osu_bibw: both directions, the sum")     \
	X(CL_P2P_LAT_ITERS, CL_P2P_SIZES, INT, "latency_iterations", "", 0, "timed round trips")                     \
	X(CL_P2P_BW_ITERS, CL_P2P_SIZES, INT, "bandwidth_windows", "", 0, "timed windows")

/* Collectives per communicator and size as IMB-MPI1 prints them, with the LogGP model beside each. */
#define CLUSTER_RESULT_COLLECTIVES(X)                                                                            \
	X(CL_COLL, CL_ROOT, ROWS, "collectives", "", SCHEMA_OPT, "one row per communicator, operation and size")     \
	X(CL_COLL_COMM, CL_COLL, TEXT, "communicator", "", 0, "\"world\", \"one rank per node\" or \"one node\"")     \
	X(CL_COLL_RANKS, CL_COLL, INT, "ranks", "ranks", 0, "the communicator's size")                              \
	X(CL_COLL_OP, CL_COLL, TEXT, "operation", "", 0, "barrier, bcast, reduce, allreduce, allgather, alltoall")    \
	X(CL_COLL_BYTES, CL_COLL, INT, "bytes", "B", 0, "the message (allgather, alltoall: each rank's block)")       \
	X(CL_COLL_ITERS, CL_COLL, INT, "iterations", "", 0, "timed calls per rank")                                  \
	X(CL_COLL_TMIN, CL_COLL, NUMBER, "t_min_us", "us", 0, "the least over ranks of a rank's mean time per call") \
	X(CL_COLL_TAVG, CL_COLL, NUMBER, "t_avg_us", "us", 0, "the mean over ranks")                                 \
	X(CL_COLL_TMAX, CL_COLL, NUMBER, "t_max_us", "us", 0, "the most over ranks")                                 \
	X(CL_COLL_ALGO, CL_COLL, TEXT, "model_algorithm", "", 0, "the algorithm the model counts the messages of")    \
	X(CL_COLL_LAYER, CL_COLL, INT, "model_layer", "", SCHEMA_NULL, "the layer whose LogGP it used (null: none)")  \
	X(CL_COLL_MODEL, CL_COLL, NUMBER, "model_us", "us", SCHEMA_NULL, "the model's time (null: no LogGP)")         \
	X(CL_COLL_ERROR, CL_COLL, NUMBER, "model_error", "", SCHEMA_NULL, "model_us / t_max_us - 1 (0.1: 10 % above)")

#define CLUSTER_RESULT_MATRICES(X)                                                                               \
	X(CL_LATENCY, CL_ROOT, MATRIX, "latency_us", "us", 0, "half the round trip of 8 B, median, rank by rank")     \
	X(CL_P99, CL_ROOT, MATRIX, "latency_p99_us", "us", 0, "the same, 99th percentile")                           \
	X(CL_BANDWIDTH, CL_ROOT, MATRIX, "bandwidth_gbs", "GB/s", SCHEMA_NULL,                                       \
	  "bandwidth from row to column, one pair at a time per rank (null: --skip bandwidth; a pair: not measured, --budget)")                        \
	X(CL_SHIFT, CL_ROOT, MATRIX, "bandwidth_shift_gbs", "GB/s", SCHEMA_OPT,                                      \
	  "bandwidth with every rank sending at once (mpiGraph's shift)")                                               \
	X(CL_SIZES, CL_ROOT, ROWS, "sizes", "", SCHEMA_OPT, "one row per message size of --sizes")                  \
	X(CL_SIZE_BYTES, CL_SIZES, INT, "bytes", "B", 0, "the message size")                                         \
	X(CL_SIZE_LATENCY, CL_SIZES, MATRIX, "latency_us", "us", 0, "half the round trip, rank by rank")             \
	X(CL_SIZE_BW, CL_SIZES, MATRIX, "bandwidth_gbs", "GB/s", 0, "the size over that latency")                    \
	X(CL_CONTENTION, CL_ROOT, ROWS, "contention", "", SCHEMA_OPT, "k pairs streaming at once")                   \
	X(CL_CONT_PER_NODE, CL_CONTENTION, INT, "pairs_per_node", "", 0, "k")                                        \
	X(CL_CONT_PAIRS, CL_CONTENTION, INT, "pairs", "", 0, "pairs in all")                                         \
	X(CL_CONT_BW, CL_CONTENTION, NUMBER, "bandwidth_gbs", "GB/s", 0, "per pair")                                 \
	X(CL_CONT_TOTAL, CL_CONTENTION, NUMBER, "total_gbs", "GB/s", 0, "per node pair")                             \
	X(CL_TIMING, CL_ROOT, ROWS, "timing", "", 0, "the time of each phase")                                       \
	X(CL_TIMING_PHASE, CL_TIMING, TEXT, "phase", "", 0, "the phase")                                             \
	X(CL_TIMING_STEPS, CL_TIMING, INT, "steps", "", 0, "its steps")                                              \
	X(CL_TIMING_SECONDS, CL_TIMING, NUMBER, "seconds", "s", 0, "its time")                                       \
	X(CL_TIMING_PER_STEP, CL_TIMING, NUMBER, "per_step_ms", "ms", 0, "per step")                                 \
	X(CL_SETTINGS, CL_ROOT, OBJECT, "settings", "", 0, "what the run was asked")                                 \
	X(CL_SET_REPS, CL_SETTINGS, INT, "reps", "", 0, "ping-pongs per pair")                                        \
	X(CL_SET_MESSAGE, CL_SETTINGS, INT, "message_bytes", "B", 0, "the bandwidth message")                        \
	X(CL_SET_WINDOW, CL_SETTINGS, INT, "window", "messages", 0, "messages in flight")                            \
	X(CL_SET_BURSTS, CL_SETTINGS, INT, "bursts", "", 0, "windows per pair")                                      \
	X(CL_SET_ONE_PAIR, CL_SETTINGS, BOOL, "one_pair", "", 0, "pairs one at a time")                              \
	X(CL_SET_GAP, CL_SETTINGS, NUMBER, "gap", "", 0, "the layer gap")                                            \
	X(CL_SET_SEED, CL_SETTINGS, INT, "seed", "", 0, "the seed of the schedule")                                  \
	X(CL_SET_SECONDS, CL_SETTINGS, NUMBER, "seconds", "s", 0, "the run's time")                                  \
	X(CL_WARNINGS, CL_ROOT, TEXTS, "warnings", "", SCHEMA_OPT, "what makes the matrices less certain")

/* Slow links and nodes (issue 50 item 3, cluster/slow.h), the nodes sharing a machine (item 4)
 * and the run's time at scale (item 6). */
#define CLUSTER_RESULT_SLOW(X)                                                                                   \
	X(CL_NODE_MACHINE, CL_NODES, INT, "machine", "", SCHEMA_OPT,                                                 \
	  "the first node on its machine (same kernel boot id); itself: none before")                                 \
	X(CL_NODE_SHARES_CPUS, CL_NODES, BOOL, "shares_cpus", "", SCHEMA_OPT,                                        \
	  "a rank of it may run on a CPU of another node of its machine")                                             \
	X(CL_SLOW, CL_ROOT, ROWS, "slow", "", SCHEMA_OPT,                                                            \
	  "pairs and nodes worse than their layer's median by more than the run's repetition spread")                 \
	X(CL_SLOW_RANKS, CL_SLOW, INTS, "ranks", "", 0, "the pair (bandwidth: from the first to the second), or a node's ranks") \
	X(CL_SLOW_HOSTS, CL_SLOW, TEXTS, "hosts", "", 0, "their hosts")                                              \
	X(CL_SLOW_NODE, CL_SLOW, INT, "node", "", SCHEMA_NULL, "the node (null: a pair)")                            \
	X(CL_SLOW_WHAT, CL_SLOW, TEXT, "what", "", 0,                                                                \
	  "latency, bandwidth (a pair); node latency, node sending, node receiving (a node's links)")                  \
	X(CL_SLOW_LAYER, CL_SLOW, INT, "layer", "", 0,                                                               \
	  "the layer of latency alone it was judged in, innermost 1 (layers[] may split one more by bandwidth)")        \
	X(CL_SLOW_VALUE, CL_SLOW, NUMBER, "value", "", 0, "the pair's figure, or the median of the node's links (in unit)") \
	X(CL_SLOW_MEDIAN, CL_SLOW, NUMBER, "layer_median", "", 0, "the layer's median (in unit)")                    \
	X(CL_SLOW_UNIT, CL_SLOW, TEXT, "unit", "", 0, "us or GB/s")                                                  \
	X(CL_SLOW_NOISE, CL_SLOW, NUMBER, "noise", "", 0,                                                            \
	  "the threshold, relative: latency the largest repetition spread of the layer's pairs, bandwidth the "        \
	  "median one")                                                                                                 \
	X(CL_SLOW_JUDGED, CL_ROOT, TEXTS, "slow_judged", "", SCHEMA_OPT,                                             \
	  "the figures judged for slow[]: those measured twice (latency: two sweeps; bandwidth: one pair at a time "   \
	  "and the shift), a pair named only when both find it slow")                                                   \
	X(CL_SLOW_COND, CL_ROOT, REF, "slow_conditions", "conditions", SCHEMA_OPT,                                   \
	  "what the sweeps behind slow[] ran in: the most disturbed machine, its ranks counted as its own")              \
	X(CL_SLOW_NOISY, CL_ROOT, BOOL, "slow_noisy", "", SCHEMA_OPT,                                                \
	  "the sweeps were disturbed: slow[] is a flagged verdict")                                                     \
	X(CL_SCALE, CL_ROOT, ROWS, "scale", "", SCHEMA_OPT, "this run's step costs at 16, 128 and 1,024 nodes, on paper") \
	X(CL_SCALE_NODES, CL_SCALE, INT, "nodes", "", 0, "nodes")                                                    \
	X(CL_SCALE_PER_NODE, CL_SCALE, INT, "ranks_per_node", "", 0, "ranks per node, as in this run")               \
	X(CL_SCALE_STEPS, CL_SCALE, INT, "steps", "", 0, "every phase's steps")                                      \
	X(CL_SCALE_SECONDS, CL_SCALE, NUMBER, "seconds", "s", 0, "their time at this run's cost per step")           \
	X(CL_SCALE_BUDGETED, CL_SCALE, NUMBER, "budgeted_seconds", "s", SCHEMA_OPT,                                  \
	  "the same under --budget: bandwidth and shift cut to what it leaves after nodes and latency (their floor at least)") \
	X(CL_BUDGET, CL_ROOT, ROWS, "budget", "", SCHEMA_OPT,                                                          \
	  "--budget: the sweeps that measured the pairs of some steps only, chosen per layer class")                    \
	X(CL_BUDGET_PHASE, CL_BUDGET, TEXT, "phase", "", 0, "bandwidth or shift")                                    \
	X(CL_BUDGET_SECONDS, CL_BUDGET, NUMBER, "budget_seconds", "s", 0, "the budget of the run up to the shift")   \
	X(CL_BUDGET_STEPS, CL_BUDGET, INT, "steps", "", 0, "steps run")                                              \
	X(CL_BUDGET_ALL_STEPS, CL_BUDGET, INT, "all_steps", "", 0, "the sweep's steps")                              \
	X(CL_BUDGET_FLOOR, CL_BUDGET, INT, "floor_steps", "", 0,                                                     \
	  "steps measuring 2 pairs of every layer class (all of a class with fewer), run whatever the budget")          \
	X(CL_BUDGET_PAIRS, CL_BUDGET, INT, "measured_pairs", "pairs", 0, "ordered pairs measured (the others null in its matrix)") \
	X(CL_BUDGET_ALL_PAIRS, CL_BUDGET, INT, "pairs", "pairs", 0, "ordered pairs of its matrix, P(P - 1)")         \
	X(CL_BUDGET_OVER, CL_BUDGET, BOOL, "over_budget", "", 0, "its floor alone ran past the budget")

#define CLUSTER_RESULT(X) CLUSTER_RESULT_NODES(X) CLUSTER_RESULT_LAYERS(X) CLUSTER_RESULT_P2P(X) CLUSTER_RESULT_COLLECTIVES(X) \
	CLUSTER_RESULT_MATRICES(X) CLUSTER_RESULT_SLOW(X)

SCHEMA_ENUM(CL, CLUSTER_RESULT);
extern const struct schema cluster_result;
#define CL_KEY(id) SCHEMA_KEY(cluster_result, CL_##id)

#endif
