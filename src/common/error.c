/* Error messages for library code (see error.h for the contract). */
#include "common/error.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int as_error_set(struct as_error *err, int code, const char *fmt, ...)
{
	if (!err)
		return code;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	err->code = code;
	return code;
}

int as_error_prefix(struct as_error *err, const char *fmt, ...)
{
	if (!err)
		return 0;
	char prefix[256], old[sizeof(err->msg)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	size_t plen = strlen(prefix);
	if (plen >= sizeof(err->msg))
		plen = sizeof(err->msg) - 1;
	memcpy(err->msg, prefix, plen);
	size_t rest = sizeof(err->msg) - 1 - plen;
	size_t olen = strnlen(old, rest);
	memcpy(err->msg + plen, old, olen);
	err->msg[plen + olen] = '\0';
	return err->code;
}

void as_error_clear(struct as_error *err)
{
	if (err) {
		err->code = 0;
		err->msg[0] = '\0';
	}
}

const char *as_strerror(int errnum, char *buf, size_t len)
{
	if (errnum < 0)
		errnum = -errnum;
	snprintf(buf, len, "%s", strerror(errnum));
	if (buf[0])
		buf[0] = (char)tolower((unsigned char)buf[0]);
	return buf;
}
