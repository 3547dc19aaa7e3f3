/* The SIMD instruction sets the generated micro-kernels use: their vector width, compiler flags
 * and intrinsic spellings, and whether this CPU runs them (a choice of code, not a probe answer). */
#ifndef ARCHSCOPE_TUNE_ISA_H
#define ARCHSCOPE_TUNE_ISA_H

#include "common/error.h"

enum tune_isa { TUNE_ISA_SSE2, TUNE_ISA_AVX2, TUNE_ISA_AVX512, TUNE_ISA_COUNT };

struct tune_isa_info {
	const char *name;        /* "sse2", "avx2", "avx512" */
	const char *cpu_flags;   /* the CPU features it needs, space-separated (cpuid names) */
	const char *cc_flags;    /* compiler flags enabling it */
	const char *header;      /* intrinsics header */
	const char *vtype;       /* vector of doubles */
	const char *load, *store, *set1;
	const char *fnmadd;      /* c - a*b in one instruction (fnmadd(a, b, c)); NULL: sub(c, mul(a, b)) */
	const char *sub, *mul;
	int vector_doubles;
	int wide_registers;      /* 1: the probe's "fp" count (AVX-512's 32), 0: its "narrow" one */
};

const struct tune_isa_info *tune_isa_get(enum tune_isa isa);
/* The ISA named `name` (case-insensitive), or -1. */
int tune_isa_find(const char *name);
/* 1 when this CPU has every feature the ISA needs. ARCHSCOPE_TUNE_CPU_FLAGS, when set, replaces
 * what the CPU reports (a space-separated feature list), so tests can ask for a missing ISA. */
int tune_isa_present(enum tune_isa isa);
/* The widest ISA this CPU has; -ENOTSUP with a message when it has none (not x86-64). */
int tune_isa_widest(enum tune_isa *out, struct as_error *err);

#endif
