/* archscope bench: streaming kernels per working-set size and thread count (ECM paper,
 * likwid-bench). Bandwidth as the application sees it and as the memory system moves it, core
 * cycles per cache line at the measured clock, flop/s, and the spread of the repetitions. Here:
 * the options, --list, the kernel and the team, the levels from the quick cache probe and the
 * checks of --ecm and --threads-scaling; the plain runs are cmd-bench-runs.c's. */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "bench/run.h"
#include "cli/cmd-bench.h"
#include "cli/cli.h"
#include "cli/parse-options.h"
#include "common/interrupt.h"
#include "machine/result-bench.h"
#include "report/emit.h"

const char *cli_bench_kernel_names(char *buf, size_t len)
{
	size_t n, w = 0;
	const struct bench_kernel *t = bench_kernel_table(&n);
	buf[0] = '\0';
	for (size_t i = 0; i < n && w < len; i++)
		if (!strcmp(t[i].variant, "scalar"))
			w += (size_t)snprintf(buf + w, len - w, "%s%s", w ? " " : "", t[i].name);
	return buf;
}

const struct bench_kernel *cli_bench_pick(const char *name, const char *variant)
{
	char names[256];
	const struct bench_kernel *k = bench_kernel_best(name);
	if (!k)
		error_usage("bench", "unknown kernel '%s' (kernels: %s)", name, cli_bench_kernel_names(names, sizeof(names)));
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
	emit_table_begin(e, BL_KEY(KERNELS), "");
	for (size_t i = 0; i < n; i++) {
		const struct bench_kernel *k = &t[i];
		emit_row_begin(e);
		emit_string(e, BL_KEY(KERNEL), "kernel", k->name);
		emit_string(e, BL_KEY(VARIANT), "variant", k->variant);
		if (!bench_kernel_supported(k))
			emit_annotate(e, " (not on this CPU)");
		emit_string(e, BL_KEY(FORMULA), "formula", k->formula);
		emit_int(e, BL_KEY(READS), "read", k->reads, NULL);
		emit_int(e, BL_KEY(WRITES), "write", k->writes, NULL);
		emit_int(e, BL_KEY(RWS), "read+write", k->rws, NULL);
		emit_int(e, BL_KEY(BYTES), "bytes/it", bench_bytes_app(k), "B");
		emit_int(e, BL_KEY(BYTES_REAL), "with write-allocate", bench_bytes_real(k), "B");
		emit_int(e, BL_KEY(FLOPS), "flops/it", k->flops, NULL);
		emit_bool(e, BL_KEY(NONTEMPORAL), NULL, k->nontemporal);
		emit_bool(e, BL_KEY(SUPPORTED), NULL, bench_kernel_supported(k));
		emit_row_end(e);
	}
	emit_table_end(e);
}

/* What completion offers for --level (any level the quick probe finds is taken). */
static const char *const level_suggest[] = { "L1", "L2", "L3", "MEM", NULL };

int cli_bench_team_cpus(const struct cli_bench_opts *o, int threads, struct as_cpulist *cpus)
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
		threads = o->scaling ? (allowed.n > BENCH_MAX_THREADS ? BENCH_MAX_THREADS : allowed.n) : 1;
	if (threads > allowed.n && !o->over)
		return error_usage("bench", "%d threads but only %d allowed CPUs (add --oversubscribe to allow it)", threads,
				   allowed.n), EXIT_USAGE;
	if (threads > BENCH_MAX_THREADS)
		return error_usage("bench", "--threads: at most %d", BENCH_MAX_THREADS), EXIT_USAGE;
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
	int rc = cli_bench_team_cpus(o, o->ecm ? 0 : o->threads, &cpus);
	if (rc)
		return rc;
	const struct bench_kernel *ks[16];
	int nk = 0;
	if (o->ecm) {
		if (!(ks[nk++] = cli_bench_pick("load", o->variant)) || !(ks[nk++] = cli_bench_pick("store", o->variant)))
			return EXIT_USAGE;
		if (nnames == 0) {
			names = (char **)ecm_default;
			nnames = (int)(sizeof(ecm_default) / sizeof(ecm_default[0]));
		}
	}
	for (int i = 0; i < (nnames ? nnames : 1); i++) {
		const struct bench_kernel *k = cli_bench_pick(nnames ? names[i] : "stream", o->variant);
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
	if ((rc = cli_levels_measure("bench", cpus.cpu[0], o->stop, &lv, NULL)) != 0)
		return rc;
	return o->ecm ? cli_bench_ecm(o, ks, nk, &lv, cpus.cpu[0]) : cli_bench_threads_scaling(o, ks[0], &lv, &cpus);
}

static void kernels_print(FILE *out)
{
	char names[256];
	fprintf(out, "  %s\n  (--list: their streams, bytes and flops per iteration, and variants)\n",
		cli_bench_kernel_names(names, sizeof(names)));
}

/* The kernel names, one a line, for the shell completion. */
static void kernel_words(FILE *out)
{
	char names[256], *save = NULL;
	cli_bench_kernel_names(names, sizeof(names));
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
			       .stop = interrupt_flag() };
	int remeasure = 2;
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
		OPT_DOUBLE(0, "wait-quiet", &o.wait_quiet_s, "SECONDS", 0, 86400,
			   "before each run, wait until its CPUs are quiet, at most SECONDS (alone: 60)",
			   .flags = OPT_F_OPTARG, .argdef = "60"),
		OPT_INT(0, "remeasure", &remeasure, "N", 0, 10,
			"run again up to N times (default 2) while other work disturbed a run"),
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
	o.remeasure = remeasure == 0 ? -1 : remeasure;
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
	/* SIGINT, SIGTERM or SIGHUP: no further run starts, what was measured is printed, exit 130; a
	 * second one ends archscope at once (common/interrupt.h) */
	interrupt_install();
	int rc = o.ecm || o.scaling ? bench_views(&o, argc, argv) : cli_bench_runs(&o, argc, argv);
	interrupt_restore();
	return rc;
}
