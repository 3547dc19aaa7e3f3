/* `stack --whatif` (cmd-stack-whatif.c): whatif's causal profile of the stack's program at the
 * stack's thread count, rendered beside the stack as its `whatif` block. */
#ifndef ARCHSCOPE_CLI_CMD_STACK_WHATIF_H
#define ARCHSCOPE_CLI_CMD_STACK_WHATIF_H

#include "scale/run.h"
#include "scale/whatif.h"

struct emit;
struct opt;

struct stack_whatif {
	int on;                   /* --whatif */
	struct whatif_opts wo;    /* --whatif-sites, --whatif-speedups, --whatif-rounds */
	int threads;              /* N it ran at */
	struct whatif_result *res; /* heap; NULL: not run */
};

/* Short defaults, so that a stack with whatif beside it stays a matter of a minute on a short
 * program: 2 sites, line speedups 0.5 and 1, 2 rounds (an interval needs two). */
void cli_stack_whatif_init(struct stack_whatif *w);
/* --whatif-speedups LIST (o->value: the struct stack_whatif). */
int cli_stack_whatif_speedups_cb(const struct opt *o, const char *arg, const char *value);
/* Runs whatif after the stack (so: the stack's program, preload library and timeout), at the
 * largest thread count; 0, or a negative errno with err set. */
int cli_stack_whatif_run(struct stack_whatif *w, const struct scale_opts *so, struct as_error *err);
/* The `whatif` block of the stack's results (nothing when it did not run). */
void cli_stack_whatif_render(struct emit *e, const struct stack_whatif *w);
void cli_stack_whatif_release(struct stack_whatif *w);

#endif
