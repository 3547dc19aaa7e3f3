/* See exec.h. The file is looked up as execvp does (a name with '/' as it is, else each PATH
 * entry in turn), then its first bytes say what it needed: "#!INTERPRETER" or an ELF program
 * header naming its dynamic loader. */
#include "measure/exec.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "common/error.h"

/* The file execvp would have tried: the first PATH entry holding a regular file of that name
 * (execvp goes on past one it may not execute: prefer an executable one), else the first one
 * that exists. 0 when found. */
static int exec_resolve(const char *file, char *out, size_t len)
{
	if (strchr(file, '/')) {
		snprintf(out, len, "%s", file);
		return 0;
	}
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	char cand[4096];
	int found = 0;
	for (const char *p = path;;) {
		size_t n = strcspn(p, ":");
		snprintf(cand, sizeof(cand), "%.*s%s%s", (int)n, p, n ? "/" : "", file);
		struct stat st;
		if (stat(cand, &st) == 0) {
			if (S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
				snprintf(out, len, "%s", cand);
				return 0;
			}
			if (!found) {
				snprintf(out, len, "%s", cand);
				found = 1;
			}
		}
		if (!p[n])
			break;
		p += n + 1;
	}
	return found ? 0 : -ENOENT;
}

/* The interpreter a file asks for: its "#!" line's first word, or its ELF PT_INTERP. 1 for #!, 2
 * for ELF, 0 for neither. */
static int exec_interpreter(const char *path, char *out, size_t len)
{
	out[0] = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	char head[256];
	ssize_t n = pread(fd, head, sizeof(head) - 1, 0);
	int kind = 0;
	if (n > 2 && head[0] == '#' && head[1] == '!') {
		head[n] = 0;
		char *p = head + 2;
		p += strspn(p, " \t");
		size_t w = strcspn(p, " \t\n");
		snprintf(out, len, "%.*s", (int)w, p);
		kind = out[0] ? 1 : 0;
	} else if (n >= (ssize_t)sizeof(Elf64_Ehdr) && !memcmp(head, ELFMAG, SELFMAG) && head[EI_CLASS] == ELFCLASS64) {
		Elf64_Ehdr eh;
		memcpy(&eh, head, sizeof(eh));
		for (int i = 0; i < eh.e_phnum && i < 64; i++) {
			Elf64_Phdr ph;
			if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (uint64_t)i * eh.e_phentsize)) != (ssize_t)sizeof(ph))
				break;
			if (ph.p_type != PT_INTERP || ph.p_filesz == 0 || ph.p_filesz >= len)
				continue;
			if (pread(fd, out, ph.p_filesz, (off_t)ph.p_offset) == (ssize_t)ph.p_filesz) {
				out[ph.p_filesz] = 0;
				kind = 2;
			}
			break;
		}
	}
	close(fd);
	return kind;
}

int measure_exec_explain(const char *file, int e, char *buf, size_t len)
{
	char path[4096], interp[512];
	if (!*file) { /* a PATH search would find its directories: say what is wrong */
		snprintf(buf, len, "cannot run '': an empty program name (give the program to run after --)");
		return -ENOENT;
	}
	if (exec_resolve(file, path, sizeof(path)) != 0) {
		snprintf(buf, len, "cannot run '%s': not found in PATH (not installed, or give its path)", file);
		return -ENOENT;
	}
	const char *shown = strchr(file, '/') ? file : path; /* the file the user named, or found */
	struct stat st;
	if (stat(path, &st) != 0) {
		char eb[96];
		snprintf(buf, len, "cannot run '%s': %s", shown, as_strerror(errno, eb, sizeof(eb)));
		return errno == ENOENT || errno == ENOTDIR || errno == ELOOP || errno == EACCES ? -ENOENT : -errno;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(buf, len, "cannot run '%s': it is a directory", shown);
		return -EACCES;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(buf, len, "cannot run '%s': not a regular file", shown);
		return -EACCES;
	}
	if (access(path, X_OK) != 0) {
		snprintf(buf, len, "cannot run '%s': it is not executable (no execute permission; chmod +x, or run it "
			 "through its interpreter)", shown);
		return -EACCES;
	}
	int kind = exec_interpreter(path, interp, sizeof(interp));
	if (kind && (e == ENOENT || e == EACCES || e == ENOEXEC)) {
		struct stat is;
		const char *what = kind == 1 ? "interpreter" : "ELF interpreter (dynamic loader)";
		const char *where = kind == 1 ? " in its #! line" : "";
		if (stat(interp, &is) != 0) {
			snprintf(buf, len, "cannot run '%s': its %s '%s'%s does not exist", shown, what, interp, where);
			return -ENOENT;
		}
		if (!S_ISREG(is.st_mode) || access(interp, X_OK) != 0) {
			snprintf(buf, len, "cannot run '%s': its %s '%s'%s is not executable", shown, what, interp, where);
			return -EACCES;
		}
	}
	char eb[96];
	as_strerror(e, eb, sizeof(eb));
	if (e == EACCES) {
		snprintf(buf, len, "cannot run '%s': %s (a file system mounted noexec?)", shown, eb);
		return -EACCES;
	}
	if (e == ENOEXEC) {
		snprintf(buf, len, "cannot run '%s': %s (not a program for this machine)", shown, eb);
		return -ENOEXEC;
	}
	snprintf(buf, len, "cannot run '%s': %s", shown, eb);
	return e == ENOENT ? -ENOENT : -e;
}

int measure_tty_give(pid_t pgid)
{
	for (int fd = 0; fd < 3; fd++) {
		if (!isatty(fd) || tcgetpgrp(fd) != getpgrp())
			continue;
		return tcsetpgrp(fd, pgid) == 0 ? fd : -1;
	}
	return -1;
}

void measure_tty_take(int fd)
{
	if (fd < 0)
		return;
	/* archscope is in the background of the terminal now: SIGTTOU would stop it */
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGTTOU);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (tcsetpgrp(fd, getpgrp()) != 0) {
		/* nothing better to do: the terminal stays with a group that has ended */
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}
