/* Numbers written by people (options, machine files, CSV, recorded files), read by one strict
 * parser: decimal only (no octal "010", no hex "0x10", no "inf" or "nan"), the whole text and
 * nothing after it ("32abc" is no number), no space around it, within the caller's bounds. */
#ifndef ARCHSCOPE_COMMON_NUMBER_H
#define ARCHSCOPE_COMMON_NUMBER_H

#include <stdint.h>

/* Each returns 0 with *out set; -EINVAL when text is not a decimal number of that kind, -ERANGE
 * when it is one but lies outside [min, max] (or outside the type). *out is left alone on error. */
int number_parse_i64(const char *text, int64_t min, int64_t max, int64_t *out);
/* No sign: "-1" is -EINVAL (strtoull would wrap it). */
int number_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out);
/* [-+]digits[.digits][e[-+]digits] (".5" and "5." too); a result beyond double is -ERANGE, one
 * that underflows reads as the nearest double (0 or a subnormal). */
int number_parse_double(const char *text, double min, double max, double *out);
/* int in [min, max]: number_parse_i64 for int targets. */
int number_parse_int(const char *text, int min, int max, int *out);

/* The number at the start of text (no space before it) with the grammar above; *end points after
 * it, so a caller reads a unit or a separator next ("2.3 GHz", "1,2"). 0, -EINVAL (no number
 * there), -ERANGE (beyond double). */
int number_scan_double(const char *text, double *out, const char **end);
/* The same for an integer: [-+]digits (unsigned callers check the sign themselves). */
int number_scan_i64(const char *text, int64_t *out, const char **end);

/* "not a decimal number" (-EINVAL) or "out of range" (-ERANGE), for messages. */
const char *number_why(int rc);

#endif
