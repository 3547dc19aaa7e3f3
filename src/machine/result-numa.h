/* The results of `archscope numa` (machine/schema.h): numa matrix, numa load and numa model, and
 * the flow row the last two share ("numa flow", held by a REFS row). cli/cmd-numa*.c write every
 * key from these lists; numa/matrix-file.c reads a saved matrix back through them. */
#ifndef ARCHSCOPE_MACHINE_RESULT_NUMA_H
#define ARCHSCOPE_MACHINE_RESULT_NUMA_H

#include "machine/schema.h"

/* numa matrix: every matrix is n x n, row i the CPUs of node i, column j the memory of node j, in
 * the order of nodes. numa matrix writes every key; a matrix written by hand for numa model needs
 * only nodes, bandwidth_gbs and bandwidth_1thread_gbs (the others are SCHEMA_OPT for it). */
#define NUMA_MATRIX_RESULT(X)                                                                                      \
	X(NMX_NODES, NMX_ROOT, INTS, "nodes", "", 0, "the OS's node numbers, in topology order")                      \
	X(NMX_NODE_COUNT, NMX_ROOT, INT, "node_count", "", SCHEMA_OPT, "NUMA nodes of the machine")                   \
	X(NMX_LATENCY, NMX_ROOT, MATRIX, "latency_ns", "ns", SCHEMA_OPT, "idle latency, page-local chase, fastest")     \
	X(NMX_LATENCY_MEDIAN, NMX_ROOT, MATRIX, "latency_median_ns", "ns", SCHEMA_OPT, "the same, median")            \
	X(NMX_LATENCY_RANDOM, NMX_ROOT, MATRIX, "latency_random_ns", "ns", SCHEMA_OPT,                                \
	  "idle latency, fully random chase, fastest")                                                               \
	X(NMX_LATENCY_RANDOM_MEDIAN, NMX_ROOT, MATRIX, "latency_random_median_ns", "ns", SCHEMA_OPT, "the same, median") \
	X(NMX_BW_1THREAD, NMX_ROOT, MATRIX, "bandwidth_1thread_gbs", "GB/s", 0, "one thread, median, real bytes")     \
	X(NMX_BW, NMX_ROOT, MATRIX, "bandwidth_gbs", "GB/s", 0, "all CPUs of node i, median, real bytes")             \
	X(NMX_SLIT, NMX_ROOT, MATRIX, "slit", "", SCHEMA_OPT | SCHEMA_NULL,                                           \
	  "the firmware's distances, 10 = local (null: none)")                                                       \
	X(NMX_SLIT_MEASURED, NMX_ROOT, MATRIX, "slit_measured", "", SCHEMA_OPT,                                       \
	  "10 x latency / local latency (with a SLIT only)")                                                         \
	X(NMX_OVER_SLIT, NMX_ROOT, MATRIX, "measured_over_slit", "", SCHEMA_OPT, "slit_measured / slit")              \
	X(NMX_THREADS, NMX_ROOT, ROWS, "threads", "", SCHEMA_OPT, "threads of the all-CPU runs")                      \
	X(NMX_THREADS_NODE, NMX_THREADS, INT, "node", "", 0, "the node")                                              \
	X(NMX_THREADS_N, NMX_THREADS, INT, "threads", "", 0, "its threads")                                           \
	X(NMX_PLACED, NMX_ROOT, MATRIX, "placed_fraction", "", SCHEMA_OPT,                                           \
	  "share of the chase's pages the kernel reports on node j")                                                 \
	X(NMX_KERNEL, NMX_ROOT, TEXT, "kernel", "", SCHEMA_OPT, "bench's streaming kernel (\"load-avx512\")")        \
	X(NMX_WRITE_ALLOCATE, NMX_ROOT, BOOL, "write_allocate", "", SCHEMA_OPT, "its stores read their lines first")   \
	X(NMX_REPS, NMX_ROOT, INT, "reps", "", SCHEMA_OPT, "bandwidth repetitions")                                    \
	X(NMX_MIN_TIME, NMX_ROOT, NUMBER, "min_time_s", "s", SCHEMA_OPT, "each repetition at least")                 \
	X(NMX_BW_BYTES, NMX_ROOT, INT, "bandwidth_bytes", "B", SCHEMA_OPT, "the streams' working set")                 \
	X(NMX_BW_SIZE_FROM, NMX_ROOT, TEXT, "bandwidth_size_from", "", SCHEMA_OPT, "where that size came from")       \
	X(NMX_BW_HUGE, NMX_ROOT, NUMBER, "bandwidth_huge_fraction", "", SCHEMA_OPT,                                  \
	  "the least share of a run's streams on huge pages")                                                        \
	X(NMX_LATENCY_BYTES, NMX_ROOT, INT, "latency_bytes", "B", SCHEMA_OPT, "the chase buffer")                      \
	X(NMX_LINE, NMX_ROOT, NUMBER, "line_bytes", "B", SCHEMA_OPT, "the chase's slot spacing (the probed line)")     \
	X(NMX_LINE_WITNESSES, NMX_ROOT, INT, "line_witnesses", "", SCHEMA_OPT, "witnesses of the probed line")         \
	X(NMX_LINE_NOTE, NMX_ROOT, TEXT, "line_note", "", SCHEMA_OPT, "why fewer than two witnesses")                 \
	X(NMX_SEED, NMX_ROOT, INT, "seed", "", SCHEMA_OPT, "seed of the chase's random order")                        \
	X(NMX_PLACEMENT, NMX_ROOT, TEXT, "placement", "", SCHEMA_OPT, "how memory was bound")                        \
	X(NMX_METHOD, NMX_ROOT, TEXT, "method", "", SCHEMA_OPT, "how each figure is measured")                       \
	X(NMX_NOISY, NMX_ROOT, MATRIX, "noisy", "", SCHEMA_OPT,                                                     \
	  "per pair, bits of the measurements other work disturbed: 1 page-local, 2 random latency, 4 one-thread, "  \
	  "8 all-CPU bandwidth")                                                                                     \
	X(NMX_NOISY_COUNT, NMX_ROOT, INT, "noisy_count", "", SCHEMA_OPT, "measurements flagged noisy")               \
	X(NMX_INCOMPLETE, NMX_ROOT, BOOL, "incomplete", "", SCHEMA_OPT, "interrupted: the pairs measured so far")

