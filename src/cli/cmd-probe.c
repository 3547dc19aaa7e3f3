/* archscope probe: the probe table and its runner. Each group measures one property of the
 * machine; answers are printed beside what the OS reports, never taken from it. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/parse-options.h"
#include "cli/cmd-probe.h"
#include "common/conditions.h"
#include "common/cpuset.h"
#include "common/interrupt.h"
#include "common/rng.h"
#include "common/timer.h"
#include "probe/clock.h"
#include "probe/env.h"
#include "probe/memory.h"
#include "report/csv.h"
#include "report/emit.h"
#include "report/output.h"
#include "cli/util-hwloc.h"
#include "report/plot.h"

/* One row per group of machine/probes.h (MP_GROUP_LIST), in its order; the name is the group's
 * key there (machine_probes_group_name). */
static const struct cli_probe_row probes[MP_GROUPS] = {
	[MP_G_CLOCK] = { "core clock by a dependent add chain, and the TSC rate", cli_probe_row_clock, 0, COND_SHARED },
	[MP_G_LINE] = { "cache line from two witnesses: access pairs D bytes apart (3.1.1), coherence unit", cli_probe_row_line, 1, COND_SHARED },
	[MP_G_CACHES] = { "cache levels, sizes and latencies by pointer chasing + QT clustering (3.1.2)", cli_probe_row_caches, 0, COND_SHARED },
	[MP_G_ASSOC] = { "associativity of each measured level (3.1.3)", cli_probe_row_assoc, 0, COND_SHARED },
	[MP_G_TLB] = { "TLB page size (pairs and first-touch faults) and entries per level (3.2)", cli_probe_row_tlb, 0, COND_SHARED },
	[MP_G_INSTR] = { "latency, throughput, ops in flight of add/sub/mul/div/fma, FLOPs/cy (3.3), line-crossing loads/stores", cli_probe_row_instr, 0, 0 },
	[MP_G_CONTEXTS] = { "FP, integer and memory execution contexts (3.4)", cli_probe_row_contexts, 1, COND_SHARED },
	[MP_G_REGISTERS] = { "usable integer and FP registers from live ranges K = 3..132 (3.5)", cli_probe_row_registers, 0, COND_SHARED },
	[MP_G_TIMESLICE] = { "the scheduler's time slice and its distribution, schedstat beside it (3.6)", cli_probe_row_timeslice, 1, 0 },
	[MP_G_C2C] = { "core-to-core bandwidth and latency, and the locality tree (3.1.4)", cli_probe_row_c2c, 1, COND_SHARED },
};
#define NPROBES ((size_t)MP_GROUPS)
#define GROUP_NAME(k) machine_probes_group_name((enum mp_group)(k))

/* set by the first SIGINT, SIGTERM or SIGHUP (common/interrupt.h): keep what was measured; a
 * second one ends archscope at once */
static int interrupted(void)
{
	return interrupt_signal() != 0;
}

/* --- what the rows share ----------------------------------------------------------------- */

void cli_probe_save_raw(struct cli_probe_ctx *ctx, const char *name, const char *header, const double *data,
		    size_t n, int ncols)
{
	if (!ctx->raw_dir)
		return;
	char path[4096];
	struct as_error err = { 0 };
	snprintf(path, sizeof(path), "%s/%s.csv", ctx->raw_dir, name);
	if (interrupted() && access(path, F_OK) == 0) { /* a cut curve never replaces a saved one */
		snprintf(path, sizeof(path), "%s/%s.partial.csv", ctx->raw_dir, name);
		note("interrupted: %s/%s.csv is kept; the cut curve goes to %s", ctx->raw_dir, name, path);
	}
	if (csv_write(path, header, data, n, ncols, &err) != 0) {
		error_err(&err);
		ctx->save_failed = 1;
	}
}

void cli_probe_save_curve(struct cli_probe_ctx *ctx, const char *name, const char *header, const struct probe_curve *c)
{
	if (!ctx->raw_dir)
		return;
	double *rows = malloc(c->n * 3 * sizeof(double) + 1);
	if (!rows) {
		error("%s: out of memory for the raw curve", name);
		ctx->save_failed = 1;
		return;
	}
	for (size_t i = 0; i < c->n; i++) {
		rows[3 * i] = c->x[i];
		rows[3 * i + 1] = c->min_ns[i];
		rows[3 * i + 2] = c->median_ns[i];
	}
	cli_probe_save_raw(ctx, name, header, rows, c->n, 3);
	free(rows);
}

