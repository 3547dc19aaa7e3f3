/* Shared pieces of the command files: the command table type, error reporting with one prefix
 * ("archscope: error: "), the machine block of the JSON envelope, and result emission.
 * How a command is written: docs/cli-conventions.md. */
#ifndef ARCHSCOPE_CLI_CLI_H
#define ARCHSCOPE_CLI_CLI_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/parse-options.h"
#include "common/error.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

struct cli_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

/* Set by --quiet (OPT_QUIET()): note() and progress() print nothing; errors still print. */
extern int cli_quiet;

/* Prints "archscope: error: MSG" on stderr and returns -1 (git's error()): a function that finds
 * a problem reports it and returns; only the command decides the exit code. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* error(), then "see 'archscope CMD --help'": a usage error (the command then exits 2). */
int error_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The closing line of a usage error: "see 'archscope CMD --help'" ("'archscope --help'" if NULL). */
void usage_hint(const char *cmd);
/* Each line of a library's report (machine_check's problems) through error(), so every line
 * carries the one prefix. */
void error_lines(const char *text);
/* The library's message through error(); returns -1. */
int error_err(const struct as_error *err);
/* The end of a measuring command: one note on stderr with the conditions of every step it
 * measured (common/conditions.h's cond_summary), nothing when it measured none. */
void cli_conditions_summary(void);
struct emit;
struct conditions;
/* JSON only: "conditions" {wall_s, cpus, foreign_cpus, foreign_other_cpus, steal_pct, switches_per_s, clock_ghz,
 * clock_expected_ghz, involuntary_switches, migrations, attempts, noisy, why} and "noisy" beside it
 * (util-conditions.c). */
void cli_conditions_render(struct emit *e, const char *key, const char *noisy_key, const struct conditions *c);

/* One working set per memory level (bench_levels_from) from a quick cache probe on `cpu` in the
 * environment `probe` builds (probe/env.h; the line measured first, 4 KiB pages, up to 256 MiB),
 * as bench --level, --ecm and --threads-scaling and numa matrix size their streams. Pins the
 * calling thread to cpu. env_out (may be NULL) receives the probe's environment after the run
 * (line, witnesses, levels; no topology). cmd names the command in messages. 0, or an exit code
 * after error() (util-levels.c). */
struct bench_levels;
struct probe_env;
int cli_levels_measure(const char *cmd, int cpu, volatile int *stop, struct bench_levels *out, struct probe_env *env_out);

/* Optimal string alignment distance between two words (edits, transpositions count 1). */
int cli_edit_distance(const char *a, const char *b);
/* For a word that is not among names[0..n): prints "\tdid you mean 'PREFIXname'?" on stderr for
 * each closest name (at most 2 edits away, or starting with the word when it has >= 2
 * characters); returns how many were printed. */
int cli_suggest(const char *word, const char *const *names, size_t n, const char *prefix);

/* A one-line note on stderr ("archscope: note: ..."); --quiet silences it. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "archscope: warning: ..." on stderr, also with --quiet: a result the user should doubt
 * (the command still succeeds). */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Hostname, kernel, OS-reported CPU model and CPU counts, for the JSON envelope. */
json_t *cli_machine_json(void);

struct emit;
/* Ends a command's output (report/emit.h): in JSON mode prints the envelope with this machine's
 * block; frees e. Returns EXIT_OK, or EXIT_FAIL after error(). */
int cli_emit_end(struct emit *e, const char *command);
/* A table row's numbers for people (no JSON key): each cell's label, value, unit and printf format
 * (util-envelope.c). */
struct cli_cell {
	const char *label;
	double value;
	const char *unit;
	const char *fmt;
};
void cli_emit_cells(struct emit *e, const struct cli_cell *cells, size_t n);

/* Progress on stderr, silenced by --quiet: on a terminal one line updated in place ("\r",
 * cleared by progress_done()); otherwise (a log, a pipe) a line "archscope: progress: ..." per
 * step, at most one a second. */
void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void progress_done(void);

/* For an option writing FILE (-o): 0 when FILE may be replaced (absent or a regular file, and
 * its directory writable: tried now, before a long run); else a usage error naming why (a
 * symbolic link, device or FIFO is written only with force) and -1. */
int cli_output_check(const char *cmd, const char *path, int force);

/* For --plot DIR and --raw DIR (opt: "--plot"), before anything is measured: 0 when DIR is usable
 * (report/plot.h's plot_dir_prepare: created when absent, its parent must exist, a directory and
 * no symbolic link, writable); else an error naming the option, DIR and the reason, and -1 (the
 * command exits 2). A NULL dir is fine. */
