/* Metric-group files and metric expressions (see stat-group.h). */
#include "measure/stat-group.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomicfile.h"
#include "common/number.h"

/* --- expressions --------------------------------------------------------------------------
 * + - * / and parentheses over numbers, event names and $N. Recursive descent, one code for the
 * check (which says what is wrong and where) and the evaluation. Names hold '-'
 * ("branch-misses"): a minus is an operator between spaces, or before an operand. */
struct expr {
	const char *p, *start;
	const char *const *names;
	int n;
	double (*value)(void *ctx, const char *name);
	void *ctx;
	int bad;
	char *why;
	size_t whylen;
};

static void expr_fail(struct expr *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void expr_fail(struct expr *x, const char *fmt, ...)
{
	if (x->bad++ || !x->why)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(x->why, x->whylen, fmt, ap);
	va_end(ap);
}

static double expr_sum(struct expr *x);

static void expr_space(struct expr *x)
{
	while (isspace((unsigned char)*x->p))
		x->p++;
}

static int expr_delim(char c)
{
	return !c || isspace((unsigned char)c) || strchr("+*/()", c);
}

static double expr_atom(struct expr *x)
{
	expr_space(x);
	int col = (int)(x->p - x->start) + 1;
	if (*x->p == '(') {
		x->p++;
		double v = expr_sum(x);
		expr_space(x);
		if (*x->p != ')')
			expr_fail(x, "the '(' at column %d is not closed", col);
		else
			x->p++;
		return v;
	}
	if (*x->p == '-') {
		x->p++;
		return -expr_atom(x);
	}
	size_t n = 0;
	while (!expr_delim(x->p[n]))
		n++;
	if (!n) {
		if (*x->p)
			expr_fail(x, "an operand is missing at column %d (before '%c')", col, *x->p);
		else
			expr_fail(x, "an operand is missing at the end");
		return NAN;
	}
	const char *tok = x->p;
	x->p += n;
	if (isdigit((unsigned char)*tok) || *tok == '.') {
		double v = NAN;
		const char *end = tok;
		int rc = number_scan_double(tok, &v, &end);
		if (rc == -ERANGE)
			expr_fail(x, "the number '%.*s' (column %d) is out of range of a double", (int)n, tok, col);
		else if (rc || end != tok + n)
			expr_fail(x, "'%.*s' (column %d) is not a decimal number", (int)n, tok, col);
		return v;
	}
	if (*tok == '$') {
		char num[32];
		int k = 0, rc = -EINVAL;
		if (n - 1 < sizeof(num)) {
			memcpy(num, tok + 1, n - 1);
			num[n - 1] = 0;
			rc = number_parse_int(num, 1, x->n > 0 ? x->n : 1, &k);
		}
		if (rc == -ERANGE || (rc == 0 && x->n < 1))
			expr_fail(x, "'%.*s' (column %d): the set has %d event%s ($1 to $%d)", (int)n, tok, col, x->n,
				  x->n == 1 ? "" : "s", x->n);
		else if (rc)
			expr_fail(x, "'%.*s' (column %d) is not an event's place ($1, $2, ...)", (int)n, tok, col);
		if (x->bad)
			return NAN;
		return x->value ? x->value(x->ctx, x->names[k - 1]) : 1;
	}
	char name[STAT_GROUP_EVENT_LEN];
	if (n >= sizeof(name)) {
		expr_fail(x, "'%.20s...' (column %d) is no event of the set", tok, col);
		return NAN;
	}
	memcpy(name, tok, n);
	name[n] = 0;
	if (!x->value) { /* the check: a name is one of the set's events */
		for (int i = 0; i < x->n; i++)
			if (!strcmp(x->names[i], name))
				return 1;
		expr_fail(x, "'%s' (column %d) is no event of the set: name one of its events or give its place ($1, ...)",
			  name, col);
		return NAN;
	}
	return x->value(x->ctx, name);
}

static double expr_product(struct expr *x)
{
	double v = expr_atom(x);
	for (;;) {
		expr_space(x);
		char op = *x->p;
		if (op != '*' && op != '/')
			return v;
		x->p++;
		double r = expr_atom(x);
		v = op == '*' ? v * r : r == 0 ? NAN : v / r;
	}
}

static double expr_sum(struct expr *x)
{
	double v = expr_product(x);
	for (;;) {
		expr_space(x);
		char op = *x->p;
		if (op != '+' && op != '-')
			return v;
		x->p++;
		double r = expr_product(x);
		v = op == '+' ? v + r : v - r;
	}
}

/* The whole expression: a sum and nothing after it. */
static double expr_all(struct expr *x)
{
	double v = expr_sum(x);
	expr_space(x);
	if (*x->p == ')')
		expr_fail(x, "the ')' at column %d has no '('", (int)(x->p - x->start) + 1);
	else if (*x->p)
		expr_fail(x, "'%.20s' (column %d): an operator (+ - * /) is missing before it", x->p,
			  (int)(x->p - x->start) + 1);
	return x->bad ? NAN : v;
}

int measure_stat_expr_check(const char *expr, const char *const *names, int n, char *why, size_t len)
{
	struct expr x = { .p = expr, .start = expr, .names = names, .n = n, .why = why, .whylen = len };
	if (why && len)
		why[0] = 0;
	expr_all(&x);
	return x.bad ? -EINVAL : 0;
}

static double value_nan(void *ctx, const char *name)
{
	(void)ctx;
	(void)name;
	return NAN;
}

double measure_stat_expr_eval(const char *expr, const char *const *names, int n, double (*value)(void *ctx, const char *name),
		      void *ctx)
{
	struct expr x = { .p = expr, .start = expr, .names = names, .n = names ? n : 0, .value = value ? value : value_nan,
			  .ctx = ctx };
	return expr_all(&x);
}

/* --- group files ------------------------------------------------------------------------------ */

struct gparse {
	const char *name;
	long line;
	struct as_error *err;
};

static int gfail(struct gparse *gp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int gfail(struct gparse *gp, const char *fmt, ...)
{
	char what[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return as_error_set(gp->err, -EINVAL, "metric group '%s': line %ld: %s", gp->name, gp->line, what);
}

/* [*p, *p + *n) without the white space around it. */
static void span_trim(const char **p, size_t *n)
{
	while (*n && isspace((unsigned char)**p)) {
		(*p)++;
		(*n)--;
	}
	while (*n && isspace((unsigned char)(*p)[*n - 1]))
		(*n)--;
}

/* Copies a field of n bytes into dst[cap], or refuses it as longer than the room. */
static int field(struct gparse *gp, char *dst, size_t cap, const char *src, size_t n, const char *what)
{
	if (n >= cap)
		return gfail(gp, "the %s is %zu bytes long: at most %zu", what, n, cap - 1);
	memcpy(dst, src, n);
	dst[n] = 0;
	return 0;
}

/* The keyword kw at p[0..n): alone, or followed by white space (its argument). */
static int keyword(const char *p, size_t n, const char *kw)
{
	size_t k = strlen(kw);
	return n >= k && !memcmp(p, kw, k) && (n == k || isspace((unsigned char)p[k]));
}

static int block_end(struct gparse *gp, const struct stat_group_block *b)
{
	if (b->n)
		return 0;
	long line = gp->line;
	gp->line = b->line;
	int rc = gfail(gp, "EVENTSET '%s' lists no events: one event name a line follows it", b->label);
	gp->line = line;
	return rc;
}

static int add_event(struct gparse *gp, struct stat_group_block *b, const char *p, size_t n,
		     const char *(*alias)(const char *))
{
	if (b->n >= STAT_GROUP_EVENTS_MAX)
		return gfail(gp, "EVENTSET '%s' lists more than %d events", b->label, STAT_GROUP_EVENTS_MAX);
	if (memchr(p, '|', n))
		return gfail(gp, "'%.*s' looks like a metric: metrics follow a line METRICS", (int)(n < 40 ? n : 40), p);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c <= ' ' || c >= 0x7f)
			return gfail(gp, "event name '%.*s' holds %s (column %zu): event names are printable ASCII without "
				     "spaces",
				     (int)(n < 64 ? n : 64), p, c <= ' ' ? "a space" : "a byte that is not ASCII", i + 1);
	}
	char *ev = b->ev[b->n];
	int rc = field(gp, ev, sizeof(b->ev[0]), p, n, "event name");
	if (rc)
		return rc;
	for (int i = 0; i < b->n; i++) {
		if (!strcmp(b->ev[i], ev))
			return gfail(gp, "event '%s' is listed twice in EVENTSET '%s' (first on line %ld): list it once", ev,
				     b->label, b->ev_line[i]);
		if (alias && !strcmp(alias(b->ev[i]), alias(ev)))
			return gfail(gp, "events '%s' (line %ld) and '%s' of EVENTSET '%s' are the same event (%s): list it once",
				     b->ev[i], b->ev_line[i], ev, b->label, alias(ev));
	}
	b->ev_line[b->n++] = gp->line;
	return 0;
}

static int add_metric(struct gparse *gp, struct stat_group_block *b, const char *p, size_t n)
{
	if (b->nmetrics >= STAT_METRICS_MAX)
		return gfail(gp, "EVENTSET '%s' has more than %d metrics", b->label, STAT_METRICS_MAX);
	const char *a = memchr(p, '|', n), *c = a ? memchr(a + 1, '|', n - (size_t)(a + 1 - p)) : NULL;
	if (!c)
		return gfail(gp, "'%.*s' is no metric: a metric is 'LABEL | UNIT | EXPR'", (int)(n < 40 ? n : 40), p);
	const char *lp = p, *up = a + 1, *ep = c + 1;
	size_t ln = (size_t)(a - p), un = (size_t)(c - up), en = (size_t)(p + n - ep);
	span_trim(&lp, &ln);
	span_trim(&up, &un);
	span_trim(&ep, &en);
	struct stat_metric *m = &b->metric[b->nmetrics];
	int rc;
	if ((rc = field(gp, m->label, sizeof(m->label), lp, ln, "metric's label")) ||
	    (rc = field(gp, m->unit, sizeof(m->unit), up, un, "metric's unit")) ||
	    (rc = field(gp, m->expr, sizeof(m->expr), ep, en, "metric's expression")))
		return rc;
	if (!ln)
		return gfail(gp, "a metric without a label: a metric is 'LABEL | UNIT | EXPR'");
	if (!en)
		return gfail(gp, "metric '%s' has no expression: a metric is 'LABEL | UNIT | EXPR'", m->label);
	for (int i = 0; i < b->nmetrics; i++)
		if (!strcmp(b->metric[i].label, m->label))
			return gfail(gp, "metric '%s' is given twice in EVENTSET '%s' (first on line %ld)", m->label, b->label,
				     b->metric_line[i]);
	const char *names[STAT_GROUP_EVENTS_MAX];
	for (int i = 0; i < b->n; i++)
		names[i] = b->ev[i];
	char why[512];
	if (measure_stat_expr_check(m->expr, names, b->n, why, sizeof(why)))
		return gfail(gp, "metric '%s': %s", m->label, why);
	b->metric_line[b->nmetrics++] = gp->line;
	return 0;
}

int measure_stat_group_parse(struct stat_group *g, const char *text, size_t len, const char *name,
		     const char *(*alias)(const char *name), struct as_error *err)
{
	memset(g, 0, sizeof(*g));
	struct gparse gp = { .name = name, .err = err };
	struct stat_group_block *b = NULL;
	int section = 0, rc = 0; /* 1: events, 2: metrics */
	long title_line = 0;
	for (size_t i = 0; i < len && !rc;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) : len;
		const char *p = text + i;
		size_t n = end - i;
		i = end + 1;
		gp.line++;
		span_trim(&p, &n);
		if (!n || *p == '#')
			continue;
		if (memchr(p, 0, n)) { /* the checked reader refuses these: a caller that did not */
			rc = gfail(&gp, "a NUL byte: a binary file, not text");
		} else if (keyword(p, n, "SHORT")) {
			const char *t = p + 5;
			size_t tn = n - 5;
			span_trim(&t, &tn);
			if (title_line)
				rc = gfail(&gp, "a second SHORT line (the first is line %ld)", title_line);
			else
				rc = field(&gp, g->title, sizeof(g->title), t, tn, "SHORT title");
			title_line = gp.line;
		} else if (keyword(p, n, "EVENTSET")) {
			const char *t = p + 8;
			size_t tn = n - 8;
			span_trim(&t, &tn);
			if (b && (rc = block_end(&gp, b)))
				break;
			if (g->nblocks >= STAT_GROUP_BLOCKS_MAX) {
				rc = gfail(&gp, "more than %d EVENTSET blocks", STAT_GROUP_BLOCKS_MAX);
				break;
			}
			if (!tn) {
				rc = gfail(&gp, "EVENTSET without a label: 'EVENTSET intel', 'EVENTSET amd', 'EVENTSET generic'");
				break;
			}
			b = &g->block[g->nblocks];
			if ((rc = field(&gp, b->label, sizeof(b->label), t, tn, "EVENTSET label")))
				break;
			for (int k = 0; k < g->nblocks && !rc; k++)
				if (!strcmp(g->block[k].label, b->label))
					rc = gfail(&gp, "EVENTSET '%s' is given twice (first on line %ld)", b->label, g->block[k].line);
			b->line = gp.line;
			g->nblocks++;
			section = 1;
		} else if (keyword(p, n, "METRICS")) {
			if (n != 7)
				rc = gfail(&gp, "METRICS stands alone on its line");
			else if (!b)
				rc = gfail(&gp, "METRICS before EVENTSET: a block is 'EVENTSET LABEL', its events, then METRICS");
			else if (section == 2)
				rc = gfail(&gp, "a second METRICS line in EVENTSET '%s'", b->label);
			else if (!(rc = block_end(&gp, b)))
				section = 2;
		} else if (section == 1) {
			rc = add_event(&gp, b, p, n, alias);
		} else if (section == 2) {
			rc = add_metric(&gp, b, p, n);
		} else {
			rc = gfail(&gp, "'%.*s' before EVENTSET: a group is 'SHORT title', then 'EVENTSET LABEL' blocks",
				   (int)(n < 40 ? n : 40), p);
		}
	}
	if (rc)
		return rc;
	if (!b)
		return as_error_set(err, -EINVAL, "metric group '%s': no EVENTSET: a group lists its events in 'EVENTSET LABEL' "
				    "blocks", name);
	return block_end(&gp, b);
}

int measure_stat_group_read(struct stat_group *g, const char *path, const char *(*alias)(const char *name),
		    struct as_error *err)
{
	size_t len = 0;
	char *text = file_read_input(path, "metric group", STAT_GROUP_MAX_BYTES, &len, err);
	if (!text)
		return err && err->code ? err->code : -EINVAL;
	int rc = measure_stat_group_parse(g, text, len, path, alias, err);
	free(text);
	return rc;
}
