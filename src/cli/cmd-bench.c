/* archscope bench: streaming kernels per working-set size and thread count (ECM paper,
 * likwid-bench). Bandwidth as the application sees it and as the memory system moves it, core
 * cycles per cache line at the measured clock, flop/s, and the spread of the repetitions. */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/steps.h"
#include "bench/run.h"
#include "cli/bench.h"
#include "cli/cli.h"
#include "common/buffer.h"
#include "probe/clock.h"
#include "common/cpuset.h"
#include "probe/caches.h"
#include "report/output.h"
#include "report/plot.h"
#include "report/table.h"

static volatile sig_atomic_t bench_interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	if (bench_interrupted)
		_exit(130);
	bench_interrupted = 1;
}

static void print_usage(FILE *out)
{
	fputs("usage: archscope bench [options] KERNEL\n"
	      "       archscope bench --ecm [KERNEL...]\n"
	      "       archscope bench --threads-scaling [KERNEL]\n"
	      "       archscope bench --list\n"
	      "\n"
	      "Runs a streaming kernel on pinned threads and reports bandwidth (GB/s as the application\n"
	      "sees it, and with write-allocate traffic), core cycles per cache line (8 iterations) at the\n"
	      "measured clock, and GFLOP/s. Kernels: load store copy update stream triad daxpy sum ddot.\n"
	      "\n"
	      "options:\n"
	      "  -s, --size SIZE     working set of all streams together (kB/MB/GB = 1000^n, KiB/MiB/GiB = 1024^n)\n"
	      "  --level LEVEL       L1, L2, L3 or MEM: a working set inside that level, from a quick cache probe\n"
	      "  --sweep             sizes from 4 KiB to 1 GiB (two per octave): a bandwidth-against-size curve\n"
	      "  -t, --threads N     N threads on the first N allowed CPUs\n"
	      "  --cpus LIST         threads on these CPUs (e.g. 0,1 or 0-3)\n"
	      "  --oversubscribe     allow more threads than allowed CPUs\n"
	      "  --variant V         scalar, sse, avx2, avx2fma, avx512, with -nt for non-temporal stores (default: widest)\n"
	      "  --reps N            repetitions (default 5)\n"
	      "  --pages P           huge (default: transparent huge pages asked for with madvise) or 4k\n"
	      "  --offset B          stream k starts k*B bytes into its page (multiple of 64; default 256, 0: none)\n"
	      "  --min-time S        seconds per repetition at least (default 0.1)\n"
	      "  --ecm               ECM model: predicted against measured core cycles per cache line in every\n"
	      "                      level (default kernels load store copy stream triad; one CPU)\n"
	      "  --threads-scaling   GB/s in every level for 1..N threads (default kernel stream, N = -t,\n"
	      "                      --cpus or all allowed CPUs)\n"
	      "  --list              the kernels, their streams, bytes and flops per iteration, and variants\n"
	      "  --plot DIR          with --sweep: draw bandwidth against size into DIR\n"
	      "  --json              one JSON object: {\"archscope\", \"command\", \"machine\", \"results\"}\n"
	      "  -h, --help          this help\n",
	      out);
}

static const char *const kernel_names[] = { "load", "store", "copy", "update", "stream", "triad", "daxpy", "sum", "ddot" };

/* A kernel name or a usage error (exit 2). */
static void check_kernel_name(const char *name)
{
	for (size_t i = 0; i < sizeof(kernel_names) / sizeof(kernel_names[0]); i++)
		if (!strcmp(name, kernel_names[i]))
			return;
	usage_error("bench", "unknown kernel '%s' (kernels: load store copy update stream triad daxpy sum ddot)", name);
}

/* The kernel `name` in --variant (the widest this CPU runs without it), or a usage error. */
static const struct bench_kernel *pick(const char *name, const char *variant)
{
	const struct bench_kernel *k = variant ? bench_kernel_find(name, variant) : bench_kernel_best(name);
	if (!k)
		usage_error("bench", "kernel '%s' has no variant '%s' (see --list)", name, variant ? variant : "?");
	if (!bench_kernel_supported(k))
		usage_error("bench", "this CPU cannot run %s-%s (needs %s)", k->name, k->variant, k->isa);
	return k;
}

