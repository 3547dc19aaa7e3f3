/* libarchscope-marker.so: LIKWID's marker API (the functions likwid-marker.h's macros call) and
 * archscope's own (include/archscope-marker.h), preloaded by `archscope stat --regions` before
 * liblikwid so a program built against LIKWID runs unchanged. Each thread counts its own software
 * and (where the machine has them) hardware events with perf_event_open; the accounts
 * (account.c) go to $ARCHSCOPE_MARKER_OUT/regions.PID at likwid_markerClose, at exit, or partial
 * on SIGINT/SIGTERM/SIGHUP. libc only; it never writes to the program's streams. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "measure/marker/account.h"

#define API __attribute__((visibility("default")))

/* likwid.h's prototypes (LIKWID 5), and archscope-marker.h's without its weak attribute */
API void likwid_markerInit(void);
API void likwid_markerThreadInit(void);
API void likwid_markerNextGroup(void);
API void likwid_markerClose(void);
API int likwid_markerRegisterRegion(const char *regionTag);
API int likwid_markerStartRegion(const char *regionTag);
API int likwid_markerStopRegion(const char *regionTag);
API int likwid_markerResetRegion(const char *regionTag);
API void likwid_markerGetRegion(const char *regionTag, int *nr_events, double *events, double *time, int *count);
API int archscope_region_begin(const char *name);
API int archscope_region_end(const char *name);

/* The default set; $ARCHSCOPE_MARKER_EVENTS (stat --regions -e) replaces it */
static const struct marker_event defaults[MARKER_NEVENTS] = {
	{ "task-clock", "ns", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "context-switches", "events", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", "events", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "page-faults", "events", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "cycles", "events", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", "events", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
};
static struct marker_event events[MARKER_EVENTS_MAX];
static int nevents;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct marker_thread *threads;  /* newest first; never freed (written at exit) */
static int nthreads;
static int inited, closed, written;
static unsigned generation;            /* a fork()ed child starts its accounts again */
static char outdir[512];
static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

/* stack --regions: the preload library's waits of the calling thread (scale/preload/regions.c),
 * NULL when it is not loaded; the accounts' names (cpu, runq, then its primitives) */
static int (*stack_waits)(unsigned long long *ns, int cap, const char **names);
static int nstack;
static const char *stack_names[MARKER_STACK_MAX];

struct mine {
	struct marker_thread *t;
	unsigned gen;
	int fd[MARKER_EVENTS_MAX];
	int schedstat;                 /* /proc/thread-self/schedstat (stack --regions), -1: none */
};
static __thread struct mine me;
static pthread_key_t exit_key;         /* its destructor closes an ending thread's counters */

static void thread_exit(void *unused)
{
	(void)unused;
	for (int e = 0; e < nevents && me.gen == generation && me.t; e++)
		if (me.fd[e] >= 0)
			close(me.fd[e]);
	if (me.gen == generation && me.t && me.schedstat >= 0)
		close(me.schedstat);
	me.t = NULL;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int counter_open(int e)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = events[e].type;
	a.config = events[e].config;
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) { /* perf_event_paranoid may allow user mode only */
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	return fd;
}

/* This thread's account, made (with its counters) at its first use; NULL out of memory. */
static struct marker_thread *thread_me(void)
{
	if (me.t && me.gen == generation)
		return me.t;
	struct marker_thread *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = (int)syscall(SYS_gettid);
	t->nev = nevents;
	for (int e = 0; e < nevents; e++) {
		me.fd[e] = counter_open(e);
		if (me.fd[e] >= 0)
			t->available |= 1u << e;
	}
	me.schedstat = nstack ? open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC) : -1;
	pthread_mutex_lock(&lock);
	t->index = nthreads++;
	t->next = threads;
	__atomic_store_n(&threads, t, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&lock);
	me.t = t;
	me.gen = generation;
	pthread_setspecific(exit_key, t);
	return t;
}

