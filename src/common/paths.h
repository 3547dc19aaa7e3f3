/* Where archscope's own files are found at run time: relative to the running executable
 * (/proc/self/exe), so a build tree works in place and an installed tree works wherever its prefix
 * is (or is copied to); no absolute build-tree or install path is compiled in. The installed layout
 * is GNUInstallDirs' (bin/, lib/archscope/, share/archscope/), its relative paths given by the build
 * (cmake/install.cmake). */
#ifndef ARCHSCOPE_COMMON_PATHS_H
#define ARCHSCOPE_COMMON_PATHS_H

#include <stddef.h>

#include "common/error.h"

/* The directory of the running executable (no trailing slash). 0, or -ENOENT with err set. */
int paths_exe_dir(char *buf, size_t len, struct as_error *err);

/* A private library of archscope's (the preload library of `stack`): $env_name when set (it must
 * be readable), else NAME beside the executable (a build tree), else NAME in the installed library
 * directory relative to it (bin/../lib/archscope). 0 with the path in buf, or -ENOENT with err
 * naming every place it looked. */
int paths_find_lib(const char *name, const char *env_name, char *buf, size_t len, struct as_error *err);

/* A data directory or file under share/ (NAME "groups", "kernels", "machines"): $ARCHSCOPE_SHARE_DIR/NAME
 * when that variable is set, else the installed share/archscope/NAME relative to the executable,
 * else share/NAME of the source tree beside a build directory (build/../share/NAME). 0 with the path
 * in buf, or -ENOENT with the installed candidate in buf and err naming the places tried. */
int paths_find_data(const char *name, char *buf, size_t len, struct as_error *err);

/* The installed relative paths this build uses ("../lib/archscope", "../share/archscope"), for
 * messages and tests. */
const char *paths_rel_libdir(void);
const char *paths_rel_datadir(void);

#endif
