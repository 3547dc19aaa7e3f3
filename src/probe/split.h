/* Line-crossing vector accesses (part of probe instr): the cost in core cycles of a vector load
 * and a vector store that stays in one cache line, and of one that spans two, each in L1, for
 * every vector width this CPU runs (x86-64: 128, 256 and 512 bits, by CPUID feature). A stencil's
 * neighbours a[i-1], a[i+1] are such accesses on most of their passes; the ECM's in-core time
 * counts them through model's line-crossing term (src/model/incore/split.c). */
#ifndef ARCHSCOPE_PROBE_SPLIT_H
#define ARCHSCOPE_PROBE_SPLIT_H

#include "common/error.h"
#include "probe/memory.h"

#define SPLIT_MAX_WIDTHS 3

struct probe_split_width {
	int width_bits;
	/* core cycles per access, throughput of 8 independent accesses per iteration over 2 KiB */
	double load_cy, load_split_cy, store_cy, store_split_cy;
	double mixed_cy;    /* one load and one store, aligned, in a loop doing 8 of each per iteration */
	double clock_ghz;   /* the clock bracketing this width's loops */
};

struct probe_split_result {
	int nwidths;        /* 0: not measured (not x86-64, or interrupted before the first width) */
	struct probe_split_width w[SPLIT_MAX_WIDTHS];
};

/* Measures every vector width this CPU runs; r->nwidths = 0 where none can be measured. */
void probe_split_find(const struct probe_opts *o, struct probe_split_result *r);

#endif