static void counters_read(const struct marker_thread *t, uint64_t *v)
{
	for (int e = 0; e < nevents; e++) {
		v[e] = 0;
		if (((t->available >> e) & 1u) && read(me.fd[e], &v[e], sizeof(v[e])) != (ssize_t)sizeof(v[e]))
			v[e] = 0;
	}
}

/* The calling thread's time by kind (stack --regions): CPU time, run-queue time (schedstat's
 * second field), then the preload library's waits; nstack values in ns. */
static void stack_read(uint64_t *st)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	st[0] = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	st[1] = 0;
	char buf[96];
	ssize_t n = me.schedstat >= 0 ? pread(me.schedstat, buf, sizeof(buf) - 1, 0) : -1;
	if (n > 0) {
		buf[n] = 0;
		char *p = strchr(buf, ' ');
		st[1] = p ? strtoull(p + 1, NULL, 10) : 0;
	}
	unsigned long long w[MARKER_STACK_MAX];
	int k = stack_waits(w, MARKER_STACK_MAX - 2, NULL);
	for (int i = 0; i < nstack - 2; i++)
		st[2 + i] = i < k ? w[i] : 0;
}

/* The record, atomically: a temporary file renamed over regions.PID. Signal-safe. */
static void record_write(const char *status)
{
	if (!outdir[0] || !threads)
		return;
	static const char *names[MARKER_EVENTS_MAX], *units[MARKER_EVENTS_MAX];
	for (int e = 0; e < nevents; e++) {
		names[e] = events[e].name;
		units[e] = events[e].unit;
	}
	char pid[16], path[600], tmp[640];
	int n = 0;
	for (int p = (int)getpid(); p; p /= 10)
		pid[n++] = (char)('0' + p % 10);
	for (int i = 0; i < n / 2; i++) {
		char c = pid[i];
		pid[i] = pid[n - 1 - i];
		pid[n - 1 - i] = c;
	}
	pid[n] = 0;
	size_t d = strlen(outdir);
	memcpy(path, outdir, d);
	memcpy(path + d, "/" MARKER_FILE_PREFIX, sizeof(MARKER_FILE_PREFIX) + 1);
	strcat(path, pid);
	memcpy(tmp, outdir, d);
	memcpy(tmp + d, "/.tmp.", 7);
	strcat(tmp, pid);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	int rc = marker_record_write(fd, (int)getpid(), status, nevents, names, units, nstack, stack_names, threads);
	if (close(fd) != 0 || rc != 0 || rename(tmp, path) != 0)
		unlink(tmp);
	written = 1;
}

static void on_signal(int sig)
{
	char status[16] = "signal ";
	status[7] = (char)('0' + sig / 10);
	status[8] = (char)('0' + sig % 10);
	status[9] = 0;
	record_write(status);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void after_fork_child(void)
{
	/* the child's threads are not the parent's: its accounts start again, its record is its own */
	threads = NULL;
	nthreads = 0;
	written = 0;
	generation++;
	pthread_mutex_init(&lock, NULL);
}

static void init_once(void)
{
	if (inited)
		return;
	inited = 1;
	/* stat --regions -e: the user's events (archscope checked them: a malformed list, which only
	 * another caller could give, counts nothing rather than the wrong events) */
	const char *list = getenv(MARKER_ENV_EVENTS);
	nevents = list ? marker_events_parse(list, events, MARKER_EVENTS_MAX) : 0;
	if (!list || nevents < 0) {
		memcpy(events, defaults, sizeof(defaults));
		nevents = list ? 0 : MARKER_NEVENTS;
	}
	const char *dir = getenv(MARKER_ENV_OUT);
	if (dir && strlen(dir) < sizeof(outdir) - 32)
		strcpy(outdir, dir);
	pthread_atfork(NULL, NULL, after_fork_child);
	/* under stack --regions the preload library is there too: each region gets its waits */
	stack_waits = (int (*)(unsigned long long *, int, const char **))dlsym(RTLD_DEFAULT, MARKER_STACK_SYM);
	if (stack_waits && outdir[0]) {
		int k = stack_waits(NULL, MARKER_STACK_MAX - 2, stack_names + 2);
		stack_names[0] = "cpu";
		stack_names[1] = "runq";
		nstack = 2 + (k < MARKER_STACK_MAX - 2 ? k : MARKER_STACK_MAX - 2);
	}
	pthread_key_create(&exit_key, thread_exit);
	for (size_t i = 0; outdir[0] && i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;
		/* only where the program keeps the default: its own handlers stay */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL) {
			struct sigaction sa;
			memset(&sa, 0, sizeof(sa));
			sa.sa_handler = on_signal;
			sigemptyset(&sa.sa_mask);
			sigaction(sigs[i], &sa, NULL);
		}
	}
}

