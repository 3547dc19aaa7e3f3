/* llvm-mca's -mcpu for this machine: the CPU LLVM detects on the host when the installed LLVM
 * knows it, else the nearest model it knows of the same vendor that runs the kernel's vector width
 * (never a model that lacks the ISA the kernel was compiled for: llvm-mca rejects such code). The
 * choice is a compiler setting, not a probe answer, and is always said in the output. */
#ifndef ARCHSCOPE_MODEL_MCPU_H
#define ARCHSCOPE_MODEL_MCPU_H

#include <stddef.h>

struct mcpu_choice {
	char name[48];     /* the -mcpu value; "" when nothing fits */
	int exact;         /* 1: the wanted CPU itself */
	char reason[200];  /* how it was chosen, for the output */
};

/* The widest vector registers (bits) of an LLVM CPU name (512, 256, 128), 0 when the table does
 * not know it. */
int mcpu_vector_bits(const char *name);

/* Chooses among `known` (the names llvm-mca lists for -mcpu=help) for `want` (the host CPU LLVM
 * detects, or a machine file's -mcpu) and a kernel using vector_bits-wide registers. 0, or -1 when
 * no known model fits (out->reason says why). */
int mcpu_choose(const char *want, const char *const *known, size_t nknown, int vector_bits, struct mcpu_choice *out);

/* Parses the CPU names out of `llvm-mca -mcpu=help` output into names (malloc'd copies, caller
 * frees each); returns the count. */
size_t mcpu_parse_help(const char *text, char **names, size_t max);

/* Parses "Host CPU: NAME" out of `llc --version` output; 0, or -1 when absent. */
int mcpu_parse_host(const char *text, char *out, size_t len);

/* The host CPU as LLVM names it (llc --version: "Host CPU: znver5"), the -mcpu for llvm-mca; else
 * the name GCC picks for -march=native (GCC 12 calls a Zen 5 "znver3"); else "native". A compiler
 * setting for the in-core model that probe -o writes, not a probe answer. */
void mcpu_native_name(char *out, size_t len);

#endif
