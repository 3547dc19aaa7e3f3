/* gnuplot driver (see plot.h). */
#include "report/plot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/atomicfile.h"

int plot_dir_prepare(const char *dir, struct as_error *err)
{
	char path[4096];
	if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path))
		return as_error_set(err, -ENAMETOOLONG, "directory name too long");
	for (char *p = path + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			if (mkdir(path, 0755) != 0 && errno != EEXIST)
				return as_error_set(err, -errno, "cannot create directory '%s': %s", path, strerror(errno));
			*p = '/';
		}
	}
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		return as_error_set(err, -errno, "cannot create directory '%s': %s", path, strerror(errno));
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return as_error_set(err, -ENOTDIR, "'%s' is not a directory", path);
	/* writable? asked now, by writing, so a long run does not end with nothing saved (access()
	 * says yes to root on a read-only file system or in /proc) */
	char probe[4096 + 32];
	snprintf(probe, sizeof(probe), "%s/.archscope-XXXXXX", path);
	int fd = mkstemp(probe);
	if (fd < 0)
		return as_error_set(err, -errno, "cannot write into directory '%s': %s", path, strerror(errno));
	close(fd);
	unlink(probe);
	return 0;
}

static int have_gnuplot(void)
{
	const char *path = getenv("PATH");
	if (!path)
		return 0;
	char *copy = strdup(path), *save = NULL;
	int found = 0;
	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char exe[4096];
		snprintf(exe, sizeof(exe), "%s/gnuplot", d);
		found = access(exe, X_OK) == 0;
	}
	free(copy);
	return found;
}

int plot_render(const char *dir, const char *name, const char *body, struct as_error *err)
{
	char gp[4096], cmd[8192];
	snprintf(gp, sizeof(gp), "%s/%s.gp", dir, name);
	char *script = NULL;
	/* The script sets both terminals itself, so a user can rerun it by hand: gnuplot NAME.gp */
	if (asprintf(&script,
		     "# archscope plot; rerun with: gnuplot %s.gp (from this directory)\n"
		     "set terminal svg size 900,560 dynamic enhanced font 'sans,11'\n"
		     "set output '%s.svg'\n%s\n"
		     "set terminal pngcairo size 900,560 enhanced font 'sans,10'\n"
		     "set output '%s.png'\nreplot\nunset output\n",
		     name, name, body, name) < 0)
		return as_error_set(err, -ENOMEM, "out of memory");
	int rc = atomic_file_write(gp, script, strlen(script), err);
	free(script);
	if (rc)
		return rc;
	if (!have_gnuplot())
		return 1;
	if (strchr(dir, '\'') || strchr(name, '\''))
		return as_error_set(err, -EINVAL, "plot directory '%s' must not contain a quote", dir);
	snprintf(cmd, sizeof(cmd), "cd '%s' && gnuplot '%s.gp' 2>&1", dir, name);
	FILE *p = popen(cmd, "r");
	if (!p)
		return as_error_set(err, -errno, "cannot run gnuplot: %s", strerror(errno));
	char out[512] = "";
	size_t got = fread(out, 1, sizeof(out) - 1, p);
	out[got] = '\0';
	int st = pclose(p);
	if (st != 0 || strstr(out, "rror")) {
		out[strcspn(out, "\n")] = '\0';
		return as_error_set(err, -EIO, "gnuplot failed on '%s': %s", gp, out);
	}
	return 0;
}

FILE *plot_data_open(const char *path, struct atomic_file *af)
{
	struct as_error err = { 0 };
	if (atomic_file_open(af, path, &err) != 0) {
		errno = -err.code;
		return NULL;
	}
	return af->fp;
}

int plot_data_close(struct atomic_file *af)
{
	struct as_error err = { 0 };
	if (atomic_file_commit(af, &err) != 0) {
		errno = -err.code;
		return -1;
	}
	return 0;
}
