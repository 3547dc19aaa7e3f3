/* The results of `archscope model` (cli/cmd-model-render*.c writes them from this list): the run's
 * inputs, then one size's models at the top level, or a sweep's sizes[] each with the same keys
 * (MODEL_SIZE_RESULT, once under the results object with ids MO_*, once under sizes[] with ids
 * MO_SIZE_*). A model that does not apply holds only its "error" (SCHEMA_ALONE). Keys whose names
 * are data: a kernel's constants (defines, holds_while_at_most), the data transfers by level
 * (ecm_data's L2, L3, MEM; ecm's T_L1L2, ...), the counters by event name. */
#ifndef ARCHSCOPE_MACHINE_RESULT_MODEL_H
#define ARCHSCOPE_MACHINE_RESULT_MODEL_H

#include "machine/schema.h"

/* One size's models, under PARENT with ids P_*; F: the flags of its always-written keys (optional at
 * the top, where a sweep writes sizes[] instead). */
#define MODEL_SIZE_RESULT(X, P, PARENT, F)                                                                     \
	X(P##_DEFINES, PARENT, NUMBER_MAP, "defines", "", F, "the kernel's constants at this size, by name")     \
	X(P##_ITERATIONS, PARENT, INT, "iterations", "", F, "iterations of the loop nest")                      \
	X(P##_ITERATIONS_PER_CL, PARENT, NUMBER, "iterations_per_cl", "", F,                                    \
	  "iterations of the innermost loop per cache line of work")                                           \
	X(P##_LC, PARENT, OBJECT, "lc", "", SCHEMA_OPT, "layer conditions (-p LC, one size)")                   \
	X(P##_LC_ERROR, P##_LC, TEXT, "error", "", SCHEMA_ALONE, "why they do not apply")                       \
	X(P##_LC_LEVELS, P##_LC, ROWS, "levels", "", 0, "one row per cache level")                              \
	X(P##_LC_LEVEL, P##_LC_LEVELS, TEXT, "level", "", 0, "the cache level")                                 \
	X(P##_LC_SIZE, P##_LC_LEVELS, NUMBER, "size_bytes", "B", 0, "its capacity (a core's share when shared)") \
	X(P##_LC_CONDS, P##_LC_LEVELS, ROWS, "conditions", "", 0, "the layer conditions, nothing reused first")  \
	X(P##_LC_COND, P##_LC_CONDS, TEXT, "condition", "", 0, "what the cache holds")                          \
	X(P##_LC_COND_REQ, P##_LC_CONDS, NUMBER, "requirement_bytes", "B", 0, "that, at these sizes")           \
	X(P##_LC_COND_MISSES, P##_LC_CONDS, INT, "misses", "/it", 0, "misses per iteration where it holds")     \
	X(P##_LC_COND_HITS, P##_LC_CONDS, INT, "hits", "/it", 0, "hits per iteration where it holds")           \
	X(P##_LC_COND_EVICTS, P##_LC_CONDS, INT, "evicts", "/it", 0, "evictions per iteration where it holds")  \
	X(P##_LC_COND_HOLDS, P##_LC_CONDS, NUMBER_MAP, "holds_while_at_most", "", 0,                            \
	  "per constant, the largest value at which it holds, the others as given")                            \
	X(P##_LC_ACTIVE, P##_LC_LEVELS, INT, "active", "", 0, "the index of the condition that holds")          \
	X(P##_TRAFFIC, PARENT, ROWS, "traffic", "", F, "the predicted cache traffic, one row per level")        \
	X(P##_TR_LEVEL, P##_TRAFFIC, TEXT, "level", "", 0, "the level")                                         \
	X(P##_TR_SIZE, P##_TRAFFIC, NUMBER, "size_bytes", "B", 0, "its capacity (a core's share when shared)")  \
	X(P##_TR_HITS, P##_TRAFFIC, NUMBER, "hits_per_it", "/it", 0, "hits per iteration")                      \
	X(P##_TR_MISSES, P##_TRAFFIC, NUMBER, "misses_per_it", "/it", 0, "misses per iteration")                \
	X(P##_TR_IN, P##_TRAFFIC, NUMBER, "lines_in_per_cl", "/CL", 0, "lines loaded per cache line of work")   \
	X(P##_TR_OUT, P##_TRAFFIC, NUMBER, "lines_out_per_cl", "/CL", 0, "lines evicted per cache line of work") \
	X(P##_SIM, PARENT, OBJECT, "simulation", "", SCHEMA_OPT, "the cache simulator's run (--cache-predictor sim)") \
	X(P##_SIM_WARMUP, P##_SIM, INT, "warmup_iterations", "", 0, "iterations before it counts")              \
	X(P##_SIM_MEASURED, P##_SIM, INT, "measured_iterations", "", 0, "iterations it counts")                 \
	X(P##_SIM_ACCESSES, P##_SIM, INT, "accesses", "", 0, "accesses simulated")                              \
	X(P##_SIM_SEED, P##_SIM, INT, "seed", "", 0, "the seed of its random replacement")                      \
	X(P##_SIM_MEASURED_ACCESSES, P##_SIM, INT, "measured_accesses", "", 0, "accesses it counts")            \
	X(P##_SIM_SECONDS, P##_SIM, NUMBER, "measured_seconds", "s", SCHEMA_OPT,                                \
	  "the time it took (a time: left out of the golden records)")                                         \
	X(P##_ECMD, PARENT, OBJECT, "ecm_data", "", SCHEMA_OPT | SCHEMA_OPEN_NUMBERS,                            \
	  "ECMData (-p ECMData); besides these keys, each transfer's cy/CL keyed by the level the data comes "   \
	  "from (L2, L3, MEM)")                                                                                \
	X(P##_ECMD_ERROR, P##_ECMD, TEXT, "error", "", SCHEMA_ALONE, "why it does not apply")                   \
	X(P##_ECMD_UNIT, P##_ECMD, TEXT, "unit", "", 0, "the unit of the transfers (cy/CL)")                    \
	X(P##_ECMD_TRANSFERS, P##_ECMD, ROWS, "transfers", "", 0, "one row per transfer")                       \
	X(P##_ECMD_T_LEVEL, P##_ECMD_TRANSFERS, TEXT, "level", "", 0, "the level the data comes from")          \
	X(P##_ECMD_T_IN, P##_ECMD_TRANSFERS, NUMBER, "lines_in_per_cl", "/CL", 0, "lines loaded")               \
	X(P##_ECMD_T_OUT, P##_ECMD_TRANSFERS, NUMBER, "lines_out_per_cl", "/CL", 0, "lines evicted")            \
	X(P##_ECMD_T_RATE, P##_ECMD_TRANSFERS, NUMBER, "bytes_per_cy", "B/cy", 0, "the transfer rate")          \
	X(P##_ECMD_T_SOURCE, P##_ECMD_TRANSFERS, TEXT, "source", "", 0, "where the rate comes from")            \
	X(P##_ECMD_T_CY, P##_ECMD_TRANSFERS, NUMBER, "cy_per_cl", "cy/CL", 0, "the transfer's time")            \
	X(P##_ECMD_RATES, P##_ECMD, TEXT, "rates", "", 0, "the transfer costs: \"machine\" or \"fit\"")         \
	X(P##_ECMD_MEM_SAT, P##_ECMD, NUMBER, "mem_saturated_cy_per_cl", "cy/CL", SCHEMA_OPT,                   \
	  "the memory transfer at the saturated bandwidth")                                                    \
	X(P##_RL, PARENT, OBJECT, "roofline", "", SCHEMA_OPT, "the flop-counting Roofline (-p Roofline)")       \
	X(P##_RL_ERROR, P##_RL, TEXT, "error", "", SCHEMA_ALONE, "why it does not apply")                       \
	X(P##_RL_LEVELS, P##_RL, ROWS, "levels", "", 0, "one row per level")                                    \
	X(P##_RL_LEVEL, P##_RL_LEVELS, TEXT, "level", "", 0, "the level")                                       \
	X(P##_RL_BYTES, P##_RL_LEVELS, NUMBER, "bytes_per_it", "B/it", 0, "its traffic per iteration")          \
	X(P##_RL_INTENSITY, P##_RL_LEVELS, NUMBER, "intensity_flop_per_byte", "FLOP/B", 0, "arithmetic intensity") \
	X(P##_RL_BW, P##_RL_LEVELS, NUMBER, "bandwidth_gbs", "GB/s", 0, "its bandwidth")                        \
	X(P##_RL_BW_KERNEL, P##_RL_LEVELS, TEXT, "bw_kernel", "", 0, "the benchmark kernel that bandwidth is of") \
	X(P##_RL_LEVEL_GFLOPS, P##_RL_LEVELS, NUMBER, "gflops", "GFLOP/s", 0, "the bound it sets")              \
	X(P##_RL_LEVEL_CY, P##_RL_LEVELS, NUMBER, "cy_per_cl", "cy/CL", 0, "the bound in cy/CL")                \
	X(P##_RL_PEAK, P##_RL, NUMBER, "peak_gflops", "GFLOP/s", 0, "the core's peak")                          \
	X(P##_RL_CORE_CY, P##_RL, NUMBER, "core_cy_per_cl", "cy/CL", 0, "the core's bound")                     \
	X(P##_RL_BOTTLENECK, P##_RL, TEXT, "bottleneck", "", 0, "the level that bounds it, or \"core\"")        \
	X(P##_RL_GFLOPS, P##_RL, NUMBER, "gflops", "GFLOP/s", 0, "the predicted performance")                   \
	X(P##_RL_CY, P##_RL, NUMBER, "cy_per_cl", "cy/CL", 0, "the prediction")                                 \
	X(P##_ECM, PARENT, OBJECT, "ecm", "", SCHEMA_OPT | SCHEMA_OPEN_NUMBERS,                                  \
	  "the full ECM (-p ECM); besides these keys, each data transfer's cy/CL by name (T_L1L2, ...)")       \
	X(P##_ECM_ERROR, P##_ECM, TEXT, "error", "", SCHEMA_ALONE, "why it does not apply")                     \
	X(P##_ECM_T_OL, P##_ECM, NUMBER, "T_OL", "cy/CL", 0, "the in-core time that overlaps with transfers")    \
	X(P##_ECM_T_NOL, P##_ECM, NUMBER, "T_nOL", "cy/CL", 0, "the in-core time that does not")                \
	X(P##_ECM_CUMULATIVE, P##_ECM, NUMBERS, "cumulative_cy_per_cl", "cy/CL", 0,                             \
	  "the prediction with the data in L1, L2, ...")                                                       \
	X(P##_ECM_PREDICTION, P##_ECM, NUMBER, "prediction_cy_per_cl", "cy/CL", 0, "the prediction")            \
	X(P##_ECM_MLUPS, P##_ECM, NUMBER, "mlups", "MLUP/s", 0, "the prediction at the machine file's clock")   \
	X(P##_ECM_SENS, P##_ECM, OBJECT, "llc_sensitivity", "", SCHEMA_OPT,                                     \
	  "the prediction with the last-level cache halved and doubled")                                       \
	X(P##_ECM_SENS_LEVEL, P##_ECM_SENS, TEXT, "level", "", 0, "the last-level cache")                       \
	X(P##_ECM_SENS_BAND, P##_ECM_SENS, NUMBER, "band", "", 0, "its capacity band (--llc-band)")             \
	X(P##_ECM_SENS_HALF, P##_ECM_SENS, NUMBER, "half_cy_per_cl", "cy/CL", 0, "the prediction, halved")      \
	X(P##_ECM_SENS_DOUBLE, P##_ECM_SENS, NUMBER, "double_cy_per_cl", "cy/CL", 0, "the prediction, doubled") \
	X(P##_ECM_SATURATION, P##_ECM, INT, "saturation_cores", "cores", SCHEMA_OPT,                             \
	  "the cores that saturate the memory bandwidth")                                                      \
	X(P##_ECM_UNIT, P##_ECM, TEXT, "unit", "", 0, "the unit of its times (cy/CL)")                          \
	X(P##_RLASM, PARENT, OBJECT, "roofline_asm", "", SCHEMA_OPT, "the Roofline with llvm-mca's core ceiling") \
	X(P##_RLASM_CY, P##_RLASM, NUMBER, "cy_per_cl", "cy/CL", 0, "the prediction")                           \
	X(P##_RLASM_CORE_CY, P##_RLASM, NUMBER, "core_cy_per_cl", "cy/CL", 0, "the core ceiling")               \
	X(P##_RLASM_BOTTLENECK, P##_RLASM, TEXT, "bottleneck", "", 0, "the level that bounds it, or \"core\"")  \
	X(P##_BENCH, PARENT, OBJECT, "benchmark", "", SCHEMA_OPT, "the kernel compiled and run (-p Benchmark)") \
	X(P##_BENCH_ERROR, P##_BENCH, TEXT, "error", "", SCHEMA_ALONE, "why it did not run")                    \
	X(P##_BENCH_CY, P##_BENCH, NUMBER, "cy_per_cl", "cy/CL", 0, "the measured time")                        \
	X(P##_BENCH_CYCLES, P##_BENCH, TEXT, "cycles", "", 0, "how its cycles were counted")                    \
	X(P##_BENCH_GHZ, P##_BENCH, NUMBER, "clock_ghz", "GHz", 0, "the clock measured around it")              \
	X(P##_BENCH_SECONDS, P##_BENCH, NUMBER, "seconds_per_call", "s", 0, "the fastest repetition's call")    \
	X(P##_BENCH_CALLS, P##_BENCH, INT, "calls", "", 0, "calls per repetition")                             \
	X(P##_BENCH_REPS, P##_BENCH, INT, "repetitions", "", 0, "repetitions (the fastest counts)")             \
	X(P##_BENCH_COND, P##_BENCH, REF, "conditions", "conditions", 0, "the conditions it ran in")            \
	X(P##_BENCH_NOISY, P##_BENCH, BOOL, "noisy", "", 0, "still disturbed after its attempts")               \
	X(P##_BENCH_MLUPS, P##_BENCH, NUMBER, "mlups", "MLUP/s", 0, "the measured performance")                 \
	X(P##_BENCH_GFLOPS, P##_BENCH, NUMBER, "gflops", "GFLOP/s", 0, "the measured flops")                    \
	X(P##_BENCH_TIME_CY, P##_BENCH, NUMBER, "time_cy_per_cl", "cy/CL", SCHEMA_OPT,                          \
	  "the time x the measured clock, where the counters gave the cycles")                                 \
	X(P##_BENCH_COUNTERS, P##_BENCH, OBJECT, "counters", "", 0, "the hardware counters")                    \
	X(P##_BENCH_CNT_AVAILABLE, P##_BENCH_COUNTERS, BOOL, "available", "", 0, "whether they were read")      \
	X(P##_BENCH_CNT_EVENTS, P##_BENCH_COUNTERS, MAP, "events", "", SCHEMA_OPT,                              \
	  "by counter name (the repetition with the fewest cycles)")                                           \
	X(P##_BENCH_EV_EVENT, P##_BENCH_CNT_EVENTS, TEXT, "event", "", 0, "the event's full name")              \
	X(P##_BENCH_EV_PER_CALL, P##_BENCH_CNT_EVENTS, NUMBER, "per_call", "", 0, "its count per call")         \
	X(P##_BENCH_EV_PER_CL, P##_BENCH_CNT_EVENTS, NUMBER, "per_cl", "/CL", 0, "its count per cache line of work") \
	X(P##_BENCH_CNT_REASON, P##_BENCH_COUNTERS, TEXT, "reason", "", SCHEMA_OPT, "why they were not read")   \
	X(P##_BENCH_REL, P##_BENCH, OBJECT, "relative_error", "", 0,                                            \
	  "each model's (predicted - measured) / measured, a fraction")                                        \
	X(P##_BENCH_REL_ECM, P##_BENCH_REL, NUMBER, "ECM", "", SCHEMA_OPT, "the ECM's")                         \
	X(P##_BENCH_REL_RL, P##_BENCH_REL, NUMBER, "Roofline", "", SCHEMA_OPT, "the Roofline's")                \
	X(P##_BENCH_REL_RLASM, P##_BENCH_REL, NUMBER, "RooflineASM", "", SCHEMA_OPT, "RooflineASM's")

#define MODEL_RESULT(X)                                                                                        \
	X(MO_KERNEL, MO_ROOT, TEXT, "kernel", "", 0, "the kernel file")                                          \
	X(MO_MACHINE_FILE, MO_ROOT, TEXT, "machine_file", "", 0, "the machine file")                            \
	X(MO_PREDICTOR, MO_ROOT, TEXT, "cache_predictor", "", 0, "\"LC\" (layer conditions) or \"SIM\"")         \
	X(MO_CORES, MO_ROOT, INT, "cores", "", 0, "cores in use (--cores)")                                     \
	X(MO_FLOPS, MO_ROOT, INT, "flops_per_it", "FLOP/it", 0, "flops per iteration")                          \
	X(MO_SWEEP, MO_ROOT, TEXT, "sweep", "", SCHEMA_OPT, "the constant swept (a sweep)")                     \
	X(MO_INCORE, MO_ROOT, OBJECT, "incore", "", SCHEMA_OPT, "the in-core analysis with llvm-mca")           \
	X(MO_IC_ERROR, MO_INCORE, TEXT, "error", "", SCHEMA_ALONE, "why it did not run")                        \
	X(MO_IC_COMPILER, MO_INCORE, TEXT, "compiler", "", 0, "the compiler")                                   \
	X(MO_IC_FLAGS, MO_INCORE, TEXT, "flags", "", 0, "its flags")                                            \
	X(MO_IC_MCPU, MO_INCORE, TEXT, "mcpu", "", 0, "the -mcpu llvm-mca ran with")                            \
	X(MO_IC_MCPU_WANTED, MO_INCORE, TEXT, "mcpu_wanted", "", 0, "the machine file's -mcpu")                 \
	X(MO_IC_MCPU_CHOICE, MO_INCORE, TEXT, "mcpu_choice", "", 0, "how the -mcpu was chosen")                 \
	X(MO_IC_VECTOR_BITS, MO_INCORE, INT, "vector_bits", "bit", 0, "the widest registers the loop uses")     \
	X(MO_IC_LOOP_LABEL, MO_INCORE, TEXT, "loop_label", "", 0, "the innermost loop's label")                 \
	X(MO_IC_INSTRUCTIONS, MO_INCORE, INT, "instructions", "", 0, "its instructions")                        \
	X(MO_IC_ITS_PER_PASS, MO_INCORE, NUMBER, "iterations_per_pass", "", 0, "kernel iterations per pass")    \
	X(MO_IC_PORTS, MO_INCORE, ROWS, "ports", "", 0, "one row per port")                                     \
	X(MO_IC_PORT, MO_IC_PORTS, TEXT, "port", "", 0, "the port")                                             \
	X(MO_IC_PORT_CY, MO_IC_PORTS, NUMBER, "cycles_per_pass", "cy", 0, "its pressure per pass")              \
	X(MO_IC_PORT_NOL, MO_IC_PORTS, BOOL, "non_overlapping", "", 0, "a non-overlapping port (nOL)")          \
	X(MO_IC_PORT_OL, MO_IC_PORTS, BOOL, "overlapping", "", 0, "an overlapping port (OL)")                   \
	X(MO_IC_MCA_CY, MO_INCORE, NUMBER, "mca_cycles_per_pass", "cy", 0, "llvm-mca's cycles per pass")        \
	X(MO_IC_T_OL, MO_INCORE, NUMBER, "T_OL", "cy/CL", 0, "the time that overlaps with transfers")           \
	X(MO_IC_T_NOL, MO_INCORE, NUMBER, "T_nOL", "cy/CL", 0, "the time that does not")                        \
	X(MO_IC_SPLIT, MO_INCORE, OBJECT, "line_crossing", "", SCHEMA_OPT,                                      \
	  "accesses that span two cache lines (probe instr's line_split in the machine file)")                 \
	X(MO_IC_SPLIT_WIDTH, MO_IC_SPLIT, INT, "width_bits", "bit", 0, "the vector width")                      \
	X(MO_IC_SPLIT_LOADS, MO_IC_SPLIT, NUMBER, "loads_per_cl", "/CL", 0, "loads spanning two lines")         \
	X(MO_IC_SPLIT_STORES, MO_IC_SPLIT, NUMBER, "stores_per_cl", "/CL", 0, "stores spanning two lines")      \
	X(MO_IC_SPLIT_ADDED, MO_IC_SPLIT, NUMBER, "added_cy_per_cl", "cy/CL", 0, "added to T_nOL")              \
	X(MO_IC_SPLIT_MEMOPS, MO_IC_SPLIT, NUMBER, "memops_cy_per_cl", "cy/CL", 0,                              \
	  "the loads and stores at the probed costs")                                                          \
	X(MO_IC_SPLIT_BOUND, MO_IC_SPLIT, BOOL, "memops_bound", "", 0, "T_nOL from them")                       \
	X(MO_IC_SPLIT_COSTS, MO_IC_SPLIT, TEXT, "costs", "", 0, "where the costs come from")                    \
	X(MO_IC_T_OL_PORTS, MO_INCORE, NUMBER, "T_OL_ports", "cy/CL", 0, "T_OL of the port pressure")           \
	X(MO_IC_LATENCY_BOUND, MO_INCORE, BOOL, "latency_bound", "", 0, "a dependency chain bounds the loop")   \
	X(MO_IC_RECURRENCE, MO_INCORE, OBJECT, "recurrence_cy_per_pass", "", 0, "the loop's longest recurrence") \
	X(MO_IC_REC_MCA, MO_IC_RECURRENCE, NUMBER, "mca", "cy", 0, "with llvm-mca's latencies")                  \
	X(MO_IC_REC_PROBED, MO_IC_RECURRENCE, NUMBER, "probed", "cy", 0, "with probe instr's latencies")         \
	X(MO_IC_REC_NPROBED, MO_IC_RECURRENCE, INT, "probed_instructions", "", 0, "instructions probed")        \
	X(MO_IC_REC_USED, MO_IC_RECURRENCE, BOOL, "used", "", 0, "T_OL from the probed recurrence")             \
	X(MO_IC_UNIT, MO_INCORE, TEXT, "unit", "", 0, "the unit of T_OL and T_nOL (cy/CL)")                     \
	MODEL_SIZE_RESULT(X, MO, MO_ROOT, SCHEMA_OPT)                                                          \
	X(MO_BLOCKING, MO_ROOT, ROWS, "blocking", "", SCHEMA_OPT, "the blocking advice (-p Blocking), per level") \
	X(MO_BLK_ERROR, MO_BLOCKING, TEXT, "error", "", SCHEMA_ALONE, "why there is none")                      \
	X(MO_BLK_LEVEL, MO_BLOCKING, TEXT, "level", "", 0, "the cache level")                                   \
	X(MO_BLK_CONSTANT, MO_BLOCKING, TEXT, "constant", "", 0, "the constant to block")                       \
	X(MO_BLK_AT_MOST, MO_BLOCKING, INT, "block_at_most", "", 0, "the largest block that makes it better")   \
	X(MO_BLK_LOOPS, MO_BLOCKING, TEXT, "loops", "", 0, "the loops blocked")                                 \
	X(MO_BLK_CONDITION, MO_BLOCKING, TEXT, "condition", "", 0, "the layer condition then")                  \
	X(MO_BLK_MISSES_NOW, MO_BLOCKING, INT, "misses_now", "/it", 0, "misses per iteration now")              \
	X(MO_BLK_MISSES_BLOCKED, MO_BLOCKING, INT, "misses_blocked", "/it", 0, "misses per iteration then")     \
	X(MO_BLK_MODEL, MO_BLOCKING, TEXT, "model", "", 0, "what the times are: \"ECM\" or \"data transfers\"") \
	X(MO_BLK_CY_NOW, MO_BLOCKING, NUMBER, "cy_per_cl_now", "cy/CL", 0, "the prediction now")                \
	X(MO_BLK_CY_BLOCKED, MO_BLOCKING, NUMBER, "cy_per_cl_blocked", "cy/CL", 0, "the prediction blocked")    \
	X(MO_SECONDS, MO_ROOT, NUMBER, "seconds", "s", SCHEMA_OPT, "a sweep's time (left out of the golden records)") \
	X(MO_SIZES, MO_ROOT, ROWS, "sizes", "", SCHEMA_OPT, "a sweep: one row per size")                        \
	MODEL_SIZE_RESULT(X, MO_SIZE, MO_SIZES, 0)

SCHEMA_ENUM(MO, MODEL_RESULT);
extern const struct schema model_result;
#define MO_KEY(id) SCHEMA_KEY(model_result, MO_##id)

#endif
