/* The runs of a stat measurement: the program is forked and held at a gate until its counters are
 * open (enable_on_exec, inherited), so counting starts at its exec as perf stat's does; it is
 * reaped with wait4 for its rusage after its schedstat is read. Unlike common/spawn.c this needs
 * the gate and wait4, so it forks itself. */
#include "measure/stat.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/timer.h"
#include "measure/stat-thread.h"

/* The program's stderr goes to an unlinked temporary file, kept and copied on. */
static int tmpfile_fd(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof(path), "%s/archscope-stat-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	if (fd >= 0)
		unlink(path);
	return fd;
}

/* Copies what the program wrote to stderr on to out_fd and keeps the tail in the run. */
static void stderr_collect(int fd, int out_fd, struct stat_run *r)
{
	char buf[8192];
	ssize_t got;
	size_t kept = 0;
	lseek(fd, 0, SEEK_SET);
	while ((got = read(fd, buf, sizeof(buf))) > 0) {
		if (out_fd >= 0 && write(out_fd, buf, (size_t)got) < 0)
			out_fd = -1;
		size_t cap = sizeof(r->stderr_tail) - 1;
		if ((size_t)got >= cap) {
			memcpy(r->stderr_tail, buf + got - cap, cap);
			kept = cap;
		} else {
			if (kept + (size_t)got > cap) {
				size_t drop = kept + (size_t)got - cap;
				memmove(r->stderr_tail, r->stderr_tail + drop, kept - drop);
				kept -= drop;
			}
			memcpy(r->stderr_tail + kept, buf, (size_t)got);
			kept += (size_t)got;
		}
	}
	r->stderr_tail[kept] = 0;
}

static double tv_us(struct timeval t)
{
	return (double)t.tv_sec * 1e6 + (double)t.tv_usec;
}

/* The value of a pseudo event from this run's rusage, schedstat and wall time. */
static double extra_value(const char *name, const struct rusage *ru, const double ss[3], double wall_ns)
{
	if (!strcmp(name, "wall-time"))
		return wall_ns;
	if (!strcmp(name, "rusage:user-time"))
		return tv_us(ru->ru_utime);
	if (!strcmp(name, "rusage:system-time"))
		return tv_us(ru->ru_stime);
	if (!strcmp(name, "rusage:max-rss"))
		return (double)ru->ru_maxrss;
	if (!strcmp(name, "rusage:minor-faults"))
		return (double)ru->ru_minflt;
	if (!strcmp(name, "rusage:major-faults"))
		return (double)ru->ru_majflt;
	if (!strcmp(name, "rusage:voluntary-switches"))
		return (double)ru->ru_nvcsw;
	if (!strcmp(name, "rusage:involuntary-switches"))
		return (double)ru->ru_nivcsw;
	if (!strcmp(name, "schedstat:run-time"))
		return ss[0];
	if (!strcmp(name, "schedstat:wait-time"))
		return ss[1];
	if (!strcmp(name, "schedstat:timeslices"))
		return ss[2];
	return NAN;
}

/* Opens this pass's events on the gated child: software events one by one, the pass's hardware
 * group together. set[0] holds the software events, set[1] the group; slot[i] says where event i
 * is (set*COUNTERS_MAX + index, -1: not open). */
static void open_pass(struct measure_stat *m, int pass, pid_t pid, struct counter_set set[2], int *slot)
{
	struct counters_how how = { .inherit = 1, .enable_on_exec = 1, .grouped = 0, .kernel = m->kernel };
	counters_init(&set[0]);
	counters_init(&set[1]);
	for (int i = 0; i < m->nevents; i++) {
		struct stat_event *e = &m->ev[i];
		slot[i] = -1;
		if (e->source != STAT_PERF || !e->available || e->pass != pass)
			continue;
		int s = e->hardware ? 1 : 0;
		how.grouped = s;
		struct as_error oe = { 0 };
		if (counters_add(&set[s], measure_stat_alias(e->name), pid, &how, &oe) == 0)
			slot[i] = s * COUNTERS_MAX + set[s].n - 1;
		else if (!e->reason[0])
			snprintf(e->reason, sizeof(e->reason), "%s", oe.msg);
	}
}

