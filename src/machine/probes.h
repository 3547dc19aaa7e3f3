/* The probe answers and their evidence, described once: for each its C field in struct
 * machine_probes, its JSON key (and so its path in `probe --json` results and in the machine
 * file's archscope.probes), its unit, the Kerncraft key derived from it, and what it means. A probe
 * sets the struct (its find and analyze functions); machine/probes.c writes it as the results of `probe --json`,
 * probe-results.json and, less its evidence (MP_F_EVIDENCE), the machine file's archscope.probes,
 * and reads it back for --from-raw, the page (page/), model (instr.ops, instr.line_split) and tune
 * (registers). No other file spells a probe key (tests/cli/t0530-schema-keys.sh).
 *
 * Adding an answer (say caches.memory_latency_random, an answer in ns):
 *   1. a field in struct machine_probes (or in a row struct, for a per-level value):
 *      `struct machine_answer memory_latency_random;`
 *   2. a row in MACHINE_PROBES below, after its parent and in the order the output shows it:
 *      `X(CACHES_MEMORY_LATENCY_RANDOM, CACHES, ANSWER, "memory_latency_random", "ns", 0, NULL,
 *         "latency of random accesses over the largest buffer", MP_AT(memory_latency_random))`
 *      (a value in a table row: parent the TABLE entry, MP_ROW(struct row_type, field); evidence
 *      beside it, such as a curve: MP_F_EVIDENCE, MP_CURVE_ROWS);
 *   3. the measurement: the probe's find or analyze function sets the field where it finds the
 *      answer (`probe_answer_set(&rec->memory_latency_random, ns, 0.9, "...")`, probe/probe.h),
 *      and the group's text renderer (cli/cmd-probe-*.c) shows it with a label;
 *   4. nothing else: `probe --json`, the machine file, probe-results.json, --from-raw, the page's
 *      answers table, `machine answers` and the tests (u-machine's probes cases, t0291) follow
 *      the table. tests/unit/u-machine-newrow.c does exactly this with a fake row.
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
 * (double *, count x count, NAN is null), BOOL (int, true or false), REALS (double *, a count
 * beside it, NAN is null). */
enum machine_probe_kind { MP_ANSWER, MP_OBJECT, MP_TABLE, MP_REAL, MP_INT, MP_LONG, MP_TEXT, MP_INTS, MP_MATRIX,
			  MP_BOOL, MP_REALS };

enum {
	MP_F_OPT = 1 << 0,      /* present only where have[id] says so (a probe group that ran), or null */
	MP_F_OS_INT = 1 << 1,   /* ANSWER: os_reported is an integer in JSON (bytes, ways, counts) */
	MP_F_HEAP = 1 << 2,     /* TABLE: the rows are a malloc'd array (a pointer at the offset) */
	MP_F_NULL_NEG = 1 << 3, /* LONG: a negative value is null */
	MP_F_REQ = 1 << 4,      /* probe -o has always written it (in its parent, where that is an object
				 * in the file): a file without it is cut (machine_check) */
	MP_F_OMIT = 1 << 5,     /* absent when none: REAL NAN, INT and LONG negative (initially -1), BOOL
				 * false, TEXT "", TABLE, INTS and REALS without entries */
	MP_F_WHOLE = 1 << 6,    /* REAL: written as a JSON integer (counts kept as doubles: threads, K) */
	MP_F_NULLABLE = 1 << 7, /* OBJECT: null unless the int at MP_IF(...) is set (the reader sets it);
				 * TEXT: null when "" */
	MP_F_EVIDENCE = 1 << 8, /* evidence, not an answer (curves, points, how it was measured): in
				 * `probe --json` and probe-results.json, not in the machine file */
	MP_F_WITNESSES = 1 << 9, /* OBJECT: the answers in it witness another answer: its parent when
				  * that is an answer, else the answer just before it (machine_probes_witnesses) */
};

/* The Kerncraft keys of the machine file that probe answers give (the table's kerncraft column),
 * spelled once: machine/read.c, write.c and check.c use these names. */
#define MK_CLOCK "clock"
#define MK_CACHELINE "cacheline size"
#define MK_HIERARCHY "memory hierarchy"
#define MK_FLOPS "FLOPs per cycle"
#define MK_CORES_PER_SOCKET "cores per socket"
#define MK_THREADS_PER_CORE "threads per core"

/* The groups' keys, spelled once: the group's entry and its timing. */
#define MP_GROUP_KEY_CLOCK "clock"
#define MP_GROUP_KEY_LINE "line"
#define MP_GROUP_KEY_CACHES "caches"
#define MP_GROUP_KEY_ASSOC "assoc"
#define MP_GROUP_KEY_TLB "tlb"
#define MP_GROUP_KEY_INSTR "instr"
#define MP_GROUP_KEY_CONTEXTS "contexts"
#define MP_GROUP_KEY_REGISTERS "registers"
#define MP_GROUP_KEY_TIMESLICE "timeslice"
#define MP_GROUP_KEY_C2C "c2c"

/* X(ID, PARENT, KIND, key, unit, flags, kerncraft, what, location): MP_<ID> is the entry's id,
 * PARENT the id of the object, answer or table it sits in (ROOT: the results object). kerncraft:
 * the Kerncraft key of the machine file derived from this answer, or NULL. location: MP_AT(field)
 * in struct machine_probes, MP_ROW(row struct, field) in a table's row, MP_TABLE/MP_HEAP for a
 * table, MP_LIST for INTS and MATRIX, MP_NONE for an object. Parents come before children. */
