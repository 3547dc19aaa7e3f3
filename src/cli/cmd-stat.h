/* stat's renderer and what it renders, private to cmd-stat*.c; what stat shares with compare,
 * regress and phases (events from the options, the measurement of a program, where the report
 * goes) is in cli/cli.h. */
#ifndef ARCHSCOPE_CLI_CMD_STAT_H
#define ARCHSCOPE_CLI_CMD_STAT_H

#include <stddef.h>
#include <stdio.h>

#include "cli/cli.h"
#include "measure/stat-select.h"
#include "measure/stat-show.h"
#include "measure/regions.h"
#include "measure/stat.h"

struct emit;

/* results.conditions in JSON; one line for people in text. */
void cli_stat_conditions_render(struct emit *e, const struct stat_conditions *c);

/* --regions (cmd-stat-regions.c): the marker library preloaded into the program, its records read
 * after each run. */
struct cli_stat_regions {
	int active;                   /* the environment is set for the program */
	char dir[256];                /* where the records go ($TMPDIR) */
	char *old_preload, *old_out;  /* the environment to put back */
	int last_run;                 /* the run whose records the directory holds (-1: none yet) */
	int failed, cut;              /* a record could not be read; samples of a cut run left out */
	struct measure_regions r;
};
/* Finds the library, makes the directory and sets LD_PRELOAD and $ARCHSCOPE_MARKER_OUT; 0 or EXIT_FAIL
 * after error(). */
int cli_stat_regions_begin(struct cli_stat_regions *g);
/* Before run `run` starts: reads the records of the run before it. */
void cli_stat_regions_collect(struct cli_stat_regions *g, int run);
/* After the runs: the last records, the environment back, the summary (the cut run left out). */
void cli_stat_regions_end(struct cli_stat_regions *g, const struct measure_stat *m);
void cli_stat_regions_release(struct cli_stat_regions *g);
void cli_stat_regions_render(struct emit *e, const struct cli_stat_regions *g);

struct cli_stat_result {
	const char *command;          /* the program as typed, for people */
	struct measure_stat *m;
	const struct stat_select *sel;
	const struct stat_conditions *cond; /* NULL: not recorded */
	int verbose;                  /* text: per-run values and the runs table */
	int failed, crashed;          /* runs that exited non-zero / died of a signal */
	const struct cli_stat_regions *regions; /* --regions; NULL without */
};

void cli_stat_render(struct emit *e, const struct cli_stat_result *r);

#endif
