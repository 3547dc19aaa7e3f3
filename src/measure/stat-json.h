/* Reading back a stat result (what `archscope stat --json` and `stat -o FILE` write): the events
 * with their name, unit and per-run values, for `compare`. Nothing here measures (the fuzz target
 * tests/fuzz/fuzz-statjson.c links it alone). */
#ifndef ARCHSCOPE_MEASURE_STAT_JSON_H
#define ARCHSCOPE_MEASURE_STAT_JSON_H

#include <stddef.h>

#include "common/error.h"

/* The largest stat result read (bytes): thousands of events over thousands of runs fit. */
#define MEASURE_STAT_JSON_MAX_BYTES ((size_t)64 << 20)

struct measure_stat_json_event {
	char *name;     /* never NULL */
	char *unit;     /* NULL when the result names none */
	double *values; /* per run, in order; NAN: not counted in that run */
	size_t n;       /* entries of values */
};

struct measure_stat_json {
	struct measure_stat_json_event *ev; /* in the order of the file */
	size_t n;
};

/* Parses len bytes of text (a stat result) into s; name is the file in messages. On failure
 * -EINVAL and a message ("cannot read 'NAME': ... (line L)", "'NAME' is not a result of
 * 'archscope stat --json' (no results.events)", "'NAME': results.events[I] ..."); s is then empty. */
int measure_stat_json_parse(struct measure_stat_json *s, const char *text, size_t len, const char *name,
			    struct as_error *err);
/* Reads path ("-": standard input; only a regular file, at most MEASURE_STAT_JSON_MAX_BYTES) and
 * parses it. */
int measure_stat_json_read(struct measure_stat_json *s, const char *path, struct as_error *err);
/* The first event named name, or NULL. */
const struct measure_stat_json_event *measure_stat_json_find(const struct measure_stat_json *s, const char *name);
void measure_stat_json_release(struct measure_stat_json *s);

#endif
