/* The results of `archscope tune` (machine/schema.h): its two kernels write one document each,
 * both with the command "tune", so they are two views of it, "tune gemm" and "tune stencil"
 * (schema_check_command takes a view named "tune KERNEL" for a "tune" document).
 * cli/cmd-tune*.c write every key from these lists. */
#ifndef ARCHSCOPE_MACHINE_RESULT_TUNE_H
#define ARCHSCOPE_MACHINE_RESULT_TUNE_H

#include "machine/schema.h"

/* tune gemm: blocks are {"m", "n", "k"} in elements (register_block_solved: m in vectors). */
#define TUNE_GEMM_RESULT(X)                                                                                    \
	X(TG_KERNEL, TG_ROOT, TEXT, "kernel", "", 0, "what is tuned (\"gemm: C -= A*B, ...\")")                    \
	X(TG_INPUTS, TG_ROOT, OBJECT, "inputs", "", 0, "what the blocking is solved from")                         \
	X(TG_IN_REGISTERS, TG_INPUTS, INT, "registers", "vectors", 0, "vector registers")                           \
	X(TG_IN_REGISTERS_FROM, TG_INPUTS, TEXT, "registers_from", "", 0, "where that count came from")            \
	X(TG_IN_L1, TG_INPUTS, INT, "l1_bytes", "B", 0, "the L1 data cache")                                       \
	X(TG_IN_LINE, TG_INPUTS, INT, "line_bytes", "B", 0, "the cache line")                                      \
	X(TG_IN_LINE_WITNESSES, TG_INPUTS, INT, "line_witnesses", "", SCHEMA_OPT,                                 \
	  "witnesses of the line this run probed (without -m)")                                                  \
	X(TG_IN_LINE_NOTE, TG_INPUTS, TEXT, "line_note", "", SCHEMA_OPT, "why fewer than two witnesses")           \
	X(TG_IN_ISA, TG_INPUTS, TEXT, "isa", "", 0, "the generated kernel's ISA (sse2, avx2, avx512)")             \
	X(TG_IN_VECTOR, TG_INPUTS, INT, "vector_doubles", "", 0, "doubles per vector of that ISA")                 \
	X(TG_REASONING, TG_ROOT, TEXTS, "reasoning", "", 0, "how the blocks follow from the inputs")               \
	X(TG_REG_SOLVED, TG_ROOT, OBJECT, "register_block_solved", "", 0, "the register block solved, m in vectors") \
	X(TG_REG_SOLVED_M, TG_REG_SOLVED, INT, "m", "vectors", 0, "rows")                                           \
	X(TG_REG_SOLVED_N, TG_REG_SOLVED, INT, "n", "", 0, "columns")                                               \
	X(TG_REG_SOLVED_K, TG_REG_SOLVED, INT, "k", "", 0, "depth")                                                 \
	X(TG_REG, TG_ROOT, OBJECT, "register_block", "", 0, "the register block, after the adjustments")           \
	X(TG_REG_M, TG_REG, INT, "m", "", 0, "rows")                                                                \
	X(TG_REG_N, TG_REG, INT, "n", "", 0, "columns")                                                             \
	X(TG_REG_K, TG_REG, INT, "k", "", 0, "depth")                                                               \
	X(TG_REG_M_VECTORS, TG_ROOT, INT, "register_block_m_vectors", "vectors", 0, "its rows in vectors")         \
	X(TG_REGISTERS_USED, TG_ROOT, INT, "registers_used", "vectors", 0, "registers it holds live")              \
	X(TG_L1_SOLVED, TG_ROOT, OBJECT, "l1_block_solved", "", 0, "the L1 block solved")                          \
	X(TG_L1_SOLVED_M, TG_L1_SOLVED, INT, "m", "", 0, "rows")                                                    \
	X(TG_L1_SOLVED_N, TG_L1_SOLVED, INT, "n", "", 0, "columns")                                                 \
	X(TG_L1_SOLVED_K, TG_L1_SOLVED, INT, "k", "", 0, "depth")                                                   \
	X(TG_L1_LINE_LIMIT, TG_ROOT, INT, "l1_line_limit", "", 0,                                                 \
	  "the L1 block's limit from the lines of the non-unit-stride operand")                                  \
	X(TG_L1, TG_ROOT, OBJECT, "l1_block", "", 0, "the L1 block, after the adjustments")                        \
	X(TG_L1_M, TG_L1, INT, "m", "", 0, "rows")                                                                  \
	X(TG_L1_N, TG_L1, INT, "n", "", 0, "columns")                                                               \
	X(TG_L1_K, TG_L1, INT, "k", "", 0, "depth")                                                                 \
	X(TG_PREDICTED, TG_ROOT, INT, "predicted_best_n", "", 0, "the size the kernel should peak at (the L1 block)") \
	X(TG_GENERATED, TG_ROOT, OBJECT, "generated", "", 0, "the generated kernel")                               \
	X(TG_GEN_COMPILER, TG_GENERATED, TEXT, "compiler", "", 0, "the compiler that built it")                    \
	X(TG_GEN_FLAGS, TG_GENERATED, TEXT, "flags", "", 0, "its flags")                                           \
	X(TG_GEN_COMPILE, TG_GENERATED, NUMBER, "compile_s", "s", 0, "compile time")                               \
	X(TG_OPENBLAS, TG_ROOT, TEXT, "openblas", "", SCHEMA_NULL, "OpenBLAS's configuration (null: not loaded)")  \
	X(TG_CPU, TG_ROOT, INT, "cpu", "", 0, "the CPU it ran on")                                                  \
	X(TG_REPS, TG_ROOT, INT, "reps", "", 0, "repetitions done per size and kernel")                             \
	X(TG_MIN_TIME, TG_ROOT, NUMBER, "min_time_s", "s", 0, "each repetition at least")                          \
	X(TG_SEED, TG_ROOT, INT, "seed", "", 0, "seed of the matrices' random numbers")                            \
	X(TG_SIZES, TG_ROOT, ROWS, "sizes", "", 0, "one row per matrix size, tuned and OpenBLAS interleaved")      \
	X(TG_SIZE_N, TG_SIZES, INT, "n", "", 0, "the matrix size")                                                  \
	X(TG_SIZE_TUNED, TG_SIZES, NUMBER, "gflops_tuned", "GFLOP/s", 0, "the generated kernel, median")           \
	X(TG_SIZE_TUNED_MIN, TG_SIZES, NUMBER, "gflops_tuned_min", "GFLOP/s", 0, "the same, slowest repetition")   \
	X(TG_SIZE_BLAS, TG_SIZES, NUMBER, "gflops_openblas", "GFLOP/s", 0, "OpenBLAS dgemm, median (null: none)") \
	X(TG_SIZE_BLAS_MIN, TG_SIZES, NUMBER, "gflops_openblas_min", "GFLOP/s", 0, "the same, slowest repetition") \
	X(TG_SIZE_RATIO, TG_SIZES, NUMBER, "ratio", "", 0, "tuned / OpenBLAS, medians")                             \
	X(TG_SIZE_CALLS, TG_SIZES, INT, "calls", "", 0, "kernel calls per repetition")                              \
	X(TG_SIZE_DISTURBED, TG_SIZES, INT, "disturbed_reps", "", 0, "repetitions other work disturbed")           \
	X(TG_SIZE_ERR_TUNED, TG_SIZES, NUMBER, "error_tuned", "", 0, "largest difference from the triple loop")    \
	X(TG_SIZE_ERR_BLAS, TG_SIZES, NUMBER, "error_openblas", "", 0, "the same for OpenBLAS")                     \
	X(TG_CHECK, TG_ROOT, OBJECT, "check", "", 0, "the check of the prediction")                                \
	X(TG_CHECK_PREDICTED, TG_CHECK, INT, "predicted_best_n", "", 0, "the predicted best size")                 \
	X(TG_CHECK_PEAK, TG_CHECK, INT, "peak_n", "", 0, "the size the tuned kernel peaks at (medians)")           \
	X(TG_CHECK_PEAK_BEST, TG_CHECK, INT, "peak_n_best", "", 0, "the same by the best repetition")              \
	X(TG_CHECK_STEP, TG_CHECK, INT, "step", "", 0, "the step between sizes")                                   \
	X(TG_CHECK_NEAR, TG_CHECK, BOOL, "peak_near_prediction", "", 0, "the peak within one step of it")          \
	X(TG_CHECK_RATIO_N, TG_CHECK, INT, "ratio_n", "", 0, "the measured size the ratio is taken at")            \
	X(TG_CHECK_RATIO, TG_CHECK, NUMBER, "ratio_at_predicted", "", 0, "tuned / OpenBLAS there")                  \
	X(TG_CHECK_RATIO_1, TG_CHECK, BOOL, "ratio_at_least_1", "", 0, "that ratio at least 1.0")                  \
	X(TG_CONDITIONS, TG_ROOT, REF, "conditions", "conditions", 0, "what the sweep measured in")                \
	X(TG_NOISY, TG_ROOT, BOOL, "noisy", "", 0, "still disturbed: the peak and the ratios may be off")           \
	X(TG_REDONE, TG_ROOT, INT, "redone_reps", "", 0, "repetitions measured again (others disturbed them)")     \
	X(TG_ERROR, TG_ROOT, TEXT, "error", "", SCHEMA_OPT, "the generated kernel's result was wrong: how")        \
	X(TG_INCOMPLETE, TG_ROOT, BOOL, "incomplete", "", SCHEMA_OPT, "interrupted: the sizes timed so far")

