/* CSV curves (see csv.h). */
#include "report/csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomicfile.h"

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

/* Parses two comma- (or whitespace-) separated numbers; 0 on success. */
static int parse_xy(char *line, double *x, double *y)
{
	char *end;
	errno = 0;
	*x = strtod(line, &end);
	if (end == line || errno || !isfinite(*x))
		return -1;
	char *p = end;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == ',' || *p == ';')
		p++;
	*y = strtod(p, &end);
	if (end == p || errno || !isfinite(*y))
		return -1;
	return 0;
}

int csv_read_xy(const char *path, double **xs, double **ys, size_t *np, struct as_error *err)
{
	*xs = *ys = NULL;
	*np = 0;
	FILE *f = file_open_input(path, "curve", err);
	if (!f)
		return err && err->code ? err->code : -EINVAL;
	int rc = csv_read_xy_stream(f, strcmp(path, "-") ? path : "<stdin>", xs, ys, np, err);
	if (f != stdin)
		fclose(f);
	return rc;
}

int csv_read_xy_stream(FILE *f, const char *path, double **xs, double **ys, size_t *np, struct as_error *err)
{
	*xs = *ys = NULL;
	*np = 0;
	size_t cap = 0, n = 0, lineno = 0;
	double *x = NULL, *y = NULL;
	char line[4096];
	int rc = 0, seen_data = 0;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!memchr(line, '\n', strlen(line)) && !feof(f)) {
			rc = as_error_set(err, -EINVAL, "'%s': line %zu: line too long", path, lineno);
			break;
		}
		if (memchr(line, '\0', strlen(line) + 1) != line + strlen(line)) {
			rc = as_error_set(err, -EINVAL, "'%s': line %zu: not a text file", path, lineno);
			break;
		}
		char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '#' || *s == '\n' || *s == '\r' || !*s)
			continue;
		double a, b;
		if (parse_xy(s, &a, &b) != 0) {
			if (!seen_data && lineno == 1)
				continue; /* header */
			s[strcspn(s, "\r\n")] = '\0';
			rc = as_error_set(err, -EINVAL, "'%s': line %zu: expected two numbers 'x,y', got '%.40s'",
					  path, lineno, s);
			break;
		}
		seen_data = 1;
		if (n == CSV_MAX_ROWS) {
			rc = as_error_set(err, -EFBIG, "'%s': more than %d data rows (the limit)", path, CSV_MAX_ROWS);
			break;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			double *nx = realloc(x, cap * sizeof(double)), *ny = nx ? realloc(y, cap * sizeof(double)) : NULL;
			if (!nx || !ny) {
				free(nx ? nx : x);
				free(ny ? ny : y);
				return as_error_set(err, -ENOMEM, "'%s': out of memory", path);
			}
			x = nx;
			y = ny;
		}
		x[n] = a;
		y[n] = b;
		n++;
	}
	if (!rc && ferror(f))
		rc = as_error_set(err, -EIO, "cannot read '%s'", path);
	if (!rc && n == 0)
		rc = as_error_set(err, -EINVAL, "'%s': no data rows", path);
	if (rc) {
		free(x);
		free(y);
		return rc;
	}
	*xs = x;
	*ys = y;
	*np = n;
	return 0;
}
