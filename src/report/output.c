/* JSON and YAML emitters over one jansson tree (see output.h). */
#include "report/output.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "common/atomicfile.h"

json_t *output_envelope(const char *command, json_t *machine, json_t *results)
{
	json_t *doc = json_object();
	json_object_set_new(doc, "archscope", json_string(ARCHSCOPE_VERSION));
	json_object_set_new(doc, "command", json_string(command));
	json_object_set_new(doc, "machine", machine ? machine : json_object());
	json_object_set_new(doc, "results", results ? results : json_object());
	return doc;
}

json_t *output_answer(double value, const char *unit, double confidence, const char *method,
		      json_t *os_reported)
{
	json_t *a = json_object();
	json_object_set_new(a, "value", isfinite(value) ? json_real(value) : json_null());
	json_object_set_new(a, "unit", json_string(unit));
	json_object_set_new(a, "confidence", json_real(isfinite(confidence) ? confidence : 0.0));
	json_object_set_new(a, "method", json_string(method ? method : ""));
	json_object_set_new(a, "os_reported", os_reported ? os_reported : json_null());
	return a;
}

int output_json_print(FILE *out, const json_t *doc, struct as_error *err)
{
	if (json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10)) != 0 ||
	    fputc('\n', out) == EOF)
		return as_error_set(err, -EIO, "cannot write json output");
	return 0;
}

/* --- YAML through libyaml's emitter ------------------------------------------------------ */

static int yaml_file_handler(void *data, unsigned char *buffer, size_t size)
{
	return fwrite(buffer, 1, size, (FILE *)data) == size;
}

/* A string that a YAML reader would resolve to a number, boolean or null must be quoted. */
static int looks_typed(const char *s)
{
	static const char *words[] = { "true", "false", "yes", "no", "on", "off", "null", "~", "" };
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcasecmp(s, words[i]) == 0)
			return 1;
	char *end;
	strtod(s, &end);
	return end != s && *end == '\0';
}

/* plain: a number or keyword to be written as is; otherwise a string (quoted when needed). */
static int emit_scalar(yaml_emitter_t *em, const char *s, int plain)
{
	yaml_event_t ev;
	yaml_scalar_style_t style = plain ? YAML_PLAIN_SCALAR_STYLE
				  : looks_typed(s) ? YAML_SINGLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE;
	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1, style);
	return yaml_emitter_emit(em, &ev);
}

static int emit_node(yaml_emitter_t *em, const json_t *n)
{
	yaml_event_t ev;
	char buf[64];
	switch (json_typeof(n)) {
	case JSON_OBJECT: {
		const char *key;
		json_t *val;
		/* Short numeric lists and empty maps read best inline, as Kerncraft's files do. */
		yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
		if (!yaml_emitter_emit(em, &ev))
			return 0;
		json_object_foreach((json_t *)n, key, val) {
			if (!emit_scalar(em, key, 0) || !emit_node(em, val))
				return 0;
		}
		yaml_mapping_end_event_initialize(&ev);
		return yaml_emitter_emit(em, &ev);
	}
	case JSON_ARRAY: {
		size_t i;
		json_t *val;
		int flow = 1;
		json_array_foreach((json_t *)n, i, val)
			if (json_is_object(val) || json_is_array(val))
				flow = 0;
		yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
						     flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
		if (!yaml_emitter_emit(em, &ev))
			return 0;
		json_array_foreach((json_t *)n, i, val)
			if (!emit_node(em, val))
				return 0;
		yaml_sequence_end_event_initialize(&ev);
		return yaml_emitter_emit(em, &ev);
	}
	case JSON_STRING:
		return emit_scalar(em, json_string_value(n), 0);
	case JSON_INTEGER:
		snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT, json_integer_value(n));
		return emit_scalar(em, buf, 1);
	case JSON_REAL:
		snprintf(buf, sizeof(buf), "%.10g", json_real_value(n));
		if (!strpbrk(buf, ".eEn"))
			strcat(buf, ".0");
		return emit_scalar(em, buf, 1);
	case JSON_TRUE:
		return emit_scalar(em, "true", 1);
	case JSON_FALSE:
		return emit_scalar(em, "false", 1);
	default:
		return emit_scalar(em, "null", 1);
	}
}

int output_yaml_print(FILE *out, const json_t *doc, struct as_error *err)
{
	yaml_emitter_t em;
	yaml_event_t ev;
	if (!yaml_emitter_initialize(&em))
		return as_error_set(err, -ENOMEM, "cannot initialise the yaml emitter");
	yaml_emitter_set_output(&em, yaml_file_handler, out);
	yaml_emitter_set_unicode(&em, 1);
	yaml_emitter_set_width(&em, 100);
	int ok = 1;
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	ok = ok && yaml_emitter_emit(&em, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0);
	ok = ok && yaml_emitter_emit(&em, &ev);
	ok = ok && emit_node(&em, doc);
	yaml_document_end_event_initialize(&ev, 1);
	ok = ok && yaml_emitter_emit(&em, &ev);
	yaml_stream_end_event_initialize(&ev);
	ok = ok && yaml_emitter_emit(&em, &ev);
	ok = ok && yaml_emitter_flush(&em);
	int rc = 0;
	if (!ok)
		rc = as_error_set(err, -EIO, "cannot write yaml: %s", em.problem ? em.problem : "write error");
	yaml_emitter_delete(&em);
	return rc;
}

int output_write_file(const char *path, const json_t *doc, int yaml, struct as_error *err)
{
	struct atomic_file af;
	int rc = atomic_file_open(&af, path, err);
	if (rc)
		return rc;
	rc = yaml ? output_yaml_print(af.fp, doc, err) : output_json_print(af.fp, doc, err);
	if (rc) {
		atomic_file_abort(&af);
		return rc;
	}
	return atomic_file_commit(&af, err);
}
