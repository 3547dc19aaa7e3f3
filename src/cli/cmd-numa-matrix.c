/* archscope numa matrix: latency and bandwidth for every pair (CPUs of node i, memory of node j),
 * with the firmware's SLIT beside the measured distances (thesis §4.4's adjacency matrices). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd-numa.h"
#include "cli/parse-options.h"
#include "bench/kernels.h"
#include "bench/levels.h"
#include "probe/env.h"
#include "common/buffer.h"
#include "common/cpuset.h"
#include "common/interrupt.h"
#include "machine/result-numa.h"
#include "probe/probe.h"
#include "report/plot.h"

static void matrix_progress(void *arg, int i, int j, const char *what, int done, int total)
{
	const struct numa_matrix *m = arg;
	progress("numa matrix: node %d reading node %d, %s (%d of %d) ...", m->node[i], m->node[j], what, done + 1, total);
}

/* One n x n matrix as a table of tuples: JSON [[...], ...], text a row per source node. */
static void square_render(struct emit *e, const struct numa_matrix *m, const char *key, const char *title,
			  double (*v)[NUMA_MAX_NODES], const char *unit, const char *fmt)
{
	emit_table_begin(e, key, title);
	for (int i = 0; i < m->n; i++) {
		emit_tuple_begin(e);
		emit_text(e, "CPUs of", "node %d", m->node[i]);
		for (int j = 0; j < m->n; j++) {
			char label[32];
			snprintf(label, sizeof(label), "memory of node %d", m->node[j]);
			emit_number(e, NULL, label, v[i][j], unit, fmt);
		}
		emit_row_end(e);
	}
	emit_table_end(e);
}

struct matrix_result {
	struct numa_matrix m;
	double slit_measured[NUMA_MAX_NODES][NUMA_MAX_NODES]; /* 10 x latency / local latency */
	double over_slit[NUMA_MAX_NODES][NUMA_MAX_NODES];     /* slit_measured / slit */
	int has_slit;
	char size_from[200];      /* where the streams' working set came from */
	int line_witnesses;       /* of the probed line the chases are spaced by (probe/line.h) */
	char line_note[400];      /* why fewer than two */
};

