/* Shared by cmd-model.c and its renderers (model-render-text.c, model-render-json.c): the parsed
 * options of `archscope model` and the functions that print a run. */
#ifndef ARCHSCOPE_CLI_MODEL_H
#define ARCHSCOPE_CLI_MODEL_H

#include <jansson.h>

#include "model/blocking.h"
#include "model/eval.h"

struct model_opts {
	const char *kernel, *machine, *plot, *compiler, *events;
	int shown;                   /* the models asked for, to print (req.models adds what they need) */
	int json, cpu, no_counters;
	int ecm_rates;               /* MODEL_RATES_* */
	struct model_request req;
	struct ecm_fit fit;          /* the fitted transfer costs (req.fit points here when used) */
	double bench_seconds;
	int bench_reps;
	int ndefs;
	struct model_define defs[POLY_MAX_SYMS];
};

/* Text: one size (blk: the blocking advice when asked for, else NULL), or the sweep's table with its
 * notes on stderr. */
void model_print_size(const struct model_opts *o, const struct kernel *k, const struct machine *m,
		      const struct model_run *run, const struct model_blocking *blk);
void model_print_sweep(const struct model_opts *o, const struct model_run *run, double seconds);

/* A layer condition as text: "nothing reused", "2*N*8 B", "all arrays: 24000 B". */
void model_cond_text(const struct kernel *k, const struct lc_analysis *a, int c, char *out, size_t len);

/* JSON: the "results" object of one size or of a sweep. */
json_t *model_json_size(const struct model_opts *o, const struct kernel *k, const struct machine *m,
			const struct model_run *run, const struct model_blocking *blk);
json_t *model_json_sweep(const struct model_opts *o, const struct kernel *k, const struct machine *m,
			 const struct model_run *run, double seconds);

/* The sweep's plot: DIR/model-sweep.dat and .svg, the ECM transfers stacked and the Roofline. */
int model_plot_sweep(const char *dir, const struct model_run *run, struct as_error *err);

#endif
