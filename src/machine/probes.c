/* The probe answers' table and the one writer and reader that walk it (see probes.h): a struct
 * machine_probes to JSON, and JSON (probe-results.json, `probe --json`, a machine file's
 * archscope.probes as JSON) back to the struct. */
#include "machine/probes.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/conditions.h"
#include "report/output.h"

#define MP_AT(field)                                                                                       \
	.offset = offsetof(struct machine_probes, field), .max = sizeof(((struct machine_probes *)0)->field)
#define MP_ROW(type, field) .offset = offsetof(type, field), .max = sizeof(((type *)0)->field)
#define MP_TABLE(count_field, rows)                                                                        \
	.offset = offsetof(struct machine_probes, rows), .count = offsetof(struct machine_probes, count_field), \
	.row_size = sizeof(((struct machine_probes *)0)->rows[0]),                                             \
	.max = sizeof(((struct machine_probes *)0)->rows) / sizeof(((struct machine_probes *)0)->rows[0])
#define MP_HEAP(count_field, rows, row_type, most)                                                         \
	.offset = offsetof(struct machine_probes, rows), .count = offsetof(struct machine_probes, count_field), \
	.row_size = sizeof(row_type), .max = (most)
#define MP_LIST(count_field, field)                                                                        \
	.offset = offsetof(struct machine_probes, field), .count = offsetof(struct machine_probes, count_field)
#define MP_LIST_ROW(type, count_field, field) .offset = offsetof(type, field), .count = offsetof(type, count_field)
#define MP_NONE .offset = 0
#define MP_HEAP_ROW(type, count_field, rows, row_type, most)                                               \
	.offset = offsetof(type, rows), .count = offsetof(type, count_field), .row_size = sizeof(row_type), .max = (most)
#define MP_TABLE_IN(type, count_field, rows)                                                               \
	.offset = offsetof(type, rows), .count = offsetof(type, count_field),                                  \
	.row_size = sizeof(((type *)0)->rows[0]), .max = sizeof(((type *)0)->rows) / sizeof(((type *)0)->rows[0])
#define MP_CURVE_AT(field) MP_HEAP(field.n, field.pt, struct machine_probes_point, MACHINE_PROBES_MAX_POINTS)
#define MP_CURVE_IN(type, field)                                                                           \
	MP_HEAP_ROW(type, field.n, field.pt, struct machine_probes_point, MACHINE_PROBES_MAX_POINTS)
#define MP_IF_ROW(type, field) .count = offsetof(type, field)

const struct machine_probe_field machine_probe_fields[MP_COUNT] = {
#define X(ID, PARENT, KIND, KEY, UNIT, FLAGS, KERNCRAFT, WHAT, ...)                                        \
	[MP_##ID] = { .id = MP_##ID, .parent = MP_##PARENT, .kind = MP_##KIND, .key = KEY, .unit = UNIT,     \
		      .flags = FLAGS, .kerncraft = KERNCRAFT, .what = WHAT, __VA_ARGS__ },
	MACHINE_PROBES(X)
#undef X
};

const char *machine_probe_kind_name(enum machine_probe_kind kind)
{
	static const char *const names[] = { [MP_ANSWER] = "answer", [MP_OBJECT] = "object", [MP_TABLE] = "table",
					     [MP_REAL] = "number", [MP_INT] = "integer", [MP_LONG] = "integer",
					     [MP_TEXT] = "string", [MP_INTS] = "integers", [MP_MATRIX] = "matrix",
					     [MP_BOOL] = "boolean", [MP_REALS] = "numbers" };
	return kind <= MP_REALS ? names[kind] : "?";
}

const char *machine_probes_c2c_mode_name(enum mp_c2c_mode m)
{
	static const char *const names[] = {
#define X(id, name) [MP_C2C_MODE_##id] = name,
		MP_C2C_MODES(X)
#undef X
	};
	return (unsigned)m < sizeof(names) / sizeof(names[0]) ? names[m] : "?";
}

static const struct machine_probe_field *F(int id)
{
	return &machine_probe_fields[id];
}

/* The table an entry's row belongs to (the nearest TABLE above it), or MP_ROOT. */
static int row_table(int id)
{
	for (int p = F(id)->parent; p != MP_ROOT; p = F(p)->parent)
		if (F(p)->kind == MP_TABLE)
			return p;
	return MP_ROOT;
}

