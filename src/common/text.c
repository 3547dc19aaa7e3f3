/* UTF-8 validity (see text.h); the ranges are those of RFC 3629, table 3-7 of Unicode. */
#include "common/text.h"

size_t text_utf8_seq(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	if (!n)
		return 0;
	unsigned c = s[0];
	if (c < 0x80)
		return 1;
	size_t len;
	unsigned lo = 0x80, hi = 0xBF; /* the allowed range of the second byte */
	if (c >= 0xC2 && c <= 0xDF)
		len = 2;
	else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		if (c == 0xE0)
			lo = 0xA0; /* overlong */
		else if (c == 0xED)
			hi = 0x9F; /* surrogates */
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		if (c == 0xF0)
			lo = 0x90; /* overlong */
		else if (c == 0xF4)
			hi = 0x8F; /* above U+10FFFF */
	} else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return len;
}

size_t text_utf8_valid(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		if ((unsigned char)s[i] < 0x80) {
			i++;
			continue;
		}
		size_t k = text_utf8_seq(s + i, n - i);
		if (!k)
			return i;
		i += k;
	}
	return n;
}