void cli_probe_save_points(struct cli_probe_ctx *ctx, const char *name, const char *header,
			   const struct machine_probes_curve *c)
{
	if (!ctx->raw_dir)
		return;
	size_t n = c->n > 0 ? (size_t)c->n : 0;
	double *rows = malloc(n * 3 * sizeof(double) + 1);
	if (!rows) {
		error("%s: out of memory for the raw curve", name);
		ctx->save_failed = 1;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		rows[3 * i] = c->pt[i].x;
		rows[3 * i + 1] = c->pt[i].min;
		rows[3 * i + 2] = c->pt[i].median;
	}
	cli_probe_save_raw(ctx, name, header, rows, n, 3);
	free(rows);
}

void cli_probe_data_done(struct cli_probe_ctx *ctx, struct atomic_file *af)
{
	char path[sizeof(af->path)];
	snprintf(path, sizeof(path), "%s", af->path);
	if (plot_data_close(af) != 0) {
		error("cannot write '%s': %s", path, strerror(errno));
		ctx->save_failed = 1;
	}
}

void cli_probe_plot(struct cli_probe_ctx *ctx, const char *name, const char *body)
{
	if (!ctx->plot_dir)
		return;
	struct as_error err = { 0 };
	int rc = plot_render(ctx->plot_dir, name, body, &err);
	if (rc == 1)
		cli_plot_done(rc, ctx->plot_dir, name, &err);
	else if (rc < 0) {
		error_err(&err);
		ctx->save_failed = 1;
	}
}

void cli_probe_plotf(struct cli_probe_ctx *ctx, const char *name, const char *fmt, ...)
{
	char *body = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&body, fmt, ap);
	va_end(ap);
	if (n >= 0) {
		cli_probe_plot(ctx, name, body);
		free(body);
	}
}

void cli_probe_progress(void *unused, const char *probe, const char *point, int done, int total)
{
	(void)unused;
	progress("probe %s: %s (%d/%d)", probe, point, done + 1, total);
}

int cli_probe_differs(double measured, double os)
{
	return os > 0 && measured > 0 && fabs(measured - os) / os > 0.05;
}

void cli_probe_answer_render_begin(struct emit *e, int id, const char *label, const struct machine_answer *a,
			       const char *fmt, unsigned flags)
{
	const struct machine_probe_field *f = &machine_probe_fields[id];
	emit_answer_begin(e, NULL, label,
			  &(struct emit_answer){ .value = a->value, .unit = f->unit, .confidence = a->confidence,
						 .method = a->method, .os_reported = a->os_reported,
						 .os_integer = !!(f->flags & MP_F_OS_INT), .fmt = fmt });
	if ((flags & CLI_PROBE_ANSWER_DIFFERS) && cli_probe_differs(a->value, a->os_reported))
		emit_annotate(e, "  " CLI_PROBE_DIFFERS_TEXT);
	if (a->noisy[0])
		emit_annotate(e, "  [noisy]");
	if (a->implausible[0])
		emit_annotate(e, "  [implausible]");
	if (a->reason[0] && (flags & CLI_PROBE_ANSWER_NOTE))
		emit_string(e, NULL, "note", a->reason);
}

void cli_probe_answer_render(struct emit *e, int id, const char *label, const struct machine_answer *a, const char *fmt,
			 unsigned flags)
{
	cli_probe_answer_render_begin(e, id, label, a, fmt, flags);
	emit_object_end(e);
}

/* --- conditions: each group measured, judged, measured again or flagged ---------------------- */

