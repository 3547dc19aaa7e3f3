/* Shared by stat, compare, regress and phases: the event selection from the options, the
 * measurement of a program, stat's renderer, the conditions of a measurement, and where the
 * report of a command that runs a program goes (never into the program's stdout). */
#ifndef ARCHSCOPE_CLI_CMD_STAT_H
#define ARCHSCOPE_CLI_CMD_STAT_H

#include <stddef.h>
#include <stdio.h>

#include "cli/parse-options.h"
#include "measure/stat-select.h"
#include "measure/stat.h"

struct emit;

/* What the machine was doing around a measurement, so that two results taken under different
 * conditions are not compared silently (issue 35): load, clock, CPU, kernel, version, time,
 * affinity. Numbers NaN and strings "" when unknown. */
struct stat_conditions {
	char started[40], ended[40];  /* UTC, ISO 8601 */
	double load_before[3], load_after[3]; /* /proc/loadavg: 1, 5, 15 minutes */
	double clock_before_ghz, clock_after_ghz; /* measured: dependent adds on archscope's CPU, ~1 ms */
	double cpu_mhz_os;            /* /proc/cpuinfo's "cpu MHz" of the first CPU (OS-reported) */
	char governor[32];            /* cpufreq governor of CPU 0 ("" without cpufreq) */
	char cpu_model[128], kernel[256], hostname[128];
	char cpus_allowed[256];       /* the affinity the program inherits */
	int cpus_online;
};

void stat_conditions_before(struct stat_conditions *c);
void stat_conditions_after(struct stat_conditions *c);
/* results.conditions in JSON; one line for people in text. */
void stat_conditions_render(struct emit *e, const struct stat_conditions *c);

struct stat_result {
	const char *command;          /* the program as typed, for people */
	struct measure_stat *m;
	const struct stat_select *sel;
	const struct stat_conditions *cond; /* NULL: not recorded */
	int verbose;                  /* text: per-run values and the runs table */
	int failed, crashed;          /* runs that exited non-zero / died of a signal */
};

/* The options that choose events: -e (repeatable, comma lists), --all, -M GROUP. */
struct stat_args {
	struct opt_strings events;
	int all;
	const char *group;
};

/* The directory of the metric groups: $ARCHSCOPE_SHARE_DIR/groups, else the installed
 * share/archscope/groups relative to the binary, else the source tree's share/groups beside a build
 * directory (common/paths.h). */
const char *stat_groups_dir(char *buf, size_t len);
/* Fills sel from the options (defaults without any). Returns 0, or an exit code after error(). */
int stat_select_from_args(const char *cmd, const struct stat_args *a, struct stat_select *sel);
/* Plans and runs the measurement o describes (argv `o->runs` times per batch; the program's stdout
 * is its own). o->progress NULL: a progress line. Returns 0, or an exit code after error(): 2 when
 * the program cannot be started (its message says why). */
int stat_measure(struct measure_stat *m, const struct stat_select *sel, char **argv, const struct stat_opts *o);
/* Joins argv for people ("./a.out 10"). */
void stat_command_line(char **argv, char *buf, size_t len);

void stat_render(struct emit *e, const struct stat_result *r);
/* perf stat -x SEP's lines: value, unit, event, variance, run time, % counted, metric, metric unit
 * (a leading time for each -I interval). */
void stat_render_csv(FILE *f, const struct stat_result *r, const char *sep);
/* One -I interval as text or CSV lines. */
void stat_interval_print(FILE *f, const struct measure_stat *m, const struct stat_interval *iv, const char *sep);
void stat_summarise_runs(struct stat_result *r);
/* Errors for runs that failed or crashed; EXIT_FAIL then, else EXIT_OK. */
int stat_report_program(const struct stat_result *r);

/* Where the report of a command that runs a program goes: stderr (as perf stat), or FILE. */
typedef void (*report_render_fn)(struct emit *e, const void *ctx);
/* Renders the report in mode into a malloc'd buffer. EXIT_OK or EXIT_FAIL after error(). */
int report_render(const char *cmd, int json, report_render_fn fn, const void *ctx, char **buf, size_t *len);
/* Writes len bytes to path atomically, with SIGINT/SIGTERM/SIGHUP held off meanwhile (a second one
 * must not leave the temporary file behind). EXIT_OK or EXIT_FAIL after error(). */
int report_write_file(const char *path, const char *buf, size_t len);
/* The rules, for stat, regress and phases: with -o FILE the JSON goes to FILE (unless the result
 * was interrupted: an interrupted result never replaces a file; a note says so and the JSON goes
 * to stderr); the text for people goes to stderr unless json (then the JSON does, without -o). */
int report_deliver(const char *cmd, const char *out, int json, int interrupted, report_render_fn fn, const void *ctx);
/* fwrite to stderr, checked. */
int report_to_stderr(const char *cmd, const char *buf, size_t len);

/* Numbers for people: how an event's values are shown, the scale and unit chosen once from its
 * mean so min and max read alike: times in s/ms/us/ns, sizes (KiB) in binary units, counts as
 * integers with thousands grouped ("1,234,567"; a mean of counts rounded, as perf stat shows it). */
struct stat_disp {
	double k;             /* multiply the value by k */
	const char *unit;
	const char *fmt;      /* NULL: a grouped integer */
};
struct stat_disp stat_disp_of(const char *unit, double mean);
void stat_fmt_disp(const struct stat_disp *d, double v, char *buf, size_t len, int with_unit);
void stat_fmt_count(double v, char *buf, size_t len);

/* The exit code of a command whose program run was interrupted: 130. */
#define STAT_EXIT_INTERRUPTED 130

#endif
