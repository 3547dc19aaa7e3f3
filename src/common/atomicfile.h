/* Results are written atomically: to a temporary file beside the target, then renamed over it,
 * so a crash or Ctrl-C never leaves a half-written machine file or CSV. */
#ifndef ARCHSCOPE_COMMON_ATOMICFILE_H
#define ARCHSCOPE_COMMON_ATOMICFILE_H

#include <stdio.h>

#include "common/error.h"

struct atomic_file {
	FILE *fp;
	char path[4096];
	char tmp[4096 + 16];
};

int atomic_file_open(struct atomic_file *af, const char *path, struct as_error *err);
/* Flushes, syncs and renames; on any write error the target is left untouched. */
int atomic_file_commit(struct atomic_file *af, struct as_error *err);
/* Drops the temporary file. Safe after a failed commit. */
void atomic_file_abort(struct atomic_file *af);

/* The whole file, NUL-terminated (malloc; its length in *len), or NULL with errno set. */
char *file_read_all(const char *path, size_t *len);

/* Writes len bytes to path atomically. */
int atomic_file_write(const char *path, const void *data, size_t len, struct as_error *err);

#endif