const char *machine_probes_path(int id, int in_file, char *buf, size_t len)
{
	char tmp[512] = "";
	for (int i = id; i != MP_ROOT; i = F(i)->parent) {
		char part[512];
		snprintf(part, sizeof(part), "%s%s%s%s", F(i)->key, F(i)->kind == MP_TABLE && i != id ? "[]" : "",
			 *tmp ? "." : "", tmp);
		snprintf(tmp, sizeof(tmp), "%s", part);
	}
	snprintf(buf, len, "%s%s", in_file ? "archscope.probes." : "", tmp);
	return buf;
}

void *machine_probes_at(const struct machine_probes *p, int id)
{
	if (id < 0 || id >= MP_COUNT || F(id)->kind == MP_OBJECT || row_table(id) != MP_ROOT)
		return NULL;
	return (char *)p + F(id)->offset;
}

static char *rows_of(int id, char *base, int **count);

int machine_probes_rows(const struct machine_probes *p, int id)
{
	int table = id >= 0 && id < MP_COUNT ? row_table(id) : MP_ROOT;
	if (table == MP_ROOT || row_table(table) != MP_ROOT)
		return 0;
	int *n;
	return rows_of(table, (char *)p, &n) ? *n : 0;
}

void *machine_probes_row_at(const struct machine_probes *p, int id, int i)
{
	if (i < 0 || i >= machine_probes_rows(p, id))
		return NULL;
	int table = row_table(id), *n;
	return rows_of(table, (char *)p, &n) + (size_t)i * F(table)->row_size + F(id)->offset;
}

int machine_probes_witnesses(int id)
{
	if (id < 0 || id >= MP_COUNT || F(id)->kind != MP_ANSWER)
		return -1;
	for (int c = machine_probes_child(id, id); c < MP_COUNT; c = machine_probes_child(id, c))
		if (F(c)->flags & MP_F_WITNESSES)
			return c;
	int parent = F(id)->parent;
	for (int c = machine_probes_child(parent, id); c < MP_COUNT && F(c)->kind != MP_ANSWER;
	     c = machine_probes_child(parent, c))
		if (F(c)->flags & MP_F_WITNESSES)
			return c;
	return -1;
}

int machine_probes_is_witness(int id)
{
	for (int p = id >= 0 && id < MP_COUNT ? F(id)->parent : MP_ROOT; p != MP_ROOT; p = F(p)->parent)
		if (F(p)->flags & MP_F_WITNESSES)
			return 1;
	return 0;
}

int machine_probes_child(int parent, int prev)
{
	int c = prev < parent ? parent + 1 : prev + 1;
	while (c < MP_COUNT && F(c)->parent != parent)
		c++;
	return c;
}

/* --- "none" everywhere ---------------------------------------------------------------------- */

static void answer_none(struct machine_answer *a)
{
	*a = (struct machine_answer){ .value = NAN, .os_reported = NAN };
}

/* Sets the storage of every entry whose row is `table` (MP_ROOT: the struct itself) in base. */
static void init_in(int table, char *base)
{
	for (int id = 0; id < MP_COUNT; id++) {
		if (row_table(id) != table)
			continue;
		char *at = base + F(id)->offset;
		switch (F(id)->kind) {
		case MP_ANSWER: answer_none((struct machine_answer *)(void *)at); break;
		case MP_REAL: *(double *)(void *)at = NAN; break;
		case MP_LONG: *(long long *)(void *)at = F(id)->flags & (MP_F_NULL_NEG | MP_F_OMIT) ? -1 : 0; break;
		case MP_INT:
			if (F(id)->flags & MP_F_OMIT)
				*(int *)(void *)at = -1;
			break;
		default: break; /* zero from the memset */
		}
	}
}

void machine_probes_row_init(int table, void *row)
{
	memset(row, 0, F(table)->row_size);
	init_in(table, row);
}

void machine_probes_init(struct machine_probes *p)
{
	memset(p, 0, sizeof(*p));
	init_in(MP_ROOT, (char *)p);
}

/* The rows of a table entry in base, and their count. */
static char *rows_of(int id, char *base, int **count)
{
	*count = (int *)(void *)(base + F(id)->count);
	return F(id)->flags & MP_F_HEAP ? *(char **)(void *)(base + F(id)->offset) : base + F(id)->offset;
}

static int under(int id, int ancestor);

/* Frees the heap storage of the entries whose row is `table` and that sit under `group` (MP_ROOT:
 * every entry). */
