/* Reading back a stat result (see stat-json.h): results.events[] of the JSON envelope, each an
 * object with a string name, an optional unit and values[] of numbers or null (not counted). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomicfile.h"
#include "measure/stat-json.h"
#include "report/output.h"

void measure_stat_json_release(struct measure_stat_json *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->ev[i].name);
		free(s->ev[i].unit);
		free(s->ev[i].values);
	}
	free(s->ev);
	free(s->by_name);
	for (size_t i = 0; i < s->ncond; i++) {
		free(s->cond[i].key);
		free(s->cond[i].text);
	}
	free(s->cond);
	memset(s, 0, sizeof(*s));
}

static int by_name_cmp(const void *a, const void *b, void *ctx)
{
	const struct measure_stat_json *s = ctx;
	return strcmp(s->ev[*(const size_t *)a].name, s->ev[*(const size_t *)b].name);
}

/* The index by name, and an error for a name given twice (compare would test it twice). */
int measure_stat_json_index(struct measure_stat_json *s, const char *name, struct as_error *err)
{
	s->by_name = malloc((s->n ? s->n : 1) * sizeof(size_t));
	if (!s->by_name)
		return as_error_set(err, -ENOMEM, "'%s': out of memory", name);
	for (size_t i = 0; i < s->n; i++)
		s->by_name[i] = i;
	qsort_r(s->by_name, s->n, sizeof(size_t), by_name_cmp, s);
	for (size_t i = 1; i < s->n; i++) {
		size_t a = s->by_name[i - 1], b = s->by_name[i];
		if (!strcmp(s->ev[a].name, s->ev[b].name))
			return as_error_set(err, -EINVAL, "'%s': results.events[%zu] and [%zu] are both named '%.64s'", name,
					    a < b ? a : b, a < b ? b : a, s->ev[a].name);
	}
	return 0;
}

static int cond_add(struct measure_stat_json *s, const char *key, json_t *v)
{
	if (!json_is_string(v) && !json_is_number(v) && !json_is_null(v))
		return 0;
	if (json_is_number(v) && !(json_number_value(v) >= 0 && json_number_value(v) <= MEASURE_STAT_JSON_MAX_COND))
		return -ERANGE;
	struct measure_stat_json_cond *nc = realloc(s->cond, (s->ncond + 1) * sizeof(*nc));
	if (!nc)
		return -ENOMEM;
	s->cond = nc;
	struct measure_stat_json_cond *c = &s->cond[s->ncond];
	c->key = strdup(key);
	c->text = json_is_string(v) ? strdup(json_string_value(v)) : NULL;
	c->value = json_is_number(v) ? json_number_value(v) : NAN;
	if (!c->key || (json_is_string(v) && !c->text)) {
		free(c->key);
		free(c->text);
		return -ENOMEM;
	}
	s->ncond++;
	return 0;
}

/* results.conditions flattened: scalars by key, arrays' elements as KEY[i]; a number out of
 * range is -EINVAL naming it. */
static int read_conditions(struct measure_stat_json *s, json_t *obj, const char *name, struct as_error *err)
{
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v)
	{
		size_t n = json_is_array(v) ? json_array_size(v) : 1;
		for (size_t i = 0; i < n; i++) {
			char k[200];
			json_t *x = json_is_array(v) ? json_array_get(v, i) : v;
			if (json_is_array(v))
				snprintf(k, sizeof(k), "%.140s[%zu]", key, i);
			else
				snprintf(k, sizeof(k), "%.140s", key);
			int rc = cond_add(s, k, x);
			if (rc == -ERANGE)
				return as_error_set(err, -EINVAL, "'%s': results.conditions.%s is %g: a load, clock or count of CPUs "
								  "lies between 0 and %g", name, k, json_number_value(x),
						    MEASURE_STAT_JSON_MAX_COND);
			if (rc)
				return as_error_set(err, -ENOMEM, "'%s': out of memory", name);
		}
	}
	return 0;
}

