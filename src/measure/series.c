/* See series.h. The program is forked, held at a gate while its counters are opened (inherited by
 * its threads and children, enabled at its exec), then released; the loop sleeps to absolute
 * instants, so the samples keep their period however long one sample takes. */
#include "measure/series.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/array.h"
#include "common/spawn.h"
#include "common/interrupt.h"
#include "common/timer.h"
#include "measure/exec.h"

/* How often /proc is scanned for new processes of the tree: a scan reads the /proc directory
 * (about 0.2 ms with a hundred processes), too much for every 10 ms sample; a child appears in the
 * footprint at most this late. */
#define SERIES_SCAN_S 0.5

int series_append(struct series *s, double t_s, double rss_bytes, const double *ev)
{
	if (s->n == s->cap) { /* the columns grow to the same capacity, the events' nev values a row */
		size_t ct = s->cap, cr = s->cap, ce = s->cap;
		double *t = array_grow(s->t_s, &ct, s->n, sizeof(double), 1024);
		if (t)
			s->t_s = t;
		double *r = array_grow(s->rss_bytes, &cr, s->n, sizeof(double), 1024);
		if (r)
			s->rss_bytes = r;
		double *e = array_grow(s->ev, &ce, s->n, (size_t)(s->nev ? s->nev : 1) * sizeof(double), 1024);
		if (e)
			s->ev = e;
		if (!t || !r || !e || ct != cr || ct != ce)
			return -ENOMEM;
		s->cap = ct;
	}
	s->t_s[s->n] = t_s;
	s->rss_bytes[s->n] = rss_bytes;
	for (int j = 0; j < s->nev; j++)
		s->ev[s->n * (size_t)s->nev + (size_t)j] = ev[j];
	s->n++;
	return 0;
}

void series_release(struct series *s)
{
	free(s->t_s);
	free(s->rss_bytes);
	free(s->ev);
	memset(s, 0, sizeof(*s));
}

double series_event_at(const struct series *s, int j, double t)
{
	/* knots: (0, 0), the samples, (end_s, ev_end) */
	double pt = 0, pv = 0;
	for (size_t i = 0; i <= s->n; i++) {
		double ct = i < s->n ? s->t_s[i] : s->end_s;
		double cv = i < s->n ? s->ev[i * (size_t)s->nev + (size_t)j] : s->ev_end[j];
		if (t <= ct) {
			if (t <= pt || ct <= pt)
				return t <= pt ? pv : cv;
			return pv + (cv - pv) * (t - pt) / (ct - pt);
		}
		pt = ct;
		pv = cv;
	}
	return pv;
}

/* One counter on the process tree of pid: inherited, user level like counters_open, in the group
 * of `leader` (-1: it leads, disabled until the exec). All are read with one read() of the leader:
 * one system call (and one interrupt of the CPU the program runs on) per sample, whatever the
 * number of events. The fd, or -errno with err filled. */
static int series_counter_open(const char *name, pid_t pid, int leader, struct as_error *err)
{
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof(attr));
	char fq[192];
	uint32_t type;
	uint64_t config;
	int rc = counters_encode(name, &type, &config, fq, sizeof(fq), err);
	if (rc)
		return rc;
	attr.type = type;
	attr.config = config;
	attr.size = sizeof(attr);
	attr.disabled = leader < 0;
	attr.enable_on_exec = leader < 0;
	attr.inherit = 1;
	/* software events happen in the kernel on the program's behalf (a context switch always
	 * does): count them there too, and only the user part where perf_event_paranoid says so */
	attr.exclude_kernel = attr.type != PERF_TYPE_SOFTWARE;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	int fd = (int)syscall(SYS_perf_event_open, &attr, pid, -1, leader, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && (errno == EACCES || errno == EPERM) && !attr.exclude_kernel) {
		attr.exclude_kernel = 1;
		fd = (int)syscall(SYS_perf_event_open, &attr, pid, -1, leader, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0) {
		int e = errno;
		char eb[96];
		as_strerror(e, eb, sizeof(eb));
		if (e == ENOENT || e == EOPNOTSUPP || e == ENODEV)
			return as_error_set(err, -EOPNOTSUPP,
					    "%s: this machine does not offer that counter (virtual machines usually have "
					    "no hardware counters; software events such as task-clock still count)",
					    eb);
		if (e == EACCES || e == EPERM)
			return as_error_set(err, -e, "%s (kernel.perf_event_paranoid forbids it; 2 or less lets a user "
						 "count their own programs)", eb);
		return as_error_set(err, -e, "perf_event_open: %s", eb);
	}
	return fd;
}

