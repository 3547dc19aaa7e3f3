/* Results are written atomically: to a temporary file beside the target, then renamed over it,
 * so a crash or Ctrl-C never leaves a half-written machine file or CSV. The target must be a
 * regular file or absent: a symbolic link, a device, a FIFO or a directory is never replaced
 * (atomic_file_open_mode with AF_FORCE writes through them). Inputs are read with a size cap and
 * only from regular files (or "-", standard input). */
#ifndef ARCHSCOPE_COMMON_ATOMICFILE_H
#define ARCHSCOPE_COMMON_ATOMICFILE_H

#include <stdio.h>

#include "common/error.h"

struct atomic_file {
	FILE *fp;
	int direct;        /* AF_FORCE on a device or FIFO: written in place, no rename */
	char path[4096];
	char tmp[4096 + 16];
};

/* Opens a temporary file beside path; fails (-EEXIST, message naming what path is) when path is
 * a symbolic link or exists and is not a regular file. */
int atomic_file_open(struct atomic_file *af, const char *path, struct as_error *err);
enum { AF_FORCE = 1 };
/* atomic_file_open; with AF_FORCE a symbolic link's target is replaced atomically, and a
 * device or FIFO is written in place (what `--force` asks for). */
int atomic_file_open_mode(struct atomic_file *af, const char *path, int flags, struct as_error *err);
/* 0 when path may be replaced by a written file (absent, or a regular file that is no symbolic
 * link); else -EEXIST and a message "'PATH' is a FIFO: not replaced (--force writes into it)". */
int atomic_file_target_check(const char *path, struct as_error *err);
/* Flushes, syncs and renames; on any write error the target is left untouched. */
int atomic_file_commit(struct atomic_file *af, struct as_error *err);
/* Drops the temporary file. Safe after a failed commit. */
void atomic_file_abort(struct atomic_file *af);

/* The whole file, NUL-terminated (malloc; its length in *len), or NULL with errno set. For
 * files archscope wrote itself; read user input with file_read_input(). */
char *file_read_all(const char *path, size_t *len);

/* An input file for a parser: path, or standard input when path is "-". Refuses (-EINVAL) what
 * is not a regular file (a FIFO, a device such as /dev/zero, a directory; standard input may be
 * a pipe), and (-EFBIG) more than max_bytes. `what` names the input in messages ("kernel").
 * Never blocks on opening a FIFO. */
FILE *file_open_input(const char *path, const char *what, struct as_error *err);
/* file_open_input() and the whole content, NUL-terminated (malloc; length in *len), or NULL
 * with err set. */
char *file_read_input(const char *path, const char *what, size_t max_bytes, size_t *len, struct as_error *err);

/* Writes len bytes to path atomically. */
int atomic_file_write(const char *path, const void *data, size_t len, struct as_error *err);

#endif
