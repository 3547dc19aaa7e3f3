/* archscope model KERNEL.c -m MACHINE.yaml: the data side of Kerncraft's models for a loop
 * kernel — access analysis, layer conditions, the cache simulator as the alternative predictor,
 * ECMData and the flop-counting Roofline — for one size or a sweep of sizes. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "common/atomicfile.h"
#include "common/timer.h"
#include "model/kernel.h"
#include "model/lc.h"
#include "model/models.h"
#include "model/sim.h"
#include "report/machine.h"
#include "report/plot.h"
#include "report/table.h"

enum { M_LC = 1, M_ECMDATA = 2, M_ROOFLINE = 4 };
enum { PRED_LC, PRED_SIM };

#define MAX_DEFS POLY_MAX_SYMS

struct def {
	char name[KERNEL_NAME_LEN];
	int64_t v, from, to, step;
	int sweep;
	int used;
};

struct opts {
	const char *kernel, *machine, *plot;
	int models, predictor, cores, json;
	uint64_t seed;
	int64_t sim_iterations;
	int ndefs;
	struct def defs[MAX_DEFS];
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
	      "  LC         layer conditions per cache level: each condition's cache requirement, misses\n"
	      "             and hits per iteration, the one that holds, and the sizes where it changes\n"
	      "  ECMData    cycles per cache line of work for each transfer: { T_L1L2 | T_L2L3 | T_L3MEM }\n"
	      "  Roofline   flop-counting Roofline: intensity, bandwidth and bound per level, the bottleneck\n"
	      "\n"
	      "options:\n"
	      "  -m, --machine FILE       machine file (archscope's, from 'probe -o', or Kerncraft's)\n"
	      "  -p, --pmodel MODEL       LC, ECMData or Roofline (case-insensitive)\n"
	      "  -D, --define NAME VALUE  binds a constant; VALUE may be a sweep FROM:TO:STEP (one constant)\n"
	      "  --cache-predictor lc|sim layer conditions (default) or the cache simulator\n"
	      "  --cores N                cores in use: shared caches are divided among them (default 1)\n"
	      "  --seed N                 seed of the simulator's random replacement (default 1)\n"
	      "  --sim-iterations N       iterations the simulator measures after its warm-up (default 100000)\n"
	      "  --plot DIR               sweep: predicted cy/CL (stacked ECM contributions) against the size\n"
	      "  --json                   one JSON object {\"archscope\", \"command\", \"machine\", \"results\"}\n"
	      "  -h, --help               this help\n"
	      "\n"
	      "Cycles are core cycles at the machine file's clock; \"per CL\" is per cache line of work (8\n"
	      "iterations of the innermost loop for double, 16 for float). The in-core models (ECM,\n"
	      "ECMCPU, RooflineASM), benchmark mode and blocking advice are not part of this version.\n"
	      "\n"
	      "environment:\n"
	      "  ARCHSCOPE_CACHE_DIR      where parsed kernels are kept, so a kernel read before is not parsed\n"
	      "                           again (default $XDG_CACHE_HOME/archscope or ~/.cache/archscope;\n"
	      "                           'off' turns the cache off)\n"
	      "  ARCHSCOPE_LIBCLANG       the libclang to load (default: the one found at build time)\n",
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

static void parse_args(int argc0, char **argv0, struct opts *o)
{
	int argc;
	char **argv = join_defines(argc0, argv0, &argc);
	enum { OPT_PRED = 256, OPT_CORES, OPT_SEED, OPT_PLOT, OPT_JSON, OPT_SIMIT };
	static const struct option lo[] = { { "machine", required_argument, 0, 'm' },
					    { "pmodel", required_argument, 0, 'p' },
					    { "define", required_argument, 0, 'D' },
					    { "cache-predictor", required_argument, 0, OPT_PRED },
					    { "cores", required_argument, 0, OPT_CORES },
					    { "seed", required_argument, 0, OPT_SEED },
					    { "sim-iterations", required_argument, 0, OPT_SIMIT },
					    { "plot", required_argument, 0, OPT_PLOT },
					    { "json", no_argument, 0, OPT_JSON },
					    { "help", no_argument, 0, 'h' },
					    { 0, 0, 0, 0 } };
	memset(o, 0, sizeof(*o));
	o->cores = 1;
	o->seed = 1;
	o->sim_iterations = 100000;
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
			else if (!strcasecmp(optarg, "ECM") || !strcasecmp(optarg, "ECMCPU") || !strcasecmp(optarg, "RooflineASM") ||
				 !strcasecmp(optarg, "RooflineIACA") || !strcasecmp(optarg, "Benchmark") || !strcasecmp(optarg, "Blocking"))
				usage_error("model", "model '%s' needs the in-core analysis, benchmark mode or blocking advice, which "
						     "this version does not have yet (available: LC, ECMData, Roofline)",
					    optarg);
			else
				usage_error("model", "unknown model '%s' (LC, ECMData, Roofline)", optarg);
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
			if (!strcasecmp(optarg, "lc"))
				o->predictor = PRED_LC;
			else if (!strcasecmp(optarg, "sim"))
				o->predictor = PRED_SIM;
			else
				usage_error("model", "--cache-predictor must be lc or sim, not '%s'", optarg);
			break;
		case OPT_CORES: {
			uint64_t v = parse_u64_opt("model", "--cores", optarg);
			if (v < 1 || v > 4096)
				usage_error("model", "--cores must be 1 to 4096");
			o->cores = (int)v;
			break;
		}
		case OPT_SEED:
			o->seed = parse_u64_opt("model", "--seed", optarg);
			break;
		case OPT_SIMIT: {
			uint64_t v = parse_u64_opt("model", "--sim-iterations", optarg);
			if (v < 1 || v > ((uint64_t)1 << 40))
				usage_error("model", "--sim-iterations must be 1 to 2^40");
			o->sim_iterations = (int64_t)v;
			break;
		}
		case OPT_PLOT:
			o->plot = optarg;
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
		if (model_ecm_data(m, &e->tr, &e->ecm, &err) == 0)
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

static void print_ecm(const struct eval *e)
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
	return r;
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
	mtree_free(&mt);
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
	if (sweep_sym < 0) {
		struct eval *e = calloc(1, sizeof(*e));
		if (!e || !(e->lc = calloc(1, sizeof(*e->lc))))
			die(EXIT_FAIL, "out of memory");
		evaluate(&o, k, m, vals, e);
		if (o.plot)
			note("--plot draws a sweep: give one constant as FROM:TO:STEP");
		if (o.json) {
			json_t *r = jeval(&o, k, m, e);
			json_object_set_new(r, "kernel", json_string(o.kernel));
			json_object_set_new(r, "machine_file", json_string(o.machine));
			json_object_set_new(r, "cache_predictor", json_string(o.predictor == PRED_LC ? "LC" : "SIM"));
			json_object_set_new(r, "cores", json_integer(o.cores));
			json_object_set_new(r, "flops_per_it", json_integer(kernel_flops(k)));
			cli_print_json("model", r);
		} else {
			print_kernel(&o, k, m, e);
			if (o.models & M_LC)
				print_lc(&o, k, m, e);
			print_traffic(&o, e);
			if (o.models & M_ECMDATA)
				print_ecm(e);
			if (o.models & M_ROOFLINE)
				print_roofline(k, m, e);
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
			json_object_set_new(r, "seconds", json_real(secs));
			json_object_set_new(r, "sizes", arr);
			cli_print_json("model", r);
		} else {
			printf("kernel: %s  machine: %s  cache predictor: %s  cores: %d\n", o.kernel, o.machine,
			       o.predictor == PRED_LC ? "LC" : "SIM", o.cores);
			struct table *t = table_new(4, D->name, "ECMData cy/CL", "sum cy/CL", "Roofline cy/CL");
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
			}
			table_print(t, stdout, "");
			table_free(t);
			printf("%d sizes in %.3f s\n", n, secs);
			if (!rows[0].have_ecm && rows[0].ecm_error[0])
				note("ECMData: %s", rows[0].ecm_error);
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
	kernel_free(k);
	free(m);
	if (fflush(stdout) || ferror(stdout))
		die(EXIT_FAIL, "cannot write the output");
	return EXIT_OK;
}
