/* The one emitter behind every command's renderer (see emit.h): its frames, JSON mode (a jansson
 * tree), the values, and its life cycle; text mode's layout is in emit-text.c. */
#include "report/emit-impl.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/buffer.h"
#include "common/cpuset.h"
#include "report/output.h"
#include "report/table.h"

/* --- frames ------------------------------------------------------------------------------ */

/* Adds v to the current JSON container under key; takes v. */
static void json_put(struct emit *e, const char *key, json_t *v)
{
	struct frame *f = emit_top(e);
	if (!v) {
		e->err = -ENOMEM;
		return;
	}
	char fixed[1024];
	int rc = json_is_array(f->json) ? json_array_append_new(f->json, v)
					: json_object_set_new(f->json, output_json_key(key, fixed, sizeof(fixed), &e->not_utf8), v);
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
	if (e->depth <= 1 || (emit_top(e)->kind != kind && !(kind == F_ROW && emit_top(e)->kind == F_TUPLE))) {
		e->err = -EINVAL;
		return NULL;
	}
	return emit_top(e);
}

static void pop(struct emit *e, struct frame *f)
{
	if (f->json)
		json_decref(f->json);
	emit_fields_release(e, &f->cells);
	free(f->label);
	table_free(f->table);
	e->depth--;
}

/* A container's JSON value and text visibility. */
static json_t *container_json(struct emit *e, const char *key, json_t *(*make)(void))
{
	return emit_in_json(e, key) ? make() : NULL;
}

void emit_object_begin(struct emit *e, const char *key, const char *title)
{
	int text = emit_in_text(e, title);
	struct frame *parent = emit_top(e);
	struct frame *f = push(e, F_OBJECT, key, container_json(e, key, json_object), text);
	if (!f || !text || !*title)
		return;
	/* A heading only where it can stand: not inside a row or an array. The new frame is not
	 * titled yet, so the title and the block before it sit at the parent's depth. */
	if (parent->kind == F_ROW || parent->kind == F_TUPLE || parent->kind == F_ARRAY)
		return;
	emit_layout_title(e, title);
	f->titled = 1;
}

void emit_object_end(struct emit *e)
{
	struct frame *f = pop_check(e, F_OBJECT);
	if (!f)
		return;
	if (f->titled)
		emit_layout_flush(e);
	pop(e, f);
}

/* An object frame holding a JSON array: its objects take their titles as an object's members do. */
void emit_list_begin(struct emit *e, const char *key, const char *label)
{
	push(e, F_OBJECT, key, container_json(e, key, json_array), emit_in_text(e, label));
}

void emit_list_end(struct emit *e)
{
	emit_object_end(e);
}

void emit_array_begin(struct emit *e, const char *key, const char *label)
{
	int text = emit_in_text(e, label);
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
		emit_layout_value(e, label, s);
		free(label);
		return;
	}
	pop(e, f);
}

void emit_table_begin(struct emit *e, const char *key, const char *title)
{
	int text = emit_in_text(e, title);
	struct frame *f = push(e, F_TABLE, key, container_json(e, key, json_array), text);
	if (!f || !text)
		return;
	if (*title)
		emit_layout_title(e, title);
	else
		emit_layout_flush(e);
	f->titled = *title != '\0';
}

void emit_table_end(struct emit *e)
{
	struct frame *f = pop_check(e, F_TABLE);
	if (!f)
		return;
	if (f->text)
		emit_layout_table_end(e, f);
	pop(e, f);
}

static void row_begin(struct emit *e, enum frame_kind kind)
{
	struct frame *parent = emit_top(e);
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
		emit_layout_row_end(e, f, parent);
	pop(e, f);
}

/* --- values ------------------------------------------------------------------------------ */

void emit_int(struct emit *e, const char *key, const char *label, long long v, const char *unit)
{
	if (emit_in_json(e, key))
		json_put(e, key, json_integer((json_int_t)v));
	if (emit_in_text(e, label)) {
		unit = emit_unit_for(v == 1 ? "1" : "", unit);
		emit_layout_value(e, label, emit_format(e, "%lld%s%s", v, unit && *unit ? " " : "", unit ? unit : ""));
	}
}

void emit_number(struct emit *e, const char *key, const char *label, double v, const char *unit, const char *fmt)
{
	if (emit_in_json(e, key))
		json_put(e, key, json_number(v));
	if (emit_in_text(e, label))
		emit_layout_value(e, label, emit_layout_number(e, v, unit, fmt));
}

