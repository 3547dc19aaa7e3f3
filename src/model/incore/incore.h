/* The in-core side of the models (Kerncraft paper §2.3, §3.1): the kernel becomes a compilable C
 * function (codegen.c), the machine file's compiler turns it into assembly and the innermost loop is
 * found and its unroll factor measured in kernel iterations (asm.c), and llvm-mca (with the machine
 * file's -mcpu) gives the port pressure (mca.c). T_OL and T_nOL per cache line of work come from the
 * ports the machine file names as overlapping and non-overlapping; a dependency chain is checked
 * with the probed latencies (chains.c). The same C, with a main around it, is the benchmark mode's
 * program (bench.c). The settings come from the machine file (config.c). The parts that read text
 * (the assembly, llvm-mca's JSON) are pure functions, so they are tested on recorded output. This is
 * the folder's one public header. */
#ifndef ARCHSCOPE_MODEL_INCORE_INCORE_H
#define ARCHSCOPE_MODEL_INCORE_INCORE_H

#include <stdio.h>

#include "common/conditions.h"
#include "common/error.h"
#include "common/spawn.h"
#include "model/kernel.h"

#define INCORE_MAX_PORTS 48
#define INCORE_MAX_INSTR 256
#define INCORE_PORT_LEN 32

/* A latency the machine file's `probe instr` measured (archscope.probes.instr.ops). */
#define INCORE_MAX_OPS 64
struct incore_op {
	char op[16];        /* add, sub, mul, div, fma */
	char type[16];      /* int32, int64, float, double */
	int width_bits;     /* the element's for scalar operations, the register's for vectors */
	double latency_cy;  /* core cycles */
};

/* probe instr's vector loads and stores in L1 that stay in one line and that span two, in core
 * cycles per access (archscope.probes.instr.line_split) */
struct incore_split {
	int width_bits;
	double load_cy, load_split_cy, store_cy, store_split_cy;
	double mixed_cy;    /* a load and a store in a loop doing both (0: not in the file) */
};

struct incore_config {
	char compiler[64];  /* gcc, clang, ... (a command in PATH) */
	char flags[512];    /* the machine file's flags for it */
	char mcpu[64];      /* llvm-mca -mcpu */
	int n_ol, n_nol;    /* the machine file's LLVM-MCA port lists (0: not given) */
	char ol[INCORE_MAX_PORTS][INCORE_PORT_LEN], nol[INCORE_MAX_PORTS][INCORE_PORT_LEN];
	int nops;           /* probed latencies (0: the file has none) */
	struct incore_op op[INCORE_MAX_OPS];
	int nsplit;         /* probed costs of line-crossing vector accesses (0: the file has none) */
	struct incore_split split[3];
};

struct mtree;
/* The settings from a machine file's tree: the compiler (`want`, else the file's first that is
 * installed, else cc; flags -O3 -march=native for a compiler the file does not list), the -mcpu of
 * `in-core model: LLVM-MCA`, the port lists of the overlapping and non-overlapping models, and
 * the latencies `probe instr` measured (archscope.probes.instr.ops). What the file lacks stays
 * empty. */
void incore_config_read(const struct mtree *mt, const char *want, struct incore_config *cfg);

/* C for the kernel: `#define` for every constant, the loop nest in a function taking the arrays
 * as restrict pointers, and with_main a program that allocates and first-touches the arrays,
 * calls the function until a repetition lasts min_seconds, and prints "seconds_per_call S calls N"
 * (the best of `reps` repetitions). text is the kernel's source (positions map back with #line). */
int incore_codegen(const struct kernel *k, const struct kbound *b, const char *text, size_t len, int with_main,
		   FILE *out, struct as_error *err);

/* The innermost loop of function fn in GNU assembler (AT&T) text: among the loops (a label and a
 * later jump back to it) that contain no other loop, the one with the most vector memory traffic,
 * then the most instructions. Bytes stored and loaded per pass come from the operands (xmm 16,
 * ymm 32, zmm 64 B; ss/sd suffixes 4/8 B). */
struct asm_loop {
	int ninstr;
	double store_bytes, load_bytes; /* per pass through the loop */
	char label[64];
	char *text;                     /* the loop's instructions and its label, one per line (malloc) */
};
int incore_find_loop(const char *asm_text, const char *fn, struct asm_loop *out, struct as_error *err);
void incore_loop_free(struct asm_loop *l);

/* Kernel iterations per pass through the loop: store bytes (else load bytes) per pass over the
 * kernel's per iteration. 0 when it cannot be told. */
double incore_unroll(const struct kernel *k, const struct asm_loop *l);

