/* Aligned text tables (see table.h). */
#include "report/table.h"
#include "common/array.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct table {
	int ncols;
	int ncells;
	size_t cap;
	char **cells;     /* header cells first, then rows */
};

static void push(struct table *t, char *s)
{
	char **cells = array_grow(t->cells, &t->cap, (size_t)t->ncells, sizeof(char *), 32);
	if (!cells)
		abort();
	t->cells = cells;
	t->cells[t->ncells++] = s;
}

struct table *table_new_columns(int ncols, const char *const *headers)
{
	struct table *t = calloc(1, sizeof(*t));
	if (!t)
		abort();
	t->ncols = ncols;
	for (int i = 0; i < ncols; i++)
		push(t, strdup(headers[i]));
	return t;
}

struct table *table_new(int ncols, ...)
{
	const char *headers[64];
	va_list ap;
	va_start(ap, ncols);
	for (int i = 0; i < ncols && i < 64; i++)
		headers[i] = va_arg(ap, const char *);
	va_end(ap);
	return table_new_columns(ncols < 64 ? ncols : 64, headers);
}

void table_cell(struct table *t, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	push(t, s);
}

static int numeric(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	return isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]));
}

int table_text_width(const char *s)
{
	int w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xC0) != 0x80; /* UTF-8 continuation bytes take no column */
	return w;
}

/* s padded with spaces to width columns, on the left (right-aligned) or on the right. */
static void print_padded(FILE *out, const char *s, int width, int right)
{
	int pad = width - table_text_width(s);
	if (right)
		fprintf(out, "%*s%s", pad > 0 ? pad : 0, "", s);
	else
		fprintf(out, "%s%*s", s, pad > 0 ? pad : 0, "");
}

void table_print(const struct table *t, FILE *out, const char *indent)
{
	int width[64] = { 0 };
	int nc = t->ncols < 64 ? t->ncols : 64;
	for (int i = 0; i < t->ncells; i++) {
		int w = table_text_width(t->cells[i]);
		if (i % t->ncols < nc && w > width[i % t->ncols])
			width[i % t->ncols] = w;
	}
	/* A column is right-aligned when every body cell in it starts like a number. */
	int right_col[64];
	for (int c = 0; c < nc; c++)
		right_col[c] = t->ncells > t->ncols;
	for (int i = t->ncols; i < t->ncells; i++)
		if (i % t->ncols < nc && !numeric(t->cells[i]))
			right_col[i % t->ncols] = 0;
	for (int i = 0; i < t->ncells; i++) {
		int c = i % t->ncols;
		if (c == 0)
			fputs(indent ? indent : "", out);
		if (c >= nc)
			continue;
		const char *s = t->cells[i];
		int right = right_col[c];
		int last = c == t->ncols - 1 || i == t->ncells - 1;
		if (last && !right)
			fputs(s, out);
		else
			print_padded(out, s, width[c], right);
		fputs(last ? "\n" : "  ", out);
	}
}

void table_free(struct table *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t);
}
