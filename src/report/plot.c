/* gnuplot driver (see plot.h). */
#include "report/plot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/atomicfile.h"
#include "common/spawn.h"
#include "common/text.h"

extern char **environ;

/* gnuplot draws two pictures in seconds; one that takes this long is stuck. */
#define PLOT_TIMEOUT_S 120

int plot_dir_prepare(const char *dir, struct as_error *err)
{
	char b[96];
	if (!dir || !*dir)
		return as_error_set(err, -EINVAL, "no directory given (an empty name)");
	if (strlen(dir) >= 4000)
		return as_error_set(err, -ENAMETOOLONG, "directory name '%.64s...' is too long", dir);
	struct stat st;
	if (lstat(dir, &st) != 0) {
		if (errno != ENOENT)
			return as_error_set(err, -errno, "cannot use directory '%s': %s", dir, as_strerror(errno, b, sizeof(b)));
		if (mkdir(dir, 0755) != 0) {
			int e = errno;
			if (e == ENOENT)
				return as_error_set(err, -ENOENT, "cannot create directory '%s': its parent does not exist "
						    "(create it first)", dir);
			return as_error_set(err, -e, "cannot create directory '%s': %s", dir, as_strerror(e, b, sizeof(b)));
		}
		if (lstat(dir, &st) != 0)
			return as_error_set(err, -errno, "cannot use directory '%s': %s", dir, as_strerror(errno, b, sizeof(b)));
	}
	if (S_ISLNK(st.st_mode)) {
		char *real = realpath(dir, NULL);
		int rc = as_error_set(err, -ELOOP, "'%s' is a symbolic link%s%s%s: give the directory itself", dir,
				      real ? " to '" : "", real ? real : "", real ? "'" : "");
		free(real);
		return rc;
	}
	if (!S_ISDIR(st.st_mode))
		return as_error_set(err, -ENOTDIR, "'%s' is not a directory", dir);
	/* writable? asked now, by writing, so a long run does not end with nothing saved (access()
	 * says yes to root on a read-only file system or in /proc) */
	char probe[4096 + 32];
	snprintf(probe, sizeof(probe), "%s/.archscope-XXXXXX", dir);
	int fd = mkstemp(probe);
	if (fd < 0)
		return as_error_set(err, -errno, "cannot write into directory '%s': %s", dir, as_strerror(errno, b, sizeof(b)));
	close(fd);
	unlink(probe);
	return 0;
}

/* s with control bytes and bytes that are not UTF-8 as '?', quote doubled when `quote`. */
static const char *clean(const char *s, char *buf, size_t len, int quote)
{
	size_t w = 0, n = strlen(s), room = len - 1 - (size_t)(quote ? 2 : 0);
	if (quote)
		buf[w++] = '\'';
	for (size_t i = 0; i < n;) {
		size_t k = text_utf8_seq(s + i, n - i);
		unsigned char c = (unsigned char)s[i];
		size_t need = !k || c < 0x20 || c == 0x7f ? 1 : (quote && c == '\'' ? 2 : k);
		size_t content = w - (size_t)(quote != 0);
		int last = i + (k ? k : 1) >= n;
		/* every character but the last leaves room for "..." */
		if (last ? content + need > room : content + need > room - 3) {
			memcpy(buf + w, "...", 3);
			w += 3;
			break;
		}
		if (!k || c < 0x20 || c == 0x7f) {
			buf[w++] = '?';
			i++;
		} else if (quote && c == '\'') {
			buf[w++] = '\'';
			buf[w++] = '\'';
			i++;
		} else {
			memcpy(buf + w, s + i, k);
			w += k;
			i += k;
		}
	}
	if (quote)
		buf[w++] = '\'';
	buf[w] = '\0';
	return buf;
}

const char *plot_quote(const char *s, char *buf, size_t len)
{
	if (len < 9) { /* '' and room for one character and "..." */
		if (len)
			buf[0] = '\0';
		return buf;
	}
	return clean(s ? s : "", buf, len, 1);
}

const char *plot_comment(const char *s, char *buf, size_t len)
{
	if (len < 8) {
		if (len)
			buf[0] = '\0';
		return buf;
	}
	return clean(s ? s : "", buf, len, 0);
}

static int have_gnuplot(void)
{
	const char *path = getenv("PATH");
	if (!path)
		return 0;
	char *copy = strdup(path), *save = NULL;
	int found = 0;
	for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d && !found; d = strtok_r(NULL, ":", &save)) {
		char exe[4096];
		snprintf(exe, sizeof(exe), "%s/gnuplot", d);
		found = access(exe, X_OK) == 0;
	}
	free(copy);
	return found;
}

static int name_ok(const char *name)
{
	if (!*name || *name == '.' || strlen(name) > 200)
		return 0;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' ||
		      *p == '-' || *p == '_'))
			return 0;
	return 1;
}

/* Runs `gnuplot -e "archscope_out='SUB/'" NAME.gp` in dir, no shell; its output (stdout and
 * stderr, the first out_len - 1 bytes) in out. 0 when it ran (*status from waitpid), else -errno. */
