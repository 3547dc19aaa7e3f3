/* archscope stat: counts a program's events over repeated runs (EvSel, NUMA thesis §4.1) and
 * shows per event the mean with its standard error, min, max, a derived rate and the per-run
 * values; or counts a running process (-p) or every CPU (-a). The report goes to stderr or -o
 * FILE, never into the program's stdout; `compare` and `regress` read or reuse what it measures. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/parse-options.h"
#include "cli/cmd-stat.h"
#include "common/interrupt.h"
#include "measure/counters.h"
#include "measure/stat-select.h"
#include "measure/stat.h"
#include "probe/clock.h"
#include "report/emit.h"

static const char *const stat_usage[] = {
	"archscope stat [-e EVENT,...|--all|-M GROUP] [-r RUNS] [-I MS] [--per-thread] [--regions] [-o FILE] [-x SEP|--json] -- COMMAND [ARGS...]",
	"archscope stat -p PID [-e ...] [-I MS] [-o FILE] [-x SEP|--json] [-- TIMER-COMMAND ...]",
	"archscope stat -a [-e ...] [-I MS] [-o FILE] [-x SEP|--json] [-- COMMAND ...]",
	NULL
};
static const struct opt_cmd stat_cmd = {
	.name = "stat",
	.usage = stat_usage,
	.description =
		"Runs COMMAND RUNS times with its events counted from its exec (perf_event_open, inherited by its\n"
		"threads and children) and shows per event the mean, ± its standard error (stddev / sqrt(n), as perf\n"
		"stat's ±), min, max, a derived rate (CPUs utilized, GHz, IPC, per second) and the per-run values.\n"
		"Hardware events are packed into groups that open together; more groups than fit count in further\n"
		"batches of RUNS runs, never multiplexed silently (a scaled value is flagged). An event that did not\n"
		"count is <not counted> (null in JSON), never 0. rusage, the main thread's schedstat, the wall time\n"
		"and the conditions (load, measured clock, governor, CPU, kernel, time, affinity) are recorded.\n"
		"The report goes to stderr (or -o FILE), never into the program's stdout, which stays its own.\n"
		"-p counts a running process until it exits, TIMER-COMMAND ends, or Ctrl-C; -a counts every CPU.\n"
		"--regions also counts the regions the program marks (LIKWID's likwid-marker.h, unchanged, or\n"
		"archscope-marker.h): per region its calls, time and each thread's counts, summed over its threads.\n",
	.epilog = "Without -e the events are perf stat's default set. Groups (-M) are data files in share/archscope/groups.\n"
		  "Ctrl-C or SIGTERM goes to the program's process group; the runs done are reported, marked\n"
		  "interrupted, without the cut run, and stat exits 130 (a second one ends it at once). Exit 1: the\n"
		  "program failed or crashed; 2: bad options or a program that cannot be started.\n"
		  "Save a run with -o FILE (JSON, written atomically) and compare two with 'archscope compare'.\n",
	.flags = OPT_CMD_STOP_AT_NON_OPTION,
};

struct stat_live {
	const char *sep; /* NULL: text */
	int header;
	struct cli_regions *regions; /* --regions: its records read between runs */
};

/* Before each run: the region records of the run before it, then the progress line. */
static void stat_on_run(void *ctx, int done, int total)
{
	struct stat_live *l = ctx;
	cli_regions_collect(l->regions, done);
	progress("running: %d of %d", done + 1, total);
}

static void stat_on_interval(void *ctx, const struct measure_stat *m, const struct stat_interval *iv)
{
	struct stat_live *l = ctx;
	progress_done();
	if (!l->sep && !l->header) {
		fprintf(stderr, "%14s %22s  %s\n", "time (s)", "count in interval", "event");
		l->header = 1;
	}
	measure_stat_interval_write(stderr, m, iv, l->sep);
}

static void stat_render_cb(struct emit *e, const void *ctx)
{
	cli_stat_render(e, ctx);
}

/* -x SEP: perf's CSV to -o FILE, or to stderr (the intervals printed as they came are not printed
 * again). EXIT_OK, or EXIT_FAIL after error(). */
