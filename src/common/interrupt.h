/* One policy for every command that runs a program (stat, regress, phases, stack, ...) when the user
 * interrupts it: the first SIGINT, SIGTERM or SIGHUP is remembered and forwarded to the measured
 * program's process group, and the command waits for the program, reports the runs it completed (the
 * cut run never enters the statistics), marks the result interrupted and exits 130; a second signal
 * kills the group, removes the registered temporary files and ends archscope at once with 130.
 * Commands that measure in archscope itself (bench, probe, tune, numa) follow the same policy: the
 * first signal stops the measuring (interrupt_flag), a second ends archscope at once. */
#ifndef ARCHSCOPE_COMMON_INTERRUPT_H
#define ARCHSCOPE_COMMON_INTERRUPT_H

#include <spawn.h>
#include <sys/types.h>

/* Installs the handlers for SIGINT, SIGTERM and SIGHUP (idempotent). */
void interrupt_install(void);

/* Puts the handlers' dispositions back as they were before interrupt_install. */
void interrupt_restore(void);

/* In the child between fork and exec: its own process group (so that a signal to the group reaches
 * every process the program starts) and the default dispositions for the three signals. */
void interrupt_child_setup(void);
/* The same for posix_spawn: its own process group, those signals back to their defaults. */
int interrupt_child_attr(posix_spawnattr_t *at);

/* From now on the first signal is forwarded to process group `pgid` (0: to nobody). Call it in the
 * parent right after fork (it also does setpgid(pgid, pgid), against the race with the child). A
 * signal that arrived before the call is forwarded at once. */
void interrupt_watch(pid_t pgid);

/* 0, or the first signal received since interrupt_install (or interrupt_reset). */
int interrupt_signal(void);

/* The same as a flag that measuring loops poll (`stop`: nonzero once the first signal arrived),
 * for the commands that measure in archscope itself rather than run a program (bench, probe,
 * tune, numa): they stop measuring, print what was measured, marked interrupted, and exit 130.
 * Only read through it. */
volatile int *interrupt_flag(void);

/* Forgets a received signal (for tests). */
void interrupt_reset(void);

/* A directory whose files (not subdirectories) and which itself are removed if a second signal ends
 * archscope at once (NULL: none). The string must stay valid; the command removes it itself on
 * every other path. */
void interrupt_cleanup_dir(const char *dir);
/* The same for two directories (either NULL). */
void interrupt_cleanup_dirs(const char *dir, const char *dir2);

/* The exit status of a command that was interrupted: 130. */
#define INTERRUPT_EXIT 130

#endif
