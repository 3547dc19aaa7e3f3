/* The emitter's text mode (see emit.h): fields gathered into a block and printed with aligned
 * labels, table rows gathered into report/table.c's tables, headings, and the text-only calls. */
#include "report/emit-impl.h"
#include "common/array.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/buffer.h"
#include "report/table.h"

/* --- text buffers ------------------------------------------------------------------------ */

char *emit_vformat(struct emit *e, const char *fmt, va_list ap)
{
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0) {
		e->err = -ENOMEM;
		return NULL;
	}
	return s;
}

char *emit_format(struct emit *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = emit_vformat(e, fmt, ap);
	va_end(ap);
	return s;
}

/* Appends (label, text); takes text. */
void emit_fields_add(struct emit *e, struct fields *f, const char *label, char *text)
{
	if (!text)
		return;
	struct field *v = array_grow(f->v, &f->cap, (size_t)f->n, sizeof(*v), 16);
	if (!v) {
		e->err = -ENOMEM;
		free(text);
		return;
	}
	f->v = v;
	char *l = strdup(label ? label : "");
	if (!l) {
		e->err = -ENOMEM;
		free(text);
		return;
	}
	f->v[f->n++] = (struct field){ l, text };
	e->last = f;
}

void emit_fields_clear(struct emit *e, struct fields *f)
{
	for (int i = 0; i < f->n; i++) {
		free(f->v[i].label);
		free(f->v[i].text);
	}
	f->n = 0;
	if (e->last == f)
		e->last = NULL;
}

void emit_fields_release(struct emit *e, struct fields *f)
{
	emit_fields_clear(e, f);
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

void emit_layout_flush(struct emit *e)
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
	emit_fields_clear(e, b);
	e->printed = LAST_BLOCK;
}

void emit_layout_title(struct emit *e, const char *title)
{
	emit_layout_flush(e);
	if (e->printed != LAST_NONE)
		fputc('\n', e->out);
	fprintf(e->out, "%*s%s\n", 2 * titled_depth(e), "", title);
	e->printed = LAST_TITLE;
}

/* Where a text value goes: the innermost row or array, past objects without a heading; else
 * the block of fields. */
struct fields *emit_layout_target(struct emit *e)
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

void emit_layout_value(struct emit *e, const char *label, char *text)
{
	emit_fields_add(e, emit_layout_target(e), label, text);
}

/* A table's row is complete: the first fixes the columns, the rest fill them. */
void emit_layout_row_end(struct emit *e, struct frame *row, struct frame *tab)
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
	emit_fields_clear(e, c);
}

void emit_layout_table_end(struct emit *e, struct frame *tab)
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

/* The unit for a count printed as `num`: a plural noun after exactly "1" is singular ("1
 * context", "1 way"); symbols (B, ns, GHz) and every other count are as given. */
const char *emit_unit_for(const char *num, const char *unit)
{
	static const char *const plural[][2] = {
		{ "contexts", "context" }, { "ways", "way" },       { "registers", "register" }, { "levels", "level" },
		{ "entries", "entry" },    { "clusters", "cluster" }, { "threads", "thread" },    { "cycles", "cycle" },
		{ "samples", "sample" },   { "processes", "process" }, { "nodes", "node" },       { "cores", "core" },
		{ "CPUs", "CPU" },         { "lines", "line" },       { "ranks", "rank" },        { "runs", "run" },
	};
	if (!unit || !num || strcmp(num, "1") != 0)
		return unit;
	for (size_t i = 0; i < sizeof(plural) / sizeof(plural[0]); i++)
		if (!strcmp(unit, plural[i][0]))
			return plural[i][1];
	return unit;
}

char *emit_layout_number(struct emit *e, double v, const char *unit, const char *fmt)
{
	if (!isfinite(v))
		return emit_format(e, "none");
	char num[64];
	if (unit && !strcmp(unit, "B") && v >= 1024 && v < 9.2e18) /* for people: 1 MiB, not 1.04858e+06 B */
		return emit_format(e, "%s", buffer_format_size((size_t)llround(v), num, sizeof(num)));
	snprintf(num, sizeof(num), fmt ? fmt : "%g", v);
	unit = emit_unit_for(num, unit);
	return emit_format(e, "%s%s%s", num, unit && *unit ? " " : "", unit ? unit : "");
}

/* --- text only --------------------------------------------------------------------------- */

void emit_heading(struct emit *e, const char *fmt, ...)
{
	if (!emit_in_text(e, ""))
		return;
	va_list ap;
	va_start(ap, fmt);
	char *s = emit_vformat(e, fmt, ap);
	va_end(ap);
	if (s)
		emit_layout_title(e, s);
	free(s);
}

void emit_text(struct emit *e, const char *label, const char *fmt, ...)
{
	if (!emit_in_text(e, label ? label : ""))
		return;
	va_list ap;
	va_start(ap, fmt);
	char *s = emit_vformat(e, fmt, ap);
	va_end(ap);
	emit_layout_value(e, label, s);
}

void emit_annotate(struct emit *e, const char *fmt, ...)
{
	if (e->mode != EMIT_TEXT || !emit_top(e)->text || !e->last || !e->last->n)
		return; /* also inside what text does not show: the last field printed is not its */
	struct field *f = &e->last->v[e->last->n - 1];
	va_list ap;
	va_start(ap, fmt);
	char *add = emit_vformat(e, fmt, ap);
	va_end(ap);
	char *s = add ? emit_format(e, "%s%s", f->text, add) : NULL;
	free(add);
	if (s) {
		free(f->text);
		f->text = s;
	}
}
