/* Curves as CSV (header line, then x,y[,...] rows), written atomically and read back by
 * `archscope analyze`. The reader reports the file and line of the first malformed row. */
#ifndef ARCHSCOPE_REPORT_CSV_H
#define ARCHSCOPE_REPORT_CSV_H

#include <stdio.h>

#include <stddef.h>

#include "common/error.h"

/* Writes columns ncols wide; data is row-major (n rows). header is e.g. "size_bytes,latency_ns". */
int csv_write(const char *path, const char *header, const double *data, size_t n, int ncols,
	      struct as_error *err);

/* Reads the first two numeric columns of a CSV (through the checked reader of
 * common/atomicfile.h: a regular file, or "-": standard input; text only; at most CSV_MAX_BYTES,
 * CSV_MAX_ROWS rows of at most 4095 characters); a first line whose fields are names (none starts
 * with a number) is a header; one with a number in it is a row, and an error when malformed.
 * Lines starting with '#' are comments. Numbers are decimal (common/number.h). *x and *y are
 * malloc'd; a file without data rows is an error. */
#define CSV_MAX_ROWS 10000000
#define CSV_MAX_BYTES ((size_t)1 << 30)
int csv_read_xy(const char *path, double **x, double **y, size_t *n, struct as_error *err);
/* The same from an open stream; name is the file's name in messages. The stream stays open. */
int csv_read_xy_stream(FILE *f, const char *name, double **x, double **y, size_t *n, struct as_error *err);

#endif