static int list_kernels(int json)
{
	size_t n;
	const struct bench_kernel *t = bench_kernel_table(&n);
	json_t *arr = json_array();
	struct table *tb = table_new(9, "kernel", "variant", "formula", "read", "write", "read+write", "bytes/it",
				     "bytes/it with WA", "flops/it");
	for (size_t i = 0; i < n; i++) {
		const struct bench_kernel *k = &t[i];
		int sup = bench_kernel_supported(k);
		json_array_append_new(arr, json_pack("{s:s,s:s,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:b,s:b}", "kernel", k->name, "variant",
						     k->variant, "formula", k->formula, "reads", k->reads, "writes", k->writes,
						     "read_writes", k->rws, "bytes_per_it", bench_bytes_app(k), "bytes_real_per_it",
						     bench_bytes_real(k), "flops_per_it", k->flops, "nontemporal", k->nontemporal,
						     "supported", sup));
		table_cell(tb, "%s", k->name);
		table_cell(tb, "%s%s", k->variant, sup ? "" : " (not on this CPU)");
		table_cell(tb, "%s", k->formula);
		table_cell(tb, "%d", k->reads);
		table_cell(tb, "%d", k->writes);
		table_cell(tb, "%d", k->rws);
		table_cell(tb, "%d", bench_bytes_app(k));
		table_cell(tb, "%d", bench_bytes_real(k));
		table_cell(tb, "%d", k->flops);
	}
	if (json) {
		cli_print_json("bench", json_pack("{s:o}", "kernels", arr));
	} else {
		json_decref(arr);
		table_print(tb, stdout, "");
	}
	table_free(tb);
	return EXIT_OK;
}

/* Runs the quick cache probe on `cpu` and fills one working set per level (bench_levels_from).
 * Exits on failure. */
static void levels_measure(int cpu, struct bench_levels *out)
{
	struct as_error err = { 0 };
	cpu_pin_self(cpu, NULL);
	progress("bench: quick cache probe to size the memory levels ...");
	struct probe_opts po = { .quick = 1, .seed = 1, .stop = (volatile int *)&bench_interrupted, .huge = HUGE_NEVER };
	struct probe_curve c;
	probe_curve_init(&c);
	if (probe_caches_run(&po, 64, (size_t)256 << 20, &c, &err) != 0) {
		progress_done();
		die_err(EXIT_FAIL, &err);
	}
	progress_done();
	if (bench_interrupted)
		die(130, "bench: interrupted during the cache probe");
	struct level lv[BENCH_MAX_LEVELS - 1];
	double mem_y, mem_last, bytes[BENCH_MAX_LEVELS - 1];
	int nl = steps_hierarchy(c.x, c.min_ns, c.n, lv, BENCH_MAX_LEVELS - 1, &mem_y, &mem_last);
	probe_curve_release(&c);
	if (nl < 1)
		die(EXIT_FAIL, "bench: the quick cache probe found no cache level; give -s SIZE");
	for (int i = 0; i < nl; i++)
		bytes[i] = lv[i].size;
	bench_levels_from(bytes, nl, out);
}

/* The working set for --level LEVEL. */
static size_t level_size(const char *level, int cpu)
{
	struct bench_levels lv;
	levels_measure(cpu, &lv);
	for (int i = 0; i < lv.n; i++)
		if (!strcmp(lv.name[i], level))
			return lv.size[i];
	usage_error("bench", "--level %s: the quick cache probe measured %d cache level%s", level, lv.n - 1,
		    lv.n > 2 ? "s" : "");
}

static json_t *stat_json(const struct bench_stat *s)
{
	return json_pack("{s:f,s:f,s:f}", "min", isfinite(s->min) ? s->min : 0.0, "median",
			 isfinite(s->median) ? s->median : 0.0, "max", isfinite(s->max) ? s->max : 0.0);
}

