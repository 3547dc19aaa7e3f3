/* Reading back a stat result (see stat-json.h): results.events[] of the JSON envelope, each an
 * object with a string name, an optional unit and values[] of numbers or null (not counted); every
 * key read, and the check of the whole results, through stat's description (machine/result-stat.h). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/atomicfile.h"
#include "machine/result-stat.h"
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
			return as_error_set(err, -EINVAL, "'%s': results.%s[%zu] and [%zu] are both named '%.64s'", name,
					    ST_KEY(EVENTS), a < b ? a : b, a < b ? b : a, s->ev[a].name);
	}
	return 0;
}

static int cond_add(struct measure_stat_json *s, const char *key, json_t *v)
{
	if (!json_is_string(v) && !json_is_number(v) && !json_is_null(v))
		return 0;
	if (json_is_number(v) && !(json_number_value(v) >= 0 && json_number_value(v) <= MEASURE_STAT_JSON_MAX_COND))
		return -ERANGE;
	struct measure_stat_json_cond *nc = array_grow(s->cond, &s->cond_cap, s->ncond, sizeof(*nc), 16);
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

/* results.conditions flattened, the keys its description names: scalars by key, arrays' elements
 * as KEY[i]; a number out of range is -EINVAL naming it. */
static int read_conditions(struct measure_stat_json *s, const json_t *results, const char *name, struct as_error *err)
{
	for (int id = 0; id < stat_result.n; id++) {
		if (stat_result.keys[id].parent != ST_COND)
			continue;
		const char *key = SCHEMA_KEY(stat_result, id);
		json_t *v = schema_get(&stat_result, results, id);
		size_t n = json_is_array(v) ? json_array_size(v) : v ? 1 : 0;
		for (size_t i = 0; i < n; i++) {
			char k[200];
			json_t *x = json_is_array(v) ? json_array_get(v, i) : v;
			if (json_is_array(v))
				snprintf(k, sizeof(k), "%.140s[%zu]", key, i);
			else
				snprintf(k, sizeof(k), "%.140s", key);
			int rc = cond_add(s, k, x);
			if (rc == -ERANGE)
				return as_error_set(err, -EINVAL, "'%s': results.%s.%s is %g: a load, clock or count of CPUs "
								  "lies between 0 and %g", name, ST_KEY(COND), k,
						    json_number_value(x), MEASURE_STAT_JSON_MAX_COND);
			if (rc)
				return as_error_set(err, -ENOMEM, "'%s': out of memory", name);
		}
	}
	return 0;
}

