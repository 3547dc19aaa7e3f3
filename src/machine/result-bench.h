/* The results of `archscope bench` (machine/schema.h), one description per view: the plain runs
 * (KERNEL with -s, --level or --sweep), --list, --ecm and --threads-scaling. cli/cmd-bench*.c write
 * every key from these lists; a reader finds each value by its id. */
#ifndef ARCHSCOPE_MACHINE_RESULT_BENCH_H
#define ARCHSCOPE_MACHINE_RESULT_BENCH_H

#include "machine/schema.h"

/* bench KERNEL -s SIZE | --level LEVEL | --sweep */
#define BENCH_RESULT(X)                                                                                         \
	X(BR_RUNS, BR_ROOT, ROWS, "runs", "", 0, "one row per working set (a sweep: two per octave)")              \
	X(BR_RUN_KERNEL, BR_RUNS, TEXT, "kernel", "", 0, "the kernel (copy, triad, ...)")                          \
	X(BR_RUN_VARIANT, BR_RUNS, TEXT, "variant", "", 0, "its instruction set (scalar, avx2, avx512-nt, ...)")   \
	X(BR_RUN_SIZE, BR_RUNS, INT, "size_bytes", "B", 0, "working set of all streams together")                 \
	X(BR_RUN_THREADS, BR_RUNS, INT, "threads", "", 0, "threads of the team")                                  \
	X(BR_RUN_CPUS, BR_RUNS, TEXT, "cpus", "", 0, "the team's CPUs (\"0-3\")")                                 \
	X(BR_RUN_GBS, BR_RUNS, SPREAD, "gbs", "GB/s", 0, "bandwidth as the application counts it, per repetition") \
	X(BR_RUN_GBS_REAL, BR_RUNS, SPREAD, "gbs_real", "GB/s", 0, "bandwidth with write-allocate traffic")       \
	X(BR_RUN_CY_PER_CL, BR_RUNS, SPREAD, "cy_per_cl", "cy/CL", 0,                                           \
	  "core cycles of the measured clock per cache line per thread (null without a line size)")              \
	X(BR_RUN_GFLOPS, BR_RUNS, SPREAD, "gflops", "GFLOP/s", 0, "flop rate")                                   \
	X(BR_RUN_SPREAD, BR_RUNS, NUMBER, "spread", "", 0, "(max - min) / median of the bandwidth")              \
	X(BR_RUN_HUGE, BR_RUNS, NUMBER, "huge_fraction", "", 0, "share of the streams on huge pages (null: unknown)") \
	X(BR_RUN_SWEEPS, BR_RUNS, INT, "sweeps_per_rep", "", 0, "passes over the working set per repetition")    \
	X(BR_RUN_REPS, BR_RUNS, INT, "reps", "", 0, "repetitions measured")                                      \
	X(BR_RUN_COND, BR_RUNS, REF, "conditions", "conditions", 0, "what the run measured in")                 \
	X(BR_RUN_NOISY, BR_RUNS, BOOL, "noisy", "", 0, "still disturbed after its attempts")                     \
	X(BR_CLOCK, BR_ROOT, NUMBER, "clock_ghz", "GHz", 0, "core clock measured on the team's first CPU")       \
	X(BR_LINE, BR_ROOT, NUMBER, "line_bytes", "B", 0, "the cache line the cycles count (null: none known)")  \
	X(BR_CYCLES, BR_ROOT, TEXT, "cycles", "", 0, "what cy_per_cl counts")                                    \
	X(BR_FORMULA, BR_ROOT, TEXT, "formula", "", 0, "the kernel's loop body (\"a[i] = b[i]\")")               \
	X(BR_PAGES, BR_ROOT, TEXT, "pages", "", 0, "\"huge\" (asked for with madvise) or \"4k\"")                \
	X(BR_OFFSET, BR_ROOT, INT, "stream_offset_bytes", "B", 0, "stream k starts k times this into its page")  \
	X(BR_INCOMPLETE, BR_ROOT, BOOL, "incomplete", "", SCHEMA_OPT, "interrupted: the runs measured so far")

