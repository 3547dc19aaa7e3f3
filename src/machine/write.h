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
#include "machine/probes.h"

/* ECM rates measured with the load and store kernels (bench --ecm): transfer b moves lines from
 * level b + 1 to level b (0: L2 -> L1, the last: memory -> the last cache). */
struct machine_ecm_rates {
	double l1_load_bytes_per_cy, l1_store_bytes_per_cy;
	int ntransfers;
	double cy_per_cl[MACHINE_MAX_LEVELS];
};

/* What one probe run found, as the writer takes it. */
struct machine_probed {
	char model_name[128];   /* as the OS reports it (no probe measures a name) */
	char incore_cpu[128];   /* llvm-mca's -mcpu: the CPU the compiler picks for -march=native */
	int cpus;               /* CPUs the run could use: the cores when contexts.fp is missing */
	uint64_t seed;
	/* The answers (probes.h): the Kerncraft values derive from clock, line, caches, assoc,
	 * contexts and instr.flops_per_cycle; archscope.probes is their JSON. */
	const struct machine_probes *probes;
	/* Streaming benchmarks (none: nkernels 0): the kernels, and per level (memory last) and core
	 * count the bandwidths and working sets. */
	int nkernels;
	struct machine_bench_kernel kernel[MACHINE_MAX_KERNELS];
	int nbench;
	struct machine_bench_level bench[MACHINE_MAX_LEVELS];
	int has_ecm;
	struct machine_ecm_rates ecm;
	/* What the benchmarks were measured in (common/conditions.h): runs in all, those that stayed
	 * disturbed after their re-runs (the first named), and a bandwidth that broke its bound (a
	 * level faster than the level above it): archscope.benchmarks_flags; bench_runs 0: none. */
	int bench_runs, bench_noisy;
	char bench_noisy_first[300];
	char bench_implausible[300];
};

/* A streaming kernel of doubles as Kerncraft declares it: read and write streams include the
 * read+write ones, 8 bytes each; likwid-bench's name (copy_avx512). */
void machine_bench_kernel_declare(struct machine_bench_kernel *K, const char *name, const char *variant, int reads,
				  int writes, int rws, int flops);

/* The cache levels the answers give (memory not counted), at most max: their count, and their
 * sizes in bytes into bytes[] unless it is NULL. */
int machine_probed_levels(const struct machine_probes *a, double *bytes, int max);

/* m's keys, in Kerncraft's order, as the JSON document the tree is made from (mnode_from_json).
 * NULL on no memory. */
json_t *machine_write_json(const struct machine *m);
/* m as a machine file tree (no header comment). 0, or -ENOMEM. */
int machine_write_tree(const struct machine *m, struct mtree *t, struct as_error *err);

/* The machine file of a probe run as a JSON document (mnode_from_json makes it the tree): the
 * Kerncraft values derived from p's answers (cache sets from size and ways, private levels above
 * the last cache, upstream rates from the ECM transfers) and the 'archscope:' section {version,
 * cpus, seed, assumed, ecm, probes}. NULL on no memory. */
json_t *machine_probed_json(const struct machine_probed *p);
/* A saved run (probe --raw DIR, read back by probe -o --from-raw DIR): a JSON object from a regular
 * file of at most 16 MiB (probe-results.json, which machine_probes_from_json reads, or
 * benchmarks.json); NULL with the reason in err. */
json_t *machine_saved_load(const char *path, struct as_error *err);
/* The benchmarks of benchmarks.json (named name in messages) into p: its kernels and measurements
 * pass machine_check's checks of a benchmarks section, its flags and ecm are of their kinds and
 * ranges; else -EINVAL with the first problem in err ("saved results 'NAME': ecm.transfers[1]
 * ..."). 0, -EINVAL or -ENOMEM. */
int machine_probed_bench_from_saved(const json_t *saved, const char *name, struct machine_probed *p, struct as_error *err);

/* p's streaming benchmarks as probe -o saves them beside the raw curves (benchmarks.json):
 * {kernels, measurements} as in the machine file, and ecm as in its archscope section. */
json_t *machine_probed_bench_json(const struct machine_probed *p);

#endif
