/* The probe family: each row of the probe table is a name, a one-line summary and a function
 * that runs the library probe, adds its JSON under results, and prints its text. */
#ifndef ARCHSCOPE_CLI_PROBE_H
#define ARCHSCOPE_CLI_PROBE_H

#include <jansson.h>
#include <stdint.h>

#include "common/cpuset.h"
#include "common/rng.h"
#include "probe/probe.h"
#include "topo/topo.h"

struct probe_ctx {
	struct probe_env env;    /* what the probes see: CPU, options, earlier answers */
	int json;
	const char *raw_dir;     /* NULL: no raw CSV */
	const char *plot_dir;    /* NULL: no plots */
	json_t *results;
};

struct probe_row {
	const char *name;
	const char *summary;
	int (*run)(struct probe_ctx *ctx);  /* 0, or exit code */
};

int probe_row_clock(struct probe_ctx *ctx);
int probe_row_line(struct probe_ctx *ctx);
int probe_row_caches(struct probe_ctx *ctx);
int probe_row_assoc(struct probe_ctx *ctx);
int probe_row_tlb(struct probe_ctx *ctx);
int probe_row_instr(struct probe_ctx *ctx);
int probe_row_contexts(struct probe_ctx *ctx);
int probe_row_registers(struct probe_ctx *ctx);
int probe_row_timeslice(struct probe_ctx *ctx);
int probe_row_c2c(struct probe_ctx *ctx);

/* Progress callback of struct probe_opts: one updating line on a terminal. */
void probe_progress(void *unused, const char *probe, const char *point, int done, int total);

/* A malloc'd monotone copy of a probe curve's minima (never NULL: aborts on no memory). */
double *probe_monotone_min(const double *min_ns, size_t n);

/* An answer as JSON ({value, unit, confidence, method, os_reported}); os_int: the OS-reported
 * value is an integer count (hardware threads, registers). */
json_t *probe_answer_json(const struct probe_answer *a, int os_int);

/* Helpers for rows: raw CSV into ctx->raw_dir, a plot into ctx->plot_dir (notes on skip). */
void probe_save_raw(struct probe_ctx *ctx, const char *name, const char *header, const double *data,
		    size_t n, int ncols);
void probe_plot(struct probe_ctx *ctx, const char *name, const char *body);
struct probe_curve;
/* A curve's x, min and median as raw CSV (header e.g. "k,min_ns,median_ns"). */
void probe_save_curve(struct probe_ctx *ctx, const char *name, const char *header, const struct probe_curve *c);

/* The machine file (Kerncraft's keys plus 'archscope:') from the answers in ctx->env, or, when no
 * memory probe ran (--from-raw), from the saved ctx->results. The streaming benchmarks per level
 * and core count: taken from *bench_io when set (--from-raw), else run when run_bench and stored
 * into *bench_io ({kernels, measurements, ecm}) for saving. */
json_t *probe_machine_build(struct probe_ctx *ctx, int run_bench, json_t **bench_io);

#endif
