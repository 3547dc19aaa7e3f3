/* The preload library's core: per-thread accounts of the time spent waiting in each primitive,
 * each thread's run and run-queue time from schedstat, and the record written at exit (record.h).
 * It depends on libc alone and never writes to the program's streams or changes its results. */
#include "scale/preload/preload.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static struct preload_thread threads[PRELOAD_THREADS_MAX];
static int nthreads;                 /* slots claimed (atomic) */
static int alive, alive_max;         /* threads running now, and the most at once (atomic) */
static int enabled;                  /* $ARCHSCOPE_STACK_DIR is set */
static char dir[512];
static uint64_t process_start_ns, process_start_ticks;
__thread int preload_inside __attribute__((tls_model("initial-exec")));
__thread struct preload_thread *preload_me __attribute__((tls_model("initial-exec")));
int preload_counter;

uint64_t preload_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void *preload_real(const char *name)
{
	/* pthread_cond_* exist in two versions on x86_64 and dlsym may give the old one (2.2.5),
	 * whose condition variables differ: ask for the current one first. */
	void *p = NULL;
	if (strncmp(name, "pthread_cond_", 13) == 0)
		p = dlvsym(RTLD_NEXT, name, "GLIBC_2.3.2");
	if (!p)
		p = dlsym(RTLD_NEXT, name);
	return p;
}

static int schedstat_read(const char *path, uint64_t *run_ns, uint64_t *runq_ns);
static uint64_t thread_cpu_ns(pid_t tid, int self_thread);

static void alive_add(int d)
{
	int now = __atomic_add_fetch(&alive, d, __ATOMIC_RELAXED);
	int max = __atomic_load_n(&alive_max, __ATOMIC_RELAXED);
	while (now > max && !__atomic_compare_exchange_n(&alive_max, &max, now, 0, __ATOMIC_RELAXED,
							 __ATOMIC_RELAXED))
		;
}

/* A free slot, or NULL when the table is full. */
static struct preload_thread *slot_claim(void)
{
	int i = __atomic_fetch_add(&nthreads, 1, __ATOMIC_RELAXED);
	if (i >= PRELOAD_THREADS_MAX)
		return NULL;
	return &threads[i];
}

struct preload_thread *preload_self(void)
{
	if (!enabled)
		return NULL;
	if (!preload_me) {
		struct preload_thread *t = slot_claim();
		if (!t)
			return NULL;
		preload_thread_begin(t);
	}
	return preload_me;
}

struct preload_thread *preload_thread_new(void)
{
	struct preload_thread *t = enabled ? slot_claim() : NULL;
	if (t) /* alive from its creation: a wait for a first CPU is the run queue's, not idle */
		t->start_ns = preload_now_ns();
	return t;
}

void preload_thread_begin(struct preload_thread *t)
{
	t->tid = (pid_t)syscall(SYS_gettid);
	if (t->start_ns) {
		/* made by the pthread_create wrapper: new, so its clocks started at 0 with it */
		t->run_ns = t->runq_ns = 0;
	} else {
		/* the main thread, or one made without pthread_create: its times so far (the main
		 * thread's exec and loading) are subtracted at its end */
		t->start_ns = preload_now_ns();
		if (schedstat_read("/proc/thread-self/schedstat", &t->run_ns, &t->runq_ns) != 0)
			t->run_ns = t->runq_ns = 0;
		t->run_ns = thread_cpu_ns(t->tid, 1);
	}
	alive_add(1);
	preload_me = t;
}

void preload_account(struct preload_thread *t, int prim, uint64_t ticks, uintptr_t addr)
{
	t->wait_ticks[prim] += ticks;
	t->calls[prim]++;
	/* the call site: open addressing on the return address */
	unsigned h = (unsigned)((addr >> 2) * 2654435761u) % PRELOAD_SITES;
	for (int k = 0; k < 8; k++) {
		struct preload_site *s = &t->sites[(h + (unsigned)k) % PRELOAD_SITES];
		if (s->addr == 0) {
			s->addr = addr;
			s->prim = prim;
		}
		if (s->addr == addr && s->prim == prim) {
			s->wait_ticks += ticks;
			s->calls++;
			return;
		}
	}
}