static int stat_deliver_csv(struct measure_stat *m, const char *out, const char *sep, int live_print)
{
	int rc;
	char *buf = NULL;
	size_t len = 0;
	FILE *ms = open_memstream(&buf, &len);
	if (ms) {
		/* the intervals printed as they came are not printed again */
		int nint = m->nint;
		if (live_print)
			m->nint = 0;
		measure_stat_csv_write(ms, m, sep);
		m->nint = nint;
		fclose(ms);
	}
	if (!buf)
		rc = error("out of memory") ? EXIT_FAIL : EXIT_FAIL;
	else if (out && !m->interrupted)
		rc = cli_report_write_file(out, buf, len);
	else {
		if (out)
			cli_report_kept_warning(out, "CSV");
		rc = cli_report_to_stderr("stat", buf, len);
	}
	free(buf);
	return rc;
}

/* What was counted, for people: the program as typed, else "-p PID" or "-a". */
static void stat_command_line(char **argv, int pid, char *buf, size_t len)
{
	if (argv)
		cli_command_line(argv, buf, len);
	else
		snprintf(buf, len, pid ? "-p %d" : "-a", pid);
}

/* The combinations of options stat refuses, before anything runs. 0, or EXIT_USAGE after error(). */
static int stat_options_check(int argc, int pid, int system, int runs, int interval_ms, int per_thread, int regions,
			      int json, const char *sep, const char *out)
{
	if (pid && system)
		return error_usage("stat", "give one of -p and -a"), EXIT_USAGE;
	if (argc < 1 && !pid && !system)
		return error_usage("stat", "a command to run is required (archscope stat -- COMMAND ...)"), EXIT_USAGE;
	if (sep && !*sep)
		return error_usage("stat", "-x needs a separator (-x ,)"), EXIT_USAGE;
	if (sep && json)
		return error_usage("stat", "give one of -x and --json"), EXIT_USAGE;
	if (regions && (pid || system))
		return error_usage("stat", "--regions counts a program it starts, without -p and -a"), EXIT_USAGE;
	if (regions && sep)
		return error_usage("stat", "--regions: give --json or text, not -x"), EXIT_USAGE;
	if (per_thread && (pid || system || interval_ms))
		return error_usage("stat", "--per-thread counts a program it starts, without -p, -a and -I"), EXIT_USAGE;
	if ((pid || (system && argc < 1)) && runs > 1)
		return error_usage("stat", "-r: %s counts one window; it cannot repeat it",
				   pid ? "-p" : "-a without a command"),
		       EXIT_USAGE;
	if (pid && kill((pid_t)pid, 0) != 0 && errno == ESRCH)
		return error_usage("stat", "-p %d: no such process", pid), EXIT_USAGE;
	/* the output is checked before anything runs: a measurement is not lost to an unwritable FILE */
	if (out && cli_output_check("stat", out, 0) != 0)
		return EXIT_USAGE;
	return 0;
}

/* The report of a finished measurement (text, JSON or CSV), then the program's own status:
 * non-zero when either failed. */
static int stat_report(struct cli_stat_result *r, const char *out, const char *sep, int json, int live_print)
{
	struct measure_stat *m = r->m;
	int rc;
	measure_stat_failures(m, &r->failed, &r->crashed);
	if (sep)
		rc = stat_deliver_csv(m, out, sep, live_print);
	else
		rc = cli_report_deliver("stat", out, json, m->interrupted, stat_render_cb, r);
	interrupt_restore();
	int program_rc = cli_program_report(r->command, m);
	if (m->signal && !m->interrupted)
		note("counting ended by %s after %.3f s", strsignal(m->signal), m->run[0].seconds);
	return rc ? rc : program_rc;
}

/* -a needs the right to count every CPU: said before anything runs. */
static int stat_system_check(struct stat_select *sel)
{
	struct as_error err = { 0 };
	if (counters_system_wide_check(&err) == 0)
		return 0;
	error("-a: %s", err.msg);
	measure_stat_select_release(sel);
	return EXIT_FAIL;
}

