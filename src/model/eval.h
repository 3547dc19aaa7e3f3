/* The evaluation pipeline of `archscope model`: the kernel bound at one size, or at every size of a
 * sweep of one constant; per size the cache predictor's traffic (layer conditions or the cache
 * simulator), ECMData and the Roofline; once per run the in-core analysis of the first size; and
 * the arithmetic the models and the benchmark mode share (the full ECM of a size, RooflineASM,
 * measured cycles per cache line of work). A model that does not apply is recorded with its reason;
 * an input the kernel cannot be evaluated at fails with a message. Nothing here prints or measures
 * the machine: the caller runs the benchmark's clock and counters and passes their numbers in. */
#ifndef ARCHSCOPE_MODEL_EVAL_H
#define ARCHSCOPE_MODEL_EVAL_H

#include "model/ecm.h"
#include "model/incore/incore.h"
#include "model/lc.h"
#include "model/roofline.h"
#include "model/sim.h"

/* The models, once: X(ID, name) gives the flag MODEL_<ID>, bit i for the i-th row, and
 * model_names[i], the name -p takes (Kerncraft's). */
#define MODEL_LIST(X)                                                                              \
	X(LC, "LC") X(ECMDATA, "ECMData") X(ROOFLINE, "Roofline") X(ECMCPU, "ECMCPU") X(ECM, "ECM") \
	X(ROOFASM, "RooflineASM") X(BENCH, "Benchmark") X(BLOCK, "Blocking")
enum model_index {
#define X(id, name) MODEL_INDEX_##id,
	MODEL_LIST(X)
#undef X
	MODEL_COUNT
};
enum {
#define X(id, name) MODEL_##id = 1 << MODEL_INDEX_##id,
	MODEL_LIST(X)
#undef X
};
#define MODEL_INCORE (MODEL_ECMCPU | MODEL_ECM | MODEL_ROOFASM)
extern const char *const model_names[MODEL_COUNT + 1]; /* NULL-terminated */

/* The cache predictor: MODEL_PRED_<ID> and model_predictor_names[MODEL_PRED_<ID>]. */
#define MODEL_PRED_LIST(X) X(LC, "lc") X(SIM, "sim")
enum {
#define X(id, name) MODEL_PRED_##id,
	MODEL_PRED_LIST(X)
#undef X
	MODEL_PRED_COUNT
};
extern const char *const model_predictor_names[MODEL_PRED_COUNT + 1];

/* The ECM's transfer costs: MODEL_RATES_AUTO (none asked for), then one value per row, named
 * model_rates_names[MODEL_RATES_<ID> - 1]. */
#define MODEL_RATES_LIST(X) X(FIT, "fit") X(MACHINE, "machine")
enum {
	MODEL_RATES_AUTO,
#define X(id, name) MODEL_RATES_##id,
	MODEL_RATES_LIST(X)
#undef X
	MODEL_RATES_END
};
extern const char *const model_rates_names[MODEL_RATES_END];

/* What to evaluate, and with what. */
struct model_request {
	int models;                 /* MODEL_* flags: ECMDATA and ROOFLINE per size, INCORE once */
	int predictor;              /* MODEL_PRED_* */
	int cores;                  /* cores in use: shared caches are divided among them */
	uint64_t seed;              /* the simulator's random replacement */
	int64_t sim_iterations;     /* iterations the simulator measures after its warm-up */
	const struct ecm_fit *fit;  /* the ECM's fitted transfer costs, or NULL: the machine file's rates */
	struct lc_llc llc;          /* layer conditions: the last-level cache's capacity band (lc.h);
				     * zero: a sharp transition at the file's size */
	const char *text;           /* the kernel's source (in-core analysis), and its length */
	size_t text_len;
	const struct incore_config *incore;
};

/* The ECM's transfer costs for rates (MODEL_RATES_*): the fit to the machine file's one-core
 * benchmarks (RATES_FIT; RATES_AUTO for files from 'probe -o'), else the file's rates. Returns 1
 * when the fit, in *fit, is to be used, 0 when the file's rates are, and a negative error for
 * RATES_FIT when nothing could be fitted. */
int model_rates_choose(const struct machine *m, int rates, struct ecm_fit *fit, struct as_error *err);

/* A -D constant: one value, or a sweep FROM:TO:STEP (v = FROM). */
struct model_define {
	char name[KERNEL_NAME_LEN];
	int64_t v, from, to, step;
	int sweep;
};

/* Counters the caller read around a size's benchmark, per call of the kernel: the first is the
 * cycles counter. */
#define MODEL_MAX_COUNTERS 16
struct model_counts {
	int available;
	char reason[512];           /* when not available, why (for the user) */
	int n;
	char name[MODEL_MAX_COUNTERS][64];
	char fq[MODEL_MAX_COUNTERS][192];
	double per_call[MODEL_MAX_COUNTERS];
};

