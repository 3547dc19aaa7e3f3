/* Plots through gnuplot: a command writes its data files into DIR and hands a gnuplot script
 * body; this module writes DIR/NAME.gp and renders NAME.svg and NAME.png from it. Names are data,
 * never code: every string a body quotes goes through plot_quote(). Without gnuplot it reports
 * "skipped" (1), which the command prints as a note, not an error. */
#ifndef ARCHSCOPE_REPORT_PLOT_H
#define ARCHSCOPE_REPORT_PLOT_H

#include <stddef.h>

#include "common/atomicfile.h"
#include "common/error.h"

/* For --plot DIR and --raw DIR, before anything is measured: creates DIR when it is absent (its
 * parent must exist: no tree of directories appears from a typing error), and checks that it
 * is a directory, not a symbolic link (a link in a shared place could send the files anywhere),
 * and that a file can be created in it. -errno with a message naming DIR and the reason. */
int plot_dir_prepare(const char *dir, struct as_error *err);

/* s as a gnuplot string literal, quotes included: in single quotes, where gnuplot substitutes
 * nothing (no `command`, no @macro, no backslash escape), with each ' doubled, and control bytes
 * (a newline would end the command) and bytes that are not UTF-8 written as '?'. A string longer
 * than len allows ends in "...". Returns buf. */
const char *plot_quote(const char *s, char *buf, size_t len);
/* s for a '#' comment line of a data file: control bytes as '?' (no line break). Returns buf. */
const char *plot_comment(const char *s, char *buf, size_t len);

/* Writes DIR/NAME.gp (NAME: letters, digits, '.', '-', '_') and renders DIR/NAME.svg and
 * DIR/NAME.png from `body` (gnuplot commands without a terminal/output line; run once per
 * terminal, so a multiplot shows every panel in both). gnuplot runs in DIR with no shell,
 * writes into a fresh private directory, and each picture is renamed into DIR (a symbolic link
 * or anything but a regular file there is not replaced). Returns 0 when rendered, 1 when
 * gnuplot is absent, <0 on error. */
int plot_render(const char *dir, const char *name, const char *body, struct as_error *err);

/* A plot's data file, written atomically as every result file: plot_data_open() returns the
 * stream of a temporary file beside path (NULL when it cannot be created; errno set), and
 * plot_data_close() renames it over path (0, or -1 when a write failed: path is left as it was). */
FILE *plot_data_open(const char *path, struct atomic_file *af);
int plot_data_close(struct atomic_file *af);

#endif
