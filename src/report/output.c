/* The JSON envelope, answers and files (see output.h). */
#include "report/output.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