void cli_probe_measured(struct cli_probe_ctx *ctx)
{
	if (!ctx->win.open)
		return;
	/* the clock group is held to the clock it just measured: an answer the clock at the group's
	 * end disagrees with (a clock still ramping up, or a burst during the chains) is measured
	 * again, not taken as what every later group's cycles assume (bench/results/
	 * design-measurements.md, clock-group) */
	double expected = ctx->group == MP_G_CLOCK ? ctx->env.clock_ghz : ctx->clock_expected;
	cond_window_clock(&ctx->win, expected, expected > 0 ? clock_window_ghz() : 0);
	struct conditions c;
	cond_window_end(&ctx->win, &c);
	c.attempts = ctx->attempt;
	enum mp_group g = (enum mp_group)ctx->group;
	char impl[240];
	int bad = machine_probes_bounds(ctx->rec, g, ctx->env.allowed.n, impl, sizeof(impl));
	uint64_t now = timer_now_ns();
	double spent = (double)(now - ctx->group_t0_ns) * 1e-9 - ctx->paused_s,
	       last = (double)(now - ctx->attempt_t0_ns) * 1e-9;
	/* the first attempt's time and twice that again, with a fifth for attempts that vary */
	double budget = ctx->attempt == 1 ? 3.6 * spent : ctx->budget_s;
	/* a machine that stayed busy through the last groups' attempts: measure once, flag */
	int busy = c.noisy && !bad && cond_noisy_streak() >= 2;
	if (busy && ctx->attempt == 1 && !ctx->busy_said) {
		note("the machine stays busy (%s): each group is measured once and flagged while it lasts "
		     "(--wait-quiet waits for quiet instead)", c.why);
		ctx->busy_said = 1;
	}
	if ((c.noisy || bad) && !busy && ctx->attempt < ctx->max_attempts && !interrupted() && spent + last <= budget) {
		note("probe %s: measuring again (attempt %d of %d): %s", GROUP_NAME(g), ctx->attempt + 1,
		     ctx->max_attempts, c.noisy ? c.why : impl);
		struct emit *dropped = emit_new(EMIT_JSON, NULL); /* this attempt's output goes nowhere */
		if (dropped) {
			ctx->shown = ctx->e;
			ctx->e = dropped;
			ctx->again = 1;
			return;
		}
	}
	machine_probes_cond_set(&ctx->rec->cond[g], &c, bad ? impl : "");
	if (c.noisy || bad) /* never a plain answer: flagged, its confidence halved */
		machine_probes_flag(ctx->rec, g, c.noisy ? c.why : NULL, bad ? impl : NULL, 0.5);
	if (g == MP_G_CONTEXTS && c.noisy) /* fewer contexts than CPUs under load: cannot tell */
		machine_probes_contexts_uncertain(ctx->rec, ctx->env.allowed.n,
						  (isfinite(c.foreign_cpus) ? c.foreign_cpus : 0) +
							  (isfinite(c.foreign_other_cpus) ? c.foreign_other_cpus : 0));
	c.noisy |= bad;
	cond_summary_final(&c);
}

/* The group's conditions after its answers, for people (the JSON is the record's
 * GROUP.conditions): a line, and the flag when its answers stay disturbed or implausible. */
static void conditions_render(struct cli_probe_ctx *ctx, enum mp_group g)
{
	const struct machine_probes_cond *k = &ctx->rec->cond[g];
	if (k->attempts < 1 || !emit_is_text(ctx->e))
		return;
	char line[600];
	int n = snprintf(line, sizeof(line), "other processes %.2f of %d CPU%s", k->foreign_cpus, k->cpus,
			 k->cpus == 1 ? "" : "s");
	if ((probes[g].cond_flags & COND_SHARED) && k->other_cpus > 0 &&
	    isfinite(k->foreign_other_cpus))
		n += snprintf(line + n, sizeof(line) - (size_t)n, " (%.2f on the other CPUs)", k->foreign_other_cpus);
	if (isfinite(k->steal_pct))
		n += snprintf(line + n, sizeof(line) - (size_t)n, ", steal %.1f %%", k->steal_pct);
	if (isfinite(k->switches_per_s))
		n += snprintf(line + n, sizeof(line) - (size_t)n, ", %.0f switches/s of others", k->switches_per_s);
	if (isfinite(k->clock_ghz))
		n += snprintf(line + n, sizeof(line) - (size_t)n, ", clock %.2f GHz", k->clock_ghz);
	snprintf(line + n, sizeof(line) - (size_t)n, ", %d attempt%s", k->attempts, k->attempts == 1 ? "" : "s");
	emit_heading(ctx->e, "%s conditions: %s", GROUP_NAME(g), line);
	if (k->noisy)
		emit_heading(ctx->e, "  noisy: %s (answers flagged, confidence halved)", k->why);
	if (k->implausible[0])
		emit_heading(ctx->e, "  implausible: %s", k->implausible);
}

/* Runs group g: waits for quiet with --wait-quiet, measures, and measures again while the
 * conditions or the bounds say so, within its attempts and budget. 0, or -1 after error(). */