/* The child of a run: stdout and stderr set up, held at the gate until its counters are open,
 * then exec; an exec failure's errno goes back through report. */
static void child_exec(char *const argv[], const struct stat_opts *o, int efd, const int gate[2], const int report[2])
{
	close(gate[1]);
	close(report[0]);
	signal(SIGINT, SIG_DFL);
	if (o->stdout_fd >= 0)
		dup2(o->stdout_fd, 1);
	dup2(efd, 2);
	char c;
	while (read(gate[0], &c, 1) < 0 && errno == EINTR)
		;
	execvp(argv[0], argv);
	int e = errno;
	ssize_t w = write(report[1], &e, sizeof(e));
	(void)w;
	_exit(127);
}

/* Forks the program held at a gate: its pid, with *gate_w (close it to let it exec) and
 * *report_r (an exec failure's errno) open; or a negative errno, everything closed. */
static pid_t gated_fork(char *const argv[], const struct stat_opts *o, int efd, int *gate_w, int *report_r,
			struct as_error *err)
{
	int gate[2], report[2];
	if (pipe2(gate, O_CLOEXEC) != 0)
		return as_error_set(err, -errno, "stat: pipe failed");
	if (pipe2(report, O_CLOEXEC) != 0) {
		close(gate[0]);
		close(gate[1]);
		return as_error_set(err, -errno, "stat: pipe failed");
	}
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(gate[0]);
		close(gate[1]);
		close(report[0]);
		close(report[1]);
		return as_error_set(err, -e, "stat: cannot start '%s': fork failed", argv[0]);
	}
	if (pid == 0)
		child_exec(argv, o, efd, gate, report);
	close(gate[0]);
	close(report[1]);
	*gate_w = gate[1];
	*report_r = report[0];
	return pid;
}

/* Lets the program exec and waits for it to end (Ctrl-C ignored meanwhile: it goes to the
 * program): its status, rusage and schedstat, the times of its start and end. Returns the errno
 * of a failed exec, else 0. */
static int release_and_wait(struct measure_stat *m, int pass, pid_t pid, int gate_w, int report_r, int *st,
			    struct rusage *ru, double ss[3], uint64_t *t0, uint64_t *t1)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	sigaction(SIGINT, &ign, &old);
	*t0 = timer_now_ns();
	close(gate_w); /* the child execs now */
	int exec_errno = 0;
	ssize_t got;
	while ((got = read(report_r, &exec_errno, sizeof(exec_errno))) < 0 && errno == EINTR)
		;
	close(report_r);
	*st = 0;
	memset(ru, 0, sizeof(*ru));
	if (m->per_thread) {
		stat_thread_wait(m, pass, m->nrun, pid, st, ru, ss);
		*t1 = timer_now_ns();
	} else {
		siginfo_t si;
		while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
			;
		*t1 = timer_now_ns();
		stat_read_schedstat(pid, ss);
		while (wait4(pid, st, 0, ru) < 0 && errno == EINTR)
			;
	}
	sigaction(SIGINT, &old, NULL);
	return got == (ssize_t)sizeof(exec_errno) ? exec_errno : 0;
}

/* Run k's value of every event of this pass (the pseudo events with pass 0). */
static void record_values(struct measure_stat *m, int pass, int k, struct counter_set set[2], const int *slot,
			  const struct rusage *ru, const double ss[3], double wall_ns)
{
	for (int i = 0; i < m->nevents; i++) {
		struct stat_event *e = &m->ev[i];
		if (e->source == STAT_PERF) {
			if (e->pass != pass)
				continue;
			double v = NAN, share = 0;
			if (slot[i] >= 0) {
				struct counter_set *s = &set[slot[i] / COUNTERS_MAX];
				int j = slot[i] % COUNTERS_MAX;
				struct as_error re = { 0 };
				if (counters_read_one(s, j, &re) == 0) {
					v = s->value[j];
					share = s->running[j];
				}
			}
			measure_stat_record(e, k, v, share);
		} else if (pass == 0) {
			measure_stat_record(e, k, extra_value(e->name, ru, ss, wall_ns), 1);
		}
	}
}