#define MP_FLOPS_ROWS(X, P, p, S, s)                                                                       \
	X(FLOPS_##P##_##S##_TOTAL, FLOPS_##P##_##S, REAL, "total", "flop/cy", 0, MK_FLOPS,               \
	  "best of ADD, MUL and FMA", MP_AT(flops_per_cy[p][s][0]))                                              \
	X(FLOPS_##P##_##S##_ADD, FLOPS_##P##_##S, REAL, "ADD", "flop/cy", 0, MK_FLOPS, "additions",      \
	  MP_AT(flops_per_cy[p][s][1]))                                                                          \
	X(FLOPS_##P##_##S##_MUL, FLOPS_##P##_##S, REAL, "MUL", "flop/cy", 0, MK_FLOPS, "multiplications", \
	  MP_AT(flops_per_cy[p][s][2]))                                                                          \
	X(FLOPS_##P##_##S##_FMA, FLOPS_##P##_##S, REAL, "FMA", "flop/cy", 0, MK_FLOPS,                   \
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

/* A curve: one row per point {x, min_ns, median_ns} (struct machine_probes_point), x under its own
 * key and unit; LOC: MP_CURVE_AT(field) in struct machine_probes, MP_CURVE_IN(row type, field) in a
 * table's row. */
#define MP_CURVE_ROWS(X, ID, PARENT, KEY, FLAGS, WHAT, XKEY, XUNIT, LOC)                                    \
	X(ID, PARENT, TABLE, KEY, "", MP_F_HEAP | MP_F_EVIDENCE | (FLAGS), NULL, WHAT, LOC)                        \
	X(ID##_X, ID, REAL, XKEY, XUNIT, 0, NULL, "where the point was measured",                               \
	  MP_ROW(struct machine_probes_point, x))                                                               \
	X(ID##_MIN, ID, REAL, "min_ns", "ns", 0, NULL, "latency per access, the fastest repetition",           \
	  MP_ROW(struct machine_probes_point, min))                                                             \
	X(ID##_MEDIAN, ID, REAL, "median_ns", "ns", 0, NULL, "latency per access, the median repetition",      \
	  MP_ROW(struct machine_probes_point, median))

/* A contexts answer's evidence (K: FP, INT or MEM; f: its struct machine_probes_contexts_ev). */
#define MP_CONTEXTS_EV_ROWS(X, K, f)                                                                       \
	X(CONTEXTS_##K##_SHAPE, CONTEXTS_##K, TEXT, "shape", "", MP_F_EVIDENCE, NULL,                           \
	  "past the last context: jump, ramp or flat", MP_AT(f.shape))                                          \
	X(CONTEXTS_##K##_CURVE, CONTEXTS_##K, TABLE, "curve", "", MP_F_HEAP | MP_F_EVIDENCE, NULL,              \
	  "time of a team against its size, over a team of one", MP_CURVE_AT(f.curve))                          \
	X(CONTEXTS_##K##_THREADS, CONTEXTS_##K##_CURVE, REAL, "threads", "threads", MP_F_WHOLE, NULL,           \
	  "team size", MP_ROW(struct machine_probes_point, x))                                                  \
	X(CONTEXTS_##K##_NMIN, CONTEXTS_##K##_CURVE, REAL, "normalised_min", "", 0, NULL,                       \
	  "fastest time over a team of one's", MP_ROW(struct machine_probes_point, min))                        \
	X(CONTEXTS_##K##_NMEDIAN, CONTEXTS_##K##_CURVE, REAL, "normalised_median", "", 0, NULL,                 \
	  "median time over a team of one's", MP_ROW(struct machine_probes_point, median))                      \
	X(CONTEXTS_##K##_TEAMS, CONTEXTS_##K, INT, "teams", "", MP_F_EVIDENCE, NULL, "team sizes measured",     \
	  MP_AT(f.teams))

/* A registers answer's evidence (ID: its answer; f: its struct machine_probes_registers_ev). */
#define MP_REGISTERS_EV_ROWS(X, ID, f)                                                                     \
	X(ID##_FLAGS, ID, TEXT, "flags", "", MP_F_EVIDENCE, NULL, "the build's compiler flags", MP_AT(f.flags))  \
	X(ID##_STEP, ID, REAL, "step_relative", "", MP_F_EVIDENCE, NULL, "the step's rise over the time before", \
	  MP_AT(f.step_relative))                                                                               \
	X(ID##_BIGGEST, ID, REAL, "biggest_relative_step_k", "", MP_F_EVIDENCE | MP_F_WHOLE, NULL,             \
	  "K of the biggest relative step (null: none)", MP_AT(f.biggest_k))                                    \
	X(ID##_CURVE, ID, TABLE, "curve", "", MP_F_HEAP | MP_F_EVIDENCE, NULL, "cycles per addition against K", \
	  MP_CURVE_AT(f.curve))                                                                                 \
	X(ID##_K, ID##_CURVE, REAL, "k", "", MP_F_WHOLE, NULL, "live variables",                               \
	  MP_ROW(struct machine_probes_point, x))                                                               \
	X(ID##_ADD, ID##_CURVE, REAL, "add_cy", "cy", 0, NULL, "core cycles per addition, the fastest",        \
	  MP_ROW(struct machine_probes_point, min))

/* Each group's wall time (what bench/probe-plan.sh takes as step costs), under the group's key. */
#define MP_TIMING_ROW(X, G, g) X(TIMING_##G, TIMING, REAL, MP_GROUP_KEY_##G, "s", MP_F_OMIT, NULL,             \
				 "wall time of the group, its re-measurements included", MP_AT(timing_s[g]))

#define MACHINE_PROBES(X)                                                                                  \
	X(CPU, ROOT, INT, "cpu", "", MP_F_OPT, NULL, "the CPU the probes ran on", MP_AT(cpu))                      \
	X(SEED, ROOT, LONG, "seed", "", MP_F_OPT, NULL, "the seed of the random permutations", MP_AT(seed))        \
	X(CLOCK, ROOT, ANSWER, MP_GROUP_KEY_CLOCK, "GHz", MP_F_OPT | MP_F_REQ, MK_CLOCK, "core clock, by a dependent add chain",          \
	  MP_AT(clock))                                                                                          \
	X(CLOCK_TSC, CLOCK, REAL, "tsc_ghz", "GHz", 0, NULL, "time-stamp counter rate (not core cycles)",        \
	  MP_AT(tsc_ghz))                                                                                        \
	X(CLOCK_MEDIAN, CLOCK, REAL, "median_ghz", "GHz", MP_F_EVIDENCE, NULL, "median of the repetitions",        \
	  MP_AT(clock_ev.median_ghz))                                                                            \
	X(CLOCK_ADDS, CLOCK, LONG, "adds_per_repetition", "", MP_F_EVIDENCE, NULL, "dependent adds a repetition", \
	  MP_AT(clock_ev.adds))                                                                                  \
	X(CLOCK_REPS, CLOCK, INT, "repetitions", "", MP_F_EVIDENCE, NULL, "repetitions of the chain",             \
	  MP_AT(clock_ev.repetitions))                                                                           \
	X(CLOCK_CPU, CLOCK, INT, "cpu", "", MP_F_EVIDENCE, NULL, "the CPU it ran on", MP_AT(clock_ev.cpu))         \
	MP_COND_ROWS(X, CLOCK, MP_G_CLOCK)                                                                      \
	X(LINE, ROOT, ANSWER, MP_GROUP_KEY_LINE, "B", MP_F_OPT | MP_F_REQ, MK_CACHELINE, "cache line", MP_AT(line))                  \
	MP_CURVE_ROWS(X, LINE_CURVE, LINE, "curve", 0, "latency of access pairs D bytes apart", "d_bytes", "B",   \
		      MP_CURVE_AT(line_ev.curve))                                                                \
	X(LINE_WITNESSES, LINE, OBJECT, "witnesses", "", MP_F_WITNESSES, NULL, "the line's two witnesses", MP_NONE)            \
	X(LINE_STRIDE, LINE_WITNESSES, ANSWER, "stride", "B", 0, NULL, "step of pairs D bytes apart",            \
	  MP_AT(line_stride))                                                                                    \
	X(LINE_COHERENCE, LINE_WITNESSES, ANSWER, "coherence", "B", 0, NULL, "coherence unit of two cores",      \
	  MP_AT(line_coherence))                                                                                 \
	X(LINE_COHERENCE_CPUS, LINE_COHERENCE, INTS, "cpus", "", MP_F_EVIDENCE, NULL, "the two CPUs",             \
	  MP_LIST(line_ev.ncpus, line_ev.cpus))                                                                  \
	X(LINE_COHERENCE_CONTRAST, LINE_COHERENCE, REAL, "contrast", "x", MP_F_EVIDENCE, NULL,                  \
	  "times slower per increment below the unit", MP_AT(line_ev.coherence_contrast))                       \
	MP_CURVE_ROWS(X, LINE_COHERENCE_CURVE, LINE_COHERENCE, "curve", 0, "increments of two CPUs D bytes apart", \
		      "d_bytes", "B", MP_CURVE_AT(line_ev.coherence_curve))                                      \
	X(LINE_FLUSH, LINE_WITNESSES, ANSWER, "flush", "B", 0, NULL,                                            \
	  "reload of a line after a flush D bytes further (one CPU)", MP_AT(line_flush))                         \
	X(LINE_FLUSH_CONTRAST, LINE_FLUSH, REAL, "contrast", "x", MP_F_EVIDENCE, NULL,                          \
	  "times slower reload below the line", MP_AT(line_ev.flush_contrast))                                   \
	MP_CURVE_ROWS(X, LINE_FLUSH_CURVE, LINE_FLUSH, "curve", 0, "reloads after a flush D bytes further",      \
		      "d_bytes", "B", MP_CURVE_AT(line_ev.flush_curve))                                          \
	X(LINE_WITNESSES_USED, LINE, INT, "witnesses_used", "", 0, NULL,                                        \
	  "prefetcher-proof witnesses (coherence, flush) the answer rests on: 2, 1 or 0", MP_AT(line_witnesses_used)) \
	MP_COND_ROWS(X, LINE, MP_G_LINE)                                                                      \
	X(CACHES, ROOT, OBJECT, MP_GROUP_KEY_CACHES, "", MP_F_OPT | MP_F_REQ, NULL, "cache levels by pointer chasing", MP_NONE)          \
	X(CACHES_LEVELS, CACHES, TABLE, "levels", "", MP_F_REQ, MK_HIERARCHY, "one row per cache level",          \
	  MP_TABLE(ncaches, cache))                                                                              \
	X(CACHES_LEVEL, CACHES_LEVELS, INT, "level", "", 0, NULL, "1, 2, ...",                                  \
	  MP_ROW(struct machine_probes_cache, level))                                                            \
	X(CACHES_SIZE, CACHES_LEVELS, ANSWER, "size", "B", MP_F_OS_INT, MK_HIERARCHY, "effective size",     \
	  MP_ROW(struct machine_probes_cache, size))                                                             \
	X(CACHES_LATENCY, CACHES_LEVELS, ANSWER, "latency", "ns", 0, NULL, "load-to-use latency",                \
	  MP_ROW(struct machine_probes_cache, latency))                                                          \
	X(CACHES_LATENCY_CY, CACHES_LEVELS, REAL, "latency_cy", "cy", 0, NULL, "the latency in core cycles",     \
	  MP_ROW(struct machine_probes_cache, latency_cy))                                                       \
	X(CACHES_QT_MAX, CACHES_LEVELS, REAL, "qt_max_x", "B", MP_F_EVIDENCE, NULL,                              \
	  "the largest buffer of the level's QT cluster", MP_ROW(struct machine_probes_cache, qt_max_x))         \
	X(CACHES_POINTS, CACHES_LEVELS, INT, "points", "", MP_F_EVIDENCE, NULL, "points of the curve in the level", \
	  MP_ROW(struct machine_probes_cache, points))                                                           \
	X(CACHES_MEMORY_LATENCY, CACHES, ANSWER, "memory_latency", "ns", MP_F_REQ, NULL, "memory latency",              \
	  MP_AT(memory_latency))                                                                                 \
	X(CACHES_MEMORY_LATENCY_CY, CACHES, REAL, "memory_latency_cy", "cy", 0, NULL,                           \
	  "memory latency in core cycles", MP_AT(memory_latency_cy))                                             \
	X(CACHES_MEMORY_LATENCY_RANDOM, CACHES, ANSWER, "memory_latency_random", "ns", 0, NULL,                  \
	  "memory latency of a fully random chase over a large buffer on huge pages",                           \
	  MP_AT(memory_latency_random))                                                                          \
	X(CACHES_MEMORY_LATENCY_RANDOM_CY, CACHES, REAL, "memory_latency_random_cy", "cy", 0, NULL,             \
	  "the random memory latency in core cycles", MP_AT(memory_latency_random_cy))                           \
	X(CACHES_RANDOM_BYTES, CACHES, LONG, "memory_latency_random_bytes", "B", MP_F_EVIDENCE | MP_F_OMIT, NULL, \
	  "the buffer of the random chase", MP_AT(caches_ev.random_bytes))                                       \
	X(CACHES_RANDOM_HUGE, CACHES, REAL, "memory_latency_random_huge_fraction", "", MP_F_EVIDENCE | MP_F_OMIT, \
	  NULL, "the share of that buffer on huge pages", MP_AT(caches_ev.random_huge))                          \
	X(CACHES_CLOCK, CACHES, REAL, "clock_ghz", "GHz", MP_F_EVIDENCE, NULL, "the clock the cycles are at",    \
	  MP_AT(caches_ev.clock_ghz))                                                                            \
	X(CACHES_LINE_BYTES, CACHES, REAL, "line_bytes", "B", MP_F_EVIDENCE, NULL, "the slots' spacing",         \
	  MP_AT(caches_ev.line_bytes))                                                                           \
	X(CACHES_PAGES, CACHES, TEXT, "pages", "", MP_F_EVIDENCE, NULL, "the buffers' huge-page policy",          \
	  MP_AT(caches_ev.pages))                                                                                \
	X(CACHES_PASSES, CACHES, INT, "passes", "", MP_F_EVIDENCE, NULL, "passes over the sizes",                 \
	  MP_AT(caches_ev.passes))                                                                               \
	MP_CURVE_ROWS(X, CACHES_CURVE, CACHES, "curve", 0, "latency per access against the buffer",             \
		      "size_bytes", "B", MP_CURVE_AT(caches_ev.curve))                                           \
	MP_COND_ROWS(X, CACHES, MP_G_CACHES)                                                                      \
	X(ASSOC, ROOT, OBJECT, MP_GROUP_KEY_ASSOC, "", MP_F_OPT | MP_F_REQ, NULL, "associativity per cache level", MP_NONE)             \
	X(ASSOC_LEVELS, ASSOC, TABLE, "levels", "", MP_F_REQ, MK_HIERARCHY, "one row per cache level",            \
	  MP_TABLE(nassoc, assoc))                                                                               \
	X(ASSOC_LEVEL, ASSOC_LEVELS, INT, "level", "", 0, NULL, "1, 2, ...",                                    \
	  MP_ROW(struct machine_probes_assoc, level))                                                            \
	X(ASSOC_WAYS, ASSOC_LEVELS, ANSWER, "ways", "ways", MP_F_OS_INT, MK_HIERARCHY, "associativity",     \
	  MP_ROW(struct machine_probes_assoc, ways))                                                             \
	X(ASSOC_LEVEL_BYTES, ASSOC_LEVELS, REAL, "level_bytes", "B", MP_F_EVIDENCE, NULL, "the level's size",    \
	  MP_ROW(struct machine_probes_assoc, level_bytes))                                                      \
	X(ASSOC_SWEEPS, ASSOC_LEVELS, INT, "sweeps", "", MP_F_EVIDENCE | MP_F_OMIT, NULL,                        \
	  "sweeps the curve is the pointwise fastest of (absent: one)", MP_ROW(struct machine_probes_assoc, sweeps)) \
	MP_CURVE_ROWS(X, ASSOC_CURVE, ASSOC_LEVELS, "curve", 0, "latency against K addresses of one set", "k",  \
		      "", MP_CURVE_IN(struct machine_probes_assoc, curve))                                       \
	X(ASSOC_EVSET_WAYS, ASSOC_LEVELS, REAL, "evset_ways", "ways", MP_F_EVIDENCE | MP_F_OMIT, NULL,           \
	  "ways by congruent pages (absent: not tried)", MP_ROW(struct machine_probes_assoc, evset_ways))        \
	X(ASSOC_EVSET_MINIMAL, ASSOC_LEVELS, INT, "evset_minimal_pages", "", MP_F_EVIDENCE | MP_F_OMIT, NULL,    \
	  "pages that evict each other", MP_ROW(struct machine_probes_assoc, evset_minimal_pages))               \
	X(ASSOC_EVSET_CLASS, ASSOC_LEVELS, INT, "evset_class_pages", "", MP_F_EVIDENCE | MP_F_OMIT, NULL,        \
	  "congruent pages found", MP_ROW(struct machine_probes_assoc, evset_class_pages))                       \
	X(ASSOC_EVSET_HIT, ASSOC_LEVELS, REAL, "evset_hit_ns", "ns", MP_F_EVIDENCE | MP_F_OMIT, NULL,            \
	  "a walk that hits", MP_ROW(struct machine_probes_assoc, evset_hit_ns))                                 \
	X(ASSOC_EVSET_MISS, ASSOC_LEVELS, REAL, "evset_miss_ns", "ns", MP_F_EVIDENCE | MP_F_OMIT, NULL,          \
	  "a walk that misses", MP_ROW(struct machine_probes_assoc, evset_miss_ns))                              \
	X(ASSOC_EVSET_WALKS, ASSOC_LEVELS, INT, "evset_walks", "", MP_F_EVIDENCE | MP_F_OMIT, NULL,              \
	  "walks measured", MP_ROW(struct machine_probes_assoc, evset_walks))                                    \
	MP_CURVE_ROWS(X, ASSOC_EVSET_CURVE, ASSOC_LEVELS, "evset_curve", MP_F_OMIT,                              \
		      "latency against K congruent pages", "k", "", MP_CURVE_IN(struct machine_probes_assoc, evset_curve)) \
	MP_COND_ROWS(X, ASSOC, MP_G_ASSOC)                                                                      \
	X(TLB, ROOT, OBJECT, MP_GROUP_KEY_TLB, "", MP_F_OPT | MP_F_REQ, NULL, "page size and TLB levels", MP_NONE)                      \
	X(TLB_PAGE_SIZE, TLB, ANSWER, "page_size", "B", MP_F_OS_INT | MP_F_REQ, NULL, "page size", MP_AT(page_size))        \
	MP_CURVE_ROWS(X, TLB_PAGE_CURVE, TLB, "page_curve", 0, "latency of access pairs s bytes apart",          \
		      "stride_bytes", "B", MP_CURVE_AT(tlb_ev.page_curve))                                       \
	X(TLB_WITNESSES, TLB, OBJECT, "page_witnesses", "", MP_F_WITNESSES, NULL, "the page size's two witnesses", MP_NONE)    \
	X(TLB_PAIRS, TLB_WITNESSES, ANSWER, "pairs", "B", MP_F_OS_INT, NULL, "step of pairs s bytes apart",      \
	  MP_AT(page_pairs))                                                                                     \
	X(TLB_FAULTS, TLB_WITNESSES, ANSWER, "faults", "B", MP_F_OS_INT, NULL, "end of the fault cost doubling", \
	  MP_AT(page_faults))                                                                                    \
	MP_CURVE_ROWS(X, TLB_FAULTS_CURVE, TLB_FAULTS, "curve", 0, "time per first touch s bytes apart",        \
		      "stride_bytes", "B", MP_CURVE_AT(tlb_ev.fault_curve))                                      \
	X(TLB_LEVELS, TLB, TABLE, "levels", "", MP_F_REQ, NULL, "one row per TLB level", MP_TABLE(ntlb, tlb))            \
	X(TLB_LEVEL, TLB_LEVELS, INT, "level", "", 0, NULL, "1, 2, ...", MP_ROW(struct machine_probes_tlb, level)) \
	X(TLB_ENTRIES, TLB_LEVELS, ANSWER, "entries", "entries", MP_F_OS_INT, NULL, "entries user code can use", \
	  MP_ROW(struct machine_probes_tlb, entries))                                                            \
	X(TLB_COST, TLB_LEVELS, REAL, "cost_ns", "ns", 0, NULL, "the TLB's share of an access at this level",   \
	  MP_ROW(struct machine_probes_tlb, cost_ns))                                                            \
	X(TLB_QT_MAX, TLB_LEVELS, REAL, "qt_max_x", "pages", MP_F_EVIDENCE, NULL,                                \
	  "the most pages of the level's QT cluster", MP_ROW(struct machine_probes_tlb, qt_max_x))               \
	MP_CURVE_ROWS(X, TLB_ENTRIES_CURVE, TLB, "entries_curve", MP_F_OMIT, "latency against the pages touched", \
		      "pages", "pages", MP_CURVE_AT(tlb_ev.entries_curve))                                        \
	MP_CURVE_ROWS(X, TLB_CONTROL_CURVE, TLB, "control_curve", MP_F_OMIT,                                     \
		      "latency against lines touched, packed (no TLB misses)", "lines", "lines",                 \
		      MP_CURVE_AT(tlb_ev.control_curve))                                                         \
	X(TLB_PARTIAL, TLB, BOOL, "partial", "", MP_F_EVIDENCE | MP_F_OMIT, NULL,                                \
	  "interrupted: the curves stop early", MP_AT(tlb_ev.partial))                                           \
	MP_COND_ROWS(X, TLB, MP_G_TLB)                                                                      \
	X(INSTR, ROOT, OBJECT, MP_GROUP_KEY_INSTR, "", MP_F_OPT | MP_F_REQ, NULL, "instruction latencies and throughputs", MP_NONE)     \
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
	X(INSTR_LANES, INSTR_OPS, INT, "lanes", "", MP_F_EVIDENCE, NULL, "lanes of the operation",               \
	  MP_ROW(struct machine_probes_op, lanes))                                                               \
	X(INSTR_LATENCY_NS, INSTR_OPS, REAL, "latency_ns", "ns", MP_F_EVIDENCE, NULL, "the latency in ns",       \
	  MP_ROW(struct machine_probes_op, latency_ns))                                                          \
	X(INSTR_IN_FLIGHT_CONF, INSTR_OPS, REAL, "in_flight_confidence", "", MP_F_EVIDENCE, NULL,               \
	  "confidence of the operations in flight", MP_ROW(struct machine_probes_op, in_flight_confidence))      \
	X(INSTR_RELATIVE, INSTR_OPS, REAL, "relative_to_int32_add", "", MP_F_EVIDENCE, NULL,                    \
	  "latency over an int32 add's", MP_ROW(struct machine_probes_op, relative_to_int32_add))                \
	X(INSTR_BEST_STREAMS, INSTR_OPS, INT, "best_streams", "", MP_F_EVIDENCE, NULL,                          \
	  "streams of the best throughput", MP_ROW(struct machine_probes_op, best_streams))                      \
	X(INSTR_COST, INSTR_OPS, TABLE, "cost_per_iteration", "", MP_F_HEAP | MP_F_EVIDENCE, NULL,              \
	  "cost per iteration against independent streams", MP_CURVE_IN(struct machine_probes_op, cost))         \
	X(INSTR_COST_STREAMS, INSTR_COST, REAL, "streams", "", MP_F_WHOLE, NULL, "independent streams",          \
	  MP_ROW(struct machine_probes_point, x))                                                               \
	X(INSTR_COST_CY, INSTR_COST, REAL, "iteration_cy", "cy", 0, NULL, "core cycles per iteration",           \
	  MP_ROW(struct machine_probes_point, min))                                                             \
	X(INSTR_PUB, INSTR_OPS, OBJECT, "published", "", MP_F_EVIDENCE | MP_F_NULLABLE, NULL,                    \
	  "the published figures of the operation (null: none)", MP_IF_ROW(struct machine_probes_op, pub.have))  \
	X(INSTR_PUB_INSTRUCTION, INSTR_PUB, TEXT, "instruction", "", 0, NULL, "what the compiler emits for it",  \
	  MP_ROW(struct machine_probes_op, pub.instruction))                                                     \
	X(INSTR_PUB_WITHIN, INSTR_PUB, BOOL, "within_1_cy", "", 0, NULL, "within 1 cycle of a source",          \
	  MP_ROW(struct machine_probes_op, pub.within))                                                          \
	X(INSTR_PUB_SOURCES, INSTR_PUB, TABLE, "sources", "", 0, NULL, "one row per source with figures",        \
	  MP_TABLE_IN(struct machine_probes_op, pub.nsources, pub.source))                                       \
	X(INSTR_PUB_SOURCE, INSTR_PUB_SOURCES, TEXT, "source", "", 0, NULL, "where the figures are from",        \
	  MP_ROW(struct machine_probes_pub_source, source))                                                      \
	X(INSTR_PUB_LATENCY, INSTR_PUB_SOURCES, REAL, "latency_cy", "cy", 0, NULL, "published latency",         \
	  MP_ROW(struct machine_probes_pub_source, latency_cy))                                                  \
	X(INSTR_PUB_THROUGHPUT, INSTR_PUB_SOURCES, REAL, "throughput_per_cy", "/cy", 0, NULL,                   \
	  "published throughput", MP_ROW(struct machine_probes_pub_source, throughput_per_cy))                   \
	X(INSTR_PUB_SOURCE_WITHIN, INSTR_PUB_SOURCES, BOOL, "within_1_cy", "", 0, NULL,                         \
	  "the measured figures within 1 cycle of these", MP_ROW(struct machine_probes_pub_source, within))     \
	X(FLOPS, INSTR, OBJECT, "flops_per_cycle", "", 0, MK_FLOPS, "peak FLOPs per core cycle",        \
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
	X(INSTR_CLOCK, INSTR, REAL, "clock_ghz", "GHz", MP_F_EVIDENCE, NULL, "the clock the cycles are at",      \
	  MP_AT(instr_ev.clock_ghz))                                                                             \
	X(INSTR_WINDOW, INSTR, OBJECT, "clock_window", "", MP_F_EVIDENCE, NULL, "the clocks around the operations", \
	  MP_NONE)                                                                                               \
	X(INSTR_WINDOW_MIN, INSTR_WINDOW, REAL, "min_ghz", "GHz", 0, NULL, "the slowest", MP_AT(instr_ev.min_ghz)) \
	X(INSTR_WINDOW_MAX, INSTR_WINDOW, REAL, "max_ghz", "GHz", 0, NULL, "the fastest", MP_AT(instr_ev.max_ghz)) \
	X(INSTR_CYCLES, INSTR, TEXT, "cycles", "", MP_F_EVIDENCE, NULL, "what a cycle is", MP_AT(instr_ev.cycles)) \
	X(INSTR_COMPILER, INSTR, TEXT, "compiler", "", MP_F_EVIDENCE, NULL, "the kernels' compiler",            \
	  MP_AT(instr_ev.compiler))                                                                              \
	X(INSTR_FLAGS, INSTR, TEXT, "flags", "", MP_F_EVIDENCE, NULL, "the kernels' flags", MP_AT(instr_ev.flags)) \
	X(INSTR_INT32_ADD, INSTR, REAL, "int32_add_latency_ns", "ns", MP_F_EVIDENCE, NULL,                      \
	  "latency of an int32 add", MP_AT(instr_ev.int32_add_ns))                                               \
	X(INSTR_SOURCES, INSTR, TABLE, "published_sources", "", MP_F_OPT | MP_F_EVIDENCE, NULL,                  \
	  "the sources of published figures for this CPU (null: none)",                                          \
	  MP_TABLE(instr_ev.nsources, instr_ev.source))                                                          \
	X(INSTR_SOURCES_NAME, INSTR_SOURCES, TEXT, "source", "", 0, NULL, "the source",                          \
	  MP_ROW(struct machine_probes_instr_source, source))                                                    \
	X(INSTR_SOURCES_TAG, INSTR_SOURCES, TEXT, "tag", "", 0, NULL, "its short name",                          \
	  MP_ROW(struct machine_probes_instr_source, tag))                                                       \
	X(INSTR_SOURCES_WITHIN, INSTR_SOURCES, INT, "rows_within_1_cy", "", 0, NULL,                            \
	  "operations within 1 cycle of it", MP_ROW(struct machine_probes_instr_source, rows_within))            \
	X(INSTR_SOURCES_ROWS, INSTR_SOURCES, INT, "rows_with_figures", "", 0, NULL, "operations it has figures for", \
	  MP_ROW(struct machine_probes_instr_source, rows))                                                      \
	X(INSTR_INCOMPLETE, INSTR, BOOL, "incomplete", "", MP_F_EVIDENCE | MP_F_OMIT, NULL,                     \
	  "interrupted before every operation was measured", MP_AT(instr_ev.incomplete))                         \
	MP_COND_ROWS(X, INSTR, MP_G_INSTR)                                                                      \
	X(CONTEXTS, ROOT, OBJECT, MP_GROUP_KEY_CONTEXTS, "", MP_F_OPT | MP_F_REQ, NULL, "execution contexts", MP_NONE)                  \
	X(CONTEXTS_FP, CONTEXTS, ANSWER, "fp", "contexts", MP_F_OS_INT | MP_F_REQ, MK_CORES_PER_SOCKET,                     \
	  "contexts running FP work side by side: the cores", MP_AT(contexts_fp))                                \
	MP_CONTEXTS_EV_ROWS(X, FP, contexts_ev[0])                                                             \
	X(CONTEXTS_INT, CONTEXTS, ANSWER, "int", "contexts", MP_F_OS_INT | MP_F_REQ, MK_THREADS_PER_CORE,                   \
	  "contexts running integer work side by side: the hardware threads", MP_AT(contexts_int))               \
	MP_CONTEXTS_EV_ROWS(X, INT, contexts_ev[1])                                                            \
	X(CONTEXTS_MEM, CONTEXTS, ANSWER, "mem", "contexts", MP_F_OS_INT | MP_F_REQ, NULL,                                 \
	  "contexts chasing pointers side by side", MP_AT(contexts_mem))                                         \
	MP_CONTEXTS_EV_ROWS(X, MEM, contexts_ev[2])                                                            \
	X(CONTEXTS_SEARCH, CONTEXTS, TEXT, "search", "", MP_F_EVIDENCE, NULL, "how the team sizes were chosen",  \
	  MP_AT(contexts_search))                                                                                \
	MP_COND_ROWS(X, CONTEXTS, MP_G_CONTEXTS)                                                                      \
	X(REGISTERS, ROOT, OBJECT, MP_GROUP_KEY_REGISTERS, "", MP_F_OPT | MP_F_REQ, NULL, "registers a C loop keeps live", MP_NONE)     \
	X(REGISTERS_INT, REGISTERS, ANSWER, "int", "registers", MP_F_OS_INT | MP_F_REQ, NULL, "integer (uint64_t)",        \
	  MP_AT(registers_int))                                                                                  \
	MP_REGISTERS_EV_ROWS(X, REGISTERS_INT, registers_ev[0])                                                \
	X(REGISTERS_FP, REGISTERS, ANSWER, "fp", "registers", MP_F_OS_INT | MP_F_REQ, NULL, "FP (double), widest vectors", \
	  MP_AT(registers_fp))                                                                                   \
	MP_REGISTERS_EV_ROWS(X, REGISTERS_FP, registers_ev[1])                                                 \
	X(REGISTERS_NARROW, REGISTERS, OBJECT, "narrow", "", 0, NULL, "built without AVX-512", MP_NONE)           \
	X(REGISTERS_NARROW_INT, REGISTERS_NARROW, ANSWER, "int", "registers", MP_F_OS_INT, NULL,                \
	  "integer (uint64_t)", MP_AT(registers_narrow_int))                                                     \
	MP_REGISTERS_EV_ROWS(X, REGISTERS_NARROW_INT, registers_ev[2])                                         \
	X(REGISTERS_NARROW_FP, REGISTERS_NARROW, ANSWER, "fp", "registers", MP_F_OS_INT, NULL, "FP (double)",   \
	  MP_AT(registers_narrow_fp))                                                                            \
	MP_REGISTERS_EV_ROWS(X, REGISTERS_NARROW_FP, registers_ev[3])                                          \
	X(REGISTERS_COMPILER, REGISTERS, TEXT, "compiler", "", MP_F_EVIDENCE, NULL, "the builds' compiler",      \
	  MP_AT(registers_compiler))                                                                             \
	MP_COND_ROWS(X, REGISTERS, MP_G_REGISTERS)                                                                      \
	X(TIMESLICE, ROOT, OBJECT, MP_GROUP_KEY_TIMESLICE, "", MP_F_OPT | MP_F_REQ, NULL, "the scheduler's time slice", MP_NONE)        \
	X(TIMESLICE_SLICE, TIMESLICE, ANSWER, "slice", "ms", MP_F_REQ, NULL, "time slice, from the gaps",               \
	  MP_AT(timeslice))                                                                                      \
	X(TIMESLICE_SCHEDSTAT, TIMESLICE, ANSWER, "schedstat", "ms", 0, NULL, "the kernel's slice (schedstat)",  \
	  MP_AT(schedstat))                                                                                      \
	X(TIMESLICE_THREADS, TIMESLICE, INT, "threads", "", MP_F_EVIDENCE, NULL, "threads sharing the CPUs",     \
	  MP_AT(timeslice_ev.threads))                                                                           \
	X(TIMESLICE_RUN, TIMESLICE, REAL, "run_s", "s", MP_F_EVIDENCE, NULL, "how long they ran",                \
	  MP_AT(timeslice_ev.run_s))                                                                             \
	X(TIMESLICE_GAPS, TIMESLICE, LONG, "gaps", "", MP_F_EVIDENCE, NULL, "gaps above the threshold",          \
	  MP_AT(timeslice_ev.gaps))                                                                              \
	X(TIMESLICE_THRESHOLD, TIMESLICE, REAL, "threshold_us", "us", MP_F_EVIDENCE, NULL,                      \
	  "the shortest gap counted", MP_AT(timeslice_ev.threshold_us))                                          \
	X(TIMESLICE_DIST, TIMESLICE, OBJECT, "distribution", "", MP_F_EVIDENCE, NULL, "quantiles of the gaps",   \
	  MP_NONE)                                                                                               \
	X(TIMESLICE_P10, TIMESLICE_DIST, REAL, "p10_ms", "ms", 0, NULL, "10th percentile",                       \
	  MP_AT(timeslice_ev.quantile_ms[0]))                                                                    \
	X(TIMESLICE_P25, TIMESLICE_DIST, REAL, "p25_ms", "ms", 0, NULL, "25th percentile",                       \
	  MP_AT(timeslice_ev.quantile_ms[1]))                                                                    \
	X(TIMESLICE_P50, TIMESLICE_DIST, REAL, "p50_ms", "ms", 0, NULL, "the median",                            \
	  MP_AT(timeslice_ev.quantile_ms[2]))                                                                    \
	X(TIMESLICE_P75, TIMESLICE_DIST, REAL, "p75_ms", "ms", 0, NULL, "75th percentile",                       \
	  MP_AT(timeslice_ev.quantile_ms[3]))                                                                    \
	X(TIMESLICE_P90, TIMESLICE_DIST, REAL, "p90_ms", "ms", 0, NULL, "90th percentile",                       \
	  MP_AT(timeslice_ev.quantile_ms[4]))                                                                    \
	MP_COND_ROWS(X, TIMESLICE, MP_G_TIMESLICE)                                                                      \
	X(C2C, ROOT, OBJECT, MP_GROUP_KEY_C2C, "", MP_F_OPT | MP_F_REQ, NULL, "core-to-core bandwidth and latency (null: one CPU)",     \
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
	X(C2C_CLASS_BW, C2C_CLASSES, REAL, "bandwidth_gbs", "GB/s", MP_F_EVIDENCE, NULL,                         \
	  "the class's bandwidth at the largest block", MP_ROW(struct machine_probes_c2c_class, bandwidth_gbs))  \
	X(C2C_CLASS_LAT, C2C_CLASSES, REAL, "latency_ns", "ns", MP_F_EVIDENCE, NULL, "the class's latency",     \
	  MP_ROW(struct machine_probes_c2c_class, latency_ns))                                                   \
	X(C2C_CLASS_BLOCKS, C2C_CLASSES, INT, "blocks_measured", "", MP_F_EVIDENCE, NULL, "blocks with figures", \
	  MP_ROW(struct machine_probes_c2c_class, blocks_measured))                                              \
	X(C2C_CLASS_LEVEL, C2C_CLASSES, INT, "level", "", MP_F_EVIDENCE, NULL,                                  \
	  "how far it was refined: 0 the topology's class", MP_ROW(struct machine_probes_c2c_class, level))      \
	X(C2C_CLASS_SPLIT_FROM, C2C_CLASSES, TEXT, "split_from", "", MP_F_EVIDENCE | MP_F_NULLABLE, NULL,       \
	  "the class it was split from (null: none)", MP_ROW(struct machine_probes_c2c_class, split_from))       \
	X(C2C_CLASS_SPLIT, C2C_CLASSES, BOOL, "split", "", MP_F_EVIDENCE, NULL, "split into finer classes",      \
	  MP_ROW(struct machine_probes_c2c_class, split))                                                        \
	X(C2C_CLASS_RESOLVED, C2C_CLASSES, BOOL, "resolved", "", MP_F_EVIDENCE, NULL, "its pairs agree",         \
	  MP_ROW(struct machine_probes_c2c_class, resolved))                                                     \
	X(C2C_ALL_PAIRS_CHOSEN, C2C, BOOL, "all_pairs_chosen", "", MP_F_EVIDENCE, NULL,                          \
	  "every pair measured without --all-pairs (fewer rounds than by class)", MP_AT(c2c.all_pairs_chosen))   \
	X(C2C_STEPS, C2C, INT, "steps", "", MP_F_EVIDENCE, NULL, "measurement steps", MP_AT(c2c.steps))          \
	X(C2C_SKIPPED, C2C, INT, "skipped_blocks", "", MP_F_EVIDENCE, NULL, "blocks skipped: the class's curve had settled", \
	  MP_AT(c2c.skipped_blocks))                                                                             \
	X(C2C_BACKFILLED, C2C, INT, "backfilled_blocks", "", MP_F_EVIDENCE, NULL, "blocks measured after all",   \
	  MP_AT(c2c.backfilled_blocks))                                                                          \
	X(C2C_STEP_S, C2C, OBJECT, "step_seconds", "", MP_F_EVIDENCE, NULL, "wall time of the steps", MP_NONE)   \
	X(C2C_STEP_BLOCKS, C2C_STEP_S, REALS, "blocks", "s", 0, NULL, "per block size, over all rounds",         \
	  MP_LIST(c2c.nstep_blocks, c2c.step_blocks_s))                                                          \
	X(C2C_STEP_LATENCY, C2C_STEP_S, REAL, "latency", "s", 0, NULL, "the latency steps", MP_AT(c2c.step_latency_s)) \
	X(C2C_PAIRS, C2C, TABLE, "measured_pairs", "", MP_F_HEAP | MP_F_EVIDENCE, NULL,                          \
	  "every pair measured, with its own figures at the largest block",                                      \
	  MP_HEAP(c2c.npairs, c2c.pair, struct machine_probes_c2c_pair, MACHINE_PROBES_MAX_PAIRS))               \
	X(C2C_PAIR_CPUS, C2C_PAIRS, INTS, "cpus", "", 0, NULL, "the two CPUs",                                   \
	  MP_LIST_ROW(struct machine_probes_c2c_pair, ncpus, cpus))                                              \
	X(C2C_PAIR_CLASS, C2C_PAIRS, TEXT, "class", "", 0, NULL, "its class", MP_ROW(struct machine_probes_c2c_pair, cls)) \
	X(C2C_PAIR_ROLE, C2C_PAIRS, TEXT, "role", "", 0, NULL, "why it was measured",                            \
	  MP_ROW(struct machine_probes_c2c_pair, role))                                                          \
	X(C2C_PAIR_BW, C2C_PAIRS, REAL, "bandwidth_gbs", "GB/s", 0, NULL, "its bandwidth at the largest block",  \
	  MP_ROW(struct machine_probes_c2c_pair, bandwidth_gbs))                                                 \
	X(C2C_PAIR_LAT, C2C_PAIRS, REAL, "latency_ns", "ns", 0, NULL, "its latency",                              \
	  MP_ROW(struct machine_probes_c2c_pair, latency_ns))                                                    \
	X(C2C_ROUNDS, C2C, INT, "rounds", "", MP_F_EVIDENCE, NULL, "rounds of pairs on disjoint cores",          \
	  MP_AT(c2c.rounds))                                                                                     \
	X(C2C_CONCURRENT, C2C, INT, "concurrent_pairs", "", MP_F_EVIDENCE, NULL, "pairs measured at once",       \
	  MP_AT(c2c.concurrent_pairs))                                                                           \
	X(C2C_METHOD, C2C, TEXT, "method", "", MP_F_EVIDENCE, NULL, "how it was measured", MP_AT(c2c.method))    \
	X(C2C_BLOCKS, C2C, TABLE, "blocks", "", MP_F_HEAP | MP_F_EVIDENCE, NULL, "one-way bandwidth per block size", \
	  MP_HEAP(c2c.nblocks, c2c.block, struct machine_probes_c2c_block, MACHINE_PROBES_MAX_BLOCKS))           \
	X(C2C_BLOCK_BYTES, C2C_BLOCKS, LONG, "block_bytes", "B", 0, NULL, "the block",                           \
	  MP_ROW(struct machine_probes_c2c_block, block_bytes))                                                  \
	X(C2C_BLOCK_BW, C2C_BLOCKS, MATRIX, "bandwidth_gbs", "GB/s", 0, NULL, "one-way bandwidth of each pair",  \
	  MP_LIST_ROW(struct machine_probes_c2c_block, ncpus, bandwidth_gbs))                                    \
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
	MP_COND_ROWS(X, C2C, MP_G_C2C)                                                                      \
	X(TIMING, ROOT, OBJECT, "timing_s", "", MP_F_EVIDENCE | MP_F_OPT, NULL, "each group's wall time", MP_NONE) \
	MP_TIMING_ROW(X, CLOCK, MP_G_CLOCK) MP_TIMING_ROW(X, LINE, MP_G_LINE) MP_TIMING_ROW(X, CACHES, MP_G_CACHES)                          \
	MP_TIMING_ROW(X, ASSOC, MP_G_ASSOC) MP_TIMING_ROW(X, TLB, MP_G_TLB) MP_TIMING_ROW(X, INSTR, MP_G_INSTR)                            \
	MP_TIMING_ROW(X, CONTEXTS, MP_G_CONTEXTS) MP_TIMING_ROW(X, REGISTERS, MP_G_REGISTERS) MP_TIMING_ROW(X, TIMESLICE, MP_G_TIMESLICE)               \
	MP_TIMING_ROW(X, C2C, MP_G_C2C)                                                                                 \
	X(INCOMPLETE, ROOT, BOOL, "incomplete", "", MP_F_EVIDENCE | MP_F_OMIT, NULL,                            \
	  "interrupted: what was measured so far", MP_AT(incomplete))                                            \
	MACHINE_PROBES_TEST_ROWS(X)

/* A test's own rows and their fields (tests/unit/u-machine-newrow.c), none in archscope. */
#ifndef MACHINE_PROBES_TEST_ROWS
#define MACHINE_PROBES_TEST_ROWS(X)
#define MACHINE_PROBES_TEST_FIELDS
#endif

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
#define MACHINE_PROBES_MAX_POINTS 65536
#define MACHINE_PROBES_MAX_PAIRS (1 << 20)
#define MACHINE_PROBES_MAX_BLOCKS 64
#define MACHINE_PROBES_MAX_SOURCES 4
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

/* The probe groups, in the order probe runs them: MP_G_<id> is the index of their conditions in
 * cond[] and their timing, MP_<id> their entry (its key their name). */
#define MP_GROUP_LIST(G) G(CLOCK) G(LINE) G(CACHES) G(ASSOC) G(TLB) G(INSTR) G(CONTEXTS) G(REGISTERS) G(TIMESLICE) G(C2C)
enum mp_group {
#define G(id) MP_G_##id,
	MP_GROUP_LIST(G)
#undef G
	MP_GROUPS
};

/* What one group was measured in (struct conditions, as kept in the record and the machine file). */
struct machine_probes_cond {
	double wall_s, foreign_cpus, foreign_other_cpus, steal_pct, switches_per_s, clock_ghz, clock_expected_ghz;
	long long involuntary_switches, migrations;
	int cpus, other_cpus, attempts, noisy;
	char why[240];
	char implausible[240];
};

struct conditions;
/* k as the conditions c a group's last attempt ran in, with the physical bound an answer broke
 * (implausible, "" for none). */
void machine_probes_cond_set(struct machine_probes_cond *k, const struct conditions *c, const char *implausible);
/* The entry (MP_CLOCK, MP_CACHES, ...) of a group, and its name (the entry's key). */
int machine_probes_group_id(enum mp_group g);
const char *machine_probes_group_name(enum mp_group g);
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

/* One point of a curve (MP_CURVE_ROWS): x, the fastest and the median repetition. */
struct machine_probes_point {
	double x, min, median;
};

struct machine_probes_curve {
	int n;
	struct machine_probes_point *pt;   /* heap */
};

struct machine_probes_cache {
	int level;
	struct machine_answer size, latency;
	double latency_cy;
	double qt_max_x;
	int points;
};

struct machine_probes_assoc {
	int level;
	struct machine_answer ways;
	double level_bytes;
	int sweeps;                        /* -1: one */
	struct machine_probes_curve curve;
	double evset_ways, evset_hit_ns, evset_miss_ns;      /* NAN and -1: the congruent pages not tried */
	int evset_minimal_pages, evset_class_pages, evset_walks;
	struct machine_probes_curve evset_curve;
};

struct machine_probes_tlb {
	int level;
	struct machine_answer entries;
	double cost_ns;
	double qt_max_x;
};

struct machine_probes_pub_source {
	char source[96];
	double latency_cy, throughput_per_cy;
	int within;
};

struct machine_probes_op {
	char op[16], type[16];
	int width_bits;
	double latency_cy, throughput_per_cy;
	int in_flight;
	int lanes, best_streams;
	double latency_ns, in_flight_confidence, relative_to_int32_add;
	struct machine_probes_curve cost;  /* x streams, min cycles per iteration */
	struct {
		int have;                  /* 0: no published figures (null) */
		char instruction[64];
		int within;
		int nsources;
		struct machine_probes_pub_source source[MACHINE_PROBES_MAX_SOURCES];
	} pub;
};

struct machine_probes_instr_source {
	char source[96], tag[16];
	int rows_within, rows;
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
	double bandwidth_gbs, latency_ns;
	int blocks_measured, level, split, resolved;
	char split_from[112];              /* "": none (null) */
};

struct machine_probes_c2c_pair {
	int ncpus;
	int *cpus;
	char cls[112], role[16];
	double bandwidth_gbs, latency_ns;
};

struct machine_probes_c2c_block {
	long long block_bytes;
	int ncpus;
	double *bandwidth_gbs;             /* ncpus x ncpus */
};

/* How c2c chose its pairs, and the names c2c.mode holds. */
#define MP_C2C_MODES(X) X(CLASSES, "classes") X(ALL_PAIRS, "all_pairs")
enum mp_c2c_mode {
#define X(id, name) MP_C2C_MODE_##id,
	MP_C2C_MODES(X)
#undef X
};
const char *machine_probes_c2c_mode_name(enum mp_c2c_mode m);

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
	int all_pairs_chosen, steps, skipped_blocks, backfilled_blocks, rounds, concurrent_pairs;
	int nstep_blocks;
	double *step_blocks_s;
	double step_latency_s;
	int npairs;
	struct machine_probes_c2c_pair *pair;
	char method[640];
	int nblocks;
	struct machine_probes_c2c_block *block;
};

struct machine_probes_contexts_ev {
	char shape[16];
	struct machine_probes_curve curve; /* x threads, min and median normalised */
	int teams;
};

struct machine_probes_registers_ev {
	char flags[256];
	double step_relative, biggest_k;
	struct machine_probes_curve curve; /* x K, min cycles per addition */
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
	/* evidence (MP_F_EVIDENCE): how the answers were found */
	struct {
		double median_ghz;
		long long adds;
		int repetitions, cpu;
	} clock_ev;
	struct {
		struct machine_probes_curve curve, coherence_curve, flush_curve;
		int ncpus;
		int *cpus;
		double coherence_contrast, flush_contrast;
	} line_ev;
	struct {
		long long random_bytes;
		double random_huge, clock_ghz, line_bytes;
		char pages[32];
		int passes;
		struct machine_probes_curve curve;
	} caches_ev;
	struct {
		struct machine_probes_curve page_curve, fault_curve, entries_curve, control_curve;
		int partial;
	} tlb_ev;
	struct {
		double clock_ghz, min_ghz, max_ghz, int32_add_ns;
		char cycles[160], compiler[256], flags[512];
		int nsources;
		struct machine_probes_instr_source source[MACHINE_PROBES_MAX_SOURCES];
		int incomplete;
	} instr_ev;
	struct machine_probes_contexts_ev contexts_ev[3];
	char contexts_search[64];
	struct machine_probes_registers_ev registers_ev[4];
	char registers_compiler[256];
	struct {
		int threads;
		double run_s, threshold_us;
		long long gaps;
		double quantile_ms[5];
	} timeslice_ev;
	double timing_s[MP_GROUPS];
	int incomplete;
	MACHINE_PROBES_TEST_FIELDS
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
/* The rows of the table whose rows hold entry id (0 for an entry not in a table, or in a table in
 * a table), and the storage of id in row i of it (NULL when there is none). */
int machine_probes_rows(const struct machine_probes *p, int id);
void *machine_probes_row_at(const struct machine_probes *p, int id, int i);
/* The witnesses object (MP_F_WITNESSES) that backs answer id, or -1; whether answer id is itself
 * a witness (inside such an object). */
int machine_probes_witnesses(int id);
int machine_probes_is_witness(int id);
/* The next child of parent after prev (prev = parent: the first), in table order; MP_COUNT after
 * the last: for (int c = machine_probes_child(id, id); c < MP_COUNT; c = machine_probes_child(id, c)). */
int machine_probes_child(int parent, int prev);

void machine_probes_init(struct machine_probes *p);
void machine_probes_release(struct machine_probes *p);
/* Sets a new row of table (an MP_TABLE id) to "none" everywhere. */
void machine_probes_row_init(int table, void *row);

/* p as JSON, evidence included: the results of `probe --json` and probe-results.json. NULL on no
 * memory. */
json_t *machine_probes_json(const struct machine_probes *p);
/* p's answers as JSON, no evidence (MP_F_EVIDENCE): probe -o's archscope.probes. */
json_t *machine_probes_answers_json(const struct machine_probes *p);
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