void emit_size(struct emit *e, const char *key, const char *label, uint64_t bytes)
{
	if (emit_in_json(e, key))
		json_put(e, key, json_integer((json_int_t)bytes));
	if (emit_in_text(e, label)) {
		char buf[32];
		emit_layout_value(e, label, emit_format(e, "%s", buffer_format_size((size_t)bytes, buf, sizeof(buf))));
	}
}

void emit_string(struct emit *e, const char *key, const char *label, const char *s)
{
	if (emit_in_json(e, key))
		json_put(e, key, s ? output_json_string(s, &e->not_utf8) : json_null());
	if (emit_in_text(e, label))
		emit_layout_value(e, label, emit_format(e, "%s", s ? s : "none"));
}

void emit_bool(struct emit *e, const char *key, const char *label, int b)
{
	if (emit_in_json(e, key))
		json_put(e, key, json_boolean(b));
	if (emit_in_text(e, label))
		emit_layout_value(e, label, emit_format(e, "%s", b ? "yes" : "no"));
}

void emit_null(struct emit *e, const char *key, const char *label, const char *text)
{
	if (emit_in_json(e, key))
		json_put(e, key, json_null());
	if (emit_in_text(e, label))
		emit_layout_value(e, label, emit_format(e, "%s", text ? text : "none"));
}

void emit_cpulist(struct emit *e, const char *key, const char *label, const struct as_cpulist *l)
{
	if (emit_in_json(e, key)) {
		json_t *a = json_array();
		for (int i = 0; a && i < l->n; i++)
			json_array_append_new(a, json_integer(l->cpu[i]));
		json_put(e, key, a);
	}
	if (emit_in_text(e, label)) {
		char buf[4096];
		emit_layout_value(e, label, emit_format(e, "%s", cpulist_format(l, buf, sizeof(buf))));
	}
}

void emit_json(struct emit *e, const char *key, json_t *v)
{
	if (emit_in_json(e, key))
		json_put(e, key, v);
	else
		json_decref(v);
}

void emit_stat(struct emit *e, const char *key, const char *label, const struct emit_stat *s, const char *unit,
	       const char *fmt)
{
	if (emit_in_json(e, key)) {
		json_t *o = json_object();
		if (o) {
			json_object_set_new(o, "min", json_number(s->min));
			json_object_set_new(o, "median", json_number(s->median));
			json_object_set_new(o, "max", json_number(s->max));
		}
		json_put(e, key, o);
	}
	if (emit_in_text(e, label)) {
		if (!isfinite(s->median)) {
			emit_layout_value(e, label, emit_format(e, "none"));
			return;
		}
		char med[64], noise[64];
		snprintf(med, sizeof(med), fmt ? fmt : "%g", s->median);
		snprintf(noise, sizeof(noise), fmt ? fmt : "%g", (s->max - s->min) / 2);
		emit_layout_value(e, label, emit_format(e, "%s ± %s%s%s", med, noise, unit && *unit ? " " : "", unit ? unit : ""));
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
	json_t *json = emit_in_json(e, key) ? answer_json(a) : NULL;
	int text = emit_in_text(e, label);
	if (text) {
		int cell = emit_layout_target(e) != &e->block;
		char *s = emit_layout_number(e, a->value, a->unit, a->fmt);
		if (s && !cell && isfinite(a->value)) {
			char *t = emit_format(e, "%s (confidence %.2f", s, a->confidence);
			free(s);
			s = t;
			if (s && isfinite(a->os_reported)) {
				char *os = emit_layout_number(e, a->os_reported, a->unit, a->fmt);
				t = os ? emit_format(e, "%s; the OS reports %s", s, os) : NULL;
				free(os);
				free(s);
				s = t;
			}
			if (s) {
				t = emit_format(e, "%s)", s);
				free(s);
				s = t;
			}
		}
		emit_layout_value(e, label, s);
	}
	/* Further members go into the answer's object in JSON and join the block or row in text. */
	push(e, F_OBJECT, key, json, text);
}

void emit_answer(struct emit *e, const char *key, const char *label, const struct emit_answer *a)
{
	emit_answer_begin(e, key, label, a);
	emit_object_end(e);
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

size_t emit_not_utf8(const struct emit *e)
{
	return e->not_utf8;
}

json_t *emit_results(struct emit *e)
{
	return e->mode == EMIT_JSON ? e->results : NULL;
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
		emit_layout_flush(e);
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
		pop(e, emit_top(e));
	emit_fields_release(e, &e->block);
	json_decref(e->results);
	free(e);
}
