/* Readers of recorded load-latency samples (memsample.h): archscope's JSON lines, and the text of
 * `perf script -F data_src,weight` after `perf mem record`, whose lines look like
 *       68100142 |OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A             158
 * (data_src in hex, perf's decoding of it between bars, the weight in decimal: the latency). */
#include "measure/memsample.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomicfile.h"
#include "common/number.h"
#include "report/output.h"

/* One JSON line: {"latency_cy": N, "data_src": N | "0xHEX"}. -1 with why set, or -2 with err set
 * (not JSON: output_json_parse's message, naming the file, line and column). */
static int read_json_line(const struct input_lines *in, const char *line, double *lat, uint64_t *src, char *why,
			  size_t len, struct as_error *err)
{
	json_t *o = output_json_parse(line, strlen(line), in->what, in->name, in->line, 0, err);
	if (!o)
		return -2;
	if (!json_is_object(o)) {
		snprintf(why, len, "not a JSON object");
		json_decref(o);
		return -1;
	}
	json_t *l = json_object_get(o, "latency_cy"), *d = json_object_get(o, "data_src");
	int rc = 0;
	if (!json_is_number(l) || json_number_value(l) < 0) {
		snprintf(why, len, "needs \"latency_cy\", a number of cycles >= 0");
		rc = -1;
	} else if (json_is_integer(d) && json_integer_value(d) >= 0) {
		*src = (uint64_t)json_integer_value(d);
	} else if (json_is_string(d)) {
		/* "0x..." in hex (as perf writes data_src), else decimal */
		const char *t = json_string_value(d);
		int ok = 0;
		if ((t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) && t[2] && strlen(t + 2) <= 16 &&
		    strspn(t + 2, "0123456789abcdefABCDEF") == strlen(t + 2)) {
			*src = strtoull(t + 2, NULL, 16);
			ok = 1;
		} else {
			ok = number_parse_u64(t, 0, UINT64_MAX, src) == 0;
		}
		if (!ok) {
			snprintf(why, len, "\"data_src\" '%s' is not a number", json_string_value(d));
			rc = -1;
		}
	} else {
		snprintf(why, len, "needs \"data_src\", the perf_mem_data_src value (a number or a \"0x...\" string)");
		rc = -1;
	}
	if (!rc)
		*lat = json_number_value(l);
	json_decref(o);
	return rc;
}

/* One line of perf script: the hex token just before the first '|' is data_src; the weight is the
 * first token after it made of decimal digits only (perf prints it after its decoding of
 * data_src, whose words are never bare numbers; further fields such as ip may follow). */
static int read_perf_line(char *line, double *lat, uint64_t *src, char *why, size_t len)
{
	char *bar = strchr(line, '|');
	if (!bar) {
		snprintf(why, len, "no data source (perf script -F data_src,weight prints it before a '|')");
		return -1;
	}
	char *end = bar;
	while (end > line && isspace((unsigned char)end[-1]))
		end--;
	char *tok = end;
	while (tok > line && isxdigit((unsigned char)tok[-1]))
		tok--;
	if (tok == end || end - tok > 16 || (tok > line && !isspace((unsigned char)tok[-1]))) {
		snprintf(why, len, "no hex data_src before the '|'");
		return -1;
	}
	char hex[17];
	snprintf(hex, sizeof(hex), "%.*s", (int)(end - tok), tok);
	*src = strtoull(hex, NULL, 16);
	for (char *p = bar + 1; *p;) {
		while (*p && (isspace((unsigned char)*p) || *p == '|'))
			p++;
		char *w = p;
		while (*p && !isspace((unsigned char)*p) && *p != '|')
			p++;
		int digits = p > w;
		for (char *q = w; q < p; q++)
			digits &= isdigit((unsigned char)*q) != 0;
		if (digits) {
			*lat = strtod(w, NULL);
			return 0;
		}
	}
	snprintf(why, len, "no weight (perf script -F data_src,weight prints it as a decimal number after the data source)");
	return -1;
}

int memsample_read_file(const char *path, struct memsample_set *set, struct as_error *err)
{
	struct input_lines in;
	int rc = input_lines_open(&in, path, "sample file", MEMSAMPLE_MAX_FILE_BYTES, err);
	if (rc)
		return rc;
	char *line;
	size_t len;
	int json = -1;
	while ((rc = input_lines_next(&in, &line, &len, err)) == 1) {
		rc = 0;
		char *p = line;
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			continue;
		if (json < 0)
			json = *p == '{';
		double lat = 0;
		uint64_t src = 0;
		char why[160];
		rc = json ? read_json_line(&in, p, &lat, &src, why, sizeof(why), err) : read_perf_line(p, &lat, &src, why, sizeof(why));
		if (rc == -2) {
			rc = err && err->code ? err->code : -EINVAL;
			break;
		}
		if (rc != 0) {
			rc = as_error_set(err, -EINVAL, "'%s' line %ld: %s", in.name, in.line, why);
			break;
		}
		if (set->n >= MEMSAMPLE_MAX_SAMPLES) {
			rc = as_error_set(err, -EFBIG, "'%s': more than %d samples (the limit)", in.name, MEMSAMPLE_MAX_SAMPLES);
			break;
		}
		if (memsample_add(set, lat, src) != 0) {
			rc = as_error_set(err, -ENOMEM, "out of memory reading '%s'", in.name);
			break;
		}
	}
	if (!rc && json < 0)
		rc = as_error_set(err, -EINVAL, "'%s' holds no samples (%s)", in.name,
				  in.line ? "only comments and blank lines" : "the file is empty");
	input_lines_close(&in);
	return rc;
}
