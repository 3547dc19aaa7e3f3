/* Shared by cmd-stack.c and cmd-stack-render.c: the renderer, the plot and the failure message. */
#ifndef ARCHSCOPE_CLI_CMD_STACK_H
#define ARCHSCOPE_CLI_CMD_STACK_H

#include "scale/run.h"

struct emit;

/* The one renderer of `stack` (text and JSON). */
void cli_stack_render(struct emit *e, const struct scale_opts *o, const struct scale_result *res);
/* Stacked bars for each N into dir (gnuplot); notes on failure. */
void cli_stack_plot(const char *dir, const struct scale_result *res);
/* error() naming how the program failed (exit status, signal, time limit) and its stderr. */
void cli_stack_report_failure(const struct scale_opts *o, const struct scale_result *res);

#endif
