/* archscope model KERNEL.c -m MACHINE.yaml: Kerncraft's models for a loop
 * kernel — access analysis, layer conditions, the cache simulator as the alternative predictor,
 * ECMData and the flop-counting Roofline — for one size or a sweep of sizes. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/atomicfile.h"
#include "probe/clock.h"
#include "common/cpuset.h"
#include "common/spawn.h"
#include "common/timer.h"
#include "measure/counters.h"
#include "model/incore.h"
#include "model/kernel.h"
#include "model/lc.h"
#include "model/models.h"
#include "model/sim.h"
#include "machine/file.h"
#include "report/plot.h"
#include "report/table.h"

enum { M_LC = 1, M_ECMDATA = 2, M_ROOFLINE = 4, M_ECMCPU = 8, M_ECM = 16, M_ROOFASM = 32, M_BENCH = 64, M_BLOCK = 128 };
#define M_INCORE (M_ECMCPU | M_ECM | M_ROOFASM)
enum { PRED_LC, PRED_SIM };

#define MAX_DEFS POLY_MAX_SYMS

struct def {
	char name[KERNEL_NAME_LEN];
	int64_t v, from, to, step;
	int sweep;
	int used;
};

enum { RATES_AUTO, RATES_FIT, RATES_MACHINE };

struct opts {
	const char *kernel, *machine, *plot, *compiler, *events;
	int models, shown, predictor, cores, json, cpu, no_counters;
	int ecm_rates;          /* RATES_AUTO, RATES_FIT, RATES_MACHINE */
	struct ecm_fit fit;     /* the fitted transfer costs ... */
	const struct ecm_fit *use_fit; /* ... when the ECM uses them, else NULL */
	double bench_seconds;
	int bench_reps;
	uint64_t seed;
	int64_t sim_iterations;
	int ndefs;
	struct def defs[MAX_DEFS];
};

/* Counters around the benchmark's timed repetitions: the values of the repetition with the fewest
 * cycles, per call of the kernel. */
struct bench_counts {
	int available;
	char reason[512];
	int n;
	char name[COUNTERS_MAX][64];
	char fq[COUNTERS_MAX][192];
	double per_call[COUNTERS_MAX];
};

/* One evaluated size. */
struct eval {
	struct kbound b;
	struct lc_analysis *lc;   /* NULL when the kernel is outside the layer conditions */
	char lc_error[512];
	struct cache_traffic tr;
	struct sim_info si;
	struct ecm_data ecm;
	int have_ecm;
	char ecm_error[512];
	struct roofline rl;
	int have_rl;
	char rl_error[512];
	/* in-core and benchmark (once per run; a sweep shares the first size's in-core analysis) */
	const struct incore_result *ic;
	struct incore_bench bench;
	double bench_ghz;
	int have_bench;
	char bench_error[512];
	struct bench_counts cnt;
};

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