/* One element of results.events into e (zeroed by the caller). */
static int read_event(json_t *j, size_t i, struct measure_stat_json_event *e, const char *name, struct as_error *err)
{
	if (!json_is_object(j))
		return as_error_set(err, -EINVAL, "'%s': results.events[%zu] is not an object", name, i);
	const char *n = json_string_value(json_object_get(j, "name"));
	if (!n || !n[0])
		return as_error_set(err, -EINVAL, "'%s': results.events[%zu] has no name", name, i);
	json_t *u = json_object_get(j, "unit");
	if (u && !json_is_null(u) && !json_is_string(u))
		return as_error_set(err, -EINVAL, "'%s': results.events[%zu] (%.64s): unit is not a string", name, i, n);
	json_t *vals = json_object_get(j, "values");
	if (vals && !json_is_null(vals) && !json_is_array(vals))
		return as_error_set(err, -EINVAL, "'%s': results.events[%zu] (%.64s): values is not a list", name, i, n);
	size_t nv = json_array_size(vals);
	e->name = strdup(n);
	e->unit = json_is_string(u) ? strdup(json_string_value(u)) : NULL;
	e->values = malloc((nv ? nv : 1) * sizeof(double));
	if (!e->name || (json_is_string(u) && !e->unit) || !e->values)
		return as_error_set(err, -ENOMEM, "'%s': out of memory", name);
	for (size_t k = 0; k < nv; k++) {
		json_t *x = json_array_get(vals, k);
		if (json_is_null(x))
			e->values[k] = NAN;
		else if (!json_is_number(x) || !isfinite(json_number_value(x)))
			return as_error_set(err, -EINVAL, "'%s': results.events[%zu] (%.64s): values[%zu] is not a number or null",
					    name, i, n, k);
		else if (json_number_value(x) < 0)
			return as_error_set(err, -EINVAL, "'%s': results.events[%zu] (%.64s): values[%zu] is %g: a count or time "
							  "is never negative", name, i, n, k, json_number_value(x));
		else if (json_number_value(x) > MEASURE_STAT_JSON_MAX_VALUE)
			return as_error_set(err, -EINVAL, "'%s': results.events[%zu] (%.64s): values[%zu] is %g: above 2^64 "
							  "(%.4g), the most a 64-bit counter holds", name, i, n, k,
					    json_number_value(x), MEASURE_STAT_JSON_MAX_VALUE);
		else
			e->values[k] = json_number_value(x);
	}
	e->n = nv;
	return 0;
}

int measure_stat_json_parse(struct measure_stat_json *s, const char *text, size_t len, const char *name,
			    struct as_error *err)
{
	memset(s, 0, sizeof(*s));
	json_t *doc = output_json_parse(text, len, "stat result", name, 1, 0, err);
	if (!doc)
		return err ? err->code : -EINVAL;
	int rc = 0;
	json_t *arr = json_object_get(json_object_get(doc, "results"), "events");
	if (!json_is_array(arr)) {
		rc = as_error_set(err, -EINVAL, "'%s' is not a result of 'archscope stat --json' (no results.events)", name);
		goto out;
	}
	size_t n = json_array_size(arr);
	s->ev = calloc(n ? n : 1, sizeof(*s->ev));
	if (!s->ev) {
		rc = as_error_set(err, -ENOMEM, "'%s': out of memory", name);
		goto out;
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		rc = read_event(json_array_get(arr, i), i, &s->ev[i], name, err);
		s->n = i + 1; /* what read_event allocated is released below on failure */
	}
	if (rc == 0)
		rc = measure_stat_json_index(s, name, err);
	json_t *cond = json_object_get(json_object_get(doc, "results"), "conditions");
	if (rc == 0 && json_is_object(cond))
		rc = read_conditions(s, cond, name, err);
out:
	json_decref(doc);
	if (rc)
		measure_stat_json_release(s);
	return rc;
}

int measure_stat_json_read(struct measure_stat_json *s, const char *path, struct as_error *err)
{
	size_t len = 0;
	memset(s, 0, sizeof(*s));
	char *text = file_read_input(path, "stat result", MEASURE_STAT_JSON_MAX_BYTES, &len, err);
	if (!text)
		return err && err->code ? err->code : -EIO;
	int rc = measure_stat_json_parse(s, text, len, strcmp(path, "-") ? path : "<stdin>", err);
	free(text);
	return rc;
}

