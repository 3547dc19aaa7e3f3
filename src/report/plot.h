/* Plots through gnuplot: a command writes its data files into DIR and hands a gnuplot script
 * body; this module runs it twice, for SVG and PNG. Without gnuplot it reports "skipped" (1),
 * which the command prints as a note, not an error. */
#ifndef ARCHSCOPE_REPORT_PLOT_H
#define ARCHSCOPE_REPORT_PLOT_H

#include "common/atomicfile.h"
#include "common/error.h"

/* Creates dir (and parents) if needed. */
int plot_dir_prepare(const char *dir, struct as_error *err);

/* Writes DIR/NAME.gp and renders DIR/NAME.svg and DIR/NAME.png from `body` (gnuplot commands
 * without a terminal/output line). Returns 0 when rendered, 1 when gnuplot is absent, <0 on error. */
int plot_render(const char *dir, const char *name, const char *body, struct as_error *err);

/* A plot's data file, written atomically as every result file: plot_data_open() returns the
 * stream of a temporary file beside path (NULL when it cannot be created; errno set), and
 * plot_data_close() renames it over path (0, or -1 when a write failed: path is left as it was). */
FILE *plot_data_open(const char *path, struct atomic_file *af);
int plot_data_close(struct atomic_file *af);

#endif
