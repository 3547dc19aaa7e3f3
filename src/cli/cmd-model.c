/* archscope model KERNEL.c -m MACHINE.yaml: Kerncraft's models for a loop kernel — access
 * analysis, layer conditions, the cache simulator as the alternative predictor, ECMData, the
 * Roofline, the in-core analysis with llvm-mca, the full ECM, benchmark mode and blocking advice —
 * for one size or a sweep of sizes. Options here; the models in src/model/ (eval.h), the counters
 * around the benchmark in src/measure/bracket.h, the output in model-render-*.c. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "cli/model.h"
#include "common/atomicfile.h"
#include "probe/clock.h"
#include "common/cpuset.h"
#include "common/timer.h"
#include "machine/file.h"
#include "measure/bracket.h"
#include "report/mtree.h"

_Static_assert(MODEL_MAX_COUNTERS >= COUNTERS_MAX, "a benchmark's counters fit in struct model_counts");

static void print_usage(FILE *out)
{
	fputs("usage: archscope model KERNEL.c -m MACHINE.yaml [-p MODEL]... [-D NAME VALUE]... [options]\n"
	      "\n"
	      "Analytic models of a loop kernel (Kerncraft): the kernel is C — declarations of double or\n"
	      "float arrays with symbolic sizes, then one loop nest whose innermost body assigns arithmetic\n"
	      "on array elements. Constants are the undeclared names (N, M, ...), bound with -D.\n"
	      "\n"
	      "models (-p, repeatable; default: LC, ECMData and Roofline):\n"
	      "  LC          layer conditions per cache level: each condition's cache requirement, misses\n"
	      "              and hits per iteration, the one that holds, and the sizes where it changes\n"
	      "  ECMData     cycles per cache line of work for each transfer: { T_L1L2 | T_L2L3 | T_L3MEM }\n"
	      "  Roofline    flop-counting Roofline: intensity, bandwidth and bound per level, the bottleneck\n"
	      "  ECMCPU      in-core analysis: the kernel compiled with the machine file's compiler, its\n"
	      "              innermost loop through llvm-mca (-mcpu from the file), port pressure, T_OL, T_nOL\n"
	      "  ECM         { T_OL || T_nOL | T_L1L2 | ... } and the prediction per level, saturation point\n"
	      "              and multi-core scaling\n"
	      "  RooflineASM Roofline with llvm-mca's core ceiling\n"
	      "  Benchmark   compiles and runs the kernel pinned: measured cy/CL (core cycles of the measured\n"
	      "              clock), MLUP/s, GFLOP/s, and each model's error against it\n"
	      "  Blocking    per cache level, the block size that makes the next better layer condition\n"
	      "              hold, and the predicted gain\n"
	      "\n"
	      "options:\n"
	      "  -m, --machine FILE       machine file (archscope's, from 'probe -o', or Kerncraft's)\n"
	      "  -p, --pmodel MODEL       one of the models above (case-insensitive)\n"
	      "  -D, --define NAME VALUE  binds a constant; VALUE may be a sweep FROM:TO:STEP (one constant)\n"
	      "  --cache-predictor lc|sim layer conditions (default) or the cache simulator\n"
	      "  --cores N                cores in use: shared caches are divided among them (default 1)\n"
	      "  --seed N                 seed of the simulator's random replacement (default 1)\n"
	      "  --sim-iterations N       iterations the simulator measures after its warm-up (default 100000)\n"
	      "  --plot DIR               sweep: predicted cy/CL (stacked ECM contributions) against the size\n"
	      "  --compiler NAME          the machine file's compiler entry to use (default: its first installed)\n"
	      "  --cpu N                  CPU the benchmark runs on (default: the last one allowed)\n"
	      "  --bench-seconds S        minimum time of one benchmark repetition (default 0.05)\n"
	      "  --bench-reps N           benchmark repetitions; the fastest counts (default 20: many short\n"
	      "                           repetitions find a quiet moment on a shared core)\n"
	      "  --events LIST            benchmark: counters to read besides cycles and instructions, by libpfm4\n"
	      "                           name, comma-separated (e.g. L1D:REPLACEMENT,L2_LINES_IN:ALL), per CL\n"
	      "  --no-counters            benchmark: read no counters, take cycles from time x measured clock\n"
	      "  --ecm-rates fit|machine  ECM transfer costs: fitted to the machine file's one-core benchmarks\n"
	      "                           (default for files from 'probe -o') or its upstream throughputs\n"
	      "                           (default for Kerncraft's files)\n"
	      "  --json                   one JSON object {\"archscope\", \"command\", \"machine\", \"results\"}\n"
	      "  -h, --help               this help\n"
	      "\n"
	      "Cycles are core cycles at the machine file's clock; \"per CL\" is per cache line of work (8\n"
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
	      out);
}

static void parse_def(struct model_opts *o, const char *name, const char *val)
{
	if (o->ndefs >= POLY_MAX_SYMS)
		usage_error("model", "more than %d constants", POLY_MAX_SYMS);
	struct model_define *d = &o->defs[o->ndefs];
	memset(d, 0, sizeof(*d));
	if (strlen(name) >= sizeof(d->name) || !*name)
		usage_error("model", "-D: bad constant name '%s'", name);
	for (int i = 0; i < o->ndefs; i++)
		if (!strcmp(o->defs[i].name, name))
			usage_error("model", "-D %s given twice", name);
	snprintf(d->name, sizeof(d->name), "%s", name);
	long long a, b, c;
	char tail;
	if (sscanf(val, "%lld:%lld:%lld%c", &a, &b, &c, &tail) == 3) {
		if (a <= 0 || b < a || c <= 0)
			usage_error("model", "-D %s %s: a sweep is FROM:TO:STEP with 0 < FROM <= TO and STEP > 0", name, val);
		if ((b - a) / c >= 100000)
			usage_error("model", "-D %s %s: more than 100000 sizes", name, val);
		for (int i = 0; i < o->ndefs; i++)
			if (o->defs[i].sweep)
				usage_error("model", "only one constant can be swept (%s and %s)", o->defs[i].name, name);
		d->sweep = 1;
		d->from = a;
		d->to = b;
		d->step = c;
		d->v = a;
	} else {
		char *end;
		errno = 0;
		long long v = strtoll(val, &end, 10);
		if (errno || end == val || *end)
			usage_error("model", "-D %s '%s': expected an integer or FROM:TO:STEP", name, val);
		if (v <= 0)
			usage_error("model", "-D %s %lld: constants are sizes and must be positive", name, v);
		d->v = v;
	}
	o->ndefs++;
}

/* Kerncraft's "-D NAME VALUE" takes two words; getopt takes one: join them as NAME=VALUE. */
static char **join_defines(int argc, char **argv, int *outc)
{
	char **v = calloc((size_t)argc + 1, sizeof(char *));
	if (!v)
		die(EXIT_FAIL, "out of memory");
	int n = 0;
	for (int i = 0; i < argc; i++) {
		int isd = !strcmp(argv[i], "-D") || !strcmp(argv[i], "--define");
		if (isd && i + 2 < argc + 0 + 1 && i + 1 < argc && !strchr(argv[i + 1], '=') && i + 2 < argc) {
			size_t len = strlen(argv[i + 1]) + strlen(argv[i + 2]) + 2;
			char *j = malloc(len);
			if (!j)
				die(EXIT_FAIL, "out of memory");
			snprintf(j, len, "%s=%s", argv[i + 1], argv[i + 2]);
			v[n++] = "-D";
			v[n++] = j; /* freed by parse_args: parse_def copies what it needs */
			i += 2;
		} else {
			v[n++] = argv[i];
		}
	}
	*outc = n;
	return v;
}

