/* Unit tests of what reads user input in src/common: the strict number parser (number.h), UTF-8
 * validity (text.h), the checked reader (atomicfile.h: file_read_input, input_lines_*), the
 * temporary directory's messages, and error messages that are cut with "…" (error.h). */
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomicfile.h"
#include "common/error.h"
#include "common/number.h"
#include "common/text.h"
#include "harness.h"

static void test_input__number_integers(void)
{
	int64_t v = -1;
	uint64_t u = 0;
	int i = 0;
	CHECK(number_parse_i64("010", 0, 100, &v) == 0 && v == 10); /* decimal: never octal 8 */
	CHECK(number_parse_i64("-42", -100, 100, &v) == 0 && v == -42);
	CHECK(number_parse_i64("+7", 0, 100, &v) == 0 && v == 7);
	CHECK(number_parse_i64("9223372036854775807", INT64_MIN, INT64_MAX, &v) == 0 && v == INT64_MAX);
	CHECK(number_parse_i64("-9223372036854775808", INT64_MIN, INT64_MAX, &v) == 0 && v == INT64_MIN);
	CHECK(number_parse_i64("9223372036854775808", INT64_MIN, INT64_MAX, &v) == -ERANGE);
	CHECK(number_parse_i64("101", 0, 100, &v) == -ERANGE);
	static const char *const bad[] = { "", "32abc", "0x10", " 5", "5 ", "1e3", "1.0", "-", "+", "--1", "１" };
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		v = 99;
		CHECK(number_parse_i64(bad[k], INT64_MIN, INT64_MAX, &v) == -EINVAL && v == 99);
	}
	CHECK(number_parse_i64(NULL, 0, 1, &v) == -EINVAL);
	CHECK(number_parse_u64("18446744073709551615", 0, UINT64_MAX, &u) == 0 && u == UINT64_MAX);
	CHECK(number_parse_u64("18446744073709551616", 0, UINT64_MAX, &u) == -ERANGE);
	CHECK(number_parse_u64("-1", 0, UINT64_MAX, &u) == -EINVAL); /* strtoull would wrap it */
	CHECK(number_parse_u64("0x10", 0, UINT64_MAX, &u) == -EINVAL);
	CHECK(number_parse_int("2147483648", INT_MIN, INT_MAX, &i) == -ERANGE);
	CHECK(number_parse_int("32", 3, 1024, &i) == 0 && i == 32);
	CHECK(!strcmp(number_why(-ERANGE), "out of range") && !strcmp(number_why(-EINVAL), "not a decimal number"));
	const char *end;
	CHECK(number_scan_i64("12:34", &v, &end) == 0 && v == 12 && *end == ':');
}

static void test_input__number_doubles(void)
{
	double d = 0;
	CHECK(number_parse_double("2.5", 0, 10, &d) == 0 && d == 2.5);
	CHECK(number_parse_double(".5", 0, 10, &d) == 0 && d == 0.5);
	CHECK(number_parse_double("5.", 0, 10, &d) == 0 && d == 5.0);
	CHECK(number_parse_double("-1e-3", -1, 1, &d) == 0 && d == -1e-3);
	CHECK(number_parse_double("1E2", 0, 1000, &d) == 0 && d == 100);
	CHECK(number_parse_double("1e999", -DBL_MAX, DBL_MAX, &d) == -ERANGE);
	CHECK(number_parse_double("1e-999", -1, 1, &d) == 0 && d == 0); /* underflow reads as 0 */
	CHECK(number_parse_double("11", 0, 10, &d) == -ERANGE);
	static const char *const bad[] = { "", "inf", "nan", "NaN", "0x1p3", "1.5e", "1e+", "2,5", " 1", "1 ", ".", "e5", "1.2.3" };
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		d = 7;
		CHECK(number_parse_double(bad[k], -DBL_MAX, DBL_MAX, &d) == -EINVAL && d == 7);
	}
	const char *end;
	CHECK(number_scan_double("2.3 GHz", &d, &end) == 0 && d == 2.3 && !strcmp(end, " GHz"));
	CHECK(number_scan_double("1e5x", &d, &end) == 0 && d == 1e5 && *end == 'x');
	CHECK(number_scan_double("2e", &d, &end) == 0 && d == 2 && *end == 'e'); /* "e" without digits is text */
	/* a long run of digits still reads */
	char longnum[400];
	memset(longnum, '1', sizeof(longnum) - 1);
	longnum[sizeof(longnum) - 1] = '\0';
	CHECK(number_parse_double(longnum, -DBL_MAX, DBL_MAX, &d) == -ERANGE);
	longnum[300] = '\0';
	CHECK(number_parse_double(longnum, -DBL_MAX, DBL_MAX, &d) == 0 && d > 1e299);
}

