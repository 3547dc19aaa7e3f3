/* Text as bytes: UTF-8 validity, shared by the input reader (which refuses what is not text) and
 * the JSON emitter (which writes any byte string as valid JSON). */
#ifndef ARCHSCOPE_COMMON_TEXT_H
#define ARCHSCOPE_COMMON_TEXT_H

#include <stddef.h>

/* The length of the valid UTF-8 sequence at s[0..n) (1 to 4), or 0 when s[0] starts none: a
 * stray continuation byte, an overlong form, a surrogate, a code point above U+10FFFF or a
 * sequence cut by n. A NUL byte is valid (length 1): callers that refuse it check for it. */
size_t text_utf8_seq(const char *s, size_t n);
/* The offset of the first byte that is not valid UTF-8 in s[0..n), or n when all of it is. */
size_t text_utf8_valid(const char *s, size_t n);

#endif