static int group_run(struct cli_probe_ctx *ctx, enum mp_group g)
{
	struct as_cpulist *one = malloc(sizeof(*one));
	if (!one)
		return error("out of memory");
	one->n = 1;
	one->cpu[0] = ctx->env.cpu;
	const struct as_cpulist *used = probes[g].all_cpus ? &ctx->env.allowed : one;
	int rc = 0;
	ctx->group = (int)g;
	ctx->group_t0_ns = timer_now_ns();
	ctx->paused_s = 0;
	for (ctx->attempt = 1;; ctx->attempt++) {
		uint64_t p0 = timer_now_ns();
		if (ctx->wait_quiet_s > 0) {
			double w = cond_wait_quiet(used, &ctx->env.allowed, probes[g].cond_flags, ctx->wait_quiet_s);
			if (w < 0)
				note("probe %s: not quiet after %.0f s of waiting (--wait-quiet): measuring anyway", GROUP_NAME(g), -w);
		} else if (ctx->attempt > 1) { /* let a burst of other work pass: up to a second */
			cond_wait_quiet(used, &ctx->env.allowed, probes[g].cond_flags, 1.0);
		}
		ctx->paused_s += (double)(timer_now_ns() - p0) * 1e-9;
		ctx->clock_expected = ctx->env.clock_ghz;
		ctx->attempt_t0_ns = timer_now_ns();
		ctx->again = 0;
		cond_window_begin(&ctx->win, used, &ctx->env.allowed, probes[g].cond_flags);
		rc = probes[g].run(ctx);
		cli_probe_measured(ctx); /* a row that rendered nothing */
		if (ctx->attempt == 1) /* re-measurements may take twice the first attempt (and a fifth) */
			ctx->budget_s = 3.6 * ((double)(timer_now_ns() - ctx->group_t0_ns) * 1e-9 - ctx->paused_s);
		if (!ctx->again)
			break;
		emit_free(ctx->e);
		ctx->e = ctx->shown;
		ctx->again = 0;
	}
	conditions_render(ctx, g);
	ctx->group = -1;
	free(one);
	return rc;
}

/* --- the command ------------------------------------------------------------------------- */

static void print_groups(FILE *out)
{
	for (size_t i = 0; i < NPROBES; i++)
		fprintf(out, "  %-10s %s\n", GROUP_NAME(i), probes[i].summary);
}

/* The group names, one a line, for the shell completion. */
static void group_words(FILE *out)
{
	for (size_t i = 0; i < NPROBES; i++)
		fprintf(out, "%s\n", GROUP_NAME(i));
	fprintf(out, "all\n");
}

static const char *const probe_usage[] = { "archscope probe [options] [GROUP...]", NULL };
static const struct opt_section probe_sections[] = {
	{ .title = "groups", .print = print_groups },
	{ .title = NULL },
};
static const struct opt_cmd probe_cmd = {
	.name = "probe",
	.usage = probe_usage,
	.description = "Measures the effective hardware. With no GROUP, runs them all. The OS-reported value is\n"
		       "printed beside each answer (os_reported); it never decides the answer.\n",
	.sections = probe_sections,
	.words = group_words,
};

/* Marks the groups named in argv[0..n) ("all": every one; none named: every one). 0, or -1
 * after a usage error. */
static int groups_select(int n, char **argv, int *selected)
{
	for (int i = 0; i < n; i++) {
		int found = 0;
		for (size_t k = 0; k < NPROBES; k++)
			if (strcmp(argv[i], GROUP_NAME(k)) == 0 || strcmp(argv[i], "all") == 0)
				selected[k] = found = 1;
		if (!found) {
			char list[512] = "";
			for (size_t k = 0; k < NPROBES; k++) {
				strcat(list, k ? ", " : "");
				strcat(list, GROUP_NAME(k));
			}
			return error_usage("probe", "unknown probe group '%s' (groups: %s)", argv[i], list);
		}
	}
	if (n == 0)
		for (size_t k = 0; k < NPROBES; k++)
			selected[k] = 1;
	return 0;
}

/* The probe environment (probe/env.h: the CPU, --cpu checked against the allowed set, else the
 * first allowed; the topology), the output directories, the pinning. Returns 0, or an exit code
 * after error(). */
