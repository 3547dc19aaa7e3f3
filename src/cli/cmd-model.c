/* archscope model KERNEL.c -m MACHINE.yaml: Kerncraft's models for a loop kernel — access
 * analysis, layer conditions, the cache simulator as the alternative predictor, ECMData, the
 * Roofline, the in-core analysis with llvm-mca, the full ECM, benchmark mode and blocking advice —
 * for one size or a sweep of sizes. Options here; the models in src/model/ (eval.h), the counters
 * around the benchmark in src/measure/bracket.h, the output in cmd-model-render.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd-model.h"
#include "cli/parse-options.h"
#include "common/atomicfile.h"
#include "common/cpuset.h"
#include "common/number.h"
#include "common/timer.h"
#include "machine/file.h"
#include "measure/bracket.h"
#include "probe/clock.h"
#include "report/emit.h"
#include "machine/mtree.h"

_Static_assert(MODEL_MAX_COUNTERS >= COUNTERS_MAX, "a benchmark's counters fit in struct model_counts");

/* -D NAME VALUE: a constant's value, or the sweep FROM:TO:STEP of one constant. */
static int parse_define(const struct opt *opt, const char *name, const char *val)
{
	struct cli_model_opts *o = opt->value;
	if (o->ndefs >= POLY_MAX_SYMS)
		return error("more than %d constants", POLY_MAX_SYMS);
	struct model_define *d = &o->defs[o->ndefs];
	memset(d, 0, sizeof(*d));
	/* a constant is a C identifier of the kernel: "N 100" in one word is no name, but the
	 * definition written with a space for '=' */
	if (!*name)
		return error("-D: an empty constant name; give -D NAME=VALUE or -D NAME VALUE (as -D N=100)");
	if (strpbrk(name, " \t"))
		return error("-D '%s': a constant is given as -D NAME=VALUE or as two words -D NAME VALUE (as -D N=100), "
			     "not NAME and VALUE in one word", name);
	if (strlen(name) >= sizeof(d->name))
		return error("-D: the constant name '%.20s...' is %zu characters, more than the %zu allowed", name,
			     strlen(name), sizeof(d->name) - 1);
	for (int i = 0; i < o->ndefs; i++)
		if (!strcmp(o->defs[i].name, name))
			return error("-D %s given twice", name);
	snprintf(d->name, sizeof(d->name), "%s", name);
	int64_t a, b, c;
	const char *p1, *p2;
	if (number_scan_i64(val, &a, &p1) == 0 && *p1 == ':' && number_scan_i64(p1 + 1, &b, &p2) == 0 && *p2 == ':' &&
	    number_parse_i64(p2 + 1, INT64_MIN, INT64_MAX, &c) == 0) {
		if (a <= 0 || b < a || c <= 0)
			return error("-D %s %s: a sweep is FROM:TO:STEP with 0 < FROM <= TO and STEP > 0", name, val);
		if ((b - a) / c >= 100000)
			return error("-D %s %s: more than 100000 sizes", name, val);
		for (int i = 0; i < o->ndefs; i++)
			if (o->defs[i].sweep)
				return error("only one constant can be swept (%s and %s)", o->defs[i].name, name);
		*d = (struct model_define){ .sweep = 1, .from = a, .to = b, .step = c, .v = a };
		snprintf(d->name, sizeof(d->name), "%s", name);
	} else {
		int64_t v;
		if (number_parse_i64(val, INT64_MIN, INT64_MAX, &v) != 0)
			return error("-D %s '%s': expected a decimal integer or FROM:TO:STEP", name, val);
		if (v <= 0)
			return error("-D %s %lld: constants are sizes and must be positive", name, (long long)v);
		d->v = v;
	}
	o->ndefs++;
	return 0;
}

static int parse_events(const struct opt *opt, const char *arg, const char *unused)
{
	(void)unused;
	if (!*arg || strlen(arg) > 1000)
		return error("--events needs a comma-separated list of event names");
	*(const char **)opt->value = arg;
	return 0;
}

