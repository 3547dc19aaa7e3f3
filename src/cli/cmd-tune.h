/* archscope tune in three files: cmd-tune.c reads the options; cmd-tune-gemm.c runs `tune gemm`
 * (blocking from the machine file, generated kernel, sweep against OpenBLAS); cmd-tune-stencil.c
 * runs `tune stencil` (spatial blocking of a 2D 5-point stencil from the layer conditions). */
#ifndef ARCHSCOPE_CLI_CMD_TUNE_H
#define ARCHSCOPE_CLI_CMD_TUNE_H

#include <stdint.h>

struct cli_tune_opts {
	const char *machine;    /* -m FILE */
	const char *isa;        /* --isa NAME, NULL: the widest present */
	const char *compiler;   /* --compiler NAME, NULL: the machine file's first installed, else cc */
	int registers;          /* --registers N, 0: from the machine file */
	int cpu;                /* --cpu N, -1: the first allowed */
	int reps;
	int step, max_size;     /* --step N, --max-size N (matrix sizes); 0: defaults */
	int quick;              /* --short */
	uint64_t seed;
	int json;
	const char *plot_dir;
	volatile int *stop;
};

struct emit;

/* The reasoning lines: a JSON array under key (the caller's description names it), and numbered
 * lines under the heading "reasoning" for people. */
void cli_tune_reasoning_render(struct emit *e, const char *key, const char (*lines)[256], int n);
/* Pins this thread to cpu_opt (-1: the first allowed CPU) and says which in *cpu; 0, or -1
 * after error(). */
int cli_tune_pin(int cpu_opt, int *cpu);

/* `archscope tune gemm`: the exit code. */
int cli_tune_gemm(const struct cli_tune_opts *o);
/* `archscope tune stencil`: the exit code. */
int cli_tune_stencil(const struct cli_tune_opts *o);

#endif