static int setup(struct cli_probe_ctx *ctx, int cpu)
{
	struct as_error err = { 0 };
	char topo_note[600];
	uint64_t seed = ctx->env.seed;
	int all_pairs = ctx->env.all_pairs, all_teams = ctx->env.all_teams; /* options the init does not take */
	int rc = probe_env_init(&ctx->env, cpu, ctx->env.quick, seed, interrupt_flag(), topo_note,
				sizeof(topo_note), &err);
	ctx->env.all_pairs = all_pairs;
	ctx->env.all_teams = all_teams;
	if (rc == -EINVAL) {
		error_usage("probe", "--cpu: %s", err.msg);
		return EXIT_USAGE;
	}
	if (cli_output_dir_check("probe", "--raw", ctx->raw_dir) != 0 || cli_output_dir_check("probe", "--plot", ctx->plot_dir) != 0)
		return EXIT_USAGE;
	if (rc)
		goto fail;
	if ((ctx->raw_dir && plot_dir_prepare(ctx->raw_dir, &err) != 0) ||
	    (ctx->plot_dir && plot_dir_prepare(ctx->plot_dir, &err) != 0) || probe_env_pin(&ctx->env, &err) != 0)
		goto fail;
	if (topo_note[0])
		note("%s", topo_note);
	return 0;
fail:
	error_err(&err);
	return EXIT_FAIL;
}

/* probe-results.json in the --raw directory: the answers of this run, for a later --from-raw. */
static void save_results(struct cli_probe_ctx *ctx)
{
	char path[4096];
	struct as_error err = { 0 };
	json_t *j = machine_probes_json(ctx->rec);
	snprintf(path, sizeof(path), "%s/probe-results.json", ctx->raw_dir);
	if (!j)
		ctx->save_failed = error("%s: out of memory", path);
	else if (output_write_file(path, j, &err) != 0)
		ctx->save_failed = error_err(&err);
	json_decref(j);
}

/* The cpu and seed of the run (with --from-raw those of the run that measured the saved answers). */
static void run_identity(struct cli_probe_ctx *ctx, int from_raw)
{
	if (!from_raw || ctx->rec->have[MP_CPU] != MP_HAVE_YES)
		ctx->rec->cpu = ctx->env.cpu;
	if (!from_raw || ctx->rec->have[MP_SEED] != MP_HAVE_YES)
		ctx->rec->seed = (long long)ctx->env.seed;
	ctx->env.seed = (uint64_t)ctx->rec->seed;
	ctx->rec->have[MP_CPU] = ctx->rec->have[MP_SEED] = MP_HAVE_YES;
	emit_heading(ctx->e, "archscope probe on cpu %d (seed %llu)", ctx->rec->cpu, (unsigned long long)ctx->rec->seed);
}

/* Runs the selected groups into ctx->rec, each group's wall time beside its answers. */
static int groups_run(struct cli_probe_ctx *ctx, const int *selected, const char *out_path)
{
	int rc = 0;
	for (size_t k = 0; k < NPROBES && !interrupted(); k++) {
		if (!selected[k])
			continue;
		if (out_path)
			progress("probe -o: group %zu/%zu (%s), then the streaming benchmarks ...", k + 1, NPROBES, GROUP_NAME(k));
		uint64_t t0 = timer_now_ns();
		if (group_run(ctx, (enum mp_group)k) != 0)
			rc = EXIT_FAIL;
		ctx->rec->timing_s[k] = (double)(timer_now_ns() - t0) * 1e-9;
		ctx->rec->have[MP_TIMING] = MP_HAVE_YES;
	}
	return rc;
}

/* --hwloc beside -o: from the machine file just written, never from an interrupted one. */
static int hwloc_write(const struct cli_probe_ctx *ctx, const char *out_path)
{
	if (*ctx->env.interrupted) {
		note("interrupted: '%s' is not written (the machine file is incomplete)", ctx->hwloc);
		return 0;
	}
	return cli_hwloc_export(out_path, ctx->hwloc) != 0;
}

/* Runs the selected rows into ctx->rec (with --from-raw the saved answers are there already and are
 * printed), writes the machine file with -o, and in JSON the record as the results. Returns 0 or
 * an exit code. */
