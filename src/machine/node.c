/* Typed values of machine-file scalars, shared by the checker and the reader; see node.h. */
#include "machine/node.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "common/number.h"
#include "machine/file.h"

int machine_quantity(const char *text, double *value, char *unit, size_t unit_len)
{
	const char *end;
	double v;
	if (number_scan_double(text, &v, &end) != 0)
		return -1;
	size_t digits = (size_t)(end - text);
	while (*end == ' ')
		end++;
	double scale = 1;
	int exp10 = 0;
	const char *u = end;
	static const struct {
		const char *p;
		double f;
		int exp10; /* decimal prefixes: the power of ten */
	} prefixes[] = { { "Ki", 1024.0, 0 }, { "Mi", 1048576.0, 0 }, { "Gi", 1073741824.0, 0 }, { "Ti", 1099511627776.0, 0 },
			 { "k", 1e3, 3 }, { "K", 1e3, 3 }, { "M", 1e6, 6 }, { "G", 1e9, 9 }, { "T", 1e12, 12 } };
	/* a prefix only in front of a unit letter: "GB/s", "kB", "GHz"; not "B" or "cy" alone */
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i].p);
		if (!strncmp(u, prefixes[i].p, n) && (u[n] == 'B' || u[n] == 'H' || u[n] == 'F' || u[n] == 'b')) {
			scale = prefixes[i].f;
			exp10 = prefixes[i].exp10;
			u += n;
			break;
		}
	}
	/* A decimal prefix shifts the decimal number itself, so "2.05 MB" is 2050000 B exactly, as
	 * "2050.00 kB" is (2.05 x 1e6 would be 2049999.9999999998): a file written again reads back
	 * the same. Numbers with an exponent or in hexadecimal are multiplied. */
	char shifted[96];
	if (exp10 && digits + 8 < sizeof(shifted) && !memchr(text, 'e', digits) && !memchr(text, 'E', digits) &&
	    !memchr(text, 'x', digits) && !memchr(text, 'X', digits)) {
		snprintf(shifted, sizeof(shifted), "%.*se%d", (int)digits, text, exp10);
		if (number_parse_double(shifted, -HUGE_VAL, HUGE_VAL, &v) != 0)
			return -1;
		scale = 1;
	}
	for (const char *c = u; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == '/' || *c == '%'))
			return -1;
	if (strlen(u) >= unit_len)
		return -1;
	if (!isfinite(v * scale))
		return -1; /* "1e300 GHz" overflows: no quantity */
	strcpy(unit, u);
	*value = v * scale;
	return 0;
}

static int plain(const struct mnode *n)
{
	return n && n->kind == MN_SCALAR && n->style == YAML_PLAIN_SCALAR_STYLE && !n->tag;
}

int machine_node_pos_int(const struct mnode *n, long *out)
{
	if (!plain(n))
		return 0;
	int64_t v;
	if (number_parse_i64(n->text, 1, LONG_MAX, &v) != 0)
		return 0;
	if (out)
		*out = v;
	return 1;
}

int machine_node_bool(const struct mnode *n)
{
	return plain(n) && (!strcmp(n->text, "true") || !strcmp(n->text, "false") || !strcmp(n->text, "True") ||
			    !strcmp(n->text, "False"));
}

int machine_node_number(const struct mnode *n, double *out)
{
	if (!plain(n))
		return 0;
	double v;
	if (number_parse_double(n->text, -HUGE_VAL, HUGE_VAL, &v) != 0)
		return 0;
	if (out)
		*out = v;
	return 1;
}

int machine_node_quantity(const struct mnode *n, const char *unit, int positive, double *out)
{
	if (!n || n->kind != MN_SCALAR)
		return 0;
	double v;
	char u[32];
	if (machine_quantity(n->text, &v, u, sizeof(u)) != 0)
		return 0;
	if (strncmp(u, unit, strlen(unit)) || v < 0 || (positive && v <= 0))
		return 0;
	if (out)
		*out = v;
	return 1;
}

int machine_node_string(const struct mnode *n)
{
	return n && n->kind == MN_SCALAR && !mnode_is_null(n);
}