static const char *const model_usage[] = { "archscope model KERNEL.c -m MACHINE.yaml [-p MODEL]... [-D NAME VALUE]... [options]", NULL };
static const struct opt_section model_sections[] = {
	{ "models (-p, repeatable; default: LC, ECMData and Roofline)",
	  "  LC          layer conditions per cache level: each condition's cache requirement, misses\n"
	  "              and hits per iteration, the one that holds, and the sizes where it changes\n"
	  "  ECMData     cycles per cache line of work for each transfer: { T_L1L2 | T_L2L3 | T_L3MEM }\n"
	  "  Roofline    flop-counting Roofline: intensity, bandwidth and bound per level, the bottleneck\n"
	  "  ECMCPU      in-core analysis: the kernel compiled with the machine file's compiler, its\n"
	  "              innermost loop through llvm-mca (-mcpu from the file), port pressure, T_OL, T_nOL;\n"
	  "              with probe instr's line_split costs in the file, the loop's loads and stores at\n"
	  "              the measured costs and its line-crossing accesses in T_nOL\n"
	  "  ECM         { T_OL || T_nOL | T_L1L2 | ... } and the prediction per level, saturation point\n"
	  "              and multi-core scaling\n"
	  "  RooflineASM Roofline with llvm-mca's core ceiling\n"
	  "  Benchmark   compiles and runs the kernel pinned: measured cy/CL (core cycles of the measured\n"
	  "              clock), MLUP/s, GFLOP/s, and each model's error against it\n"
	  "  Blocking    per cache level, the block size that makes the next better layer condition\n"
	  "              hold, and the predicted gain\n",
	  NULL },
	{ NULL, NULL, NULL },
};
static const struct opt_cmd model_cmd = {
	.name = "model",
	.usage = model_usage,
	.description = "Analytic models of a loop kernel (Kerncraft): the kernel is C — declarations of double or\n"
		       "float arrays with symbolic sizes, then one loop nest whose innermost body assigns arithmetic\n"
		       "on array elements. Constants are the undeclared names (N, M, ...), bound with -D.\n",
	.sections = model_sections,
	.epilog = "Cycles are core cycles at the machine file's clock; \"per CL\" is per cache line of work (8\n"
		  "iterations of the innermost loop for double, 16 for float). Benchmark mode counts core cycles\n"
		  "with the 'cycles' counter around each timed repetition where the machine has counters;\n"
		  "without them (most virtual machines) it converts time with the core clock measured on the\n"
		  "same CPU, and says so.\n"
		  "\n"
		  "environment:\n"
		  "  ARCHSCOPE_CACHE_DIR      where parsed kernels are kept, so a kernel read before is not parsed\n"
		  "                           again (default $XDG_CACHE_HOME/archscope or ~/.cache/archscope;\n"
		  "                           'off' turns the cache off)\n"
		  "  ARCHSCOPE_LIBCLANG       the libclang to load (default: the one found at build time)\n"
		  "  ARCHSCOPE_CYCLES_EVENT   benchmark: the event counted as cycles (for testing the counter path\n"
		  "                           without a PMU, e.g. perf::PERF_COUNT_SW_TASK_CLOCK, which counts ns)\n"
		  "  ARCHSCOPE_MODEL_KEEP     a directory where the generated C, its assembly, the loop given to\n"
		  "                           llvm-mca and llvm-mca's JSON are kept\n",
};

/* Benchmark mode's state across the sizes: the clock measured once, the events to count. */
struct cli_model_bench {
	const struct cli_model_opts *o;
	const struct kernel *k;
	double t0;                       /* the run's start, s */
	double ghz;                      /* 1 once pinned to the benchmark's CPU; 0: not yet */
	int cpu;
	const char *names[COUNTERS_MAX]; /* cycles (or ARCHSCOPE_CYCLES_EVENT), instructions, --events */
	int nnames;
	char events[1024];               /* --events, split at the commas: names[] points here */
	int rc;                          /* an exit code after error(): no more benchmarks */
};

