/* Error reporting for library code: functions return 0 or a negative errno and fill an
 * as_error with a lowercase message that names the subject. Only src/cli/ prints or exits. */
#ifndef ARCHSCOPE_COMMON_ERROR_H
#define ARCHSCOPE_COMMON_ERROR_H

#include <stddef.h>

/* Room for two full paths (PATH_MAX each) and the words around them. */
#define AS_ERROR_MSG_MAX 10240

struct as_error {
	int code;        /* negative errno, 0 when no error was recorded */
	char msg[AS_ERROR_MSG_MAX];
};

/* Records the message (printf-style) and returns code, so callers can `return as_error_set(...)`.
 * A NULL err is allowed: the message is dropped and only the code is returned. A message longer
 * than the room ends in "…" (cut at a character boundary), never silently. */
int as_error_set(struct as_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefixes an existing message with context ("probe caches: " + old message); cut as above. */
int as_error_prefix(struct as_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void as_error_clear(struct as_error *err);

/* Copies src into dst (len bytes with the NUL); a cut copy ends in "…" at a character boundary.
 * Returns dst. For messages kept in smaller buffers (a result's "reason"). */
char *as_error_copy(char *dst, size_t len, const char *src);

/* Lowercase strerror for messages ("no such file or directory"). */
const char *as_strerror(int errnum, char *buf, size_t len);

#endif
