/* The generated core micro-benchmarks (src/probe/gen/gen-probe-kernels.c writes them at build
 * time; the build compiles them with the flags they record), and their timing (kernels.c). Each
 * kernel runs n iterations and returns bits of its result so that nothing is dead code. */
#ifndef ARCHSCOPE_PROBE_KERNELS_H
#define ARCHSCOPE_PROBE_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#define INSTR_MAX_STREAMS 20
#define REGS_KMIN 3
#define REGS_KMAX 132
#define REGS_KFINE 64   /* every K up to here, every 4th above */
#define REGS_NK (REGS_KMAX - REGS_KMIN + 1)  /* an upper bound of the K values */

typedef uint64_t (*probe_kernel_fn)(uint64_t n);

/* One operation on one type (BlackjackBench §3.3): streams[s-1] runs s independent chains of
 * instr_chain dependent operations per iteration; lat_long is one chain of instr_chain_long. */
struct instr_set {
	const char *op;       /* add sub mul div fma */
	const char *type;     /* int32 int64 float double */
	int width_bits;       /* operand width: the element, or the whole vector */
	int lanes;            /* elements per operation */
	int is_float;
	int flops;            /* floating-point operations per element (fma: 2) */
	probe_kernel_fn lat_long;
	probe_kernel_fn streams[INSTR_MAX_STREAMS];
};

extern const struct instr_set instr_sets[];
extern const size_t instr_nsets;
extern const int instr_chain, instr_chain_long;
extern const char instr_compiler[];
extern const char instr_flags[];

/* Live ranges (§3.5): fn[i] keeps k[i] variables live and performs ops[i] additions per
 * iteration, i < nk. */
struct regs_set {
	const char *kind;     /* "int" (uint64_t) or "fp" (double) */
	const char *variant;  /* "wide": the build's flags; "narrow": with the narrowing flag added */
	const char *compiler;
	const char *flags;
	probe_kernel_fn fn[REGS_NK];
	int k[REGS_NK];
	int ops[REGS_NK];
	int nk;
	int isa_regs;         /* architectural registers of the kind in the ISA the set was compiled
			       * for (x86-64: 16 general-purpose; 16 vector, 32 with AVX-512); 0 unknown */
};

extern const struct regs_set regs_sets_wide[];
extern const size_t regs_nsets_wide;
extern const struct regs_set regs_sets_narrow[];
extern const size_t regs_nsets_narrow;

/* Wall time of one run of n iterations of fn, in ns. */
double probe_kernel_ns(probe_kernel_fn fn, uint64_t n);
/* Iterations of fn that take about target_ns (after a warm-up run). */
uint64_t probe_kernel_calibrate(probe_kernel_fn fn, double target_ns);
/* The fastest of reps runs of n iterations, in ns. */
double probe_kernel_best_ns(probe_kernel_fn fn, uint64_t n, int reps);

#endif