/* The counters to read: checks --events (a usage error names the bad one). */
static int bench_events(struct cli_model_bench *c)
{
	const char *cyc = getenv("ARCHSCOPE_CYCLES_EVENT");
	struct as_error err = { 0 };
	c->names[c->nnames++] = cyc && *cyc ? cyc : "cycles";
	if (!(cyc && *cyc))
		c->names[c->nnames++] = "instructions";
	snprintf(c->events, sizeof(c->events), "%s", c->o->events ? c->o->events : "");
	for (char *save = NULL, *t = strtok_r(c->events, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		uint32_t type;
		uint64_t config;
		if (c->nnames == COUNTERS_MAX)
			return error("model: --events: at most %d events besides cycles and instructions", COUNTERS_MAX - 2);
		if (counters_encode(t, &type, &config, NULL, 0, &err) != 0)
			return error("model: --events: %s", err.msg);
		c->names[c->nnames++] = t;
	}
	return 0;
}

/* The core clock on the pinned CPU now: the fastest of eight windows of three 0.3 ms add chains.
 * Short windows fit between the slices another process takes of a shared CPU, where a 10 ms chain
 * reads a slow clock (bench/results/design-measurements.md, short-chains). */
static double bench_clock_ghz(void)
{
	double best = 0;
	for (int i = 0; i < 8; i++)
		best = fmax(best, clock_window_ghz());
	return best;
}

/* Benchmark mode for one size: the clock bracketed on the benchmark's CPU, the counters read
 * around each timed repetition (measure/bracket.h), the run itself in model/. Returns 0, or an
 * exit code after error(). */
static int bench_size(struct cli_model_bench *c, struct model_eval *e)
{
	const struct cli_model_opts *o = c->o;
	struct as_error err = { 0 };
	if (model_bench_check_memory(&e->b, &err)) {
		error_err(&err);
		return EXIT_USAGE;
	}
	if (c->ghz <= 0) {
		if (cpu_pin_self(c->cpu, &err) != 0) {
			as_error_copy(e->bench_error, sizeof(e->bench_error), err.msg);
			return 0;
		}
		c->ghz = 1; /* pinned; the clock itself is bracketed around each size */
	}
	double before = bench_clock_ghz();
	if (o->no_counters) {
		model_eval_bench(e, &o->req, c->k, c->cpu, o->bench_seconds, o->bench_reps, before, NULL);
		e->bench_ghz = clock_window_between(before, bench_clock_ghz());
		snprintf(e->cnt.reason, sizeof(e->cnt.reason), "not read (--no-counters)");
		return 0;
	}
	struct measure_bracket br;
	if (measure_bracket_init(&br, c->names, c->nnames, &err)) {
		error_err(&err);
		return EXIT_FAIL;
	}
	struct spawn_hooks hooks = measure_bracket_hooks(&br);
	model_eval_bench(e, &o->req, c->k, c->cpu, o->bench_seconds, o->bench_reps, before, &hooks);
	e->bench_ghz = clock_window_between(before, bench_clock_ghz());
	measure_bracket_release(&br);
	if (br.counted && e->have_bench && e->bench.calls > 0) {
		e->cnt.available = 1;
		e->cnt.n = br.n;
		for (int i = 0; i < br.n; i++) {
			snprintf(e->cnt.name[i], sizeof(e->cnt.name[i]), "%s", br.name[i]);
			snprintf(e->cnt.fq[i], sizeof(e->cnt.fq[i]), "%s", br.fq[i]);
			e->cnt.per_call[i] = br.best[i] / (double)e->bench.calls;
		}
	} else {
		snprintf(e->cnt.reason, sizeof(e->cnt.reason), "%s", br.reason);
	}
	return 0;
}

/* After each size: its benchmark, and progress on a terminal. */
static void after_size(void *vctx, struct model_run *run, int i)
{
	struct cli_model_bench *c = vctx;
	const struct cli_model_opts *o = c->o;
	if ((o->req.models & MODEL_BENCH) && !c->rc) {
		if (run->sweep)
			progress("model: benchmark %s = %lld (%d of %d)", run->sweep->name, (long long)run->xs[i], i + 1, run->n);
		else
			progress("model: benchmark: compiling and running the kernel (%d repetitions of at least %.2f s)",
				 o->bench_reps, o->bench_seconds);
		c->rc = bench_size(c, &run->rows[i]);
	}
	if (run->sweep && timer_now_ns() / 1e9 - c->t0 > 1)
		progress("model: %s = %lld (%d of %d)", run->sweep->name, (long long)run->xs[i], i + 1, run->n);
}

/* A library error's exit code: 1 for what the user cannot fix by changing the input. */
static int fail(const struct as_error *err)
{
	error_err(err);
	return err->code == -ENOMEM || err->code == -ENOSYS ? EXIT_FAIL : EXIT_USAGE;
}

/* Reads the kernel (once: it may be standard input, and the in-core analysis and the benchmark need
 * its text) and the machine file with its compiler settings. Returns 0, or an exit code after
 * error(). */
static int model_read(struct cli_model_opts *o, struct kernel *k, struct machine *m, char **text, size_t *text_len,
		      struct incore_config *icfg)
{
	struct as_error err = { 0 }, cache_note = { 0 };
	if (!(*text = file_read_input(o->kernel, "kernel", KERNEL_MAX_BYTES, text_len, &err)) ||
	    kernel_parse_text(k, strcmp(o->kernel, "-") ? o->kernel : "<stdin>", *text, *text_len, &cache_note, &err)) {
		if (cache_note.code)
			note("%s", cache_note.msg);
		return fail(&err);
	}
	if (cache_note.code)
		note("%s", cache_note.msg);
	struct mtree mt;
	if (cli_machine_open(o->machine, &mt) != 0)
		return EXIT_USAGE;
	machine_read(&mt, m);
	incore_config_read(&mt, o->compiler, icfg);
	mtree_free(&mt);
	o->req.text = *text;
	o->req.text_len = *text_len;
	o->req.incore = icfg;
	return 0;
}

/* The last-level cache's capacity band (--llc-band, else by the file's kind) and the ECM's transfer
 * costs (--ecm-rates). Returns 0, or an exit code after error(). */
static int model_rates(struct cli_model_opts *o, const struct machine *m)
{
	struct as_error err = { 0 };
	o->req.llc.band = o->llc_band > 0 ? o->llc_band : model_llc_band_default(m);
	o->req.llc.scale = 1;
	if (!(o->req.models & MODEL_ECMDATA))
		return 0;
	int fit = model_rates_choose(m, o->ecm_rates, &o->fit, &err);
	if (fit < 0) {
		error("--ecm-rates fit: %s", err.msg);
		return EXIT_USAGE;
	}
	o->req.fit = fit > 0 ? &o->fit : NULL;
	for (int i = 1; fit > 0 && i < m->nlevels; i++) /* said, not hidden: the fit is used as measured */
		if (o->fit.ok[i] && (o->fit.in[i] < 0 || o->fit.out[i] < 0))
			warning("the fitted ECM cost of %s is negative (in %.2f, out %.2f cy/CL): the benchmarks say "
			     "those transfers overlap with the level above, or they are noisy; compare with --ecm-rates "
				"machine", m->level[i].name, o->fit.in[i], o->fit.out[i]);
	return 0;
}

/* Benchmark mode's CPU (the last this process may use, unless --cpu) and counters. Returns 0, or an
 * exit code after error(). */
static int model_bench_setup(struct cli_model_bench *c)
{
	const struct cli_model_opts *o = c->o;
	struct as_error err = { 0 };
	struct as_cpulist l;
	if (!(o->req.models & MODEL_BENCH))
		return 0;
	if (c->cpu < 0)
		c->cpu = cpulist_allowed(&l, &err) == 0 && l.n > 0 ? l.cpu[l.n - 1] : 0;
	return !o->no_counters && bench_events(c) ? EXIT_USAGE : 0;
}

/* After the run: the blocking advice where asked for, the sweep's plot, the output. Returns the exit
 * code; *blk is the caller's to free. */
static int model_output(struct cli_model_opts *o, struct cli_model_result *r, struct model_blocking **blk)
{
	struct as_error err = { 0 };
	const struct model_run *run = r->run;
	if (!run->sweep && (o->shown & MODEL_BLOCK)) {
		if (!(*blk = calloc(1, sizeof(**blk))))
			return error("out of memory"), EXIT_FAIL;
		if (model_blocking(&o->req, r->k, r->m, run->vals, &run->rows[0], *blk, &err))
			return fail(&err);
		r->blk = *blk;
	}
	if (o->plot && !run->sweep)
		warning("no picture: --plot draws a sweep; give one constant as FROM:TO:STEP");
	if (o->plot && run->sweep && cli_plot_done(cli_model_plot_sweep(o->plot, run, &err), o->plot, "model-sweep", &err) == 0)
		r->plot = o->plot;
	struct emit *e = emit_new(o->json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (!e)
		return error("out of memory"), EXIT_FAIL;
	cli_model_render(e, r);
	return cli_emit_end(e, "model");
}

/* Reads the kernel and the machine file, evaluates every size, renders. Returns the exit code. */
static int model_main(struct cli_model_opts *o)
{
	struct as_error err = { 0 };
	struct kernel *k = kernel_new();
	struct machine *m = calloc(1, sizeof(*m));
	struct model_blocking *blk = NULL;
	struct model_run run = { 0 };
	struct incore_config icfg;
	char *text = NULL;
	size_t text_len = 0;
	int rc = EXIT_FAIL, have_run = 0;
	if (!k || !m) {
		error("out of memory");
		goto out;
	}
	if (cli_output_dir_check("model", "--plot", o->plot) != 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if ((rc = model_read(o, k, m, &text, &text_len, &icfg)))
		goto out;
	if (model_run_init(&run, k, o->defs, o->ndefs, &err)) {
		rc = fail(&err);
		goto out;
	}
	have_run = 1;
	rc = EXIT_USAGE;
	if (m->nlevels == 0) {
		error("machine file '%s' has no memory hierarchy", o->machine);
		goto out;
	}
	struct cli_model_bench ctx = { .o = o, .k = k, .t0 = timer_now_ns() / 1e9, .cpu = o->cpu };
	if ((rc = model_rates(o, m)) || (rc = model_bench_setup(&ctx)))
		goto out;
	struct model_run_hooks hooks = { after_size, &ctx };
	if (!run.sweep && (o->req.models & MODEL_INCORE))
		progress("model: compiling the kernel and running llvm-mca");
	rc = model_run_all(&run, &o->req, k, m, &hooks, &err) ? fail(&err) : ctx.rc;
	progress_done();
	if (rc)
		goto out;
	struct cli_model_result r = { .o = o, .k = k, .m = m, .run = &run, .seconds = timer_now_ns() / 1e9 - ctx.t0 };
	rc = model_output(o, &r, &blk);
out:
	if (have_run)
		model_run_release(&run);
	free(blk);
	free(text);
	kernel_free(k);
	free(m);
	return rc;
}

int cmd_model(int argc, char **argv)
{
	struct cli_model_opts o = { .cpu = -1, .bench_seconds = 0.05, .bench_reps = 20,
				.req = { .cores = 1, .seed = 1, .sim_iterations = 100000 } };
	unsigned models = 0;
	int rates = -1;
	uint64_t sim_iterations = 100000;
	const struct opt options[] = {
		OPT_STRING('m', "machine", &o.machine, "FILE", "machine file (archscope's, from 'probe -o', or Kerncraft's)"),
		OPT_CHOICE_SET('p', "pmodel", &models, "MODEL", model_names, "one of the models above (case-insensitive)"),
		OPT_PAIR('D', "define", &o, "NAME VALUE", "binds a constant; VALUE may be a sweep FROM:TO:STEP (one constant)",
			 parse_define),
		OPT_CHOICE(0, "cache-predictor", &o.req.predictor, NULL, model_predictor_names,
			   "layer conditions (default) or the cache simulator"),
		OPT_INT(0, "cores", &o.req.cores, "N", 1, 4096, "cores in use: shared caches are divided among them (default 1)"),
		OPT_U64(0, "seed", &o.req.seed, "N", 0, UINT64_MAX, "seed of the simulator's random replacement (default 1)"),
		OPT_U64(0, "sim-iterations", &sim_iterations, "N", 1, (uint64_t)1 << 40,
			"iterations the simulator measures after its warm-up (default 100000)"),
		OPT_STRING(0, "plot", &o.plot, "DIR", "sweep: predicted cy/CL (stacked ECM contributions) against the size"),
		OPT_STRING(0, "compiler", &o.compiler, "NAME", "the machine file's compiler entry to use (default: its first installed)"),
		OPT_INT(0, "cpu", &o.cpu, "N", 0, 65535, "CPU the benchmark runs on (default: the last one allowed)"),
		OPT_DOUBLE(0, "bench-seconds", &o.bench_seconds, "S", 0.01, 600, "minimum time of one benchmark repetition (default 0.05)"),
		OPT_INT(0, "bench-reps", &o.bench_reps, "N", 1, 1000, "benchmark repetitions; the fastest counts (default 20: many short\n"
			"repetitions find a quiet moment on a shared core)"),
		OPT_CALLBACK(0, "events", &o.events, "LIST", "benchmark: counters to read besides cycles and instructions, by libpfm4\n"
			     "name, comma-separated (e.g. L1D:REPLACEMENT,L2_LINES_IN:ALL), per CL", parse_events),
		OPT_FLAG(0, "no-counters", &o.no_counters, "benchmark: read no counters, take cycles from time x measured clock"),
		OPT_DOUBLE(0, "llc-band", &o.llc_band, "F", 1, 64, "layer conditions: the last-level cache holds between size/sqrt(F)\n"
			   "and size x sqrt(F), the traffic averaged over that band (default 4,\n"
			   "half to double, for files from 'probe -o', whose L3 is one measurement\n"
			   "on a shared host; 1, a sharp transition, for Kerncraft's files)"),
		OPT_CHOICE(0, "ecm-rates", &rates, NULL, model_rates_names, "ECM transfer costs: fitted to the machine file's one-core benchmarks\n"
			   "(default for files from 'probe -o') or its upstream throughputs\n(default for Kerncraft's files)"),
		OPT_JSON(&o.json),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &model_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc > 1)
		error_usage("model", "more than one kernel file ('%s' and '%s')", argv[0], argv[1]);
	else if (argc == 0)
		error_usage("model", "no kernel file given");
	else if (!o.machine)
		error_usage("model", "no machine file given (-m FILE)");
	if (argc != 1 || !o.machine)
		return EXIT_USAGE;
	char kernel[4096]; /* a path, or a kernel's name (model stream-triad) */
	if (cli_resolve_named("kernel", "kernels", ".c", argv[0], kernel, sizeof(kernel)) != 0)
		return EXIT_USAGE;
	o.kernel = kernel;
	if (!strcmp(o.kernel, "-") && !strcmp(o.machine, "-"))
		return error_usage("model", "the kernel and the machine file cannot both be standard input ('-')"), EXIT_USAGE;
	if (o.cpu >= 0) { /* a CPU this process may not use is an error, not another CPU */
		struct as_cpulist allowed, one = { .n = 1, .cpu = { o.cpu } };
		struct as_error err = { 0 };
		if (cpulist_allowed(&allowed, &err) != 0 || cpulist_check_allowed(&one, &allowed, &err) != 0)
			return error_usage("model", "--cpu: %s", err.msg), EXIT_USAGE;
	}
	o.req.sim_iterations = (int64_t)sim_iterations;
	o.ecm_rates = rates + 1;
	/* what is printed; ECM needs the data transfers, RooflineASM the Roofline's levels, Benchmark
	 * compares the models, Blocking re-evaluates the ECM */
	o.req.models = models ? (int)models : MODEL_LC | MODEL_ECMDATA | MODEL_ROOFLINE;
	o.shown = o.req.models;
	if (o.req.models & (MODEL_ECM | MODEL_BENCH | MODEL_BLOCK))
		o.req.models |= MODEL_ECMDATA | MODEL_ECM;
	if (o.req.models & (MODEL_ROOFASM | MODEL_BENCH))
		o.req.models |= MODEL_ROOFLINE;
	if (o.req.models & MODEL_BENCH)
		o.req.models |= MODEL_ROOFASM;
	return model_main(&o);
}
