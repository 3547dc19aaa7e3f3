/* Atomic file writes (see atomicfile.h). */
#include "common/atomicfile.h"
#include "common/array.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/buffer.h"
#include "common/text.h"

/* What a file that is not a regular one is, for messages. */
static const char *kind_of(mode_t m)
{
	if (S_ISLNK(m))
		return "a symbolic link";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

const char *file_kind(unsigned mode)
{
	return kind_of((mode_t)mode);
}

int atomic_file_target_check(const char *path, struct as_error *err)
{
	struct stat st;
	if (!*path) /* else a temporary ".tmpXXXXXX" is made here and only the rename fails, at the end */
		return as_error_set(err, -EINVAL, "an empty file name ('') for the output: give a file name");
	if (lstat(path, &st) != 0 || S_ISREG(st.st_mode))
		return 0;
	if (S_ISDIR(st.st_mode))
		return as_error_set(err, -EISDIR, "'%s' is a directory: give a file name", path);
	return as_error_set(err, -EEXIST, "'%s' is %s: not replaced (--force writes %s)", path, kind_of(st.st_mode),
			    S_ISLNK(st.st_mode) ? "to the file it names" : "into it");
}

int atomic_file_open(struct atomic_file *af, const char *path, struct as_error *err)
{
	return atomic_file_open_mode(af, path, 0, err);
}

int atomic_file_open_mode(struct atomic_file *af, const char *path, int flags, struct as_error *err)
{
	memset(af, 0, sizeof(*af));
	if (strlen(path) >= sizeof(af->path))
		return as_error_set(err, -ENAMETOOLONG, "file name '%.64s...' is too long", path);
	strcpy(af->path, path);
	int rc = atomic_file_target_check(path, err);
	if (rc == -EEXIST && (flags & AF_FORCE)) {
		struct stat st;
		if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) { /* the link stays; its target is replaced */
			char *real = realpath(path, NULL);
			if (!real || strlen(real) >= sizeof(af->path)) {
				free(real);
				return as_error_set(err, -ENOENT, "'%s' is a symbolic link to nothing that exists", path);
			}
			strcpy(af->path, real);
			free(real);
			rc = atomic_file_target_check(af->path, err);
		}
		if (rc == -EEXIST) { /* a device or FIFO: written in place */
			if (!(af->fp = fopen(af->path, "w"))) {
				int e = errno;
				return as_error_set(err, -e, "cannot open '%s': %s", path, strerror(e));
			}
			af->direct = 1;
			return 0;
		}
	}
	if (rc)
		return rc;
	snprintf(af->tmp, sizeof(af->tmp), "%s.tmpXXXXXX", path);
	int fd = mkstemp(af->tmp);
	if (fd < 0) {
		int e = errno;
		af->tmp[0] = '\0';
		return as_error_set(err, -e, "cannot create '%s': %s", path, strerror(e));
	}
	fchmod(fd, 0644);
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		int e = errno;
		close(fd);
		unlink(af->tmp);
		return as_error_set(err, -e, "cannot open '%s': %s", path, strerror(e));
	}
	return 0;
}

int atomic_file_commit(struct atomic_file *af, struct as_error *err)
{
	int e = 0;
	if (fflush(af->fp) != 0 || ferror(af->fp))
		e = errno ? errno : EIO;
	else if (af->direct)
		;
	else if (fsync(fileno(af->fp)) != 0 && errno != EINVAL)
		e = errno;
	if (fclose(af->fp) != 0 && !e)
		e = errno ? errno : EIO;
	af->fp = NULL;
	if (af->direct)
		return e ? as_error_set(err, -e, "cannot write '%s': %s", af->path, strerror(e)) : 0;
	if (!e && rename(af->tmp, af->path) != 0)
		e = errno;
	if (e) {
		unlink(af->tmp);
		af->tmp[0] = '\0';
		return as_error_set(err, -e, "cannot write '%s': %s", af->path, strerror(e));
	}
	af->tmp[0] = '\0';
	return 0;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->fp)
		fclose(af->fp);
	af->fp = NULL;
	if (af->tmp[0])
		unlink(af->tmp);
	af->tmp[0] = '\0';
}

int atomic_file_write(const char *path, const void *data, size_t len, struct as_error *err)
{
	struct atomic_file af;
	int rc = atomic_file_open(&af, path, err);
	if (rc)
		return rc;
	if (len && fwrite(data, 1, len, af.fp) != len) {
		int e = errno ? errno : EIO;
		atomic_file_abort(&af);
		return as_error_set(err, -e, "cannot write '%s': %s", path, strerror(e));
	}
	return atomic_file_commit(&af, err);
}

