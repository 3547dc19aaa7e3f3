/* Described results (schema.h): paths, lookups by id, and the check of a document against its
 * description. */
#include "machine/schema.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *schema_kind_name(enum schema_kind kind)
{
	static const char *const names[] = { "object", "rows", "map", "number", "integer", "string", "true or false",
					     "numbers", "strings", "integers", "matrix", "spread", "answer",
					     "described object", "any JSON", "numbers by name", "described rows" };
	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

static int valid(const struct schema *s, int id)
{
	return s && id >= 0 && id < s->n;
}

/* A row list or map: the keys under it are read from one of its rows. */
static int is_rows(const struct schema *s, int id)
{
	return valid(s, id) && (s->keys[id].kind == SK_ROWS || s->keys[id].kind == SK_MAP);
}

const char *schema_path(const struct schema *s, int id, char *buf, size_t len)
{
	if (!len)
		return buf;
	buf[0] = 0;
	if (!valid(s, id))
		return buf;
	char up[512];
	schema_path(s, s->keys[id].parent, up, sizeof(up));
	const struct schema_key *k = &s->keys[id];
	snprintf(buf, len, "%s%s%s%s", up, up[0] ? "." : "", k->key,
		 k->kind == SK_ROWS ? "[]" : k->kind == SK_MAP ? "{}" : "");
	return buf;
}

int schema_find(const struct schema *s, const char *path)
{
	char buf[512];
	for (int i = 0; s && path && i < s->n; i++)
		if (!strcmp(schema_path(s, i, buf, sizeof(buf)), path))
			return i;
	return -1;
}

const char *schema_unit(const struct schema *s, int id)
{
	return valid(s, id) && s->keys[id].kind != SK_REF && s->keys[id].kind != SK_REFS ? s->keys[id].unit : "";
}

json_t *schema_get(const struct schema *s, const json_t *base, int id)
{
	if (!valid(s, id) || !json_is_object(base))
		return NULL;
	int parent = s->keys[id].parent;
	const json_t *o = base;
	if (parent >= 0 && !is_rows(s, parent)) {
		o = schema_get(s, base, parent);
		if (!json_is_object(o))
			return NULL;
	}
	return json_object_get(o, s->keys[id].key);
}

double schema_num(const struct schema *s, const json_t *base, int id)
{
	const json_t *v = schema_get(s, base, id);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *schema_str(const struct schema *s, const json_t *base, int id)
{
	return json_string_value(schema_get(s, base, id));
}

long long schema_int(const struct schema *s, const json_t *base, int id, long long def)
{
	const json_t *v = schema_get(s, base, id);
	return json_is_integer(v) ? (long long)json_integer_value(v) : def;
}

/* The parts of a SPREAD, as report/emit.c writes them (emit_spread). */
static const char *const spread_parts[] = { [SCHEMA_MIN] = "min", [SCHEMA_MEDIAN] = "median", [SCHEMA_MAX] = "max" };

double schema_spread(const struct schema *s, const json_t *base, int id, enum schema_spread_part part)
{
	const json_t *o = schema_get(s, base, id);
	const json_t *v = (unsigned)part < 3 && json_is_object(o) ? json_object_get(o, spread_parts[part]) : NULL;
	return json_is_number(v) ? json_number_value(v) : NAN;
}

int schema_set(const struct schema *s, json_t *base, int id, json_t *v)
{
	if (!v)
		return -ENOMEM;
	if (!valid(s, id) || !json_is_object(base)) {
		json_decref(v);
		return -EINVAL;
	}
	int parent = s->keys[id].parent;
	json_t *o = base;
	if (parent >= 0 && !is_rows(s, parent)) {
		o = schema_get(s, base, parent);
		if (!o) {
			o = json_object();
			if (schema_set(s, base, parent, o) != 0) {
				json_decref(v);
				return -ENOMEM;
			}
		}
		if (!json_is_object(o)) {
			json_decref(v);
			return -EINVAL;
		}
	}
	return json_object_set_new(o, s->keys[id].key, v) ? -ENOMEM : 0;
}

/* Where a check is in the document: "runs[3].gbs" (a path with indices and map keys). */
struct where {
	char path[512];
	int read; /* schema_check_read: an absent key is no difference */
};

static int differ(struct as_error *err, const struct where *w, const char *key, const char *what)
{
	return as_error_set(err, -EINVAL, "%s%s%s: %s", w->path, w->path[0] && key[0] ? "." : "", key, what);
}

static void where_in(struct where *in, const struct where *w, const char *key, long index, const char *map_key)
{
	/* a deeper path is cut: the message still names where it went wrong */
	in->read = w->read;
	int n = snprintf(in->path, sizeof(in->path), "%.300s%s%.100s", w->path, w->path[0] && key[0] ? "." : "", key);
	if (n < 0 || (size_t)n >= sizeof(in->path))
		return;
	if (index >= 0)
		snprintf(in->path + n, sizeof(in->path) - (size_t)n, "[%ld]", index);
	else if (map_key)
		snprintf(in->path + n, sizeof(in->path) - (size_t)n, "{%.80s}", map_key);
}

static int check_object(const struct schema *s, int id, const json_t *o, const struct where *w, struct as_error *err);

static int all_numbers(const json_t *a, int nulls)
{
	size_t i;
	const json_t *x;
	json_array_foreach(a, i, x)
		if (!json_is_number(x) && !(nulls && json_is_null(x)))
			return 0;
	return 1;
}

static int all_of(const json_t *a, int (*is)(const json_t *))
{
	size_t i;
	const json_t *x;
	json_array_foreach(a, i, x)
		if (!is(x))
			return 0;
	return 1;
}

static int is_string(const json_t *v)
{
	return json_is_string(v);
}

static int is_integer(const json_t *v)
{
	return json_is_integer(v);
}

static int all_values_numbers(const json_t *o)
{
	const char *k;
	const json_t *x;
	json_object_foreach((json_t *)o, k, x)
		if (!json_is_number(x) && !json_is_null(x))
			return 0;
	return 1;
}

/* Whether v has the kind of key k (its children are checked by the caller). */
static int kind_ok(const struct schema_key *k, const json_t *v)
{
	if (json_is_null(v))
		return k->kind == SK_NUMBER || (k->flags & SCHEMA_NULL) || k->kind == SK_ANY;
	switch (k->kind) {
	case SK_OBJECT:
	case SK_MAP:
	case SK_SPREAD:
	case SK_ANSWER:
	case SK_REF:
		return json_is_object(v);
	case SK_ROWS:
	case SK_REFS:
		return json_is_array(v);
	case SK_NUMBER:
		return json_is_number(v);
	case SK_INT:
		return json_is_integer(v);
	case SK_TEXT:
		return json_is_string(v);
	case SK_BOOL:
		return json_is_boolean(v);
	case SK_NUMBERS:
		return json_is_array(v) && all_numbers(v, 1);
	case SK_TEXTS:
		return json_is_array(v) && all_of(v, is_string);
	case SK_INTS:
		return json_is_array(v) && all_of(v, is_integer);
	case SK_MATRIX: {
		if (!json_is_array(v))
			return 0;
		size_t i;
		const json_t *row;
		json_array_foreach(v, i, row)
			if (!json_is_array(row) || !all_numbers(row, 1))
				return 0;
		return 1;
	}
	case SK_ANY:
		return 1;
	case SK_NUMBER_MAP:
		return json_is_object(v) && all_values_numbers(v);
	}
	return 0;
}

static int check_spread(const json_t *v, const struct where *w, const char *key, struct as_error *err)
{
	const char *k;
	const json_t *x;
	json_object_foreach((json_t *)v, k, x) {
		int known = 0;
		for (size_t i = 0; i < 3; i++)
			known |= !strcmp(k, spread_parts[i]);
		struct where in;
		where_in(&in, w, key, -1, NULL);
		if (!known)
			return differ(err, &in, k, "not a part of a spread (min, median, max)");
		if (!json_is_number(x) && !json_is_null(x))
			return differ(err, &in, k, "not a number");
	}
	return 0;
}

static int check_answer(const json_t *v, const struct where *w, const char *key, struct as_error *err)
{
	struct where in;
	where_in(&in, w, key, -1, NULL);
	const json_t *value = json_object_get(v, "value");
	if (!value)
		return differ(err, &in, "value", "missing in an answer");
	if (!json_is_number(value) && !json_is_null(value))
		return differ(err, &in, "value", "not a number");
	return 0;
}

/* The child of id with SCHEMA_ALONE that o holds, or -1. */
static int alone_in(const struct schema *s, int id, const json_t *o)
{
	for (int i = 0; json_is_object(o) && i < s->n; i++)
		if (s->keys[i].parent == id && (s->keys[i].flags & SCHEMA_ALONE) && json_object_get(o, s->keys[i].key))
			return i;
	return -1;
}

/* One row of a ROWS list (index) or one value of a MAP (map_key) of key id: an object of its keys. */
static int check_row(const struct schema *s, int id, const json_t *row, const struct where *w, const char *key,
		     long index, const char *map_key, struct as_error *err)
{
	struct where in;
	where_in(&in, w, key, index, map_key);
	if (!json_is_object(row))
		return differ(err, &in, "", map_key ? "a value that is not an object" : "a row that is not an object");
	return check_object(s, id, row, &in, err);
}

/* Checks the value v of key id (found in the document at w.key). */
static int check_value(const struct schema *s, int id, const json_t *v, const struct where *w, struct as_error *err)
{
	const struct schema_key *k = &s->keys[id];
	char what[160];
	struct where in;
	if (k->kind == SK_ROWS && json_is_object(v) && alone_in(s, id, v) >= 0) { /* a list that could not be made */
		where_in(&in, w, k->key, -1, NULL);
		return check_object(s, id, v, &in, err);
	}
	if (!kind_ok(k, v)) {
		snprintf(what, sizeof(what), "%s where %s %s is described", json_is_null(v) ? "null" : "a value",
			 k->kind == SK_OBJECT || k->kind == SK_INT ? "an" : "a", schema_kind_name(k->kind));
		return differ(err, w, k->key, what);
	}
	if (json_is_null(v))
		return 0;
	switch (k->kind) {
	case SK_OBJECT:
		where_in(&in, w, k->key, -1, NULL);
		return check_object(s, id, v, &in, err);
	case SK_ROWS: {
		size_t i;
		const json_t *row;
		json_array_foreach(v, i, row) {
			int rc = check_row(s, id, row, w, k->key, (long)i, NULL, err);
			if (rc)
				return rc;
		}
		return 0;
	}
	case SK_MAP: {
		const char *mk;
		const json_t *x;
		json_object_foreach((json_t *)v, mk, x) {
			int rc = check_row(s, id, x, w, k->key, -1, mk, err);
			if (rc)
				return rc;
		}
		return 0;
	}
	case SK_SPREAD:
		return check_spread(v, w, k->key, err);
	case SK_ANSWER:
		return check_answer(v, w, k->key, err);
	case SK_REF: {
		const struct schema *ref = schema_by_name(k->unit);
		if (!ref)
			return differ(err, w, k->key, "described by an unknown schema");
		where_in(&in, w, k->key, -1, NULL);
		return check_object(ref, -1, v, &in, err);
	}
	case SK_REFS: {
		const struct schema *ref = schema_by_name(k->unit);
		if (!ref)
			return differ(err, w, k->key, "described by an unknown schema");
		size_t i;
		const json_t *row;
		json_array_foreach(v, i, row) {
			where_in(&in, w, k->key, (long)i, NULL);
			if (!json_is_object(row))
				return differ(err, &in, "", "a row that is not an object");
			int rc = check_object(ref, -1, row, &in, err);
			if (rc)
				return rc;
		}
		return 0;
	}
	default:
		return 0;
	}
}

/* Checks the object o of key id (-1: the results object) against id's children. */
static int check_object(const struct schema *s, int id, const json_t *o, const struct where *w, struct as_error *err)
{
	const char *key;
	const json_t *v;
	int alone = alone_in(s, id, o);
	if (alone >= 0) {
		if (json_object_size(o) != 1)
			return differ(err, w, s->keys[alone].key, "beside other keys, where it stands alone");
		return check_value(s, alone, json_object_get(o, s->keys[alone].key), w, err);
	}
	json_object_foreach((json_t *)o, key, v) {
		int child = -1;
		for (int i = 0; i < s->n && child < 0; i++)
			if (s->keys[i].parent == id && !strcmp(s->keys[i].key, key))
				child = i;
		if (child < 0) {
			unsigned flags = id >= 0 ? s->keys[id].flags : 0;
			if (flags & SCHEMA_OPEN)
				continue;
			if ((flags & SCHEMA_OPEN_NUMBERS) && (json_is_number(v) || json_is_null(v)))
				continue;
			return differ(err, w, key,
				      flags & SCHEMA_OPEN_NUMBERS ? "not a number, and not a key the description names"
								  : "a key the description does not name");
		}
		int rc = check_value(s, child, v, w, err);
		if (rc)
			return rc;
	}
	for (int i = 0; i < s->n && !w->read; i++)
		if (s->keys[i].parent == id && !(s->keys[i].flags & (SCHEMA_OPT | SCHEMA_ALONE)) &&
		    !json_object_get(o, s->keys[i].key))
			return differ(err, w, s->keys[i].key, "missing");
	return 0;
}

static int check_results(const struct schema *s, const json_t *results, int read, struct as_error *err)
{
	struct where w = { "", read };
	if (!s)
		return as_error_set(err, -EINVAL, "no description");
	if (!json_is_object(results))
		return as_error_set(err, -EINVAL, "%s results: not an object", s->name);
	return check_object(s, -1, results, &w, err);
}

int schema_check(const struct schema *s, const json_t *results, struct as_error *err)
{
	return check_results(s, results, 0, err);
}

int schema_check_read(const struct schema *s, const json_t *results, struct as_error *err)
{
	return check_results(s, results, 1, err);
}

/* A view of command: the schema named command, "command --option" or "command kind" (tune's
 * kernels, "tune gemm"). */
static int view_of(const struct schema *s, const char *command)
{
	size_t n = strlen(command);
	return !strncmp(s->name, command, n) && (s->name[n] == '\0' || s->name[n] == ' ');
}

int schema_check_command(const char *command, const json_t *results, int read, struct as_error *err)
{
	const struct schema *first = NULL;
	for (int i = 0; command && schema_all[i]; i++) {
		if (!view_of(schema_all[i], command))
			continue;
		struct as_error quiet = { 0 };
		if (check_results(schema_all[i], results, read, &quiet) == 0)
			return 0;
		if (!first || !strcmp(schema_all[i]->name, command))
			first = schema_all[i];
	}
	if (!first)
		return -ENOENT;
	return check_results(first, results, read, err);
}

const struct schema *schema_by_name(const char *name)
{
	for (int i = 0; name && schema_all[i]; i++)
		if (!strcmp(schema_all[i]->name, name))
			return schema_all[i];
	return NULL;
}
