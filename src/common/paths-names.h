/* Files of archscope's own found by name: kernels (model stream-triad), machine files (-m
 * kvm-xeon-6-207) and metric groups, in the installed share directory or the source tree beside
 * a build, as likwid-bench -t NAME finds its kernels. A path is taken as it is: a name never
 * shadows a file the user can see. */
#ifndef ARCHSCOPE_COMMON_PATHS_NAMES_H
#define ARCHSCOPE_COMMON_PATHS_NAMES_H

#include <stddef.h>

#include "common/error.h"

#define PATHS_NAMED_DIRS 4

/* Where files of KIND ("kernels", "machines", "groups") are looked for by name, in this order:
 * $ARCHSCOPE_SHARE_DIR/KIND (when set), the installed share/archscope/KIND relative to the
 * executable, the source tree's KIND/ and share/KIND/ beside a build directory (build/..). Fills
 * dirs (PATH_MAX each) and returns how many. */
int paths_named_dirs(const char *kind, char dirs[PATHS_NAMED_DIRS][4096]);

/* What the user typed (arg) as a file: "-" (standard input), a path with a slash, or a file by
 * that name in the current directory, as it is; else NAME or NAME.ext in the directories of
 * paths_named_dirs, the first found. 0 with the path in buf; -ENOENT with err naming where it
 * looked and the names there; -EINVAL for a name that starts with a dot. */
int paths_resolve_named(const char *kind, const char *ext, const char *arg, char *buf, size_t len, struct as_error *err);

struct paths_named {
	char name[256];       /* without ext: "stream-triad" */
	char path[4096];      /* where it is */
};

/* Every file NAME.ext of KIND, each name once (the first directory that has it), sorted by name;
 * *out malloc'd (free it). 0, or -ENOMEM. */
int paths_named_list(const char *kind, const char *ext, struct paths_named **out, int *n);

#endif
