/* See interrupt.h. The handlers only use async-signal-safe calls (kill, open, getdents64, unlinkat,
 * rmdir, _exit). */
#include "common/interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const int interrupt_sigs[] = { SIGINT, SIGTERM, SIGHUP };
#define NSIGS (sizeof(interrupt_sigs) / sizeof(interrupt_sigs[0]))

static struct sigaction saved[NSIGS];
static int installed;
static volatile sig_atomic_t first_signal;
static volatile pid_t watched;
static const char *volatile cleanup, *volatile cleanup2;

struct dirent64_raw {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Removes the plain files of `dir`, then `dir` (best effort, async-signal-safe). */
static void remove_dir(const char *dir)
{
	if (!dir)
		return;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		char buf[4096] __attribute__((aligned(8)));
		long n;
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
			for (long off = 0; off < n;) {
				struct dirent64_raw *d = (struct dirent64_raw *)(buf + off);
				off += d->d_reclen;
				if (strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") != 0)
					unlinkat(fd, d->d_name, 0);
			}
		}
		close(fd);
	}
	rmdir(dir);
}

static void on_signal(int sig)
{
	int saved_errno = errno;
	pid_t g = watched;
	if (!first_signal) {
		first_signal = sig;
		if (g > 0)
			kill(-g, sig);
	} else {
		if (g > 0)
			kill(-g, SIGKILL);
		remove_dir(cleanup);
		remove_dir(cleanup2);
		_exit(INTERRUPT_EXIT);
	}
	errno = saved_errno;
}

void interrupt_install(void)
{
	if (installed)
		return;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NSIGS; i++)
		sigaddset(&sa.sa_mask, interrupt_sigs[i]);
	for (size_t i = 0; i < NSIGS; i++)
		sigaction(interrupt_sigs[i], &sa, &saved[i]);
	installed = 1;
}

void interrupt_restore(void)
{
	if (!installed)
		return;
	for (size_t i = 0; i < NSIGS; i++)
		sigaction(interrupt_sigs[i], &saved[i], NULL);
	installed = 0;
	watched = 0;
}

void interrupt_child_setup(void)
{
	setpgid(0, 0);
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (size_t i = 0; i < NSIGS; i++)
		sigaction(interrupt_sigs[i], &dfl, NULL);
}

int interrupt_child_attr(posix_spawnattr_t *at)
{
	sigset_t def;
	sigemptyset(&def);
	for (size_t i = 0; i < NSIGS; i++)
		sigaddset(&def, interrupt_sigs[i]);
	int rc = posix_spawnattr_setpgroup(at, 0);
	if (!rc)
		rc = posix_spawnattr_setsigdefault(at, &def);
	if (!rc)
		rc = posix_spawnattr_setflags(at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
	return rc;
}

void interrupt_watch(pid_t pgid)
{
	if (pgid > 0)
		setpgid(pgid, pgid); /* fails harmlessly once the child has done it or exec'd */
	watched = pgid;
	int s = first_signal;
	if (s && pgid > 0)
		kill(-pgid, s);
}

int interrupt_signal(void)
{
	return first_signal;
}

/* the flag is handed out as the `volatile int *stop` every measuring loop takes */
_Static_assert(_Generic((sig_atomic_t)0, int: 1, default: 0), "sig_atomic_t is not int");

volatile int *interrupt_flag(void)
{
	return &first_signal;
}

void interrupt_reset(void)
{
	first_signal = 0;
}

void interrupt_cleanup_dir(const char *dir)
{
	interrupt_cleanup_dirs(dir, NULL);
}

void interrupt_cleanup_dirs(const char *dir, const char *dir2)
{
	cleanup = dir;
	cleanup2 = dir2;
}