static int probe_run(struct cli_probe_ctx *ctx, const int *selected, int from_raw, json_t *bench, const char *out_path)
{
	run_identity(ctx, from_raw);
	if (from_raw) /* the saved run's timing is not this run's */
		ctx->rec->have[MP_TIMING] = MP_HAVE_NO;
	if (!selected[0] && !from_raw)
		cli_probe_clock_run(ctx, 1);
	int rc = groups_run(ctx, selected, out_path);
	if (interrupted()) {
		ctx->rec->incomplete = 1;
		note("interrupted: printing what was measured so far");
	} else if (ctx->raw_dir && !from_raw) {
		save_results(ctx);
	}
	if (out_path && cli_probe_machine_write(ctx, bench, from_raw, out_path) != 0)
		rc = EXIT_FAIL;
	else if (out_path && ctx->hwloc)
		rc = hwloc_write(ctx, out_path) ? EXIT_FAIL : rc;
	if (!emit_is_text(ctx->e)) { /* the JSON is the record */
		json_t *j = machine_probes_json(ctx->rec);
		if (!j || json_object_update(emit_results(ctx->e), j) != 0) {
			error("out of memory for the JSON of the answers");
			rc = EXIT_FAIL;
		}
		json_decref(j);
	}
	return rc;
}

/* The options that go together, given the command line's groups (argc of them). 0, or -1 after
 * a usage error. */
static int options_check(const struct cli_probe_ctx *ctx, int argc, const char *out_path, const char *from_raw,
			 const char *topology, int plan)
{
	if (out_path && argc > 0) {
		error_usage("probe", "-o runs every group: give no GROUP");
		return -1;
	}
	if (from_raw && !out_path) {
		error_usage("probe", "--from-raw needs -o FILE");
		return -1;
	}
	if (ctx->hwloc && (!out_path || !*ctx->hwloc)) {
		error_usage("probe", !out_path ? "--hwloc needs -o FILE (it is written from the machine file)"
					       : "--hwloc '': no file name");
		return -1;
	}
	if (ctx->force && !out_path) {
		error_usage("probe", "--force needs -o FILE");
		return -1;
	}
	if (topology && !plan) {
		error_usage("probe", "--topology needs --plan (a recorded machine can be planned, not measured)");
		return -1;
	}
	if (plan && (argc > 0 || out_path || from_raw)) {
		error_usage("probe", "--plan plans a full probe: give no GROUP, -o or --from-raw");
		return -1;
	}
	if (plan && (ctx->plot_dir || ctx->raw_dir)) { /* nothing measured: no curve to draw or save */
		error_usage("probe", "--plan measures nothing, so %s has no curves to write: run the probe without "
			    "--plan for them", ctx->plot_dir ? "--plot" : "--raw");
		return -1;
	}
	return 0;
}