SCHEMA_ENUM(NMX, NUMA_MATRIX_RESULT);
extern const struct schema numa_matrix_result;
#define NMX_KEY(id) SCHEMA_KEY(numa_matrix_result, NMX_##id)

/* One flow of numa load or numa model: a row of their flows[]. */
#define NUMA_FLOW_RESULT(X)                                                                                      \
	X(NFL_SRC, NFL_ROOT, INT, "src", "", 0, "the node whose CPUs run its threads")                               \
	X(NFL_DST, NFL_ROOT, INT, "dst", "", 0, "the node whose memory they read")                                  \
	X(NFL_THREADS, NFL_ROOT, INT, "threads", "", 0, "its threads")                                              \
	X(NFL_CPUS, NFL_ROOT, INTS, "cpus", "", SCHEMA_OPT, "the CPUs they are pinned to (numa load)")              \
	X(NFL_PREDICTED, NFL_ROOT, NUMBER, "predicted_gbs", "GB/s", 0, "the model's rate (null: no model)")         \
	X(NFL_MEASURED, NFL_ROOT, NUMBER, "measured_gbs", "GB/s", 0, "measured together (null: not measured)")      \
	X(NFL_RATIO, NFL_ROOT, NUMBER, "measured_over_predicted", "", SCHEMA_OPT, "with both")                       \
	X(NFL_THREAD_GBS, NFL_ROOT, NUMBER, "predicted_thread_gbs", "GB/s", SCHEMA_OPT, "the model's rate per thread") \
	X(NFL_LIMIT, NFL_ROOT, TEXT, "limit", "", SCHEMA_OPT, "what stopped its threads: thread, memory or path")    \
	X(NFL_LIMIT_NODE, NFL_ROOT, INT, "limit_node", "", SCHEMA_OPT, "the memory node, or the path's source")

SCHEMA_ENUM(NFL, NUMA_FLOW_RESULT);
extern const struct schema numa_flow_result;
#define NFL_KEY(id) SCHEMA_KEY(numa_flow_result, NFL_##id)

