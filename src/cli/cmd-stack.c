/* archscope stack: speedup stacks of a multi-threaded program (Eyerman et al., "Speedup Stacks"),
 * without root or counters: runs it under the preload library at each thread count and renders
 * the stacks, the dominant delimiter and its call sites. The renderer is in cmd-stack-render.c. */
#include <errno.h>
#include <stdint.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd-stack.h"
#include "cli/cmd-stack-regions.h"
#include "cli/cmd-stack-whatif.h"
#include "cli/util-whatif.h"
#include "cli/parse-options.h"
#include "common/cpuset.h"
#include "common/interrupt.h"
#include "common/number.h"
#include "report/emit.h"

#define STACK_THREADS_MAX 4096

/* -t N or -t 1,2,4: the thread counts, into the opts. Each item is a whole decimal number
 * (common/number.h: no space, sign, hex or exponent), none empty ("1,,2" or "1,2,"). */
static int threads_cb(const struct opt *o, const char *arg, const char *value)
{
	(void)value;
	struct scale_opts *so = o->value;
	so->npoints = 0;
	for (const char *p = arg;;) {
		size_t n = strcspn(p, ",");
		char item[32];
		int64_t v;
		int rc = n < sizeof(item) ? (snprintf(item, sizeof(item), "%.*s", (int)n, p),
					     number_parse_i64(item, INT64_MIN, INT64_MAX, &v))
					  : -EINVAL;
		if (n == 0) {
			error("-t '%s': an empty thread count (give N or a list such as 1,2,4)", arg);
			return -1;
		}
		if (rc == 0 && v < 1)
			rc = -EINVAL;
		if (rc == -ERANGE || (rc == 0 && v > STACK_THREADS_MAX)) {
			error("-t '%s': %.*s threads is beyond the limit of %d (each count 1 to %d)", arg, (int)n, p,
			      STACK_THREADS_MAX, STACK_THREADS_MAX);
			return -1;
		}
		if (rc) {
			error("-t '%s': '%.*s' is not a thread count (a decimal number 1 to %d; a list such as 1,2,4)", arg,
			      (int)n, p, STACK_THREADS_MAX);
			return -1;
		}
		if (so->npoints >= SCALE_POINTS_MAX - 1) {
			error("-t '%s': more than %d thread counts (the limit)", arg, SCALE_POINTS_MAX - 1);
			return -1;
		}
		so->threads[so->npoints++] = (int)v;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

static void stack_progress(void *ctx, int threads, int rep, int reps)
{
	(void)ctx;
	progress("stack: %d thread%s, run %d of %d", threads, threads == 1 ? "" : "s", rep + 1, reps);
}

static const struct opt_cmd stack_cmd = {
	.name = "stack",
	.usage = (const char *const[]){ "archscope stack [-t N|-t 1,2,4,...] [-r R] [--regions] [--whatif] [--json] [--plot DIR] -- CMD ARGS",
					NULL },
	.description =
		"Runs CMD at each thread count N (\"{T}\" in ARGS becomes N, and OMP_NUM_THREADS=N) R times,\n"
		"and once more with one thread for the actual speedup S = T1/TN, under a preload library that\n"
		"times every wait in pthread locks, condition variables, barriers, semaphores, spin locks,\n"
		"sched_yield, sleeps and futex calls, OpenMP (libomp through OMPT, libgomp) and MPI waits,\n"
		"and follows every process CMD starts; run and run-queue time come from schedstat, spinning\n"
		"in user code from sampling, other processes' load from /proc/stat. Each stack splits N into\n"
		"the base speedup and one component per scaling delimiter (speedup units), and names the\n"
		"dominant one with its call sites. Needs neither root nor hardware counters. The program's\n"
		"own output is not shown. Ctrl-C prints the runs measured so far and exits 130.\n",
	.flags = OPT_CMD_STOP_AT_NON_OPTION,
};

/* The runs' stacks (text or JSON), the plot, and the exit code: 130 when interrupted, 1 when the
 * program failed or every run of a thread count was rejected. */
static int stack_render(const struct scale_opts *so, const struct scale_result *res, const struct stack_whatif *wi,
			int json, const char *plot, const struct cli_stack_regions *regions)
{
	struct emit *e = emit_new(json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (!e)
		return error("out of memory"), EXIT_FAIL;
	cli_stack_render(e, so, res);
	if (regions)
		cli_stack_regions_render(e, regions);
	cli_stack_whatif_render(e, wi);
	int code = cli_emit_end(e, "stack");
	if (plot)
		cli_stack_plot(plot, res);
	if (plot && wi->res)
		cli_whatif_plot(plot, wi->res, 1); /* beside stack.svg: whatif.svg of the same program at N */
	if (res->interrupted) {
		error("interrupted by signal %d (%s): printed the runs measured before it", res->interrupted,
		      strsignal(res->interrupted));
		code = INTERRUPT_EXIT;
	} else if (wi->res && wi->res->interrupted) {
		error("interrupted by signal %d (%s): printed the stack and whatif's rounds finished before it",
		      wi->res->interrupted, strsignal(wi->res->interrupted));
		code = INTERRUPT_EXIT;
	} else if (code == EXIT_OK && (res->bad & (SCALE_BAD_STATUS | SCALE_BAD_CRASH | SCALE_BAD_TIMEOUT))) {
		cli_stack_report_failure(so, res);
		code = EXIT_FAIL;
	} else if (code == EXIT_OK && (res->bad & SCALE_BAD_REJECTED)) {
		error("'%s': every run of a thread count was rejected (%d tries each: see \"rejected\"); its stack "
		      "cannot be right", so->argv[0], SCALE_TRIES);
		code = EXIT_FAIL;
	}
	return code;
}

/* A note where more threads are asked than this process has CPUs. */
static void stack_note_oversubscribed(const struct scale_opts *so, const struct as_cpulist *cpus)
{
	int most = 0;
	for (int i = 0; i < so->npoints; i++)
		most = so->threads[i] > most ? so->threads[i] : most;
	if (most > cpus->n && !cli_quiet) {
		char list[256];
		note("%d threads on the %d CPU%s this process may use (%s): threads beyond them share CPUs, which "
		     "the stack shows as scheduling", most, cpus->n, cpus->n == 1 ? "" : "s",
		     cpulist_format(cpus, list, sizeof(list)));
	}
}

/* The options' checks that need more than one option: 0, or -1 after a usage error. */
static int stack_args_check(const struct scale_opts *so, const char *plot, const struct stack_whatif *wi)
{
	if (cli_output_dir_check("stack", "--plot", plot) != 0)
		return -1;
	if (so->sample_period_ms > 0 && so->sample_period_ms < 0.1)
		return error_usage("stack", "--sample-period %g: at least 0.1 ms (0: chosen by a sample's cost)",
				   so->sample_period_ms), -1;
	if (wi->on && wi->wo.nsites * wi->wo.rounds > WHATIF_ROUNDS_MAX)
		return error_usage("stack", "--whatif-sites %d x --whatif-rounds %d: at most %d baseline runs (fewer sites or "
				   "rounds)", wi->wo.nsites, wi->wo.rounds, WHATIF_ROUNDS_MAX), -1;
	return 0;
}

/* --whatif: whatif's rounds after the stack's runs, at its largest thread count; a failure is said
 * and leaves the stack to be printed (1). */
static int stack_whatif(struct stack_whatif *wi, const struct scale_opts *so, const struct scale_result *res)
{
	if (!wi->on || res->interrupted)
		return 0;
	struct as_error err = { 0 };
	if (cli_stack_whatif_run(wi, so, &err) == 0)
		return 0;
	error_err(&err);
	cli_stack_whatif_release(wi);
	return 1;
}

/* --regions: before each run, the records of the one before it and this run's thread count */
static void stack_progress_regions(void *ctx, int threads, int rep, int reps)
{
	stack_progress(NULL, threads, rep, reps);
	cli_stack_regions_run(ctx, threads);
}

/* Runs the program at every thread count (with --regions, under the marker library too) and
 * renders the stacks; the exit code. */
static int stack_measure(struct scale_opts *so, struct stack_whatif *wi, int regions, int json, const char *plot)
{
	struct cli_stack_regions sr;
	if (regions && cli_stack_regions_begin(&sr) != 0) {
		cli_stack_regions_release(&sr);
		return EXIT_FAIL;
	}
	if (regions) {
		so->progress = stack_progress_regions;
		so->ctx = &sr;
	}
	struct as_error err = { 0 };
	struct scale_result *res = calloc(1, sizeof(*res));
	int rc = res ? 0 : -ENOMEM;
	/* Ctrl-C or SIGTERM: forwarded to the program; the runs already measured are printed, the
	 * temporary files removed, exit 130; a second one ends at once (common/interrupt.h) */
	interrupt_install();
	rc = rc ? as_error_set(&err, rc, "out of memory") : scale_run(so, res, &err);
	int wi_failed = rc == 0 ? stack_whatif(wi, so, res) : 0;
	interrupt_restore();
	progress_done();
	if (regions) /* a run a signal cut is the last begun: left out, as from the stacks */
		cli_stack_regions_end(&sr, res && res->interrupted && sr.nrun > 0 ? sr.nrun - 1 : sr.nrun);
	int code = rc == 0 ? stack_render(so, res, wi, json, plot, regions ? &sr : NULL) : 0;
	if (rc) {
		error_err(&err);
		code = rc == -ENOENT ? EXIT_USAGE : EXIT_FAIL; /* -ENOENT: the program cannot run as named */
	} else {
		scale_result_release(res);
	}
	free(res);
	cli_stack_whatif_release(wi);
	if (regions)
		cli_stack_regions_release(&sr);
	return code == EXIT_OK && wi_failed ? EXIT_FAIL : code;
}

int cmd_stack(int argc, char **argv)
{
	struct scale_opts so = { .reps = 3, .spin = 1 };
	int json = 0, no_sample = 0, tracepoints = 0, regions = 0;
	const char *plot = NULL;
	double timeout_s = 600;
	struct stack_whatif wi;
	cli_stack_whatif_init(&wi);
	struct opt opts[] = {
		OPT_CALLBACK('t', "threads", &so, "N[,N...]",
			     "thread counts (default: the CPUs this process may use); \"{T}\" in ARGS becomes N", threads_cb),
		OPT_INT('r', "repetitions", &so.reps, "R", 1, SCALE_REPS_MAX, "runs of each thread count (default 3)"),
		OPT_FLAG(0, "no-sample", &no_sample, "do not sample threads for spinning in user code"),
		OPT_DOUBLE(0, "sample-period", &so.sample_period_ms, "MS", 0, 1000,
			   "one sample per MS ms of a thread's CPU time (default 0: 3.24 ms, or longer where a\n"
			   "sample is dear, measured: sampling costs at most 0.5 % of the program's CPU)"),
		OPT_FLAG(0, "tracepoints", &tracepoints,
			 "tier 1 (root): trace sched_switch/sched_wakeup, used where the preload library saw\n"
			 "nothing (static binaries: on by default as root)"),
		OPT_FLAG(0, "regions", &regions, "also the stack of each region the program marks (LIKWID marker API,\n"
						 "archscope-marker.h)"),
		OPT_DOUBLE(0, "timeout", &timeout_s, "S", 0, 1e6, "stop a run after S seconds (default 600; 0: never)"),
		OPT_FLAG(0, "whatif", &wi.on,
			 "then whatif's causal profile at the largest N, each site beside the stack with its\n"
			 "critical-path share (archscope-whatif(1))"),
		OPT_INT(0, "whatif-sites", &wi.wo.nsites, "N", 1, WHATIF_SITES_MAX, "with --whatif: sites tried (default 2)"),
		OPT_CALLBACK(0, "whatif-speedups", &wi, "LIST", "with --whatif: line speedups (default 0.5,1)",
			     cli_stack_whatif_speedups_cb),
		OPT_INT(0, "whatif-rounds", &wi.wo.rounds, "R", 1, 16, "with --whatif: runs of each site and speedup (default 2)"),
		OPT_JSON(&json),
		OPT_PLOT(&plot),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	int n = opt_parse(argc, argv, &stack_cmd, opts);
	if (n < 0)
		return opt_exit_code(n);
	if (n == 0)
		return error_usage("stack", "no program to run: archscope stack [options] -- CMD ARGS"), EXIT_USAGE;
	if (stack_args_check(&so, plot, &wi) != 0)
		return EXIT_USAGE;
	so.argv = argv;
	so.spin = !no_sample;
	so.tracepoints = tracepoints;
	so.timeout_s = timeout_s;
	so.progress = stack_progress;
	struct as_error err = { 0 };
	struct as_cpulist cpus;
	if (cpulist_allowed(&cpus, &err) != 0)
		return error_err(&err), EXIT_FAIL;
	if (!so.npoints)
		so.threads[so.npoints++] = cpus.n;
	stack_note_oversubscribed(&so, &cpus);
	char preload[4096];
	/* checked before anything runs: a bad $ARCHSCOPE_PRELOAD is the user's (exit 2) */
	if (scale_preload_find(preload, sizeof(preload), &err) != 0)
		return error_err(&err), err.code == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
	so.preload = preload;

	return stack_measure(&so, &wi, regions, json, plot);
}
