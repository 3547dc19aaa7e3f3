/* `stack --whatif`: whatif's profile and rounds on the stack's program at the stack's thread
 * count ("{T}" in its arguments becomes N and OMP_NUM_THREADS=N, as the stack runs it), and the
 * shared parts of both commands' options. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/number.h"
#include "scale/whatif.h"

int whatif_speedups_parse(const char *arg, double *v, int *n, char *why, size_t len)
{
	*n = 0;
	for (const char *p = arg;;) {
		size_t k = strcspn(p, ",");
		char item[32];
		double x = -1;
		if (k > 0 && k < sizeof(item)) {
			snprintf(item, sizeof(item), "%.*s", (int)k, p);
			if (number_parse_double(item, 0, 100, &x) != 0)
				x = -1;
		}
		if (x > 1 && x <= 100)
			x /= 100; /* a percentage */
		if (!(x > 0 && x <= 1) || (*n && x <= v[*n - 1])) {
			snprintf(why, len, "'%.*s' is not a line speedup above the one before it (fractions 0 < s <= 1 such as "
				 "0.25,0.5,1, or percentages 25,50,100)", (int)k, p);
			return -EINVAL;
		}
		if (*n >= WHATIF_SPEEDUPS_MAX - 1) {
			snprintf(why, len, "more than %d line speedups (the limit)", WHATIF_SPEEDUPS_MAX - 1);
			return -EINVAL;
		}
		v[(*n)++] = x;
		if (!p[k])
			return 0;
		p += k + 1;
	}
}

int whatif_threads_for_stack(const int *threads, int n)
{
	int most = 0;
	for (int i = 0; i < n; i++)
		most = threads[i] > most ? threads[i] : most;
	return most;
}

const struct whatif_curve_point *whatif_site_top(const struct whatif_site *s)
{
	const struct whatif_curve_point *top = NULL;
	for (int k = 1; k < s->npts; k++)
		if (s->pts[k].program_speedup == s->pts[k].program_speedup &&
		    (!top || s->pts[k].line_speedup > top->line_speedup))
			top = &s->pts[k];
	return top;
}

/* argv with every "{T}" replaced by n (heap, NULL-terminated; NULL when out of memory). */
static char **argv_at(char **argv, int n)
{
	int c = 0;
	while (argv[c])
		c++;
	char **out = calloc((size_t)c + 1, sizeof(*out));
	char num[16];
	snprintf(num, sizeof(num), "%d", n);
	for (int i = 0; out && i < c; i++) {
		size_t len = strlen(argv[i]) + 1;
		for (const char *p = argv[i]; (p = strstr(p, "{T}")); p += 3)
			len += strlen(num);
		char *s = malloc(len), *w = s;
		if (!s) {
			for (int k = 0; k < i; k++)
				free(out[k]);
			free(out);
			return NULL;
		}
		for (const char *p = argv[i]; *p;)
			if (!strncmp(p, "{T}", 3)) {
				w += sprintf(w, "%s", num);
				p += 3;
			} else {
				*w++ = *p++;
			}
		*w = 0;
		out[i] = s;
	}
	return out;
}

int whatif_run_threads(const struct whatif_opts *o, int threads, struct whatif_result *res, struct as_error *err)
{
	struct whatif_opts at = *o;
	at.argv = argv_at(o->argv, threads);
	if (!at.argv)
		return as_error_set(err, -ENOMEM, "out of memory");
	const char *old = getenv("OMP_NUM_THREADS");
	char *keep = old ? strdup(old) : NULL, num[16];
	snprintf(num, sizeof(num), "%d", threads);
	setenv("OMP_NUM_THREADS", num, 1);
	int rc = whatif_run(&at, res, err);
	if (keep)
		setenv("OMP_NUM_THREADS", keep, 1);
	else
		unsetenv("OMP_NUM_THREADS");
	free(keep);
	for (int i = 0; at.argv[i]; i++)
		free(at.argv[i]);
	free(at.argv);
	return rc;
}