SCHEMA_ENUM(TG, TUNE_GEMM_RESULT);
extern const struct schema tune_gemm_result;
#define TG_KEY(id) SCHEMA_KEY(tune_gemm_result, TG_##id)

/* tune stencil: interrupted before a sweep was timed, naive, blocked and speedup are null and
 * blocked_faster, conditions and noisy absent. */
#define TUNE_STENCIL_RESULT(X)                                                                                 \
	X(TS_KERNEL, TS_ROOT, TEXT, "kernel", "", 0, "what is tuned (the 5-point sweep)")                         \
	X(TS_GRID, TS_ROOT, OBJECT, "grid", "", 0, "the grid, beyond the last cache")                              \
	X(TS_GRID_ROWS, TS_GRID, INT, "rows", "", 0, "rows M")                                                      \
	X(TS_GRID_COLS, TS_GRID, INT, "cols", "", 0, "columns N")                                                   \
	X(TS_GRID_BYTES, TS_GRID, INT, "bytes", "B", 0, "both arrays")                                             \
	X(TS_GRID_LAST_CACHE, TS_GRID, INT, "last_cache_bytes", "B", 0, "the last cache level")                    \
	X(TS_REASONING, TS_ROOT, TEXTS, "reasoning", "", 0, "how the block follows from the layer conditions")     \
	X(TS_LEVELS, TS_ROOT, ROWS, "levels", "", 0, "layer conditions per cache level, per update")               \
	X(TS_LEVEL_NAME, TS_LEVELS, TEXT, "level", "", 0, "the level (\"L1\")")                                      \
	X(TS_LEVEL_SIZE, TS_LEVELS, INT, "size_bytes", "B", 0, "its size")                                          \
	X(TS_LEVEL_NAIVE_MISSES, TS_LEVELS, INT, "naive_misses", "", 0, "misses per update, naive")                 \
	X(TS_LEVEL_BLOCKED_MISSES, TS_LEVELS, INT, "blocked_misses", "", 0, "misses per update, blocked")           \
	X(TS_LEVEL_NAIVE_HITS, TS_LEVELS, INT, "naive_hits", "", 0, "hits per update, naive")                       \
	X(TS_LEVEL_BLOCKED_HITS, TS_LEVELS, INT, "blocked_hits", "", 0, "hits per update, blocked")                 \
	X(TS_LEVEL_WIDTH, TS_LEVELS, INT, "width_limit", "", 0, "the row condition holds up to N columns")          \
	X(TS_BLOCKED_FOR, TS_ROOT, TEXT, "blocked_for", "", SCHEMA_NULL, "the level blocked for (null: none)")     \
	X(TS_BLOCK, TS_ROOT, INT, "block", "columns", 0, "the block: columns of the inner loop")                   \
	X(TS_CPU, TS_ROOT, INT, "cpu", "", 0, "the CPU it ran on")                                                  \
	X(TS_REPS, TS_ROOT, INT, "reps", "", 0, "repetitions done")                                                 \
	X(TS_INCOMPLETE, TS_ROOT, BOOL, "incomplete", "", SCHEMA_OPT, "interrupted: the repetitions timed so far") \
	X(TS_NAIVE, TS_ROOT, OBJECT, "naive", "", SCHEMA_NULL, "the naive sweep (null: not measured)")            \
	X(TS_NAIVE_SECONDS, TS_NAIVE, SPREAD, "seconds", "s", 0, "time per sweep over the repetitions")            \
	X(TS_NAIVE_MLUPS, TS_NAIVE, NUMBER, "mlups", "MLUP/s", 0, "updates, median")                               \
	X(TS_BLOCKED, TS_ROOT, OBJECT, "blocked", "", SCHEMA_NULL, "the blocked sweep (null: not measured)")      \
	X(TS_BLOCKED_SECONDS, TS_BLOCKED, SPREAD, "seconds", "s", 0, "time per sweep over the repetitions")        \
	X(TS_BLOCKED_MLUPS, TS_BLOCKED, NUMBER, "mlups", "MLUP/s", 0, "updates, median")                           \
	X(TS_SPEEDUP, TS_ROOT, NUMBER, "speedup", "", 0, "naive / blocked, medians (null: not measured)")          \
	X(TS_BLOCKED_FASTER, TS_ROOT, BOOL, "blocked_faster", "", SCHEMA_OPT, "speedup above 1")                   \
	X(TS_BEYOND, TS_ROOT, BOOL, "beyond_last_cache", "", 0, "the grid is larger than the last cache")          \
	X(TS_CONDITIONS, TS_ROOT, REF, "conditions", "conditions", SCHEMA_OPT, "what the sweeps measured in")       \
	X(TS_NOISY, TS_ROOT, BOOL, "noisy", "", SCHEMA_OPT, "still disturbed: the speedup may be off")

SCHEMA_ENUM(TS, TUNE_STENCIL_RESULT);
extern const struct schema tune_stencil_result;
#define TS_KEY(id) SCHEMA_KEY(tune_stencil_result, TS_##id)

#endif