SCHEMA_ENUM(BR, BENCH_RESULT);
extern const struct schema bench_result;
#define BR_KEY(id) SCHEMA_KEY(bench_result, BR_##id)

/* bench --list: the kernel table */
#define BENCH_LIST_RESULT(X)                                                                                 \
	X(BL_KERNELS, BL_ROOT, ROWS, "kernels", "", 0, "one row per kernel and variant")                        \
	X(BL_KERNEL, BL_KERNELS, TEXT, "kernel", "", 0, "its name")                                             \
	X(BL_VARIANT, BL_KERNELS, TEXT, "variant", "", 0, "its instruction set")                                \
	X(BL_FORMULA, BL_KERNELS, TEXT, "formula", "", 0, "its loop body")                                      \
	X(BL_READS, BL_KERNELS, INT, "reads", "", 0, "read streams")                                            \
	X(BL_WRITES, BL_KERNELS, INT, "writes", "", 0, "write streams")                                         \
	X(BL_RWS, BL_KERNELS, INT, "read_writes", "", 0, "streams read and written")                            \
	X(BL_BYTES, BL_KERNELS, INT, "bytes_per_it", "B", 0, "bytes the application moves per iteration")       \
	X(BL_BYTES_REAL, BL_KERNELS, INT, "bytes_real_per_it", "B", 0, "the same with write-allocate")          \
	X(BL_FLOPS, BL_KERNELS, INT, "flops_per_it", "", 0, "flops per iteration")                              \
	X(BL_NONTEMPORAL, BL_KERNELS, BOOL, "nontemporal", "", 0, "its stores bypass the caches")               \
	X(BL_SUPPORTED, BL_KERNELS, BOOL, "supported", "", 0, "this CPU runs it")

SCHEMA_ENUM(BL, BENCH_LIST_RESULT);
extern const struct schema bench_list_result;
#define BL_KEY(id) SCHEMA_KEY(bench_list_result, BL_##id)

/* bench --ecm: the ECM paper's Table 4 on this machine */
#define BENCH_ECM_RESULT(X)                                                                                       \
	X(BE_PARAMS, BE_ROOT, OBJECT, "parameters", "", 0, "the machine parameters measured here")                   \
	X(BE_CLOCK, BE_PARAMS, NUMBER, "clock_ghz", "GHz", 0, "core clock measured on the CPU")                     \
	X(BE_LINE, BE_PARAMS, NUMBER, "line_bytes", "B", 0, "the cache line the model counts")                      \
	X(BE_L1_LOAD, BE_PARAMS, NUMBER, "l1_load_bytes_per_cy", "B/cy", 0, "L1 load rate (load kernel in L1)")      \
	X(BE_L1_STORE, BE_PARAMS, NUMBER, "l1_store_bytes_per_cy", "B/cy", 0, "L1 store rate (store kernel in L1)") \
	X(BE_OVERLAP, BE_PARAMS, BOOL, "loads_stores_overlap", "", 0, "loads and stores issue in the same cycle")   \
	X(BE_TRANSFERS, BE_PARAMS, ROWS, "transfers", "", 0, "one row per boundary, innermost first")              \
	X(BE_TR_FROM, BE_TRANSFERS, TEXT, "from", "", 0, "the outer level (L2, ..., MEM)")                          \
	X(BE_TR_TO, BE_TRANSFERS, TEXT, "to", "", 0, "the inner level")                                             \
	X(BE_TR_CY, BE_TRANSFERS, NUMBER, "cy_per_cl", "cy/CL", 0, "cycles per line crossing it")                  \
	X(BE_TR_BPC, BE_TRANSFERS, NUMBER, "bytes_per_cy", "B/cy", 0, "its rate (0: taken as 0 cy/CL)")             \
	X(BE_ROWS, BE_ROOT, ROWS, "ecm", "", 0, "one row per kernel and level")                                    \
	X(BE_KERNEL, BE_ROWS, TEXT, "kernel", "", 0, "the kernel")                                                  \
	X(BE_VARIANT, BE_ROWS, TEXT, "variant", "", 0, "its instruction set")                                       \
	X(BE_LEVEL, BE_ROWS, TEXT, "level", "", 0, "the memory level of the working set (L1, ..., MEM)")           \
	X(BE_SIZE, BE_ROWS, INT, "size_bytes", "B", 0, "the working set")                                           \
	X(BE_PREDICTED, BE_ROWS, NUMBER, "predicted_cy_per_cl", "cy/CL", 0, "the ECM prediction")                   \
	X(BE_MEASURED, BE_ROWS, NUMBER, "measured_cy_per_cl", "cy/CL", 0, "the fastest repetition")                \
	X(BE_RATIO, BE_ROWS, NUMBER, "predicted_over_measured", "", 0, "prediction / measurement")                  \
	X(BE_GBS, BE_ROWS, NUMBER, "gbs", "GB/s", 0, "application bandwidth of the fastest repetition")             \
	X(BE_GBS_REAL, BE_ROWS, NUMBER, "gbs_real", "GB/s", 0, "the same with write-allocate")                      \
	X(BE_CALIBRATION, BE_ROWS, BOOL, "calibration", "", 0, "the model's rates come from this row")             \
	X(BE_CYCLES, BE_ROOT, TEXT, "cycles", "", 0, "what the cycles count")                                      \
	X(BE_MODEL, BE_ROOT, TEXT, "model", "", 0, "the model's assumptions")                                      \
	X(BE_INCOMPLETE, BE_ROOT, BOOL, "incomplete", "", SCHEMA_OPT, "interrupted or a run failed")

