/* One result, one renderer: a command's renderer makes the same calls for people and for programs.
 * In text mode they print aligned fields and tables with a unit on every number; in JSON mode they
 * build "results" of the envelope {"archscope", "command", "machine", "results"}. So the two
 * outputs come from one function and cannot disagree. See docs/cli-conventions.md.
 *
 * Every call names its JSON key and its text label:
 *   key    the member's name in JSON. Inside an object, NULL means "text only"; inside an array
 *          (a list, a table, a row of a matrix) elements have no name and key is ignored.
 *   label  the member's label in text (a field's label, a table's column header, a title).
 *          NULL means "JSON only"; for objects, "" means "no heading: the members join the
 *          enclosing block".
 * Text layout: headings at the left, fields ("label  value unit", labels aligned) and tables
 * indented two spaces under the heading they belong to, a blank line between blocks. */
#ifndef ARCHSCOPE_REPORT_EMIT_H
#define ARCHSCOPE_REPORT_EMIT_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"

struct as_cpulist;

enum emit_mode {
	EMIT_TEXT, /* for people */
	EMIT_JSON, /* for programs: one envelope, printed by emit_end() */
};

struct emit;

/* An emitter writing to out; NULL when out of memory. */
struct emit *emit_new(enum emit_mode mode, FILE *out);
int emit_is_text(const struct emit *e);
/* Finishes the output: text mode prints what is still buffered; JSON mode prints
 * {"archscope", "command": command, "machine": machine, "results"} (machine is stolen; NULL
 * gives {}). Returns 0, or a negative errno (out of memory, unbalanced begin/end, write error in
 * JSON mode) with err filled. In text mode the caller checks the stream (main does). */
int emit_end(struct emit *e, const char *command, json_t *machine, struct as_error *err);
void emit_free(struct emit *e);
/* JSON mode: the "results" object built so far, the emitter's own (valid until emit_end() or
 * emit_free()), for a command that also keeps its results (probe -o saves them and writes the
 * machine file from them); NULL in text mode. */
json_t *emit_results(struct emit *e);
/* JSON mode: how many bytes of the strings and keys emitted so far were not UTF-8; each is written
 * as U+FFFD (report/output.h), so the output stays valid JSON. The command says so in a note. */
size_t emit_not_utf8(const struct emit *e);

/* Containers; each *_begin has its *_end. */
/* An object; in text a heading (title) with its members under it. */
void emit_object_begin(struct emit *e, const char *key, const char *title);
void emit_object_end(struct emit *e);
/* An array of objects (a model's cache levels); in text no line of its own: each object is a
 * block under its own title (label NULL: JSON only). Ends with emit_list_end(). */
void emit_list_begin(struct emit *e, const char *key, const char *label);
void emit_list_end(struct emit *e);
/* An array of values; in text one field: "label  a, b, c". */
void emit_array_begin(struct emit *e, const char *key, const char *label);
void emit_array_end(struct emit *e);
/* An array of rows; in text an aligned table under the title, its columns the labels of the
 * first row's values (every row gives the same labelled values). */
void emit_table_begin(struct emit *e, const char *key, const char *title);
void emit_table_end(struct emit *e);
/* A row that is an object in JSON ({"level": 1, ...}) ... */
void emit_row_begin(struct emit *e);
/* ... or an array ([10, 21]: a row of a matrix). Both end with emit_row_end(). */
void emit_tuple_begin(struct emit *e);
void emit_row_end(struct emit *e);

/* Values. Text shows numbers with their unit ("12 B"); a NaN or infinite number is null in
 * JSON and "none" in text. */
void emit_int(struct emit *e, const char *key, const char *label, long long v, const char *unit);
/* fmt: the text format of v, one double conversion ("%.2f"); NULL: "%g". JSON keeps every digit. */
void emit_number(struct emit *e, const char *key, const char *label, double v, const char *unit,
		 const char *fmt);
/* A size: an integer number of bytes in JSON, "48 KiB" in text. */
void emit_size(struct emit *e, const char *key, const char *label, uint64_t bytes);
/* A string; NULL is null in JSON and "none" in text. */
void emit_string(struct emit *e, const char *key, const char *label, const char *s);
void emit_bool(struct emit *e, const char *key, const char *label, int b);
/* null in JSON; text (NULL: "none") for people. */
void emit_null(struct emit *e, const char *key, const char *label, const char *text);
/* CPU numbers: an array in JSON, "0-3,8" in text. */
void emit_cpulist(struct emit *e, const char *key, const char *label, const struct as_cpulist *l);
/* A JSON value made elsewhere (a document read from a file): JSON only, nothing in text; takes v
 * (NULL: out of memory). */
void emit_json(struct emit *e, const char *key, json_t *v);

/* Repeated measurements: {"min", "median", "max"} in JSON; in text the median with its noise,
 * half the spread: "12.3 ± 0.4 GB/s". */
struct emit_stat {
	double min, median, max;
};
void emit_stat(struct emit *e, const char *key, const char *label, const struct emit_stat *s,
	       const char *unit, const char *fmt);

/* A measured answer (report/output.h's output_answer()): {"value", "unit", "confidence",
 * "method", "os_reported"}; in text "12 B (confidence 0.91)" as a field, "12 B" in a table. */
struct emit_answer {
	double value;       /* NaN: no answer (null) */
	const char *unit;
	double confidence;  /* 0..1 */
	const char *method;
	double os_reported; /* what the OS reports; NaN: nothing (null) */
	int os_integer;     /* os_reported is an integer in JSON */
	const char *fmt;    /* text format of value and os_reported; NULL: "%g" */
};
void emit_answer(struct emit *e, const char *key, const char *label, const struct emit_answer *a);
/* emit_answer() whose object takes further members (its curve, its clock...) up to
 * emit_object_end(); in text they follow the answer in the same block or row. */
void emit_answer_begin(struct emit *e, const char *key, const char *label, const struct emit_answer *a);

/* Text only (nothing in JSON). */
/* A heading line, like an object's title, for the blocks that follow. */
void emit_heading(struct emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A field or table cell with no JSON counterpart (an index column, a remark). */
void emit_text(struct emit *e, const char *label, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Appends to the last field or cell printed, as written (" (2 of 8)", "  <- differs from ...");
 * nothing inside a container text does not show. */
void emit_annotate(struct emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