char *file_read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		char *nb = array_grow(buf, &cap, n + 65536, 1, 65536 * 2); /* 64 KiB to read and the NUL */
		if (!nb) {
			free(buf);
			fclose(f);
			errno = ENOMEM;
			return NULL;
		}
		buf = nb;
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		errno = EIO;
		return NULL;
	}
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

FILE *file_open_input(const char *path, const char *what, struct as_error *err)
{
	struct stat st;
	if (!strcmp(path, "-")) {
		if (fstat(STDIN_FILENO, &st) == 0 && (S_ISDIR(st.st_mode) || ((S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) &&
									   !isatty(STDIN_FILENO)))) {
			as_error_set(err, S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL,
				     "%s '-': standard input is %s: give a regular file or a pipe", what, kind_of(st.st_mode));
			return NULL;
		}
		return stdin;
	}
	/* stat first: opening a device can have effects; O_NONBLOCK: opening a FIFO never waits */
	int fd = -1;
	if (stat(path, &st) != 0 || (S_ISREG(st.st_mode) && (fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)) {
		char b[128];
		int e = errno;
		as_error_set(err, -e, "cannot open %s '%s': %s", what, path, as_strerror(e, b, sizeof(b)));
		return NULL;
	}
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		as_error_set(err, -EINVAL, "%s '%s' is %s: give a regular file (or '-' for standard input)", what, path,
			     kind_of(st.st_mode));
		return NULL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		int e = errno;
		close(fd);
		as_error_set(err, -e, "cannot open %s '%s': %s", what, path, strerror(e));
	}
	return f;
}

char *file_read_input(const char *path, const char *what, size_t max_bytes, size_t *len, struct as_error *err)
{
	FILE *f = file_open_input(path, what, err);
	if (!f)
		return NULL;
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	char lim[32];
	buffer_format_size(max_bytes, lim, sizeof(lim));
	struct stat st;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size > max_bytes) {
		rc = as_error_set(err, -EFBIG, "%s '%s' is larger than %s (the limit)", what, name, lim);
		goto out;
	}
	for (;;) {
		char *nb = array_grow(buf, &cap, n + 65536, 1, 65536 * 2); /* 64 KiB to read and the NUL */
		if (!nb) {
			rc = as_error_set(err, -ENOMEM, "%s '%s': out of memory", what, name);
			goto out;
		}
		buf = nb;
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (n > max_bytes) {
			rc = as_error_set(err, -EFBIG, "%s '%s' is larger than %s (the limit)", what, name, lim);
			goto out;
		}
		if (r == 0)
			break;
	}
	if (ferror(f))
		rc = as_error_set(err, -EIO, "cannot read %s '%s': %s", what, name, strerror(errno ? errno : EIO));
	else
		rc = file_text_check(buf, n, what, name, 1, err);
out:
	if (f != stdin)
		fclose(f);
	if (rc) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

int file_text_check(const char *text, size_t len, const char *what, const char *name, long first_line,
		    struct as_error *err)
{
	const unsigned char *u = (const unsigned char *)text;
	if (first_line == 1 && len >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF)))
		return as_error_set(err, -EINVAL, "%s '%s' is UTF-%s text: give it as UTF-8 (iconv -f UTF-%s -t UTF-8)", what,
				    name, len >= 4 && !u[2] && !u[3] ? "32" : "16", len >= 4 && !u[2] && !u[3] ? "32" : "16");
	long line = first_line;
	size_t col0 = 0;
	for (size_t i = 0; i < len;) {
		unsigned char c = u[i];
		if (c == '\n') {
			line++;
			col0 = ++i;
			continue;
		}
		if (c == 0)
			return as_error_set(err, -EINVAL, "%s '%s': line %ld: a NUL byte (column %zu): a binary file, not text", what,
					    name, line, i - col0 + 1);
		if (c < 0x80) {
			i++;
			continue;
		}
		size_t k = text_utf8_seq(text + i, len - i);
		if (!k)
			return as_error_set(err, -EINVAL, "%s '%s': line %ld: byte 0x%02X (column %zu) is not UTF-8: give the "
					    "file as UTF-8 text", what, name, line, c, i - col0 + 1);
		i += k;
	}
	return 0;
}