/* An option that takes one of two words (case-insensitive): its value, or a usage error. */
static int one_of(const char *opt, const char *arg, const char *a, int va, const char *b, int vb)
{
	if (!strcasecmp(arg, a))
		return va;
	if (!strcasecmp(arg, b))
		return vb;
	usage_error("model", "%s must be %s or %s, not '%s'", opt, a, b, arg);
	return va;
}

static void parse_args(int argc0, char **argv0, struct model_opts *o)
{
	int argc;
	char **argv = join_defines(argc0, argv0, &argc);
	enum { OPT_PRED = 256, OPT_CORES, OPT_SEED, OPT_PLOT, OPT_JSON, OPT_SIMIT, OPT_COMPILER, OPT_CPU, OPT_BSECS, OPT_BREPS,
	       OPT_EVENTS, OPT_NOCOUNT, OPT_RATES };
	static const struct option lo[] = { { "machine", required_argument, 0, 'm' },
					    { "pmodel", required_argument, 0, 'p' },
					    { "define", required_argument, 0, 'D' },
					    { "cache-predictor", required_argument, 0, OPT_PRED },
					    { "cores", required_argument, 0, OPT_CORES },
					    { "seed", required_argument, 0, OPT_SEED },
					    { "sim-iterations", required_argument, 0, OPT_SIMIT },
					    { "plot", required_argument, 0, OPT_PLOT },
					    { "compiler", required_argument, 0, OPT_COMPILER },
					    { "cpu", required_argument, 0, OPT_CPU },
					    { "bench-seconds", required_argument, 0, OPT_BSECS },
					    { "bench-reps", required_argument, 0, OPT_BREPS },
					    { "events", required_argument, 0, OPT_EVENTS },
					    { "no-counters", no_argument, 0, OPT_NOCOUNT },
					    { "ecm-rates", required_argument, 0, OPT_RATES },
					    { "json", no_argument, 0, OPT_JSON },
					    { "help", no_argument, 0, 'h' },
					    { 0, 0, 0, 0 } };
	memset(o, 0, sizeof(*o));
	o->req.cores = 1;
	o->req.seed = 1;
	o->req.sim_iterations = 100000;
	o->cpu = -1;
	o->bench_seconds = 0.05;
	o->bench_reps = 20;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "m:p:D:h", lo, NULL)) != -1) {
		switch (c) {
		case 'm':
			o->machine = optarg;
			break;
		case 'p':
			if (!strcasecmp(optarg, "LC"))
				o->req.models |= MODEL_LC;
			else if (!strcasecmp(optarg, "ECMData"))
				o->req.models |= MODEL_ECMDATA;
			else if (!strcasecmp(optarg, "Roofline"))
				o->req.models |= MODEL_ROOFLINE;
			else if (!strcasecmp(optarg, "ECM"))
				o->req.models |= MODEL_ECM;
			else if (!strcasecmp(optarg, "ECMCPU"))
				o->req.models |= MODEL_ECMCPU;
			else if (!strcasecmp(optarg, "RooflineASM"))
				o->req.models |= MODEL_ROOFASM;
			else if (!strcasecmp(optarg, "Benchmark"))
				o->req.models |= MODEL_BENCH;
			else if (!strcasecmp(optarg, "Blocking"))
				o->req.models |= MODEL_BLOCK;
			else
				usage_error("model", "unknown model '%s' (LC, ECMData, Roofline, ECMCPU, ECM, RooflineASM, Benchmark, Blocking)",
					    optarg);
			break;
		case 'D': {
			char name[KERNEL_NAME_LEN + 1];
			const char *eq = strchr(optarg, '=');
			if (eq) {
				snprintf(name, sizeof(name), "%.*s", (int)(eq - optarg), optarg);
				parse_def(o, name, eq + 1);
			} else {
				usage_error("model", "-D %s needs a value: -D NAME VALUE", optarg);
			}
			break;
		}
		case OPT_PRED:
			o->req.predictor = one_of("--cache-predictor", optarg, "lc", MODEL_PRED_LC, "sim", MODEL_PRED_SIM);
			break;
		case OPT_CORES:
			o->req.cores = (int)parse_u64_range("model", "--cores", optarg, 1, 4096);
			break;
		case OPT_SEED:
			o->req.seed = parse_u64_opt("model", "--seed", optarg);
			break;
		case OPT_SIMIT:
			o->req.sim_iterations = (int64_t)parse_u64_range("model", "--sim-iterations", optarg, 1, (uint64_t)1 << 40);
			break;
		case OPT_PLOT:
			o->plot = optarg;
			break;
		case OPT_COMPILER:
			o->compiler = optarg;
			break;
		case OPT_CPU:
			o->cpu = (int)parse_u64_range("model", "--cpu", optarg, 0, 65535);
			break;
		case OPT_BSECS: {
			char *end;
			double v = strtod(optarg, &end);
			if (*end || !(v >= 0.01 && v <= 600))
				usage_error("model", "--bench-seconds must be 0.01 to 600");
			o->bench_seconds = v;
			break;
		}
		case OPT_BREPS:
			o->bench_reps = (int)parse_u64_range("model", "--bench-reps", optarg, 1, 1000);
			break;
		case OPT_EVENTS:
			if (!*optarg || strlen(optarg) > 1000)
				usage_error("model", "--events needs a comma-separated list of event names");
			o->events = optarg;
			break;
		case OPT_NOCOUNT:
			o->no_counters = 1;
			break;
		case OPT_RATES:
			o->ecm_rates = one_of("--ecm-rates", optarg, "fit", MODEL_RATES_FIT, "machine", MODEL_RATES_MACHINE);
			break;
		case OPT_JSON:
			o->json = 1;
			break;
		case 'h':
			print_usage(stdout);
			exit(EXIT_OK);
		default:
			usage_error("model", "unknown option '%s'", argv[optind - 1]);
		}
	}
	for (; optind < argc; optind++) {
		if (o->kernel)
			usage_error("model", "more than one kernel file ('%s' and '%s')", o->kernel, argv[optind]);
		o->kernel = argv[optind];
	}
	if (!o->kernel)
		usage_error("model", "no kernel file given");
	if (!o->machine)
		usage_error("model", "no machine file given (-m FILE)");
	if (!o->req.models)
		o->req.models = MODEL_LC | MODEL_ECMDATA | MODEL_ROOFLINE;
	/* what is printed; ECM needs the data transfers, RooflineASM the Roofline's levels,
	 * Benchmark compares the models, Blocking re-evaluates the ECM */
	o->shown = o->req.models;
	if (o->req.models & (MODEL_ECM | MODEL_BENCH | MODEL_BLOCK))
		o->req.models |= MODEL_ECMDATA | MODEL_ECM;
	if (o->req.models & (MODEL_ROOFASM | MODEL_BENCH))
		o->req.models |= MODEL_ROOFLINE;
	if (o->req.models & MODEL_BENCH)
		o->req.models |= MODEL_ROOFASM;
	/* the joined NAME=VALUE strings are the only allocated ones: every other entry is argv0's */
	for (int i = 0; i < argc; i++) {
		int ours = 1;
		for (int j = 0; j < argc0; j++)
			if (argv[i] == argv0[j])
				ours = 0;
		if (ours && strchr(argv[i], '='))
			free(argv[i]);
	}
	free(argv);
}