/* numa load: a dry run writes node_count, dry_run and flows only. */
#define NUMA_LOAD_RESULT(X)                                                                                        \
	X(NLD_NODE_COUNT, NLD_ROOT, INT, "node_count", "", 0, "NUMA nodes of the machine")                            \
	X(NLD_DRY_RUN, NLD_ROOT, BOOL, "dry_run", "", SCHEMA_OPT, "placement only, nothing ran")                      \
	X(NLD_FLOWS, NLD_ROOT, REFS, "flows", "numa flow", 0, "one row per flow")                                     \
	X(NLD_LINKS, NLD_ROOT, ROWS, "links", "", SCHEMA_OPT, "one row per (src, dst) pair, all flows together")     \
	X(NLD_LINK_SRC, NLD_LINKS, INT, "src", "", 0, "CPUs of node")                                                 \
	X(NLD_LINK_DST, NLD_LINKS, INT, "dst", "", 0, "memory of node")                                               \
	X(NLD_LINK_FLOWS, NLD_LINKS, INT, "flows", "", 0, "flows on it")                                              \
	X(NLD_LINK_THREADS, NLD_LINKS, INT, "threads", "", 0, "their threads")                                        \
	X(NLD_LINK_MEASURED, NLD_LINKS, NUMBER, "measured_gbs", "GB/s", 0, "their sum")                               \
	X(NLD_LINK_PREDICTED, NLD_LINKS, NUMBER, "predicted_gbs", "GB/s", 0, "the model's sum (null: no model)")     \
	X(NLD_XT, NLD_ROOT, ROWS, "crosstalk", "", SCHEMA_OPT, "each flow alone against all together")               \
	X(NLD_XT_SRC, NLD_XT, INT, "src", "", 0, "CPUs of node")                                                      \
	X(NLD_XT_DST, NLD_XT, INT, "dst", "", 0, "memory of node")                                                    \
	X(NLD_XT_THREADS, NLD_XT, INT, "threads", "", 0, "its threads")                                               \
	X(NLD_XT_ALONE_GBS, NLD_XT, NUMBER, "alone_gbs", "GB/s", 0, "measured alone")                                 \
	X(NLD_XT_TOGETHER_GBS, NLD_XT, NUMBER, "together_gbs", "GB/s", 0, "measured with the others")                 \
	X(NLD_XT_RATIO, NLD_XT, NUMBER, "together_over_alone", "", 0, "together / alone")                            \
	X(NLD_XT_PRED_ALONE, NLD_XT, NUMBER, "predicted_alone_gbs", "GB/s", SCHEMA_OPT, "the model's rate alone")    \
	X(NLD_XT_PRED_RATIO, NLD_XT, NUMBER, "predicted_together_over_alone", "", SCHEMA_OPT, "the model's ratio")   \
	X(NLD_XT_ALONE, NLD_XT, OBJECT, "alone", "", 0, "what the alone phase measured in (or together's)")          \
	X(NLD_XT_ALONE_COND, NLD_XT_ALONE, REF, "conditions", "conditions", 0, "its conditions")                     \
	X(NLD_XT_ALONE_NOISY, NLD_XT_ALONE, BOOL, "noisy", "", 0, "still disturbed")                                  \
	X(NLD_TOGETHER, NLD_ROOT, OBJECT, "together", "", SCHEMA_OPT, "what the together phase measured in")         \
	X(NLD_TOGETHER_COND, NLD_TOGETHER, REF, "conditions", "conditions", 0, "its conditions")                     \
	X(NLD_TOGETHER_NOISY, NLD_TOGETHER, BOOL, "noisy", "", 0, "still disturbed")                                  \
	X(NLD_SERIES, NLD_ROOT, MATRIX, "series", "GB/s", SCHEMA_OPT, "per interval, per flow, together")            \
	X(NLD_PLACED, NLD_ROOT, NUMBERS, "placed_fraction", "", SCHEMA_OPT, "per flow, share of its pages on dst")   \
	X(NLD_KERNEL, NLD_ROOT, TEXT, "kernel", "", SCHEMA_OPT, "bench's streaming kernel")                          \
	X(NLD_WRITE_ALLOCATE, NLD_ROOT, BOOL, "write_allocate", "", SCHEMA_OPT, "its stores read their lines first")  \
	X(NLD_BYTES, NLD_ROOT, INT, "bytes_per_thread", "B", SCHEMA_OPT, "streams of each thread")                    \
	X(NLD_DURATION, NLD_ROOT, NUMBER, "duration_s", "s", SCHEMA_OPT, "each phase, as asked")                     \
	X(NLD_TOGETHER_S, NLD_ROOT, NUMBER, "together_s", "s", SCHEMA_OPT, "the together phase as measured")         \
	X(NLD_MATRIX, NLD_ROOT, TEXT, "matrix", "", SCHEMA_OPT, "--predict's matrix file")                           \
	X(NLD_INCOMPLETE, NLD_ROOT, BOOL, "incomplete", "", SCHEMA_OPT, "interrupted")

SCHEMA_ENUM(NLD, NUMA_LOAD_RESULT);
extern const struct schema numa_load_result;
#define NLD_KEY(id) SCHEMA_KEY(numa_load_result, NLD_##id)

/* numa model */
#define NUMA_MODEL_RESULT(X)                                                                 \
	X(NMO_MATRIX, NMO_ROOT, TEXT, "matrix", "", 0, "the matrix file")                       \
	X(NMO_NODE_COUNT, NMO_ROOT, INT, "node_count", "", 0, "nodes in the matrix")            \
	X(NMO_FLOWS, NMO_ROOT, REFS, "flows", "numa flow", 0, "one row per flow")               \
	X(NMO_METHOD, NMO_ROOT, TEXT, "method", "", 0, "the model and its limits")

SCHEMA_ENUM(NMO, NUMA_MODEL_RESULT);
extern const struct schema numa_model_result;
#define NMO_KEY(id) SCHEMA_KEY(numa_model_result, NMO_##id)

#endif