/* probe --plan: what a full probe would run, measuring nothing. Returns 0 or an exit code. */
static int plan_run(struct cli_probe_ctx *ctx, int json, const char *topology)
{
	ctx->e = emit_new(json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (!ctx->e) {
		error("out of memory");
		return EXIT_FAIL;
	}
	int prc = cli_probe_plan(ctx->e, topology, ctx->env.quick, ctx->env.seed);
	if (prc != 0) {
		emit_free(ctx->e);
		return prc;
	}
	return cli_emit_end(ctx->e, "probe"); /* frees the emitter */
}

/* Measures the selected groups (or, with --from-raw, loads the saved answers) and renders them;
 * -o writes the machine file. Returns 0 or an exit code. */
static int measure(struct cli_probe_ctx *ctx, int json, int cpu, int *selected, const char *from_raw,
		   const char *out_path)
{
	if (out_path && cli_output_check("probe", out_path, ctx->force) != 0)
		return EXIT_USAGE;
	if (ctx->hwloc && cli_output_check("probe", ctx->hwloc, 0) != 0)
		return EXIT_USAGE;
	json_t *bench = NULL;
	struct machine_probes *rec = malloc(sizeof(*rec));
	if (!rec)
		return error("out of memory"), EXIT_FAIL;
	machine_probes_init(rec);
	ctx->rec = rec;
	if (from_raw && cli_probe_machine_load(from_raw, rec, &bench) != 0) {
		machine_probes_release(rec); /* the answers read before benchmarks.json was refused */
		free(rec);
		return EXIT_USAGE;
	}
	if (from_raw) /* nothing is measured: the saved results stand for every group */
		memset(selected, 0, NPROBES * sizeof(*selected));
	/* Ctrl-C keeps what was measured; caught before the set-up, which can take seconds */
	interrupt_install();
	int rc = setup(ctx, cpu);
	if (rc != 0) {
		machine_probes_release(rec);
		free(rec);
		probe_env_release(&ctx->env);
		json_decref(bench);
		interrupt_restore();
		return interrupted() ? INTERRUPT_EXIT : rc;
	}
	ctx->e = emit_new(json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (!ctx->e) {
		error("out of memory");
		emit_free(ctx->e);
		json_decref(bench);
		rc = EXIT_FAIL;
	} else {
		rc = probe_run(ctx, selected, from_raw != NULL, bench, out_path); /* takes bench */
		int end = cli_emit_end(ctx->e, "probe");
		rc = rc ? rc : end ? end : ctx->save_failed ? EXIT_FAIL : 0;
	}
	machine_probes_release(rec);
	free(rec);
	probe_env_release(&ctx->env);
	interrupt_restore();
	return interrupted() ? INTERRUPT_EXIT : rc;
}

int cmd_probe(int argc, char **argv)
{
	struct cli_probe_ctx ctx = { .env = { .seed = rng_seed_from_time() }, .group = -1 };
	int remeasure = 2;
	const char *out_path = NULL, *from_raw = NULL, *topology = NULL;
	int cpu = -1, json = 0, plan = 0;
	const struct opt options[] = {
		OPT_INT(0, "cpu", &cpu, "N", 0, AS_MAX_CPUS - 1, "pin the probe thread to CPU N (default: the first allowed CPU)"),
		OPT_FLAG(0, "quick", &ctx.env.quick, "fewer repetitions and passes: an answer in a few seconds"),
		OPT_U64(0, "seed", &ctx.env.seed, "N", 0, UINT64_MAX,
			"seed for the random permutations (default: from the clock; always printed)"),
		OPT_RAW(&ctx.raw_dir),
		OPT_PLOT(&ctx.plot_dir),
		OPT_JSON(&json),
		OPT_STRING('o', "output", &out_path, "FILE",
			   "run every group and the streaming benchmarks per level and core count, and\n"
			   "write the machine file FILE (YAML, Kerncraft's keys plus 'archscope:')"),
		OPT_STRING(0, "hwloc", &ctx.hwloc, "FILE.xml",
			   "with -o: also write this machine's hwloc topology with the machine file's\n"
			   "measured values to FILE.xml, as 'machine export --hwloc' does"),
		OPT_FLAG(0, "force", &ctx.force, "with -o: write FILE even if it is a symbolic link (its target is\n"
						  "replaced), a device or a FIFO (written into)"),
		OPT_STRING(0, "from-raw", &from_raw, "DIR",
			   "with -o: write the machine file from DIR/probe-results.json and\n"
			   "DIR/benchmarks.json of an earlier 'probe -o FILE --raw DIR', measuring nothing"),
		OPT_FLAG(0, "all-pairs", &ctx.env.all_pairs, "c2c: measure every pair of CPUs (round robin), not a few per\n"
							    "topology class with the matrices filled by class"),
		OPT_FLAG(0, "all-teams", &ctx.env.all_teams, "contexts: every team size 1, 2, ... until the time doubles, not\n"
							    "doubling then bisection at the knee"),
		OPT_FLAG(0, "plan", &plan, "measure nothing: print what a full probe would run (steps, c2c classes\n"
					   "and the pairs measured in each, contexts' team sizes) and its predicted\n"
					   "time from step costs measured beforehand"),
		OPT_STRING(0, "topology", &topology, "FILE", "with --plan: plan for the machine of an hwloc XML file\n"
							     "(as lstopo writes it) instead of this one"),
		OPT_INT(0, "remeasure", &remeasure, "N", 0, 10,
			"measure a group again up to N times (default 2, within twice its first\n"
			"time) while other processes, steal or the clock disturbed it, or an answer\n"
			"broke a physical bound; what stays disturbed is flagged (docs/conditions.md)"),
		OPT_DOUBLE(0, "wait-quiet", &ctx.wait_quiet_s, "SECONDS", 0, 86400,
			   "before each group, wait until the CPUs are quiet, at most SECONDS\n"
			   "(alone: 60)", .flags = OPT_F_OPTARG, .argdef = "60"),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &probe_cmd, options);
	ctx.max_attempts = 1 + remeasure;
	if (argc < 0)
		return opt_exit_code(argc);
	int selected[NPROBES] = { 0 };
	if (groups_select(argc, argv, selected) != 0)
		return EXIT_USAGE;
	if (options_check(&ctx, argc, out_path, from_raw, topology, plan) != 0)
		return EXIT_USAGE;
	if (plan)
		return plan_run(&ctx, json, topology);
	return measure(&ctx, json, cpu, selected, from_raw, out_path);
}
