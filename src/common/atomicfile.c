/* Atomic file writes (see atomicfile.h). */
#include "common/atomicfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int atomic_file_open(struct atomic_file *af, const char *path, struct as_error *err)
{
	memset(af, 0, sizeof(*af));
	if (strlen(path) >= sizeof(af->path))
		return as_error_set(err, -ENAMETOOLONG, "file name '%.64s...' is too long", path);
	strcpy(af->path, path);
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
	else if (fsync(fileno(af->fp)) != 0 && errno != EINVAL)
		e = errno;
	if (fclose(af->fp) != 0 && !e)
		e = errno ? errno : EIO;
	af->fp = NULL;
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