int cmd_stat(int argc, char **argv)
{
	struct cli_stat_args a = { 0 };
	int runs = -1, json = 0, verbose = 0, per_thread = 0, interval_ms = 0, pid = 0, system = 0, regions = 0;
	const char *out = NULL, *sep = NULL;
	const struct opt options[] = {
		OPT_STRINGS('e', "event", &a.events, "EVENT", "events to count (repeatable, comma lists; libpfm4 or perf names)"),
		OPT_FLAG(0, "all", &a.all, "every event of this CPU's PMUs and every software event"),
		OPT_STRING('M', "metrics", &a.group, "GROUP", "a metric group from share/archscope/groups (FLOPS, MEM, L2, L3, BRANCH)"),
		OPT_INT('r', "repeat", &runs, "RUNS", 1, 100000, "runs per batch of events (default 5; 1 with -p, -a, -I)"),
		OPT_INT('I', "interval-print", &interval_ms, "MS", 1, 3600000, "also print the counts of every MS milliseconds"),
		OPT_INT('p', "pid", &pid, "PID", 1, 0x7fffffff, "count the running process PID (its threads) instead"),
		OPT_FLAG('a', "all-cpus", &system, "count every CPU (system-wide; root or perf_event_paranoid <= 0)"),
		OPT_FLAG(0, "per-thread", &per_thread, "also count each thread and child process by itself (ptrace)"),
		OPT_FLAG(0, "regions", &regions, "also count the regions the program marks (LIKWID marker API, archscope-marker.h)"),
		OPT_STRING('o', "output", &out, "FILE", "write the JSON (CSV with -x) to FILE, atomically, not to stderr"),
		OPT_STRING('x', "field-separator", &sep, "SEP", "CSV as perf stat -x: value,unit,event,±,,%counted,rate"),
		OPT_COUNTER('v', "verbose", &verbose, "show the per-run values and the runs"),
		OPT_JSON(&json),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &stat_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (runs <= 0) /* -r not given */
		runs = pid || system || interval_ms ? 1 : 5;
	if (stat_options_check(argc, pid, system, runs, interval_ms, per_thread, regions, json, sep, out))
		return EXIT_USAGE;
	struct stat_select sel;
	int rc = cli_stat_select("stat", &a, &sel);
	if (rc)
		return rc;
	if (system && (rc = stat_system_check(&sel)))
		return rc;
	char cmdline[1024];
	stat_command_line(argc >= 1 ? argv : NULL, pid, cmdline, sizeof(cmdline));
	struct cli_regions reg;
	struct stat_live live = { .sep = sep, .regions = regions ? &reg : NULL };
	if (regions && (rc = cli_regions_begin_events(&reg, (const char *const *)sel.names, a.events.n ? sel.n : 0))) {
		measure_stat_select_release(&sel);
		return rc;
	}
	/* intervals as they come, where the report goes to stderr in text or CSV */
	int live_print = interval_ms && !json && (!out || !sep);
	struct stat_opts o = { .runs = runs, .stdout_fd = -1, .stderr_fd = 2, .per_thread = per_thread,
			       .target = pid ? STAT_TARGET_ATTACH : system ? STAT_TARGET_SYSTEM : STAT_TARGET_PROGRAM,
			       .attach_pid = (pid_t)pid, .interval_s = interval_ms / 1e3,
			       .on_interval = live_print ? stat_on_interval : NULL, .ctx = &live,
			       .progress = regions ? stat_on_run : NULL };
	struct stat_conditions cond;
	measure_stat_conditions_before(&cond, clock_window_ghz());
	struct measure_stat m;
	interrupt_install();
	rc = cli_stat_measure(&m, &sel, argc >= 1 ? argv : NULL, &o);
	if (regions)
		cli_regions_end(&reg, m.nrun);
	if (rc) {
		interrupt_restore();
		if (regions)
			cli_regions_release(&reg);
		measure_stat_release(&m);
		measure_stat_select_release(&sel);
		return interrupt_signal() && rc == EXIT_FAIL ? INTERRUPT_EXIT : rc;
	}
	measure_stat_conditions_after(&cond, clock_window_ghz());
	struct cli_stat_result r = { .command = cmdline, .m = &m, .sel = &sel, .verbose = verbose, .cond = &cond,
				     .regions = regions ? &reg : NULL };
	rc = stat_report(&r, out, sep, json, live_print);
	int interrupted = m.interrupted;
	if (regions)
		cli_regions_release(&reg);
	measure_stat_release(&m);
	measure_stat_select_release(&sel);
	if (interrupted)
		return INTERRUPT_EXIT;
	return rc ? EXIT_FAIL : EXIT_OK;
}