/* One element of results.events into e (zeroed by the caller). */
static int read_event(json_t *j, size_t i, struct measure_stat_json_event *e, const char *name, struct as_error *err)
{
	const char *evs = ST_KEY(EVENTS);
	if (!json_is_object(j))
		return as_error_set(err, -EINVAL, "'%s': results.%s[%zu] is not an object", name, evs, i);
	const char *n = schema_str(&stat_result, j, ST_EV_NAME);
	if (!n || !n[0])
		return as_error_set(err, -EINVAL, "'%s': results.%s[%zu] has no %s", name, evs, i, ST_KEY(EV_NAME));
	json_t *u = schema_get(&stat_result, j, ST_EV_UNIT);
	if (u && !json_is_null(u) && !json_is_string(u))
		return as_error_set(err, -EINVAL, "'%s': results.%s[%zu] (%.64s): %s is not a string", name, evs, i, n,
				    ST_KEY(EV_UNIT));
	const char *vk = ST_KEY(EV_VALUES);
	json_t *vals = schema_get(&stat_result, j, ST_EV_VALUES);
	if (vals && !json_is_null(vals) && !json_is_array(vals))
		return as_error_set(err, -EINVAL, "'%s': results.%s[%zu] (%.64s): %s is not a list", name, evs, i, n, vk);
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
			return as_error_set(err, -EINVAL, "'%s': results.%s[%zu] (%.64s): %s[%zu] is not a number or null",
					    name, evs, i, n, vk, k);
		else if (json_number_value(x) < 0)
			return as_error_set(err, -EINVAL, "'%s': results.%s[%zu] (%.64s): %s[%zu] is %g: a count or time "
							  "is never negative", name, evs, i, n, vk, k, json_number_value(x));
		else if (json_number_value(x) > MEASURE_STAT_JSON_MAX_VALUE)
			return as_error_set(err, -EINVAL, "'%s': results.%s[%zu] (%.64s): %s[%zu] is %g: above 2^64 "
							  "(%.4g), the most a 64-bit counter holds", name, evs, i, n, vk, k,
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
	const json_t *results = json_object_get(doc, "results");
	json_t *arr = schema_get(&stat_result, results, ST_EVENTS);
	if (!json_is_array(arr)) {
		rc = as_error_set(err, -EINVAL, "'%s' is not a result of 'archscope stat --json' (no results.%s)", name,
				  ST_KEY(EVENTS));
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
	/* the events read, the rest is held to the description: a key stat does not write, or one of
	 * another kind, is named by its path (keys a file lacks are no error: compare needs the events) */
	if (rc == 0 && (rc = schema_check_read(&stat_result, results, err)) != 0)
		as_error_prefix(err, "'%s': results.", name);
	if (rc == 0)
		rc = read_conditions(s, results, name, err);
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
	static const int same[] = { ST_COND_CPU_MODEL, ST_COND_KERNEL,	     ST_COND_ARCHSCOPE,	  ST_COND_HOSTNAME,
				    ST_COND_GOVERNOR,  ST_COND_CPUS_ALLOWED, ST_COND_CPUS_ONLINE };
	/* the load averages: the 1-minute one ([0]) */
	static const struct {
		int id;
		double rel, abs;
	} near[] = {
		{ ST_COND_CLOCK_BEFORE, MEASURE_STAT_CLOCK_APART, 0 },
		{ ST_COND_CLOCK_AFTER, MEASURE_STAT_CLOCK_APART, 0 },
		{ ST_COND_MHZ_OS, MEASURE_STAT_CLOCK_APART, 0 },
		{ ST_COND_LOAD_BEFORE, 0, MEASURE_STAT_LOAD_APART },
		{ ST_COND_LOAD_AFTER, 0, MEASURE_STAT_LOAD_APART },
	};
	if (!a->ncond || !b->ncond)
		return a->ncond || b->ncond ? -1 : 0;
	int n = 0;
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]) && n < max; i++) {
		const struct measure_stat_json_cond *x = measure_stat_json_cond(a, SCHEMA_KEY(stat_result, same[i]));
		const struct measure_stat_json_cond *y = measure_stat_json_cond(b, SCHEMA_KEY(stat_result, same[i]));
		if (!x || !y)
			continue;
		int differ = x->text && y->text ? strcmp(x->text, y->text) != 0
			     : !x->text && !y->text ? !(x->value == y->value || (isnan(x->value) && isnan(y->value)))
						    : 1;
		if (!differ)
			continue;
		struct measure_stat_cond_diff *d = &out[n++];
		d->key = x->key;
		cond_text(x, NULL, d->a, sizeof(d->a));
		cond_text(y, NULL, d->b, sizeof(d->b));
		d->apart[0] = '\0';
	}
	for (size_t i = 0; i < sizeof(near) / sizeof(near[0]) && n < max; i++) {
		char key[160];
		const struct schema_key *k = &stat_result.keys[near[i].id];
		snprintf(key, sizeof(key), k->kind == SK_NUMBERS ? "%s[0]" : "%s", k->key);
		const struct measure_stat_json_cond *x = measure_stat_json_cond(a, key);
		const struct measure_stat_json_cond *y = measure_stat_json_cond(b, key);
		if (!x || !y || isnan(x->value) || isnan(y->value))
			continue;
		double d = fabs(x->value - y->value), big = fmax(fabs(x->value), fabs(y->value));
		if (!((near[i].rel > 0 && d > near[i].rel * big) || (near[i].abs > 0 && d > near[i].abs)))
			continue;
		struct measure_stat_cond_diff *o = &out[n++];
		o->key = x->key;
		const char *unit = schema_unit(&stat_result, near[i].id);
		cond_text(x, unit, o->a, sizeof(o->a));
		cond_text(y, unit, o->b, sizeof(o->b));
		if (near[i].rel > 0)
			snprintf(o->apart, sizeof(o->apart), "%.0f %%", 100 * near[i].rel);
		else
			snprintf(o->apart, sizeof(o->apart), "%g", near[i].abs);
	}
	return n;
}
