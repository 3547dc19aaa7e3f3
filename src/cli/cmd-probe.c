/* archscope probe: the probe table and its runner. Each group measures one property of the
 * machine; answers are printed beside what the OS reports, never taken from it. */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/steps.h"
#include "cli/cli.h"
#include "cli/probe.h"
#include "common/cpuset.h"
#include "probe/clock.h"
#include "probe/memory.h"
#include "report/csv.h"
#include "report/mtree.h"
#include "report/output.h"
#include "report/plot.h"

static const struct probe_row probes[] = {
	{ "clock", "core clock by a dependent add chain, and the TSC rate", probe_row_clock },
	{ "line", "cache line size from access pairs D bytes apart (BlackjackBench 3.1.1)", probe_row_line },
	{ "caches", "cache levels, sizes and latencies by pointer chasing + QT clustering (3.1.2)", probe_row_caches },
	{ "assoc", "associativity of each measured level (3.1.3)", probe_row_assoc },
	{ "tlb", "TLB page size and entries per TLB level (3.2)", probe_row_tlb },
	{ "instr", "latency, throughput and ops in flight of add/sub/mul/div/fma, FLOPs per cycle (3.3)", probe_row_instr },
	{ "contexts", "FP, integer and memory execution contexts (3.4)", probe_row_contexts },
	{ "registers", "usable integer and FP registers from live ranges K = 3..132 (3.5)", probe_row_registers },
	{ "timeslice", "the scheduler's time slice, with its distribution (3.6)", probe_row_timeslice },
	{ "c2c", "core-to-core bandwidth and latency, and the locality tree (3.1.4)", probe_row_c2c },
};
#define NPROBES (sizeof(probes) / sizeof(probes[0]))

static const char usage_head[] =
	"usage: archscope probe [options] [GROUP...]\n"
	"\n"
	"Measures the effective hardware. With no GROUP, runs them all. The OS-reported value is\n"
	"printed beside each answer (os_reported); it never decides the answer.\n"
	"\n"
	"groups:\n";
static const char usage_tail[] =
	"\n"
	"options:\n"
	"  --cpu N           pin the probe thread to CPU N (default: the first allowed CPU)\n"
	"  --quick           fewer repetitions and passes: an answer in a few seconds\n"
	"  --seed N          seed for the random permutations (default: from the clock; always printed)\n"
	"  --raw DIR         save every measured curve as CSV in DIR (for `archscope analyze`)\n"
	"  --plot DIR        draw the curves with gnuplot into DIR (SVG and PNG)\n"
	"  --json            one JSON object: {\"archscope\", \"command\", \"machine\", \"results\"}\n"
	"  -o, --output FILE run every group and the streaming benchmarks per level and core count, and\n"
	"                    write the machine file FILE (YAML, Kerncraft's keys plus 'archscope:')\n"
	"  --from-raw DIR    with -o: write the machine file from DIR/probe-results.json and\n"
	"                    DIR/benchmarks.json of an earlier 'probe -o FILE --raw DIR', measuring nothing\n"
	"  -h, --help        this help\n";

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	if (interrupted) /* second Ctrl-C: leave at once */
		_exit(130);
	interrupted = 1;
}

static void print_usage(FILE *out)
{
	fputs(usage_head, out);
	for (size_t i = 0; i < NPROBES; i++)
		fprintf(out, "  %-10s %s\n", probes[i].name, probes[i].summary);
	fputs(usage_tail, out);
}

void probe_save_raw(struct probe_ctx *ctx, const char *name, const char *header, const double *data,
		    size_t n, int ncols)
{
	if (!ctx->raw_dir)
		return;
	char path[4096];
	struct as_error err = { 0 };
	snprintf(path, sizeof(path), "%s/%s.csv", ctx->raw_dir, name);
	if (csv_write(path, header, data, n, ncols, &err) != 0)
		note("%s", err.msg);
}

