/* Reading back a stat result (see stat-json.h): results.events[] of the JSON envelope, each an
 * object with a string name, an optional unit and values[] of numbers or null (not counted). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomicfile.h"
#include "measure/stat-json.h"

void measure_stat_json_release(struct measure_stat_json *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->ev[i].name);
		free(s->ev[i].unit);
		free(s->ev[i].values);
	}
	free(s->ev);
	s->ev = NULL;
	s->n = 0;
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
		else if (json_is_number(x) && isfinite(json_number_value(x)))
			e->values[k] = json_number_value(x);
		else
			return as_error_set(err, -EINVAL, "'%s': results.events[%zu] (%.64s): values[%zu] is not a number or null",
					    name, i, n, k);
	}
	e->n = nv;
	return 0;
}

int measure_stat_json_parse(struct measure_stat_json *s, const char *text, size_t len, const char *name,
			    struct as_error *err)
{
	s->ev = NULL;
	s->n = 0;
	json_error_t je;
	json_t *doc = json_loadb(text, len, 0, &je);
	if (!doc) {
		if (je.line > 0)
			return as_error_set(err, -EINVAL, "cannot read '%s': %s (line %d)", name, je.text, je.line);
		return as_error_set(err, -EINVAL, "cannot read '%s': %s", name, je.text);
	}
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
out:
	json_decref(doc);
	if (rc)
		measure_stat_json_release(s);
	return rc;
}

int measure_stat_json_read(struct measure_stat_json *s, const char *path, struct as_error *err)
{
	size_t len = 0;
	s->ev = NULL;
	s->n = 0;
	char *text = file_read_input(path, "stat result", MEASURE_STAT_JSON_MAX_BYTES, &len, err);
	if (!text)
		return err && err->code ? err->code : -EIO;
	int rc = measure_stat_json_parse(s, text, len, strcmp(path, "-") ? path : "<stdin>", err);
	free(text);
	return rc;
}

const struct measure_stat_json_event *measure_stat_json_find(const struct measure_stat_json *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->ev[i].name, name))
			return &s->ev[i];
	return NULL;
}