const struct measure_stat_json_event *measure_stat_json_find(const struct measure_stat_json *s, const char *name)
{
	size_t lo = 0, hi = s->by_name ? s->n : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(s->ev[s->by_name[mid]].name, name);
		if (c == 0)
			return &s->ev[s->by_name[mid]];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct measure_stat_json_cond *measure_stat_json_cond(const struct measure_stat_json *s, const char *key)
{
	for (size_t i = 0; i < s->ncond; i++)
		if (!strcmp(s->cond[i].key, key))
			return &s->cond[i];
	return NULL;
}

static void cond_text(const struct measure_stat_json_cond *c, const char *unit, char *buf, size_t len)
{
	if (c->text)
		snprintf(buf, len, "'%.150s'", c->text);
	else if (isnan(c->value))
		snprintf(buf, len, "none");
	else if (!unit) /* a field that must be equal: all its digits */
		snprintf(buf, len, "%g", c->value);
	else
		snprintf(buf, len, "%.3g%s%s", c->value, *unit ? " " : "", unit);
}

int measure_stat_json_cond_diff(const struct measure_stat_json *a, const struct measure_stat_json *b,
				struct measure_stat_cond_diff *out, int max)
{
	static const char *const same[] = { "cpu_model", "kernel", "archscope", "hostname", "governor", "cpus_allowed",
					     "cpus_online" };
	static const struct {
		const char *key, *unit;
		double rel, abs;
	} near[] = {
		{ "clock_ghz_before", "GHz", MEASURE_STAT_CLOCK_APART, 0 },
		{ "clock_ghz_after", "GHz", MEASURE_STAT_CLOCK_APART, 0 },
		{ "cpu_mhz_os", "MHz", MEASURE_STAT_CLOCK_APART, 0 },
		{ "loadavg_before[0]", "", 0, MEASURE_STAT_LOAD_APART },
		{ "loadavg_after[0]", "", 0, MEASURE_STAT_LOAD_APART },
	};
	if (!a->ncond || !b->ncond)
		return a->ncond || b->ncond ? -1 : 0;
	int n = 0;
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]) && n < max; i++) {
		const struct measure_stat_json_cond *x = measure_stat_json_cond(a, same[i]);
		const struct measure_stat_json_cond *y = measure_stat_json_cond(b, same[i]);
		if (!x || !y)
			continue;
		int differ = x->text && y->text ? strcmp(x->text, y->text) != 0
			     : !x->text && !y->text ? !(x->value == y->value || (isnan(x->value) && isnan(y->value)))
						    : 1;
		if (!differ)
			continue;
		struct measure_stat_cond_diff *d = &out[n++];
		d->key = same[i];
		cond_text(x, NULL, d->a, sizeof(d->a));
		cond_text(y, NULL, d->b, sizeof(d->b));
		d->apart[0] = '\0';
	}
	for (size_t i = 0; i < sizeof(near) / sizeof(near[0]) && n < max; i++) {
		const struct measure_stat_json_cond *x = measure_stat_json_cond(a, near[i].key);
		const struct measure_stat_json_cond *y = measure_stat_json_cond(b, near[i].key);
		if (!x || !y || isnan(x->value) || isnan(y->value))
			continue;
		double d = fabs(x->value - y->value), big = fmax(fabs(x->value), fabs(y->value));
		if (!((near[i].rel > 0 && d > near[i].rel * big) || (near[i].abs > 0 && d > near[i].abs)))
			continue;
		struct measure_stat_cond_diff *o = &out[n++];
		o->key = near[i].key;
		cond_text(x, near[i].unit, o->a, sizeof(o->a));
		cond_text(y, near[i].unit, o->b, sizeof(o->b));
		if (near[i].rel > 0)
			snprintf(o->apart, sizeof(o->apart), "%.0f %%", 100 * near[i].rel);
		else
			snprintf(o->apart, sizeof(o->apart), "%g", near[i].abs);
	}
	return n;
}
