/* Shared by cmd-model.c and its renderer (cmd-model-render.c): the options of `archscope model`, the
 * result of a run and the one function that prints it as text or JSON. */
#ifndef ARCHSCOPE_CLI_CMD_MODEL_H
#define ARCHSCOPE_CLI_CMD_MODEL_H

#include "model/blocking.h"
#include "model/eval.h"

struct emit;

struct cli_model_opts {
	const char *kernel, *machine, *plot, *compiler, *events;
	int shown;                   /* the models asked for, to print (req.models adds what they need) */
	int json, cpu, no_counters;
	int ecm_rates;               /* MODEL_RATES_* */
	double llc_band;             /* --llc-band; 0: model_llc_band_default */
	struct model_request req;
	struct ecm_fit fit;          /* the fitted transfer costs (req.fit points here when used) */
	double bench_seconds;
	int bench_reps;
	int ndefs;
	struct model_define defs[POLY_MAX_SYMS];
};

/* What a run found: one size (run->sweep NULL, with the blocking advice when asked for) or a sweep. */
struct cli_model_result {
	const struct cli_model_opts *o;
	const struct kernel *k;
	const struct machine *m;
	const struct model_run *run;
	const struct model_blocking *blk; /* NULL: not asked for */
	double seconds;                   /* the run's time */
	const char *plot;                 /* the sweep's plot, drawn into this directory; NULL: none */
};

/* The one renderer: the run's inputs, then each model of the size, or the sweep's table. */
void cli_model_render(struct emit *e, const struct cli_model_result *r);

/* Inside the renderer (cmd-model-render.c, cmd-model-render-incore.c). A model that does not apply: its
 * reason as the section's only member (key: the section's "error" in machine/result-model.h), and
 * the section's end. Where the ECM's transfer costs come
 * from (key: the JSON member, NULL: text only). The in-core analysis. The sections of ECM,
 * RooflineASM and Benchmark as asked for, after the in-core analysis when in_core. */
void cli_model_render_error(struct emit *e, const char *key, const char *msg);
void cli_model_render_rates(struct emit *e, const struct cli_model_result *r, const char *key);
void cli_model_render_incore(struct emit *e, const struct cli_model_result *r);
void cli_model_render_core(struct emit *e, const struct cli_model_result *r, const struct model_eval *ev, int in_core);

/* The sweep's plot (cmd-model-plot.c): DIR/model-sweep.dat and .svg, the ECM transfers stacked
 * and the Roofline. */
int cli_model_plot_sweep(const char *dir, const struct model_run *run, struct as_error *err);

#endif
