/* archscope bench: streaming kernels per working-set size and thread count (ECM paper,
 * likwid-bench). Bandwidth as the application sees it and as the memory system moves it, core
 * cycles per cache line at the measured clock, flop/s, and the spread of the repetitions. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "bench/run.h"
#include "cli/cmd-bench.h"
#include "cli/cli.h"
#include "cli/parse-options.h"
#include "common/buffer.h"
#include "probe/caches.h"
#include "probe/env.h"
#include "probe/clock.h"
#include "report/emit.h"
#include "report/plot.h"

static volatile sig_atomic_t bench_interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	if (bench_interrupted)
		_exit(130);
	bench_interrupted = 1;
}

/* The kernels' names, from the table's scalar rows: "load store copy ...". */
static const char *kernel_names(char *buf, size_t len)
{
	size_t n, w = 0;
	const struct bench_kernel *t = bench_kernel_table(&n);
	buf[0] = '\0';
	for (size_t i = 0; i < n && w < len; i++)
		if (!strcmp(t[i].variant, "scalar"))
			w += (size_t)snprintf(buf + w, len - w, "%s%s", w ? " " : "", t[i].name);
	return buf;
}

/* The kernel `name` in `variant` (NULL: the widest this CPU runs); NULL after a usage error. */
static const struct bench_kernel *pick(const char *name, const char *variant)
{
	char names[256];
	const struct bench_kernel *k = bench_kernel_best(name);
	if (!k)
		error_usage("bench", "unknown kernel '%s' (kernels: %s)", name, kernel_names(names, sizeof(names)));
	else if (variant && !(k = bench_kernel_find(name, variant)))
		error_usage("bench", "kernel '%s' has no variant '%s' (see --list)", name, variant);
	else if (!bench_kernel_supported(k))
		error_usage("bench", "this CPU cannot run %s-%s (needs %s)", k->name, k->variant, k->isa);
	else
		return k;
	return NULL;
}

/* --list: the kernel table with what this CPU runs. */
static void list_render(struct emit *e)
{
	size_t n;
	const struct bench_kernel *t = bench_kernel_table(&n);
	emit_table_begin(e, "kernels", "");
	for (size_t i = 0; i < n; i++) {
		const struct bench_kernel *k = &t[i];
		emit_row_begin(e);
		emit_string(e, "kernel", "kernel", k->name);
		emit_string(e, "variant", "variant", k->variant);
		if (!bench_kernel_supported(k))
			emit_annotate(e, " (not on this CPU)");
		emit_string(e, "formula", "formula", k->formula);
		emit_int(e, "reads", "read", k->reads, NULL);
		emit_int(e, "writes", "write", k->writes, NULL);
		emit_int(e, "read_writes", "read+write", k->rws, NULL);
		emit_int(e, "bytes_per_it", "bytes/it", bench_bytes_app(k), "B");
		emit_int(e, "bytes_real_per_it", "with write-allocate", bench_bytes_real(k), "B");
		emit_int(e, "flops_per_it", "flops/it", k->flops, NULL);
		emit_bool(e, "nontemporal", NULL, k->nontemporal);
		emit_bool(e, "supported", NULL, bench_kernel_supported(k));
		emit_row_end(e);
	}
	emit_table_end(e);
}

/* What completion offers for --level (any level the quick probe finds is taken). */
static const char *const level_suggest[] = { "L1", "L2", "L3", "MEM", NULL };

/* Whether --level names a level: L1, L2, ... (up to L8) or MEM, in either case. */
static int level_valid(const char *s)
{
	return !strcasecmp(s, "MEM") || ((s[0] == 'L' || s[0] == 'l') && s[1] >= '1' && s[1] <= '8' && !s[2]);
}