/* Reads the group led by fd into v[0..n) (scaled when multiplexed; NaN when unreadable). */
static void series_counters_read(int fd, int n, double *v)
{
	uint64_t buf[3 + COUNTERS_MAX];
	ssize_t want = (ssize_t)((3 + (size_t)n) * sizeof(uint64_t));
	int ok = n > 0 && read(fd, buf, sizeof(buf)) == want && buf[0] == (uint64_t)n;
	for (int j = 0; j < n; j++) {
		double share;
		v[j] = ok ? counters_scale(buf[3 + j], buf[1], buf[2], &share) : NAN;
	}
}

static double thread_cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* own_group: the program gets its own process group and common/interrupt.h forwards signals to it
 * (phases); otherwise it stays in ours (memhist). keep_stdout: its stdout stays its own (phases,
 * whose report goes to stderr); otherwise it goes to our stderr. */
static pid_t series_fork_how(char *const argv[], int own_group, int keep_stdout, int *gate_w, int *execd, int *tty,
			     struct as_error *err)
{
	*tty = -1;
	int gate[2], ex[2];
	if (pipe2(gate, O_CLOEXEC) != 0)
		return as_error_set(err, -errno, "pipe: %s", strerror(errno));
	if (pipe2(ex, O_CLOEXEC) != 0) {
		close(gate[0]);
		close(gate[1]);
		return as_error_set(err, -errno, "pipe: %s", strerror(errno));
	}
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	if (own_group)
		sigprocmask(SIG_BLOCK, &block, &old);
	pid_t pid = fork();
	if (pid == 0) {
		if (own_group) {
			interrupt_child_setup();
			sigprocmask(SIG_SETMASK, &old, NULL);
		}
		close(gate[1]);
		close(ex[0]);
		char go;
		if (read(gate[0], &go, 1) != 1)
			_exit(125); /* the recorder gave up before the start */
		if (!keep_stdout)
			dup2(2, 1);
		execvp(argv[0], argv);
		int e = errno;
		if (write(ex[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	int fe = errno;
	if (own_group) {
		if (pid > 0) {
			interrupt_watch(pid);
			*tty = measure_tty_give(pid);
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (pid < 0) {
		close(gate[0]);
		close(gate[1]);
		close(ex[0]);
		close(ex[1]);
		return as_error_set(err, -fe, "cannot start '%s': %s", argv[0], strerror(fe));
	}
	close(gate[0]);
	close(ex[1]);
	*gate_w = gate[1];
	*execd = ex[0];
	return pid;
}

pid_t series_fork(char *const argv[], int *gate_w, int *execd, struct as_error *err)
{
	int tty;
	return series_fork_how(argv, 0, 0, gate_w, execd, &tty, err);
}

int series_fork_release(char *const argv[], pid_t pid, int gate, int execd, struct as_error *err)
{
	int rc = 0;
	if (write(gate, "g", 1) != 1) {
		rc = as_error_set(err, -errno, "cannot start '%s': %s", argv[0], strerror(errno));
		kill(pid, SIGKILL);
	}
	close(gate);
	/* the pipe closes at the exec, or brings exec's errno */
	int exec_errno = 0;
	ssize_t got = 0;
	while (!rc && (got = read(execd, &exec_errno, sizeof(exec_errno))) < 0 && errno == EINTR)
		;
	close(execd);
	if (!rc && got > 0) {
		char msg[sizeof(err->msg)];
		rc = measure_exec_explain(argv[0], exec_errno, msg, sizeof(msg));
		as_error_set(err, rc, "%s", msg);
	}
	if (rc)
		waitpid(pid, NULL, 0);
	return rc;
}

/* Opens o's events on the program held at its gate, grouped under the first that opens: their
 * fds into fd[] (s->nev of them), the ones that do not open into s->missing with why. */
static void series_events_open(const struct series_opts *o, pid_t pid, struct series *s, int fd[COUNTERS_MAX])
{
	for (int i = 0; i < o->nevents; i++) {
		struct as_error e2 = { 0 };
		int f = series_counter_open(o->events[i], pid, s->nev ? fd[0] : -1, &e2);
		if (f < 0) {
			snprintf(s->missing[s->nmissing], sizeof(s->missing[0]), "%s", o->events[i]);
			as_error_copy(s->missing_why[s->nmissing], sizeof(s->missing_why[0]), e2.msg);
			s->missing_code[s->nmissing] = f;
			s->nmissing++;
			continue;
		}
		fd[s->nev] = f;
		snprintf(s->name[s->nev], sizeof(s->name[0]), "%s", o->events[i]);
		s->nev++;
	}
}

/* Samples the running program every o->interval_s from t0 until it ends (a zombie: its counters
 * still read), stopping it on *o->stop and killing it past o->timeout_s: the samples into s,
 * s->end_s. 0, or -ENOMEM when the samples no longer fit (the program is killed). */
static int series_sample_until_end(const struct series_opts *o, struct series *s, pid_t pid, struct series_tree *tree,
				   const int fd[COUNTERS_MAX], uint64_t t0, struct as_error *err)
{
	int rc = 0;
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0); /* Linux 5.3; without it the loop only sleeps */
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	long step_ns = (long)(o->interval_s * 1e9);
	/* with the fork watch the scan only backs it up (records lost to a burst of forks) */
	int scan_every = (int)ceil((series_tree_watching(tree) ? 10 * SERIES_SCAN_S : SERIES_SCAN_S) / o->interval_s);
	double last_tick = 0, ev[COUNTERS_MAX];
	int stopped = 0;
	for (long nth = 1;; nth++) {
		next.tv_nsec += step_ns;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		int ended = -1; /* -1: ask waitid */
		if (pidfd >= 0) {
			/* one wake-up both for the next instant and for the program's end */
			struct timespec now, left;
			clock_gettime(CLOCK_MONOTONIC, &now);
			long ns = (next.tv_sec - now.tv_sec) * 1000000000L + (next.tv_nsec - now.tv_nsec);
			if (ns > 0) {
				left = (struct timespec){ ns / 1000000000L, ns % 1000000000L };
				struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
				if (ppoll(&pfd, 1, &left, NULL) == 0)
					ended = 0; /* timed out: still running, no need to ask */
			}
		} else {
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
				;
		}
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		/* WNOWAIT: the program stays a zombie until its counters are read for the last time */
		if (ended && waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid)
			break;
		if (o->stop && *o->stop && !stopped) {
			kill(pid, SIGINT); /* from a terminal it has it already; from kill -INT only we do */
			stopped = 1;
		}
		/* own_group: common/interrupt.h's handler sent the signal on; sample until it ends */
		double t = (double)(timer_now_ns() - t0) / 1e9;
		if (o->timeout_s > 0 && t > o->timeout_s) {
			kill(pid, SIGKILL);
			s->timed_out = 1;
			continue;
		}
		if (series_tree_watching(tree))
			series_tree_poll(tree);
		if (nth % scan_every == 0)
			series_tree_scan(tree);
		int procs;
		double rss = series_tree_rss(tree, &procs);
		series_counters_read(fd[0], s->nev, ev);
		if (procs > s->procs_max)
			s->procs_max = procs;
		if (procs > 0 && series_append(s, t, rss, ev) != 0) {
			rc = as_error_set(err, -ENOMEM, "out of memory after %zu samples", s->n);
			kill(pid, SIGKILL);
		}
		if (o->tick && t - last_tick >= 1.0) {
			o->tick(o->ctx, t, rss);
			last_tick = t;
		}
		/* fell behind (a loaded machine): skip the missed instants rather than bunching samples */
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - next.tv_sec) * 1000000000L + (now.tv_nsec - next.tv_nsec) > step_ns)
			next = now;
	}
	s->end_s = (double)(timer_now_ns() - t0) / 1e9;
	if (pidfd >= 0)
		close(pidfd);
	return rc;
}

int series_record(char *const argv[], const struct series_opts *o, struct series *s, struct as_error *err)
{
	memset(s, 0, sizeof(*s));
	s->interval_s = o->interval_s;
	if (!(o->interval_s > 0) || o->nevents < 0 || o->nevents > COUNTERS_MAX)
		return as_error_set(err, -EINVAL, "series: an interval above 0 and at most %d events", COUNTERS_MAX);
	int gate = -1, execd = -1, tty = -1;
	pid_t pid = series_fork_how(argv, o->own_group, o->keep_stdout, &gate, &execd, &tty, err);
	if (pid < 0)
		return (int)pid;
	int fd[COUNTERS_MAX];
	series_events_open(o, pid, s, fd);
	struct series_tree *tree = series_tree_new(pid);
	int rc = 0;
	if (!tree) {
		rc = as_error_set(err, -ENOMEM, "cannot follow process %d", (int)pid);
		close(gate);
		close(execd);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		goto out;
	}
	struct as_error werr = { 0 };
	series_tree_watch(tree, &werr); /* without it the /proc scan finds new processes, later */
	double cpu0 = thread_cpu_s();
	rc = series_fork_release(argv, pid, gate, execd, err);
	/* time starts at the exec */
	uint64_t t0 = timer_now_ns();
	if (rc)
		goto out;
	rc = series_sample_until_end(o, s, pid, tree, fd, t0, err);
	series_counters_read(fd[0], s->nev, s->ev_end);
	s->sampler_cpu_s = thread_cpu_s() - cpu0;
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (o->own_group)
		interrupt_watch(0);
	spawn_status(st, &s->exited, &s->status);
out:
	if (o->own_group) {
		interrupt_watch(0);
		measure_tty_take(tty);
	}
	/* with the terminal, Ctrl-C went to the program alone */
	s->tty_sigint = tty >= 0 && !s->exited && s->status == SIGINT;
	series_tree_free(tree);
	for (int j = 0; j < s->nev; j++)
		close(fd[j]);
	return rc;
}
