/* The probe answers, described once: for each its C field in struct machine_probes, its JSON key
 * (and so its path in `probe --json` results and in the machine file's archscope.probes), its
 * unit, the Kerncraft key derived from it, and what it means. The JSON of `probe`, probe -o's
 * machine file and probe-results.json, --from-raw, and the readers of model (instr.ops,
 * instr.line_split) and tune (registers) all go through this table: a probe fills the struct,
 * machine/probes.c writes and reads it, and no other library file spells a probe key.
 *
 * Adding an answer (say caches.memory_latency_random, an answer in ns):
 *   1. a field in struct machine_probes (or in a row struct, for a per-level value):
 *      `struct machine_answer memory_latency_random;`
 *   2. a row in MACHINE_PROBES below, after its parent and in the order the output shows it:
 *      `X(CACHES_MEMORY_LATENCY_RANDOM, CACHES, ANSWER, "memory_latency_random", "ns", 0, NULL,
 *         "latency of random accesses over the largest buffer", MP_AT(memory_latency_random))`
 *      (a value in a table row: parent the TABLE entry, MP_ROW(struct row_type, field));
 *   3. cli/cmd-probe-record.c copies it from the probe's result into the struct, and the group's
 *      renderer (cli/cmd-probe-*.c) emits it under MP_KEY(CACHES_MEMORY_LATENCY_RANDOM);
 *   4. nothing else: the machine file, probe-results.json, --from-raw, `machine answers` and
 *      the tests (u-machine's probes cases, t0291) follow the table.
 * A new table (c2c.classes[]): a row struct, a count and an array (or MP_F_HEAP rows) in the
 * struct, a TABLE row with MP_TABLE(...), then one row per member with MP_ROW(...). */
#ifndef ARCHSCOPE_MACHINE_PROBES_H
#define ARCHSCOPE_MACHINE_PROBES_H

#include <jansson.h>
#include <stddef.h>

#include "common/error.h"
#include "machine/mtree.h"

/* Kinds of entries: ANSWER {value, unit, confidence, method, os_reported[, reason]} (struct
 * machine_answer), OBJECT (a JSON object, no storage), TABLE (an array of rows), REAL (double, NAN
 * is null), INT (int), LONG (long long), TEXT (char[]), INTS (int *, a count beside it), MATRIX
 * (double *, count x count, NAN is null). */
enum machine_probe_kind { MP_ANSWER, MP_OBJECT, MP_TABLE, MP_REAL, MP_INT, MP_LONG, MP_TEXT, MP_INTS, MP_MATRIX };

enum {
	MP_F_OPT = 1 << 0,      /* present only where have[id] says so (a probe group that ran), or null */
	MP_F_OS_INT = 1 << 1,   /* ANSWER: os_reported is an integer in JSON (bytes, ways, counts) */
	MP_F_HEAP = 1 << 2,     /* TABLE: the rows are a malloc'd array (a pointer at the offset) */
	MP_F_NULL_NEG = 1 << 3, /* LONG: a negative value is null */
	MP_F_REQ = 1 << 4,      /* probe -o has always written it (in its parent, where that is an object
				 * in the file): a file without it is cut (machine_check) */
};

/* X(ID, PARENT, KIND, key, unit, flags, kerncraft, what, location): MP_<ID> is the entry's id,
 * PARENT the id of the object, answer or table it sits in (ROOT: the results object). kerncraft:
 * the Kerncraft key of the machine file derived from this answer, or NULL. location: MP_AT(field)
 * in struct machine_probes, MP_ROW(row struct, field) in a table's row, MP_TABLE/MP_HEAP for a
 * table, MP_LIST for INTS and MATRIX, MP_NONE for an object. Parents come before children. */
#define MP_FLOPS_ROWS(X, P, p, S, s)                                                                       \
	X(FLOPS_##P##_##S##_TOTAL, FLOPS_##P##_##S, REAL, "total", "flop/cy", 0, "FLOPs per cycle",               \
	  "best of ADD, MUL and FMA", MP_AT(flops_per_cy[p][s][0]))                                              \
	X(FLOPS_##P##_##S##_ADD, FLOPS_##P##_##S, REAL, "ADD", "flop/cy", 0, "FLOPs per cycle", "additions",      \
	  MP_AT(flops_per_cy[p][s][1]))                                                                          \
	X(FLOPS_##P##_##S##_MUL, FLOPS_##P##_##S, REAL, "MUL", "flop/cy", 0, "FLOPs per cycle", "multiplications", \
	  MP_AT(flops_per_cy[p][s][2]))                                                                          \
	X(FLOPS_##P##_##S##_FMA, FLOPS_##P##_##S, REAL, "FMA", "flop/cy", 0, "FLOPs per cycle",                   \
	  "fused multiply-adds (2 flops each)", MP_AT(flops_per_cy[p][s][3]))