int input_lines_open(struct input_lines *in, const char *path, const char *what, size_t max_bytes,
		     struct as_error *err)
{
	memset(in, 0, sizeof(*in));
	in->what = what;
	in->name = strcmp(path, "-") ? path : "<stdin>";
	in->max_bytes = max_bytes;
	in->f = file_open_input(path, what, err);
	if (!in->f)
		return err && err->code ? err->code : -EINVAL;
	struct stat st;
	if (fstat(fileno(in->f), &st) == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size > max_bytes) {
		char lim[32];
		int rc = as_error_set(err, -EFBIG, "%s '%s' is larger than %s (the limit)", what, in->name,
				      buffer_format_size(max_bytes, lim, sizeof(lim)));
		input_lines_close(in);
		return rc;
	}
	return 0;
}

int input_lines_next(struct input_lines *in, char **line, size_t *len, struct as_error *err)
{
	/* getline() would read an endless line (/dev/zero on standard input) until memory runs out:
	 * this reads at most what is left of max_bytes */
	size_t got = 0;
	int c = EOF;
	errno = 0;
	while (in->bytes + got <= in->max_bytes && (c = getc_unlocked(in->f)) != EOF) {
		if (c == 0) /* said at once: a stream of NUL bytes has no line end to wait for */
			return as_error_set(err, -EINVAL, "%s '%s': line %ld: a NUL byte (column %zu): a binary file, not text",
					    in->what, in->name, in->line + 1, got + 1);
		if (got >= INPUT_MAX_LINE)
			return as_error_set(err, -EINVAL, "%s '%s': line %ld is longer than %d bytes: not a text file of lines",
					    in->what, in->name, in->line + 1, INPUT_MAX_LINE);
		char *nb = array_grow(in->buf, &in->cap, got + 1, 1, 256); /* the character and the NUL */
		if (!nb)
			return as_error_set(err, -ENOMEM, "%s '%s': out of memory", in->what, in->name);
		in->buf = nb;
		in->buf[got++] = (char)c;
		if (c == '\n')
			break;
	}
	if (c == EOF && ferror(in->f)) {
		char b[96];
		return as_error_set(err, -EIO, "cannot read %s '%s': %s", in->what, in->name,
				    as_strerror(errno ? errno : EIO, b, sizeof(b)));
	}
	in->bytes += got;
	if (in->bytes > in->max_bytes) {
		char lim[32];
		return as_error_set(err, -EFBIG, "%s '%s' is larger than %s (the limit)", in->what, in->name,
				    buffer_format_size(in->max_bytes, lim, sizeof(lim)));
	}
	if (!got)
		return 0;
	in->buf[got] = '\0';
	in->line++;
	int rc = file_text_check(in->buf, got, in->what, in->name, in->line, err);
	if (rc)
		return rc;
	*line = in->buf;
	*len = got;
	return 1;
}

void input_lines_close(struct input_lines *in)
{
	if (in->f && in->f != stdin)
		fclose(in->f);
	in->f = NULL;
	free(in->buf);
	in->buf = NULL;
	in->cap = 0;
}

const char *tmp_dir(void)
{
	const char *t = getenv("TMPDIR");
	return t && *t ? t : "/tmp";
}

/* "'/x' (TMPDIR)" or "'/tmp'", for messages. */
static const char *tmp_dir_named(char *buf, size_t len)
{
	const char *t = getenv("TMPDIR");
	snprintf(buf, len, "'%s'%s", tmp_dir(), t && *t ? " (TMPDIR)" : "");
	return buf;
}

int tmp_dir_make(char *out, size_t len, const char *prefix, struct as_error *err)
{
	char named[4200], b[96];
	if (snprintf(out, len, "%s/%s.XXXXXX", tmp_dir(), prefix) >= (int)len) {
		out[0] = '\0';
		return as_error_set(err, -ENAMETOOLONG, "cannot make a temporary directory in %s: the name is too long",
				    tmp_dir_named(named, sizeof(named)));
	}
	if (!mkdtemp(out)) {
		int e = errno;
		out[0] = '\0';
		return as_error_set(err, -e, "cannot make a temporary directory in %s: %s", tmp_dir_named(named, sizeof(named)),
				    as_strerror(e, b, sizeof(b)));
	}
	return 0;
}

int tmp_file_unlinked(const char *prefix, struct as_error *err)
{
	char path[4200], named[4200], b[96];
	if (snprintf(path, sizeof(path), "%s/%s-XXXXXX", tmp_dir(), prefix) >= (int)sizeof(path))
		return as_error_set(err, -ENAMETOOLONG, "cannot make a temporary file in %s: the name is too long",
				    tmp_dir_named(named, sizeof(named)));
	int fd = mkstemp(path);
	if (fd < 0) {
		int e = errno;
		return as_error_set(err, -e, "cannot make a temporary file in %s: %s", tmp_dir_named(named, sizeof(named)),
				    as_strerror(e, b, sizeof(b)));
	}
	unlink(path);
	return fd;
}
