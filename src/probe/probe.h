/* What every probe shares: the environment it runs in (pinned CPU, options, the answers earlier
 * probes found) and the record its answers go to: a probe's find and analyze functions set its
 * answers and evidence straight in struct machine_probes (machine/probes.h: value, method,
 * confidence, the OS-reported value beside it; the unit is the table's); cli/ only renders them. */
#ifndef ARCHSCOPE_PROBE_PROBE_H
#define ARCHSCOPE_PROBE_PROBE_H

#include <math.h>
#include <stdint.h>

#include "common/cpuset.h"
#include "machine/probes.h"
#include "topo/topo.h"

#define PROBE_MAX_LEVELS 8

/* A record's answer back to "none" (no value, nothing OS-reported, no method, reason or flags):
 * where a probe starts to measure it again. */
static inline void probe_answer_clear(struct machine_answer *a)
{
	*a = (struct machine_answer){ .value = NAN, .os_reported = NAN };
}

/* A found answer into the record: value, confidence and method (static text); os_reported and
 * the reason stay as they are. */
static inline void probe_answer_set(struct machine_answer *a, double value, double confidence, const char *method)
{
	a->value = value;
	a->confidence = confidence;
	machine_probes_text(a->method, sizeof(a->method), method ? method : "");
}

struct probe_env {
	int cpu;                   /* CPU the probe thread is pinned to */
	struct as_cpulist allowed; /* CPUs the process may use, read before pinning */
	int quick;
	uint64_t seed;
	struct topo *topo;         /* OS-reported values, only for os_reported */
	volatile int *interrupted; /* set by Ctrl-C: return what was measured so far */
	int all_pairs;             /* c2c: every pair, not a few per topology class */
	int all_teams;             /* contexts: every team size 1, 2, ..., not doubling and bisection */
	/* Answers later probes build on (0 until measured). */
	double clock_ghz;          /* measured core clock */
	double tsc_ghz;
	double line_bytes;
	int line_witnesses;        /* prefetcher-proof witnesses behind line_bytes (probe/line.h): 2, 1,
				    * or 0 (the stride witness alone, or assumed) */
	char line_note[400];       /* when line_witnesses < 2: why, for commands to say so */
	int nlevels;
	double level_bytes[PROBE_MAX_LEVELS];
	double level_ns[PROBE_MAX_LEVELS];
	double memory_ns;
	double level_ways[PROBE_MAX_LEVELS]; /* assoc: ways per level, NAN where not found */
	double contexts_fp, contexts_int, contexts_mem;
	/* instr: FLOPs per core cycle of the widest vector, [0] single, [1] double precision;
	 * [.][0] total, [1] ADD, [2] MUL, [3] FMA */
	double flops_per_cy[2][4];
};

#endif
