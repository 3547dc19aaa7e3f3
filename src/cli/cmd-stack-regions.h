/* stack --regions (cli/cmd-stack-regions.c): the marker library preloaded beside the preload
 * library, its records read after each run with the run's thread count, each region's stack
 * (scale/regions.h) rendered after the program's stacks. */
#ifndef ARCHSCOPE_CLI_CMD_STACK_REGIONS_H
#define ARCHSCOPE_CLI_CMD_STACK_REGIONS_H

#include "cli/util-regions.h"
#include "scale/regions.h"

struct emit;

struct cli_stack_regions {
	struct cli_regions g;
	int *run_threads;             /* each run's thread count, in the order they ran */
	int nrun;
	size_t cap;
	struct scale_region_stacks st;
};

/* The environment for the marker library; 0 or EXIT_FAIL after error(). */
int cli_stack_regions_begin(struct cli_stack_regions *sr);
/* Before each run (stack's progress hook): the records of the run before it, then this run's N. */
void cli_stack_regions_run(struct cli_stack_regions *sr, int threads);
/* After the runs (runs_done of them counted: a run a signal cut is not): the stacks. */
void cli_stack_regions_end(struct cli_stack_regions *sr, int runs_done);
void cli_stack_regions_render(struct emit *e, const struct cli_stack_regions *sr);
void cli_stack_regions_release(struct cli_stack_regions *sr);

#endif
