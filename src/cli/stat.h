/* Shared by stat, compare and regress: the event selection from the options, the measurement
 * of a program, and stat's renderer. */
#ifndef ARCHSCOPE_CLI_STAT_H
#define ARCHSCOPE_CLI_STAT_H

#include <stddef.h>

#include "cli/parse-options.h"
#include "measure/stat-select.h"
#include "measure/stat.h"

struct emit;

struct stat_result {
	const char *command;          /* the program as typed, for people */
	struct measure_stat *m;
	const struct stat_select *sel;
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
/* Plans and runs argv `runs` times per batch; the program's stdout goes to our stderr when
 * stdout carries JSON. Returns 0, or an exit code after error(). */
int stat_measure(struct measure_stat *m, const struct stat_select *sel, int runs, char **argv, int stdout_is_json,
		 int per_thread);
/* Joins argv for people ("./a.out 10"). */
void stat_command_line(char **argv, char *buf, size_t len);

void stat_render(struct emit *e, const struct stat_result *r);
void stat_summarise_runs(struct stat_result *r);
/* Errors for runs that failed or crashed; EXIT_FAIL then, else EXIT_OK. */
int stat_report_program(const struct stat_result *r);

#endif
