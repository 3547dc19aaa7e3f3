/* One document model for every output: commands build a jansson tree; this module wraps it in the
 * envelope {"archscope", "command", "machine", "results"}, prints it as JSON, and builds the
 * "answer" objects every measured value is reported as. YAML (machine files) is machine/mtree.h's. */
#ifndef ARCHSCOPE_REPORT_OUTPUT_H
#define ARCHSCOPE_REPORT_OUTPUT_H

#include <jansson.h>
#include <stdio.h>

#include "common/error.h"

/* Any byte string as a JSON string (jansson refuses bytes that are not UTF-8, which would lose a
 * whole result for one path or program argument): valid UTF-8 is kept as it is; each byte that
 * is not becomes U+FFFD (the replacement character), and *replaced (when not NULL) grows by the
 * number of such bytes, so the caller can say so. NULL only when out of memory. */
json_t *output_json_string(const char *s, size_t *replaced);
/* key made valid UTF-8 the same way: key itself when it is, else a copy in buf[len] (cut when
 * longer). */
const char *output_json_key(const char *key, char *buf, size_t len, size_t *replaced);

/* {"archscope": VERSION, "command": command, "machine": machine, "results": results}; steals both. */
json_t *output_envelope(const char *command, json_t *machine, json_t *results);

/* {"value", "unit", "confidence", "method", "os_reported"}; os_reported is stolen (NULL -> null).
 * A NaN value becomes null (no answer). */
json_t *output_answer(double value, const char *unit, double confidence, const char *method,
		      json_t *os_reported);

/* Pretty JSON with a trailing newline. */
int output_json_print(FILE *out, const json_t *doc, struct as_error *err);

/* Writes doc as pretty JSON to path atomically. */
int output_write_file(const char *path, const json_t *doc, struct as_error *err);

#endif