static void release_in_group(int table, char *base, int group)
{
	for (int id = 0; id < MP_COUNT; id++) {
		if (row_table(id) != table || (group != MP_ROOT && !under(id, group)))
			continue;
		void **at = (void **)(void *)(base + F(id)->offset);
		if (F(id)->kind == MP_INTS || F(id)->kind == MP_MATRIX || F(id)->kind == MP_REALS) {
			free(*at);
			*at = NULL;
		} else if (F(id)->kind == MP_TABLE) {
			int *n;
			char *rows = rows_of(id, base, &n);
			for (int i = 0; rows && i < *n; i++)
				release_in_group(id, rows + (size_t)i * F(id)->row_size, MP_ROOT);
			if (F(id)->flags & MP_F_HEAP) {
				free(*at);
				*at = NULL;
			}
			*n = 0;
		}
	}
}

void machine_probes_release(struct machine_probes *p)
{
	release_in_group(MP_ROOT, (char *)p, MP_ROOT);
}

void machine_probes_group_release(struct machine_probes *p, enum mp_group g)
{
	int gid = machine_probes_group_id(g);
	if (gid != MP_ROOT)
		release_in_group(MP_ROOT, (char *)p, gid);
}

/* --- writing -------------------------------------------------------------------------------- */

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static int put(json_t *o, const char *key, json_t *v)
{
	return v ? json_object_set_new(o, key, v) : -1;
}

/* What a writer writes: the record, and whether evidence is left out (the machine file). */
struct writer {
	const struct machine_probes *p;
	int answers_only;
};

static json_t *write_entry(int id, const char *base, const struct writer *w);

/* Whether entry id in base is left out: evidence in the machine file, or an MP_F_OMIT entry with
 * nothing in it. */
static int omitted(int id, const char *base, const struct writer *w)
{
	const char *at = base + F(id)->offset;
	if (w->answers_only && (F(id)->flags & MP_F_EVIDENCE))
		return 1;
	if (!(F(id)->flags & MP_F_OMIT))
		return 0;
	switch (F(id)->kind) {
	case MP_REAL: return isnan(*(const double *)(const void *)at);
	case MP_INT: return *(const int *)(const void *)at < 0;
	case MP_LONG: return *(const long long *)(const void *)at < 0;
	case MP_BOOL: return !*(const int *)(const void *)at;
	case MP_TEXT: return !*at;
	case MP_TABLE:
	case MP_INTS:
	case MP_REALS: return *(const int *)(const void *)(base + F(id)->count) <= 0;
	default: return 0;
	}
}

/* Whether entry id in base is null though present: an MP_F_NULLABLE object that is not there, or
 * such a text that is empty. */
static int nulled(int id, const char *base)
{
	if (!(F(id)->flags & MP_F_NULLABLE))
		return 0;
	if (F(id)->kind == MP_OBJECT)
		return !*(const int *)(const void *)(base + F(id)->count);
	return F(id)->kind == MP_TEXT && !base[F(id)->offset];
}

/* The children of id (object or answer), in table order, into o. 0, or -1 on no memory. */
static int write_children(int id, const char *base, const struct writer *w, json_t *o)
{
	const struct machine_probes *p = w->p;
	for (int c = id + 1; c < MP_COUNT; c++) {
		if (F(c)->parent != id || omitted(c, base, w))
			continue;
		if (nulled(c, base)) {
			if (put(o, F(c)->key, json_null()))
				return -1;
			continue;
		}
		if (F(c)->flags & MP_F_OPT) {
			if (p->have[c] == MP_HAVE_NO)
				continue;
			if (p->have[c] == MP_HAVE_NULL) {
				if (put(o, F(c)->key, json_null()))
					return -1;
				continue;
			}
		}
		if (put(o, F(c)->key, write_entry(c, base, w)))
			return -1;
	}
	return 0;
}

