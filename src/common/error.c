/* Error messages for library code (see error.h for the contract). */
#include "common/error.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define ELLIPSIS "\xe2\x80\xa6" /* "…" */

/* buf (len bytes, NUL included) was cut: ends it in "…" at a UTF-8 character boundary. */
static void mark_cut(char *buf, size_t len)
{
	size_t e = sizeof(ELLIPSIS) - 1;
	if (len < e + 1)
		return;
	size_t at = len - 1 - e;
	while (at > 0 && ((unsigned char)buf[at] & 0xC0) == 0x80) /* not inside a character */
		at--;
	memcpy(buf + at, ELLIPSIS, e + 1);
}

char *as_error_copy(char *dst, size_t len, const char *src)
{
	if (!len)
		return dst;
	size_t n = strlen(src);
	if (n < len) {
		memcpy(dst, src, n + 1);
		return dst;
	}
	memcpy(dst, src, len - 1);
	dst[len - 1] = '\0';
	mark_cut(dst, len);
	return dst;
}

int as_error_set(struct as_error *err, int code, const char *fmt, ...)
{
	if (!err)
		return code;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(err->msg))
		mark_cut(err->msg, sizeof(err->msg));
	err->code = code;
	return code;
}

int as_error_prefix(struct as_error *err, const char *fmt, ...)
{
	if (!err)
		return 0;
	char prefix[sizeof(err->msg)], old[sizeof(err->msg)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	size_t plen = strlen(prefix), olen = strlen(old);
	int cut = plen + olen >= sizeof(err->msg);
	if (plen >= sizeof(err->msg))
		plen = sizeof(err->msg) - 1;
	memcpy(err->msg, prefix, plen);
	size_t rest = sizeof(err->msg) - 1 - plen;
	if (olen > rest)
		olen = rest;
	memcpy(err->msg + plen, old, olen);
	err->msg[plen + olen] = '\0';
	if (cut)
		mark_cut(err->msg, sizeof(err->msg));
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
