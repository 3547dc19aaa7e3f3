/* The strict number parser (see number.h). */
#include "common/number.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Length of the decimal floating-point number at s (0: none). */
static size_t float_span(const char *s)
{
	size_t i = 0, mant = 0;
	if (s[i] == '-' || s[i] == '+')
		i++;
	while (digit(s[i]))
		i++, mant++;
	if (s[i] == '.') {
		i++;
		while (digit(s[i]))
			i++, mant++;
	}
	if (!mant)
		return 0;
	if (s[i] == 'e' || s[i] == 'E') {
		size_t j = i + 1;
		if (s[j] == '-' || s[j] == '+')
			j++;
		if (digit(s[j])) {
			while (digit(s[j]))
				j++;
			i = j;
		}
	}
	return i;
}

int number_scan_double(const char *text, double *out, const char **end)
{
	if (!text)
		return -EINVAL;
	size_t n = float_span(text);
	if (!n)
		return -EINVAL;
	char stack[128], *copy = n < sizeof(stack) ? stack : malloc(n + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, text, n);
	copy[n] = '\0';
	errno = 0;
	char *e;
	double v = strtod(copy, &e);
	int rc = 0;
	if ((size_t)(e - copy) != n)
		rc = -EINVAL; /* cannot happen: the span is strtod's grammar */
	else if (errno == ERANGE && fabs(v) > 1.0)
		rc = -ERANGE; /* overflow; an underflow reads as 0 or a subnormal */
	if (copy != stack)
		free(copy);
	if (rc)
		return rc;
	*out = v;
	if (end)
		*end = text + n;
	return 0;
}

int number_scan_i64(const char *text, int64_t *out, const char **end)
{
	if (!text)
		return -EINVAL;
	const char *p = text;
	int neg = *p == '-';
	if (*p == '-' || *p == '+')
		p++;
	if (!digit(*p))
		return -EINVAL;
	uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	int over = 0;
	for (; digit(*p); p++) {
		unsigned d = (unsigned)(*p - '0');
		if (v > (lim - d) / 10)
			over = 1;
		else
			v = v * 10 + d;
	}
	if (over)
		return -ERANGE;
	*out = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
	if (end)
		*end = p;
	return 0;
}

int number_parse_i64(const char *text, int64_t min, int64_t max, int64_t *out)
{
	int64_t v;
	const char *end;
	int rc = number_scan_i64(text, &v, &end);
	if (rc == -ERANGE && text && !text[strspn(text, "-+0123456789")])
		return -ERANGE; /* all digits, only too many */
	if (rc || *end)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int number_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
	if (!text || !digit(*(text + (*text == '+'))))
		return -EINVAL;
	const char *p = text + (*text == '+');
	uint64_t v = 0;
	int over = 0;
	for (; digit(*p); p++) {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			over = 1;
		else
			v = v * 10 + d;
	}
	if (*p)
		return -EINVAL;
	if (over || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int number_parse_int(const char *text, int min, int max, int *out)
{
	int64_t v;
	int rc = number_parse_i64(text, min, max, &v);
	if (!rc)
		*out = (int)v;
	return rc;
}

int number_parse_double(const char *text, double min, double max, double *out)
{
	double v;
	const char *end;
	int rc = number_scan_double(text, &v, &end);
	if (rc == -ERANGE)
		return rc;
	if (rc || *end)
		return -EINVAL;
	if (!(v >= min && v <= max))
		return -ERANGE;
	*out = v;
	return 0;
}

const char *number_why(int rc)
{
	return rc == -ERANGE ? "out of range" : "not a decimal number";
}