struct incore_mca {
	int nports;
	char port[INCORE_MAX_PORTS][INCORE_PORT_LEN];
	double pressure[INCORE_MAX_PORTS];  /* cycles per pass through the loop */
	int is_nol[INCORE_MAX_PORTS], is_ol[INCORE_MAX_PORTS];
	int nol_from_file;                  /* 1: the machine file named the ports; 0: llvm-mca's load ports */
	int ninstr;
	char instr[INCORE_MAX_INSTR][80];
	double latency[INCORE_MAX_INSTR];  /* llvm-mca's, with the load for an instruction that loads */
	int may_load[INCORE_MAX_INSTR];
	double *by_instr;                   /* ninstr x nports (malloc) */
	double cycles_per_pass;             /* llvm-mca: total cycles / iterations */
	double block_rthroughput;
	double t_ol_pass, t_nol_pass;       /* max pressure over the overlapping / non-overlapping ports */
	char mcpu[48];                      /* the -mcpu llvm-mca ran with (model/mcpu.h's choice) */
	int mcpu_exact;                     /* 1: the machine file's (or the host's, for native) */
	char mcpu_reason[200];              /* how it was chosen */
	int vector_bits;                    /* the widest registers the loop uses: 512, 256, 128, 0 */
};
/* Reads `llvm-mca --json` output. Port lists in cfg decide overlapping and non-overlapping ports;
 * without them the non-overlapping ports are those loads use and non-memory instructions do not
 * (incore_analyse instead asks llvm-mca where plain integer loads go, a cleaner answer). */
int incore_parse_mca(const char *json_text, const struct incore_config *cfg, struct incore_mca *out, struct as_error *err);
void incore_mca_free(struct incore_mca *m);

/* The loop's longest recurrence (a register carried from one pass to the next, as the sum of a
 * reduction): a data-flow run over many passes with unlimited ports, the growth of the latest
 * result per pass. Once with llvm-mca's latencies, once with the probed ones where the machine
 * file has the operation (add, sub, mul, div, fma of a scalar or of a vector width it measured).
 * Through a register operand an instruction that also loads costs its latency without the load:
 * the probed latency, or llvm-mca's minus that of the loop's plain load of the same width (5 cy if
 * there is none). */
struct incore_chain {
	double mca_cy_per_pass, probed_cy_per_pass;
	int nprobed;  /* instructions of the loop whose latency the probe gave */
};
void incore_chain(const struct incore_mca *m, const struct incore_op *ops, int nops, struct incore_chain *out);

/* Everything from the kernel to T_OL/T_nOL: compile to assembly, find the loop, run llvm-mca. */
struct incore_result {
	struct incore_config cfg;
	struct asm_loop loop;
	struct incore_mca mca;
	double unroll;                  /* kernel iterations per pass */
	double iterations_per_cl;
	double t_ol, t_nol;             /* core cycles per cache line of work */
	double t_ol_ports;              /* T_OL from port pressure alone */
	int latency_bound;              /* llvm-mca's cycles exceed 1.5x every port's pressure (a dependency
	                                 * chain): T_OL raised to them */
	struct incore_chain chain;
	int latency_probed;             /* latency-bound, and T_OL the recurrence with the probed
	                                 * latencies (at least the ports' pressure) */
	/* Line-crossing accesses (split.c): the loop's vector width, the loads and stores per cache
	 * line of work that span two lines, and the cycles they add to T_nOL at probe instr's costs
	 * (split_width 0: scalar loop, or the machine file has no costs for the width). */
	int split_width_bits;
	double split_loads, split_stores, t_split;
	double t_nol_memops;            /* the loop's loads and stores at probe instr's aligned costs */
	int t_nol_from_memops;          /* T_nOL is that (more than llvm-mca's ports), before t_split */
};

/* The accesses of the innermost loop that span two cache lines when it runs with vector_bytes
 * wide accesses from the loop's first index (no peeling for alignment; arrays start on 64 B, as
 * the benchmark allocates them): per cache line of work, the share of the outer iterations at
 * which each access is not aligned to the vector width (one access per line then spans two,
 * whatever the width). Unit-stride accesses only; identical accesses count once. */
void incore_split_count(const struct kernel *k, const struct kbound *b, int vector_bytes, double *loads,
			double *stores);
/* The cycles of `loads` and `stores` aligned vector accesses per cache line of work at probe
 * instr's costs: their sum less the part of the cheaper kind that the loop doing both showed to
 * overlap with the other (mixed_cy). 0 when the file has no mixed cost. */
double incore_memops_cy(const struct incore_split *c, double loads, double stores);
/* The widest vector register of the loop's memory operands in bytes (xmm 16, ymm 32, zmm 64), 0
 * for a scalar loop. */
int incore_loop_vector_bytes(const struct asm_loop *l);
/* On failure r holds nothing to free. */
int incore_analyse(const struct kernel *k, const struct kbound *b, const char *text, size_t len,
		   const struct incore_config *cfg, double iterations_per_cl, struct incore_result *r, struct as_error *err);
void incore_result_free(struct incore_result *r);

/* Benchmark mode: compiles the program of incore_codegen and runs it on `cpu`. With hooks, the
 * program stops itself before and after each repetition (stops 2r and 2r+1), so the caller can
 * count around exactly the timed calls. */
struct incore_bench {
	double seconds_per_call;
	long calls;
	int reps;  /* repetitions run; the fastest counts */
	double wall_seconds;
	struct conditions cond; /* what the kept run ran in; run again (twice at most) while other
				 * processes or steal disturbed it (common/conditions.h) */
};
int incore_benchmark(const struct kernel *k, const struct kbound *b, const char *text, size_t len,
		     const struct incore_config *cfg, int cpu, double min_seconds, int reps,
		     const struct spawn_hooks *hooks, struct incore_bench *out, struct as_error *err);

#endif
