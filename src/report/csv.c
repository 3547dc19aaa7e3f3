/* CSV curves (see csv.h). */
#include "report/csv.h"
#include "common/array.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomicfile.h"
#include "common/number.h"

int csv_write(const char *path, const char *header, const double *data, size_t n, int ncols,
	      struct as_error *err)
{
	struct atomic_file af;
	int rc = atomic_file_open(&af, path, err);
	if (rc)
		return rc;
	fprintf(af.fp, "%s\n", header);
	for (size_t i = 0; i < n; i++)
		for (int c = 0; c < ncols; c++)
			fprintf(af.fp, "%.17g%s", data[i * (size_t)ncols + (size_t)c], c + 1 < ncols ? "," : "\n");
	return atomic_file_commit(&af, err);
}

/* Parses two comma- (or whitespace-) separated decimal numbers; 0 on success. */
static int parse_xy(const char *line, double *x, double *y)
{
	const char *end;
	if (number_scan_double(line, x, &end) != 0)
		return -1;
	const char *p = end;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == ',' || *p == ';')
		p++;
	while (*p == ' ' || *p == '\t')
		p++;
	if (number_scan_double(p, y, &end) != 0)
		return -1;
	/* a third column may follow (after a separator), nothing else */
	p = end;
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	return !*p || *p == ',' || *p == ';' || end[0] == ' ' || end[0] == '\t' ? 0 : -1;
}

/* A header names the columns: no field of it (split at ',', ';' and blanks) starts with a number.
 * A first line with one that does is a malformed row ("1,2x", "5;"), never a header to skip. */
static int is_header(const char *line)
{
	const char *p = line;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == ',' || *p == ';')
			p++;
		if (!*p || *p == '\r' || *p == '\n')
			return 1;
		double v;
		const char *end;
		int rc = number_scan_double(p, &v, &end);
		if (rc == 0 || rc == -ERANGE)
			return 0;
		p += strcspn(p, " \t,;\r\n");
	}
}

/* The rows read so far. */
struct xy_reader {
	const char *name;
	double *x, *y;
	size_t n, cap, lineno;
	int seen_data;
};

/* One line (NUL-terminated, newline kept or not): 0, or a negative errno with err set. */
static int xy_line(struct xy_reader *r, char *line, size_t len, struct as_error *err)
{
	r->lineno++;
	if (memchr(line, '\0', len))
		return as_error_set(err, -EINVAL, "'%s': line %zu: a NUL byte: not a text file", r->name, r->lineno);
	char *s = line;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '#' || *s == '\n' || *s == '\r' || !*s)
		return 0;
	double a, b;
	if (parse_xy(s, &a, &b) != 0) {
		if (!r->seen_data && r->lineno == 1 && is_header(s))
			return 0; /* header */
		s[strcspn(s, "\r\n")] = '\0';
		return as_error_set(err, -EINVAL, "'%s': line %zu: expected two decimal numbers 'x,y'%s, got '%.40s'", r->name,
				    r->lineno, r->lineno == 1 ? " or a header of column names" : "", s);
	}
	if (!isfinite(a) || !isfinite(b))
		return as_error_set(err, -EINVAL, "'%s': line %zu: a number out of range", r->name, r->lineno);
	r->seen_data = 1;
	if (r->n == CSV_MAX_ROWS)
		return as_error_set(err, -EFBIG, "'%s': more than %d data rows (the limit)", r->name, CSV_MAX_ROWS);
	if (r->n == r->cap) { /* both columns grow to the same capacity */
		size_t cx = r->cap, cy = r->cap;
		double *nx = array_grow(r->x, &cx, r->n, sizeof(double), 64);
		if (nx)
			r->x = nx;
		double *ny = nx ? array_grow(r->y, &cy, r->n, sizeof(double), 64) : NULL;
		if (!ny)
			return as_error_set(err, -ENOMEM, "'%s': out of memory", r->name);
		r->y = ny;
		r->cap = cx;
	}
	r->x[r->n] = a;
	r->y[r->n] = b;
	r->n++;
	return 0;
}

/* The end: no data rows is an error, not an empty curve. */
static int xy_finish(struct xy_reader *r, int rc, double **xs, double **ys, size_t *np, struct as_error *err)
{
	if (!rc && r->n == 0)
		rc = as_error_set(err, -EINVAL, "'%s': no data rows%s", r->name, r->lineno ? "" : " (the file is empty)");
	if (rc) {
		free(r->x);
		free(r->y);
		return rc;
	}
	*xs = r->x;
	*ys = r->y;
	*np = r->n;
	return 0;
}

int csv_read_xy(const char *path, double **xs, double **ys, size_t *np, struct as_error *err)
{
	*xs = *ys = NULL;
	*np = 0;
	struct input_lines in;
	int rc = input_lines_open(&in, path, "curve", CSV_MAX_BYTES, err);
	if (rc)
		return rc;
	struct xy_reader r = { .name = in.name };
	char *line;
	size_t len;
	while ((rc = input_lines_next(&in, &line, &len, err)) == 1) {
		if (len > 4096) {
			rc = as_error_set(err, -EINVAL, "'%s': line %ld: line too long", in.name, in.line);
			break;
		}
		if ((rc = xy_line(&r, line, len, err)) != 0)
			break;
	}
	rc = xy_finish(&r, rc, xs, ys, np, err);
	input_lines_close(&in);
	return rc;
}

int csv_read_xy_stream(FILE *f, const char *path, double **xs, double **ys, size_t *np, struct as_error *err)
{
	*xs = *ys = NULL;
	*np = 0;
	struct xy_reader r = { .name = path };
	char line[4096];
	int rc = 0;
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);
		if (!memchr(line, '\n', len) && !feof(f)) {
			rc = as_error_set(err, -EINVAL, "'%s': line %zu: line too long", path, r.lineno + 1);
			break;
		}
		if ((rc = xy_line(&r, line, len, err)) != 0)
			break;
	}
	if (!rc && ferror(f))
		rc = as_error_set(err, -EIO, "cannot read '%s'", path);
	return xy_finish(&r, rc, xs, ys, np, err);
}