/* One evaluated size. */
struct model_eval {
	struct kbound b;
	struct lc_analysis *lc;     /* the layer conditions (the caller's buffer; NULL in a sweep's rows) */
	char lc_error[512];         /* set when the kernel is outside the layer conditions */
	struct cache_traffic tr;
	struct sim_info si;
	struct ecm_data ecm;
	int have_ecm;
	char ecm_error[512];
	/* the sensitivity to the last-level cache's size (layer conditions only): ECMData with that
	 * size halved ([0]) and doubled ([1]), the band as in the request */
	int have_sens;
	struct ecm_data ecm_sens[2];
	char sens_level[16];
	struct roofline rl;
	int have_rl;
	char rl_error[512];
	const struct incore_result *ic; /* the run's in-core analysis (the first size's), or NULL */
	/* benchmark mode */
	struct incore_bench bench;
	double bench_ghz;           /* the core clock the caller measured on the benchmark's CPU */
	int have_bench;
	char bench_error[512];
	struct model_counts cnt;
};

/* Binds, predicts and models one size: the constants at vals, the layer conditions into lc. Fails
 * (-EINVAL with the message) when the kernel cannot be bound at these sizes or the chosen predictor
 * does not apply. */
int model_eval_size(const struct model_request *req, const struct kernel *k, const struct machine *m, const int64_t *vals,
		    struct lc_analysis *lc, struct model_eval *e, struct as_error *err);

/* The full ECM of a size (ok = 0 without the in-core analysis or the data transfers). */
void model_eval_ecm(const struct model_eval *e, struct ecm_full *f);

/* The same with the last-level cache halved (which 0) or doubled (1); ok = 0 without
 * e->have_sens. */
void model_eval_ecm_sens(const struct model_eval *e, int which, struct ecm_full *f);

/* The band model chooses by default (lc.h): 4 (half to double the size) for the last-level cache
 * of a file 'probe -o' wrote (its size is one measurement on a host whose other tenants share that
 * cache: 14 and 28 MiB on one Zen 5 guest, 20 to 48 MiB on one Xeon guest), 1 (sharp, as
 * Kerncraft) for a file written by hand. */
double model_llc_band_default(const struct machine *m);

/* RooflineASM: the core's ceiling is llvm-mca's (max of T_OL, T_nOL), the data ceilings the
 * Roofline's. Cycles per cache line of work; *bottleneck the Roofline level, or -1 for the core.
 * Needs e->ic. */
double model_eval_roofline_asm(const struct model_eval *e, int *bottleneck);

/* Measured cycles per cache line of work: from the cycles counter where it was read, else time x
 * the measured clock (model_eval_bench_time_cy_per_cl). */
double model_eval_bench_cy_per_cl(const struct model_eval *e);
double model_eval_bench_time_cy_per_cl(const struct model_eval *e);

/* Refuses (-E2BIG with a message) a benchmark whose arrays need more than 80 % of this machine's
 * memory. */
int model_bench_check_memory(const struct kbound *b, struct as_error *err);

/* Benchmark mode for size e: compiles and runs the kernel's program on `cpu` (see
 * incore_benchmark; hooks count around its repetitions), e->bench_ghz = clock_ghz. A failure is
 * recorded in e->bench_error. */
void model_eval_bench(struct model_eval *e, const struct model_request *req, const struct kernel *k, int cpu,
		      double min_seconds, int reps, double clock_ghz, const struct spawn_hooks *hooks);

/* A whole run: one size, or every value of the swept constant. */
struct model_run {
	int n;                       /* sizes */
	int sweep_sym;               /* the swept constant's index, -1: one size */
	const struct model_define *sweep; /* its -D, NULL: one size */
	int64_t vals[POLY_MAX_SYMS]; /* the constants' values (the swept one at the size last evaluated) */
	int64_t *xs;                 /* the swept constant's values, n of them */
	struct model_eval *rows;     /* n */
	struct lc_analysis *lc;      /* one size: its layer conditions; a sweep keeps none */
	struct incore_result ic;     /* the first size's in-core analysis (MODEL_INCORE) */
	int have_ic;
	char ic_error[600];          /* why there is none */
};

/* Binds the -D values to the kernel's constants (every constant needs a value, every value a
 * constant: -EINVAL otherwise) and allocates the sizes. */
int model_run_init(struct model_run *run, const struct kernel *k, const struct model_define *defs, int ndefs,
		   struct as_error *err);

/* Called after each size is evaluated (and, for the first, analysed in-core): the caller's
 * benchmark and progress. */
struct model_run_hooks {
	void (*after_size)(void *ctx, struct model_run *run, int i);
	void *ctx;
};

/* Evaluates every size in order (model_eval_size), with the in-core analysis after the first when
 * req asks for it (its failure is kept in ic_error, not returned). Fails as model_eval_size. */
int model_run_all(struct model_run *run, const struct model_request *req, const struct kernel *k,
		  const struct machine *m, const struct model_run_hooks *hooks, struct as_error *err);

void model_run_release(struct model_run *run);

#endif
