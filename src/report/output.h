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
/* The parts of a document output_envelope made, read back: its results object, its machine block
 * and its command (NULL where doc has none of that kind); the envelope's keys are spelled here. */
json_t *output_doc_results(const json_t *doc);
json_t *output_doc_machine(const json_t *doc);
const char *output_doc_command(const json_t *doc);
const char *output_doc_version(const json_t *doc);

/* {"value", "unit", "confidence", "method", "os_reported"}; os_reported is stolen (NULL -> null).
 * A NaN value becomes null (no answer). */
json_t *output_answer(double value, const char *unit, double confidence, const char *method,
		      json_t *os_reported);

/* The one reader of JSON input (results, matrix files, saved runs, sample lines, llvm-mca's
 * output): text[0..len) as one document. A key given twice in an object is refused (jansson's
 * JSON_REJECT_DUPLICATES: "the last one wins" would change a value without a word), and so is
 * "\u0000" in a string unless flags has OUTPUT_JSON_NUL. NULL with err set (-EINVAL): "cannot
 * read WHAT 'NAME': not JSON: line L, column C: REASON", lines counted from first_line (a line of
 * a JSON-lines file names its own line). */
enum { OUTPUT_JSON_NUL = 1 };
json_t *output_json_parse(const char *text, size_t len, const char *what, const char *name, long first_line, int flags,
			  struct as_error *err);
/* What kind of JSON value v is, for messages: "a string", "a number", "true/false", "null", "an
 * object", "a list". */
const char *output_json_kind(const json_t *v);
/* The checked file reader (common/atomicfile.h: file_read_input, at most max_bytes; "-" is
 * standard input, named <stdin>) and output_json_parse. NULL with err set. */
json_t *output_json_read(const char *path, const char *what, size_t max_bytes, struct as_error *err);

/* Pretty JSON with a trailing newline. */
int output_json_print(FILE *out, const json_t *doc, struct as_error *err);

/* Writes doc as pretty JSON to path atomically. */
int output_write_file(const char *path, const json_t *doc, struct as_error *err);

#endif