void probe_save_curve(struct probe_ctx *ctx, const char *name, const char *header, const struct probe_curve *c)
{
	if (!ctx->raw_dir)
		return;
	double *rows = malloc(c->n * 3 * sizeof(double) + 1);
	if (!rows) {
		note("%s: out of memory for the raw curve", name);
		return;
	}
	for (size_t i = 0; i < c->n; i++) {
		rows[3 * i] = c->x[i];
		rows[3 * i + 1] = c->min_ns[i];
		rows[3 * i + 2] = c->median_ns[i];
	}
	probe_save_raw(ctx, name, header, rows, c->n, 3);
	free(rows);
}

void probe_plot(struct probe_ctx *ctx, const char *name, const char *body)
{
	if (!ctx->plot_dir)
		return;
	struct as_error err = { 0 };
	int rc = plot_render(ctx->plot_dir, name, body, &err);
	if (rc == 1)
		note("gnuplot is not installed: wrote %s/%s.gp and its data, but no picture", ctx->plot_dir, name);
	else if (rc < 0)
		note("%s", err.msg);
}

void probe_progress(void *unused, const char *probe, const char *point, int done, int total)
{
	(void)unused;
	progress("probe %s: %s (%d/%d)", probe, point, done + 1, total);
}

double *probe_monotone_min(const double *min_ns, size_t n)
{
	double *y = malloc((n ? n : 1) * sizeof(double));
	if (!y)
		die(EXIT_FAIL, "out of memory");
	steps_monotone(min_ns, y, n);
	return y;
}

json_t *probe_answer_json(const struct probe_answer *a, int os_int)
{
	json_t *os = NULL;
	if (isfinite(a->os_reported))
		os = os_int ? json_integer((json_int_t)a->os_reported) : json_real(a->os_reported);
	return output_answer(a->value, a->unit, a->confidence, a->method, os);
}

/* The clock's JSON under results, and its text unless text is 0. */
static void clock_render(struct probe_ctx *ctx, const struct probe_clock_result *r, int text)
{
	json_t *o = probe_answer_json(&r->clock, 0);
	json_object_set_new(o, "median_ghz", json_real(r->median_ghz));
	json_object_set_new(o, "adds_per_repetition", json_integer((json_int_t)r->adds));
	json_object_set_new(o, "repetitions", json_integer(r->reps));
	json_object_set_new(o, "tsc_ghz", r->tsc_ghz > 0 ? json_real(r->tsc_ghz) : json_null());
	json_object_set_new(o, "cpu", json_integer(r->cpu));
	json_object_set_new(ctx->results, "clock", o);
	if (!text)
		return;
	double ghz = r->clock.value, os = r->clock.os_reported;
	printf("clock\n");
	printf("  core clock      %.3f GHz (median %.3f GHz, %d repetitions of %llu dependent adds)\n", ghz,
	       r->median_ghz, r->reps, (unsigned long long)r->adds);
	printf("  method          %s\n", r->clock.method);
	if (r->tsc_ghz > 0)
		printf("  TSC rate        %.3f GHz (time-stamp counter ticks, not core cycles)\n", r->tsc_ghz);
	if (isfinite(os))
		printf("  os_reported     %.3f GHz (/proc/cpuinfo 'cpu MHz')%s\n", os,
		       os > ghz * 1.05 || os < ghz * 0.95 ? "  <- differs from the measured clock" : "");
	printf("\n");
}

int probe_row_clock(struct probe_ctx *ctx)
{
	struct probe_clock_result r;
	progress("probe clock: dependent add chain on cpu %d ...", ctx->env.cpu);
	probe_clock_find(&ctx->env, &r);
	progress_done();
	clock_render(ctx, &r, !ctx->json);
	return 0;
}

/* Cycle counts need the clock: a quick one, in the JSON but not the text, when the clock group
 * does not run. */
