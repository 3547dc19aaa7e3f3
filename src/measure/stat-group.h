/* Metric-group files (share/groups/NAME.txt, as likwid-perfctr's groups): read with the checked
 * reader and parsed and checked as a whole, so a bad file is refused naming its line, never half
 * used; and the metric expressions over a set's events. No PMU here (stat-select.c chooses the
 * block this machine counts), so the parser is a pure function a fuzz target runs. */
#ifndef ARCHSCOPE_MEASURE_STAT_GROUP_H
#define ARCHSCOPE_MEASURE_STAT_GROUP_H

#include <stddef.h>

#include "common/error.h"

#define STAT_METRICS_MAX 16
#define STAT_GROUP_EVENTS_MAX 16
#define STAT_GROUP_BLOCKS_MAX 8
#define STAT_GROUP_EVENT_LEN 128
/* A group file is a few dozen lines: anything larger is not one. */
#define STAT_GROUP_MAX_BYTES ((size_t)256 << 10)

/* A derived metric of a group: "LABEL | UNIT | EXPR" where EXPR combines numbers, event names
 * and $N (the N-th event of the set, from 1) with + - * / and parentheses ("$3 / $2 * 100"). */
struct stat_metric {
	char label[64];
	char unit[32];
	char expr[256];
};

/* One EVENTSET block: its events (in order: $N is ev[N-1]) and metrics, with their lines. */
struct stat_group_block {
	char label[64];
	long line;
	int n, nmetrics;
	char ev[STAT_GROUP_EVENTS_MAX][STAT_GROUP_EVENT_LEN];
	long ev_line[STAT_GROUP_EVENTS_MAX];
	struct stat_metric metric[STAT_METRICS_MAX];
	long metric_line[STAT_METRICS_MAX];
};

struct stat_group {
	char title[128];     /* the SHORT line ("" without) */
	int nblocks;
	struct stat_group_block block[STAT_GROUP_BLOCKS_MAX];
};

/* Parses text[0..len) (checked text: no NUL byte, UTF-8) of the group file NAME: "SHORT title",
 * then blocks "EVENTSET LABEL", one event per line, "METRICS" and one "LABEL | UNIT | EXPR" per
 * line; '#' starts a comment line. Refused (-EINVAL, "metric group 'NAME': line N: why"): a line
 * before the first EVENTSET, a block without events, more than STAT_GROUP_BLOCKS_MAX blocks or
 * STAT_GROUP_EVENTS_MAX events or STAT_METRICS_MAX metrics, a field longer than its room, an event
 * name with a space or a byte that is not printable ASCII, an event listed twice in a block (also
 * under two names alias() maps to one event; alias may be NULL), a label given twice, and a
 * metric whose expression measure_stat_expr_check() refuses. */
int measure_stat_group_parse(struct stat_group *g, const char *text, size_t len, const char *name,
		     const char *(*alias)(const char *name), struct as_error *err);
/* measure_stat_group_parse() of the file at path, read with the checked reader (file_read_input: a
 * regular file of at most STAT_GROUP_MAX_BYTES, text). */
int measure_stat_group_read(struct stat_group *g, const char *path, const char *(*alias)(const char *name),
		    struct as_error *err);

/* 0 when expr is a well-formed expression over names[0..n) (numbers in decimal within double,
 * $1..$n, the names themselves, + - * / and parentheses); else -EINVAL with why[] saying what and
 * where ("'$9': the set has 3 events ($1 to $3)", "an operand is missing after '+'"). */
int measure_stat_expr_check(const char *expr, const char *const *names, int n, char *why, size_t len);
/* The value of expr: $K is value(names[K-1]), a name is value(name). NaN when an event's value is
 * NaN, on a division by zero, or when expr is not well formed. */
double measure_stat_expr_eval(const char *expr, const char *const *names, int n, double (*value)(void *ctx, const char *name),
		      void *ctx);

#endif
