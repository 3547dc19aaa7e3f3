/* See spawn.h. */
#include "common/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/interrupt.h"
#include "common/timer.h"

const char *spawn_missing_why(const char *name)
{
	return strchr(name, '/') ? "is not an executable file" : "is not installed (not found in PATH)";
}

/* The file that running name executes: name itself when it has a '/', else the first PATH entry
 * holding an executable regular file of that name. 0 with out set, or -ENOENT. */
static int spawn_find(const char *name, char *out, size_t len)
{
	struct stat st;
	if (!*name)
		return -ENOENT;
	if (strchr(name, '/')) {
		if (stat(name, &st) != 0 || !S_ISREG(st.st_mode) || access(name, X_OK) != 0)
			return -ENOENT;
		snprintf(out, len, "%s", name);
		return 0;
	}
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, ":");
		if (n > 0 && n + strlen(name) + 2 < len) {
			snprintf(out, len, "%.*s/%s", (int)n, p, name);
			if (stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0)
				return 0;
		}
		p += n;
		if (*p == ':')
			p++;
	}
	return -ENOENT;
}

int spawn_have(const char *name)
{
	char buf[4096];
	return spawn_find(name, buf, sizeof(buf)) == 0;
}

void spawn_head(const char *path, char *buf, size_t len)
{
	buf[0] = 0;
	FILE *f = path ? fopen(path, "r") : NULL;
	if (!f)
		return;
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
	/* one line is enough for a message; keep up to three */
	char *p = buf;
	for (int i = 0; i < 3 && p; i++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (p)
		*p = 0;
	size_t m = strlen(buf);
	while (m && (buf[m - 1] == '\n' || buf[m - 1] == ' '))
		buf[--m] = 0;
}

static int redirect(int fd, const char *path)
{
	int f = open(path ? path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (f < 0)
		return -1;
	int rc = dup2(f, fd);
	close(f);
	return rc < 0 ? -1 : 0;
}

/* In a child after fork(), before exec: stdin from /dev/null, stdout to out_path and stderr to
 * err_path (NULL: /dev/null; created or truncated). 0, or -1. */
static int spawn_child_stdio(const char *out_path, const char *err_path)
{
	int in = open("/dev/null", O_RDONLY);
	if (in >= 0)
		dup2(in, 0);
	return redirect(1, out_path) || redirect(2, err_path) ? -1 : 0;
}

extern char **environ;

void spawn_status(int wstatus, int *exited, int *status)
{
	*exited = WIFEXITED(wstatus) != 0;
	*status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : -1;
}

/* A file the kernel will not run (ENOEXEC: a script without "#!"): execvp, and so stat and a
 * shell, hands it to /bin/sh as "/bin/sh FILE ARGS"; posix_spawnp does not (glibc 2.15 and later),
 * so this does as execvp does. 0, or ENOEXEC when that cannot start either. */
static int spawn_start_sh(char *const argv[], const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *at,
			  pid_t *pid)
{
	char path[4096];
	if (spawn_find(argv[0], path, sizeof(path)) != 0)
		return ENOEXEC;
	int argc = 0;
	while (argv[argc])
		argc++;
	char **sh = calloc((size_t)argc + 2, sizeof(char *));
	if (!sh)
		return ENOMEM;
	sh[0] = (char *)"/bin/sh";
	sh[1] = path;
	for (int i = 1; i < argc; i++)
		sh[i + 1] = argv[i];
	int rc = posix_spawn(pid, "/bin/sh", fa, at, sh, environ);
	free(sh);
	return rc ? ENOEXEC : 0;
}

int spawn_start(char *const argv[], const char *out_path, const char *err_path, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int rc = posix_spawn_file_actions_init(&fa);
	if (rc)
		return rc;
	rc = posix_spawnattr_init(&at);
	if (rc) {
		posix_spawn_file_actions_destroy(&fa);
		return rc;
	}
	const int wr = O_WRONLY | O_CREAT | O_TRUNC;
	rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!rc)
		rc = posix_spawn_file_actions_addopen(&fa, 1, out_path ? out_path : "/dev/null", wr, 0644);
	if (!rc)
		rc = posix_spawn_file_actions_addopen(&fa, 2, err_path ? err_path : "/dev/null", wr, 0644);
	if (!rc)
		rc = interrupt_child_attr(&at);
	if (!rc)
		rc = posix_spawnp(pid, argv[0], &fa, &at, argv, environ);
	if (rc == ENOEXEC)
		rc = spawn_start_sh(argv, &fa, &at, pid);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

int spawn_run(char *const argv[], const char *out_path, const char *err_path, double timeout_s, int cpu,
	      struct spawn_result *r, struct as_error *err)
{
	return spawn_run_hooked(argv, out_path, err_path, timeout_s, cpu, NULL, r, err);
}

int spawn_run_hooked(char *const argv[], const char *out_path, const char *err_path, double timeout_s, int cpu,
		     const struct spawn_hooks *hooks, struct spawn_result *r, struct as_error *err)
{
	memset(r, 0, sizeof(*r));
	if (!spawn_have(argv[0]))
		return as_error_set(err, -ENOENT, "'%s' %s", argv[0], spawn_missing_why(argv[0]));
	uint64_t t0 = timer_now_ns();
	pid_t pid = fork();
	if (pid < 0)
		return as_error_set(err, -errno, "cannot start '%s': %s", argv[0], strerror(errno));
	if (pid == 0) {
		if (cpu >= 0) {
			cpu_set_t set;
			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
		if (spawn_child_stdio(out_path, err_path))
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	/* Without hooks, wait for the child's exit on a pidfd (Linux 5.3): no periodic wake-ups that
	 * take a CPU from the program being timed, and its end seen at once; else poll every 2 ms. */
	int pfd = -1;
#ifdef SYS_pidfd_open
	if (!hooks)
		pfd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
	int st = 0;
	for (;;) {
		pid_t w = waitpid(pid, &st, hooks ? WNOHANG | WUNTRACED : WNOHANG);
		if (w == pid && hooks && WIFSTOPPED(st)) {
			int hs = hooks->on_stop ? hooks->on_stop(hooks->ctx, (int)pid, r->stops) : 0;
			if (hs && !r->hook_status)
				r->hook_status = hs;
			r->stops++;
			kill(pid, SIGCONT);
			continue;
		}
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			int e = errno;
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			if (pfd >= 0)
				close(pfd);
			return as_error_set(err, -e, "waiting for '%s': %s", argv[0], strerror(e));
		}
		if (timeout_s > 0 && (double)(timer_now_ns() - t0) / 1e9 > timeout_s) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			r->timed_out = 1;
			break;
		}
		if (pfd >= 0) {
			struct pollfd pf = { .fd = pfd, .events = POLLIN };
			double left_ms = timeout_s > 0 ? (timeout_s - (double)(timer_now_ns() - t0) / 1e9) * 1e3 + 1 : 1000;
			poll(&pf, 1, left_ms > 1000 ? 1000 : left_ms < 0 ? 0 : (int)left_ms);
		} else {
			struct timespec ts = { 0, 2000000 };
			nanosleep(&ts, NULL);
		}
	}
	if (pfd >= 0)
		close(pfd);
	r->seconds = (double)(timer_now_ns() - t0) / 1e9;
	spawn_status(st, &r->exited, &r->status);
	if (r->timed_out)
		return as_error_set(err, -ETIMEDOUT, "'%s' did not finish within %.0f s", argv[0], timeout_s);
	return 0;
}