/* The CPU for the benchmark: --cpu, else the last one this process may use. */
static int bench_cpu(const struct model_opts *o)
{
	if (o->cpu >= 0)
		return o->cpu;
	struct as_cpulist l;
	struct as_error err = { 0 };
	if (cpulist_allowed(&l, &err) == 0 && l.n > 0)
		return l.cpu[l.n - 1];
	return 0;
}

/* Benchmark mode for one size: the clock measured once on the benchmark's CPU, the counters read
 * around each timed repetition (measure/bracket.h), the run itself in model/. */
static void run_benchmark(const struct model_opts *o, const struct kernel *k, struct model_eval *e)
{
	struct as_error err = { 0 };
	if (model_bench_check_memory(&e->b, &err))
		die(EXIT_USAGE, "%s", err.msg);
	int cpu = bench_cpu(o);
	static double ghz;
	if (ghz <= 0) {
		if (cpu_pin_self(cpu, &err) != 0) {
			snprintf(e->bench_error, sizeof(e->bench_error), "%s", err.msg);
			return;
		}
		struct clock_result cr;
		clock_measure(&cr, 5);
		ghz = cr.ghz;
	}
	if (o->no_counters) {
		model_eval_bench(e, &o->req, k, cpu, o->bench_seconds, o->bench_reps, ghz, NULL);
		snprintf(e->cnt.reason, sizeof(e->cnt.reason), "not read (--no-counters)");
		return;
	}
	/* the events: cycles (ARCHSCOPE_CYCLES_EVENT replaces it, to exercise this path where the machine
	 * has no PMU, e.g. perf::PERF_COUNT_SW_TASK_CLOCK: its "cycles" are then nanoseconds), then
	 * instructions and --events */
	const char *names[COUNTERS_MAX];
	int n = 0;
	const char *cyc = getenv("ARCHSCOPE_CYCLES_EVENT");
	names[n++] = cyc && *cyc ? cyc : "cycles";
	if (!(cyc && *cyc))
		names[n++] = "instructions";
	char evbuf[1024];
	snprintf(evbuf, sizeof(evbuf), "%s", o->events ? o->events : "");
	for (char *save = NULL, *t = strtok_r(evbuf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (n == COUNTERS_MAX)
			die(EXIT_USAGE, "model: --events: at most %d events besides cycles and instructions", COUNTERS_MAX - 2);
		uint32_t type;
		uint64_t config;
		if (counters_encode(t, &type, &config, NULL, 0, &err) != 0)
			die(EXIT_USAGE, "model: --events: %s", err.msg);
		names[n++] = t;
	}
	struct measure_bracket br;
	if (measure_bracket_init(&br, names, n, &err))
		die_err(EXIT_FAIL, &err);
	struct spawn_hooks hooks = measure_bracket_hooks(&br);
	model_eval_bench(e, &o->req, k, cpu, o->bench_seconds, o->bench_reps, ghz, &hooks);
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
}

/* After each size: its benchmark, and progress on a terminal (t0: the run's start, seconds). */
struct after_ctx { const struct model_opts *o; const struct kernel *k; double t0; };

static void after_size(void *vctx, struct model_run *run, int i)
{
	struct after_ctx *c = vctx;
	const struct model_opts *o = c->o;
	if (o->req.models & MODEL_BENCH) {
		if (run->sweep)
			progress("model: benchmark %s = %lld (%d of %d)", run->sweep->name, (long long)run->xs[i], i + 1, run->n);
		else
			progress("model: benchmark: compiling and running the kernel (%d repetitions of at least %.2f s)",
				 o->bench_reps, o->bench_seconds);
		run_benchmark(o, c->k, &run->rows[i]);
	}
	if (run->sweep && timer_now_ns() / 1e9 - c->t0 > 1)
		progress("model: %s = %lld (%d of %d)", run->sweep->name, (long long)run->xs[i], i + 1, run->n);
}

int cmd_model(int argc, char **argv)
{
	struct model_opts o;
	parse_args(argc, argv, &o);
	struct as_error err = { 0 };
	struct kernel *k = kernel_new();
	if (!k)
		die(EXIT_FAIL, "out of memory");
	if (kernel_parse_file(k, o.kernel, &err))
		die(err.code == -ENOSYS || err.code == -ENOMEM ? EXIT_FAIL : EXIT_USAGE, "%s", err.msg);
	struct mtree mt;
	cli_machine_load(o.machine, &mt);
	struct machine *m = calloc(1, sizeof(*m));
	if (!m)
		die(EXIT_FAIL, "out of memory");
	machine_read(&mt, m);
	struct incore_config icfg;
	incore_config_read(&mt, o.compiler, &icfg);
	mtree_free(&mt);
	char *text = NULL;
	size_t text_len = 0;
	if ((o.req.models & (MODEL_INCORE | MODEL_BENCH)) && !(text = file_read_all(o.kernel, &text_len)))
		die(EXIT_FAIL, "cannot read kernel '%s' again", o.kernel);
	o.req.text = text;
	o.req.text_len = text_len;
	o.req.incore = &icfg;
	struct model_run run;
	if (model_run_init(&run, k, o.defs, o.ndefs, &err))
		die(err.code == -ENOMEM ? EXIT_FAIL : EXIT_USAGE, "%s", err.msg);
	if (m->nlevels == 0)
		die(EXIT_USAGE, "machine file '%s' has no memory hierarchy", o.machine);
	if (o.req.models & MODEL_ECMDATA) {
		int rc = model_rates_choose(m, o.ecm_rates, &o.fit, &err);
		if (rc < 0)
			die(EXIT_USAGE, "--ecm-rates fit: %s", err.msg);
		o.req.fit = rc > 0 ? &o.fit : NULL;
	}
	struct after_ctx ctx = { &o, k, timer_now_ns() / 1e9 };
	struct model_run_hooks hooks = { after_size, &ctx };
	if (!run.sweep && (o.req.models & MODEL_INCORE))
		progress("model: compiling the kernel and running llvm-mca");
	if (model_run_all(&run, &o.req, k, m, &hooks, &err))
		die(err.code == -ENOMEM ? EXIT_FAIL : EXIT_USAGE, "%s", err.msg);
	progress_done();
	double secs = timer_now_ns() / 1e9 - ctx.t0;
	if (!run.sweep) {
		struct model_blocking *blk = NULL;
		if (o.shown & MODEL_BLOCK) {
			if (!(blk = calloc(1, sizeof(*blk))))
				die(EXIT_FAIL, "out of memory");
			if (model_blocking(&o.req, k, m, run.vals, &run.rows[0], blk, &err))
				die(err.code == -ENOMEM ? EXIT_FAIL : EXIT_USAGE, "%s", err.msg);
		}
		if (o.plot)
			note("--plot draws a sweep: give one constant as FROM:TO:STEP");
		if (o.json)
			cli_print_json("model", model_json_size(&o, k, m, &run, blk));
		else
			model_print_size(&o, k, m, &run, blk);
		free(blk);
	} else {
		if (o.json)
			cli_print_json("model", model_json_sweep(&o, k, m, &run, secs));
		else
			model_print_sweep(&o, &run, secs);
		if (o.plot) {
			struct as_error perr = { 0 };
			if (model_plot_sweep(o.plot, &run, &perr) < 0)
				note("plot: %s", perr.msg);
			else if (!o.json)
				printf("plot: %s/model-sweep.svg\n", o.plot);
		}
	}
	model_run_release(&run);
	free(text);
	kernel_free(k);
	free(m);
	if (fflush(stdout) || ferror(stdout))
		die(EXIT_FAIL, "cannot write the output");
	return EXIT_OK;
}