static void parse_def(struct opts *o, const char *name, const char *val)
{
	if (o->ndefs >= MAX_DEFS)
		usage_error("model", "more than %d constants", MAX_DEFS);
	struct def *d = &o->defs[o->ndefs];
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

static void parse_args(int argc0, char **argv0, struct opts *o)
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
	o->cores = 1;
	o->seed = 1;
	o->sim_iterations = 100000;
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
				o->models |= M_LC;
			else if (!strcasecmp(optarg, "ECMData"))
				o->models |= M_ECMDATA;
			else if (!strcasecmp(optarg, "Roofline"))
				o->models |= M_ROOFLINE;
			else if (!strcasecmp(optarg, "ECM"))
				o->models |= M_ECM;
			else if (!strcasecmp(optarg, "ECMCPU"))
				o->models |= M_ECMCPU;
			else if (!strcasecmp(optarg, "RooflineASM"))
				o->models |= M_ROOFASM;
			else if (!strcasecmp(optarg, "Benchmark"))
				o->models |= M_BENCH;
			else if (!strcasecmp(optarg, "Blocking"))
				o->models |= M_BLOCK;
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
			o->predictor = one_of("--cache-predictor", optarg, "lc", PRED_LC, "sim", PRED_SIM);
			break;
		case OPT_CORES:
			o->cores = (int)parse_u64_range("model", "--cores", optarg, 1, 4096);
			break;
		case OPT_SEED:
			o->seed = parse_u64_opt("model", "--seed", optarg);
			break;
		case OPT_SIMIT:
			o->sim_iterations = (int64_t)parse_u64_range("model", "--sim-iterations", optarg, 1, (uint64_t)1 << 40);
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
			o->ecm_rates = one_of("--ecm-rates", optarg, "fit", RATES_FIT, "machine", RATES_MACHINE);
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
	if (!o->models)
		o->models = M_LC | M_ECMDATA | M_ROOFLINE;
	/* what is printed; ECM needs the data transfers, RooflineASM the Roofline's levels,
	 * Benchmark compares the models, Blocking re-evaluates the ECM */
	o->shown = o->models;
	if (o->models & (M_ECM | M_BENCH | M_BLOCK))
		o->models |= M_ECMDATA | M_ECM;
	if (o->models & (M_ROOFASM | M_BENCH))
		o->models |= M_ROOFLINE;
	if (o->models & M_BENCH)
		o->models |= M_ROOFASM;
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

static const char *const *sym_names(const struct kernel *k)
{
	static const char *n[POLY_MAX_SYMS];
	for (int i = 0; i < POLY_MAX_SYMS; i++)
		n[i] = i < k->nsyms ? k->sym[i] : "?";
	return n;
}

/* Binds, predicts and models one size; errors that concern the input exit 2. */
static void evaluate(const struct opts *o, const struct kernel *k, const struct machine *m, const int64_t *vals,
		     struct eval *e)
{
	struct as_error err = { 0 };
	struct lc_analysis *lc = e->lc;
	memset(e, 0, sizeof(*e));
	e->lc = lc;
	int64_t align = m->cacheline_bytes > 0 ? (int64_t)m->cacheline_bytes : 64;
	if (kernel_bind(k, vals, align, &e->b, &err))
		die(EXIT_USAGE, "%s", err.msg);
	double cl = m->cacheline_bytes > 0 ? m->cacheline_bytes : 64;
	int lc_ok = lc_analyse(k, &e->b, cl, e->lc, &err) == 0;
	if (!lc_ok) {
		snprintf(e->lc_error, sizeof(e->lc_error), "%s", err.msg);
		as_error_clear(&err);
	}
	if (o->predictor == PRED_LC) {
		if (!lc_ok)
			die(EXIT_USAGE, "%s", e->lc_error);
		lc_predict(e->lc, m, o->cores, &e->tr);
	} else if (sim_predict(k, &e->b, m, o->cores, o->seed, o->sim_iterations, &e->tr, &e->si, &err)) {
		die(EXIT_USAGE, "cache simulator: %s", err.msg);
	}
	if (o->models & M_ECMDATA) {
		if (model_ecm_data(m, &e->tr, o->use_fit, &e->ecm, &err) == 0)
			e->have_ecm = 1;
		else
			snprintf(e->ecm_error, sizeof(e->ecm_error), "%s", err.msg);
		as_error_clear(&err);
	}
	if (o->models & M_ROOFLINE) {
		if (model_roofline(m, &e->tr, kernel_flops(k), kernel_elsize(k), o->cores, &e->rl, &err) == 0)
			e->have_rl = 1;
		else
			snprintf(e->rl_error, sizeof(e->rl_error), "%s", err.msg);
		as_error_clear(&err);
	}
}

static void fmt_bytes(double b, char *out, size_t len)
{
	if (b >= 1e12)
		snprintf(out, len, "%.4g TB", b / 1e12);
	else if (b >= 1e9)
		snprintf(out, len, "%.4g GB", b / 1e9);
	else if (b >= 1e6)
		snprintf(out, len, "%.4g MB", b / 1e6);
	else if (b >= 1e4)
		snprintf(out, len, "%.4g kB", b / 1e3);
	else
		snprintf(out, len, "%.0f B", b);
}

static void cond_text(const struct kernel *k, const struct lc_analysis *a, int c, char *out, size_t len)
{
	const struct lc_condition *C = &a->cond[c];
	if (c == 0) {
		snprintf(out, len, "nothing reused");
		return;
	}
	if (C->sym) {
		char p[256];
		poly_format(&C->req, sym_names(k), p, sizeof(p));
		snprintf(out, len, "%s%s B", C->all_fit ? "all arrays: " : "", p);
	} else {
		snprintf(out, len, "%s%.0f B", C->all_fit ? "all arrays: " : "", C->req_bytes);
	}
}

static void transitions(const struct kernel *k, const struct lc_analysis *a, int c, const struct kbound *b, double size,
			char *out, size_t len)
{
	size_t w = 0;
	out[0] = 0;
	for (int s = 0; s < k->nsyms && w < len; s++) {
		int64_t t = lc_transition(a, c, b, s, size);
		if (t < 0)
			continue;
		w += (size_t)snprintf(out + w, len - w, "%s%s <= %lld", w ? ", " : "", k->sym[s], (long long)t);
	}
	if (!out[0])
		snprintf(out, len, "%s", c == 0 ? "always" : "-");
}

/* The cache levels the layer conditions apply to, with the share of one core. */
static void print_lc(const struct opts *o, const struct kernel *k, const struct machine *m, const struct eval *e)
{
	printf("\n----- layer conditions (LC) -----\n");
	if (!e->lc || e->lc_error[0]) {
		printf("not applicable: %s\n", e->lc_error);
		return;
	}
	const struct lc_analysis *a = e->lc;
	for (int i = 0; i < m->nlevels; i++) {
		const struct machine_level *L = &m->level[i];
		if (!L->has_cache)
			continue;
		double size = predict_share(L, o->cores);
		char sz[32];
		fmt_bytes(size, sz, sizeof(sz));
		printf("%s: %.0f B (%s)%s\n", L->name, size, sz,
		       L->cores_per_group > 1 ? (o->cores > 1 ? ", shared: divided among the cores in use" : ", shared (1 core in use)") : "");
		int act = lc_active(a, size);
		struct table *t = table_new(7, "", "condition: cache holds", "at these sizes", "misses/it", "hits/it", "evicts/it",
					    "holds while");
		for (int c = 0; c < a->ncond; c++) {
			if (c == 0 && act != 0)
				continue; /* "nothing reused" only matters when nothing else fits */
			char ct[300], at[32], tr[200];
			cond_text(k, a, c, ct, sizeof(ct));
			fmt_bytes(a->cond[c].req_bytes, at, sizeof(at));
			transitions(k, a, c, &e->b, size, tr, sizeof(tr));
			table_cell(t, "%s", c == act ? "*" : "");
			table_cell(t, "%s", ct);
			table_cell(t, "%s", at);
			table_cell(t, "%d", a->cond[c].misses);
			table_cell(t, "%d", a->cond[c].hits);
			table_cell(t, "%d", a->cond[c].evicts);
			table_cell(t, "%s", tr);
		}
		table_print(t, stdout, "  ");
		table_free(t);
	}
	printf("(* = the condition that holds; \"holds while\" varies one constant, the others as given)\n");
}

static void print_traffic(const struct opts *o, const struct eval *e)
{
	printf("\n----- cache traffic (%s) -----\n", o->predictor == PRED_LC ? "layer conditions" : "cache simulator");
	struct table *t = table_new(5, "level", "hits/it", "misses/it", "lines in/CL", "lines out/CL");
	for (int i = 0; i < e->tr.nlevels; i++) {
		const struct level_traffic *T = &e->tr.level[i];
		table_cell(t, "%s", T->name);
		table_cell(t, "%.3f", T->hits);
		table_cell(t, "%.3f", T->misses);
		table_cell(t, "%.3f", T->lines_in);
		table_cell(t, "%.3f", T->lines_out);
	}
	table_print(t, stdout, "  ");
	table_free(t);
	if (o->predictor == PRED_SIM)
		printf("  simulated: %lld warm-up + %lld measured iterations, %llu accesses (%.0f M/s measured), seed %llu\n",
		       (long long)e->si.warmup_iterations, (long long)e->si.measured_iterations, (unsigned long long)e->si.accesses,
		       e->si.measured_seconds > 0 ? (double)e->si.measured_accesses / e->si.measured_seconds / 1e6 : 0,
		       (unsigned long long)e->si.seed);
}

/* Where the transfer costs come from: the fit per level, or the machine file's rates. */
static void print_rates(const struct opts *o, const struct machine *m)
{
	if (!o->use_fit) {
		printf("  transfer costs: the machine file's upstream throughputs and memory benchmarks");
		printf(o->ecm_rates == RATES_MACHINE ? " (--ecm-rates machine)\n" : "\n");
		return;
	}
	printf("  transfer costs fitted to the machine file's one-core benchmarks (--ecm-rates), core cycles per\n"
	       "  cache line loaded from / evicted to each level:\n");
	for (int i = 1; i < m->nlevels; i++)
		if (o->fit.ok[i])
			printf("    %-4s %6.2f / %6.2f cy  (%d kernels, rms residual %.2f cy/CL)\n", m->level[i].name, o->fit.in[i],
			       o->fit.out[i], o->fit.nkernels[i], o->fit.rms[i]);
}

static void print_ecm(const struct opts *o, const struct machine *m, const struct eval *e)
{
	printf("\n----- ECMData -----\n");
	if (!e->have_ecm) {
		printf("not available: %s\n", e->ecm_error);
		return;
	}
	printf("{ ");
	for (int i = 0; i < e->ecm.n; i++)
		printf("%s%.2f", i ? " | " : "", e->ecm.t[i].cy);
	printf(" } cy/CL\n");
	struct table *t = table_new(6, "from", "lines in/CL", "lines out/CL", "rate", "B/cy", "cy/CL");
	for (int i = 0; i < e->ecm.n; i++) {
		const struct ecm_transfer *T = &e->ecm.t[i];
		table_cell(t, "%s", T->name);
		table_cell(t, "%.2f", T->lines_in);
		table_cell(t, "%.2f", T->lines_out);
		if (T->bw_bytes_s > 0)
			table_cell(t, "%s, %.2f GB/s", T->source, T->bw_bytes_s / 1e9);
		else
			table_cell(t, "%s", T->source);
		table_cell(t, "%.2f", T->bytes_per_cy);
		table_cell(t, "%.2f", T->cy);
	}
	table_print(t, stdout, "  ");
	table_free(t);
	printf("  sum of the data transfers: %.2f cy/CL (core cycles; memory bandwidths corrected for write-allocate)\n",
	       e->ecm.total_cy);
	print_rates(o, m);
}

static void print_roofline(const struct kernel *k, const struct machine *m, const struct eval *e)
{
	printf("\n----- Roofline (flop counting) -----\n");
	if (!e->have_rl) {
		printf("not available: %s\n", e->rl_error);
		return;
	}
	const struct roofline *r = &e->rl;
	struct table *t = table_new(7, "", "level", "intensity FLOP/B", "bandwidth GB/s", "bw kernel", "bound GFLOP/s", "cy/CL");
	table_cell(t, "%s", r->bottleneck < 0 ? "*" : "");
	table_cell(t, "core");
	table_cell(t, "-");
	table_cell(t, "-");
	table_cell(t, "%s", kernel_elsize(k) == 4 ? "SP peak" : "DP peak");
	table_cell(t, "%.2f", r->peak_flops_s / 1e9);
	table_cell(t, "%.2f", r->cpu_cy_per_cl);
	for (int i = 0; i < r->n; i++) {
		const struct roofline_level *R = &r->level[i];
		table_cell(t, "%s", r->bottleneck == i ? "*" : "");
		table_cell(t, "%s", R->name);
		table_cell(t, "%.3f", R->intensity);
		table_cell(t, "%.2f", R->bw_bytes_s / 1e9);
		table_cell(t, "%s", R->kernel);
		table_cell(t, "%.2f", R->perf_flops_s / 1e9);
		table_cell(t, "%.2f", R->cy_per_cl);
	}
	table_print(t, stdout, "  ");
	table_free(t);
	double ipcl = e->tr.iterations_per_cl;
	double mlups = r->cy_per_cl > 0 ? m->clock_hz / (r->cy_per_cl / ipcl) / 1e6 : 0;
	printf("  bound by %s: %.2f GFLOP/s, %.2f cy/CL, %.1f MLUP/s (* = the bottleneck)\n",
	       r->bottleneck < 0 ? "the core" : r->level[r->bottleneck].name, r->perf_flops_s / 1e9, r->cy_per_cl, mlups);
}

static void print_kernel(const struct opts *o, const struct kernel *k, const struct machine *m, const struct eval *e)
{
	printf("kernel: %s", o->kernel);
	for (int i = 0; i < o->ndefs; i++)
		printf("  -D %s %lld", o->defs[i].name, (long long)o->defs[i].v);
	printf("\nmachine: %s (%s, %.2f GHz)  cache predictor: %s  cores: %d\n", o->machine, m->model_name, m->clock_hz / 1e9,
	       o->predictor == PRED_LC ? "LC" : "SIM", o->cores);
	printf("\n----- accesses (per iteration of '%s') -----\n", k->nloops ? k->loop[k->nloops - 1].var : "-");
	struct table *t = table_new(4, "array", "bytes", "access", "element index");
	int reads = 0, writes = 0;
	double rb = 0, wb = 0;
	for (int i = 0; i < k->naccesses; i++) {
		const struct kaccess *x = &k->acc[i];
		char s[256];
		kernel_access_format(k, i, s, sizeof(s));
		char *br = strchr(s, '[');
		table_cell(t, "%s", k->array[x->array].name);
		table_cell(t, "%d", k->array[x->array].elsize);
		table_cell(t, "%s", x->write ? "write" : "read");
		table_cell(t, "%s", br ? br : s);
		if (x->write) {
			writes++;
			wb += k->array[x->array].elsize;
		} else {
			reads++;
			rb += k->array[x->array].elsize;
		}
	}
	table_print(t, stdout, "  ");
	table_free(t);
	printf("  flops per iteration: %d (%d add, %d sub, %d mul, %d div)\n", kernel_flops(k), k->flops_add, k->flops_sub,
	       k->flops_mul, k->flops_div);
	printf("  bytes per iteration: %.0f B (%d reads, %.0f B; %d writes, %.0f B)\n", rb + wb, reads, rb, writes, wb);
	char tot[32];
	fmt_bytes((double)e->b.total_bytes, tot, sizeof(tot));
	printf("  iterations: %lld; arrays: %s\n", (long long)e->b.iterations, tot);
}

static json_t *jlc(const struct opts *o, const struct kernel *k, const struct machine *m, const struct eval *e)
{
	json_t *lc = json_object();
	if (e->lc_error[0]) {
		json_object_set_new(lc, "error", json_string(e->lc_error));
		return lc;
	}
	json_t *levels = json_array();
	for (int i = 0; i < m->nlevels; i++) {
		const struct machine_level *L = &m->level[i];
		if (!L->has_cache)
			continue;
		double size = predict_share(L, o->cores);
		json_t *l = json_object();
		json_object_set_new(l, "level", json_string(L->name));
		json_object_set_new(l, "size_bytes", json_real(size));
		json_t *cs = json_array();
		int act = lc_active(e->lc, size);
		for (int c = 0; c < e->lc->ncond; c++) {
			const struct lc_condition *C = &e->lc->cond[c];
			json_t *j = json_object();
			char ct[300];
			cond_text(k, e->lc, c, ct, sizeof(ct));
			json_object_set_new(j, "condition", json_string(ct));
			json_object_set_new(j, "requirement_bytes", json_real(C->req_bytes));
			json_object_set_new(j, "misses", json_integer(C->misses));
			json_object_set_new(j, "hits", json_integer(C->hits));
			json_object_set_new(j, "evicts", json_integer(C->evicts));
			json_t *tr = json_object();
			for (int s = 0; s < k->nsyms; s++) {
				int64_t t = lc_transition(e->lc, c, &e->b, s, size);
				if (t >= 0)
					json_object_set_new(tr, k->sym[s], json_integer(t));
			}
			json_object_set_new(j, "holds_while_at_most", tr);
			json_array_append_new(cs, j);
		}
		json_object_set_new(l, "conditions", cs);
		json_object_set_new(l, "active", json_integer(act));
		json_array_append_new(levels, l);
	}
	json_object_set_new(lc, "levels", levels);
	return lc;
}

struct ecm_full;
static json_t *jecm(const struct machine *m, const struct eval *e);
static json_t *jbench(const struct kernel *k, const struct eval *e);
static double roofline_asm(const struct eval *e, int *bottleneck);

static json_t *jeval(const struct opts *o, const struct kernel *k, const struct machine *m, const struct eval *e)
{
	json_t *r = json_object();
	json_t *d = json_object();
	for (int s = 0; s < k->nsyms; s++)
		json_object_set_new(d, k->sym[s], json_integer(e->b.val[s]));
	json_object_set_new(r, "defines", d);
	json_object_set_new(r, "iterations", json_integer(e->b.iterations));
	json_object_set_new(r, "iterations_per_cl", json_real(e->tr.iterations_per_cl));
	json_t *tr = json_array();
	for (int i = 0; i < e->tr.nlevels; i++) {
		const struct level_traffic *T = &e->tr.level[i];
		json_t *j = json_object();
		json_object_set_new(j, "level", json_string(T->name));
		json_object_set_new(j, "size_bytes", json_real(T->size_bytes));
		json_object_set_new(j, "hits_per_it", json_real(T->hits));
		json_object_set_new(j, "misses_per_it", json_real(T->misses));
		json_object_set_new(j, "lines_in_per_cl", json_real(T->lines_in));
		json_object_set_new(j, "lines_out_per_cl", json_real(T->lines_out));
		json_array_append_new(tr, j);
	}
	json_object_set_new(r, "traffic", tr);
	if (o->predictor == PRED_SIM) {
		json_t *s = json_object();
		json_object_set_new(s, "warmup_iterations", json_integer(e->si.warmup_iterations));
		json_object_set_new(s, "measured_iterations", json_integer(e->si.measured_iterations));
		json_object_set_new(s, "accesses", json_integer((json_int_t)e->si.accesses));
		json_object_set_new(s, "seed", json_integer((json_int_t)e->si.seed));
		json_object_set_new(s, "measured_accesses", json_integer((json_int_t)e->si.measured_accesses));
		json_object_set_new(s, "measured_seconds", json_real(e->si.measured_seconds));
		json_object_set_new(r, "simulation", s);
	}
	if ((o->models & M_LC) && e->lc) /* a sweep keeps the transfers, not every listing */
		json_object_set_new(r, "lc", jlc(o, k, m, e));
	if (o->models & M_ECMDATA) {
		if (e->have_ecm) {
			json_t *j = json_object();
			for (int i = 0; i < e->ecm.n; i++)
				json_object_set_new(j, e->ecm.t[i].name, json_real(e->ecm.t[i].cy));
			json_object_set_new(j, "unit", json_string("cy/CL"));
			json_t *det = json_array();
			for (int i = 0; i < e->ecm.n; i++) {
				const struct ecm_transfer *T = &e->ecm.t[i];
				json_t *x = json_object();
				json_object_set_new(x, "level", json_string(T->name));
				json_object_set_new(x, "lines_in_per_cl", json_real(T->lines_in));
				json_object_set_new(x, "lines_out_per_cl", json_real(T->lines_out));
				json_object_set_new(x, "bytes_per_cy", json_real(T->bytes_per_cy));
				json_object_set_new(x, "source", json_string(T->source));
				json_object_set_new(x, "cy_per_cl", json_real(T->cy));
				json_array_append_new(det, x);
			}
			json_object_set_new(j, "transfers", det);
			json_object_set_new(j, "rates", json_string(o->use_fit ? "fit" : "machine"));
			if (e->ecm.mem_saturated_cy > 0)
				json_object_set_new(j, "mem_saturated_cy_per_cl", json_real(e->ecm.mem_saturated_cy));
			json_object_set_new(r, "ecm_data", j);
		} else {
			json_object_set_new(r, "ecm_data", json_pack("{s:s}", "error", e->ecm_error));
		}
	}
	if (o->models & M_ROOFLINE) {
		if (e->have_rl) {
			json_t *j = json_object(), *ls = json_array();
			for (int i = 0; i < e->rl.n; i++) {
				const struct roofline_level *R = &e->rl.level[i];
				json_t *x = json_object();
				json_object_set_new(x, "level", json_string(R->name));
				json_object_set_new(x, "bytes_per_it", json_real(R->bytes_per_it));
				json_object_set_new(x, "intensity_flop_per_byte", isfinite(R->intensity) ? json_real(R->intensity) : json_null());
				json_object_set_new(x, "bandwidth_gbs", json_real(R->bw_bytes_s / 1e9));
				json_object_set_new(x, "bw_kernel", json_string(R->kernel));
				json_object_set_new(x, "gflops", isfinite(R->perf_flops_s) ? json_real(R->perf_flops_s / 1e9) : json_null());
				json_object_set_new(x, "cy_per_cl", json_real(R->cy_per_cl));
				json_array_append_new(ls, x);
			}
			json_object_set_new(j, "levels", ls);
			json_object_set_new(j, "peak_gflops", json_real(e->rl.peak_flops_s / 1e9));
			json_object_set_new(j, "core_cy_per_cl", json_real(e->rl.cpu_cy_per_cl));
			json_object_set_new(j, "bottleneck", json_string(e->rl.bottleneck < 0 ? "core" : e->rl.level[e->rl.bottleneck].name));
			json_object_set_new(j, "gflops", json_real(e->rl.perf_flops_s / 1e9));
			json_object_set_new(j, "cy_per_cl", json_real(e->rl.cy_per_cl));
			json_object_set_new(r, "roofline", j);
		} else {
			json_object_set_new(r, "roofline", json_pack("{s:s}", "error", e->rl_error));
		}
	}
	if (o->models & M_ECM)
		json_object_set_new(r, "ecm", jecm(m, e));
	if ((o->models & M_ROOFASM) && e->ic && e->have_rl) {
		int b;
		double cy = roofline_asm(e, &b);
		json_object_set_new(r, "roofline_asm", json_pack("{s:f,s:f,s:s}", "cy_per_cl", cy, "core_cy_per_cl",
								 fmax(e->ic->t_ol, e->ic->t_nol), "bottleneck",
								 b < 0 ? "core" : e->rl.level[b].name));
	}
	if (o->models & M_BENCH)
		json_object_set_new(r, "benchmark", jbench(k, e));
	return r;
}


/* --- in-core, ECM, RooflineASM, benchmark, blocking (model II) ------------------------------ */

/* The pairs of a mapping or an !!omap list (a sequence of one-key mappings), in order. */
static int omap_pairs(const struct mnode *n, const char **keys, const struct mnode **vals, int max)
{
	int k = 0;
	if (!n)
		return 0;
	if (n->kind == MN_MAP) {
		for (size_t i = 0; i < n->n && k < max; i++, k++) {
			keys[k] = n->keys[i];
			vals[k] = n->vals[i];
		}
	} else if (n->kind == MN_SEQ) {
		for (size_t i = 0; i < n->n && k < max; i++)
			if (n->vals[i]->kind == MN_MAP && n->vals[i]->n >= 1) {
				keys[k] = n->vals[i]->keys[0];
				vals[k++] = n->vals[i]->vals[0];
			}
	}
	return k;
}

static void read_ports(const struct mnode *root, const char *section, char list[][INCORE_PORT_LEN], int *n)
{
	*n = 0;
	const struct mnode *ports = mnode_get(mnode_get(mnode_get(root, section), "ports"), "LLVM-MCA");
	if (!ports || ports->kind != MN_SEQ)
		return;
	for (size_t i = 0; i < ports->n && *n < INCORE_MAX_PORTS; i++)
		if (ports->vals[i]->kind == MN_SCALAR)
			snprintf(list[(*n)++], INCORE_PORT_LEN, "%s", ports->vals[i]->text);
}

/* The compiler (the --compiler entry, else the file's first that is installed, else cc), its flags,
 * the -mcpu and the port lists of the machine file. */
static void incore_config_read(const struct mtree *mt, const char *want, struct incore_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	const char *keys[16];
	const struct mnode *vals[16];
	int n = omap_pairs(mnode_get(mt->root, "compiler"), keys, vals, 16);
	int pick = -1;
	for (int i = 0; i < n && pick < 0; i++)
		if (want ? !strcmp(keys[i], want) : spawn_have(keys[i]))
			pick = i;
	if (want && pick < 0) {
		snprintf(cfg->compiler, sizeof(cfg->compiler), "%s", want);
		snprintf(cfg->flags, sizeof(cfg->flags), "-O3 -march=native");
	} else if (pick >= 0) {
		snprintf(cfg->compiler, sizeof(cfg->compiler), "%s", keys[pick]);
		snprintf(cfg->flags, sizeof(cfg->flags), "%s", vals[pick]->kind == MN_SCALAR ? vals[pick]->text : "");
	} else {
		snprintf(cfg->compiler, sizeof(cfg->compiler), "cc");
		snprintf(cfg->flags, sizeof(cfg->flags), "-O3 -march=native");
	}
	n = omap_pairs(mnode_get(mt->root, "in-core model"), keys, vals, 16);
	for (int i = 0; i < n; i++)
		if (!strcmp(keys[i], "LLVM-MCA") && vals[i]->kind == MN_SCALAR) {
			const char *v = strstr(vals[i]->text, "-mcpu=");
			snprintf(cfg->mcpu, sizeof(cfg->mcpu), "%s", v ? v + 6 : vals[i]->text);
			cfg->mcpu[strcspn(cfg->mcpu, " \t")] = 0;
		}
	read_ports(mt->root, "overlapping model", cfg->ol, &cfg->n_ol);
	read_ports(mt->root, "non-overlapping model", cfg->nol, &cfg->n_nol);
	/* the latencies `probe instr` measured (files from probe -o) */
	const struct mnode *ops = mnode_get(mnode_get(mnode_get(mnode_get(mt->root, "archscope"), "probes"), "instr"), "ops");
	for (size_t i = 0; ops && ops->kind == MN_SEQ && i < ops->n && cfg->nops < INCORE_MAX_OPS; i++) {
		const struct mnode *e = ops->vals[i], *op = mnode_get(e, "op"), *ty = mnode_get(e, "type"),
				   *w = mnode_get(e, "width_bits"), *l = mnode_get(e, "latency_cy");
		if (!op || !ty || !w || !l || op->kind != MN_SCALAR || ty->kind != MN_SCALAR || w->kind != MN_SCALAR ||
		    l->kind != MN_SCALAR)
			continue;
		struct incore_op *o = &cfg->op[cfg->nops];
		char *end;
		o->latency_cy = strtod(l->text, &end);
		o->width_bits = atoi(w->text);
		if (*end || !(o->latency_cy > 0) || o->width_bits <= 0)
			continue;
		snprintf(o->op, sizeof(o->op), "%s", op->text);
		snprintf(o->type, sizeof(o->type), "%s", ty->text);
		cfg->nops++;
	}
}

/* The ECM model of one size: the in-core times with the data transfers. */
struct ecm_full {
	int ok;
	double t_ol, t_nol;
	int n;
	char name[MACHINE_MAX_LEVELS][24]; /* T_L1L2, T_L2L3, T_L3MEM */
	double t[MACHINE_MAX_LEVELS];
	double cum[MACHINE_MAX_LEVELS + 1]; /* prediction with the data in L1, L2, ...: max(T_OL, T_nOL + sum) */
	double prediction;                  /* for the given sizes: every transfer the predictor found */
	double t_mem;                       /* the last transfer (memory) */
	int n_s;                            /* saturation: cores at which memory bandwidth is the limit */
};

static void ecm_full(const struct eval *e, struct ecm_full *f)
{
	memset(f, 0, sizeof(*f));
	if (!e->ic || !e->have_ecm)
		return;
	f->ok = 1;
	f->t_ol = e->ic->t_ol;
	f->t_nol = e->ic->t_nol;
	f->n = e->ecm.n;
	double sum = f->t_nol;
	f->cum[0] = fmax(f->t_ol, sum);
	for (int i = 0; i < f->n; i++) {
		snprintf(f->name[i], sizeof(f->name[i]), "T_%s%s", i ? e->ecm.t[i - 1].name : "L1", e->ecm.t[i].name);
		f->t[i] = e->ecm.t[i].cy;
		sum += f->t[i];
		f->cum[i + 1] = fmax(f->t_ol, sum);
	}
	f->prediction = f->cum[f->n];
	/* saturation: memory at the saturated bandwidth (Kerncraft's T_L3MEM), also where the
	 * prediction uses the one-core fitted cost */
	f->t_mem = e->ecm.mem_saturated_cy > 0 ? e->ecm.mem_saturated_cy : f->n ? f->t[f->n - 1] : 0;
	f->n_s = f->t_mem > 0 ? (int)ceil(f->prediction / f->t_mem - 1e-9) : 0;
}

static void print_incore(const struct incore_result *ic)
{
	printf("\n----- in-core (llvm-mca) -----\n");
	printf("compiler: %s %s\nllvm-mca -mcpu=%s; loop %s: %d instructions, %.2f kernel iterations per pass "
	       "(%.0f B stored, %.0f B loaded per pass)\n",
	       ic->cfg.compiler, ic->cfg.flags, ic->cfg.mcpu, ic->loop.label, ic->loop.ninstr, ic->unroll, ic->loop.store_bytes,
	       ic->loop.load_bytes);
	const struct incore_mca *m = &ic->mca;
	/* the port-pressure table: ports used at all, cycles per pass */
	int used[INCORE_MAX_PORTS], nu = 0;
	for (int p = 0; p < m->nports; p++)
		if (m->pressure[p] > 0.005)
			used[nu++] = p;
	printf("port pressure in cycles per pass (OL = overlapping, nOL = non-overlapping ports):\n");
	int w = 6;
	for (int i = 0; i < nu; i++)
		if ((int)strlen(m->port[used[i]]) > w)
			w = (int)strlen(m->port[used[i]]);
	printf("  %-*s", 44, "instruction");
	for (int i = 0; i < nu; i++)
		printf(" %*s", w, m->port[used[i]]);
	printf("\n");
	for (int x = 0; x < m->ninstr; x++) {
		printf("  %-44.44s", m->instr[x]);
		for (int i = 0; i < nu; i++) {
			double v = m->by_instr[x * m->nports + used[i]];
			if (v > 0.005)
				printf(" %*.2f", w, v);
			else
				printf(" %*s", w, "-");
		}
		printf("\n");
	}
	printf("  %-44s", "total per pass");
	for (int i = 0; i < nu; i++)
		printf(" %*.2f", w, m->pressure[used[i]]);
	printf("\n  %-44s", "kind");
	for (int i = 0; i < nu; i++)
		printf(" %*s", w, m->is_nol[used[i]] ? "nOL" : m->is_ol[used[i]] ? "OL" : "-");
	printf("\n");
	char nol[256] = "";
	size_t k = 0;
	for (int p = 0; p < m->nports && k < sizeof(nol); p++)
		if (m->is_nol[p])
			k += (size_t)snprintf(nol + k, sizeof(nol) - k, "%s%s", k ? ", " : "", m->port[p]);
	printf("non-overlapping ports: %s (%s)\n", nol[0] ? nol : "none",
	       m->nol_from_file ? "from the machine file" : "llvm-mca's load ports for this -mcpu: the machine file names none");
	printf("llvm-mca: %.2f cycles per pass (block reciprocal throughput %.2f)\n", m->cycles_per_pass, m->block_rthroughput);
	printf("per cache line of work (%.0f iterations = %.2f passes): T_OL = %.2f cy, T_nOL = %.2f cy%s\n",
	       ic->iterations_per_cl, ic->iterations_per_cl / ic->unroll, ic->t_ol, ic->t_nol,
	       ic->latency_bound ? " (T_OL raised from the port pressure's to llvm-mca's cycles, 1.5x more: a dependency chain bounds the loop)" : "");
	if (ic->latency_bound)
		printf("recurrence per pass: %.2f cy with llvm-mca's latencies, %.2f cy with the ones probe instr measured "
		       "(%d instructions of the loop%s)\n",
		       ic->chain.mca_cy_per_pass, ic->chain.probed_cy_per_pass, ic->chain.nprobed,
		       ic->latency_probed ? "; T_OL scaled by their ratio" : "; the machine file has none of them");
}

static void print_ecm_full(const struct opts *o, const struct machine *m, const struct eval *e)
{
	struct ecm_full f;
	ecm_full(e, &f);
	printf("\n----- ECM -----\n");
	if (!f.ok) {
		printf("not available: %s\n", e->ic ? e->ecm_error : "no in-core analysis");
		return;
	}
	printf("{ %.2f || %.2f", f.t_ol, f.t_nol);
	for (int i = 0; i < f.n; i++)
		printf(" | %.2f", f.t[i]);
	printf(" } cy/CL  (T_OL || T_nOL");
	for (int i = 0; i < f.n; i++)
		printf(" | %s", f.name[i]);
	printf(")\n{ ");
	for (int i = 0; i <= f.n; i++)
		printf("%s%.2f", i ? " \\ " : "", f.cum[i]);
	printf(" } cy/CL  (data in L1");
	for (int i = 0; i < f.n; i++)
		printf(" \\ %s", e->ecm.t[i].name);
	printf(")\n");
	double ipcl = e->tr.iterations_per_cl;
	print_rates(o, m);
	printf("prediction for these sizes: %.2f cy/CL = %.1f MLUP/s at %.2f GHz (core cycles at the machine file's clock)\n",
	       f.prediction, m->clock_hz / (f.prediction / ipcl) / 1e6, m->clock_hz / 1e9);
	if (f.n_s > 0) {
		long maxc = m->cores_per_numa_domain > 0 ? m->cores_per_numa_domain : m->cores_per_socket > 0 ? m->cores_per_socket : 1;
		printf("saturation: n_S = ceil(T_ECM / %s%s) = ceil(%.2f / %.2f) = %d cores\n", f.name[f.n - 1],
		       o->use_fit ? " at the saturated bandwidth" : "", f.prediction, f.t_mem, f.n_s);
		printf("scaling (one memory domain, %ld cores): cores: MLUP/s\n ", maxc);
		for (long c = 1; c <= maxc && c <= 64; c++) {
			double cy = fmax(f.prediction / (double)c, f.t_mem);
			printf(" %ld: %.0f", c, m->clock_hz / (cy / ipcl) / 1e6);
		}
		printf("\n");
	}
}

/* RooflineASM: the core's ceiling is llvm-mca's, the data ceilings the Roofline's. */
static double roofline_asm(const struct eval *e, int *bottleneck)
{
	double core = fmax(e->ic->t_ol, e->ic->t_nol), worst = core;
	*bottleneck = -1;
	for (int i = 0; e->have_rl && i < e->rl.n; i++)
		if (e->rl.level[i].cy_per_cl > worst) {
			worst = e->rl.level[i].cy_per_cl;
			*bottleneck = i;
		}
	return worst;
}

static void print_roofline_asm(const struct kernel *k, const struct machine *m, const struct eval *e)
{
	printf("\n----- RooflineASM -----\n");
	if (!e->ic || !e->have_rl) {
		printf("not available: %s\n", e->ic ? e->rl_error : "no in-core analysis");
		return;
	}
	int b;
	double cy = roofline_asm(e, &b);
	double ipcl = e->tr.iterations_per_cl;
	printf("core ceiling (llvm-mca): %.2f cy/CL; data ceilings:", fmax(e->ic->t_ol, e->ic->t_nol));
	for (int i = 0; i < e->rl.n; i++)
		printf(" %s %.2f", e->rl.level[i].name, e->rl.level[i].cy_per_cl);
	printf(" cy/CL\nbound by %s: %.2f cy/CL, %.2f GFLOP/s, %.1f MLUP/s\n", b < 0 ? "the core" : e->rl.level[b].name, cy,
	       kernel_flops(k) * ipcl / cy * m->clock_hz / 1e9, m->clock_hz / (cy / ipcl) / 1e6);
}

/* Measured cy/CL: from the cycles counter where it was read, else time x the measured clock. */
static double bench_time_cy_per_cl(const struct eval *e)
{
	double cls = (double)e->b.iterations / e->tr.iterations_per_cl;
	return e->bench.seconds_per_call * e->bench_ghz * 1e9 / cls;
}

static double bench_cy_per_cl(const struct eval *e)
{
	double cls = (double)e->b.iterations / e->tr.iterations_per_cl;
	return e->cnt.available ? e->cnt.per_call[0] / cls : bench_time_cy_per_cl(e);
}

static void print_bench(const struct kernel *k, const struct eval *e)
{
	printf("\n----- Benchmark -----\n");
	if (!e->have_bench) {
		printf("not available: %s\n", e->bench_error);
		return;
	}
	double cy = bench_cy_per_cl(e), spc = e->bench.seconds_per_call;
	if (e->cnt.available)
		printf("measured: %.2f cy/CL (core cycles from the %s counter; %.2f from time at the measured %.3f GHz), "
		       "%.1f MLUP/s, %.2f GFLOP/s\n",
		       cy, e->cnt.name[0], bench_time_cy_per_cl(e), e->bench_ghz, (double)e->b.iterations / spc / 1e6,
		       (double)kernel_flops(k) * (double)e->b.iterations / spc / 1e9);
	else
		printf("measured: %.2f cy/CL (core cycles of the measured clock, %.3f GHz), %.1f MLUP/s, %.2f GFLOP/s\n", cy,
		       e->bench_ghz, (double)e->b.iterations / spc / 1e6,
		       (double)kernel_flops(k) * (double)e->b.iterations / spc / 1e9);
	printf("(%ld calls per repetition, fastest of %d, %.3f us per call)\n", e->bench.calls, e->bench.reps, spc * 1e6);
	if (e->cnt.available) {
		double cls = (double)e->b.iterations / e->tr.iterations_per_cl;
		printf("counters per CL (repetition with the fewest cycles):");
		for (int i = 0; i < e->cnt.n; i++)
			printf("%s %s %.2f", i ? "," : "", e->cnt.name[i], e->cnt.per_call[i] / cls);
		printf("\n");
	} else {
		printf("hardware counters: %s\n", e->cnt.reason);
	}
	struct ecm_full f;
	ecm_full(e, &f);
	struct table *t = table_new(3, "model", "predicted cy/CL", "error");
	if (f.ok) {
		table_cell(t, "ECM");
		table_cell(t, "%.2f", f.prediction);
		table_cell(t, "%+.1f %%", 100 * (f.prediction - cy) / cy);
	}
	if (e->have_rl) {
		table_cell(t, "Roofline (flops)");
		table_cell(t, "%.2f", e->rl.cy_per_cl);
		table_cell(t, "%+.1f %%", 100 * (e->rl.cy_per_cl - cy) / cy);
	}
	if (e->ic && e->have_rl) {
		int b;
		double r = roofline_asm(e, &b);
		table_cell(t, "RooflineASM");
		table_cell(t, "%.2f", r);
		table_cell(t, "%+.1f %%", 100 * (r - cy) / cy);
	}
	table_print(t, stdout, "  ");
	table_free(t);
}

static json_t *jincore(const struct incore_result *ic)
{
	json_t *j = json_object(), *ports = json_array();
	json_object_set_new(j, "compiler", json_string(ic->cfg.compiler));
	json_object_set_new(j, "flags", json_string(ic->cfg.flags));
	json_object_set_new(j, "mcpu", json_string(ic->cfg.mcpu));
	json_object_set_new(j, "loop_label", json_string(ic->loop.label));
	json_object_set_new(j, "instructions", json_integer(ic->loop.ninstr));
	json_object_set_new(j, "iterations_per_pass", json_real(ic->unroll));
	for (int p = 0; p < ic->mca.nports; p++)
		json_array_append_new(ports, json_pack("{s:s,s:f,s:b,s:b}", "port", ic->mca.port[p], "cycles_per_pass",
						       ic->mca.pressure[p], "non_overlapping", ic->mca.is_nol[p], "overlapping",
						       ic->mca.is_ol[p]));
	json_object_set_new(j, "ports", ports);
	json_object_set_new(j, "mca_cycles_per_pass", json_real(ic->mca.cycles_per_pass));
	json_object_set_new(j, "T_OL", json_real(ic->t_ol));
	json_object_set_new(j, "T_nOL", json_real(ic->t_nol));
	json_object_set_new(j, "T_OL_ports", json_real(ic->t_ol_ports));
	json_object_set_new(j, "latency_bound", json_boolean(ic->latency_bound));
	json_object_set_new(j, "recurrence_cy_per_pass",
			    json_pack("{s:f,s:f,s:i,s:b}", "mca", ic->chain.mca_cy_per_pass, "probed", ic->chain.probed_cy_per_pass,
				      "probed_instructions", ic->chain.nprobed, "used", ic->latency_probed));
	json_object_set_new(j, "unit", json_string("cy/CL"));
	return j;
}

static json_t *jecm(const struct machine *m, const struct eval *e)
{
	struct ecm_full f;
	ecm_full(e, &f);
	if (!f.ok)
		return json_pack("{s:s}", "error", e->ic ? e->ecm_error : "no in-core analysis");
	json_t *j = json_object(), *cum = json_array();
	json_object_set_new(j, "T_OL", json_real(f.t_ol));
	json_object_set_new(j, "T_nOL", json_real(f.t_nol));
	for (int i = 0; i < f.n; i++)
		json_object_set_new(j, f.name[i], json_real(f.t[i]));
	for (int i = 0; i <= f.n; i++)
		json_array_append_new(cum, json_real(f.cum[i]));
	json_object_set_new(j, "cumulative_cy_per_cl", cum);
	json_object_set_new(j, "prediction_cy_per_cl", json_real(f.prediction));
	json_object_set_new(j, "mlups", json_real(m->clock_hz / (f.prediction / e->tr.iterations_per_cl) / 1e6));
	if (f.n_s > 0)
		json_object_set_new(j, "saturation_cores", json_integer(f.n_s));
	json_object_set_new(j, "unit", json_string("cy/CL"));
	return j;
}

static json_t *jbench(const struct kernel *k, const struct eval *e)
{
	if (!e->have_bench)
		return json_pack("{s:s}", "error", e->bench_error);
	double cy = bench_cy_per_cl(e), spc = e->bench.seconds_per_call;
	json_t *j = json_object();
	json_object_set_new(j, "cy_per_cl", json_real(cy));
	char how[128];
	snprintf(how, sizeof(how), "core cycles from the %s counter", e->cnt.name[0]);
	json_object_set_new(j, "cycles", json_string(e->cnt.available ? how : "core cycles of the measured clock"));
	json_object_set_new(j, "clock_ghz", json_real(e->bench_ghz));
	json_object_set_new(j, "seconds_per_call", json_real(spc));
	json_object_set_new(j, "calls", json_integer(e->bench.calls));
	json_object_set_new(j, "repetitions", json_integer(e->bench.reps));
	json_object_set_new(j, "mlups", json_real((double)e->b.iterations / spc / 1e6));
	json_object_set_new(j, "gflops", json_real((double)kernel_flops(k) * (double)e->b.iterations / spc / 1e9));
	json_t *cj = json_object();
	json_object_set_new(cj, "available", json_boolean(e->cnt.available));
	if (e->cnt.available) {
		double cls = (double)e->b.iterations / e->tr.iterations_per_cl;
		json_t *ev = json_object();
		for (int i = 0; i < e->cnt.n; i++)
			json_object_set_new(ev, e->cnt.name[i], json_pack("{s:s,s:f,s:f}", "event", e->cnt.fq[i], "per_call",
									   e->cnt.per_call[i], "per_cl", e->cnt.per_call[i] / cls));
		json_object_set_new(cj, "events", ev);
		json_object_set_new(j, "time_cy_per_cl", json_real(bench_time_cy_per_cl(e)));
	} else {
		json_object_set_new(cj, "reason", json_string(e->cnt.reason));
	}
	json_object_set_new(j, "counters", cj);
	struct ecm_full f;
	ecm_full(e, &f);
	json_t *err = json_object();
	if (f.ok)
		json_object_set_new(err, "ECM", json_real((f.prediction - cy) / cy));
	if (e->have_rl)
		json_object_set_new(err, "Roofline", json_real((e->rl.cy_per_cl - cy) / cy));
	if (e->ic && e->have_rl) {
		int b;
		json_object_set_new(err, "RooflineASM", json_real((roofline_asm(e, &b) - cy) / cy));
	}
	json_object_set_new(j, "relative_error", err);
	return j;
}

/* Blocking advice (Kerncraft paper §2.4.2): per cache level, the next better layer condition than
 * the one that holds, the largest value of one constant for which it holds (the block size of the
 * loops that constant bounds), and the ECM (or the data transfers) re-evaluated with the constant
 * at that value, a proxy for the blocked kernel that leaves out the block edges. */
static json_t *blocking(const struct opts *o, const struct kernel *k, const struct machine *m, const int64_t *vals0,
			const struct eval *e, int print)
{
	json_t *out = json_array();
	if (print)
		printf("\n----- Blocking -----\n");
	if (!e->lc || e->lc_error[0]) {
		if (print)
			printf("not available: %s\n", e->lc_error[0] ? e->lc_error : "no layer conditions");
		json_decref(out);
		return json_pack("{s:s}", "error", e->lc_error[0] ? e->lc_error : "no layer conditions");
	}
	struct ecm_full now;
	ecm_full(e, &now);
	double base = now.ok ? now.prediction : e->have_ecm ? e->ecm.total_cy : 0;
	const char *what = now.ok ? "ECM" : "data transfers";
	struct eval *x = calloc(1, sizeof(*x));
	struct lc_analysis *xl = calloc(1, sizeof(*xl));
	if (!x || !xl)
		die(EXIT_FAIL, "out of memory");
	int any = 0;
	for (int i = 0; i < m->nlevels; i++) {
		const struct machine_level *L = &m->level[i];
		if (!L->has_cache)
			continue;
		double size = predict_share(L, o->cores);
		int act = lc_active(e->lc, size);
		int best_c = -1, best_s = -1;
		int64_t best_t = 0;
		/* the next better condition that a block of at least 64 iterations makes hold (shorter
		 * blocks are mostly edges), at a size the kernel still binds at */
		struct kbound *kb = calloc(1, sizeof(*kb));
		if (!kb)
			die(EXIT_FAIL, "out of memory");
		for (int c = act + 1; c < e->lc->ncond && best_c < 0; c++) {
			if (e->lc->cond[c].hits <= e->lc->cond[act].hits)
				continue;
			for (int sy = 0; sy < k->nsyms; sy++) {
				int64_t t = lc_transition(e->lc, c, &e->b, sy, size);
				if (t < 64 || t >= vals0[sy] || t <= best_t)
					continue;
				int64_t v[POLY_MAX_SYMS];
				memcpy(v, vals0, sizeof(v));
				v[sy] = t;
				struct as_error berr = { 0 };
				if (kernel_bind(k, v, m->cacheline_bytes > 0 ? (int64_t)m->cacheline_bytes : 64, kb, &berr) == 0) {
					best_c = c;
					best_s = sy;
					best_t = t;
				}
			}
		}
		free(kb);
		if (best_c < 0) {
			if (print)
				printf("%s: the best condition holds already, or none gets better by making one constant smaller\n", L->name);
			continue;
		}
		/* the loops whose bounds use the constant */
		char loops[128] = "";
		size_t w = 0;
		for (int l = 0; l < k->nloops && w < sizeof(loops); l++)
			if ((poly_syms(&k->loop[l].end) | poly_syms(&k->loop[l].start)) & (1u << best_s))
				w += (size_t)snprintf(loops + w, sizeof(loops) - w, "%s'%s'", w ? ", " : "", k->loop[l].var);
		int64_t v[POLY_MAX_SYMS];
		memcpy(v, vals0, sizeof(v));
		v[best_s] = best_t;
		memset(x, 0, sizeof(*x));
		x->lc = xl;
		struct opts q = *o;
		evaluate(&q, k, m, v, x);
		x->ic = e->ic;
		struct ecm_full f;
		ecm_full(x, &f);
		double after = f.ok ? f.prediction : x->have_ecm ? x->ecm.total_cy : 0;
		char ct[300];
		cond_text(k, e->lc, best_c, ct, sizeof(ct));
		if (print) {
			printf("%s: now %d misses/%d hits per iteration; with %s <= %lld (block the loop%s %s) the condition %s holds:"
			       " %d misses/%d hits\n",
			       L->name, e->lc->cond[act].misses, e->lc->cond[act].hits, k->sym[best_s], (long long)best_t,
			       strchr(loops, ',') ? "s" : "", loops[0] ? loops : "-", ct, e->lc->cond[best_c].misses,
			       e->lc->cond[best_c].hits);
			if (base > 0 && after > 0)
				printf("  predicted %s: %.2f -> %.2f cy/CL (%.2fx; the kernel evaluated with %s = %lld, block edges left out)\n",
				       what, base, after, base / after, k->sym[best_s], (long long)best_t);
		}
		json_t *j = json_object();
		json_object_set_new(j, "level", json_string(L->name));
		json_object_set_new(j, "constant", json_string(k->sym[best_s]));
		json_object_set_new(j, "block_at_most", json_integer(best_t));
		json_object_set_new(j, "loops", json_string(loops));
		json_object_set_new(j, "condition", json_string(ct));
		json_object_set_new(j, "misses_now", json_integer(e->lc->cond[act].misses));
		json_object_set_new(j, "misses_blocked", json_integer(e->lc->cond[best_c].misses));
		json_object_set_new(j, "model", json_string(what));
		json_object_set_new(j, "cy_per_cl_now", json_real(base));
		json_object_set_new(j, "cy_per_cl_blocked", json_real(after));
		json_array_append_new(out, j);
		any = 1;
	}
	if (print && !any)
		printf("no blocking helps at these sizes\n");
	free(xl);
	free(x);
	return out;
}

/* The CPU for the benchmark: --cpu, else the last one this process may use. */
static int bench_cpu(const struct opts *o)
{
	if (o->cpu >= 0)
		return o->cpu;
	struct as_cpulist l;
	struct as_error err = { 0 };
	if (cpulist_allowed(&l, &err) == 0 && l.n > 0)
		return l.cpu[l.n - 1];
	return 0;
}

/* Benchmark counters: the program stops before (even stops) and after (odd) each timed repetition.
 * The counters are opened on the first stop, enabled from an even stop to the next odd one, and
 * the repetition with the fewest cycles is kept, as the time keeps the fastest one. */
struct count_ctx {
	const char *names[COUNTERS_MAX];
	int n;
	struct counter_set set;
	int open, failed, have;
	double best[COUNTERS_MAX];
	char fq[COUNTERS_MAX][192];
	char error[512];
};

static int count_on_stop(void *vctx, int pid, int nth)
{
	struct count_ctx *c = vctx;
	struct as_error err = { 0 };
	if (c->failed)
		return 0;
	if (nth % 2 == 0) {
		if (!c->open) {
			if (counters_open(&c->set, c->names, c->n, (pid_t)pid, &err) != 0) {
				c->failed = 1;
				snprintf(c->error, sizeof(c->error), "%s", err.msg);
				return 0;
			}
			c->open = 1;
			for (int i = 0; i < c->n; i++)
				snprintf(c->fq[i], sizeof(c->fq[i]), "%s", c->set.fq[i]);
		}
		if (counters_reset_enable(&c->set) != 0) {
			c->failed = 1;
			snprintf(c->error, sizeof(c->error), "cannot enable the counters");
		}
		return 0;
	}
	if (!c->open)
		return 0;
	if (counters_disable(&c->set) != 0 || counters_read(&c->set, &err) != 0) {
		c->failed = 1;
		snprintf(c->error, sizeof(c->error), "%s", err.msg[0] ? err.msg : "cannot stop the counters");
		return 0;
	}
	if (!c->have || c->set.value[0] < c->best[0]) {
		for (int i = 0; i < c->n; i++)
			c->best[i] = c->set.value[i];
		c->have = 1;
	}
	return 0;
}

static void run_benchmark(const struct opts *o, const struct kernel *k, const char *text, size_t len,
			  const struct incore_config *cfg, struct eval *e)
{
	struct as_error err = { 0 };
	double mem = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
	if (mem > 0 && (double)e->b.total_bytes > 0.8 * mem)
		die(EXIT_USAGE, "benchmark: the arrays need %.3g GB, more than 80 %% of this machine's %.3g GB of memory",
		    (double)e->b.total_bytes / 1e9, mem / 1e9);
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
	e->bench_ghz = ghz;
	struct count_ctx cc;
	memset(&cc, 0, sizeof(cc));
	struct spawn_hooks hooks = { count_on_stop, &cc };
	char evbuf[1024];
	if (o->no_counters) {
		snprintf(e->cnt.reason, sizeof(e->cnt.reason), "not read (--no-counters)");
	} else {
		/* ARCHSCOPE_CYCLES_EVENT replaces the cycles event, to exercise this path where the machine
		 * has no PMU (e.g. perf::PERF_COUNT_SW_TASK_CLOCK: its "cycles" are then nanoseconds). */
		const char *cyc = getenv("ARCHSCOPE_CYCLES_EVENT");
		cc.names[cc.n++] = cyc && *cyc ? cyc : "cycles";
		if (!(cyc && *cyc))
			cc.names[cc.n++] = "instructions";
		snprintf(evbuf, sizeof(evbuf), "%s", o->events ? o->events : "");
		for (char *save = NULL, *t = strtok_r(evbuf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			if (cc.n == COUNTERS_MAX)
				die(EXIT_USAGE, "model: --events: at most %d events besides cycles and instructions", COUNTERS_MAX - 2);
			uint32_t type;
			uint64_t config;
			if (counters_encode(t, &type, &config, NULL, 0, &err) != 0)
				die(EXIT_USAGE, "model: --events: %s", err.msg);
			cc.names[cc.n++] = t;
		}
	}
	if (incore_benchmark(k, &e->b, text, len, cfg, cpu, o->bench_seconds, o->bench_reps, o->no_counters ? NULL : &hooks, &e->bench,
			     &err) == 0)
		e->have_bench = 1;
	else
		snprintf(e->bench_error, sizeof(e->bench_error), "%s", err.msg);
	if (cc.open)
		counters_close(&cc.set);
	if (o->no_counters)
		return;
	if (cc.have && e->have_bench && e->bench.calls > 0) {
		e->cnt.available = 1;
		e->cnt.n = cc.n;
		for (int i = 0; i < cc.n; i++) {
			snprintf(e->cnt.name[i], sizeof(e->cnt.name[i]), "%s", cc.names[i]);
			snprintf(e->cnt.fq[i], sizeof(e->cnt.fq[i]), "%s", cc.fq[i]);
			e->cnt.per_call[i] = cc.best[i] / (double)e->bench.calls;
		}
	} else {
		snprintf(e->cnt.reason, sizeof(e->cnt.reason), "%s", cc.failed ? cc.error : "the benchmark did not stop for counting");
	}
}

static int write_sweep_plot(const char *dir, const char *sym, const struct eval *rows, int n, const int64_t *xs,
			    struct as_error *err)
{
	int rc = plot_dir_prepare(dir, err);
	if (rc)
		return rc;
	char path[4096];
	snprintf(path, sizeof(path), "%s/model-sweep.dat", dir);
	struct atomic_file af;
	if ((rc = atomic_file_open(&af, path, err)))
		return rc;
	FILE *f = af.fp;
	int nt = rows[0].have_ecm ? rows[0].ecm.n : 0;
	fprintf(f, "# %s", sym);
	for (int j = 0; j < nt; j++)
		fprintf(f, " cum_%s", rows[0].ecm.t[j].name);
	fprintf(f, " roofline_cy_per_cl\n");
	for (int i = 0; i < n; i++) {
		fprintf(f, "%lld", (long long)xs[i]);
		double cum = 0;
		for (int j = 0; j < nt; j++) {
			cum += rows[i].have_ecm && j < rows[i].ecm.n ? rows[i].ecm.t[j].cy : 0;
			fprintf(f, " %.6g", cum);
		}
		fprintf(f, " %.6g\n", rows[i].have_rl ? rows[i].rl.cy_per_cl : NAN);
	}
	rc = atomic_file_commit(&af, err);
	if (rc)
		return rc;
	char body[4096];
	size_t w = (size_t)snprintf(body, sizeof(body),
				    "set title 'ECM data transfers (stacked) and Roofline'\n"
				    "set xlabel '%s'\nset ylabel 'core cycles per cache line of work'\n"
				    "set key outside right\nset style fill solid 0.5 noborder\nset yrange [0:*]\n"
				    "plot ",
				    sym);
	for (int j = nt - 1; j >= 0 && w < sizeof(body); j--)
		w += (size_t)snprintf(body + w, sizeof(body) - w,
				      "'model-sweep.dat' using 1:%d with filledcurves x1 title 'T_{%s}', ", j + 2,
				      rows[0].ecm.t[j].name);
	if (w < sizeof(body))
		snprintf(body + w, sizeof(body) - w,
			 "'model-sweep.dat' using 1:%d with lines lw 2 dt 2 lc 'black' title 'Roofline'\n", nt + 2);
	rc = plot_render(dir, "model-sweep", body, err);
	return rc < 0 ? rc : 0;
}

int cmd_model(int argc, char **argv)
{
	struct opts o;
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
	if ((o.models & (M_INCORE | M_BENCH)) && !(text = file_read_all(o.kernel, &text_len)))
		die(EXIT_FAIL, "cannot read kernel '%s' again", o.kernel);
	struct incore_result *ic = calloc(1, sizeof(*ic));
	if (!ic)
		die(EXIT_FAIL, "out of memory");
	int have_ic = 0;
	char ic_error[600] = "";
	/* every constant needs a value, every value a constant */
	int64_t vals[POLY_MAX_SYMS] = { 0 };
	int sweep_sym = -1, sweep_def = -1;
	for (int s = 0; s < k->nsyms; s++) {
		int found = 0;
		for (int d = 0; d < o.ndefs; d++)
			if (!strcmp(o.defs[d].name, k->sym[s])) {
				vals[s] = o.defs[d].v;
				o.defs[d].used = 1;
				found = 1;
				if (o.defs[d].sweep) {
					sweep_sym = s;
					sweep_def = d;
				}
			}
		if (!found)
			die(EXIT_USAGE, "%s:%d:%d: constant '%s' has no value: give -D %s VALUE", o.kernel, k->sym_pos[s].line,
			    k->sym_pos[s].col, k->sym[s], k->sym[s]);
	}
	for (int d = 0; d < o.ndefs; d++)
		if (!o.defs[d].used)
			die(EXIT_USAGE, "-D %s: the kernel has no constant '%s'", o.defs[d].name, o.defs[d].name);
	if (m->nlevels == 0)
		die(EXIT_USAGE, "machine file '%s' has no memory hierarchy", o.machine);
	if (o.ecm_rates != RATES_MACHINE && (o.models & M_ECMDATA)) {
		int fitted = model_ecm_fit(m, &o.fit, &err);
		if (fitted < 0 && o.ecm_rates == RATES_FIT)
			die(EXIT_USAGE, "--ecm-rates fit: %s", err.msg);
		as_error_clear(&err);
		if (fitted > 0 && (o.ecm_rates == RATES_FIT || m->probed))
			o.use_fit = &o.fit;
	}
	if (sweep_sym < 0) {
		struct eval *e = calloc(1, sizeof(*e));
		if (!e || !(e->lc = calloc(1, sizeof(*e->lc))))
			die(EXIT_FAIL, "out of memory");
		evaluate(&o, k, m, vals, e);
		if (o.models & M_INCORE) {
			progress("model: compiling the kernel and running llvm-mca");
			if (incore_analyse(k, &e->b, text, text_len, &icfg, e->tr.iterations_per_cl, ic, &err) == 0) {
				have_ic = 1;
				e->ic = ic;
			} else {
				snprintf(ic_error, sizeof(ic_error), "%s", err.msg);
				as_error_clear(&err);
			}
			progress_done();
		}
		if (o.models & M_BENCH) {
			progress("model: benchmark: compiling and running the kernel (%d repetitions of at least %.2f s)",
				 o.bench_reps, o.bench_seconds);
			run_benchmark(&o, k, text, text_len, &icfg, e);
			progress_done();
		}
		if (o.plot)
			note("--plot draws a sweep: give one constant as FROM:TO:STEP");
		if (o.json) {
			json_t *r = jeval(&o, k, m, e);
			json_object_set_new(r, "kernel", json_string(o.kernel));
			json_object_set_new(r, "machine_file", json_string(o.machine));
			json_object_set_new(r, "cache_predictor", json_string(o.predictor == PRED_LC ? "LC" : "SIM"));
			json_object_set_new(r, "cores", json_integer(o.cores));
			json_object_set_new(r, "flops_per_it", json_integer(kernel_flops(k)));
			if (o.models & M_INCORE)
				json_object_set_new(r, "incore", have_ic ? jincore(ic) : json_pack("{s:s}", "error", ic_error));
			if (o.shown & M_BLOCK)
				json_object_set_new(r, "blocking", blocking(&o, k, m, vals, e, 0));
			cli_print_json("model", r);
		} else {
			print_kernel(&o, k, m, e);
			if (o.shown & M_LC)
				print_lc(&o, k, m, e);
			print_traffic(&o, e);
			if (o.shown & M_ECMDATA)
				print_ecm(&o, m, e);
			if (o.shown & M_ROOFLINE)
				print_roofline(k, m, e);
			if (o.models & M_INCORE) {
				if (have_ic)
					print_incore(ic);
				else
					printf("\n----- in-core (llvm-mca) -----\nnot available: %s\n(the data-side models above do not need it)\n",
					       ic_error);
			}
			if (o.models & M_ECM)
				print_ecm_full(&o, m, e);
			if (o.shown & M_ROOFASM)
				print_roofline_asm(k, m, e);
			if (o.shown & M_BENCH)
				print_bench(k, e);
			if (o.shown & M_BLOCK)
				json_decref(blocking(&o, k, m, vals, e, 1));
		}
		free(e->lc);
		free(e);
	} else {
		const struct def *D = &o.defs[sweep_def];
		int n = (int)((D->to - D->from) / D->step) + 1;
		struct eval *rows = calloc((size_t)n, sizeof(*rows));
		int64_t *xs = calloc((size_t)n, sizeof(*xs));
		struct lc_analysis *lc = calloc(1, sizeof(*lc));
		if (!rows || !xs || !lc)
			die(EXIT_FAIL, "out of memory");
		double t0 = (timer_now_ns() / 1e9);
		for (int i = 0; i < n; i++) {
			xs[i] = D->from + (int64_t)i * D->step;
			vals[sweep_sym] = xs[i];
			rows[i].lc = lc;
			evaluate(&o, k, m, vals, &rows[i]);
			if (i == 0 && (o.models & M_INCORE)) {
				if (incore_analyse(k, &rows[0].b, text, text_len, &icfg, rows[0].tr.iterations_per_cl, ic, &err) == 0)
					have_ic = 1;
				else
					snprintf(ic_error, sizeof(ic_error), "%s", err.msg);
				as_error_clear(&err);
			}
			rows[i].ic = have_ic ? ic : NULL;
			if (o.models & M_BENCH) {
				progress("model: benchmark %s = %lld (%d of %d)", D->name, (long long)xs[i], i + 1, n);
				run_benchmark(&o, k, text, text_len, &icfg, &rows[i]);
			}
			rows[i].lc = NULL;
			if ((timer_now_ns() / 1e9) - t0 > 1)
				progress("model: %s = %lld (%d of %d)", D->name, (long long)xs[i], i + 1, n);
		}
		progress_done();
		double secs = (timer_now_ns() / 1e9) - t0;
		if (o.json) {
			json_t *r = json_object(), *arr = json_array();
			for (int i = 0; i < n; i++)
				json_array_append_new(arr, jeval(&o, k, m, &rows[i]));
			json_object_set_new(r, "kernel", json_string(o.kernel));
			json_object_set_new(r, "machine_file", json_string(o.machine));
			json_object_set_new(r, "cache_predictor", json_string(o.predictor == PRED_LC ? "LC" : "SIM"));
			json_object_set_new(r, "cores", json_integer(o.cores));
			json_object_set_new(r, "flops_per_it", json_integer(kernel_flops(k)));
			json_object_set_new(r, "sweep", json_string(D->name));
			if (o.models & M_INCORE)
				json_object_set_new(r, "incore", have_ic ? jincore(ic) : json_pack("{s:s}", "error", ic_error));
			json_object_set_new(r, "seconds", json_real(secs));
			json_object_set_new(r, "sizes", arr);
			cli_print_json("model", r);
		} else {
			printf("kernel: %s  machine: %s  cache predictor: %s  cores: %d\n", o.kernel, o.machine,
			       o.predictor == PRED_LC ? "LC" : "SIM", o.cores);
			int ecm_col = (o.models & M_ECM) && have_ic, bench_col = (o.models & M_BENCH) != 0;
			struct table *t = table_new(4 + ecm_col + bench_col, D->name, "ECMData cy/CL", "sum cy/CL", "Roofline cy/CL",
						    ecm_col ? "ECM cy/CL" : "measured cy/CL", "measured cy/CL");
			for (int i = 0; i < n; i++) {
				table_cell(t, "%lld", (long long)xs[i]);
				if (rows[i].have_ecm) {
					char s[256];
					size_t w = 0;
					for (int j = 0; j < rows[i].ecm.n && w < sizeof(s); j++)
						w += (size_t)snprintf(s + w, sizeof(s) - w, "%s%.2f", j ? " | " : "{ ", rows[i].ecm.t[j].cy);
					if (w < sizeof(s))
						snprintf(s + w, sizeof(s) - w, " }");
					table_cell(t, "%s", s);
					table_cell(t, "%.2f", rows[i].ecm.total_cy);
				} else {
					table_cell(t, "-");
					table_cell(t, "-");
				}
				if (rows[i].have_rl)
					table_cell(t, "%.2f", rows[i].rl.cy_per_cl);
				else
					table_cell(t, "-");
				if (ecm_col) {
					struct ecm_full f;
					ecm_full(&rows[i], &f);
					table_cell(t, f.ok ? "%.2f" : "-", f.prediction);
				}
				if (bench_col) {
					if (rows[i].have_bench)
						table_cell(t, "%.2f", bench_cy_per_cl(&rows[i]));
					else
						table_cell(t, "-");
				}
			}
			table_print(t, stdout, "");
			table_free(t);
			printf("%d sizes in %.3f s\n", n, secs);
			if (!rows[0].have_ecm && rows[0].ecm_error[0])
				note("ECMData: %s", rows[0].ecm_error);
			if ((o.models & M_INCORE) && !have_ic)
				note("in-core analysis: %s", ic_error);
			if (bench_col && !rows[0].have_bench)
				note("benchmark: %s", rows[0].bench_error);
		}
		if (o.plot) {
			struct as_error perr = { 0 };
			int rc = write_sweep_plot(o.plot, D->name, rows, n, xs, &perr);
			if (rc < 0)
				note("plot: %s", perr.msg);
			else if (!o.json)
				printf("plot: %s/model-sweep.svg\n", o.plot);
		}
		free(lc);
		free(xs);
		free(rows);
	}
	if (have_ic)
		incore_result_free(ic);
	free(ic);
	free(text);
	kernel_free(k);
	free(m);
	if (fflush(stdout) || ferror(stdout))
		die(EXIT_FAIL, "cannot write the output");
	return EXIT_OK;
}
