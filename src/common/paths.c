/* Run-time lookup of archscope's own files relative to the executable (see paths.h). */
#include "common/paths.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Set by the build (cmake/install.cmake) from GNUInstallDirs: the installed private library and
 * data directories relative to the installed executable's directory. */
#ifndef ARCHSCOPE_REL_PKGLIBDIR
#define ARCHSCOPE_REL_PKGLIBDIR "../lib/archscope"
#endif
#ifndef ARCHSCOPE_REL_PKGDATADIR
#define ARCHSCOPE_REL_PKGDATADIR "../share/archscope"
#endif

const char *paths_rel_libdir(void)
{
	return ARCHSCOPE_REL_PKGLIBDIR;
}

const char *paths_rel_datadir(void)
{
	return ARCHSCOPE_REL_PKGDATADIR;
}

int paths_exe_dir(char *buf, size_t len, struct as_error *err)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return as_error_set(err, -ENOENT, "cannot read /proc/self/exe to find archscope's own files");
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (slash && slash != exe)
		*slash = 0;
	else if (slash)
		slash[1] = 0;
	if ((size_t)snprintf(buf, len, "%s", exe) >= len)
		return as_error_set(err, -ENAMETOOLONG, "the executable's directory '%s' is too long", exe);
	return 0;
}

/* Joins dir/rel/name into buf; 0, or -ENAMETOOLONG. */
static int join(char *buf, size_t len, const char *dir, const char *rel, const char *name)
{
	int n = rel && *rel ? snprintf(buf, len, "%s/%s/%s", dir, rel, name) : snprintf(buf, len, "%s/%s", dir, name);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int paths_find_lib(const char *name, const char *env_name, char *buf, size_t len, struct as_error *err)
{
	const char *env = env_name ? getenv(env_name) : NULL;
	if (env && *env) {
		if (access(env, R_OK) != 0)
			return as_error_set(err, -ENOENT, "$%s names '%s', which cannot be read", env_name, env);
		if ((size_t)snprintf(buf, len, "%s", env) >= len)
			return as_error_set(err, -ENAMETOOLONG, "$%s is too long", env_name);
		return 0;
	}
	char dir[PATH_MAX], beside[PATH_MAX], installed[PATH_MAX];
	int rc = paths_exe_dir(dir, sizeof(dir), err);
	if (rc)
		return rc;
	if (join(beside, sizeof(beside), dir, NULL, name) == 0 && access(beside, R_OK) == 0)
		return snprintf(buf, len, "%s", beside) < (int)len ? 0 : as_error_set(err, -ENAMETOOLONG, "path too long");
	if (join(installed, sizeof(installed), dir, ARCHSCOPE_REL_PKGLIBDIR, name) == 0 && access(installed, R_OK) == 0)
		return snprintf(buf, len, "%s", installed) < (int)len ? 0 : as_error_set(err, -ENAMETOOLONG, "path too long");
	if (env_name)
		return as_error_set(err, -ENOENT, "no %s beside archscope ('%s') or where it is installed ('%s'); build it or set $%s",
				    name, beside, installed, env_name);
	return as_error_set(err, -ENOENT, "no %s beside archscope ('%s') or where it is installed ('%s')", name, beside,
			    installed);
}

static int is_there(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

int paths_find_data(const char *name, char *buf, size_t len, struct as_error *err)
{
	const char *env = getenv("ARCHSCOPE_SHARE_DIR");
	if (env && *env) {
		if (join(buf, len, env, NULL, name) != 0)
			return as_error_set(err, -ENAMETOOLONG, "$ARCHSCOPE_SHARE_DIR is too long");
		return is_there(buf) ? 0 : as_error_set(err, -ENOENT, "no '%s' ($ARCHSCOPE_SHARE_DIR)", buf);
	}
	char dir[PATH_MAX], installed[PATH_MAX], source[PATH_MAX];
	int rc = paths_exe_dir(dir, sizeof(dir), err);
	if (rc) {
		snprintf(buf, len, "share/archscope/%s", name);
		return rc;
	}
	int have_installed = join(installed, sizeof(installed), dir, ARCHSCOPE_REL_PKGDATADIR, name) == 0;
	if (have_installed && is_there(installed))
		return snprintf(buf, len, "%s", installed) < (int)len ? 0 : as_error_set(err, -ENAMETOOLONG, "path too long");
	if (join(source, sizeof(source), dir, "../share", name) == 0 && is_there(source))
		return snprintf(buf, len, "%s", source) < (int)len ? 0 : as_error_set(err, -ENAMETOOLONG, "path too long");
	snprintf(buf, len, "%s", have_installed ? installed : source);
	return as_error_set(err, -ENOENT, "no '%s' where archscope is installed ('%s') or in its source tree ('%s')",
			    name, installed, source);
}
