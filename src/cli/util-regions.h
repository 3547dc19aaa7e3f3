/* --regions of the commands that run a program (stat, phases): the marker library preloaded, its
 * records read after each run and rendered (cli/util-regions.c; docs/archscope-stat.md, Regions). */
#ifndef ARCHSCOPE_CLI_UTIL_REGIONS_H
#define ARCHSCOPE_CLI_UTIL_REGIONS_H

#include "measure/regions.h"

struct emit;

struct cli_regions {
	int active;                   /* the environment is set for the program */
	char dir[256];                /* where the records go ($TMPDIR) */
	char *old_preload, *old_out;  /* the environment to put back */
	char *old_events;
	int events_set;               /* $ARCHSCOPE_MARKER_EVENTS is the user's -e */
	int last_run;                 /* the run whose records the directory holds */
	int failed, cut;              /* a record could not be read; samples of a cut run left out */
	struct measure_regions r;
};

/* Finds the library, makes the directory and sets LD_PRELOAD and $ARCHSCOPE_MARKER_OUT; 0 or EXIT_FAIL
 * after error(). */
int cli_regions_begin(struct cli_regions *g);
/* Before run `run` (from 0) starts: reads the records of the run before it (none before run 0). */
/* cli_regions_begin with the events each region counts: the names the user gave with -e (n of
 * them; none: the marker library's default set). An event this machine does not know, more than
 * MARKER_EVENTS_MAX or a name with a space is a usage error: EXIT_USAGE after error(), nothing
 * set; EXIT_FAIL as cli_regions_begin. */
int cli_regions_begin_events(struct cli_regions *g, const char *const names[], int n);
void cli_regions_collect(struct cli_regions *g, int run);
/* After the runs: the last records, the environment back, the summary; samples of runs from
 * runs_done on (a run a signal cut) are left out. */
void cli_regions_end(struct cli_regions *g, int runs_done);
void cli_regions_release(struct cli_regions *g);
/* Text: a table of the regions; JSON: the rows under regions_key ("region" rows) and how the marks
 * were kept under marks_key ("region marks"); both keys from the caller's result description. */
void cli_regions_render(struct emit *e, const struct cli_regions *g, const char *regions_key, const char *marks_key);

#endif
