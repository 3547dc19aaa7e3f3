/* Inside the emitter (report/emit.c and report/emit-text.c only): its frames, and the text layout
 * that emit.c's calls feed. Not for commands: they use report/emit.h. */
#ifndef ARCHSCOPE_REPORT_EMIT_IMPL_H
#define ARCHSCOPE_REPORT_EMIT_IMPL_H

#include <stdarg.h>

#include "report/emit.h"

struct table;

#define EMIT_MAX_DEPTH 32

enum frame_kind { F_OBJECT, F_ARRAY, F_TABLE, F_ROW, F_TUPLE };

/* Labelled texts: a block of fields, a row's cells, an array's items. */
struct field {
	char *label;
	char *text;
};
struct fields {
	struct field *v;
	int n;
	size_t cap;
};

struct frame {
	enum frame_kind kind;
	json_t *json;       /* JSON mode: the container, NULL when this subtree is not in JSON */
	int text;           /* text mode: shown */
	int titled;         /* text mode: has a heading (indents what is under it) */
	char *label;        /* F_ARRAY: the field's label */
	struct fields cells; /* F_ROW, F_TUPLE: this row's cells; F_ARRAY: the items */
	struct table *table; /* F_TABLE: created when the first row ends */
	int ncols;
	int rows;
};

struct emit {
	enum emit_mode mode;
	FILE *out;
	int err;            /* first failure, a negative errno */
	struct frame stack[EMIT_MAX_DEPTH];
	int depth;          /* frames in use; stack[0] is "results" */
	int overflow;       /* begins past EMIT_MAX_DEPTH, ignored with their ends */
	json_t *results;
	size_t not_utf8;    /* JSON: bytes of strings and keys that were not UTF-8 (written as U+FFFD) */
	struct fields block; /* text: fields not printed yet */
	struct fields *last; /* text: where the last field or cell went, for emit_annotate */
	enum { LAST_NONE, LAST_TITLE, LAST_BLOCK } printed;
};

static inline struct frame *emit_top(struct emit *e)
{
	return &e->stack[e->depth - 1];
}

/* Whether a member with this key reaches JSON, and with this label the text. */
static inline int emit_in_json(struct emit *e, const char *key)
{
	struct frame *f = emit_top(e);
	return e->mode == EMIT_JSON && f->json && (json_is_array(f->json) || key);
}

static inline int emit_in_text(struct emit *e, const char *label)
{
	return e->mode == EMIT_TEXT && emit_top(e)->text && label;
}

/* Text buffers and layout (emit-text.c). Strings are the emitter's: NULL and e->err = -ENOMEM
 * when memory runs out. */
char *emit_vformat(struct emit *e, const char *fmt, va_list ap);
char *emit_format(struct emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "12 B", "2.68", "none" for NaN; fmt NULL: "%g". */
char *emit_layout_number(struct emit *e, double v, const char *unit, const char *fmt);
/* The unit for a count printed as `num`: "1 context", not "1 contexts" (emit-text.c). */
const char *emit_unit_for(const char *num, const char *unit);
void emit_fields_add(struct emit *e, struct fields *f, const char *label, char *text);
void emit_fields_clear(struct emit *e, struct fields *f);
void emit_fields_release(struct emit *e, struct fields *f);
/* Prints the pending block of fields. */
void emit_layout_flush(struct emit *e);
/* Prints a heading at the current depth (after the pending block). */
void emit_layout_title(struct emit *e, const char *title);
/* Where a text value goes now: a row's cells, an array's items, or the block of fields. */
struct fields *emit_layout_target(struct emit *e);
/* Adds a value (taken) where it goes now. */
void emit_layout_value(struct emit *e, const char *label, char *text);
/* A table row is complete; a table is complete. */
void emit_layout_row_end(struct emit *e, struct frame *row, struct frame *tab);
void emit_layout_table_end(struct emit *e, struct frame *tab);

#endif