int cli_bench_levels(const char *cmd, int cpu, volatile int *stop, struct bench_levels *out, struct probe_env *env_out)
{
	struct probe_env env;
	struct probe_caches_result r;
	struct as_error err = { 0 };
	if (probe_env_init(&env, cpu, 1, 1, stop, NULL, 0, &err) != 0 || probe_env_pin(&env, &err) != 0) {
		probe_env_release(&env);
		return error_err(&err), EXIT_FAIL;
	}
	progress("%s: quick cache probe to size the memory levels ...", cmd);
	int rc = probe_caches_find(&env, NULL, &(struct probe_caches_params){ HUGE_NEVER, (size_t)256 << 20 }, &r, &err);
	progress_done();
	probe_caches_result_release(&r);
	probe_env_release(&env);
	if (env_out)
		*env_out = env;
	if (rc != 0)
		return error_err(&err), EXIT_FAIL;
	if (stop && *stop)
		return error("%s: interrupted during the cache probe", cmd), 130;
	if (env.nlevels < 1)
		return error("%s: the quick cache probe found no cache level; give -s SIZE", cmd), EXIT_FAIL;
	bench_levels_from(env.level_bytes, env.nlevels, out);
	return 0;
}

/* The team for `threads` threads or --cpus LIST (default one thread). 0, or an exit code after
 * error(). */
static int team_cpus(const struct cli_bench_opts *o, int threads, struct as_cpulist *cpus)
{
	struct as_error err = { 0 };
	struct as_cpulist allowed;
	if (cpulist_allowed(&allowed, &err) != 0)
		return error_err(&err), EXIT_FAIL;
	if (o->cpus_text && threads)
		return error_usage("bench", "give -t N or --cpus LIST, not both"), EXIT_USAGE;
	if (o->cpus_text) {
		if (cpulist_parse(o->cpus_text, cpus, &err) != 0 || cpulist_check_allowed(cpus, &allowed, &err) != 0)
			return error_usage("bench", "--cpus: %s", err.msg), EXIT_USAGE;
		return 0;
	}
	if (threads == 0)
		threads = o->scaling ? (allowed.n > 64 ? 64 : allowed.n) : 1;
	if (threads > allowed.n && !o->over)
		return error_usage("bench", "%d threads but only %d allowed CPUs (add --oversubscribe to allow it)", threads,
				   allowed.n), EXIT_USAGE;
	if (threads > 64)
		return error_usage("bench", "--threads: at most 64"), EXIT_USAGE;
	cpus->n = threads;
	for (int i = 0; i < cpus->n; i++)
		cpus->cpu[i] = allowed.cpu[i % allowed.n];
	return 0;
}

/* --ecm [KERNEL...] and --threads-scaling [KERNEL]: the working sets come from the quick cache
 * probe, one per level. load and store calibrate the ECM model, so --ecm measures them always,
 * first. */
static int bench_views(struct cli_bench_opts *o, int nnames, char **names)
{
	static const char *const ecm_default[] = { "load", "store", "copy", "stream", "triad" };
	const char *what = o->ecm ? "--ecm" : "--threads-scaling";
	if (o->size_text || o->level || o->sweep || o->plot_dir)
		return error_usage("bench", "%s sizes the working sets itself (one per level): no -s, --level, --sweep or --plot",
				   what), EXIT_USAGE;
	if (o->ecm && (o->threads > 1 || (o->cpus_text && strpbrk(o->cpus_text, ",-"))))
		return error_usage("bench", "--ecm models one core: give one CPU (--cpus N); --threads-scaling runs several"),
		       EXIT_USAGE;
	if (o->ecm && o->variant && strstr(o->variant, "-nt"))
		return error_usage("bench", "--ecm: the model is calibrated with the load and store kernels, which have no "
					    "non-temporal variant; give a variant without -nt"), EXIT_USAGE;
	if (!o->ecm && nnames > 1)
		return error_usage("bench", "--threads-scaling: one kernel at a time ('%s' is extra)", names[1]), EXIT_USAGE;
	struct as_cpulist cpus = { 0 };
	int rc = team_cpus(o, o->ecm ? 0 : o->threads, &cpus);
	if (rc)
		return rc;
	const struct bench_kernel *ks[16];
	int nk = 0;
	if (o->ecm) {
		if (!(ks[nk++] = pick("load", o->variant)) || !(ks[nk++] = pick("store", o->variant)))
			return EXIT_USAGE;
		if (nnames == 0) {
			names = (char **)ecm_default;
			nnames = (int)(sizeof(ecm_default) / sizeof(ecm_default[0]));
		}
	}
	for (int i = 0; i < (nnames ? nnames : 1); i++) {
		const struct bench_kernel *k = pick(nnames ? names[i] : "stream", o->variant);
		if (!k)
			return EXIT_USAGE;
		int dup = 0;
		for (int j = 0; j < nk; j++)
			dup |= ks[j] == k;
		if (!dup && nk < 16)
			ks[nk++] = k;
	}
	struct bench_levels lv;
	cli_bench_line(o, cpus.cpu[0]);
	if (o->ecm && !(o->line_bytes > 0))
		return error("bench --ecm: the model counts cache lines, and no line size is known"), EXIT_FAIL;
	if ((rc = cli_bench_levels("bench", cpus.cpu[0], o->stop, &lv, NULL)) != 0)
		return rc;
	return o->ecm ? cli_bench_ecm(o, ks, nk, &lv, cpus.cpu[0]) : cli_bench_threads_scaling(o, ks[0], &lv, &cpus);
}