static void clock_first(struct probe_ctx *ctx)
{
	struct probe_env quick = ctx->env;
	quick.quick = 1;
	struct probe_clock_result r;
	progress("probe clock: dependent add chain on cpu %d ...", quick.cpu);
	probe_clock_find(&quick, &r);
	progress_done();
	ctx->env.clock_ghz = quick.clock_ghz;
	ctx->env.tsc_ghz = quick.tsc_ghz;
	clock_render(ctx, &r, 0);
}

int cmd_probe(int argc, char **argv)
{
	enum { OPT_CPU = 256, OPT_QUICK, OPT_SEED, OPT_RAW, OPT_PLOT, OPT_JSON, OPT_FROM_RAW };
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "quick", no_argument, NULL, OPT_QUICK },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "raw", required_argument, NULL, OPT_RAW },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "output", required_argument, NULL, 'o' },
		{ "from-raw", required_argument, NULL, OPT_FROM_RAW },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct probe_ctx ctx = { .env = { .cpu = -1, .seed = rng_seed_from_time() } };
	const char *out_path = NULL, *from_raw = NULL;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out_path = optarg; break;
		case OPT_FROM_RAW: from_raw = optarg; break;
		case OPT_CPU: ctx.env.cpu = (int)parse_u64_opt("probe", "--cpu", optarg); break;
		case OPT_QUICK: ctx.env.quick = 1; break;
		case OPT_SEED: ctx.env.seed = parse_u64_opt("probe", "--seed", optarg); break;
		case OPT_RAW: ctx.raw_dir = optarg; break;
		case OPT_PLOT: ctx.plot_dir = optarg; break;
		case OPT_JSON: ctx.json = 1; break;
		case 'h': print_usage(stdout); return EXIT_OK;
		default:
			if (optopt)
				usage_error("probe", "option '%s' needs a value", argv[optind - 1]);
			usage_error("probe", "unknown option '%s'", argv[optind - 1]);
		}
	}
	int selected[NPROBES] = { 0 }, any = 0;
	for (int i = optind; i < argc; i++) {
		int found = 0;
		for (size_t k = 0; k < NPROBES; k++)
			if (strcmp(argv[i], probes[k].name) == 0 || strcmp(argv[i], "all") == 0) {
				selected[k] = 1;
				found = any = 1;
			}
		if (!found) {
			char list[512] = "";
			for (size_t k = 0; k < NPROBES; k++) {
				strcat(list, k ? ", " : "");
				strcat(list, probes[k].name);
			}
			usage_error("probe", "unknown probe group '%s' (groups: %s)", argv[i], list);
		}
	}
	if (out_path && any)
		usage_error("probe", "-o runs every group: give no GROUP");
	if (from_raw && !out_path)
		usage_error("probe", "--from-raw needs -o FILE");
	if (!any)
		for (size_t k = 0; k < NPROBES; k++)
			selected[k] = 1;
	json_t *bench_saved = NULL, *loaded = NULL;
	if (from_raw) {
		char path[4096];
		json_error_t je;
		snprintf(path, sizeof(path), "%s/probe-results.json", from_raw);
		loaded = json_load_file(path, 0, &je);
		if (!loaded || !json_is_object(loaded))
			usage_error("probe", "--from-raw: %s: %s", path, loaded ? "not a JSON object" : je.text);
		snprintf(path, sizeof(path), "%s/benchmarks.json", from_raw);
		bench_saved = json_load_file(path, 0, &je);
		if (!bench_saved)
			note("--from-raw: no %s (%s): the file will have no benchmarks section", path, je.text);
		for (size_t k = 0; k < NPROBES; k++)
			selected[k] = 0;
	}

	struct as_error err = { 0 };
	struct as_cpulist allowed;
	if (cpulist_allowed(&allowed, &err) != 0)
		die_err(EXIT_FAIL, &err);
	if (ctx.env.cpu < 0) {
		ctx.env.cpu = allowed.cpu[0];
	} else {
		struct as_cpulist one = { .n = 1, .cpu = { ctx.env.cpu } };
		if (cpulist_check_allowed(&one, &allowed, &err) != 0)
			usage_error("probe", "--cpu: %s", err.msg);
	}
	const char *dirs[] = { ctx.raw_dir, ctx.plot_dir };
	for (int i = 0; i < 2; i++)
		if (dirs[i] && plot_dir_prepare(dirs[i], &err) != 0)
			die_err(EXIT_FAIL, &err);
	ctx.env.allowed = allowed;
	if (cpu_pin_self(ctx.env.cpu, &err) != 0)
		die_err(EXIT_FAIL, &err);

	struct topo topo;
	if (topo_load(&topo, &err) != 0) {
		note("no OS-reported topology (%s); answers are measured anyway", err.msg);
		memset(&topo, 0, sizeof(topo));
	}
	ctx.env.topo = &topo;
	ctx.results = loaded ? loaded : json_object();
	ctx.env.interrupted = (volatile int *)&interrupted;
	struct sigaction sa = { .sa_handler = on_sigint };
	sigaction(SIGINT, &sa, NULL);

	if (!ctx.json)
		printf("archscope probe on cpu %d (seed %llu)\n\n", ctx.env.cpu, (unsigned long long)ctx.env.seed);
	json_object_set_new(ctx.results, "cpu", json_integer(ctx.env.cpu));
	json_object_set_new(ctx.results, "seed", json_integer((json_int_t)ctx.env.seed));
	int rc = 0;
	if (!selected[0] && !loaded)
		clock_first(&ctx);
	for (size_t k = 0; k < NPROBES && !interrupted; k++) {
		if (!selected[k])
			continue;
		if (out_path)
			progress("probe -o: group %zu/%zu (%s), then the streaming benchmarks ...", k + 1, NPROBES, probes[k].name);
		int r = probes[k].run(&ctx);
		if (r && !rc)
			rc = r;
	}
	if (interrupted) {
		json_object_set_new(ctx.results, "incomplete", json_true());
		note("interrupted: printing what was measured so far");
	}
	if (out_path) {
		if (ctx.env.clock_ghz == 0)
			ctx.env.clock_ghz = json_number_value(json_object_get(json_object_get(ctx.results, "clock"), "value"));
		int had_bench = bench_saved != NULL;
		json_t *m = probe_machine_build(&ctx, 1, &bench_saved);
		if (interrupted)
			json_object_set_new(json_object_get(m, "archscope"), "incomplete", json_true());
		if (ctx.raw_dir && !from_raw) {
			char path[4096];
			snprintf(path, sizeof(path), "%s/probe-results.json", ctx.raw_dir);
			if (output_write_file(path, ctx.results, 0, &err) != 0)
				note("%s", err.msg);
			snprintf(path, sizeof(path), "%s/benchmarks.json", ctx.raw_dir);
			if (bench_saved && !had_bench && output_write_file(path, bench_saved, 0, &err) != 0)
				note("%s", err.msg);
		}
		json_decref(bench_saved);
		struct mtree t = { .root = mnode_from_json(m) };
		char host[256] = "";
		gethostname(host, sizeof(host) - 1);
		if (asprintf(&t.header, "# machine file written by archscope %s 'probe -o' on %s%s\n# measured values; "
					"assumptions are listed under archscope.assumed\n",
			     ARCHSCOPE_VERSION, host, interrupted ? " (INCOMPLETE: interrupted)" : "") < 0)
			t.header = NULL;
		json_decref(m);
		if (!t.root || mtree_write_file(&t, out_path, &err) != 0) {
			mtree_free(&t);
			die_err(EXIT_FAIL, &err);
		}
		mtree_free(&t);
		note("wrote the machine file %s%s", out_path, interrupted ? " (incomplete: interrupted)" : "");
	}
	if (ctx.json)
		cli_print_json("probe", ctx.results);
	else
		json_decref(ctx.results);
	topo_release(&topo);
	return interrupted ? 130 : rc;
}