/* The team for -t N or --cpus LIST (default one thread); usage errors exit 2. */
static void team_cpus(long threads, const char *cpus_text, int over, struct as_cpulist *cpus)
{
	struct as_error err = { 0 };
	struct as_cpulist allowed;
	if (cpulist_allowed(&allowed, &err) != 0)
		die_err(EXIT_FAIL, &err);
	if (cpus_text && threads)
		usage_error("bench", "give -t N or --cpus LIST, not both");
	if (cpus_text) {
		if (cpulist_parse(cpus_text, cpus, &err) != 0)
			usage_error("bench", "--cpus: %s", err.msg);
		if (cpulist_check_allowed(cpus, &allowed, &err) != 0)
			usage_error("bench", "--cpus: %s", err.msg);
		return;
	}
	if (threads == 0)
		threads = 1;
	if (threads > allowed.n && !over)
		usage_error("bench", "%ld threads but only %d allowed CPUs (add --oversubscribe to allow it)", threads,
			    allowed.n);
	if (threads > 64)
		usage_error("bench", "--threads: at most 64");
	cpus->n = (int)threads;
	for (int i = 0; i < cpus->n; i++)
		cpus->cpu[i] = allowed.cpu[i % allowed.n];
}

static const char *const ecm_default[] = { "load", "store", "copy", "stream", "triad" };

/* --ecm [KERNEL...]: load and store calibrate the model, so they are measured always, first. */
static int ecm_view(const struct bench_cli *o, int nnames, const char *const *names, int cpu)
{
	if (nnames == 0) {
		names = ecm_default;
		nnames = (int)(sizeof(ecm_default) / sizeof(ecm_default[0]));
	}
	if (o->variant && strstr(o->variant, "-nt"))
		usage_error("bench", "--ecm: the model is calibrated with the load and store kernels, which have no "
				     "non-temporal variant; give a variant without -nt");
	const struct bench_kernel *ks[16];
	int nk = 0;
	ks[nk++] = pick("load", o->variant);
	ks[nk++] = pick("store", o->variant);
	for (int i = 0; i < nnames; i++) {
		const struct bench_kernel *k = pick(names[i], o->variant);
		int dup = 0;
		for (int j = 0; j < nk; j++)
			dup |= ks[j] == k;
		if (!dup && nk < 16)
			ks[nk++] = k;
	}
	struct bench_levels lv;
	levels_measure(cpu, &lv);
	return bench_ecm(o, ks, nk, &lv, cpu);
}

/* --ecm [KERNEL...] and --threads-scaling [KERNEL]: the working sets come from the quick cache
 * probe, one per level. */
static int bench_views(int argc, char **argv, int ecm, int sized, long threads, const char *cpus_text, int over,
		       const struct bench_cli *o)
{
	const char *what = ecm ? "--ecm" : "--threads-scaling";
	if (sized)
		usage_error("bench", "%s sizes the working sets itself (one per level): no -s, --level, --sweep or --plot", what);
	if (o->reps < 1 || o->reps > BENCH_MAX_REPS)
		usage_error("bench", "--reps: %d is not in 1..%d", o->reps, BENCH_MAX_REPS);
	for (int i = optind; i < argc; i++)
		check_kernel_name(argv[i]);
	struct as_cpulist cpus = { 0 };
	struct sigaction sa = { .sa_handler = on_sigint };
	sigaction(SIGINT, &sa, NULL);
	if (ecm) {
		if (threads > 1 || (cpus_text && strchr(cpus_text, ',')) || (cpus_text && strchr(cpus_text, '-')))
			usage_error("bench", "--ecm models one core: give one CPU (--cpus N); --threads-scaling runs several");
		team_cpus(0, cpus_text, over, &cpus);
		return ecm_view(o, argc - optind, (const char *const *)argv + optind, cpus.cpu[0]);
	}
	if (argc - optind > 1)
		usage_error("bench", "--threads-scaling: one kernel at a time ('%s' is extra)", argv[optind + 1]);
	if (threads == 0 && !cpus_text) {
		struct as_error err = { 0 };
		struct as_cpulist allowed;
		if (cpulist_allowed(&allowed, &err) != 0)
			die_err(EXIT_FAIL, &err);
		threads = allowed.n > 64 ? 64 : allowed.n;
	}
	team_cpus(threads, cpus_text, over, &cpus);
	const struct bench_kernel *k = pick(optind < argc ? argv[optind] : "stream", o->variant);
	struct bench_levels lv;
	levels_measure(cpus.cpu[0], &lv);
	return bench_threads_scaling(o, k, &lv, &cpus);
}

