/* Aligned text tables for people: a header row, right-aligned numbers, units in the headers. */
#ifndef ARCHSCOPE_REPORT_TABLE_H
#define ARCHSCOPE_REPORT_TABLE_H

#include <stdio.h>

struct table;

struct table *table_new(int ncols, ...);  /* ncols header strings follow */
struct table *table_new_columns(int ncols, const char *const *headers);
/* Appends a cell to the current row; a row ends when ncols cells were added. */
void table_cell(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Columns a string takes on a terminal (UTF-8: "±" is one). */
int table_text_width(const char *s);
void table_print(const struct table *t, FILE *out, const char *indent);
void table_free(struct table *t);

#endif
