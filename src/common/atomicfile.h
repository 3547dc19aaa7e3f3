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
 * link); else -EEXIST and a message "'PATH' is a FIFO: not replaced (--force writes into it)",
 * -EISDIR for a directory, -EINVAL for an empty name. */
int atomic_file_target_check(const char *path, struct as_error *err);
/* Flushes, syncs and renames; on any write error the target is left untouched. */
int atomic_file_commit(struct atomic_file *af, struct as_error *err);
/* Drops the temporary file. Safe after a failed commit. */
void atomic_file_abort(struct atomic_file *af);

/* The whole file, NUL-terminated (malloc; its length in *len), or NULL with errno set. For
 * files archscope wrote itself; read user input with file_read_input(). */
char *file_read_all(const char *path, size_t *len);

/* The one checked reader of user input. Every file a command reads from a user goes through
 * file_read_input() (whole) or input_lines_*() (line by line): path, or standard input when
 * path is "-"; only a regular file (a FIFO, a device such as /dev/zero or /dev/null, a directory
 * or a socket is refused, -EINVAL, without blocking; standard input may be a pipe); at most
 * max_bytes (-EFBIG); text only (-EINVAL on a NUL byte or bytes that are not UTF-8, naming the
 * line). `what` names the input in messages ("kernel", "curve", "matrix file"). */
FILE *file_open_input(const char *path, const char *what, struct as_error *err);
/* The whole checked content, NUL-terminated (malloc; length in *len), or NULL with err set. */
char *file_read_input(const char *path, const char *what, size_t max_bytes, size_t *len, struct as_error *err);
/* 0 when text[0..len) is text (no NUL byte, valid UTF-8), else -EINVAL with a message naming
 * WHAT 'NAME', the line (counted from first_line) and what is wrong; a UTF-16 or UTF-32
 * byte-order mark is named as such. */
int file_text_check(const char *text, size_t len, const char *what, const char *name, long first_line,
		    struct as_error *err);

/* What a file of st_mode mode that is not a regular file is, for messages ("a FIFO", "a
 * directory", "a character device", ...). */
const char *file_kind(unsigned mode);

/* Line by line, with the same checks on each line and on the running total; a line may be at most
 * INPUT_MAX_LINE bytes long. */
#define INPUT_MAX_LINE (1 << 20)
struct input_lines {
	FILE *f;
	const char *what;
	const char *name;     /* path, or "<stdin>" */
	size_t max_bytes, bytes;
	long line;            /* the number of the line last returned, from 1 */
	char *buf;
	size_t cap;
};
int input_lines_open(struct input_lines *in, const char *path, const char *what, size_t max_bytes,
		     struct as_error *err);
/* 1 with the next line in *line (NUL-terminated, its newline kept) and its length in *len; 0 at
 * the end; a negative errno with err set (a NUL byte, not UTF-8, over max_bytes, a read error). */
int input_lines_next(struct input_lines *in, char **line, size_t *len, struct as_error *err);
void input_lines_close(struct input_lines *in);

/* Temporary files and directories go into $TMPDIR when it is set and not empty, else /tmp. */
const char *tmp_dir(void);
/* Makes DIR/PREFIX.XXXXXX (mkdtemp) into out[len]; on failure a message naming the directory and
 * where it came from ("cannot make a temporary directory in '/x' (TMPDIR): no such file or
 * directory"). */
int tmp_dir_make(char *out, size_t len, const char *prefix, struct as_error *err);
/* An open, already unlinked temporary file (fd) in tmp_dir(), or a negative errno with err set
 * as tmp_dir_make's. */
int tmp_file_unlinked(const char *prefix, struct as_error *err);

/* Writes len bytes to path atomically. */
int atomic_file_write(const char *path, const void *data, size_t len, struct as_error *err);

#endif
