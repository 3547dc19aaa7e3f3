/* Process trees and event waits: a parent waiting for its children (wait*, system, pclose) and a
 * thread waiting for an event (poll, select, epoll_wait, sigsuspend ...) are timed, so that the
 * stack counts neither as a delimiter of its own (the work is elsewhere: in the children, in the
 * thread that sends the event); every process image writes its record when it ends, including
 * through _exit and exec, and an exec keeps the library in the environment of the new image. Each
 * wrapper passes its arguments through and returns the real function's result and errno. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scale/preload/preload.h"
#include "scale/preload/whatif.h"

/* A wait that may not block (WNOHANG, a zero timeout) passes straight through: it is a check,
 * and a busy loop of checks is found by sampling if it spins. */
#define TIMED(ret, prim, call)                                                                     \
	do {                                                                                       \
		uint64_t t0_ = preload_wait_begin();                                               \
		ret r_ = call;                                                                     \
		int e_ = errno;                                                                    \
		preload_wait_end(prim, t0_, __builtin_return_address(0));                          \
		errno = e_;                                                                        \
		return r_;                                                                         \
	} while (0)

/* Children */

pid_t waitpid(pid_t pid, int *st, int options)
{
	REAL(waitpid);
	if (options & WNOHANG)
		return real_(pid, st, options);
	TIMED(pid_t, PRIM_CHILD, real_(pid, st, options));
}

pid_t wait(int *st)
{
	REAL(wait);
	TIMED(pid_t, PRIM_CHILD, real_(st));
}

pid_t wait3(int *st, int options, struct rusage *ru)
{
	REAL(wait3);
	if (options & WNOHANG)
		return real_(st, options, ru);
	TIMED(pid_t, PRIM_CHILD, real_(st, options, ru));
}

pid_t wait4(pid_t pid, int *st, int options, struct rusage *ru)
{
	REAL(wait4);
	if (options & WNOHANG)
		return real_(pid, st, options, ru);
	TIMED(pid_t, PRIM_CHILD, real_(pid, st, options, ru));
}

int waitid(idtype_t idtype, id_t id, siginfo_t *info, int options)
{
	REAL(waitid);
	if (options & WNOHANG)
		return real_(idtype, id, info, options);
	TIMED(int, PRIM_CHILD, real_(idtype, id, info, options));
}

int system(const char *cmd)
{
	REAL(system);
	if (!cmd)
		return real_(cmd);
	TIMED(int, PRIM_CHILD, real_(cmd));
}

int pclose(FILE *f)
{
	REAL(pclose);
	TIMED(int, PRIM_CHILD, real_(f));
}

/* Events */

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	REAL(poll);
	if (timeout == 0)
		return real_(fds, n, timeout);
	TIMED(int, PRIM_POLL, real_(fds, n, timeout));
}

int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *tmo, const sigset_t *mask)
{
	REAL(ppoll);
	if (tmo && tmo->tv_sec == 0 && tmo->tv_nsec == 0)
		return real_(fds, n, tmo, mask);
	TIMED(int, PRIM_POLL, real_(fds, n, tmo, mask));
}

int select(int nfds, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	REAL(select);
	if (tv && tv->tv_sec == 0 && tv->tv_usec == 0)
		return real_(nfds, r, w, e, tv);
	TIMED(int, PRIM_POLL, real_(nfds, r, w, e, tv));
}

int pselect(int nfds, fd_set *r, fd_set *w, fd_set *e, const struct timespec *tmo, const sigset_t *mask)
{
	REAL(pselect);
	if (tmo && tmo->tv_sec == 0 && tmo->tv_nsec == 0)
		return real_(nfds, r, w, e, tmo, mask);
	TIMED(int, PRIM_POLL, real_(nfds, r, w, e, tmo, mask));
}

int epoll_wait(int fd, struct epoll_event *ev, int max, int timeout)
{
	REAL(epoll_wait);
	if (timeout == 0)
		return real_(fd, ev, max, timeout);
	TIMED(int, PRIM_POLL, real_(fd, ev, max, timeout));
}

