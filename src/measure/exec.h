/* Why a program could not be started, in words a user can act on: execvp's errno alone says
 * "no such file" for a script whose #! interpreter is missing, and a PATH search hides which file
 * was not executable. Shared by stat (stat-run.c) and phases (series.c); it never prints. */
#ifndef ARCHSCOPE_MEASURE_EXEC_H
#define ARCHSCOPE_MEASURE_EXEC_H

#include <stddef.h>

/* The reason execvp(file) failed with errno `e`, looked at again from outside: not in PATH, no
 * such file, a directory, not executable (naming the file found in PATH), a #! interpreter that
 * is missing or not executable (naming it), a missing ELF interpreter (dynamic loader). Writes
 * "cannot run 'FILE': ..." into buf. Returns -ENOENT or -EACCES or -ENOEXEC for a program that
 * the user named wrongly (a usage error), else -e. */
int measure_exec_explain(const char *file, int e, char *buf, size_t len);

#endif
