/* Shared by stat, compare, regress and phases: the event selection from the options, the
 * measurement of a program, stat's renderer, the conditions of a measurement (measure/stat-show.h)
 * rendered, and where the report of a command that runs a program goes (never into the
 * program's stdout). */
#ifndef ARCHSCOPE_CLI_CMD_STAT_H
#define ARCHSCOPE_CLI_CMD_STAT_H

#include <stddef.h>
#include <stdio.h>

#include "cli/parse-options.h"
#include "measure/stat-select.h"
#include "measure/stat-show.h"
#include "measure/stat.h"

struct emit;

/* results.conditions in JSON; one line for people in text. */
void cli_stat_conditions_render(struct emit *e, const struct stat_conditions *c);

struct cli_stat_result {
	const char *command;          /* the program as typed, for people */
	struct measure_stat *m;
	const struct stat_select *sel;
	const struct stat_conditions *cond; /* NULL: not recorded */
	int verbose;                  /* text: per-run values and the runs table */
	int failed, crashed;          /* runs that exited non-zero / died of a signal */
};

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

void cli_stat_render(struct emit *e, const struct cli_stat_result *r);
/* Errors for runs that failed or crashed; EXIT_FAIL then, else EXIT_OK. */
int cli_stat_report_program(const struct cli_stat_result *r);

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

#endif