static json_t *write_answer(int id, const struct machine_answer *a)
{
	json_t *os = NULL;
	if (isfinite(a->os_reported))
		os = F(id)->flags & MP_F_OS_INT ? json_integer((json_int_t)a->os_reported) : json_real(a->os_reported);
	json_t *o = output_answer(a->value, F(id)->unit, a->confidence, a->method, os);
	if (o && ((a->reason[0] && put(o, "reason", json_string(a->reason))) ||
		  (a->noisy[0] && (put(o, "noisy", json_true()) || put(o, "noisy_why", json_string(a->noisy)))) ||
		  (a->implausible[0] && put(o, "implausible", json_string(a->implausible))))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* A list of count doubles (NAN: null). */
static json_t *write_reals(const double *x, int n)
{
	json_t *v = json_array();
	for (int i = 0; v && x && i < n; i++)
		if (json_array_append_new(v, real_or_null(x[i]))) {
			json_decref(v);
			return NULL;
		}
	return v;
}

static json_t *write_entry(int id, const char *base, const struct writer *w)
{
	const char *at = base + F(id)->offset;
	json_t *v = NULL;
	switch (F(id)->kind) {
	case MP_ANSWER: v = write_answer(id, (const struct machine_answer *)(const void *)at); break;
	case MP_OBJECT: v = json_object(); break;
	case MP_REAL: {
		double x = *(const double *)(const void *)at;
		if ((F(id)->flags & MP_F_WHOLE) && isfinite(x) && fabs(x) <= MACHINE_PROBES_MAX_VALUE)
			return json_integer((json_int_t)llround(x));
		return real_or_null(x);
	}
	case MP_INT: return json_integer(*(const int *)(const void *)at);
	case MP_BOOL: return json_boolean(*(const int *)(const void *)at);
	case MP_REALS:
		return write_reals(*(double *const *)(const void *)at, *(const int *)(const void *)(base + F(id)->count));
	case MP_LONG: {
		long long x = *(const long long *)(const void *)at;
		return x < 0 && (F(id)->flags & MP_F_NULL_NEG) ? json_null() : json_integer((json_int_t)x);
	}
	case MP_TEXT: return json_string(at);
	case MP_INTS: {
		const int *x = *(int *const *)(const void *)at;
		int n = *(const int *)(const void *)(base + F(id)->count);
		v = json_array();
		for (int i = 0; v && x && i < n; i++)
			if (json_array_append_new(v, json_integer(x[i]))) {
				json_decref(v);
				return NULL;
			}
		return v;
	}
	case MP_MATRIX: {
		const double *x = *(double *const *)(const void *)at;
		int n = *(const int *)(const void *)(base + F(id)->count);
		if (!x)
			return json_null();
		v = json_array();
		for (int i = 0; v && i < n; i++) {
			json_t *row = json_array();
			for (int j = 0; row && j < n; j++)
				if (json_array_append_new(row, real_or_null(x[(size_t)i * (size_t)n + (size_t)j]))) {
					json_decref(row);
					row = NULL;
				}
			if (json_array_append_new(v, row)) {
				json_decref(v);
				return NULL;
			}
		}
		return v;
	}
	case MP_TABLE: {
		int *n;
		const char *rows = rows_of(id, (char *)base, &n);
		v = json_array();
		for (int i = 0; v && rows && i < *n; i++) {
			json_t *row = json_object();
			if (!row || write_children(id, rows + (size_t)i * F(id)->row_size, w, row) ||
			    json_array_append_new(v, row)) {
				json_decref(row);
				json_decref(v);
				return NULL;
			}
		}
		return v;
	}
	}
	if (v && write_children(id, base, w, v)) {
		json_decref(v);
		return NULL;
	}
	return v;
}

static json_t *write_all(const struct machine_probes *p, int answers_only)
{
	struct writer w = { p, answers_only };
	json_t *o = json_object();
	if (o && write_children(MP_ROOT, (const char *)p, &w, o)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *machine_probes_json(const struct machine_probes *p)
{
	return write_all(p, 0);
}

json_t *machine_probes_answers_json(const struct machine_probes *p)
{
	return write_all(p, 1);
}

/* --- reading -------------------------------------------------------------------------------- */

static double number_or_nan(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* An integer within lo..hi: a JSON integer, or a real with an integral value (below 2^53). */
static int integer_of(const json_t *v, long long lo, long long hi, long long *out)
{
	if (json_is_integer(v)) {
		long long x = (long long)json_integer_value(v);
		*out = x;
		return x >= lo && x <= hi;
	}
	double x = json_is_real(v) ? json_real_value(v) : NAN;
	if (!isfinite(x) || x != floor(x) || fabs(x) > 9007199254740992.0 || x < (double)lo || x > (double)hi)
		return 0;
	*out = (long long)x;
	return 1;
}

void machine_probes_text(char *buf, size_t len, const char *text)
{
	size_t n = strlen(text ? text : "");
	if (!len)
		return;
	if (n >= len) { /* cut before a UTF-8 sequence that would not fit whole */
		n = len - 1;
		while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(buf, text ? text : "", n);
	buf[n] = 0;
}

static int read_children(int id, const json_t *o, char *base, struct machine_probes *p, struct as_error *err);

/* true in JSON, or the YAML scalar "true" of a machine file. */
static int flag_true(const json_t *v)
{
	return json_is_true(v) || (json_is_string(v) && strcmp(json_string_value(v), "true") == 0);
}

/* -EINVAL: entry id (its member sub, or NULL; element [i] when i >= 0) holds a value of the wrong
 * kind; the message names the path (from the results object: "caches.levels[].size.value"),
 * what it holds and what it should. */
static int wrong_kind(int id, const char *sub, long i, const json_t *v, const char *expected, struct as_error *err)
{
	char path[256], idx[32] = "";
	machine_probes_path(id, 0, path, sizeof(path));
	if (i >= 0)
		snprintf(idx, sizeof(idx), "[%ld]", i);
	const char *dot = sub && sub[0] != '[' ? "." : "";
	if (json_is_string(v))
		return as_error_set(err, -EINVAL, "%s%s%s%s: '%.80s' is not %s", path, dot, sub ? sub : "", idx,
				    json_string_value(v), expected);
	if (json_is_number(v))
		return as_error_set(err, -EINVAL, "%s%s%s%s: %g is not %s", path, dot, sub ? sub : "", idx,
				    json_number_value(v), expected);
	return as_error_set(err, -EINVAL, "%s%s%s%s: %s is not %s", path, dot, sub ? sub : "", idx, output_json_kind(v),
			    expected);
}

/* A number of entry id (its member `sub` of an answer, or NULL): NaN for null or absent; a value
 * of another type (a YAML scalar such as "32abc" reaches here as a string), or one beyond
 * MACHINE_PROBES_MAX_VALUE, is -EINVAL naming the path and the text, never read as a number or as
 * no answer. */
static int number_strict(int id, const char *sub, const json_t *v, double *out, struct as_error *err)
{
	*out = NAN;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v))
		return wrong_kind(id, sub, -1, v, "a number", err);
	if (!(fabs(json_number_value(v)) <= MACHINE_PROBES_MAX_VALUE))
		return wrong_kind(id, sub, -1, v, "a measured value (at most 2^53 in size)", err);
	*out = json_number_value(v);
	return 0;
}

/* A text member (TEXT entries, an answer's method, reason, noisy_why, implausible): a string, or
 * null or absent (left as it is). */
static int text_strict(int id, const char *sub, const json_t *v, char *buf, size_t len, struct as_error *err)
{
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return wrong_kind(id, sub, -1, v, "a string", err);
	machine_probes_text(buf, len, json_string_value(v));
	return 0;
}

/* An integer entry within lo..hi: null leaves it as it is. */
static int integer_strict(int id, long i, const json_t *v, long long lo, long long hi, long long *out, struct as_error *err)
{
	if (json_is_null(v))
		return 1;
	if (integer_of(v, lo, hi, out))
		return 0;
	char what[96];
	snprintf(what, sizeof(what), "a whole number from %lld to %lld", lo, hi);
	return wrong_kind(id, NULL, i, v, what, err);
}

/* A list of numbers (null: NAN) into a new array *out, its length into *count. */
static int read_reals(int id, const json_t *v, double **out, int *count, struct as_error *err)
{
	if (!json_is_array(v))
		return wrong_kind(id, NULL, -1, v, "a list of numbers", err);
	size_t n = json_array_size(v);
	if (n > MACHINE_PROBES_MAX_POINTS)
		n = MACHINE_PROBES_MAX_POINTS;
	double *x = malloc((n ? n : 1) * sizeof(double));
	if (!x)
		return as_error_set(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const json_t *e = json_array_get(v, i);
		if (e && !json_is_null(e) && (!json_is_number(e) || !(fabs(json_number_value(e)) <= MACHINE_PROBES_MAX_VALUE))) {
			free(x);
			return wrong_kind(id, NULL, (long)i, e, "a measured value (a number, at most 2^53 in size, or null)", err);
		}
		x[i] = number_or_nan(e);
	}
	free(*out);
	*out = x;
	*count = (int)n;
	return 0;
}

static int read_entry(int id, const json_t *v, char *base, struct machine_probes *p, struct as_error *err)
{
	char *at = base + F(id)->offset;
	long long x;
	int rc;
	if (json_is_null(v) && F(id)->kind != MP_INT && F(id)->kind != MP_LONG)
		return 0; /* no value: left as initialised */
	switch (F(id)->kind) {
	case MP_ANSWER: {
		struct machine_answer *a = (struct machine_answer *)(void *)at;
		if (!json_is_object(v))
			return wrong_kind(id, NULL, -1, v, "an answer {value, unit, confidence, method}", err);
		const json_t *noisy = json_object_get(v, "noisy");
		if ((rc = number_strict(id, "value", json_object_get(v, "value"), &a->value, err)) ||
		    (rc = number_strict(id, "confidence", json_object_get(v, "confidence"), &a->confidence, err)) ||
		    (rc = number_strict(id, "os_reported", json_object_get(v, "os_reported"), &a->os_reported, err)) ||
		    (rc = text_strict(id, "method", json_object_get(v, "method"), a->method, sizeof(a->method), err)) ||
		    (rc = text_strict(id, "reason", json_object_get(v, "reason"), a->reason, sizeof(a->reason), err)) ||
		    (rc = text_strict(id, "implausible", json_object_get(v, "implausible"), a->implausible, sizeof(a->implausible), err)))
			return rc;
		if (noisy && !json_is_null(noisy) && !json_is_boolean(noisy) && !flag_true(noisy) &&
		    !(json_is_string(noisy) && !strcmp(json_string_value(noisy), "false")))
			return wrong_kind(id, "noisy", -1, noisy, "true or false", err);
		if (!(a->confidence >= 0 && a->confidence <= 1))
			a->confidence = 0;
		if (flag_true(noisy) && (rc = text_strict(id, "noisy_why", json_object_get(v, "noisy_why"), a->noisy, sizeof(a->noisy), err)))
			return rc;
		if (flag_true(noisy) && !a->noisy[0]) /* a flag without its why still flags */
			snprintf(a->noisy, sizeof(a->noisy), "noisy (no reason given)");
		return read_children(id, v, base, p, err);
	}
	case MP_OBJECT:
		if (!json_is_object(v))
			return wrong_kind(id, NULL, -1, v, "an object", err);
		if (F(id)->flags & MP_F_NULLABLE)
			*(int *)(void *)(base + F(id)->count) = 1;
		return read_children(id, v, base, p, err);
	case MP_BOOL:
		if (!json_is_boolean(v) && !flag_true(v) && !(json_is_string(v) && !strcmp(json_string_value(v), "false")))
			return wrong_kind(id, NULL, -1, v, "true or false", err);
		*(int *)(void *)at = flag_true(v);
		return 0;
	case MP_REALS: return read_reals(id, v, (double **)(void *)at, (int *)(void *)(base + F(id)->count), err);
	case MP_REAL: return number_strict(id, NULL, v, (double *)(void *)at, err);
	case MP_INT:
		if ((rc = integer_strict(id, -1, v, INT32_MIN, INT32_MAX, &x, err)) < 0)
			return rc;
		if (rc == 0)
			*(int *)(void *)at = (int)x;
		return 0;
	case MP_LONG:
		if ((rc = integer_strict(id, -1, v, INT64_MIN, INT64_MAX, &x, err)) < 0)
			return rc;
		if (rc == 0)
			*(long long *)(void *)at = x;
		return 0;
	case MP_TEXT: return text_strict(id, NULL, v, at, F(id)->max, err);
	case MP_INTS: {
		if (!json_is_array(v))
			return wrong_kind(id, NULL, -1, v, "a list of whole numbers", err);
		size_t n = json_array_size(v);
		if (n > MACHINE_PROBES_MAX_CPUS) {
			char path[256];
			machine_probes_path(id, 0, path, sizeof(path));
			return as_error_set(err, -EINVAL, "%s: a list of %zu entries: at most %d", path, n, MACHINE_PROBES_MAX_CPUS);
		}
		if (!n)
			return 0;
		int *list = calloc(n, sizeof(int));
		if (!list)
			return as_error_set(err, -ENOMEM, "out of memory");
		for (size_t i = 0; i < n; i++) {
			if ((rc = integer_strict(id, (long)i, json_array_get(v, i), INT32_MIN, INT32_MAX, &x, err)) < 0) {
				free(list);
				return rc;
			}
			list[i] = rc == 0 ? (int)x : 0;
		}
		free(*(int **)(void *)at);
		*(int **)(void *)at = list;
		*(int *)(void *)(base + F(id)->count) = (int)n;
		return 0;
	}
	case MP_MATRIX: {
		/* count x count, the count from the list read before it (c2c.cpus), else from the matrix */
		int n = *(int *)(void *)(base + F(id)->count);
		if (!json_is_array(v))
			return wrong_kind(id, NULL, -1, v, "a matrix (a list of lists of numbers)", err);
		if (n <= 0 && json_array_size(v) <= MACHINE_PROBES_MAX_CPUS)
			n = *(int *)(void *)(base + F(id)->count) = (int)json_array_size(v);
		if (n <= 0 || json_array_size(v) == 0)
			return 0;
		double *m = malloc((size_t)n * (size_t)n * sizeof(double));
		if (!m)
			return as_error_set(err, -ENOMEM, "out of memory");
		rc = 0;
		for (int i = 0; i < n && !rc; i++) {
			const json_t *row = json_array_get(v, (size_t)i);
			for (int j = 0; j < n && !rc; j++) {
				const json_t *e = json_array_get(row, (size_t)j);
				if (e && !json_is_null(e) && (!json_is_number(e) || !(fabs(json_number_value(e)) <= MACHINE_PROBES_MAX_VALUE))) {
					char sub[48];
					snprintf(sub, sizeof(sub), "[%d][%d]", i, j);
					rc = wrong_kind(id, sub, -1, e, "a measured value (a number, at most 2^53 in size, or null)", err);
				}
				m[(size_t)i * (size_t)n + (size_t)j] = number_or_nan(e);
			}
		}
		if (rc) {
			free(m);
			return rc;
		}
		free(*(double **)(void *)at);
		*(double **)(void *)at = m;
		return 0;
	}
	case MP_TABLE: {
		int *count;
		if (!json_is_array(v))
			return wrong_kind(id, NULL, -1, v, "a list of rows", err);
		size_t n = json_array_size(v);
		if (n > F(id)->max)
			n = F(id)->max;
		char *rows = rows_of(id, base, &count);
		if (F(id)->flags & MP_F_HEAP) {
			if (n == 0)
				return 0;
			if (!(rows = calloc(n, F(id)->row_size)))
				return as_error_set(err, -ENOMEM, "out of memory");
			*(char **)(void *)at = rows;
		}
		for (size_t i = 0; i < n; i++) {
			char *row = rows + i * F(id)->row_size;
			machine_probes_row_init(id, row);
			*count = (int)i + 1;
			const json_t *o = json_array_get(v, i);
			if (!json_is_object(o))
				return wrong_kind(id, NULL, (long)i, o, "a row (an object)", err);
			if (read_children(id, o, row, p, err))
				return err ? err->code : -ENOMEM;
		}
		return 0;
	}
	}
	return 0;
}

static int read_children(int id, const json_t *o, char *base, struct machine_probes *p, struct as_error *err)
{
	for (int c = id + 1; c < MP_COUNT; c++) {
		if (F(c)->parent != id)
			continue;
		const json_t *v = json_object_get(o, F(c)->key);
		if (!v)
			continue;
		if (F(c)->flags & MP_F_OPT) {
			p->have[c] = json_is_null(v) ? MP_HAVE_NULL : MP_HAVE_YES;
			if (json_is_null(v))
				continue;
		}
		int rc = read_entry(c, v, base, p, err);
		if (rc)
			return rc;
	}
	return 0;
}

int machine_probes_from_json(const json_t *j, struct machine_probes *p, struct as_error *err)
{
	machine_probes_init(p);
	if (!json_is_object(j))
		return 0;
	int rc = read_children(MP_ROOT, j, (char *)p, p, err);
	if (rc) {
		machine_probes_release(p);
		machine_probes_init(p);
	}
	return rc;
}

int machine_probes_read(const struct mtree *t, struct machine_probes *p, struct as_error *err)
{
	machine_probes_init(p);
	const struct mnode *n = mnode_get(mnode_get(t->root, "archscope"), "probes");
	if (!n || n->kind != MN_MAP)
		return 0;
	json_t *j = mnode_to_json(n);
	if (!j)
		return as_error_set(err, -ENOMEM, "out of memory");
	int rc = machine_probes_from_json(j, p, err);
	json_decref(j);
	if (rc == -EINVAL)
		as_error_prefix(err, "archscope.probes.");
	return rc ? rc : 1;
}

/* --- flags of a group's answers ---------------------------------------------------------------- */

void machine_probes_cond_set(struct machine_probes_cond *k, const struct conditions *c, const char *implausible)
{
	k->wall_s = c->wall_s;
	k->cpus = c->cpus;
	k->other_cpus = c->other_cpus;
	k->foreign_cpus = c->foreign_cpus;
	k->foreign_other_cpus = c->foreign_other_cpus;
	k->steal_pct = c->steal_pct;
	k->switches_per_s = c->switches_per_s;
	k->clock_ghz = c->clock_ghz;
	k->clock_expected_ghz = c->clock_expected_ghz;
	k->involuntary_switches = c->involuntary_switches;
	k->migrations = c->migrations;
	k->attempts = c->attempts;
	k->noisy = c->noisy;
	machine_probes_text(k->why, sizeof(k->why), c->why);
	machine_probes_text(k->implausible, sizeof(k->implausible), implausible ? implausible : "");
}

int machine_probes_group_id(enum mp_group g)
{
	static const int ids[MP_GROUPS] = {
#define G(id) [MP_G_##id] = MP_##id,
		MP_GROUP_LIST(G)
#undef G
	};
	return (unsigned)g < MP_GROUPS ? ids[g] : MP_ROOT;
}

const char *machine_probes_group_name(enum mp_group g)
{
	int id = machine_probes_group_id(g);
	return id == MP_ROOT ? "?" : F(id)->key;
}

static int under(int id, int ancestor)
{
	for (int p = id; p != MP_ROOT; p = F(p)->parent)
		if (p == ancestor)
			return 1;
	return 0;
}

static void answer_flag(struct machine_answer *a, const char *noisy, const char *implausible, double factor)
{
	if (noisy && *noisy)
		machine_probes_text(a->noisy, sizeof(a->noisy), noisy);
	if (implausible && *implausible)
		machine_probes_text(a->implausible, sizeof(a->implausible), implausible);
	if (isfinite(a->value) && a->confidence > 0)
		a->confidence *= factor;
}

void machine_probes_flag(struct machine_probes *p, enum mp_group g, const char *noisy, const char *implausible,
			 double factor)
{
	int gid = machine_probes_group_id(g);
	if (gid == MP_ROOT)
		return;
	for (int id = gid; id < MP_COUNT; id++) {
		if (F(id)->kind != MP_ANSWER || !under(id, gid))
			continue;
		int table = row_table(id);
		if (table == MP_ROOT) {
			answer_flag((struct machine_answer *)(void *)((char *)p + F(id)->offset), noisy, implausible, factor);
			continue;
		}
		if (row_table(table) != MP_ROOT) /* tables in tables: none hold answers */
			continue;
		int *n;
		char *rows = rows_of(table, (char *)p, &n);
		for (int i = 0; rows && i < *n; i++)
			answer_flag((struct machine_answer *)(void *)(rows + (size_t)i * F(table)->row_size + F(id)->offset),
				    noisy, implausible, factor);
	}
}

int machine_probes_flagged(const struct machine_probes *p, char *buf, size_t len)
{
	int n = 0;
	size_t k = 0;
	if (len)
		buf[0] = '\0';
	for (int id = 0; id < MP_COUNT; id++) {
		if (F(id)->kind != MP_ANSWER)
			continue;
		int table = row_table(id), rows = 1;
		const char *base = (const char *)p;
		size_t size = 0;
		if (table != MP_ROOT) {
			if (row_table(table) != MP_ROOT)
				continue;
			int *cnt;
			base = rows_of(table, (char *)p, &cnt);
			rows = base ? *cnt : 0;
			size = F(table)->row_size;
		}
		for (int i = 0; i < rows; i++) {
			const struct machine_answer *a = (const void *)(base + (size_t)i * size + F(id)->offset);
			if (!a->noisy[0] && !a->implausible[0])
				continue;
			if (n++ < 3 && k < len) {
				char path[256];
				int w = snprintf(buf + k, len - k, "%s%s: %s", k ? "; " : "",
						 machine_probes_path(id, 0, path, sizeof(path)),
						 a->implausible[0] ? a->implausible : a->noisy);
				k += w > 0 ? (size_t)w : 0;
			}
		}
	}
	if (n > 3 && k < len)
		snprintf(buf + k, len - k, "; and %d more", n - 3);
	return n;
}
