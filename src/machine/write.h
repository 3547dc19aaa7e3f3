/* The machine file writer: a struct machine as Kerncraft's keys in Kerncraft's order, and what a
 * probe run found (struct machine_probed: typed answers, benchmarks, ECM rates) as a whole file,
 * the Kerncraft values derived from the answers plus the 'archscope:' section with every answer
 * and the assumptions made. Values are written at the file's resolution: clock 1 MHz
 * ("2.941 GHz"), sizes 10 B ("49.15 kB"), bandwidths 10 MB/s ("41.30 GB/s"), other numbers 10
 * digits. */
#ifndef ARCHSCOPE_MACHINE_WRITE_H
#define ARCHSCOPE_MACHINE_WRITE_H

#include <jansson.h>
#include <stdint.h>

#include "common/error.h"
#include "machine/machine.h"
#include "machine/mtree.h"

/* ECM rates measured with the load and store kernels (bench --ecm): transfer b moves lines from
 * level b + 1 to level b (0: L2 -> L1, the last: memory -> the last cache). */
struct machine_ecm_rates {
	double l1_load_bytes_per_cy, l1_store_bytes_per_cy;
	int ntransfers;
	double cy_per_cl[MACHINE_MAX_LEVELS];
};

/* What one probe run found, as the writer takes it. NAN where a probe found nothing. */
struct machine_probed {
	char model_name[128];   /* as the OS reports it (no probe measures a name) */
	char incore_cpu[128];   /* llvm-mca's -mcpu: the CPU the compiler picks for -march=native */
	double clock_ghz;       /* measured core clock */
	double contexts_fp;     /* contexts that run FP work side by side: the cores */
	double contexts_int;    /* ... integer work: the hardware threads */
	int cpus;               /* CPUs the run could use: the cores when contexts_fp is missing */
	uint64_t seed;
	int has_flops;
	double flops_per_cy[2][4]; /* widest vector, [SP, DP][total, ADD, MUL, FMA] per core cycle */
	double line_bytes;
	int nlevels;            /* cache levels; memory comes after them */
	double level_bytes[MACHINE_MAX_LEVELS - 1];
	double level_ways[MACHINE_MAX_LEVELS - 1]; /* NAN or 0: not measured */
	/* Streaming benchmarks (none: nkernels 0): the kernels, and per level (memory last) and core
	 * count the bandwidths and working sets. */
	int nkernels;
	struct machine_bench_kernel kernel[MACHINE_MAX_KERNELS];
	int nbench;
	struct machine_bench_level bench[MACHINE_MAX_LEVELS];
	int has_ecm;
	struct machine_ecm_rates ecm;
	const json_t *answers;  /* the probe results document: archscope.probes is its copy without
	                         * the curves (they stay in --raw files) */
};

/* m's keys, in Kerncraft's order, as the JSON document the tree is made from (mnode_from_json).
 * NULL on no memory. */
json_t *machine_write_json(const struct machine *m);
/* m as a machine file tree (no header comment). 0, or -ENOMEM. */
int machine_write_tree(const struct machine *m, struct mtree *t, struct as_error *err);

/* The machine file of a probe run as a JSON document (mnode_from_json makes it the tree): the
 * Kerncraft values derived from p (cache sets from size and ways, private levels above the last
 * cache, upstream rates from the ECM transfers) and the 'archscope:' section {version, cpus,
 * seed, assumed, ecm, probes}. NULL on no memory. */
json_t *machine_probed_json(const struct machine_probed *p);
/* A saved run (probe -o --raw DIR, read back by --from-raw DIR): the answers of
 * probe-results.json into p (clock, line, cache sizes and ways, contexts, FLOPs per cycle; NAN or
 * 0 where the document has none or nonsense), and the benchmarks of benchmarks.json (0, or
 * -ENOMEM). Any JSON is accepted: what the writer then makes of it is checked by machine_check. */
void machine_probed_from_results(const json_t *results, struct machine_probed *p);
int machine_probed_bench_from_saved(const json_t *saved, struct machine_probed *p, struct as_error *err);

/* p's streaming benchmarks as probe -o saves them beside the raw curves (benchmarks.json):
 * {kernels, measurements} as in the machine file, and ecm as in its archscope section. */
json_t *machine_probed_bench_json(const struct machine_probed *p);

#endif
