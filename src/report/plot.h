/* Plots through gnuplot: a command writes its data files into DIR and hands a gnuplot script
 * body; this module runs it twice, for SVG and PNG. Without gnuplot it reports "skipped" (1),
 * which the command prints as a note, not an error. */
#ifndef ARCHSCOPE_REPORT_PLOT_H
#define ARCHSCOPE_REPORT_PLOT_H

#include "common/error.h"

/* Creates dir (and parents) if needed. */
int plot_dir_prepare(const char *dir, struct as_error *err);

/* Writes DIR/NAME.gp and renders DIR/NAME.svg and DIR/NAME.png from `body` (gnuplot commands
 * without a terminal/output line). Returns 0 when rendered, 1 when gnuplot is absent, <0 on error. */
int plot_render(const char *dir, const char *name, const char *body, struct as_error *err);

#endif