int cli_output_dir_check(const char *cmd, const char *opt, const char *dir);
/* After plot_render() (pr: its result) of DIR/NAME: says why a picture is missing, as a warning
 * that --quiet does not hide (the user asked for it): gnuplot absent (the script and data are
 * there) or failed. Returns 0 when drawn, -1 otherwise. */
int cli_plot_done(int pr, const char *dir, const char *name, const struct as_error *err);

/* For a command reading several input files: a usage error (-1) when standard input ("-") is
 * named more than once, as it can be read once; else 0. */
int cli_stdin_once(const char *cmd, char *const *paths, int n);
/* LIBPFM_FORCE_PMU, where set, names a PMU libpfm4 knows; else a usage error naming the variable
 * (-1). For the commands that encode events (stat, regress, phases, events). */
int cli_forced_pmu_check(const char *cmd);

struct mtree;
/* Loads and checks a machine file, a path or a name of the installed ones (-m kvm-xeon-6-207:
 * cli_resolve_named); on failure prints every problem and returns -1 (a usage error: exit 2). */
int cli_machine_open(const char *path, struct mtree *t);
/* arg as a file of KIND ("kernels", "machines", "groups"; ext ".c", ".yaml", ".txt"): a path as it is,
 * else a name in the share directory or the source tree (common/paths-names.h). 0 with the path in
 * buf; else the error printed ("cannot open WHAT 'arg': ...") and -1. */
int cli_resolve_named(const char *what, const char *kind, const char *ext, const char *arg, char *buf, size_t len);

/* Commands that run a program (stat, compare -r, regress, phases): the events chosen by the
 * options, the measurement, the program's outcome, and where the report goes (never into the
 * program's stdout). util-program.c. */
struct measure_stat;
struct stat_select;
struct stat_opts;
/* The options that choose events: -e (repeatable, comma lists), --all, -M GROUP. */
struct cli_stat_args {
	struct opt_strings events;
	int all;
	const char *group;
};

/* Fills sel from the options (defaults without any). Returns 0, or an exit code after error(). */
int cli_stat_select(const char *cmd, const struct cli_stat_args *a, struct stat_select *sel);
/* Plans and runs the measurement o describes (argv `o->runs` times per batch; the program's stdout
 * is its own). o->progress NULL: a progress line. Returns 0, or an exit code after error(): 2 when
 * the program cannot be started (its message says why). */
int cli_stat_measure(struct measure_stat *m, const struct stat_select *sel, char **argv, const struct stat_opts *o);
/* Joins argv for people ("./a.out 10"). */
void cli_command_line(char **argv, char *buf, size_t len);

/* The program's outcome in m as errors ("'CMD' exited with status 3 (in 2 of 5 runs)", a crash,
 * an interruption's note); EXIT_FAIL when a run failed or crashed, else EXIT_OK. */
int cli_program_report(const char *command, const struct measure_stat *m);
/* Where the report of a command that runs a program goes: stderr (as perf stat), or FILE. */
typedef void (*cli_report_render_fn)(struct emit *e, const void *ctx);
/* Renders the report in mode into a malloc'd buffer. EXIT_OK or EXIT_FAIL after error(). */
int cli_report_render(const char *cmd, int json, cli_report_render_fn fn, const void *ctx, char **buf, size_t *len);
/* Writes len bytes to path atomically, with SIGINT/SIGTERM/SIGHUP held off meanwhile (a second one
 * must not leave the temporary file behind). EXIT_OK or EXIT_FAIL after error(). */
int cli_report_write_file(const char *path, const char *buf, size_t len);
/* The rules, for stat, regress and phases: with -o FILE the JSON goes to FILE (unless the result
 * was interrupted: an interrupted result never replaces a file; a warning says so and the JSON goes
 * to stderr, after the text); the text for people goes to stderr unless json (then the JSON does,
 * without -o). */
int cli_report_deliver(const char *cmd, const char *out, int json, int interrupted, cli_report_render_fn fn, const void *ctx);
/* The warning of an interrupted result that -o FILE did not get: FILE "is left as it was" where
 * there was one, else "not written"; `what` ("JSON", "CSV") follows on stderr. */
void cli_report_kept_warning(const char *out, const char *what);
/* fwrite to stderr, checked. */
int cli_report_to_stderr(const char *cmd, const char *buf, size_t len);

/* The commands. */
int cmd_topology(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_phases(int argc, char **argv);
int cmd_memhist(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_machine(int argc, char **argv);
int cmd_numa(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_regress(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_stack(int argc, char **argv);
int cmd_whatif(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_cluster(int argc, char **argv);

#endif