__attribute__((destructor)) static void at_exit_write(void)
{
	if (inited && !closed && !written)
		record_write("exit");
}

/* ---- LIKWID's marker API (likwid.h's prototypes) ---- */

API void likwid_markerInit(void)
{
	init_once();
}

API void likwid_markerThreadInit(void)
{
	if (inited && !closed)
		thread_me();
}

API void likwid_markerNextGroup(void)
{
	/* one set of counters: nothing to switch */
}

API void likwid_markerClose(void)
{
	if (!inited || closed)
		return;
	record_write("close");
	closed = 1;
}

/* The calling thread's regions while the library is open: 0, or -EFAULT (not open) or -ENOMEM. */
static int thread_open(struct marker_thread **t)
{
	if (!inited || closed)
		return -EFAULT;
	return (*t = thread_me()) ? 0 : -ENOMEM;
}

API int likwid_markerRegisterRegion(const char *regionTag)
{
	struct marker_thread *t;
	int rc = thread_open(&t);
	int i = rc ? rc : marker_region_find(t, regionTag, 1);
	return i < 0 ? i : 0;
}

/* A region's start or stop on the calling thread: the clock is read on the region's side of the
 * counters (a start after reading them, a stop before), so the region's time leaves them out. */
static int region_mark(const char *tag, int stop)
{
	uint64_t ns = stop ? now_ns() : 0;
	struct marker_thread *t;
	int rc = thread_open(&t);
	if (rc)
		return rc;
	uint64_t c[MARKER_EVENTS_MAX], st[MARKER_STACK_MAX];
	if (stop && nstack) {
		stack_read(st);
		marker_region_stack(t, tag, st, nstack, 1);
	}
	counters_read(t, c);
	if (stop)
		return marker_region_stop(t, tag, ns, c);
	rc = marker_region_start(t, tag, now_ns(), c);
	if (rc == 0 && nstack) {
		stack_read(st);
		marker_region_stack(t, tag, st, nstack, 0);
	}
	return rc;
}

API int likwid_markerStartRegion(const char *regionTag)
{
	return region_mark(regionTag, 0);
}

API int likwid_markerStopRegion(const char *regionTag)
{
	return region_mark(regionTag, 1);
}

API int likwid_markerResetRegion(const char *regionTag)
{
	struct marker_thread *t;
	int rc = thread_open(&t);
	return rc ? rc : marker_region_reset(t, regionTag);
}

API void likwid_markerGetRegion(const char *regionTag, int *nr_events, double *events_out, double *time, int *count)
{
	struct marker_thread *t = inited && me.gen == generation ? me.t : NULL;
	marker_region_get(t, regionTag, nr_events, events_out, time, count);
}

/* ---- archscope's own (include/archscope-marker.h) ---- */

API int archscope_region_begin(const char *name)
{
	init_once();
	return likwid_markerStartRegion(name);
}

API int archscope_region_end(const char *name)
{
	return likwid_markerStopRegion(name);
}