int epoll_pwait(int fd, struct epoll_event *ev, int max, int timeout, const sigset_t *mask)
{
	REAL(epoll_pwait);
	if (timeout == 0)
		return real_(fd, ev, max, timeout, mask);
	TIMED(int, PRIM_POLL, real_(fd, ev, max, timeout, mask));
}

int sigsuspend(const sigset_t *mask)
{
	REAL(sigsuspend);
	TIMED(int, PRIM_POLL, real_(mask));
}

int pause(void)
{
	REAL(pause);
	TIMED(int, PRIM_POLL, real_());
}

int sigwait(const sigset_t *set, int *sig)
{
	REAL(sigwait);
	TIMED(int, PRIM_POLL, real_(set, sig));
}

int sigwaitinfo(const sigset_t *set, siginfo_t *info)
{
	REAL(sigwaitinfo);
	TIMED(int, PRIM_POLL, real_(set, info));
}

int sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *tmo)
{
	REAL(sigtimedwait);
	if (tmo && tmo->tv_sec == 0 && tmo->tv_nsec == 0)
		return real_(set, info, tmo);
	TIMED(int, PRIM_POLL, real_(set, info, tmo));
}

/* The end of a process image */

void _exit(int status)
{
	REAL(_exit);
	preload_record_write(1);
	real_(status);
	__builtin_unreachable();
}

void _Exit(int status)
{
	REAL(_Exit);
	preload_record_write(1);
	real_(status);
	__builtin_unreachable();
}

/* envp for the new image, in out (capacity cap): the library's variables (LD_PRELOAD, the record
 * directory, whatif's) added where envp
 * lacks them (a program that builds its children's environment itself), any SCALE_ENV_EXEC entry
 * replaced by `note` (preload_exec_prepare; none when it is empty). envp itself when it is too
 * long to copy. */
static char *const *env_keep(char *const envp[], char **out, size_t cap, char *note)
{
	static const char *const names[] = { "LD_PRELOAD", SCALE_ENV_DIR, WHATIF_ENV };
	const size_t nlen = strlen(SCALE_ENV_EXEC);
	size_t n = 0, k = 0;
	while (envp && envp[n])
		n++;
	if (n + 5 > cap)
		return envp;
	for (size_t i = 0; i < n; i++)
		if (strncmp(envp[i], SCALE_ENV_EXEC, nlen) != 0 || envp[i][nlen] != '=')
			out[k++] = envp[i];
	for (int m = 0; m < 3; m++) {
		size_t len = strlen(names[m]);
		int found = 0;
		for (size_t i = 0; i < n && !found; i++)
			found = strncmp(envp[i], names[m], len) == 0 && envp[i][len] == '=';
		for (size_t i = 0; !found && environ && environ[i]; i++)
			if (strncmp(environ[i], names[m], len) == 0 && environ[i][len] == '=') {
				out[k++] = environ[i];
				found = 1;
			}
	}
	if (note[0])
		out[k++] = note;
	out[k] = NULL;
	return out;
}

#define ENV_CAP 4096
#define NOTE_CAP 128

int execve(const char *path, char *const argv[], char *const envp[])
{
	REAL(execve);
	char note[NOTE_CAP], *buf[ENV_CAP];
	preload_exec_prepare(note, sizeof(note));
	return real_(path, argv, env_keep(envp, buf, ENV_CAP, note));
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
	REAL(execvpe);
	char note[NOTE_CAP], *buf[ENV_CAP];
	preload_exec_prepare(note, sizeof(note));
	return real_(file, argv, env_keep(envp, buf, ENV_CAP, note));
}

/* execv and execvp pass this process's environment: the same with environ */
int execv(const char *path, char *const argv[])
{
	REAL(execve);
	char note[NOTE_CAP], *buf[ENV_CAP];
	preload_exec_prepare(note, sizeof(note));
	return real_(path, argv, env_keep(environ, buf, ENV_CAP, note));
}

int execvp(const char *file, char *const argv[])
{
	REAL(execvpe);
	char note[NOTE_CAP], *buf[ENV_CAP];
	preload_exec_prepare(note, sizeof(note));
	return real_(file, argv, env_keep(environ, buf, ENV_CAP, note));
}
