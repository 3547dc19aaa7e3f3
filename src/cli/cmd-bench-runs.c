/* archscope bench KERNEL with -s SIZE, --level LEVEL or --sweep: the working sets, the runs on
 * pinned threads at the measured clock, their table (median ± half the spread of the repetitions)
 * and --plot's bandwidth against working set. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench/run.h"
#include "cli/cli.h"
#include "cli/cmd-bench.h"
#include "common/interrupt.h"
#include "common/buffer.h"
#include "machine/result-bench.h"
#include "probe/clock.h"
#include "report/emit.h"
#include "report/plot.h"

/* Whether --level names a level: L1, L2, ... (up to L8) or MEM, in either case. */
static int level_valid(const char *s)
{
	return !strcasecmp(s, "MEM") || ((s[0] == 'L' || s[0] == 'l') && s[1] >= '1' && s[1] <= '8' && !s[2]);
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
	emit_table_begin(e, BR_KEY(RUNS), "");
	for (int i = 0; i < r->n; i++) {
		const struct bench_result *x = &r->run[i];
		emit_row_begin(e);
		emit_string(e, BR_KEY(RUN_KERNEL), NULL, k->name);
		emit_string(e, BR_KEY(RUN_VARIANT), NULL, k->variant);
		emit_size(e, BR_KEY(RUN_SIZE), "size", x->size_bytes);
		emit_int(e, BR_KEY(RUN_THREADS), "threads", x->threads, NULL);
		emit_string(e, BR_KEY(RUN_CPUS), NULL, r->cpulist);
		stat_cell_render(e, BR_KEY(RUN_GBS), "bandwidth", &x->gbs, "GB/s");
		stat_cell_render(e, BR_KEY(RUN_GBS_REAL), "with write-allocate", &x->gbs_real, "GB/s");
		stat_cell_render(e, BR_KEY(RUN_CY_PER_CL), "cycles", &x->cy_per_cl, "cy/CL");
		stat_cell_render(e, BR_KEY(RUN_GFLOPS), "flops", &x->gflops, "GFLOP/s");
		emit_number(e, BR_KEY(RUN_SPREAD), NULL, x->spread, NULL, NULL);
		emit_number(e, BR_KEY(RUN_HUGE), NULL, x->huge_fraction, NULL, NULL);
		emit_int(e, BR_KEY(RUN_SWEEPS), NULL, (long long)x->sweeps, NULL);
		emit_int(e, BR_KEY(RUN_REPS), NULL, x->reps, NULL);
		emit_string(e, NULL, "conditions", x->cond.noisy ? "noisy" : x->cond.attempts > 1 ? "quiet (again)" : "quiet");
		cli_conditions_render(e, BR_KEY(RUN_COND), BR_KEY(RUN_NOISY), &x->cond);
		emit_row_end(e);
	}
	emit_table_end(e);
	for (int i = 0; i < r->n; i++)
		if (r->run[i].cond.noisy)
			emit_heading(e, "  noisy at %zu B, %d thread%s: %s (after %d attempt%s)", r->run[i].size_bytes,
				     r->run[i].threads, r->run[i].threads == 1 ? "" : "s", r->run[i].cond.why,
				     r->run[i].cond.attempts, r->run[i].cond.attempts == 1 ? "" : "s");
	emit_number(e, BR_KEY(CLOCK), "clock", r->clock_ghz, "GHz", "%.3f");
	emit_number(e, BR_KEY(LINE), "cache line", r->o->line_bytes > 0 ? r->o->line_bytes : NAN, "B", "%.0f");
	if (r->o->line_bytes > 0)
		emit_annotate(e, " (%s)", r->o->line_from);
	emit_string(e, BR_KEY(CYCLES), "cycles", "core cycles of the measured clock per cache line (line / 8 B iterations) per thread");
	emit_string(e, BR_KEY(FORMULA), NULL, k->formula);
	emit_string(e, BR_KEY(PAGES), "pages", r->o->small_pages ? "4k" : "huge");
	emit_int(e, BR_KEY(OFFSET), "stream offset", (long long)bench_stream_offset(r->o->stream_offset), "B");
	if (*r->o->stop)
		emit_bool(e, BR_KEY(INCOMPLETE), NULL, 1);
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
		int rc = cli_levels_measure("bench", r->cpus.cpu[0], o->stop, &lv, NULL);
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

int cli_bench_runs(struct cli_bench_opts *o, int nnames, char **names)
{
	char list[256];
	if (nnames != 1)
		return error_usage("bench", nnames ? "one kernel at a time ('%s' is extra)"
						   : "no kernel given (kernels: %s; --list)",
				   nnames ? names[1] : cli_bench_kernel_names(list, sizeof(list))), EXIT_USAGE;
	struct bench_runs r = { .o = o, .k = cli_bench_pick(names[0], o->variant) };
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
	int rc = cli_bench_team_cpus(o, o->threads, &r.cpus);
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
	for (int i = 0; i < r.nsizes && !*o->stop && rc == 0; i++) {
		struct bench_opts bo = { .kernel = r.k, .size_bytes = r.size[i], .cpus = r.cpus, .reps = r.reps, .clock_now = clock_window_ghz,
					 .wait_quiet_s = o->wait_quiet_s, .remeasure = o->remeasure,
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
	if (*o->stop) {
		note("interrupted: printed what was measured");
		return INTERRUPT_EXIT;
	}
	return rc ? rc : out;
}
