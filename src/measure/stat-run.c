/* The runs of a stat measurement: the program is forked into its own process group and held at a
 * gate until its counters are open (enable_on_exec, inherited), so counting starts at its exec as
 * perf stat's does; it is reaped with wait4 for its rusage after its schedstat is read. Or, with
 * -p and -a, counters on a running process's threads or on every CPU for a window. Unlike
 * common/spawn.c this needs the gate and wait4, so it forks itself. Signals follow
 * common/interrupt.h: the first goes to the program's group, the run it cuts is left out. */
#include "measure/stat.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/array.h"
#include "common/spawn.h"
#include "common/interrupt.h"
#include "common/atomicfile.h"
#include "common/timer.h"
#include "measure/exec.h"
#include "measure/stat-thread.h"

/* The program's stderr goes to an unlinked temporary file, kept and copied on. */
static int tmpfile_fd(struct as_error *err)
{
	return tmp_file_unlinked("archscope-stat", err);
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
	if (!ru && strncmp(name, "schedstat:", 10) != 0)
		return NAN;
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

/* A pass's events opened on several targets (one program; the threads of an attached process;
 * every CPU): per target, set 0 is the pass's hardware group and sets 1.. hold the software
 * events, COUNTERS_MAX each. slot[t * nevents + i]: set * COUNTERS_MAX + index, -1 when event i
 * is not open on target t. An event's value is the sum over its targets. */
struct run_sets {
	int nt, nsets, nevents;
	struct counter_set *set;
	int *slot;
};

static void sets_close(struct run_sets *rs)
{
	for (int k = 0; rs->set && k < rs->nt * rs->nsets; k++)
		counters_close(&rs->set[k]);
	free(rs->set);
	free(rs->slot);
	memset(rs, 0, sizeof(*rs));
}

/* Opens the pass's events on each target: tids (pid, or each thread) or, with how->cpu_wide, CPU
 * numbers. A failure on the first target is the event's reason; -ENOMEM only. */
static int sets_open(struct measure_stat *m, int pass, const int *targets, int nt, const struct counters_how *base,
		     struct run_sets *rs)
{
	memset(rs, 0, sizeof(*rs));
	rs->nt = nt;
	rs->nevents = m->nevents;
	rs->nsets = m->nevents / COUNTERS_MAX + 2;
	rs->set = calloc((size_t)nt * (size_t)rs->nsets, sizeof(*rs->set));
	rs->slot = malloc((size_t)nt * (size_t)m->nevents * sizeof(int) + 1);
	if (!rs->set || !rs->slot) {
		sets_close(rs);
		return -ENOMEM;
	}
	for (int k = 0; k < nt * rs->nsets; k++)
		counters_init(&rs->set[k]);
	for (int t = 0; t < nt; t++) {
		int sw = 1;
		struct counters_how how = *base;
		if (how.cpu_wide)
			how.cpu = targets[t];
		pid_t pid = how.cpu_wide ? -1 : (pid_t)targets[t];
		for (int i = 0; i < m->nevents; i++) {
			struct stat_event *e = &m->ev[i];
			int *slot = &rs->slot[t * m->nevents + i];
			*slot = -1;
			if (e->source != STAT_PERF || !e->available || e->pass != pass)
				continue;
			int si = 0;
			if (e->hardware) {
				how.grouped = 1;
			} else {
				how.grouped = 0;
				if (rs->set[t * rs->nsets + sw].n == COUNTERS_MAX)
					sw++;
				if (sw >= rs->nsets)
					continue;
				si = sw;
			}
			struct counter_set *s = &rs->set[t * rs->nsets + si];
			struct as_error oe = { 0 };
			int rc = counters_add(s, measure_stat_alias(e->name), pid, &how, &oe);
			if (rc == 0)
				*slot = si * COUNTERS_MAX + s->n - 1;
			else if (t == 0 && !e->reason[0] && rc != -EXDEV) /* -EXDEV: not on this CPU (cpumask) */
				as_error_copy(e->reason, sizeof(e->reason), oe.msg);
		}
	}
	return 0;
}

static void sets_switch(struct run_sets *rs, int on)
{
	for (int k = 0; k < rs->nt * rs->nsets; k++)
		for (int j = 0; j < rs->set[k].n; j++)
			on ? counters_enable_one(&rs->set[k], j) : counters_disable_one(&rs->set[k], j);
}

/* Event i summed over the targets (NaN when no target counted it); *share the smallest share. */
static double sets_read(struct run_sets *rs, int i, double *share)
{
	double sum = NAN;
	*share = 0;
	for (int t = 0; t < rs->nt; t++) {
		int slot = rs->slot[t * rs->nevents + i];
		if (slot < 0)
			continue;
		struct counter_set *s = &rs->set[t * rs->nsets + slot / COUNTERS_MAX];
		int j = slot % COUNTERS_MAX;
		struct as_error re = { 0 };
		if (counters_read_one(s, j, &re) != 0 || isnan(s->value[j]))
			continue;
		*share = isnan(sum) ? s->running[j] : fmin(*share, s->running[j]);
		sum = isnan(sum) ? s->value[j] : sum + s->value[j];
	}
	return sum;
}

/* -I: one more interval of run r: every event's count since the previous one (prev holds the
 * counts so far and is updated). */
static int interval_record(struct measure_stat *m, const struct stat_opts *o, struct run_sets *rs, int pass, int r,
			   double t_s, double *prev)
{
	struct stat_interval *ni = array_grow(m->intervals, &m->intervals_cap, (size_t)m->nint, sizeof(*ni), 64);
	if (!ni)
		return -ENOMEM;
	m->intervals = ni;
	struct stat_interval *iv = &m->intervals[m->nint];
	iv->run = r;
	iv->t_s = t_s;
	iv->delta = malloc((size_t)m->nevents * sizeof(double) + 1);
	if (!iv->delta)
		return -ENOMEM;
	for (int i = 0; i < m->nevents; i++) {
		iv->delta[i] = NAN;
		if (m->ev[i].source != STAT_PERF || m->ev[i].pass != pass)
			continue;
		double share, v = sets_read(rs, i, &share);
		if (isnan(v))
			continue;
		iv->delta[i] = isnan(prev[i]) ? v : v - prev[i];
		prev[i] = v;
	}
	m->nint++;
	if (o->on_interval)
		o->on_interval(o->ctx, m, iv);
	return 0;
}

static const int interrupt_sigs[] = { SIGINT, SIGTERM, SIGHUP };

static void block_interrupts(sigset_t *old)
{
	sigset_t block;
	sigemptyset(&block);
	for (size_t i = 0; i < sizeof(interrupt_sigs) / sizeof(interrupt_sigs[0]); i++)
		sigaddset(&block, interrupt_sigs[i]);
	sigprocmask(SIG_BLOCK, &block, old);
}

/* Forks argv held at a gate, in its own process group (common/interrupt.h), its stderr into efd.
 * The pid (the gate's write end in *gate_w, exec's report pipe in *report_r), or -errno. */
static pid_t fork_gated(char *const argv[], const struct stat_opts *o, int efd, int *gate_w, int *report_r, int *tty,
			struct as_error *err)
{
	*tty = -1;
	int gate[2], report[2];
	if (pipe2(gate, O_CLOEXEC) != 0)
		return as_error_set(err, -errno, "stat: pipe failed");
	if (pipe2(report, O_CLOEXEC) != 0) {
		int e = errno;
		close(gate[0]);
		close(gate[1]);
		return as_error_set(err, -e, "stat: pipe failed");
	}
	/* no signal between fork and the child's own group: it would reach neither */
	sigset_t old;
	block_interrupts(&old);
	pid_t pid = fork();
	if (pid == 0) {
		interrupt_child_setup();
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(gate[1]);
		close(report[0]);
		if (o->stdout_fd >= 0)
			dup2(o->stdout_fd, 1);
		if (efd >= 0)
			dup2(efd, 2);
		char c;
		ssize_t got;
		while ((got = read(gate[0], &c, 1)) < 0 && errno == EINTR)
			;
		if (got != 1)
			_exit(125); /* archscope gave up before the start */
		execvp(argv[0], argv);
		int e = errno;
		ssize_t w = write(report[1], &e, sizeof(e));
		(void)w;
		_exit(127);
	}
	int fe = errno;
	if (pid > 0) {
		interrupt_watch(pid);
		*tty = measure_tty_give(pid);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(gate[0]);
	close(report[1]);
	if (pid < 0) {
		close(gate[1]);
		close(report[0]);
		char eb[96];
		return as_error_set(err, -fe, "cannot start '%s': fork failed: %s", argv[0], as_strerror(fe, eb, sizeof(eb)));
	}
	*gate_w = gate[1];
	*report_r = report[0];
	return pid;
}

/* Lets the gated child exec: 0 once it has, or -errno with the reason when exec failed (the
 * child is then reaped). */
static int release_gated(char *const argv[], pid_t pid, int gate_w, int report_r, int tty, struct as_error *err)
{
	ssize_t w = write(gate_w, "g", 1);
	close(gate_w);
	int exec_errno = 0;
	ssize_t got;
	while ((got = read(report_r, &exec_errno, sizeof(exec_errno))) < 0 && errno == EINTR)
		;
	close(report_r);
	if (w == 1 && got != (ssize_t)sizeof(exec_errno))
		return 0;
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	interrupt_watch(0);
	measure_tty_take(tty);
	if (w != 1)
		return as_error_set(err, -EIO, "cannot start '%s': the gate closed", argv[0]);
	char msg[sizeof(err->msg)];
	int rc = measure_exec_explain(argv[0], exec_errno, msg, sizeof(msg));
	return as_error_set(err, rc, "%s", msg);
}

/* Kills a gated child that will not run. */
static void abort_gated(pid_t pid, int gate_w, int report_r, int tty)
{
	close(gate_w); /* the child exits 125 at the closed gate */
	close(report_r);
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	interrupt_watch(0);
	measure_tty_take(tty);
}

static int pidfd_open_pid(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* Waits until one of fds (pidfds; n may be 0) is readable, recording an interval at each tick of
 * -I, or until a signal arrived when stop_on_signal. The signals of common/interrupt.h are
 * blocked around it and let in only inside ppoll, so none is missed. Returns the index of the
 * fd that ended the wait, n for a signal, or -errno. */
static int wait_window(struct measure_stat *m, const struct stat_opts *o, struct run_sets *rs, int pass, int r,
		       const int *fds, int n, int stop_on_signal, uint64_t t0, double *prev)
{
	sigset_t old;
	block_interrupts(&old);
	sigset_t inside = old;
	for (size_t i = 0; i < sizeof(interrupt_sigs) / sizeof(interrupt_sigs[0]); i++)
		sigdelset(&inside, interrupt_sigs[i]);
	struct pollfd pfd[2];
	for (int i = 0; i < n && i < 2; i++)
		pfd[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	uint64_t step = o->interval_s > 0 ? (uint64_t)(o->interval_s * 1e9) : 0, next = t0 + step;
	int rc = n;
	for (;;) {
		if (stop_on_signal && interrupt_signal())
			break;
		struct timespec ts, *tp = NULL;
		if (step) {
			uint64_t now = timer_now_ns();
			uint64_t left = next > now ? next - now : 0;
			ts = (struct timespec){ (time_t)(left / 1000000000u), (long)(left % 1000000000u) };
			tp = &ts;
		}
		int got = ppoll(pfd, (nfds_t)n, tp, &inside);
		if (got < 0 && errno != EINTR) {
			rc = -errno;
			break;
		}
		int ended = -1;
		for (int i = 0; got > 0 && i < n; i++)
			if (pfd[i].revents)
				ended = i;
		if (ended >= 0) {
			rc = ended;
			break;
		}
		if (step && timer_now_ns() >= next) {
			if (interval_record(m, o, rs, pass, r, (double)(next - t0) / 1e9, prev) != 0) {
				rc = -ENOMEM;
				break;
			}
			next += step;
			uint64_t now = timer_now_ns();
			if (now > next + step) /* fell behind (a loaded machine): skip the missed ticks */
				next = now - (now - t0) % step + step;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* The online CPUs, for -a: from /sys (0..N-1 where it cannot be read). */
static int online_cpus(int **cpus)
{
	int n = 0;
	size_t cap = 0;
	*cpus = NULL;
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	char buf[4096] = "";
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	for (char *p = buf; *p && *p != '\n';) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long c = a; c <= b && c < 1 << 20; c++) {
			int *nc = array_grow(*cpus, &cap, (size_t)n, sizeof(int), 64);
			if (!nc)
				return n;
			*cpus = nc;
			(*cpus)[n++] = (int)c;
		}
		p = *end == ',' ? end + 1 : end;
	}
	if (n == 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		*cpus = malloc((size_t)(c > 0 ? c : 1) * sizeof(int));
		for (long i = 0; *cpus && i < (c > 0 ? c : 1); i++)
			(*cpus)[n++] = (int)i;
	}
	return n;
}

/* The threads of a running process (/proc/PID/task), for -p. */
static int process_threads(pid_t pid, int **tids)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	*tids = NULL;
	DIR *d = opendir(path);
	if (!d)
		return -errno;
	int n = 0;
	size_t cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		long t = strtol(de->d_name, &end, 10);
		if (*end || t <= 0)
			continue;
		int *nt = array_grow(*tids, &cap, (size_t)n, sizeof(int), 16);
		if (!nt) {
			closedir(d);
			return -ENOMEM;
		}
		*tids = nt;
		(*tids)[n++] = (int)t;
	}
	closedir(d);
	return n;
}

/* Records run k's values: the events of this pass from rs (NULL: none), the pseudo events of pass 0
 * from ru (NULL: not our child), ss and the wall time. */
static void run_record(struct measure_stat *m, int pass, int k, struct run_sets *rs, const struct rusage *ru,
		       const double ss[3], double wall_ns)
{
	for (int i = 0; i < m->nevents; i++) {
		struct stat_event *e = &m->ev[i];
		if (e->source == STAT_PERF) {
			if (e->pass != pass)
				continue;
			double share = 0, v = rs ? sets_read(rs, i, &share) : NAN;
			measure_stat_record(e, k, v, share);
		} else if (pass == 0 && e->available) {
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
	int efd = tmpfile_fd(err);
	if (efd < 0)
		return as_error_prefix(err, "stat: a file for the program's stderr: ");
	int gate_w, report_r, tty;
	pid_t pid = fork_gated(argv, o, efd, &gate_w, &report_r, &tty, err);
	if (pid < 0) {
		close(efd);
		return (int)pid;
	}
	struct run_sets rs;
	int system = o->target == STAT_TARGET_SYSTEM;
	struct counters_how how = { .inherit = !system, .enable_on_exec = !system, .kernel = m->kernel,
				    .cpu_wide = system };
	int *cpus = NULL, ncpu = 0;
	int rc = 0;
	if (system) {
		ncpu = online_cpus(&cpus);
		m->ncpus = ncpu;
		rc = sets_open(m, pass, cpus, ncpu, &how, &rs);
	} else {
		int one = (int)pid;
		rc = sets_open(m, pass, &one, 1, &how, &rs);
	}
	free(cpus);
	if (rc)
		rc = as_error_set(err, rc, "stat: out of memory");
	else if (m->per_thread)
		rc = measure_stat_thread_seize(m, pass, pid, err);
	if (rc) {
		abort_gated(pid, gate_w, report_r, tty);
		sets_close(&rs);
		close(efd);
		return rc;
	}
	double *prev = malloc((size_t)m->nevents * sizeof(double) + 1);
	for (int i = 0; prev && i < m->nevents; i++)
		prev[i] = NAN;
	if (system)
		sets_switch(&rs, 1);
	struct cond_window win;
	cond_window_begin(&win, NULL, NULL, 0); /* the program may run on every allowed CPU */
	uint64_t t0 = timer_now_ns();
	rc = release_gated(argv, pid, gate_w, report_r, tty, err);
	if (rc) {
		cond_window_end(&win, &r->cond); /* closes its counter */
		free(prev);
		sets_close(&rs);
		close(efd);
		return rc;
	}
	double ss[3] = { NAN, NAN, NAN };
	int st = 0;
	struct rusage ru;
	memset(&ru, 0, sizeof(ru));
	uint64_t t1;
	if (m->per_thread) {
		measure_stat_thread_wait(m, pass, m->nrun, pid, &st, &ru, ss);
		t1 = timer_now_ns();
	} else {
		int pfd = pidfd_open_pid(pid);
		if (pfd >= 0) {
			/* the program's end, and the ticks of -I (the signals were sent on by the handler) */
			wait_window(m, o, &rs, pass, m->nrun, &pfd, 1, 0, t0, prev);
			close(pfd);
		}
		siginfo_t si;
		while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
			;
		t1 = timer_now_ns();
		if (system)
			sets_switch(&rs, 0);
		measure_stat_read_schedstat(pid, ss);
		while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR)
			;
	}
	cond_window_own(&win, tv_us(ru.ru_utime) * 1e-6 + tv_us(ru.ru_stime) * 1e-6, (double)(ru.ru_nvcsw + ru.ru_nivcsw));
	cond_window_end(&win, &r->cond);
	cond_summary_final(&r->cond);
	interrupt_watch(0);
	measure_tty_take(tty);
	r->seconds = (double)(t1 - t0) / 1e9;
	spawn_status(st, &r->exited, &r->status);
	stderr_collect(efd, o->stderr_fd, r);
	close(efd);
	/* with the terminal, Ctrl-C went to the program alone: its death by SIGINT is the interrupt */
	int tty_sigint = tty >= 0 && !r->exited && r->status == SIGINT;
	if (interrupt_signal() || tty_sigint) {
		/* the signal cut this run: it never enters the statistics, nor do its intervals */
		while (m->nint > 0 && m->intervals[m->nint - 1].run == m->nrun)
			free(m->intervals[--m->nint].delta);
		free(prev);
		sets_close(&rs);
		m->interrupted = 1;
		m->signal = interrupt_signal() ? interrupt_signal() : SIGINT;
		return 0;
	}
	if (o->interval_s > 0 && prev)
		interval_record(m, o, &rs, pass, m->nrun, (double)(t1 - t0) / 1e9, prev);
	free(prev);
	run_record(m, pass, k, &rs, &ru, ss, (double)(t1 - t0));
	sets_close(&rs);
	m->nrun++;
	return 0;
}

/* -p PID, or -a without a program: one window from now until the process exits, the timing
 * program (argv, not counted) ends, or a signal (the normal way to end it: m->signal). */
static int count_window(struct measure_stat *m, char *const argv[], const struct stat_opts *o, struct as_error *err)
{
	int attach = o->target == STAT_TARGET_ATTACH;
	int *targets = NULL;
	int nt = attach ? process_threads(o->attach_pid, &targets) : online_cpus(&targets);
	if (nt <= 0) {
		free(targets);
		char eb[96];
		return as_error_set(err, nt == 0 ? -ESRCH : nt, "-p %d: no such process (%s)", (int)o->attach_pid,
				    as_strerror(nt == 0 ? ESRCH : -nt, eb, sizeof(eb)));
	}
	if (!attach)
		m->ncpus = nt;
	struct counters_how how = { .inherit = attach, .kernel = m->kernel, .cpu_wide = !attach };
	struct run_sets rs;
	int rc = sets_open(m, 0, targets, nt, &how, &rs);
	free(targets);
	if (rc)
		return as_error_set(err, rc, "stat: out of memory");
	if (attach) {
		/* a process we may not count fails on every thread: say so once, as an error */
		int any = 0;
		for (int i = 0; i < m->nevents; i++)
			for (int t = 0; t < rs.nt && !any; t++)
				any = rs.slot[t * m->nevents + i] >= 0;
		if (!any) {
			const char *why = "";
			for (int i = 0; i < m->nevents && !why[0]; i++)
				if (m->ev[i].source == STAT_PERF)
					why = m->ev[i].reason;
			sets_close(&rs);
			return as_error_set(err, -EPERM, "-p %d: no event could be opened on it: %s", (int)o->attach_pid,
					    why[0] ? why : "no events");
		}
	}
	int fds[2], n = 0;
	int tfd = -1;
	pid_t timer = -1;
	if (attach) {
		tfd = pidfd_open_pid(o->attach_pid);
		if (tfd >= 0)
			fds[n++] = tfd;
	}
	int gate_w = -1, report_r = -1, tty = -1;
	if (argv && argv[0]) {
		timer = fork_gated(argv, o, -1, &gate_w, &report_r, &tty, err);
		if (timer < 0) {
			if (tfd >= 0)
				close(tfd);
			sets_close(&rs);
			return (int)timer;
		}
	}
	double ss0[3] = { NAN, NAN, NAN }, ss1[3] = { NAN, NAN, NAN };
	if (attach)
		measure_stat_read_schedstat(o->attach_pid, ss0);
	double *prev = malloc((size_t)m->nevents * sizeof(double) + 1);
	for (int i = 0; prev && i < m->nevents; i++)
		prev[i] = NAN;
	sets_switch(&rs, 1);
	uint64_t t0 = timer_now_ns();
	if (timer > 0) {
		rc = release_gated(argv, timer, gate_w, report_r, tty, err);
		if (rc) {
			free(prev);
			if (tfd >= 0)
				close(tfd);
			sets_close(&rs);
			return rc;
		}
		int pfd = pidfd_open_pid(timer);
		if (pfd >= 0)
			fds[n++] = pfd;
	}
	wait_window(m, o, &rs, 0, 0, fds, n, 1, t0, prev);
	uint64_t t1 = timer_now_ns();
	sets_switch(&rs, 0);
	if (attach)
		measure_stat_read_schedstat(o->attach_pid, ss1);
	if (timer > 0) {
		/* the timing program: ended, or ended now (the process ended first, or a signal) */
		kill(-timer, SIGTERM);
		while (waitpid(timer, NULL, 0) < 0 && errno == EINTR)
			;
		interrupt_watch(0);
		measure_tty_take(tty);
	}
	for (int i = 0; i < n; i++)
		close(fds[i]);
	if (o->interval_s > 0 && prev)
		interval_record(m, o, &rs, 0, 0, (double)(t1 - t0) / 1e9, prev);
	free(prev);
	double ss[3];
	for (int j = 0; j < 3; j++)
		ss[j] = ss1[j] - ss0[j];
	struct stat_run *r = &m->run[0];
	memset(r, 0, sizeof(*r));
	r->exited = 1;
	r->seconds = (double)(t1 - t0) / 1e9;
	run_record(m, 0, 0, &rs, NULL, ss, (double)(t1 - t0));
	sets_close(&rs);
	m->signal = interrupt_signal();
	m->nrun = 1;
	return 0;
}

int measure_stat_begin(struct measure_stat *m, char *const argv[], const struct stat_opts *o, struct as_error *err)
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
	m->signal = 0;
	m->per_thread = o->per_thread;
	m->target = o->target;
	m->attach_pid = o->attach_pid;
	m->interval_s = o->interval_s;
	m->window = o->target == STAT_TARGET_ATTACH || (o->target == STAT_TARGET_SYSTEM && !(argv && argv[0]));
	if (o->target != STAT_TARGET_PROGRAM) {
		/* what wait4 and the main thread give: a process that is not our child has no rusage */
		for (int i = 0; i < m->nevents; i++) {
			struct stat_event *e = &m->ev[i];
			int no_child = m->window && e->source == STAT_RUSAGE;
			int no_main = e->source == STAT_SCHEDSTAT && o->target == STAT_TARGET_SYSTEM && m->window;
			int later = e->source == STAT_PERF && m->window && e->pass > 0;
			if (no_child || no_main || later) {
				e->available = 0;
				snprintf(e->reason, sizeof(e->reason), "%s",
					 no_child ? "rusage comes from wait4 of a program archscope started; -p and -a "
						    "without a program have none"
					 : no_main ? "-a without a program has no main thread"
						   : "needs a further batch of runs, which -p and -a without a program cannot "
						     "repeat");
			}
		}
	}
	return 0;
}

int measure_stat_step(struct measure_stat *m, char *const argv[], const struct stat_opts *o, struct as_error *err)
{
	int total = m->window ? 1 : m->runs * m->passes;
	if (m->interrupted || m->nrun >= total)
		return 0;
	if (interrupt_signal()) {
		m->interrupted = 1;
		m->signal = interrupt_signal();
		return 0;
	}
	if (m->window) {
		int rc = count_window(m, argv, o, err);
		return rc ? rc : 0;
	}
	if (o->progress)
		o->progress(o->ctx, m->nrun, total);
	int rc = run_once(m, m->nrun / m->runs, m->nrun % m->runs, argv, o, err);
	if (rc)
		return rc;
	return !m->interrupted && m->nrun < total;
}

void measure_stat_finish(struct measure_stat *m)
{
	for (int i = 0; i < m->nevents; i++)
		measure_stat_summarise(&m->ev[i], m->runs);
}

int measure_stat_run(struct measure_stat *m, char *const argv[], const struct stat_opts *o, struct as_error *err)
{
	int rc = measure_stat_begin(m, argv, o, err);
	while (rc == 0 && (rc = measure_stat_step(m, argv, o, err)) > 0)
		rc = 0;
	if (rc < 0)
		return rc;
	measure_stat_finish(m);
	return 0;
}
