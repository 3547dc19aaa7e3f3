/* Kernels, machine files and metric groups by name; see paths-names.h. */
#include "common/paths-names.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/array.h"
#include "common/paths.h"

static int is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int paths_named_dirs(const char *kind, char dirs[PATHS_NAMED_DIRS][4096])
{
	int n = 0;
	const char *env = getenv("ARCHSCOPE_SHARE_DIR");
	if (env && *env)
		snprintf(dirs[n++], 4096, "%.3900s/%s", env, kind);
	char exe[4096];
	if (paths_exe_dir(exe, sizeof(exe), NULL) == 0) {
		snprintf(dirs[n++], 4096, "%.3900s/%s/%s", exe, paths_rel_datadir(), kind);
		snprintf(dirs[n++], 4096, "%.3900s/../%s", exe, kind);
		if (n < PATHS_NAMED_DIRS)
			snprintf(dirs[n++], 4096, "%.3900s/../share/%s", exe, kind);
	}
	return n;
}

static int cmp_named(const void *a, const void *b)
{
	return strcmp(((const struct paths_named *)a)->name, ((const struct paths_named *)b)->name);
}

int paths_named_list(const char *kind, const char *ext, struct paths_named **out, int *n)
{
	char dirs[PATHS_NAMED_DIRS][4096];
	int nd = paths_named_dirs(kind, dirs);
	size_t cap = 0;
	size_t el = strlen(ext);
	*out = NULL;
	*n = 0;
	for (int i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *de;
		while (d && (de = readdir(d))) {
			size_t l = strlen(de->d_name);
			if (de->d_name[0] == '.' || l <= el || l - el >= sizeof((*out)->name) || strcmp(de->d_name + l - el, ext))
				continue;
			char name[256];
			snprintf(name, sizeof(name), "%.*s", (int)(l - el), de->d_name);
			int dup = 0;
			for (int k = 0; k < *n && !dup; k++)
				dup = !strcmp((*out)[k].name, name);
			if (dup)
				continue;
			struct paths_named *nn = array_grow(*out, &cap, (size_t)*n, sizeof(**out), 32);
			if (!nn) {
				closedir(d);
				free(*out);
				*out = NULL;
				*n = 0;
				return -ENOMEM;
			}
			*out = nn;
			struct paths_named *p = &(*out)[(*n)++];
			snprintf(p->name, sizeof(p->name), "%s", name);
			snprintf(p->path, sizeof(p->path), "%.3800s/%s", dirs[i], de->d_name);
			if (!is_file(p->path))
				(*n)--;
		}
		if (d)
			closedir(d);
	}
	if (*n)
		qsort(*out, (size_t)*n, sizeof(**out), cmp_named);
	return 0;
}

int paths_resolve_named(const char *kind, const char *ext, const char *arg, char *buf, size_t len, struct as_error *err)
{
	if (!strcmp(arg, "-") || strchr(arg, '/') || is_file(arg)) {
		if ((size_t)snprintf(buf, len, "%s", arg) >= len)
			return as_error_set(err, -ENAMETOOLONG, "the path '%.64s...' is too long", arg);
		return 0;
	}
	if (!arg[0] || arg[0] == '.')
		return as_error_set(err, -EINVAL, "'%s' is neither a file nor a name of archscope's %s", arg, kind);
	char dirs[PATHS_NAMED_DIRS][4096];
	int nd = paths_named_dirs(kind, dirs);
	size_t al = strlen(arg), el = strlen(ext);
	int has_ext = al > el && !strcmp(arg + al - el, ext);
	for (int i = 0; i < nd; i++)
		for (int e = 0; e < 2; e++) {
			if (e && has_ext)
				continue;
			if ((size_t)snprintf(buf, len, "%s/%s%s", dirs[i], arg, e ? ext : "") >= len)
				continue;
			if (is_file(buf))
				return 0;
		}
	char known[1024] = "", where[4200] = "";
	struct paths_named *l;
	int n = 0;
	size_t used = 0;
	if (paths_named_list(kind, ext, &l, &n) == 0) {
		for (int k = 0; k < n && used + strlen(l[k].name) + 8 < sizeof(known); k++)
			used += (size_t)snprintf(known + used, sizeof(known) - used, "%s%s", k ? ", " : "", l[k].name);
		free(l);
	}
	used = 0;
	for (int i = 0; i < nd && used + 16 < sizeof(where); i++)
		used += (size_t)snprintf(where + used, sizeof(where) - used, "%s%s", i ? ", " : "", dirs[i]);
	buf[0] = 0;
	return as_error_set(err, -ENOENT, "no file '%s' here, and no %s named '%s' in %s (there are: %s)", arg, kind, arg,
			    where[0] ? where : "no directory", known[0] ? known : "none");
}