/* The conditions a group was measured in (common/conditions.h), one object per group: G the group's
 * id (its rows follow its own), g its index in struct machine_probes' cond[] (enum mp_group). */
#define MP_COND_ROWS(X, G, g)                                                                              \
	X(G##_COND, G, OBJECT, "conditions", "", 0, NULL, "what the group was measured in (its last attempt)",   \
	  MP_NONE)                                                                                               \
	X(G##_COND_WALL, G##_COND, REAL, "wall_s", "s", 0, NULL, "wall time of the last attempt",                \
	  MP_AT(cond[g].wall_s))                                                                                 \
	X(G##_COND_CPUS, G##_COND, INT, "cpus", "CPUs", 0, NULL, "CPUs the group used", MP_AT(cond[g].cpus))     \
	X(G##_COND_FOREIGN, G##_COND, REAL, "foreign_cpus", "CPUs", 0, NULL,                                    \
	  "other processes' CPU time on the CPUs it used, per second", MP_AT(cond[g].foreign_cpus))              \
	X(G##_COND_OTHER_N, G##_COND, INT, "other_cpus", "CPUs", 0, NULL,                                      \
	  "the other CPUs judged: those it may use, or every other online one where they share caches and memory", \
	  MP_AT(cond[g].other_cpus))                                                                             \
	X(G##_COND_OTHER, G##_COND, REAL, "foreign_other_cpus", "CPUs", 0, NULL,                                \
	  "other processes' CPU time on the other CPUs, per second", MP_AT(cond[g].foreign_other_cpus))          \
	X(G##_COND_STEAL, G##_COND, REAL, "steal_pct", "%", 0, NULL, "the VM's steal time on the CPUs it used",  \
	  MP_AT(cond[g].steal_pct))                                                                              \
	X(G##_COND_SWITCHES_S, G##_COND, REAL, "switches_per_s", "/s", 0, NULL,                                 \
	  "other processes' context switches a second (a wakeup or interrupt storm)", MP_AT(cond[g].switches_per_s)) \
	X(G##_COND_CLOCK, G##_COND, REAL, "clock_ghz", "GHz", 0, NULL, "the clock measured at its end",          \
	  MP_AT(cond[g].clock_ghz))                                                                              \
	X(G##_COND_CLOCK_EXP, G##_COND, REAL, "clock_expected_ghz", "GHz", 0, NULL,                             \
	  "the clock its cycles assume", MP_AT(cond[g].clock_expected_ghz))                                      \
	X(G##_COND_SWITCHES, G##_COND, LONG, "involuntary_switches", "", MP_F_NULL_NEG, NULL,                   \
	  "this process's involuntary context switches", MP_AT(cond[g].involuntary_switches))                    \
	X(G##_COND_MIGRATIONS, G##_COND, LONG, "migrations", "", MP_F_NULL_NEG, NULL,                           \
	  "migrations of its threads", MP_AT(cond[g].migrations))                                                \
	X(G##_COND_ATTEMPTS, G##_COND, INT, "attempts", "", 0, NULL, "measurements of the group (1: the first was quiet)", \
	  MP_AT(cond[g].attempts))                                                                               \
	X(G##_COND_NOISY, G##_COND, INT, "noisy", "", 0, NULL, "1: still disturbed after its attempts",          \
	  MP_AT(cond[g].noisy))                                                                                  \
	X(G##_COND_WHY, G##_COND, TEXT, "why", "", 0, NULL, "what disturbed it (\"\": nothing)", MP_AT(cond[g].why)) \
	X(G##_COND_IMPLAUSIBLE, G##_COND, TEXT, "implausible", "", 0, NULL,                                    \
	  "the physical bound an answer of the group breaks (\"\": none)", MP_AT(cond[g].implausible))

#define MACHINE_PROBES(X)                                                                                  \
	X(CPU, ROOT, INT, "cpu", "", MP_F_OPT, NULL, "the CPU the probes ran on", MP_AT(cpu))                      \
	X(SEED, ROOT, LONG, "seed", "", MP_F_OPT, NULL, "the seed of the random permutations", MP_AT(seed))        \
	X(CLOCK, ROOT, ANSWER, "clock", "GHz", MP_F_OPT | MP_F_REQ, "clock", "core clock, by a dependent add chain",          \
	  MP_AT(clock))                                                                                          \
	X(CLOCK_TSC, CLOCK, REAL, "tsc_ghz", "GHz", 0, NULL, "time-stamp counter rate (not core cycles)",        \
	  MP_AT(tsc_ghz))                                                                                        \
	MP_COND_ROWS(X, CLOCK, 0)                                                                      \
	X(LINE, ROOT, ANSWER, "line", "B", MP_F_OPT | MP_F_REQ, "cacheline size", "cache line", MP_AT(line))                  \
	X(LINE_WITNESSES, LINE, OBJECT, "witnesses", "", 0, NULL, "the line's two witnesses", MP_NONE)            \
	X(LINE_STRIDE, LINE_WITNESSES, ANSWER, "stride", "B", 0, NULL, "step of pairs D bytes apart",            \
	  MP_AT(line_stride))                                                                                    \
	X(LINE_COHERENCE, LINE_WITNESSES, ANSWER, "coherence", "B", 0, NULL, "coherence unit of two cores",      \
	  MP_AT(line_coherence))                                                                                 \
	X(LINE_FLUSH, LINE_WITNESSES, ANSWER, "flush", "B", 0, NULL,                                            \
	  "reload of a line after a flush D bytes further (one CPU)", MP_AT(line_flush))                         \
	X(LINE_WITNESSES_USED, LINE, INT, "witnesses_used", "", 0, NULL,                                        \
	  "prefetcher-proof witnesses (coherence, flush) the answer rests on: 2, 1 or 0", MP_AT(line_witnesses_used)) \
	MP_COND_ROWS(X, LINE, 1)                                                                      \
	X(CACHES, ROOT, OBJECT, "caches", "", MP_F_OPT | MP_F_REQ, NULL, "cache levels by pointer chasing", MP_NONE)          \
	X(CACHES_LEVELS, CACHES, TABLE, "levels", "", MP_F_REQ, "memory hierarchy", "one row per cache level",          \
	  MP_TABLE(ncaches, cache))                                                                              \
	X(CACHES_LEVEL, CACHES_LEVELS, INT, "level", "", 0, NULL, "1, 2, ...",                                  \
	  MP_ROW(struct machine_probes_cache, level))                                                            \
	X(CACHES_SIZE, CACHES_LEVELS, ANSWER, "size", "B", MP_F_OS_INT, "memory hierarchy", "effective size",     \
	  MP_ROW(struct machine_probes_cache, size))                                                             \
	X(CACHES_LATENCY, CACHES_LEVELS, ANSWER, "latency", "ns", 0, NULL, "load-to-use latency",                \
	  MP_ROW(struct machine_probes_cache, latency))                                                          \
	X(CACHES_LATENCY_CY, CACHES_LEVELS, REAL, "latency_cy", "cy", 0, NULL, "the latency in core cycles",     \
	  MP_ROW(struct machine_probes_cache, latency_cy))                                                       \
	X(CACHES_MEMORY_LATENCY, CACHES, ANSWER, "memory_latency", "ns", MP_F_REQ, NULL, "memory latency",              \
	  MP_AT(memory_latency))                                                                                 \
	X(CACHES_MEMORY_LATENCY_CY, CACHES, REAL, "memory_latency_cy", "cy", 0, NULL,                           \
	  "memory latency in core cycles", MP_AT(memory_latency_cy))                                             \
	X(CACHES_MEMORY_LATENCY_RANDOM, CACHES, ANSWER, "memory_latency_random", "ns", 0, NULL,                  \
	  "memory latency of a fully random chase over a large buffer on huge pages",                           \
	  MP_AT(memory_latency_random))                                                                          \
	X(CACHES_MEMORY_LATENCY_RANDOM_CY, CACHES, REAL, "memory_latency_random_cy", "cy", 0, NULL,             \
	  "the random memory latency in core cycles", MP_AT(memory_latency_random_cy))                           \
	MP_COND_ROWS(X, CACHES, 2)                                                                      \
	X(ASSOC, ROOT, OBJECT, "assoc", "", MP_F_OPT | MP_F_REQ, NULL, "associativity per cache level", MP_NONE)             \
	X(ASSOC_LEVELS, ASSOC, TABLE, "levels", "", MP_F_REQ, "memory hierarchy", "one row per cache level",            \
	  MP_TABLE(nassoc, assoc))                                                                               \
	X(ASSOC_LEVEL, ASSOC_LEVELS, INT, "level", "", 0, NULL, "1, 2, ...",                                    \
	  MP_ROW(struct machine_probes_assoc, level))                                                            \
	X(ASSOC_WAYS, ASSOC_LEVELS, ANSWER, "ways", "ways", MP_F_OS_INT, "memory hierarchy", "associativity",     \
	  MP_ROW(struct machine_probes_assoc, ways))                                                             \
	MP_COND_ROWS(X, ASSOC, 3)                                                                      \
	X(TLB, ROOT, OBJECT, "tlb", "", MP_F_OPT | MP_F_REQ, NULL, "page size and TLB levels", MP_NONE)                      \
	X(TLB_PAGE_SIZE, TLB, ANSWER, "page_size", "B", MP_F_OS_INT | MP_F_REQ, NULL, "page size", MP_AT(page_size))        \
	X(TLB_WITNESSES, TLB, OBJECT, "page_witnesses", "", 0, NULL, "the page size's two witnesses", MP_NONE)    \
	X(TLB_PAIRS, TLB_WITNESSES, ANSWER, "pairs", "B", MP_F_OS_INT, NULL, "step of pairs s bytes apart",      \
	  MP_AT(page_pairs))                                                                                     \
	X(TLB_FAULTS, TLB_WITNESSES, ANSWER, "faults", "B", MP_F_OS_INT, NULL, "end of the fault cost doubling", \
	  MP_AT(page_faults))                                                                                    \
	X(TLB_LEVELS, TLB, TABLE, "levels", "", MP_F_REQ, NULL, "one row per TLB level", MP_TABLE(ntlb, tlb))            \
	X(TLB_LEVEL, TLB_LEVELS, INT, "level", "", 0, NULL, "1, 2, ...", MP_ROW(struct machine_probes_tlb, level)) \
	X(TLB_ENTRIES, TLB_LEVELS, ANSWER, "entries", "entries", MP_F_OS_INT, NULL, "entries user code can use", \
	  MP_ROW(struct machine_probes_tlb, entries))                                                            \
	X(TLB_COST, TLB_LEVELS, REAL, "cost_ns", "ns", 0, NULL, "the TLB's share of an access at this level",   \
	  MP_ROW(struct machine_probes_tlb, cost_ns))                                                            \
	MP_COND_ROWS(X, TLB, 4)                                                                      \
	X(INSTR, ROOT, OBJECT, "instr", "", MP_F_OPT | MP_F_REQ, NULL, "instruction latencies and throughputs", MP_NONE)     \
	X(INSTR_OPS, INSTR, TABLE, "ops", "", MP_F_REQ, NULL, "one row per operation, type and width",                 \
	  MP_TABLE(nops, op))                                                                                    \
	X(INSTR_OP, INSTR_OPS, TEXT, "op", "", 0, NULL, "add, sub, mul, div, fma", MP_ROW(struct machine_probes_op, op)) \
	X(INSTR_TYPE, INSTR_OPS, TEXT, "type", "", 0, NULL, "int32, int64, float, double",                     \
	  MP_ROW(struct machine_probes_op, type))                                                                \
	X(INSTR_WIDTH, INSTR_OPS, INT, "width_bits", "bits", 0, NULL, "operand width",                          \
	  MP_ROW(struct machine_probes_op, width_bits))                                                          \
	X(INSTR_LATENCY, INSTR_OPS, REAL, "latency_cy", "cy", 0, NULL, "latency in core cycles",                \
	  MP_ROW(struct machine_probes_op, latency_cy))                                                          \
	X(INSTR_THROUGHPUT, INSTR_OPS, REAL, "throughput_per_cy", "/cy", 0, NULL, "operations per core cycle",   \
	  MP_ROW(struct machine_probes_op, throughput_per_cy))                                                   \
	X(INSTR_IN_FLIGHT, INSTR_OPS, INT, "in_flight", "", 0, NULL, "independent operations in flight",        \
	  MP_ROW(struct machine_probes_op, in_flight))                                                           \
	X(FLOPS, INSTR, OBJECT, "flops_per_cycle", "", 0, "FLOPs per cycle", "peak FLOPs per core cycle",        \
	  MP_NONE)                                                                                               \
	X(FLOPS_SP, FLOPS, OBJECT, "SP", "", 0, NULL, "single precision", MP_NONE)                               \
	X(FLOPS_SP_SCALAR, FLOPS_SP, OBJECT, "scalar", "", 0, NULL, "scalar operations", MP_NONE)                \
	MP_FLOPS_ROWS(X, SP, 0, SCALAR, 0)                                                                     \
	X(FLOPS_SP_VECTOR, FLOPS_SP, OBJECT, "vector", "", 0, NULL, "the widest vectors", MP_NONE)               \
	MP_FLOPS_ROWS(X, SP, 0, VECTOR, 1)                                                                     \
	X(FLOPS_DP, FLOPS, OBJECT, "DP", "", 0, NULL, "double precision", MP_NONE)                               \
	X(FLOPS_DP_SCALAR, FLOPS_DP, OBJECT, "scalar", "", 0, NULL, "scalar operations", MP_NONE)                \
	MP_FLOPS_ROWS(X, DP, 1, SCALAR, 0)                                                                     \
	X(FLOPS_DP_VECTOR, FLOPS_DP, OBJECT, "vector", "", 0, NULL, "the widest vectors", MP_NONE)               \
	MP_FLOPS_ROWS(X, DP, 1, VECTOR, 1)                                                                     \
	X(SPLIT, INSTR, TABLE, "line_split", "", 0, NULL, "vector accesses within a line and across two",      \
	  MP_TABLE(nsplit, split))                                                                               \
	X(SPLIT_WIDTH, SPLIT, INT, "width_bits", "bits", 0, NULL, "vector width",                               \
	  MP_ROW(struct machine_probes_split, width_bits))                                                       \
	X(SPLIT_LOAD, SPLIT, REAL, "load_cy", "cy", 0, NULL, "a load within a line",                            \
	  MP_ROW(struct machine_probes_split, load_cy))                                                          \
	X(SPLIT_LOAD_SPLIT, SPLIT, REAL, "load_split_cy", "cy", 0, NULL, "a load across two lines",            \
	  MP_ROW(struct machine_probes_split, load_split_cy))                                                    \
	X(SPLIT_STORE, SPLIT, REAL, "store_cy", "cy", 0, NULL, "a store within a line",                         \
	  MP_ROW(struct machine_probes_split, store_cy))                                                         \
	X(SPLIT_STORE_SPLIT, SPLIT, REAL, "store_split_cy", "cy", 0, NULL, "a store across two lines",         \
	  MP_ROW(struct machine_probes_split, store_split_cy))                                                   \
	X(SPLIT_MIXED, SPLIT, REAL, "mixed_cy", "cy", 0, NULL, "a load and a store, aligned",                   \
	  MP_ROW(struct machine_probes_split, mixed_cy))                                                         \
	X(SPLIT_CLOCK, SPLIT, REAL, "clock_ghz", "GHz", 0, NULL, "the clock the cycles are at",                 \
	  MP_ROW(struct machine_probes_split, clock_ghz))                                                        \
	MP_COND_ROWS(X, INSTR, 5)                                                                      \
	X(CONTEXTS, ROOT, OBJECT, "contexts", "", MP_F_OPT | MP_F_REQ, NULL, "execution contexts", MP_NONE)                  \
	X(CONTEXTS_FP, CONTEXTS, ANSWER, "fp", "contexts", MP_F_OS_INT | MP_F_REQ, "cores per socket",                     \
	  "contexts running FP work side by side: the cores", MP_AT(contexts_fp))                                \
	X(CONTEXTS_INT, CONTEXTS, ANSWER, "int", "contexts", MP_F_OS_INT | MP_F_REQ, "threads per core",                   \
	  "contexts running integer work side by side: the hardware threads", MP_AT(contexts_int))               \
	X(CONTEXTS_MEM, CONTEXTS, ANSWER, "mem", "contexts", MP_F_OS_INT | MP_F_REQ, NULL,                                 \
	  "contexts chasing pointers side by side", MP_AT(contexts_mem))                                         \
	MP_COND_ROWS(X, CONTEXTS, 6)                                                                      \
	X(REGISTERS, ROOT, OBJECT, "registers", "", MP_F_OPT | MP_F_REQ, NULL, "registers a C loop keeps live", MP_NONE)     \
	X(REGISTERS_INT, REGISTERS, ANSWER, "int", "registers", MP_F_OS_INT | MP_F_REQ, NULL, "integer (uint64_t)",        \
	  MP_AT(registers_int))                                                                                  \
	X(REGISTERS_FP, REGISTERS, ANSWER, "fp", "registers", MP_F_OS_INT | MP_F_REQ, NULL, "FP (double), widest vectors", \
	  MP_AT(registers_fp))                                                                                   \
	X(REGISTERS_NARROW, REGISTERS, OBJECT, "narrow", "", 0, NULL, "built without AVX-512", MP_NONE)           \
	X(REGISTERS_NARROW_INT, REGISTERS_NARROW, ANSWER, "int", "registers", MP_F_OS_INT, NULL,                \
	  "integer (uint64_t)", MP_AT(registers_narrow_int))                                                     \
	X(REGISTERS_NARROW_FP, REGISTERS_NARROW, ANSWER, "fp", "registers", MP_F_OS_INT, NULL, "FP (double)",   \
	  MP_AT(registers_narrow_fp))                                                                            \
	MP_COND_ROWS(X, REGISTERS, 7)                                                                      \
	X(TIMESLICE, ROOT, OBJECT, "timeslice", "", MP_F_OPT | MP_F_REQ, NULL, "the scheduler's time slice", MP_NONE)        \
	X(TIMESLICE_SLICE, TIMESLICE, ANSWER, "slice", "ms", MP_F_REQ, NULL, "time slice, from the gaps",               \
	  MP_AT(timeslice))                                                                                      \
	X(TIMESLICE_SCHEDSTAT, TIMESLICE, ANSWER, "schedstat", "ms", 0, NULL, "the kernel's slice (schedstat)",  \
	  MP_AT(schedstat))                                                                                      \
	MP_COND_ROWS(X, TIMESLICE, 8)                                                                      \
	X(C2C, ROOT, OBJECT, "c2c", "", MP_F_OPT | MP_F_REQ, NULL, "core-to-core bandwidth and latency (null: one CPU)",     \
	  MP_NONE)                                                                                               \
	X(C2C_CPUS, C2C, INTS, "cpus", "", 0, NULL, "the CPUs of the matrices' rows and columns",               \
	  MP_LIST(c2c.ncpus, c2c.cpus))                                                                          \
	X(C2C_BANDWIDTH, C2C, MATRIX, "bandwidth_gbs", "GB/s", 0, NULL, "one-way bandwidth at the largest block", \
	  MP_LIST(c2c.ncpus, c2c.bandwidth_gbs))                                                                 \
	X(C2C_BLOCK, C2C, LONG, "bandwidth_block_bytes", "B", 0, NULL, "the block of the bandwidths",           \
	  MP_AT(c2c.block_bytes))                                                                                \
	X(C2C_LATENCY, C2C, MATRIX, "latency_ns", "ns", 0, NULL, "one-way latency of a cache line",             \
	  MP_LIST(c2c.ncpus, c2c.latency_ns))                                                                    \
	X(C2C_MODE, C2C, TEXT, "mode", "", 0, NULL,                                                             \
	  "classes (a few pairs per topology class, the matrices filled by class) or all_pairs",                \
	  MP_AT(c2c.mode))                                                                                       \
	X(C2C_PAIRS_MEASURED, C2C, INT, "pairs_measured", "pairs", 0, NULL, "pairs measured with their own figures", \
	  MP_AT(c2c.pairs_measured))                                                                             \
	X(C2C_CLASSES, C2C, TABLE, "classes", "", MP_F_HEAP, NULL,                                              \
	  "classes of pairs by what the topology says the two CPUs share",                                      \
	  MP_HEAP(c2c.nclasses, c2c.cls, struct machine_probes_c2c_class, MACHINE_PROBES_MAX_NODES))             \
	X(C2C_CLASS_NAME, C2C_CLASSES, TEXT, "name", "", 0, NULL, "smt, L2, L3, node, package, machine d=21, ...", \
	  MP_ROW(struct machine_probes_c2c_class, name))                                                         \
	X(C2C_CLASS_PAIRS, C2C_CLASSES, INT, "pairs", "pairs", 0, NULL, "pairs of CPUs in the class",            \
	  MP_ROW(struct machine_probes_c2c_class, pairs))                                                        \
	X(C2C_CLASS_MEASURED, C2C_CLASSES, INT, "measured", "pairs", 0, NULL, "of them measured",               \
	  MP_ROW(struct machine_probes_c2c_class, measured))                                                     \
	X(C2C_TREE, C2C, OBJECT, "tree", "", MP_F_OPT | MP_F_REQ, NULL, "locality tree (null: none built)", MP_NONE)         \
	X(C2C_NODES, C2C_TREE, TABLE, "nodes", "", MP_F_HEAP, NULL, "cliques, the root first",                  \
	  MP_HEAP(c2c.nnodes, c2c.node, struct machine_probes_node, MACHINE_PROBES_MAX_NODES))                   \
	X(C2C_NODE_CPUS, C2C_NODES, INTS, "cpus", "", 0, NULL, "the clique's CPUs",                             \
	  MP_LIST_ROW(struct machine_probes_node, ncpus, cpus))                                                  \
	X(C2C_NODE_PARENT, C2C_NODES, INT, "parent", "", 0, NULL, "index of the parent clique, -1: the root",   \
	  MP_ROW(struct machine_probes_node, parent))                                                            \
	X(C2C_NODE_DEPTH, C2C_NODES, INT, "depth", "", 0, NULL, "0 for the root",                               \
	  MP_ROW(struct machine_probes_node, depth))                                                             \
	X(C2C_NODE_SPLIT, C2C_NODES, LONG, "split_at_block_bytes", "B", MP_F_NULL_NEG, NULL,                    \
	  "the block whose bandwidths split it off (null: the root)",                                            \
	  MP_ROW(struct machine_probes_node, split_at_block_bytes))                                              \
	X(C2C_LEAVES, C2C_TREE, INT, "leaves", "", MP_F_REQ, NULL, "cliques without children", MP_AT(c2c.leaves))           \
	MP_COND_ROWS(X, C2C, 9)

enum machine_probe_id {
	MP_ROOT = -1,
#define X(id, ...) MP_##id,
	MACHINE_PROBES(X)
#undef X
	MP_COUNT
};

#define MACHINE_PROBES_MAX_LEVELS 8
#define MACHINE_PROBES_MAX_OPS 64
#define MACHINE_PROBES_MAX_SPLIT 4
#define MACHINE_PROBES_MAX_NODES 1024
#define MACHINE_PROBES_MAX_CPUS 1024
/* The largest measured value read back (in size): 2^53, beyond every size, rate and time a probe
 * measures and where doubles stop holding whole numbers; the readers refuse more ("1e308"). */
#define MACHINE_PROBES_MAX_VALUE 9007199254740992.0

/* One answer; its unit is the table's. */
struct machine_answer {
	double value;           /* NAN: no answer */
	double confidence;      /* 0..1 */
	double os_reported;     /* NAN: the OS reports nothing */
	char method[512];
	char reason[400];       /* "": none */
	char noisy[240];        /* "": measured in quiet conditions; else what disturbed it (conditions.h),
				 * after its re-measurements: JSON "noisy": true, "noisy_why" */
	char implausible[240];  /* "": within its physical bounds; else the bound it breaks */
};

struct machine_probes;

/* The probe groups, in the order probe runs them; the index of their conditions in cond[]. */
enum mp_group { MP_G_CLOCK, MP_G_LINE, MP_G_CACHES, MP_G_ASSOC, MP_G_TLB, MP_G_INSTR, MP_G_CONTEXTS,
		MP_G_REGISTERS, MP_G_TIMESLICE, MP_G_C2C, MP_GROUPS };

/* What one group was measured in (struct conditions, as kept in the record and the machine file). */
struct machine_probes_cond {
	double wall_s, foreign_cpus, foreign_other_cpus, steal_pct, switches_per_s, clock_ghz, clock_expected_ghz;
	long long involuntary_switches, migrations;
	int cpus, other_cpus, attempts, noisy;
	char why[240];
	char implausible[240];
};

/* The entry (MP_CLOCK, MP_CACHES, ...) of a group. */
int machine_probes_group_id(enum mp_group g);
/* Frees what group g holds on the heap (c2c's matrices and tables), its counts 0: before the
 * group is recorded again (a re-measurement). */
void machine_probes_group_release(struct machine_probes *p, enum mp_group g);
/* Flags every answer of group g in p (table rows included): noisy and implausible ("" or NULL:
 * not) into each answer's flags, its confidence multiplied by factor. */
void machine_probes_flag(struct machine_probes *p, enum mp_group g, const char *noisy, const char *implausible,
			 double factor);
/* How many answers of p carry a flag (noisy or implausible); buf gets the first few as
 * "caches.levels[].size: other processes used 1.4 of 2 CPUs; ...". */
int machine_probes_flagged(const struct machine_probes *p, char *buf, size_t len);
/* The contexts group on a shared host (issue 47 item 4): other processes that hold CPUs make the
 * teams slow before the contexts run out, so an answer below allowed_cpus measured while they ran
 * (foreign_cpus of them, on every CPU) is no answer: value none, confidence 0, the reason says
 * "cannot tell" and what was measured. Returns the answers withdrawn. */
int machine_probes_contexts_uncertain(struct machine_probes *p, int allowed_cpus, double foreign_cpus);
/* The physical bounds of group g's answers (docs/conditions.md): 1 with why filled when an answer
 * breaks one, else 0. allowed_cpus: the CPUs this process may use (contexts' upper bound). */
int machine_probes_bounds(const struct machine_probes *p, enum mp_group g, int allowed_cpus, char *why, size_t len);

struct machine_probes_cache {
	int level;
	struct machine_answer size, latency;
	double latency_cy;
};

struct machine_probes_assoc {
	int level;
	struct machine_answer ways;
};

struct machine_probes_tlb {
	int level;
	struct machine_answer entries;
	double cost_ns;
};

struct machine_probes_op {
	char op[16], type[16];
	int width_bits;
	double latency_cy, throughput_per_cy;
	int in_flight;
};

struct machine_probes_split {
	int width_bits;
	double load_cy, load_split_cy, store_cy, store_split_cy, mixed_cy, clock_ghz;
};

struct machine_probes_node {
	int ncpus;
	int *cpus;
	int parent, depth;
	long long split_at_block_bytes;  /* -1: none (the root) */
};

struct machine_probes_c2c_class {
	char name[112];
	int pairs, measured;
};

struct machine_probes_c2c {
	int ncpus;
	int *cpus;
	double *bandwidth_gbs, *latency_ns;  /* ncpus x ncpus, row-major; NULL: none */
	long long block_bytes;
	int nnodes;
	struct machine_probes_node *node;
	int leaves;
	char mode[16];           /* "classes" or "all_pairs" ("": not said, files before classes) */
	int pairs_measured;
	int nclasses;
	struct machine_probes_c2c_class *cls;
};

/* What a probe run found, typed. Set up with machine_probes_init (every value "none", every
 * group absent), free with machine_probes_release. */
struct machine_probes {
	unsigned char have[MP_COUNT];   /* MP_F_OPT entries: MP_HAVE_* */
	int cpu;
	long long seed;
	struct machine_answer clock;
	double tsc_ghz;
	struct machine_answer line, line_stride, line_coherence, line_flush;
	int line_witnesses_used;
	int ncaches;
	struct machine_probes_cache cache[MACHINE_PROBES_MAX_LEVELS];
	struct machine_answer memory_latency;
	double memory_latency_cy;
	struct machine_answer memory_latency_random;
	double memory_latency_random_cy;
	int nassoc;
	struct machine_probes_assoc assoc[MACHINE_PROBES_MAX_LEVELS];
	struct machine_answer page_size, page_pairs, page_faults;
	int ntlb;
	struct machine_probes_tlb tlb[MACHINE_PROBES_MAX_LEVELS];
	int nops;
	struct machine_probes_op op[MACHINE_PROBES_MAX_OPS];
	double flops_per_cy[2][2][4];   /* [SP, DP][scalar, vector][total, ADD, MUL, FMA] */
	int nsplit;
	struct machine_probes_split split[MACHINE_PROBES_MAX_SPLIT];
	struct machine_answer contexts_fp, contexts_int, contexts_mem;
	struct machine_answer registers_int, registers_fp, registers_narrow_int, registers_narrow_fp;
	struct machine_answer timeslice, schedstat;
	struct machine_probes_c2c c2c;
	struct machine_probes_cond cond[MP_GROUPS];
};

enum { MP_HAVE_NO, MP_HAVE_YES, MP_HAVE_NULL };

/* One entry of the table. */
struct machine_probe_field {
	int id, parent;
	enum machine_probe_kind kind;
	const char *key;
	const char *unit;
	unsigned flags;
	const char *kerncraft;
	const char *what;
	size_t offset;      /* in struct machine_probes, or in the row of the enclosing table */
	size_t count;       /* TABLE, INTS, MATRIX: offset of the int count (a MATRIX is count x count) */
	size_t row_size;    /* TABLE: one row */
	size_t max;         /* TABLE: rows at most; TEXT: the buffer */
};

extern const struct machine_probe_field machine_probe_fields[MP_COUNT];
/* "answer", "object", "table", "number", "integer", "string", "integers", "matrix". */
const char *machine_probe_kind_name(enum machine_probe_kind kind);
/* The JSON key of an entry: MP_KEY(CACHES_SIZE) is "size". */
#define MP_KEY(id) (machine_probe_fields[MP_##id].key)

/* The path of an entry: "caches.levels[].size"; with in_file, its key path in the machine file
 * ("archscope.probes.caches.levels[].size"). */
const char *machine_probes_path(int id, int in_file, char *buf, size_t len);

/* Copies text into a buffer of len bytes, cut at a character boundary (UTF-8) where it is longer. */
void machine_probes_text(char *buf, size_t len, const char *text);

/* The storage of entry id in p (a struct machine_answer for an ANSWER, a double for a REAL...),
 * or NULL for an object or an entry inside a table's rows. */
void *machine_probes_at(const struct machine_probes *p, int id);
/* The next child of parent after prev (prev = parent: the first), in table order; MP_COUNT after
 * the last: for (int c = machine_probes_child(id, id); c < MP_COUNT; c = machine_probes_child(id, c)). */
int machine_probes_child(int parent, int prev);

void machine_probes_init(struct machine_probes *p);
void machine_probes_release(struct machine_probes *p);
/* Sets a new row of table (an MP_TABLE id) to "none" everywhere. */
void machine_probes_row_init(int table, void *row);

/* p as JSON: probe -o's archscope.probes and probe-results.json. NULL on no memory. */
json_t *machine_probes_json(const struct machine_probes *p);
/* Reads the entries of the table from JSON (what machine_probes_json or `probe --json` wrote)
 * into p (initialised here): what is missing or null stays "none"; a value of the wrong kind (a
 * string for a number, a number for an answer), a number beyond MACHINE_PROBES_MAX_VALUE or an
 * integer out of its type is -EINVAL with a message naming its path from j ("line.value: 1e+308
 * is not ..."), and p is left "none". 0, -EINVAL or -ENOMEM. */
int machine_probes_from_json(const json_t *j, struct machine_probes *p, struct as_error *err);
/* The same from a machine file's archscope.probes. Returns 1 when the file has that section, 0
 * when not (p is "none"), or -ENOMEM. */
int machine_probes_read(const struct mtree *t, struct machine_probes *p, struct as_error *err);

#endif