static int run_once(struct measure_stat *m, int pass, int k, char *const argv[], const struct stat_opts *o,
		    struct as_error *err)
{
	struct stat_run *r = &m->run[m->nrun];
	memset(r, 0, sizeof(*r));
	r->pass = pass;
	int gate_w = -1, report_r = -1;
	int efd = tmpfile_fd();
	if (efd < 0)
		return as_error_set(err, -errno, "stat: cannot create a file for the program's stderr");
	pid_t pid = gated_fork(argv, o, efd, &gate_w, &report_r, err);
	if (pid < 0) {
		close(efd);
		return (int)pid;
	}
	struct counter_set set[2];
	int *slot = malloc((size_t)m->nevents * sizeof(int)), rc = 0;
	if (!slot)
		rc = as_error_set(err, -ENOMEM, "stat: out of memory");
	else
		open_pass(m, pass, pid, set, slot);
	if (slot && m->per_thread)
		rc = stat_thread_seize(m, pass, pid, err);
	if (rc) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		if (slot) {
			counters_close(&set[0]);
			counters_close(&set[1]);
		}
		free(slot);
		close(gate_w);
		close(report_r);
		close(efd);
		return rc;
	}
	double ss[3] = { NAN, NAN, NAN };
	int st;
	struct rusage ru;
	uint64_t t0, t1;
	int exec_errno = release_and_wait(m, pass, pid, gate_w, report_r, &st, &ru, ss, &t0, &t1);
	if (exec_errno) {
		counters_close(&set[0]);
		counters_close(&set[1]);
		free(slot);
		close(efd);
		char eb[96];
		return as_error_set(err, exec_errno == ENOENT ? -ENOENT : -exec_errno, "cannot run '%s': %s", argv[0],
				    as_strerror(exec_errno, eb, sizeof(eb)));
	}
	r->seconds = (double)(t1 - t0) / 1e9;
	r->exited = WIFEXITED(st);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? WTERMSIG(st) : -1;
	if (!r->exited && r->status == SIGINT)
		m->interrupted = 1;
	record_values(m, pass, k, set, slot, &ru, ss, (double)(t1 - t0));
	counters_close(&set[0]);
	counters_close(&set[1]);
	free(slot);
	stderr_collect(efd, o->stderr_fd, r);
	close(efd);
	m->nrun++;
	return 0;
}

int measure_stat_run(struct measure_stat *m, char *const argv[], const struct stat_opts *o, struct as_error *err)
{
	m->runs = o->runs > 0 ? o->runs : m->runs;
	free(m->run);
	m->run = calloc((size_t)(m->runs * m->passes), sizeof(*m->run));
	if (!m->run)
		return as_error_set(err, -ENOMEM, "stat: out of memory");
	for (int i = 0; i < m->nevents; i++) {
		struct stat_event *e = &m->ev[i];
		free(e->values);
		free(e->share);
		e->values = malloc((size_t)m->runs * sizeof(double));
		e->share = malloc((size_t)m->runs * sizeof(double));
		if (!e->values || !e->share)
			return as_error_set(err, -ENOMEM, "stat: out of memory");
		for (int k = 0; k < m->runs; k++) {
			e->values[k] = NAN;
			e->share[k] = 0;
		}
	}
	m->nrun = 0;
	m->interrupted = 0;
	m->per_thread = o->per_thread;
	int total = m->runs * m->passes;
	for (int p = 0; p < m->passes && !m->interrupted; p++)
		for (int k = 0; k < m->runs && !m->interrupted; k++) {
			if (o->progress)
				o->progress(o->ctx, m->nrun, total);
			int rc = run_once(m, p, k, argv, o, err);
			if (rc)
				return rc;
		}
	for (int i = 0; i < m->nevents; i++)
		measure_stat_summarise(&m->ev[i], m->runs);
	return 0;
}
