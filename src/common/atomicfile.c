/* Atomic file writes (see atomicfile.h). */
#include "common/atomicfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/buffer.h"

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

int atomic_file_target_check(const char *path, struct as_error *err)
{
	struct stat st;
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
		if (n + 65536 + 1 > cap) {
			cap = cap ? cap * 2 : 65536 * 2;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
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
		if (fstat(STDIN_FILENO, &st) == 0 && S_ISDIR(st.st_mode)) {
			as_error_set(err, -EISDIR, "%s: standard input is a directory", what);
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
		if (n + 65536 + 1 > cap) {
			size_t ncap = cap ? cap * 2 : 65536 * 2;
			char *nb = realloc(buf, ncap);
			if (!nb) {
				rc = as_error_set(err, -ENOMEM, "%s '%s': out of memory", what, name);
				goto out;
			}
			buf = nb;
			cap = ncap;
		}
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