SCHEMA_ENUM(BE, BENCH_ECM_RESULT);
extern const struct schema bench_ecm_result;
#define BE_KEY(id) SCHEMA_KEY(bench_ecm_result, BE_##id)

/* bench --threads-scaling: the ECM paper's Table 5 on this machine */
#define BENCH_SCALING_RESULT(X)                                                                                 \
	X(BS_KERNEL, BS_ROOT, TEXT, "kernel", "", 0, "the kernel")                                                 \
	X(BS_VARIANT, BS_ROOT, TEXT, "variant", "", 0, "its instruction set")                                      \
	X(BS_ROWS, BS_ROOT, ROWS, "scaling", "", 0, "one row per thread count")                                   \
	X(BS_THREADS, BS_ROWS, INT, "threads", "", 0, "threads of the team")                                      \
	X(BS_LEVELS, BS_ROWS, ROWS, "levels", "", 0, "one row per memory level measured")                         \
	X(BS_LEVEL, BS_LEVELS, TEXT, "level", "", 0, "L1, ..., MEM")                                               \
	X(BS_SIZE, BS_LEVELS, INT, "size_bytes", "B", 0, "the working set of the team")                           \
	X(BS_GBS, BS_LEVELS, NUMBER, "gbs", "GB/s", 0, "application bandwidth, median of the repetitions")       \
	X(BS_GBS_REAL, BS_LEVELS, NUMBER, "gbs_real", "GB/s", 0, "the same with write-allocate")                  \
	X(BS_CY_PER_CL, BS_LEVELS, NUMBER, "cy_per_cl", "cy/CL", 0, "core cycles per cache line per thread")      \
	X(BS_CLOCK, BS_ROOT, NUMBER, "clock_ghz", "GHz", 0, "core clock measured on the first CPU")              \
	X(BS_SIZES, BS_ROOT, TEXT, "sizes", "", 0, "how the working sets grow with the threads")                 \
	X(BS_INCOMPLETE, BS_ROOT, BOOL, "incomplete", "", SCHEMA_OPT, "interrupted or a run failed")

SCHEMA_ENUM(BS, BENCH_SCALING_RESULT);
extern const struct schema bench_scaling_result;
#define BS_KEY(id) SCHEMA_KEY(bench_scaling_result, BS_##id)

#endif
