/* Per-thread counting through ptrace; see stat-thread.h. The tracer follows clone, fork and vfork
 * (every task the program starts), opens each task's counters (no inherit) while its creator is
 * stopped at the event, and reads them at the task's exit stop. Signals are passed on untouched. */
#include "measure/stat-thread.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "common/array.h"
#include "measure/counters.h"

struct stat_tracee {
	pid_t tid;
	int index;
	int nsets;
	struct counter_set *sets;   /* the pass's perf events, COUNTERS_MAX a set */
	int *slot;                  /* per event: set * COUNTERS_MAX + index, -1: not open */
};

static void tracee_close(struct stat_tracee *t)
{
	for (int s = 0; s < t->nsets; s++)
		counters_close(&t->sets[s]);
	free(t->sets);
	free(t->slot);
	t->sets = NULL;
	t->slot = NULL;
	t->nsets = 0;
}

/* Opens the pass's perf events on one task. enable_on_exec for the main thread (counting starts
 * at its exec, as the totals do); a new task counts from its creation. */
static int tracee_open(struct measure_stat *m, int pass, pid_t tid, int on_exec)
{
	struct stat_tracee *nl = array_grow(m->live, &m->live_cap, (size_t)m->nlive, sizeof(*nl), 8);
	if (!nl)
		return -ENOMEM;
	m->live = nl;
	struct stat_tracee *t = &m->live[m->nlive++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->index = m->next_index++;
	t->nsets = m->nevents / COUNTERS_MAX + 1;
	t->sets = calloc((size_t)t->nsets, sizeof(*t->sets));
	t->slot = malloc((size_t)m->nevents * sizeof(int));
	if (!t->sets || !t->slot)
		return -ENOMEM;
	for (int s = 0; s < t->nsets; s++)
		counters_init(&t->sets[s]);
	struct counters_how how = { .enable_on_exec = on_exec, .kernel = m->kernel };
	int s = 0;
	for (int i = 0; i < m->nevents; i++) {
		const struct stat_event *e = &m->ev[i];
		t->slot[i] = -1;
		if (e->source != STAT_PERF || !e->available || e->pass != pass)
			continue;
		if (t->sets[s].n == COUNTERS_MAX)
			s++;
		struct as_error err = { 0 };
		if (s < t->nsets && counters_add(&t->sets[s], measure_stat_alias(e->name), tid, &how, &err) == 0)
			t->slot[i] = s * COUNTERS_MAX + t->sets[s].n - 1;
	}
	/* a task created already running: start its counters now (open leaves them disabled) */
	if (!on_exec)
		for (int k = 0; k < t->nsets; k++)
			for (int j = 0; j < t->sets[k].n; j++)
				counters_enable_one(&t->sets[k], j);
	return 0;
}

static struct stat_tracee *tracee_find(struct measure_stat *m, pid_t tid)
{
	for (int i = 0; i < m->nlive; i++)
		if (m->live[i].tid == tid)
			return &m->live[i];
	return NULL;
}

/* The task's final counts become a stat_thread of this run. */
static void tracee_finish(struct measure_stat *m, int run, struct stat_tracee *t)
{
	struct stat_thread *nt = array_grow(m->threads, &m->threads_cap, (size_t)m->nthreads, sizeof(*nt), 8);
	if (nt) {
		m->threads = nt;
		struct stat_thread *th = &m->threads[m->nthreads];
		memset(th, 0, sizeof(*th));
		th->values = malloc((size_t)m->nevents * sizeof(double));
		if (th->values) {
			th->run = run;
			th->index = t->index;
			th->tid = t->tid;
			char path[64];
			snprintf(path, sizeof(path), "/proc/%d/comm", (int)t->tid);
			FILE *f = fopen(path, "r");
			if (f) {
				if (fgets(th->comm, sizeof(th->comm), f))
					th->comm[strcspn(th->comm, "\n")] = 0;
				fclose(f);
			}
			for (int i = 0; i < m->nevents; i++) {
				th->values[i] = NAN;
				if (t->slot[i] < 0)
					continue;
				struct counter_set *s = &t->sets[t->slot[i] / COUNTERS_MAX];
				int j = t->slot[i] % COUNTERS_MAX;
				struct as_error err = { 0 };
				if (counters_read_one(s, j, &err) == 0)
					th->values[i] = s->value[j];
			}
			m->nthreads++;
		}
	}
	tracee_close(t);
	*t = m->live[--m->nlive];
}

int measure_stat_thread_seize(struct measure_stat *m, int pass, pid_t pid, struct as_error *err)
{
	long opts = PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXIT |
		    PTRACE_O_EXITKILL;
	if (ptrace(PTRACE_SEIZE, pid, NULL, (void *)opts) != 0) {
		char eb[96];
		return as_error_set(err, -errno, "--per-thread: cannot trace the program: %s (kernel.yama.ptrace_scope?)",
				    as_strerror(errno, eb, sizeof(eb)));
	}
	m->next_index = 0;
	if (tracee_open(m, pass, pid, 1) != 0)
		return as_error_set(err, -ENOMEM, "--per-thread: out of memory");
	return 0;
}

void measure_stat_read_schedstat(pid_t pid, double v[3])
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	FILE *f = fopen(path, "r");
	unsigned long long a, b, c;
	v[0] = v[1] = v[2] = NAN;
	if (!f)
		return;
	if (fscanf(f, "%llu %llu %llu", &a, &b, &c) == 3) {
		v[0] = (double)a;
		v[1] = (double)b;
		v[2] = (double)c;
	}
	fclose(f);
}

int measure_stat_thread_wait(struct measure_stat *m, int pass, int run, pid_t pid, int *status, struct rusage *ru, double ss[3])
{
	for (;;) {
		int st = 0;
		struct rusage r;
		pid_t w = wait4(-1, &st, __WALL, &r);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			break; /* ECHILD: nothing left */
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			struct stat_tracee *t = tracee_find(m, w);
			if (t) /* killed without an exit stop (SIGKILL): its counts are lost */
				tracee_finish(m, run, t);
			if (w == pid) {
				*status = st;
				*ru = r;
				break;
			}
			continue;
		}
		if (!WIFSTOPPED(st))
			continue;
		int sig = WSTOPSIG(st), event = st >> 16;
		int pass_sig = 0;
		if (sig == SIGTRAP && (event == PTRACE_EVENT_CLONE || event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK)) {
			unsigned long child = 0;
			if (ptrace(PTRACE_GETEVENTMSG, w, NULL, &child) == 0 && child)
				tracee_open(m, pass, (pid_t)child, 0);
		} else if (sig == SIGTRAP && event == PTRACE_EVENT_EXIT) {
			if (w == pid)
				measure_stat_read_schedstat(pid, ss);
			struct stat_tracee *t = tracee_find(m, w);
			if (t)
				tracee_finish(m, run, t);
		} else if (event == PTRACE_EVENT_STOP) {
			/* a new task's first stop, or a group stop: let it run */
		} else {
			pass_sig = sig; /* a signal for the program: deliver it */
		}
		ptrace(PTRACE_CONT, w, NULL, (void *)(long)pass_sig);
	}
	while (m->nlive)
		tracee_finish(m, run, &m->live[m->nlive - 1]);
	free(m->live);
	m->live = NULL;
	m->live_cap = 0;
	return 0;
}