int cmd_bench(int argc, char **argv)
{
	enum { OPT_LEVEL = 256, OPT_SWEEP, OPT_CPUS, OPT_OVER, OPT_VARIANT, OPT_REPS, OPT_MINTIME, OPT_LIST, OPT_PLOT, OPT_JSON, OPT_ECM, OPT_SCALING, OPT_PAGES, OPT_OFFSET };
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "level", required_argument, NULL, OPT_LEVEL },
		{ "sweep", no_argument, NULL, OPT_SWEEP },
		{ "threads", required_argument, NULL, 't' },
		{ "cpus", required_argument, NULL, OPT_CPUS },
		{ "oversubscribe", no_argument, NULL, OPT_OVER },
		{ "variant", required_argument, NULL, OPT_VARIANT },
		{ "reps", required_argument, NULL, OPT_REPS },
		{ "min-time", required_argument, NULL, OPT_MINTIME },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "ecm", no_argument, NULL, OPT_ECM },
		{ "threads-scaling", no_argument, NULL, OPT_SCALING },
		{ "pages", required_argument, NULL, OPT_PAGES },
		{ "offset", required_argument, NULL, OPT_OFFSET },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *size_text = NULL, *level = NULL, *cpus_text = NULL, *variant = NULL, *plot_dir = NULL;
	int sweep = 0, over = 0, list = 0, json = 0, reps = 5, ecm = 0, scaling = 0, small_pages = 0;
	int stream_offset = 0;
	long threads = 0;
	double min_time = 0.1;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "s:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': size_text = optarg; break;
		case OPT_LEVEL: level = optarg; break;
		case OPT_SWEEP: sweep = 1; break;
		case 't': threads = (long)parse_u64_opt("bench", "--threads", optarg); break;
		case OPT_CPUS: cpus_text = optarg; break;
		case OPT_OVER: over = 1; break;
		case OPT_VARIANT: variant = optarg; break;
		case OPT_REPS: reps = (int)parse_u64_opt("bench", "--reps", optarg); break;
		case OPT_MINTIME: {
			char *end;
			min_time = strtod(optarg, &end);
			if (*end || !(min_time > 0 && min_time <= 100))
				usage_error("bench", "--min-time: '%s' is not a number of seconds in (0, 100]", optarg);
			break;
		}
		case OPT_LIST: list = 1; break;
		case OPT_PLOT: plot_dir = optarg; break;
		case OPT_JSON: json = 1; break;
		case OPT_ECM: ecm = 1; break;
		case OPT_SCALING: scaling = 1; break;
		case OPT_PAGES:
			if (strcmp(optarg, "huge") && strcmp(optarg, "4k"))
				usage_error("bench", "--pages: '%s' is not huge or 4k", optarg);
			small_pages = !strcmp(optarg, "4k");
			break;
		case OPT_OFFSET: {
			uint64_t b = parse_u64_range("bench", "--offset", optarg, 0, BENCH_MAX_OFFSET);
			if (b % 64)
				usage_error("bench", "--offset: %s bytes is not a multiple of 64", optarg);
			stream_offset = b ? (int)b : -1;
			break;
		}
		case 'h': print_usage(stdout); return EXIT_OK;
		default:
			if (optopt && optopt != '?')
				usage_error("bench", "option '%s' needs a value", argv[optind - 1]);
			usage_error("bench", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (list)
		return list_kernels(json);
	if (ecm && scaling)
		usage_error("bench", "give --ecm or --threads-scaling, not both");
	if (ecm || scaling)
		return bench_views(argc, argv, ecm, size_text || level || sweep || plot_dir, threads, cpus_text, over,
				   &(struct bench_cli){ .variant = variant, .reps = reps, .min_time_s = min_time, .json = json,
						    .small_pages = small_pages, .stream_offset = stream_offset,
						    .stop = (volatile int *)&bench_interrupted });
	if (optind >= argc)
		usage_error("bench", "no kernel given (kernels: load store copy update stream triad daxpy sum ddot; --list)");
	if (optind + 1 < argc)
		usage_error("bench", "one kernel at a time ('%s' is extra)", argv[optind + 1]);
	const char *name = argv[optind];
	check_kernel_name(name);
	const struct bench_kernel *k = pick(name, variant);
	if (!!size_text + !!level + sweep != 1)
		usage_error("bench", "give exactly one of -s SIZE, --level LEVEL, --sweep");
	if (reps < 1 || reps > BENCH_MAX_REPS)
		usage_error("bench", "--reps: %d is not in 1..%d", reps, BENCH_MAX_REPS);
	if (level && strcmp(level, "L1") && strcmp(level, "L2") && strcmp(level, "L3") && strcmp(level, "MEM"))
		usage_error("bench", "--level: '%s' is not L1, L2, L3 or MEM", level);
	if (plot_dir && !sweep)
		usage_error("bench", "--plot needs --sweep");

	struct as_error err = { 0 };
	struct as_cpulist cpus = { 0 };
	team_cpus(threads, cpus_text, over, &cpus);
	size_t sizes[64];
	int nsizes = 0;
	if (size_text) {
		if (buffer_parse_size(size_text, &sizes[0], &err) != 0)
			usage_error("bench", "-s: %s", err.msg);
		nsizes = 1;
	} else if (level) {
		sizes[0] = level_size(level, cpus.cpu[0]);
		nsizes = 1;
	} else {
		/* 4 KiB x 1, 1.5, 2, 3, 4, ...: two sizes per octave. */
		for (size_t s = 4096; s <= ((size_t)1 << 30) && nsizes < 64; s = nsizes % 2 ? s * 3 / 2 : s * 4 / 3)
			sizes[nsizes++] = s;
	}
	size_t avail = buffer_mem_available();
	for (int i = 0; i < nsizes; i++)
		if (avail && sizes[i] > avail / 10 * 9) {
			char a[32], b[32];
			usage_error("bench", "a working set of %s does not fit in the %s of available memory",
				    buffer_format_size(sizes[i], a, sizeof(a)), buffer_format_size(avail, b, sizeof(b)));
		}
	if (plot_dir && plot_dir_prepare(plot_dir, &err) != 0)
		die_err(EXIT_FAIL, &err);

	/* The clock for cycles per cache line, on the first CPU of the team. */
	cpu_pin_self(cpus.cpu[0], NULL);
	struct clock_result clk;
	clock_measure(&clk, 5);
	struct sigaction sa = { .sa_handler = on_sigint };
	sigaction(SIGINT, &sa, NULL);

	json_t *runs = json_array();
	struct table *t = table_new(10, "kernel", "variant", "size", "threads", "GB/s min", "median", "max",
				    "GB/s with WA", "cy/CL", "GFLOP/s");
	char cpulist[256];
	cpulist_format(&cpus, cpulist, sizeof(cpulist));
	FILE *dat = NULL;
	if (plot_dir) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/bench-sweep.dat", plot_dir);
		dat = fopen(path, "w");
	}
	int rc = 0;
	for (int i = 0; i < nsizes && !bench_interrupted; i++) {
		struct bench_opts bo = { .kernel = k, .size_bytes = sizes[i], .cpus = cpus, .reps = sweep ? 3 : reps,
					 .min_time_s = sweep ? fmin(min_time, 0.05) : min_time, .clock_ghz = clk.ghz,
					 .small_pages = small_pages, .stream_offset = stream_offset };
		struct bench_result r;
		char sz[32];
		buffer_format_size(sizes[i], sz, sizeof(sz));
		if (nsizes > 1)
			progress("bench %s-%s: %s (%d/%d)", k->name, k->variant, sz, i + 1, nsizes);
		else
			progress("bench %s-%s: %s on cpus %s ...", k->name, k->variant, sz, cpulist);
		if (bench_run(&bo, &r, &err) != 0) {
			progress_done();
			fprintf(stderr, "archscope: error: %s\n", err.msg);
			rc = EXIT_FAIL;
			break;
		}
		progress_done();
		json_t *j = json_pack("{s:s,s:s,s:I,s:i,s:s,s:o,s:o,s:o,s:o,s:f,s:I,s:i}", "kernel", k->name, "variant", k->variant,
				      "size_bytes", (json_int_t)r.size_bytes, "threads", r.threads, "cpus", cpulist, "gbs",
				      stat_json(&r.gbs), "gbs_real", stat_json(&r.gbs_real), "cy_per_cl", stat_json(&r.cy_per_cl),
				      "gflops", stat_json(&r.gflops), "spread", r.spread, "sweeps_per_rep", (json_int_t)r.sweeps,
				      "reps", r.reps);
		json_array_append_new(runs, j);
		buffer_format_size(r.size_bytes, sz, sizeof(sz));
		table_cell(t, "%s", k->name);
		table_cell(t, "%s", k->variant);
		table_cell(t, "%s", sz);
		table_cell(t, "%d", r.threads);
		table_cell(t, "%.2f", r.gbs.min);
		table_cell(t, "%.2f", r.gbs.median);
		table_cell(t, "%.2f", r.gbs.max);
		table_cell(t, "%.2f", r.gbs_real.median);
		table_cell(t, "%.2f", r.cy_per_cl.median);
		table_cell(t, "%.2f", r.gflops.median);
		if (dat)
			fprintf(dat, "%zu %.6g %.6g\n", r.size_bytes, r.gbs.median, r.gbs_real.median);
	}
	if (dat) {
		fclose(dat);
		char *body = NULL;
		if (asprintf(&body,
			     "set title 'archscope bench %s-%s on cpus %s: bandwidth against working set'\n"
			     "set xlabel 'working set (bytes; k = 1024)'\nset ylabel 'GB/s'\nset format x '%%.0b%%B'\n"
			     "set logscale x 2\nset grid\nset key top right\n"
			     "plot 'bench-sweep.dat' using 1:2 with linespoints title 'application', '' using 1:3 with linespoints title 'with write-allocate'",
			     k->name, k->variant, cpulist) >= 0) {
			int pr = plot_render(plot_dir, "bench-sweep", body, &err);
			if (pr == 1)
				note("gnuplot is not installed: wrote %s/bench-sweep.gp and its data, but no picture", plot_dir);
			else if (pr < 0)
				note("%s", err.msg);
			free(body);
		}
	}
	json_t *res = json_pack("{s:o,s:f,s:s,s:s,s:s}", "runs", runs, "clock_ghz", clk.ghz, "cycles",
				"core cycles of the measured clock per cache line (8 iterations) per thread", "formula", k->formula,
				"pages", small_pages ? "4k" : "huge");
	json_object_set_new(res, "stream_offset_bytes", json_integer((json_int_t)bench_stream_offset(stream_offset)));
	if (bench_interrupted)
		json_object_set_new(res, "incomplete", json_true());
	if (json) {
		cli_print_json("bench", res);
	} else {
		printf("archscope bench %s-%s (%s): %d read, %d write, %d read+write streams; %d B and %d flops per iteration;\n"
		       "%d repetitions of >= %.2g s; cy/CL in core cycles at the measured %.3f GHz; WA = write-allocate reads added\n",
		       k->name, k->variant, k->formula, k->reads, k->writes, k->rws, bench_bytes_app(k), k->flops,
		       sweep ? 3 : reps, sweep ? fmin(min_time, 0.05) : min_time, clk.ghz);
		table_print(t, stdout, "  ");
		json_decref(res);
	}
	table_free(t);
	if (bench_interrupted) {
		note("interrupted: printed what was measured");
		return 130;
	}
	return rc;
}
