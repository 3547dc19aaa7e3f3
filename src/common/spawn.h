/* Running another program (the compiler, llvm-mca, a benchmark) with its output in files, a time
 * limit, and optionally pinned to one CPU. */
#ifndef ARCHSCOPE_COMMON_SPAWN_H
#define ARCHSCOPE_COMMON_SPAWN_H

#include <sys/types.h>
#include "common/error.h"

struct spawn_result {
	int exited;   /* 1 when the program exited (code in status), 0 when a signal ended it */
	int status;   /* exit code, or the signal */
	int timed_out;
	double seconds;
	int stops;       /* times the program stopped itself (with hooks) */
	int hook_status; /* the first nonzero return of on_stop */
};

/* A wait status as the results keep it: *exited 1 and the exit code, or 0 and the signal that
 * ended the program (-1: neither, a stopped child). */
void spawn_status(int wstatus, int *exited, int *status);

/* Runs argv[0] (looked up in PATH) with stdout to out_path and stderr to err_path (NULL: /dev/null),
 * killed after timeout_s seconds (0: no limit), on CPU `cpu` when cpu >= 0. 0 when the program ran
 * (whatever it returned: see r), -ENOENT when it is not there, another -errno on failure. */
int spawn_run(char *const argv[], const char *out_path, const char *err_path, double timeout_s, int cpu,
	      struct spawn_result *r, struct as_error *err);

/* A program that stops itself (raise(SIGSTOP)) hands control back: on_stop runs with the child
 * stopped (nth = 0, 1, ... in order), then the child continues. A nonzero return from on_stop is
 * kept in spawn_result.hook_status and does not end the run. */
struct spawn_hooks {
	int (*on_stop)(void *ctx, int pid, int nth);
	void *ctx;
};

/* spawn_run with hooks (NULL: the same as spawn_run). */
int spawn_run_hooked(char *const argv[], const char *out_path, const char *err_path, double timeout_s, int cpu,
		     const struct spawn_hooks *hooks, struct spawn_result *r, struct as_error *err);

/* Starts argv (PATH searched) with posix_spawn, which does not copy archscope's page tables as
 * fork does (0.24 ms more at 10 MiB, 1.2 ms at 50 MiB): stdin from /dev/null, stdout to out_path
 * and stderr to err_path as spawn_child_stdio, in its own process group with the interrupt
 * signals at their defaults (interrupt_child_attr). A file the kernel will not run (a script
 * without "#!") runs under /bin/sh, as execvp runs it. 0 with *pid, or a positive errno (the
 * program did not start: not found, not executable, an output file that does not open). */
int spawn_start(char *const argv[], const char *out_path, const char *err_path, pid_t *pid);

/* 1 when `name` is an executable in PATH (or a path to one). */
int spawn_have(const char *name);
/* Why spawn_have(name) said no, for a message: "is not an executable file" for a name with a
 * slash, else "is not installed (not found in PATH)". */
const char *spawn_missing_why(const char *name);

/* The first lines of a file, for an error message ("" when unreadable). */
void spawn_head(const char *path, char *buf, size_t len);

#endif