static void test_input__utf8(void)
{
	CHECK(text_utf8_valid("abc", 3) == 3);
	CHECK(text_utf8_valid("caf\xc3\xa9", 5) == 5);
	CHECK(text_utf8_valid("\xf0\x9f\x98\x80", 4) == 4);       /* U+1F600 */
	CHECK(text_utf8_valid("ab\xe9z", 4) == 2);                 /* Latin-1 */
	CHECK(text_utf8_valid("\xc0\xaf", 2) == 0);                /* overlong */
	CHECK(text_utf8_valid("\xe0\x80\xaf", 3) == 0);            /* overlong */
	CHECK(text_utf8_valid("\xed\xa0\x80", 3) == 0);            /* surrogate */
	CHECK(text_utf8_valid("\xf4\x90\x80\x80", 4) == 0);        /* above U+10FFFF */
	CHECK(text_utf8_valid("a\xe2\x82", 3) == 1);               /* cut */
	CHECK(text_utf8_valid("\x80", 1) == 0);                    /* stray continuation */
	CHECK(text_utf8_seq("\xc3\xa9", 2) == 2 && text_utf8_seq("\xc3", 1) == 0);
}

/* Writes len bytes to dir/name; returns the path (static). */
static const char *put(const char *dir, const char *name, const char *data, size_t len)
{
	static char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
	return path;
}

