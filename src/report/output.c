/* The JSON envelope, answers and files (see output.h). */
#include "report/output.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/atomicfile.h"
#include "common/text.h"

/* Copies s[0..n) into out (room for 3 n + 1 bytes), each invalid byte as U+FFFD; returns the
 * length written and adds the replaced bytes to *replaced. */
static size_t utf8_fix(const char *s, size_t n, char *out, size_t *replaced)
{
	size_t w = 0;
	for (size_t i = 0; i < n;) {
		size_t k = text_utf8_seq(s + i, n - i);
		if (k) {
			memcpy(out + w, s + i, k);
			w += k;
			i += k;
		} else {
			memcpy(out + w, "\xef\xbf\xbd", 3);
			w += 3;
			i++;
			if (replaced)
				(*replaced)++;
		}
	}
	out[w] = '\0';
	return w;
}

json_t *output_json_string(const char *s, size_t *replaced)
{
	size_t n = strlen(s);
	if (text_utf8_valid(s, n) == n)
		return json_stringn(s, n);
	char *fixed = malloc(3 * n + 1);
	if (!fixed)
		return NULL;
	size_t w = utf8_fix(s, n, fixed, replaced);
	json_t *j = json_stringn(fixed, w);
	free(fixed);
	return j;
}

const char *output_json_key(const char *key, char *buf, size_t len, size_t *replaced)
{
	size_t n = strlen(key);
	if (text_utf8_valid(key, n) == n || len < 4)
		return key;
	if (3 * n + 1 > len)
		n = (len - 1) / 3;
	utf8_fix(key, n, buf, replaced);
	return buf;
}

#define ENVELOPE_VERSION "archscope"
#define ENVELOPE_COMMAND "command"
#define ENVELOPE_MACHINE "machine"
#define ENVELOPE_RESULTS "results"

json_t *output_envelope(const char *command, json_t *machine, json_t *results)
{
	json_t *doc = json_object();
	json_object_set_new(doc, ENVELOPE_VERSION, json_string(ARCHSCOPE_VERSION));
	json_object_set_new(doc, ENVELOPE_COMMAND, output_json_string(command, NULL));
	json_object_set_new(doc, ENVELOPE_MACHINE, machine ? machine : json_object());
	json_object_set_new(doc, ENVELOPE_RESULTS, results ? results : json_object());
	return doc;
}

json_t *output_doc_results(const json_t *doc)
{
	json_t *r = json_object_get(doc, ENVELOPE_RESULTS);
	return json_is_object(r) ? r : NULL;
}

json_t *output_doc_machine(const json_t *doc)
{
	json_t *m = json_object_get(doc, ENVELOPE_MACHINE);
	return json_is_object(m) ? m : NULL;
}

const char *output_doc_command(const json_t *doc)
{
	return json_string_value(json_object_get(doc, ENVELOPE_COMMAND));
}

const char *output_doc_version(const json_t *doc)
{
	return json_string_value(json_object_get(doc, ENVELOPE_VERSION));
}

json_t *output_answer(double value, const char *unit, double confidence, const char *method,
		      json_t *os_reported)
{
	json_t *a = json_object();
	json_object_set_new(a, "value", isfinite(value) ? json_real(value) : json_null());
	json_object_set_new(a, "unit", output_json_string(unit, NULL));
	json_object_set_new(a, "confidence", json_real(isfinite(confidence) ? confidence : 0.0));
	json_object_set_new(a, "method", output_json_string(method ? method : "", NULL));
	json_object_set_new(a, "os_reported", os_reported ? os_reported : json_null());
	return a;
}

json_t *output_json_parse(const char *text, size_t len, const char *what, const char *name, long first_line, int flags,
			  struct as_error *err)
{
	json_error_t je;
	json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES | (flags & OUTPUT_JSON_NUL ? JSON_ALLOW_NUL : 0), &je);
	if (doc)
		return doc;
	/* jansson counts lines from 1 (0 or -1 when it has no position, as for an empty text) */
	long line = je.line > 0 ? first_line + je.line - 1 : first_line;
	int dup = strstr(je.text, "duplicate object key") != NULL;
	as_error_set(err, -EINVAL, "cannot read %s '%s': not JSON: line %ld, column %d: %s%s", what, name, line,
		     je.column > 0 ? je.column : 1, je.text, dup ? " (a key given twice: give each key once)" : "");
	return NULL;
}

const char *output_json_kind(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "a list";
	case JSON_STRING: return "a string";
	case JSON_INTEGER:
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "true/false";
	case JSON_NULL: break;
	}
	return "null";
}

json_t *output_json_read(const char *path, const char *what, size_t max_bytes, struct as_error *err)
{
	size_t len = 0;
	char *text = file_read_input(path, what, max_bytes, &len, err);
	if (!text)
		return NULL;
	json_t *doc = output_json_parse(text, len, what, strcmp(path, "-") ? path : "<stdin>", 1, 0, err);
	free(text);
	return doc;
}

int output_json_print(FILE *out, const json_t *doc, struct as_error *err)
{
	if (json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10)) != 0 ||
	    fputc('\n', out) == EOF)
		return as_error_set(err, -EIO, "cannot write json output");
	return 0;
}

int output_write_file(const char *path, const json_t *doc, struct as_error *err)
{
	struct atomic_file af;
	int rc = atomic_file_open(&af, path, err);
	if (rc)
		return rc;
	rc = output_json_print(af.fp, doc, err);
	if (rc) {
		atomic_file_abort(&af);
		return rc;
	}
	return atomic_file_commit(&af, err);
}