static void matrix_render(struct emit *e, const struct matrix_result *r)
{
	const struct numa_matrix *m = &r->m;
	emit_array_begin(e, NMX_KEY(NODES), "nodes");
	for (int i = 0; i < m->n; i++)
		emit_int(e, NULL, "node", m->node[i], NULL);
	emit_array_end(e);
	cli_numa_one_node_note(e, NMX_KEY(NODE_COUNT), m->n);
	square_render(e, m, NMX_KEY(LATENCY), "idle latency, page-local chase (the lines of each 4 KiB page in a row; fastest repetition)",
		      (double (*)[NUMA_MAX_NODES])m->latency_ns, "ns", "%.1f");
	square_render(e, m, NMX_KEY(LATENCY_MEDIAN), NULL, (double (*)[NUMA_MAX_NODES])m->latency_median_ns, "ns", "%.1f");
	square_render(e, m, NMX_KEY(LATENCY_RANDOM), "idle latency, fully random chase (every line in one random cycle; fastest repetition)",
		      (double (*)[NUMA_MAX_NODES])m->latency_random_ns, "ns", "%.1f");
	square_render(e, m, NMX_KEY(LATENCY_RANDOM_MEDIAN), NULL, (double (*)[NUMA_MAX_NODES])m->latency_random_median_ns, "ns", "%.1f");
	square_render(e, m, NMX_KEY(BW_1THREAD), "bandwidth of one thread (median, real bytes)",
		      (double (*)[NUMA_MAX_NODES])m->bandwidth_1thread_gbs, "GB/s", "%.2f");
	square_render(e, m, NMX_KEY(BW), "bandwidth of all CPUs of node i (median, real bytes)",
		      (double (*)[NUMA_MAX_NODES])m->bandwidth_gbs, "GB/s", "%.2f");
	if (r->has_slit) {
		square_render(e, m, NMX_KEY(SLIT), "SLIT (firmware's distances, 10 = local)", (double (*)[NUMA_MAX_NODES])m->slit, NULL, "%.0f");
		square_render(e, m, NMX_KEY(SLIT_MEASURED), "measured distance: 10 x latency / latency of the local node",
			      (double (*)[NUMA_MAX_NODES])r->slit_measured, NULL, "%.1f");
		square_render(e, m, NMX_KEY(OVER_SLIT), "measured / SLIT (1 where the firmware is right)",
			      (double (*)[NUMA_MAX_NODES])r->over_slit, NULL, "%.2f");
	} else {
		emit_null(e, NMX_KEY(SLIT), "SLIT", "none (the firmware gives no distances)");
	}
	emit_table_begin(e, NMX_KEY(THREADS), "threads of the all-CPU runs");
	for (int i = 0; i < m->n; i++) {
		emit_row_begin(e);
		emit_int(e, NMX_KEY(THREADS_NODE), "node", m->node[i], NULL);
		emit_int(e, NMX_KEY(THREADS_N), "threads", m->cpus[i], NULL);
		emit_row_end(e);
	}
	emit_table_end(e);
	square_render(e, m, NMX_KEY(PLACED), "placement check: fraction of the chase's pages the kernel reports on node j",
		      (double (*)[NUMA_MAX_NODES])m->placed, NULL, "%.2f");
	emit_string(e, NMX_KEY(KERNEL), "kernel", m->kernel);
	emit_bool(e, NMX_KEY(WRITE_ALLOCATE), "write-allocate", m->write_allocate);
	emit_annotate(e, m->write_allocate ? " (the kernel's stores read their lines first; GB/s count those reads)"
					   : " (the kernel only reads: real bytes = application bytes)");
	emit_int(e, NMX_KEY(REPS), "repetitions", m->reps, NULL);
	emit_annotate(e, " of >= %.2g s each, median (as bench)", m->min_time_s);
	emit_number(e, NMX_KEY(MIN_TIME), NULL, m->min_time_s, "s", NULL);
	emit_size(e, NMX_KEY(BW_BYTES), "streams", m->bandwidth_bytes);
	emit_string(e, NMX_KEY(BW_SIZE_FROM), "streams' size from", r->size_from);
	emit_number(e, NMX_KEY(BW_HUGE), "on huge pages", m->bandwidth_huge_fraction, NULL, "%.2f");
	emit_annotate(e, " of the streams at least (bench asks for them with madvise)");
	emit_size(e, NMX_KEY(LATENCY_BYTES), "chase buffer", m->latency_bytes);
	emit_number(e, NMX_KEY(LINE), "chase slots", m->line_bytes, "B", "%.0f");
	emit_annotate(e, " apart (the probed line)");
	emit_int(e, NMX_KEY(LINE_WITNESSES), NULL, r->line_witnesses, NULL);
	if (r->line_witnesses < 2)
		emit_string(e, NMX_KEY(LINE_NOTE), "line note", r->line_note);
	emit_int(e, NMX_KEY(SEED), "seed", (long long)m->seed, NULL);
	emit_string(e, NMX_KEY(PLACEMENT), "memory placement", m->placement ? "libnuma (mbind / set_mempolicy MPOL_BIND)" : "none: the kernel has no NUMA support");
	emit_string(e, NMX_KEY(METHOD), "method",
		    "latency: pointer chases on huge pages bound to node j, thread pinned to the first CPU of node i, in two patterns: "
		    "page-local (pages in random order, the lines of each 4 KiB page in random order: DRAM pages stay open, as the "
		    "probe's caches curve) and fully random (every line of the buffer in one random cycle); "
		    "bandwidth: bench's streaming kernel, runner, repetitions, huge pages and stream offset (as bench KERNEL "
		    "--level MEM), threads pinned to node i, streams first-touched under a policy binding node j");
	emit_table_begin(e, NMX_KEY(NOISY), NULL); /* JSON: per pair, the measurements other work disturbed */
	for (int i = 0; i < m->n; i++) {
		emit_tuple_begin(e);
		for (int j = 0; j < m->n; j++)
			emit_int(e, NULL, NULL, m->noisy[i][j], NULL);
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_int(e, NMX_KEY(NOISY_COUNT), "noisy measurements", m->noisy_count, NULL);
	if (m->noisy_count)
		emit_annotate(e, " (first: %s; bits of \"noisy\" per pair: 1 page-local, 2 random latency, 4 one-thread, "
			      "8 all-CPU bandwidth)", m->noisy_first);
	if (!m->complete)
		emit_bool(e, NMX_KEY(INCOMPLETE), "incomplete", 1);
}

static void matrix_plot(const struct matrix_result *r, const char *dir)
{
	const struct numa_matrix *m = &r->m;
	struct as_error err = { 0 };
	char path[4096];
	snprintf(path, sizeof(path), "%s/numa-matrix.dat", dir);
	struct atomic_file af;
	FILE *f = plot_data_open(path, &af);
	for (int i = 0; f && i < m->n; i++)
		for (int j = 0; j < m->n; j++)
			fprintf(f, "%d %d %.6g %.6g %.6g\n", i, j, m->latency_ns[i][j], m->bandwidth_1thread_gbs[i][j], m->bandwidth_gbs[i][j]);
	if (!f || plot_data_close(&af) != 0) {
		warning("cannot write '%s': %s: no picture", path, strerror(errno));
		return;
	}
	/* One picture per matrix: a coloured square per pair with its figure written on it. */
	static const struct { const char *name, *title, *fmt; int col; } pics[] = {
		{ "numa-latency", "idle latency (ns)", "%.0f", 3 },
		{ "numa-bandwidth-1thread", "bandwidth of one thread (GB/s)", "%.1f", 4 },
		{ "numa-bandwidth", "bandwidth of all CPUs of the node (GB/s)", "%.1f", 5 },
	};
	for (size_t p = 0; p < sizeof(pics) / sizeof(pics[0]); p++) {
		char body[1024];
		snprintf(body, sizeof(body),
			 "set title 'archscope numa matrix: %s'\nset xlabel 'memory of node (index)'\n"
			 "set ylabel 'CPUs of node (index)'\nset xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\n"
			 "set xtics 1\nset ytics 1\nset size ratio -1\n"
			 "plot 'numa-matrix.dat' using 2:1:%d with points pt 5 ps %d palette notitle, "
			 "'' using 2:1:(sprintf('%s', $%d)) with labels notitle",
			 pics[p].title, m->n - 1, m->n - 1, pics[p].col, m->n > 8 ? 2 : 40 / m->n, pics[p].fmt, pics[p].col);
		int pr = plot_render(dir, pics[p].name, body, &err);
		if (cli_plot_done(pr, dir, pics[p].name, &err) != 0)
			return;
	}
}

static const struct opt_cmd matrix_cmd = {
	.name = "numa matrix",
	.usage = (const char *const[]){ "archscope numa matrix [--kernel NAME] [--size BYTES] [--quick] [--seed N] [--json] [--plot DIR]", NULL },
	.description = "For every pair (CPUs of node i, memory of node j): idle latency by the probe's pointer chase in\n"
		       "two patterns (page-local and fully random), bandwidth of one thread and of all CPUs of node i\n"
		       "by bench's streaming kernel at bench's memory working set (GB/s of real bytes, as 'bench\n"
		       "KERNEL --level MEM'), and the firmware's SLIT beside, with the measured distance over it.\n"
		       "Memory is bound with libnuma, threads are pinned. 'numa model --matrix' reads what --json writes.\n",
};

/* bench's working set for memory and the probed line, in the environment probe builds, into r
 * and o (size: --size, 0: bench's MEM size); the quick cache probe pins this thread, so the whole
 * allowed set is given back after it. 0, or an exit code after error(). */
static int matrix_sizes(struct matrix_result *r, struct numa_matrix_opts *o, size_t size)
{
	struct as_error err = { 0 };
	struct as_cpulist allowed;
	struct bench_levels lv;
	struct probe_env env;
	if (cpulist_allowed(&allowed, &err) != 0 || allowed.n == 0)
		return error_err(&err), EXIT_FAIL;
	int rc = cli_levels_measure("numa matrix", allowed.cpu[0], interrupt_flag(), &lv, &env);
	if (rc == 0 && cpu_allow_self(&allowed, &err) != 0)
		rc = (error_err(&err), EXIT_FAIL);
	if (rc)
		return interrupt_signal() ? INTERRUPT_EXIT : rc;
	r->line_witnesses = env.line_witnesses;
	snprintf(r->line_note, sizeof(r->line_note), "%s", env.line_note);
	char last[32];
	if (size)
		snprintf(r->size_from, sizeof(r->size_from), "--size");
	else
		snprintf(r->size_from, sizeof(r->size_from),
			 "bench's MEM working set: 8 x the last cache (%s by a quick cache probe), at least 512 MiB, at most a "
			 "quarter of the free memory", buffer_format_size((size_t)lv.level_bytes[lv.n - 2], last, sizeof(last)));
	o->latency_bytes = size;
	o->bandwidth_bytes = size ? size : lv.size[lv.n - 1];
	o->line_bytes = env.line_bytes > 0 ? (size_t)env.line_bytes : 64;
	return 0;
}

/* The measured distances beside the firmware's: 10 x latency / local latency, and over the SLIT. */
static void matrix_slit(struct matrix_result *r)
{
	r->has_slit = 0;
	for (int i = 0; i < r->m.n; i++)
		for (int j = 0; j < r->m.n; j++) {
			double li = r->m.latency_ns[i][i], sl = r->m.slit[i][j], sll = r->m.slit[i][i];
			r->slit_measured[i][j] = 10 * r->m.latency_ns[i][j] / li;
			r->over_slit[i][j] = r->slit_measured[i][j] / (10 * sl / sll);
			r->has_slit |= isfinite(sl);
		}
}

/* Measures every pair on the running machine t into r. 0 (a partial result after an error or a
 * signal is still 0, with *mrc the error), or an exit code after error() when nothing was
 * measured. */
static int matrix_measure(struct matrix_result *r, const struct topo *t, struct numa_matrix_opts *o, int *mrc)
{
	struct as_error err = { 0 };
	interrupt_install();
	int rc = matrix_sizes(r, o, o->latency_bytes);
	if (rc) {
		interrupt_restore();
		return rc;
	}
	o->stop = interrupt_flag();
	o->progress = matrix_progress;
	o->arg = &r->m;
	*mrc = numa_matrix_measure(&r->m, t, o, &err);
	progress_done();
	interrupt_restore();
	if (*mrc && r->m.n == 0)
		return error_err(&err), EXIT_FAIL;
	matrix_slit(r);
	if (*mrc)
		error_err(&err); /* a partial result follows */
	if (interrupt_signal())
		note("interrupted: the pairs measured so far follow");
	return 0;
}

int cmd_numa_matrix(int argc, char **argv)
{
	int json = 0, quick = 0;
	const char *kernel = "load", *size_text = NULL, *plot_dir = NULL;
	uint64_t seed = 1;
	const struct opt options[] = {
		OPT_STRING('k', "kernel", &kernel, "NAME", "bench's streaming kernel for the bandwidths (default load: reads only)"),
		OPT_STRING('s', "size", &size_text, "BYTES", "working set of the chases and of the streams (default: chases 1GiB,\n"
							     "streams bench's MEM size; at most a quarter of the free memory)"),
		OPT_FLAG(0, "quick", &quick, "fewer repetitions"),
		OPT_U64(0, "seed", &seed, "N", 0, UINT64_MAX, "seed of the chase's random order (default 1)"),
		OPT_JSON(&json),
		OPT_PLOT(&plot_dir),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &matrix_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc > 0)
		return error_usage("numa matrix", "unexpected argument '%s'", argv[0]), EXIT_USAGE;
	if (cli_output_dir_check("numa matrix", "--plot", plot_dir) != 0)
		return EXIT_USAGE;
	struct as_error err = { 0 };
	size_t size = 0;
	if (size_text && (buffer_parse_size(size_text, &size, &err) != 0 || size < ((size_t)1 << 20)))
		return error_usage("numa matrix", "--size '%s': %s", size_text, err.code ? err.msg : "at least 1MiB"), EXIT_USAGE;
	const struct bench_kernel *k = bench_kernel_best(kernel);
	if (!k || !bench_kernel_supported(k))
		return error_usage("numa matrix", "--kernel '%s': %s", kernel, k ? "this CPU cannot run it" : "no such kernel (see 'archscope bench --list')"),
		       EXIT_USAGE;
	struct topo *t = malloc(sizeof(*t));
	struct matrix_result *r = malloc(sizeof(*r));
	int rc = !t || !r ? (error("out of memory"), EXIT_FAIL) : cli_numa_topology(NULL, t);
	if (rc) {
		free(t);
		free(r);
		return rc;
	}
	struct numa_matrix_opts o = { .kernel = kernel, .latency_bytes = size, .quick = quick, .seed = seed };
	int mrc = 0;
	rc = matrix_measure(r, t, &o, &mrc);
	topo_release(t);
	free(t);
	struct emit *e = rc ? NULL : emit_new(json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (!rc && !e)
		rc = (error("out of memory"), EXIT_FAIL);
	if (rc) {
		free(r);
		return rc;
	}
	matrix_render(e, r);
	if (plot_dir)
		matrix_plot(r, plot_dir);
	free(r);
	rc = cli_emit_end(e, "numa matrix");
	return rc ? rc : mrc ? EXIT_FAIL : interrupt_signal() ? INTERRUPT_EXIT : EXIT_OK;
}
