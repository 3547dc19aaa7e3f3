/* Why a program could not be started, in words a user can act on: execvp's errno alone says
 * "no such file" for a script whose #! interpreter is missing, and a PATH search hides which file
 * was not executable. Shared by stat (stat-run.c) and phases (series.c); it never prints. */
#ifndef ARCHSCOPE_MEASURE_EXEC_H
#define ARCHSCOPE_MEASURE_EXEC_H

#include <stddef.h>
#include <sys/types.h>

/* The reason execvp(file) failed with errno `e`, looked at again from outside: not in PATH, no
 * such file, a directory, not executable (naming the file found in PATH), a #! interpreter that
 * is missing or not executable (naming it), a missing ELF interpreter (dynamic loader). Writes
 * "cannot run 'FILE': ..." into buf. Returns -ENOENT or -EACCES or -ENOEXEC for a program that
 * the user named wrongly (a usage error), else -e. */
int measure_exec_explain(const char *file, int e, char *buf, size_t len);

/* A program in a process group of its own (common/interrupt.h) is in the background of the
 * terminal archscope runs in: reading it, or setting it up (tcsetattr), would stop the program
 * (SIGTTIN, SIGTTOU) and archscope would wait for ever. measure_tty_give makes the program's group
 * the terminal's foreground when archscope holds it (a terminal on stdin, stdout or stderr);
 * returns the descriptor used, or -1 when it did nothing. Ctrl-C then reaches the program
 * directly, as from a shell: a program that died of SIGINT while it held the terminal counts as
 * interrupted. measure_tty_take gives the terminal back to archscope's group. */
int measure_tty_give(pid_t pgid);
void measure_tty_take(int fd);

#endif
