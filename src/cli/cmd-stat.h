/* stat's renderer and what it renders, private to cmd-stat*.c; what stat shares with compare,
 * regress and phases (events from the options, the measurement of a program, where the report
 * goes) is in cli/cli.h. */
#ifndef ARCHSCOPE_CLI_CMD_STAT_H
#define ARCHSCOPE_CLI_CMD_STAT_H

#include <stddef.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/util-regions.h"
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
	const struct cli_regions *regions; /* --regions; NULL without */
};

void cli_stat_render(struct emit *e, const struct cli_stat_result *r);

#endif