/* Plain runs: one kernel at one size, or a sweep of sizes. */
struct bench_runs {
	const struct cli_bench_opts *o;
	const struct bench_kernel *k;
	struct as_cpulist cpus;
	char cpulist[256];
	double clock_ghz;
	int reps;              /* as run: a sweep runs 3 of >= 0.05 s */
	double min_time_s;
	size_t size[64];
	int nsizes, n;         /* sizes asked for, runs done */
	struct bench_result run[64];
};

static void stat_cell_render(struct emit *e, const char *key, const char *label, const struct bench_stat *s, const char *unit)
{
	emit_stat(e, key, label, &(struct emit_stat){ s->min, s->median, s->max }, unit, "%.2f");
}

static void runs_render(struct emit *e, const struct bench_runs *r)
{
	const struct bench_kernel *k = r->k;
	emit_heading(e, "archscope bench %s-%s (%s): %d read, %d write, %d read+write streams; %d B and %d flops per "
			"iteration", k->name, k->variant, k->formula, k->reads, k->writes, k->rws, bench_bytes_app(k), k->flops);
	emit_text(e, "cpus", "%s", r->cpulist);
	emit_text(e, "repetitions", "%d of >= %.2g s, median ± half the spread", r->reps, r->min_time_s);
	emit_table_begin(e, "runs", "");
	for (int i = 0; i < r->n; i++) {
		const struct bench_result *x = &r->run[i];
		emit_row_begin(e);
		emit_string(e, "kernel", NULL, k->name);
		emit_string(e, "variant", NULL, k->variant);
		emit_size(e, "size_bytes", "size", x->size_bytes);
		emit_int(e, "threads", "threads", x->threads, NULL);
		emit_string(e, "cpus", NULL, r->cpulist);
		stat_cell_render(e, "gbs", "bandwidth", &x->gbs, "GB/s");
		stat_cell_render(e, "gbs_real", "with write-allocate", &x->gbs_real, "GB/s");
		stat_cell_render(e, "cy_per_cl", "cycles", &x->cy_per_cl, "cy/CL");
		stat_cell_render(e, "gflops", "flops", &x->gflops, "GFLOP/s");
		emit_number(e, "spread", NULL, x->spread, NULL, NULL);
		emit_number(e, "huge_fraction", NULL, x->huge_fraction, NULL, NULL);
		emit_int(e, "sweeps_per_rep", NULL, (long long)x->sweeps, NULL);
		emit_int(e, "reps", NULL, x->reps, NULL);
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_number(e, "clock_ghz", "clock", r->clock_ghz, "GHz", "%.3f");
	emit_number(e, "line_bytes", "cache line", r->o->line_bytes > 0 ? r->o->line_bytes : NAN, "B", "%.0f");
	if (r->o->line_bytes > 0)
		emit_annotate(e, " (%s)", r->o->line_from);
	emit_string(e, "cycles", "cycles", "core cycles of the measured clock per cache line (line / 8 B iterations) per thread");
	emit_string(e, "formula", NULL, k->formula);
	emit_string(e, "pages", "pages", r->o->small_pages ? "4k" : "huge");
	emit_int(e, "stream_offset_bytes", "stream offset", (long long)bench_stream_offset(r->o->stream_offset), "B");
	if (bench_interrupted)
		emit_bool(e, "incomplete", NULL, 1);
}

/* --plot DIR with --sweep: bandwidth against working set, as the application counts it and with
 * write-allocate. */
static int runs_plot(const struct bench_runs *r, const char *dir)
{
	char path[4096], *body = NULL;
	struct as_error err = { 0 };
	snprintf(path, sizeof(path), "%s/bench-sweep.dat", dir);
	struct atomic_file af;
	FILE *dat = plot_data_open(path, &af);
	for (int i = 0; dat && i < r->n; i++)
		fprintf(dat, "%zu %.6g %.6g\n", r->run[i].size_bytes, r->run[i].gbs.median, r->run[i].gbs_real.median);
	if (!dat || plot_data_close(&af) != 0) {
		error("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	if (asprintf(&body,
		     "set title 'archscope bench %s-%s on cpus %s: bandwidth against working set'\n"
		     "set xlabel 'working set (bytes; k = 1024)'\nset ylabel 'GB/s'\nset format x '%%.0b%%B'\n"
		     "set logscale x 2\nset grid\nset key top right\n"
		     "plot 'bench-sweep.dat' using 1:2 with linespoints title 'application', '' using 1:3 with linespoints title 'with write-allocate'",
		     r->k->name, r->k->variant, r->cpulist) < 0)
		return error("out of memory");
	int pr = plot_render(dir, "bench-sweep", body, &err);
	cli_plot_done(pr, dir, "bench-sweep", &err);
	free(body);
	return pr < 0 ? -1 : 0;
}

/* The working sets of a plain run: -s SIZE, --level LEVEL, or --sweep. 0, or an exit code. */
static int runs_sizes(const struct cli_bench_opts *o, struct bench_runs *r)
{
	struct as_error err = { 0 };
	if (o->size_text) {
		if (buffer_parse_size(o->size_text, &r->size[0], &err) != 0)
			return error_usage("bench", "-s: %s", err.msg), EXIT_USAGE;
		size_t least = bench_round_size(r->k, 0, r->cpus.n);
		if (r->size[0] < least) {
			char a[32];
			return error_usage("bench", "-s %s: %s-%s on %d thread%s needs at least %s", o->size_text, r->k->name,
					   r->k->variant, r->cpus.n, r->cpus.n == 1 ? "" : "s",
					   buffer_format_size(least, a, sizeof(a))), EXIT_USAGE;
		}
		r->nsizes = 1;
	} else if (o->level) {
		struct bench_levels lv;
		int rc = cli_bench_levels("bench", r->cpus.cpu[0], o->stop, &lv, NULL);
		for (int i = 0; rc == 0 && i < lv.n && !r->nsizes; i++)
			if (!strcasecmp(lv.name[i], o->level))
				r->size[r->nsizes++] = lv.size[i];
		if (rc || r->nsizes)
			return rc;
		return error_usage("bench", "--level %s: the quick cache probe measured %d cache level%s (L1 to L%d, then MEM)",
				   o->level, lv.n - 1, lv.n > 2 ? "s" : "", lv.n - 1), EXIT_USAGE;
	} else {
		/* 4 KiB x 1, 1.5, 2, 3, 4, ...: two sizes per octave. */
		for (size_t s = 4096; s <= ((size_t)1 << 30) && r->nsizes < 64; s = r->nsizes % 2 ? s * 3 / 2 : s * 4 / 3)
			r->size[r->nsizes++] = s;
	}
	size_t avail = buffer_mem_available();
	for (int i = 0; i < r->nsizes; i++)
		if (avail && r->size[i] > avail / 10 * 9) {
			char a[32], b[32];
			return error_usage("bench", "a working set of %s does not fit in the %s of available memory",
					   buffer_format_size(r->size[i], a, sizeof(a)), buffer_format_size(avail, b, sizeof(b))),
			       EXIT_USAGE;
		}
	return 0;
}

/* KERNEL with -s, --level or --sweep: measures, renders, plots. Returns the exit code. */
static int bench_plain(struct cli_bench_opts *o, int nnames, char **names)
{
	char list[256];
	if (nnames != 1)
		return error_usage("bench", nnames ? "one kernel at a time ('%s' is extra)"
						   : "no kernel given (kernels: %s; --list)",
				   nnames ? names[1] : kernel_names(list, sizeof(list))), EXIT_USAGE;
	struct bench_runs r = { .o = o, .k = pick(names[0], o->variant) };
	if (!r.k)
		return EXIT_USAGE;
	if (!!o->size_text + !!o->level + o->sweep != 1)
		return error_usage("bench", "give exactly one of -s SIZE, --level LEVEL, --sweep"), EXIT_USAGE;
	if (o->plot_dir && !o->sweep)
		return error_usage("bench", "--plot needs --sweep"), EXIT_USAGE;
	if (cli_output_dir_check("bench", "--plot", o->plot_dir) != 0)
		return EXIT_USAGE;
	if (o->level && !level_valid(o->level))
		return error_usage("bench", "--level %s: a cache level L1, L2, ... or MEM", o->level), EXIT_USAGE;
	int rc = team_cpus(o, o->threads, &r.cpus);
	if (rc)
		return rc;
	cli_bench_line(o, r.cpus.cpu[0]);
	if ((rc = runs_sizes(o, &r)) != 0)
		return rc;
	struct as_error err = { 0 };
	cpulist_format(&r.cpus, r.cpulist, sizeof(r.cpulist));
	r.reps = o->sweep ? 3 : o->reps;
	r.min_time_s = o->sweep ? fmin(o->min_time_s, 0.05) : o->min_time_s;

	/* the clock for cycles per cache line, on the first CPU of the team */
	cpu_pin_self(r.cpus.cpu[0], NULL);
	struct clock_result clk;
	clock_measure(&clk, 5);
	r.clock_ghz = clk.ghz;
	for (int i = 0; i < r.nsizes && !bench_interrupted && rc == 0; i++) {
		struct bench_opts bo = { .kernel = r.k, .size_bytes = r.size[i], .cpus = r.cpus, .reps = r.reps,
					 .min_time_s = r.min_time_s, .clock_ghz = clk.ghz, .line_bytes = o->line_bytes,
					 .small_pages = o->small_pages, .stream_offset = o->stream_offset };
		char sz[32];
		progress("bench %s-%s: %s on cpus %s (%d/%d)", r.k->name, r.k->variant,
			 buffer_format_size(r.size[i], sz, sizeof(sz)), r.cpulist, i + 1, r.nsizes);
		rc = bench_run(&bo, &r.run[r.n], &err) != 0 ? EXIT_FAIL : 0;
		progress_done();
		if (rc)
			error_err(&err);
		else
			r.n++;
	}
	if (o->plot_dir && runs_plot(&r, o->plot_dir) != 0 && rc == 0)
		rc = EXIT_FAIL; /* the picture asked for is not there */
	struct emit *e = emit_new(o->json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (!e)
		return error("out of memory"), EXIT_FAIL;
	runs_render(e, &r);
	int out = cli_emit_end(e, "bench");
	if (bench_interrupted) {
		note("interrupted: printed what was measured");
		return 130;
	}
	return rc ? rc : out;
}

static void kernels_print(FILE *out)
{
	char names[256];
	fprintf(out, "  %s\n  (--list: their streams, bytes and flops per iteration, and variants)\n",
		kernel_names(names, sizeof(names)));
}

/* The kernel names, one a line, for the shell completion. */
static void kernel_words(FILE *out)
{
	char names[256], *save = NULL;
	kernel_names(names, sizeof(names));
	for (char *w = strtok_r(names, " ", &save); w; w = strtok_r(NULL, " ", &save))
		fprintf(out, "%s\n", w);
}

static const struct opt_section bench_sections[] = {
	{ "kernels", NULL, kernels_print },
	{ NULL, NULL, NULL },
};
static const struct opt_cmd bench_cmd = {
	.name = "bench",
	.usage = (const char *const[]){ "archscope bench [options] KERNEL", "archscope bench --ecm [KERNEL...]",
					"archscope bench --threads-scaling [KERNEL]", "archscope bench --list", NULL },
	.description = "Runs a streaming kernel on pinned threads and reports bandwidth (GB/s as the application\n"
		       "sees it, and with write-allocate traffic), core cycles per cache line (line / 8 B iterations) at the\n"
		       "measured clock, and GFLOP/s (median ± half the spread); --plot DIR draws a --sweep.\n",
	.sections = bench_sections,
	.words = kernel_words,
};

int cmd_bench(int argc, char **argv)
{
	static const char *const pages[] = { "huge", "4k", NULL };
	struct cli_bench_opts o = { .reps = 5, .min_time_s = 0.1, .offset_bytes = BENCH_STREAM_OFFSET,
			       .stop = (volatile int *)&bench_interrupted };
	const struct opt options[] = {
		OPT_STRING('s', "size", &o.size_text, "SIZE", "working set of all streams together (kB/MB/GB = 1000^n, KiB/MiB/GiB = 1024^n)"),
		OPT_STRING(0, "level", &o.level, "LEVEL", "L1, L2, ... or MEM: a working set inside that level, from a quick cache probe",
			   .choices = level_suggest),
		OPT_FLAG(0, "sweep", &o.sweep, "sizes from 4 KiB to 1 GiB (two per octave): a bandwidth-against-size curve"),
		OPT_INT('t', "threads", &o.threads, "N", 1, 1 << 20, "N threads on the first N allowed CPUs"),
		OPT_STRING(0, "cpus", &o.cpus_text, "LIST", "threads on these CPUs (e.g. 0,1 or 0-3)"),
		OPT_FLAG(0, "oversubscribe", &o.over, "allow more threads than allowed CPUs"),
		OPT_STRING(0, "variant", &o.variant, "V",
			   "scalar, sse, avx2, avx2fma, avx512, with -nt for non-temporal stores (default: widest)"),
		OPT_INT(0, "reps", &o.reps, "N", 1, BENCH_MAX_REPS, "repetitions (default 5)"),
		OPT_CHOICE(0, "pages", &o.small_pages, NULL, pages, "huge (default: transparent huge pages asked for with madvise) or 4k"),
		OPT_U64(0, "offset", &o.offset_bytes, "B", 0, BENCH_MAX_OFFSET,
			"stream k starts k*B bytes into its page (multiple of 64; default 256, 0: none)"),
		OPT_DOUBLE(0, "min-time", &o.min_time_s, "S", 0, 100, "seconds per repetition at least (default 0.1)",
			   .flags = OPT_F_ABOVE_MIN),
		OPT_FLAG(0, "ecm", &o.ecm, "ECM model: predicted against measured core cycles per cache line in every\n"
					   "level (default kernels load store copy stream triad; one CPU)"),
		OPT_FLAG(0, "threads-scaling", &o.scaling, "GB/s in every level for 1..N threads (default kernel stream, "
							   "N = -t,\n--cpus or all allowed CPUs)"),
		OPT_FLAG(0, "list", &o.list, "the kernels, their streams, bytes and flops per iteration, and variants"),
		OPT_PLOT(&o.plot_dir),
		OPT_JSON(&o.json),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &bench_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (o.offset_bytes % 64)
		return error_usage("bench", "--offset: %llu bytes is not a multiple of 64", (unsigned long long)o.offset_bytes),
		       EXIT_USAGE;
	o.stream_offset = o.offset_bytes ? (int)o.offset_bytes : -1;
	if (o.list) {
		struct emit *e = emit_new(o.json ? EMIT_JSON : EMIT_TEXT, stdout);
		if (!e)
			return error("out of memory"), EXIT_FAIL;
		list_render(e);
		return cli_emit_end(e, "bench");
	}
	if (o.ecm && o.scaling)
		return error_usage("bench", "give --ecm or --threads-scaling, not both"), EXIT_USAGE;
	struct sigaction sa = { .sa_handler = on_sigint };
	sigaction(SIGINT, &sa, NULL);
	return o.ecm || o.scaling ? bench_views(&o, argc, argv) : bench_plain(&o, argc, argv);
}