static void test_input__reader_refuses(void)
{
	char dir[] = "/tmp/archscope-u-input-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	struct as_error err = { 0 };
	size_t len = 0;
	/* a NUL byte, with its line and column */
	const char *p = put(dir, "nul.txt", "ab\ncd\0e\n", 8);
	CHECK(file_read_input(p, "curve", 1 << 20, &len, &err) == NULL && err.code == -EINVAL);
	CHECK(strstr(err.msg, "line 2: a NUL byte (column 3)") != NULL);
	/* bytes that are not UTF-8 */
	p = put(dir, "latin1.txt", "x\ncaf\xe9\n", 7);
	CHECK(file_read_input(p, "curve", 1 << 20, &len, &err) == NULL && strstr(err.msg, "line 2: byte 0xE9 (column 4) is not UTF-8"));
	/* UTF-16 with its byte-order mark */
	p = put(dir, "u16.txt", "\xff\xfe" "a\0b\0", 6);
	CHECK(file_read_input(p, "curve", 1 << 20, &len, &err) == NULL && strstr(err.msg, "is UTF-16 text"));
	/* special files: never a hang, never endless reading */
	CHECK(file_read_input("/dev/null", "matrix file", 1 << 20, &len, &err) == NULL && strstr(err.msg, "is a character device"));
	CHECK(file_read_input("/dev/zero", "matrix file", 1 << 20, &len, &err) == NULL);
	char fifo[512];
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	CHECK(mkfifo(fifo, 0600) == 0);
	struct input_lines in;
	CHECK(input_lines_open(&in, fifo, "sample file", 1 << 20, &err) == -EINVAL && strstr(err.msg, "is a FIFO"));
	CHECK(input_lines_open(&in, dir, "sample file", 1 << 20, &err) != 0 && strstr(err.msg, "is a directory"));
	/* line by line: lines numbered, the total bounded, a NUL caught on its line */
	p = put(dir, "lines.txt", "one\ntwo\nthree", 13);
	CHECK(input_lines_open(&in, p, "sample file", 1 << 20, &err) == 0);
	char *line;
	size_t n;
	CHECK(input_lines_next(&in, &line, &n, &err) == 1 && !strcmp(line, "one\n") && in.line == 1);
	CHECK(input_lines_next(&in, &line, &n, &err) == 1 && !strcmp(line, "two\n"));
	CHECK(input_lines_next(&in, &line, &n, &err) == 1 && !strcmp(line, "three") && in.line == 3);
	CHECK(input_lines_next(&in, &line, &n, &err) == 0);
	input_lines_close(&in);
	CHECK(input_lines_open(&in, p, "sample file", 10, &err) == -EFBIG && strstr(err.msg, "larger than 10 B"));
	p = put(dir, "nul2.txt", "ok\nb\0d\n", 7);
	CHECK(input_lines_open(&in, p, "sample file", 1 << 20, &err) == 0);
	CHECK(input_lines_next(&in, &line, &n, &err) == 1);
	CHECK(input_lines_next(&in, &line, &n, &err) == -EINVAL && strstr(err.msg, "line 2: a NUL byte"));
	input_lines_close(&in);
	/* standard input that is a device (< /dev/zero) is refused; one that is endless is bounded */
	int saved = dup(STDIN_FILENO), z = open("/dev/zero", O_RDONLY);
	CHECK(saved >= 0 && z >= 0 && dup2(z, STDIN_FILENO) == STDIN_FILENO);
	int refused = input_lines_open(&in, "-", "sample file", 1 << 20, &err) != 0;
	dup2(saved, STDIN_FILENO);
	close(saved);
	close(z);
	CHECK(refused && strstr(err.msg, "standard input is a character device"));
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

static void test_input__tmpdir_named(void)
{
	char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
	setenv("TMPDIR", "/nonexistent/archscope-tmp", 1);
	char out[256];
	struct as_error err = { 0 };
	CHECK(tmp_dir_make(out, sizeof(out), "archscope-u", &err) == -ENOENT);
	CHECK(strstr(err.msg, "'/nonexistent/archscope-tmp' (TMPDIR)") != NULL);
	CHECK(tmp_file_unlinked("archscope-u", &err) == -ENOENT && strstr(err.msg, "(TMPDIR)"));
	if (old) {
		setenv("TMPDIR", old, 1);
		free(old);
	} else {
		unsetenv("TMPDIR");
	}
	CHECK(tmp_dir_make(out, sizeof(out), "archscope-u", &err) == 0 && rmdir(out) == 0);
}

static void test_input__error_cut(void)
{
	static struct as_error err;
	static char path[8000];
	memset(path, 'p', sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';
	/* a path of 7999 bytes fits whole: no message is cut at 511 bytes any more */
	as_error_set(&err, -EINVAL, "cannot open '%s': no such file", path);
	CHECK(strlen(err.msg) == strlen(path) + strlen("cannot open '") + strlen("': no such file"));
	/* longer than the room: it ends in "…", not silently */
	as_error_set(&err, -EINVAL, "'%s' and '%s'", path, path);
	size_t n = strlen(err.msg);
	CHECK(n == sizeof(err.msg) - 1 && !strcmp(err.msg + n - 3, "\xe2\x80\xa6"));
	as_error_set(&err, -EINVAL, "%s", "short");
	as_error_prefix(&err, "%s: ", path);
	CHECK(strlen(err.msg) == strlen(path) + 2 + 5);
	as_error_prefix(&err, "%s: ", path);
	n = strlen(err.msg);
	CHECK(!strcmp(err.msg + n - 3, "\xe2\x80\xa6"));
	/* a cut never splits a character */
	char small[8];
	as_error_copy(small, sizeof(small), "ab\xc3\xa9\xc3\xa9xyz");
	CHECK(!strcmp(small, "ab\xe2\x80\xa6") || !strcmp(small, "ab\xc3\xa9\xe2\x80\xa6"));
	CHECK(text_utf8_valid(small, strlen(small)) == strlen(small));
	as_error_copy(small, sizeof(small), "fits");
	CHECK_STR(small, "fits");
}

TESTS(T(test_input__number_integers), T(test_input__number_doubles), T(test_input__utf8),
      T(test_input__reader_refuses), T(test_input__tmpdir_named), T(test_input__error_cut))