static int run_gnuplot(const char *dir, const char *sub, const char *name, char *out, size_t out_len, int *status,
		       struct as_error *err)
{
	char setvar[128], script[256], b[96];
	snprintf(setvar, sizeof(setvar), "archscope_out='%s/'", sub);
	snprintf(script, sizeof(script), "%s.gp", name);
	char *argv[] = { "gnuplot", "-e", setvar, script, NULL };
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0)
		return as_error_set(err, -errno, "cannot run gnuplot: %s", as_strerror(errno, b, sizeof(b)));
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDERR_FILENO);
	posix_spawn_file_actions_addchdir_np(&fa, dir);
	pid_t pid;
	int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		return as_error_set(err, -rc, "cannot run gnuplot in '%s': %s", dir, as_strerror(rc, b, sizeof(b)));
	}
	size_t got = 0;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int timed_out = 0;
	for (;;) {
		struct timespec t;
		clock_gettime(CLOCK_MONOTONIC, &t);
		long left_ms = PLOT_TIMEOUT_S * 1000L - ((t.tv_sec - t0.tv_sec) * 1000L + (t.tv_nsec - t0.tv_nsec) / 1000000L);
		if (left_ms <= 0) {
			timed_out = 1;
			break;
		}
		struct pollfd p = { .fd = fds[0], .events = POLLIN };
		int pr = poll(&p, 1, (int)left_ms);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0) {
			timed_out = pr == 0;
			break;
		}
		char chunk[1024];
		ssize_t r = read(fds[0], chunk, sizeof(chunk));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		size_t keep = (size_t)r < out_len - 1 - got ? (size_t)r : out_len - 1 - got;
		memcpy(out + got, chunk, keep);
		got += keep;
	}
	out[got] = '\0';
	close(fds[0]);
	if (timed_out)
		kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	if (timed_out)
		return as_error_set(err, -ETIMEDOUT, "gnuplot did not finish '%s/%s.gp' in %d s", dir, name, PLOT_TIMEOUT_S);
	return 0;
}

/* Removes the private directory and whatever gnuplot left in it (no subdirectories). */
static void sub_remove(const char *path)
{
	DIR *d = opendir(path);
	if (d) {
		struct dirent *de;
		while ((de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
				char p[8192];
				snprintf(p, sizeof(p), "%s/%s", path, de->d_name);
				unlink(p);
			}
		closedir(d);
	}
	rmdir(path);
}

int plot_render(const char *dir, const char *name, const char *body, struct as_error *err)
{
	if (!name_ok(name))
		return as_error_set(err, -EINVAL, "plot name '%s': only letters, digits, '.', '-' and '_'", name);
	char gp[4400];
	if (snprintf(gp, sizeof(gp), "%s/%s.gp", dir, name) >= (int)sizeof(gp))
		return as_error_set(err, -ENAMETOOLONG, "plot directory name '%.64s...' is too long", dir);
	char *script = NULL;
	/* The script sets both terminals itself, so a user can rerun it by hand (gnuplot NAME.gp);
	 * the body runs once per terminal (replot would redraw only a multiplot's last panel). */
	if (asprintf(&script,
		     "# archscope plot; rerun with: gnuplot %s.gp (from this directory)\n"
		     "if (!exists(\"archscope_out\")) archscope_out = ''\n"
		     "set terminal svg size 900,560 dynamic enhanced font 'sans,11'\n"
		     "set output archscope_out.'%s.svg'\n%s\nunset output\n"
		     "set terminal pngcairo size 900,560 enhanced font 'sans,10'\n"
		     "set output archscope_out.'%s.png'\n%s\nunset output\n",
		     name, name, body, name, body) < 0)
		return as_error_set(err, -ENOMEM, "out of memory");
	int rc = atomic_file_write(gp, script, strlen(script), err);
	free(script);
	if (rc)
		return rc;
	if (!have_gnuplot())
		return 1;
	/* gnuplot opens its outputs following links: it writes into a directory only this process
	 * made, and each picture is renamed into dir like every result file */
	char sub[4400], b[96];
	snprintf(sub, sizeof(sub), "%s/.archscope-plot-XXXXXX", dir);
	if (!mkdtemp(sub))
		return as_error_set(err, -errno, "cannot write into directory '%s': %s", dir, as_strerror(errno, b, sizeof(b)));
	const char *sub_name = strrchr(sub, '/') + 1;
	char out[512];
	int st = 0;
	rc = run_gnuplot(dir, sub_name, name, out, sizeof(out), &st, err);
	int exited = 0, code = 0;
	spawn_status(st, &exited, &code);
	if (!rc && (!exited || code != 0 || strstr(out, "rror"))) {
		out[strcspn(out, "\n")] = '\0';
		rc = as_error_set(err, -EIO, "gnuplot failed on '%s': %s", gp,
				  out[0] ? out : exited ? "it exited with an error" : "it was killed");
	}
	static const char *const ext[] = { "svg", "png" };
	for (int i = 0; i < 2 && !rc; i++) {
		char from[8800], to[4400];
		snprintf(from, sizeof(from), "%s/%s.%s", sub, name, ext[i]);
		snprintf(to, sizeof(to), "%s/%s.%s", dir, name, ext[i]);
		struct stat s;
		if (lstat(from, &s) != 0 || !S_ISREG(s.st_mode))
			rc = as_error_set(err, -EIO, "gnuplot wrote no %s.%s from '%s'", name, ext[i], gp);
		else if ((rc = atomic_file_target_check(to, err)) == 0 && rename(from, to) != 0)
			rc = as_error_set(err, -errno, "cannot write '%s': %s", to, as_strerror(errno, b, sizeof(b)));
	}
	sub_remove(sub);
	return rc;
}

FILE *plot_data_open(const char *path, struct atomic_file *af)
{
	struct as_error err = { 0 };
	if (atomic_file_open(af, path, &err) != 0) {
		errno = -err.code;
		return NULL;
	}
	return af->fp;
}

int plot_data_close(struct atomic_file *af)
{
	struct as_error err = { 0 };
	if (atomic_file_commit(af, &err) != 0) {
		errno = -err.code;
		return -1;
	}
	return 0;
}