/* Reads "run_ns runq_ns slices" from a schedstat file; 0 on success. */
static int schedstat_read(const char *path, uint64_t *run_ns, uint64_t *runq_ns)
{
	int saved = errno;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		errno = saved;
		return -1;
	}
	char buf[128];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	errno = saved;
	if (n <= 0)
		return -1;
	buf[n] = 0;
	unsigned long long a, b;
	if (sscanf(buf, "%llu %llu", &a, &b) != 2)
		return -1;
	*run_ns = a;
	*runq_ns = b;
	return 0;
}

/* A thread's CPU time in ns, exact to now: schedstat's first field is only brought up to date at
 * a context switch or a tick, so a running thread reading its own misses its current slice (up to
 * a tick, 4 ms at HZ=250). The clock of another thread of this process is the kernel's per-thread
 * CPU clock id, (~tid << 3) | 6 (CPUCLOCK_SCHED | CPUCLOCK_PERTHREAD). 0 when unreadable. */
static uint64_t thread_cpu_ns(pid_t tid, int self_thread)
{
	struct timespec ts;
	clockid_t id = self_thread ? CLOCK_THREAD_CPUTIME_ID : (clockid_t)((~(unsigned)tid << 3) | 6);
	if (clock_gettime(id, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void preload_thread_end(struct preload_thread *t)
{
	if (!t || t->ended)
		return;
	t->end_ns = preload_now_ns();
	uint64_t run0 = t->run_ns, runq0 = t->runq_ns;
	uint64_t ignored;
	t->schedstat_ok = schedstat_read("/proc/thread-self/schedstat", &ignored, &t->runq_ns) == 0;
	if (t->schedstat_ok)
		t->runq_ns -= runq0 < t->runq_ns ? runq0 : t->runq_ns;
	else
		t->runq_ns = 0; /* no schedstat: no run-queue wait known */
	uint64_t cpu = thread_cpu_ns(t->tid, 1);
	t->run_ns = cpu > run0 ? cpu - run0 : 0;
	t->ended = 1;
	alive_add(-1);
}

/* Appends to the record buffer, writing it out when full. */
struct out {
	int fd;
	size_t n;
	char buf[8192];
};

static void out_flush(struct out *o)
{
	size_t off = 0;
	while (off < o->n) {
		ssize_t w = write(o->fd, o->buf + off, o->n - off);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	o->n = 0;
}

static void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_printf(struct out *o, const char *fmt, ...)
{
	if (o->n > sizeof(o->buf) - 1024)
		out_flush(o);
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(o->buf + o->n, sizeof(o->buf) - o->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		o->n += (size_t)k < sizeof(o->buf) - o->n ? (size_t)k : sizeof(o->buf) - o->n - 1;
}

/* The executable mappings, so archscope can turn call-site addresses into file:line. */
static void maps_write(struct out *o)
{
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	char buf[4096 + 1024];
	size_t have = 0;
	for (;;) {
		ssize_t n = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = 0;
		char *line = buf, *nl;
		while ((nl = strchr(line, '\n'))) {
			*nl = 0;
			unsigned long long a, b, off;
			char perm[8], path[1024];
			path[0] = 0;
			if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %1023s", &a, &b, perm, &off, path) >= 4 &&
			    perm[2] == 'x' && path[0] == '/')
				out_printf(o, "M %llx %llx %llx %s\n", a, b, off, path);
			line = nl + 1;
		}
		have = strlen(line);
		memmove(buf, line, have);
		if (have >= sizeof(buf) - 1)
			have = 0; /* a line longer than the buffer: dropped */
	}
	close(fd);
}

static void record_write(void)
{
	if (!enabled)
		return;
	int saved = errno;
	uint64_t now = preload_now_ns();
	/* ns per tick of preload_ticks(), over this process's run (1 when ticks are ns) */
	uint64_t dticks = preload_ticks() - process_start_ticks, dns = now - process_start_ns;
	double ns_per_tick = preload_counter && dticks > 0 ? (double)dns / (double)dticks : 1.0;
	struct out *o = &(struct out){ .fd = -1 };
	char path[600];
	snprintf(path, sizeof(path), "%s/rec.%d", dir, (int)getpid());
	o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (o->fd < 0) {
		errno = saved;
		return;
	}
	int n = __atomic_load_n(&nthreads, __ATOMIC_RELAXED);
	if (n > PRELOAD_THREADS_MAX)
		n = PRELOAD_THREADS_MAX;
	/* threads still running (the caller of exit among them): their end is now */
	for (int i = 0; i < n; i++) {
		struct preload_thread *t = &threads[i];
		if (t->ended || t->tid == 0)
			continue;
		char sp[96];
		snprintf(sp, sizeof(sp), "/proc/self/task/%d/schedstat", (int)t->tid);
		t->end_ns = now;
		uint64_t run0 = t->run_ns, runq0 = t->runq_ns, ignored;
		t->schedstat_ok = schedstat_read(sp, &ignored, &t->runq_ns) == 0;
		uint64_t cpu = thread_cpu_ns(t->tid, t == preload_me);
		if (t->schedstat_ok && cpu) {
			t->runq_ns -= runq0 < t->runq_ns ? runq0 : t->runq_ns;
			t->run_ns = cpu > run0 ? cpu - run0 : 0;
		} else {
			t->run_ns = t->runq_ns = 0; /* gone without a word (cancelled): unknown */
		}
		t->ended = 1;
	}
	int ok = 1;
	for (int i = 0; i < n; i++)
		ok &= threads[i].schedstat_ok || threads[i].tid == 0;
	out_printf(o, "P %d %llu %llu %d %d\n", (int)getpid(), (unsigned long long)process_start_ns,
		   (unsigned long long)now, alive_max, ok);
	for (int i = 0; i < n; i++) {
		struct preload_thread *t = &threads[i];
		if (t->tid == 0)
			continue;
		out_printf(o, "T %d %llu %llu %llu %llu", (int)t->tid, (unsigned long long)t->start_ns,
			   (unsigned long long)t->end_ns, (unsigned long long)t->run_ns,
			   (unsigned long long)t->runq_ns);
		for (int p = 0; p < PRIM_COUNT; p++)
			out_printf(o, " %llu", (unsigned long long)((double)t->wait_ticks[p] * ns_per_tick));
		for (int p = 0; p < PRIM_COUNT; p++)
			out_printf(o, " %llu", (unsigned long long)t->calls[p]);
		out_printf(o, "\n");
		for (int k = 0; k < PRELOAD_SITES; k++) {
			const struct preload_site *s = &t->sites[k];
			if (s->addr)
				out_printf(o, "S %d %llx %llu %llu\n", s->prim, (unsigned long long)s->addr,
					   (unsigned long long)((double)s->wait_ticks * ns_per_tick),
					   (unsigned long long)s->calls);
		}
	}
	maps_write(o);
	out_flush(o);
	close(o->fd);
	errno = saved;
}

/* After fork() the child is a new process with one thread: its accounts start afresh. */
static void atfork_child(void)
{
	memset(threads, 0, sizeof(threads));
	nthreads = 0;
	alive = alive_max = 0;
	preload_me = NULL;
	process_start_ns = preload_now_ns();
	process_start_ticks = preload_ticks();
	preload_self();
}

/* Whether preload_ticks() may read the CPU's counter: on x86 only an invariant TSC (CPUID
 * 0x80000007 EDX bit 8: one rate on every core, in every P- and C-state), whose ticks convert
 * to ns by one ratio; the ARM generic timer always has a fixed rate. */
static int counter_usable(void)
{
#if defined(__x86_64__)
	unsigned a, b, c, d;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x80000000u), "c"(0));
	if (a < 0x80000007u)
		return 0;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x80000007u), "c"(0));
	return (d >> 8) & 1;
#elif defined(__aarch64__)
	return 1;
#else
	return 0;
#endif
}

__attribute__((constructor)) static void preload_init(void)
{
	const char *d = getenv(SCALE_ENV_DIR);
	if (!d || !*d || strlen(d) >= sizeof(dir))
		return;
	memcpy(dir, d, strlen(d) + 1);
	preload_counter = counter_usable();
	process_start_ns = preload_now_ns();
	process_start_ticks = preload_ticks();
	enabled = 1;
	preload_self();
	pthread_atfork(NULL, NULL, atfork_child);
}

__attribute__((destructor)) static void preload_fini(void)
{
	record_write();
	enabled = 0;
}
