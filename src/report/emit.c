/* The one emitter behind every command's renderer (see emit.h): JSON mode builds a jansson tree,
 * text mode buffers a block of fields or a table until it is complete, then prints it aligned. */
#include "report/emit.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/buffer.h"
#include "common/cpuset.h"
#include "report/output.h"
#include "report/table.h"

#define EMIT_MAX_DEPTH 32

enum frame_kind { F_OBJECT, F_ARRAY, F_TABLE, F_ROW, F_TUPLE };

/* Labelled texts: a block of fields, a row's cells, an array's items. */
struct field {
	char *label;
	char *text;
};
struct fields {
	struct field *v;
	int n, cap;
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
	struct fields block; /* text: fields not printed yet */
	struct fields *last; /* text: where the last field or cell went, for emit_annotate */
	enum { LAST_NONE, LAST_TITLE, LAST_BLOCK } printed;
};

/* --- text buffers ------------------------------------------------------------------------ */

static char *vformat(struct emit *e, const char *fmt, va_list ap)
{
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0) {
		e->err = -ENOMEM;
		return NULL;
	}
	return s;
}

static char *format(struct emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *format(struct emit *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vformat(e, fmt, ap);
	va_end(ap);
	return s;
}

/* Appends (label, text); takes text. */
static void fields_add(struct emit *e, struct fields *f, const char *label, char *text)
{
	if (!text)
		return;
	if (f->n == f->cap) {
		int cap = f->cap ? f->cap * 2 : 16;
		struct field *v = realloc(f->v, sizeof(*v) * (size_t)cap);
		if (!v) {
			e->err = -ENOMEM;
			free(text);
			return;
		}
		f->v = v;
		f->cap = cap;
	}
	char *l = strdup(label ? label : "");
	if (!l) {
		e->err = -ENOMEM;
		free(text);
		return;
	}
	f->v[f->n++] = (struct field){ l, text };
	e->last = f;
}

static void fields_clear(struct emit *e, struct fields *f)
{
	for (int i = 0; i < f->n; i++) {
		free(f->v[i].label);
		free(f->v[i].text);
	}
	f->n = 0;
	if (e->last == f)
		e->last = NULL;
}

static void fields_release(struct emit *e, struct fields *f)
{
	fields_clear(e, f);
	free(f->v);
	f->v = NULL;
	f->cap = 0;
}

/* --- text layout ------------------------------------------------------------------------- */

/* Headings over the current position: a heading sits at 2 x this (counted without itself). */
static int titled_depth(const struct emit *e)
{
	int n = 0;
	for (int i = 0; i < e->depth; i++)
		n += e->stack[i].titled;
	return n;
}

/* Fields and tables sit two columns right of their heading; those under no heading as those
 * under a heading at the left margin. */
static int block_indent(const struct emit *e)
{
	int d = titled_depth(e);
	return 2 * (d ? d : 1);
}

static void text_flush_block(struct emit *e)
{
	struct fields *b = &e->block;
	if (!b->n)
		return;
	if (e->printed == LAST_BLOCK)
		fputc('\n', e->out);
	int indent = block_indent(e), width = 0;
	for (int i = 0; i < b->n; i++)
		if (table_text_width(b->v[i].label) > width)
			width = table_text_width(b->v[i].label);
	for (int i = 0; i < b->n; i++) {
		if (*b->v[i].label)
			fprintf(e->out, "%*s%s%*s  %s\n", indent, "", b->v[i].label,
				width - table_text_width(b->v[i].label), "", b->v[i].text);
		else
			fprintf(e->out, "%*s%s\n", indent, "", b->v[i].text);
	}
	fields_clear(e, b);
	e->printed = LAST_BLOCK;
}

static void text_title(struct emit *e, const char *title)
{
	text_flush_block(e);
	if (e->printed != LAST_NONE)
		fputc('\n', e->out);
	fprintf(e->out, "%*s%s\n", 2 * titled_depth(e), "", title);
	e->printed = LAST_TITLE;
}

/* Where a text value goes: the innermost row or array, past objects without a heading; else
 * the block of fields. */
static struct fields *text_target(struct emit *e)
{
	for (int i = e->depth - 1; i > 0; i--) {
		struct frame *f = &e->stack[i];
		if (f->kind == F_ROW || f->kind == F_TUPLE || f->kind == F_ARRAY)
			return &f->cells;
		if (f->kind != F_OBJECT || f->titled)
			break;
	}
	return &e->block;
}

static void text_value(struct emit *e, const char *label, char *text)
{
	fields_add(e, text_target(e), label, text);
}

/* A table's row is complete: the first fixes the columns, the rest fill them. */
static void text_row_end(struct emit *e, struct frame *row, struct frame *tab)
{
	struct fields *c = &row->cells;
	if (!tab->table) {
		const char *headers[64];
		tab->ncols = c->n < 64 ? c->n : 64;
		for (int i = 0; i < tab->ncols; i++)
			headers[i] = c->v[i].label;
		if (tab->ncols)
			tab->table = table_new_columns(tab->ncols, headers);
	}
	for (int i = 0; tab->table && i < tab->ncols; i++)
		table_cell(tab->table, "%s", i < c->n ? c->v[i].text : "");
	tab->rows++;
	fields_clear(e, c);
}

static void text_table_end(struct emit *e, struct frame *tab)
{
	int indent = block_indent(e); /* counts the table's own title */
	char pad[2 * EMIT_MAX_DEPTH + 3];
	snprintf(pad, sizeof(pad), "%*s", indent, "");
	if (e->printed == LAST_BLOCK)
		fputc('\n', e->out);
	if (tab->table)
		table_print(tab->table, e->out, pad);
	else
		fprintf(e->out, "%snone\n", pad);
	table_free(tab->table);
	tab->table = NULL;
	e->printed = LAST_BLOCK;
}

/* --- frames ------------------------------------------------------------------------------ */

static struct frame *top(struct emit *e)
{
	return &e->stack[e->depth - 1];
}

/* Whether a member with this key reaches JSON, and with this label the text. */
static int in_json(struct emit *e, const char *key)
{
	struct frame *f = top(e);
	return e->mode == EMIT_JSON && f->json && (json_is_array(f->json) || key);
}

static int in_text(struct emit *e, const char *label)
{
	return e->mode == EMIT_TEXT && top(e)->text && label;
}

/* Adds v to the current JSON container under key; takes v. */
static void json_put(struct emit *e, const char *key, json_t *v)
{
	struct frame *f = top(e);
	if (!v) {
		e->err = -ENOMEM;
		return;
	}
	int rc = json_is_array(f->json) ? json_array_append_new(f->json, v) : json_object_set_new(f->json, key, v);
	if (rc)
		e->err = -ENOMEM;
}

static json_t *json_number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Opens a frame. json: the new container (NULL: not in JSON); text: shown in text. */
static struct frame *push(struct emit *e, enum frame_kind kind, const char *key, json_t *json, int text)
{
	if (e->depth == EMIT_MAX_DEPTH) {
		json_decref(json);
		e->overflow++;
		e->err = -E2BIG;
		return NULL;
	}
	if (json) {
		json_incref(json);
		json_put(e, key, json);
	}
	struct frame *f = &e->stack[e->depth++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->json = json;
	f->text = text;
	return f;
}

/* Closes the innermost frame if it is of this kind (unbalanced calls are recorded, not followed). */
static struct frame *pop_check(struct emit *e, enum frame_kind kind)
{
	if (e->overflow) {
		e->overflow--;
		return NULL;
	}
	if (e->depth <= 1 || (top(e)->kind != kind && !(kind == F_ROW && top(e)->kind == F_TUPLE))) {
		e->err = -EINVAL;
		return NULL;
	}
	return top(e);
}

static void pop(struct emit *e, struct frame *f)
{
	if (f->json)
		json_decref(f->json);
	fields_release(e, &f->cells);
	free(f->label);
	table_free(f->table);
	e->depth--;
}

/* A container's JSON value and text visibility. */
static json_t *container_json(struct emit *e, const char *key, json_t *(*make)(void))
{
	return in_json(e, key) ? make() : NULL;
}

void emit_object_begin(struct emit *e, const char *key, const char *title)
{
	int text = in_text(e, title);
	struct frame *parent = top(e);
	struct frame *f = push(e, F_OBJECT, key, container_json(e, key, json_object), text);
	if (!f || !text || !*title)
		return;
	/* A heading only where it can stand: not inside a row or an array. The new frame is not
	 * titled yet, so the title and the block before it sit at the parent's depth. */
	if (parent->kind == F_ROW || parent->kind == F_TUPLE || parent->kind == F_ARRAY)
		return;
	text_title(e, title);
	f->titled = 1;
}

void emit_object_end(struct emit *e)
{
	struct frame *f = pop_check(e, F_OBJECT);
	if (!f)
		return;
	if (f->titled)
		text_flush_block(e);
	pop(e, f);
}

void emit_array_begin(struct emit *e, const char *key, const char *label)
{
	int text = in_text(e, label);
	struct frame *f = push(e, F_ARRAY, key, container_json(e, key, json_array), text);
	if (f && text && !(f->label = strdup(label)))
		e->err = -ENOMEM;
}

void emit_array_end(struct emit *e)
{
	struct frame *f = pop_check(e, F_ARRAY);
	if (!f)
		return;
	if (f->text) {
		size_t len = 1;
		for (int i = 0; i < f->cells.n; i++)
			len += strlen(f->cells.v[i].text) + 2;
		char *s = malloc(len);
		if (s) {
			s[0] = '\0';
			for (int i = 0; i < f->cells.n; i++) {
				if (i)
					strcat(s, ", ");
				strcat(s, f->cells.v[i].text);
			}
		} else {
			e->err = -ENOMEM;
		}
		char *label = f->label;
		f->label = NULL;
		pop(e, f);
		text_value(e, label, s);
		free(label);
		return;
	}
	pop(e, f);
}

void emit_table_begin(struct emit *e, const char *key, const char *title)
{
	int text = in_text(e, title);
	struct frame *f = push(e, F_TABLE, key, container_json(e, key, json_array), text);
	if (!f || !text)
		return;
	if (*title)
		text_title(e, title);
	else
		text_flush_block(e);
	f->titled = *title != '\0';
}

void emit_table_end(struct emit *e)
{
	struct frame *f = pop_check(e, F_TABLE);
	if (!f)
		return;
	if (f->text)
		text_table_end(e, f);
	pop(e, f);
}

static void row_begin(struct emit *e, enum frame_kind kind)
{
	struct frame *parent = top(e);
	json_t *json = NULL;
	if (e->mode == EMIT_JSON && parent->json)
		json = kind == F_ROW ? json_object() : json_array();
	push(e, kind, NULL, json, parent->text);
}

void emit_row_begin(struct emit *e)
{
	row_begin(e, F_ROW);
}

void emit_tuple_begin(struct emit *e)
{
	row_begin(e, F_TUPLE);
}

void emit_row_end(struct emit *e)
{
	struct frame *f = pop_check(e, F_ROW);
	if (!f)
		return;
	struct frame *parent = &e->stack[e->depth - 2];
	if (f->text && parent->kind == F_TABLE)
		text_row_end(e, f, parent);
	pop(e, f);
}

/* --- values ------------------------------------------------------------------------------ */

static char *text_number(struct emit *e, double v, const char *unit, const char *fmt)
{
	if (!isfinite(v))
		return format(e, "none");
	char num[64];
	snprintf(num, sizeof(num), fmt ? fmt : "%g", v);
	return format(e, "%s%s%s", num, unit && *unit ? " " : "", unit ? unit : "");
}

void emit_int(struct emit *e, const char *key, const char *label, long long v, const char *unit)
{
	if (in_json(e, key))
		json_put(e, key, json_integer((json_int_t)v));
	if (in_text(e, label))
		text_value(e, label, format(e, "%lld%s%s", v, unit && *unit ? " " : "", unit ? unit : ""));
}

void emit_number(struct emit *e, const char *key, const char *label, double v, const char *unit, const char *fmt)
{
	if (in_json(e, key))
		json_put(e, key, json_number(v));
	if (in_text(e, label))
		text_value(e, label, text_number(e, v, unit, fmt));
}

void emit_size(struct emit *e, const char *key, const char *label, uint64_t bytes)
{
	if (in_json(e, key))
		json_put(e, key, json_integer((json_int_t)bytes));
	if (in_text(e, label)) {
		char buf[32];
		text_value(e, label, format(e, "%s", buffer_format_size((size_t)bytes, buf, sizeof(buf))));
	}
}

void emit_string(struct emit *e, const char *key, const char *label, const char *s)
{
	if (in_json(e, key))
		json_put(e, key, s ? json_string(s) : json_null());
	if (in_text(e, label))
		text_value(e, label, format(e, "%s", s ? s : "none"));
}

void emit_bool(struct emit *e, const char *key, const char *label, int b)
{
	if (in_json(e, key))
		json_put(e, key, json_boolean(b));
	if (in_text(e, label))
		text_value(e, label, format(e, "%s", b ? "yes" : "no"));
}

void emit_null(struct emit *e, const char *key, const char *label, const char *text)
{
	if (in_json(e, key))
		json_put(e, key, json_null());
	if (in_text(e, label))
		text_value(e, label, format(e, "%s", text ? text : "none"));
}

void emit_cpulist(struct emit *e, const char *key, const char *label, const struct as_cpulist *l)
{
	if (in_json(e, key)) {
		json_t *a = json_array();
		for (int i = 0; a && i < l->n; i++)
			json_array_append_new(a, json_integer(l->cpu[i]));
		json_put(e, key, a);
	}
	if (in_text(e, label)) {
		char buf[4096];
		text_value(e, label, format(e, "%s", cpulist_format(l, buf, sizeof(buf))));
	}
}

void emit_stat(struct emit *e, const char *key, const char *label, const struct emit_stat *s, const char *unit,
	       const char *fmt)
{
	if (in_json(e, key)) {
		json_t *o = json_object();
		if (o) {
			json_object_set_new(o, "min", json_number(s->min));
			json_object_set_new(o, "median", json_number(s->median));
			json_object_set_new(o, "max", json_number(s->max));
		}
		json_put(e, key, o);
	}
	if (in_text(e, label)) {
		if (!isfinite(s->median)) {
			text_value(e, label, format(e, "none"));
			return;
		}
		char med[64], noise[64];
		snprintf(med, sizeof(med), fmt ? fmt : "%g", s->median);
		snprintf(noise, sizeof(noise), fmt ? fmt : "%g", (s->max - s->min) / 2);
		text_value(e, label, format(e, "%s ± %s%s%s", med, noise, unit && *unit ? " " : "", unit ? unit : ""));
	}
}

static json_t *answer_json(const struct emit_answer *a)
{
	json_t *os = NULL;
	if (isfinite(a->os_reported))
		os = a->os_integer ? json_integer((json_int_t)a->os_reported) : json_real(a->os_reported);
	return output_answer(a->value, a->unit ? a->unit : "", a->confidence, a->method, os);
}

void emit_answer_begin(struct emit *e, const char *key, const char *label, const struct emit_answer *a)
{
	json_t *json = in_json(e, key) ? answer_json(a) : NULL;
	int text = in_text(e, label);
	if (text) {
		int cell = text_target(e) != &e->block;
		char *s = text_number(e, a->value, a->unit, a->fmt);
		if (s && !cell && isfinite(a->value)) {
			char *t = format(e, "%s (confidence %.2f", s, a->confidence);
			free(s);
			s = t;
			if (s && isfinite(a->os_reported)) {
				char *os = text_number(e, a->os_reported, a->unit, a->fmt);
				t = os ? format(e, "%s; the OS reports %s", s, os) : NULL;
				free(os);
				free(s);
				s = t;
			}
			if (s) {
				t = format(e, "%s)", s);
				free(s);
				s = t;
			}
		}
		text_value(e, label, s);
	}
	/* Further members go into the answer's object in JSON and join the block or row in text. */
	push(e, F_OBJECT, key, json, text);
}

void emit_answer(struct emit *e, const char *key, const char *label, const struct emit_answer *a)
{
	emit_answer_begin(e, key, label, a);
	emit_object_end(e);
}

/* --- text only --------------------------------------------------------------------------- */

void emit_heading(struct emit *e, const char *fmt, ...)
{
	if (!in_text(e, ""))
		return;
	va_list ap;
	va_start(ap, fmt);
	char *s = vformat(e, fmt, ap);
	va_end(ap);
	if (s)
		text_title(e, s);
	free(s);
}

void emit_text(struct emit *e, const char *label, const char *fmt, ...)
{
	if (!in_text(e, label ? label : ""))
		return;
	va_list ap;
	va_start(ap, fmt);
	char *s = vformat(e, fmt, ap);
	va_end(ap);
	text_value(e, label, s);
}

void emit_annotate(struct emit *e, const char *fmt, ...)
{
	if (e->mode != EMIT_TEXT || !e->last || !e->last->n)
		return;
	struct field *f = &e->last->v[e->last->n - 1];
	va_list ap;
	va_start(ap, fmt);
	char *add = vformat(e, fmt, ap);
	va_end(ap);
	char *s = add ? format(e, "%s%s", f->text, add) : NULL;
	free(add);
	if (s) {
		free(f->text);
		f->text = s;
	}
}

/* --- life cycle -------------------------------------------------------------------------- */

struct emit *emit_new(enum emit_mode mode, FILE *out)
{
	struct emit *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->mode = mode;
	e->out = out;
	if (mode == EMIT_JSON && !(e->results = json_object())) {
		free(e);
		return NULL;
	}
	e->depth = 1;
	e->stack[0] = (struct frame){ .kind = F_OBJECT, .json = e->results, .text = mode == EMIT_TEXT };
	return e;
}

int emit_is_text(const struct emit *e)
{
	return e->mode == EMIT_TEXT;
}

int emit_end(struct emit *e, const char *command, json_t *machine, struct as_error *err)
{
	if (e->depth != 1 || e->overflow) {
		json_decref(machine);
		return as_error_set(err, -EINVAL, "emit: %d container%s not ended", e->depth - 1 + e->overflow,
				    e->depth - 1 + e->overflow == 1 ? "" : "s");
	}
	if (e->err) {
		json_decref(machine);
		return as_error_set(err, e->err, "emit: %s", e->err == -ENOMEM ? "out of memory"
							     : e->err == -E2BIG ? "containers nested too deep"
										: "an end without its begin");
	}
	if (e->mode == EMIT_TEXT) {
		json_decref(machine);
		text_flush_block(e);
		return 0;
	}
	json_t *doc = output_envelope(command, machine, e->results);
	e->results = NULL;
	e->stack[0].json = NULL;
	int rc = output_json_print(e->out, doc, err);
	json_decref(doc);
	return rc;
}

void emit_free(struct emit *e)
{
	if (!e)
		return;
	while (e->depth > 1)
		pop(e, top(e));
	fields_release(e, &e->block);
	json_decref(e->results);
	free(e);
}
