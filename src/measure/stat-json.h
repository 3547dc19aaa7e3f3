/* Reading back a stat result (what `archscope stat --json` and `stat -o FILE` write): the events
 * with their name, unit and per-run values, for `compare`. Nothing here measures (the fuzz target
 * tests/fuzz/fuzz-statjson.c links it alone). */
#ifndef ARCHSCOPE_MEASURE_STAT_JSON_H
#define ARCHSCOPE_MEASURE_STAT_JSON_H

#include <stddef.h>

#include "common/error.h"

/* The largest stat result read (bytes): thousands of events over thousands of runs fit. */
#define MEASURE_STAT_JSON_MAX_BYTES ((size_t)64 << 20)

/* The largest value of an event (a count, or a time in the event's unit): 2^64, the most a 64-bit
 * counter holds. Values are never negative; a value beyond this one, or below 0, is refused, as is
 * a number of results.conditions (load, clock, CPUs) below 0 or above MEASURE_STAT_JSON_MAX_COND. */
#define MEASURE_STAT_JSON_MAX_VALUE 18446744073709551616.0
#define MEASURE_STAT_JSON_MAX_COND 1e15

struct measure_stat_json_event {
	char *name;     /* never NULL */
	char *unit;     /* NULL when the result names none */
	double *values; /* per run, in order; NAN: not counted in that run */
	size_t n;       /* entries of values */
};

/* One of results.conditions (what `stat` records of the machine around its runs): a string or a
 * number; an array's elements as KEY[i]. */
struct measure_stat_json_cond {
	char *key;
	char *text;     /* NULL for a number */
	double value;   /* NaN for a string or null */
};

struct measure_stat_json {
	struct measure_stat_json_event *ev; /* in the order of the file */
	size_t n;
	size_t *by_name;  /* indices of ev sorted by name, for measure_stat_json_find */
	struct measure_stat_json_cond *cond; /* results.conditions, flattened ("" keys none) */
	size_t ncond;
	size_t cond_cap; /* entries cond has room for */
};

/* Parses len bytes of text (a stat result) into s; name is the file in messages. On failure
 * -EINVAL and a message ("cannot read 'NAME': ... (line L)", "'NAME' is not a result of
 * 'archscope stat --json' (no results.events)", "'NAME': results.events[I] ...", a key given twice
 * in one object, an event named twice); s is then empty. */
int measure_stat_json_parse(struct measure_stat_json *s, const char *text, size_t len, const char *name,
			    struct as_error *err);
/* Reads path ("-": standard input; only a regular file, at most MEASURE_STAT_JSON_MAX_BYTES) and
 * parses it. */
int measure_stat_json_read(struct measure_stat_json *s, const char *path, struct as_error *err);
/* Builds s->by_name for s->ev[0..n) (events filled by a caller, not parsed); -EINVAL naming both
 * indices when two events share a name. */
int measure_stat_json_index(struct measure_stat_json *s, const char *name, struct as_error *err);
/* The event named name, or NULL (binary search: 100k events are found in microseconds). */
const struct measure_stat_json_event *measure_stat_json_find(const struct measure_stat_json *s, const char *name);
/* The condition named key (a flattened name such as "loadavg_before[0]"), or NULL. */
const struct measure_stat_json_cond *measure_stat_json_cond(const struct measure_stat_json *s, const char *key);
void measure_stat_json_release(struct measure_stat_json *s);

/* One condition that differs between two results (compare's warnings). */
struct measure_stat_cond_diff {
	const char *key;      /* the condition's flattened key, owned by the first result */
	char a[160], b[160];  /* the two values as text, with the unit where there is one */
	char apart[32];       /* how far they may be apart ("5 %", "1"); "" where they must be equal */
};
#define MEASURE_STAT_COND_DIFFS 16
/* The conditions (results.conditions) of a and b that differ: the strings (CPU model, kernel,
 * archscope, host, governor, CPUs) must be equal; the measured clock and the OS's MHz may move
 * MEASURE_STAT_CLOCK_APART, the 1-minute load average before and after the runs
 * MEASURE_STAT_LOAD_APART (one busy CPU); times always differ and are not compared. Returns how
 * many were written into out (at most max); -1 where only one of them records conditions. */
#define MEASURE_STAT_CLOCK_APART 0.05
#define MEASURE_STAT_LOAD_APART 1.0
int measure_stat_json_cond_diff(const struct measure_stat_json *a, const struct measure_stat_json *b,
				struct measure_stat_cond_diff *out, int max);

#endif
