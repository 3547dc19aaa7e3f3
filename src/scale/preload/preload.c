/* The preload library's core: per-thread accounts of the time spent waiting in each primitive,
 * each thread's run and run-queue time from schedstat, and the record written at exit (record.h).
 * It depends on libc alone and never writes to the program's streams or changes its results. */
#include "scale/preload/preload.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static struct preload_thread threads[PRELOAD_THREADS_MAX];
static int nthreads;                 /* slots claimed (atomic) */
static int alive, alive_max;         /* threads running now, and the most at once (atomic) */
static int enabled;                  /* $ARCHSCOPE_STACK_DIR is set */
static char dir[512];
static uint64_t process_start_ns;              /* the image's start: its main thread's (P line) */
static uint64_t clock0_ns, process_start_ticks; /* one instant on both clocks, for ns per tick */
static pid_t self_pid;               /* this process (a vfork child shares our memory, not our pid) */
static int forked;                   /* this image is a fork()ed child */
static int in_fini;                  /* the record is written by the destructor */
static pthread_key_t thread_key;     /* its destructor closes a thread's account */
static int key_ok;
__thread int preload_inside __attribute__((tls_model("initial-exec")));
__thread struct preload_thread *preload_me __attribute__((tls_model("initial-exec")));
int preload_counter;
uint64_t preload_region_end;

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
		/* the main thread, or one made without pthread_create: alive since its task began,
		 * which was before this library's constructor (fork, exec, loading: 1-1.5 ms of CPU
		 * for each of gcc, cc1 and as in a KVM guest, 4 % of a make -j2 build's slots). After
		 * an exec wrapper it began where the old image's record ended (SCALE_ENV_EXEC: its
		 * clocks there are subtracted); else (posix_spawn, system, an exec no wrapper saw)
		 * at its birth: now less the CPU and run-queue time it has had, its clocks counted
		 * from 0 (a task blocked before the constructor would start late by that much) */
		uint64_t now = preload_now_ns(), run = thread_cpu_ns(t->tid, 1), runq = 0;
		if (schedstat_read("/proc/thread-self/schedstat", &(uint64_t){ 0 }, &runq) != 0)
			runq = 0;
		int pid = 0;
		unsigned long long er = 0, eq = 0, et = 0;
		const char *note = t->tid == getpid() ? getenv(SCALE_ENV_EXEC) : NULL;
		if (note && sscanf(note, "%d:%llu:%llu:%llu", &pid, &er, &eq, &et) == 4 && pid == (int)t->tid &&
		    er <= run && eq <= runq && et <= now) {
			t->start_ns = et;
			t->run_ns = er;
			t->runq_ns = eq;
		} else {
			t->start_ns = now - (run + runq < now ? run + runq : 0);
			t->run_ns = t->runq_ns = 0;
		}
		if (note)
			unsetenv(SCALE_ENV_EXEC); /* a later exec no wrapper sees must not find it */
	}
	alive_add(1);
	preload_me = t;
	whatif_thread_start();
	/* closed at the thread's end however it ends (return, pthread_exit, cancellation, a runtime's
	 * own exit path): the key's destructor runs in the exiting thread */
	if (key_ok)
		pthread_setspecific(thread_key, t);
}

static void key_end(void *p)
{
	struct preload_thread *t = p;
	if (t && t == preload_me)
		preload_thread_end(t);
}

/* Adds ticks (and `calls` calls) of prim at addr to t. */
static void account_n(struct preload_thread *t, int prim, uint64_t ticks, uintptr_t addr, uint64_t calls)
{
	t->wait_ticks[prim] += ticks;
	t->calls[prim] += calls;
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
			s->calls += calls;
			return;
		}
	}
}

void preload_account(struct preload_thread *t, int prim, uint64_t ticks, uintptr_t addr)
{
	account_n(t, prim, ticks, addr, 1);
}

void preload_account_n(struct preload_thread *t, int prim, uint64_t ticks, uintptr_t addr, uint64_t calls)
{
	account_n(t, prim, ticks, addr, calls);
}

/* Runtime waits (preload.h). A worker's implicit barrier that ran on past its region's end is
 * split there: the barrier until the master left the region, idle after. */
static void rt_charge(struct preload_thread *t, struct preload_wait *w, uint64_t now, uint64_t calls)
{
	if (!w->counted || w->prim < 0)
		return;
	uint64_t t0 = w->t0 ? w->t0 : now;
	uint64_t end = __atomic_load_n(&preload_region_end, __ATOMIC_ACQUIRE);
	if (w->split && end > t0 && end < now) {
		account_n(t, w->prim, end - t0, w->site, calls);
		account_n(t, PRIM_OMP_IDLE, now - end, w->site, calls);
	} else {
		account_n(t, w->prim, now > t0 ? now - t0 : 0, w->site, calls);
	}
}

void preload_rt_begin(struct preload_thread *t, int prim, uintptr_t site, int split)
{
	if (!t || t->nws >= PRELOAD_WAITS)
		return;
	struct preload_wait *w = &t->ws[t->nws++];
	w->prim = (signed char)prim;
	w->site = site;
	w->split = (char)split;
	w->prev_inside = (char)preload_inside;
	w->counted = !preload_inside;
	w->t0 = preload_ticks();
	preload_inside = 1;
}

void preload_rt_end(struct preload_thread *t)
{
	if (!t || t->nws <= 0 || t->ws[t->nws - 1].prim < 0)
		return;
	struct preload_wait *w = &t->ws[--t->nws];
	rt_charge(t, w, preload_ticks(), 1);
	preload_inside = w->prev_inside;
}

void preload_rt_task_enter(struct preload_thread *t)
{
	if (!t || t->nws >= PRELOAD_WAITS)
		return;
	if (t->nws > 0 && t->ws[t->nws - 1].prim >= 0 && t->ws[t->nws - 1].t0) {
		struct preload_wait *w = &t->ws[t->nws - 1];
		rt_charge(t, w, preload_ticks(), 0); /* the wait so far; its call counts at its end */
		w->t0 = 0;
	}
	struct preload_wait *m = &t->ws[t->nws++];
	m->prim = -1;
	m->prev_inside = (char)preload_inside;
	m->counted = 0;
	preload_inside = 0; /* the task's own waits count */
}

void preload_rt_task_leave(struct preload_thread *t)
{
	if (!t || t->nws <= 0 || t->ws[t->nws - 1].prim >= 0)
		return;
	preload_inside = t->ws[--t->nws].prev_inside;
	if (t->nws > 0 && t->ws[t->nws - 1].prim >= 0 && !t->ws[t->nws - 1].t0)
		t->ws[t->nws - 1].t0 = preload_ticks();
}

void preload_rt_close(struct preload_thread *t, uint64_t now)
{
	for (int i = t->nws - 1; i >= 0; i--)
		if (t->ws[i].prim >= 0 && t->ws[i].t0) {
			rt_charge(t, &t->ws[i], now, 1);
			t->ws[i].t0 = 0;
			t->ws[i].counted = 0;
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
	char *e1, *e2; /* strtoull: sscanf's first use costs a process ~10 us of page faults */
	unsigned long long a = strtoull(buf, &e1, 10), b = strtoull(e1, &e2, 10);
	errno = saved;
	if (e1 == buf || e2 == e1)
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
	whatif_thread_stop();
	preload_rt_close(t, preload_ticks());
	t->end_ns = preload_now_ns();
	uint64_t cpu = thread_cpu_ns(t->tid, 1); /* at the end, before the schedstat read */
	uint64_t run0 = t->run_ns, runq0 = t->runq_ns;
	uint64_t ignored;
	t->schedstat_ok = schedstat_read("/proc/thread-self/schedstat", &ignored, &t->runq_ns) == 0;
	if (t->schedstat_ok)
		t->runq_ns -= runq0 < t->runq_ns ? runq0 : t->runq_ns;
	else
		t->runq_ns = 0; /* no schedstat: no run-queue wait known */
	t->run_ns = cpu > run0 ? cpu - run0 : 0;
	t->ended = 1;
	alive_add(-1);
}

/* Appends to the record buffer, writing it out when full. */
struct out {
	int fd;
	int failed;  /* a write failed: the record is not complete */
	size_t n;
	char buf[8192];
};

static void out_flush(struct out *o)
{
	size_t off = 0;
	while (off < o->n) {
		ssize_t w = write(o->fd, o->buf + off, o->n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			o->failed = 1;
			break;
		}
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

/* One executable segment of a loaded object as a mapping line ("M start end offset path"): what
 * /proc/self/maps lists for it (page-aligned start and file offset), without the kernel formatting
 * every mapping (40-200 us an image in a KVM guest). The path ends at the first blank or control
 * character, as the record's reader takes it. */
static void map_write(struct out *o, uint64_t start, uint64_t end, uint64_t off, const char *path)
{
	char clean[1024];
	size_t n = 0;
	while (path[n] && (unsigned char)path[n] > ' ' && path[n] != 0x7f && n + 1 < sizeof(clean)) {
		clean[n] = path[n];
		n++;
	}
	clean[n] = 0;
	if (clean[0] == '/')
		out_printf(o, "M %llx %llx %llx %s\n", (unsigned long long)start, (unsigned long long)end,
			   (unsigned long long)off, clean);
}

static int map_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	struct out *o = arg;
	char path[1024];
	const char *name = info->dlpi_name;
	if (!name || !*name) { /* the program itself */
		ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
		if (n <= 0)
			return 0;
		path[n] = 0;
		name = path;
	} else if (name[0] != '/') { /* found by a relative search path */
		if (!realpath(name, path))
			return 0;
		name = path;
	}
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || !ph->p_memsz)
			continue;
		uint64_t start = info->dlpi_addr + ph->p_vaddr;
		map_write(o, start & ~(page - 1), (start + ph->p_memsz + page - 1) & ~(page - 1), ph->p_offset & ~(page - 1),
			  name);
	}
	return 0;
}

/* The executable mappings from /proc/self/maps: where dl_iterate_phdr may not be safe (below). */
static void maps_write_proc(struct out *o)
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

/* The executable mappings of this image, so archscope can turn call-site and sampled addresses
 * into file:line and code: from the loader's list at a normal exit (the destructor), else (_exit,
 * which a signal handler may call; an exec; a forked child, where a thread that no longer exists
 * may hold the loader's lock) from /proc/self/maps. */
static void maps_write(struct out *o)
{
	if (in_fini && !forked)
		dl_iterate_phdr(map_object, o);
	else
		maps_write_proc(o);
	/* then the modules dlclose unloaded (after the live ones: a range reused since is read as
	 * the live module's) */
	uint64_t start, end, off;
	const char *path;
	for (size_t k = 0; preload_unloaded(k, &start, &end, &off, &path); k++)
		map_write(o, start, end, off, path);
}

/* This process's name, for the record: the main thread's own (no /proc read) when it is the one
 * writing, else /proc/self/comm (the main thread's, whoever asks). */
static void comm_read(char *buf, size_t len)
{
	char name[64] = { 0 };
	buf[0] = 0;
	if (syscall(SYS_gettid) == getpid()) {
		if (prctl(PR_GET_NAME, name) != 0)
			name[0] = 0;
	} else {
		int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			ssize_t n = read(fd, name, sizeof(name) - 1);
			close(fd);
			name[n > 0 ? n : 0] = 0;
		}
	}
	size_t i = 0;
	for (; name[i] && name[i] != '\n' && i + 1 < len; i++)
		buf[i] = name[i] < ' ' ? '_' : name[i];
	buf[i] = 0;
}

void preload_record_write(int final)
{
	if (!enabled || getpid() != self_pid) /* a vfork child: the accounts are its parent's */
		return;
	int saved = errno;
	if (final)
		whatif_pay(); /* the end of a process wakes its parent */
	whatif_write(dir, (int)self_pid, (unsigned long long)process_start_ns);
	uint64_t now = preload_now_ns(), now_ticks = preload_ticks();
	/* ns per tick of preload_ticks(), over this process's run (1 when ticks are ns) */
	uint64_t dticks = now_ticks - process_start_ticks, dns = now - clock0_ns;
	double ns_per_tick = preload_counter && dticks > 0 ? (double)dns / (double)dticks : 1.0;
	struct out *o = &(struct out){ .fd = -1 };
	/* written under a temporary name beside it (not "rec.", which archscope reads), renamed when
	 * complete: a process killed while writing (GNU parallel SIGKILLs the children it no longer
	 * needs, some in their exec wrapper) leaves no torn record, and an exec that fails and is
	 * tried again (a PATH search) replaces the record whole */
	char path[600], tmp[640];
	snprintf(path, sizeof(path), "%s/rec.%d.%llu", dir, (int)self_pid, (unsigned long long)process_start_ns);
	snprintf(tmp, sizeof(tmp), "%s/tmp.%d.%llu.%ld", dir, (int)self_pid, (unsigned long long)process_start_ns,
		 (long)syscall(SYS_gettid));
	o->fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (o->fd < 0) {
		errno = saved;
		return;
	}
	int n = __atomic_load_n(&nthreads, __ATOMIC_RELAXED);
	if (n > PRELOAD_THREADS_MAX)
		n = PRELOAD_THREADS_MAX;
	int ok = 1;
	char comm[64];
	comm_read(comm, sizeof(comm));
	out_printf(o, "V 2\n");
	/* the P line's schedstat flag is known only after the threads: written in place below */
	for (int i = 0; i < n; i++) {
		struct preload_thread *t = &threads[i];
		if (t->tid == 0)
			continue;
		uint64_t end = t->end_ns, run = t->run_ns, runq = t->runq_ns;
		uint64_t wait_ticks[PRIM_COUNT];
		int sok = t->schedstat_ok;
		if (!t->ended) {
			/* still running (the caller of exit among them): its end is now */
			char sp[96];
			snprintf(sp, sizeof(sp), "/proc/self/task/%d/schedstat", (int)t->tid);
			end = now;
			uint64_t ignored, rq;
			sok = schedstat_read(sp, &ignored, &rq) == 0;
			uint64_t cpu = thread_cpu_ns(t->tid, t == preload_me);
			if (sok && cpu) {
				runq = rq > t->runq_ns ? rq - t->runq_ns : 0;
				run = cpu > t->run_ns ? cpu - t->run_ns : 0;
			} else {
				run = runq = 0; /* gone without a word (cancelled): unknown */
			}
			if (final) {
				preload_rt_close(t, now_ticks);
				t->end_ns = end;
				t->run_ns = run;
				t->runq_ns = runq;
				t->schedstat_ok = sok;
				t->ended = 1;
			}
		}
		memcpy(wait_ticks, t->wait_ticks, sizeof(wait_ticks));
		if (!final) { /* the waits still open, up to now, in this record only */
			struct preload_thread copy = *t;
			preload_rt_close(&copy, now_ticks);
			memcpy(wait_ticks, copy.wait_ticks, sizeof(wait_ticks));
		}
		ok &= sok;
		out_printf(o, "T %d %llu %llu %llu %llu", (int)t->tid, (unsigned long long)t->start_ns,
			   (unsigned long long)end, (unsigned long long)run, (unsigned long long)runq);
		for (int p = 0; p < PRIM_COUNT; p++)
			out_printf(o, " %llu", (unsigned long long)((double)wait_ticks[p] * ns_per_tick));
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
	out_printf(o, "P %d %d %llu %llu %d %d %s\n", (int)self_pid, (int)getppid(),
		   (unsigned long long)process_start_ns, (unsigned long long)now, alive_max, ok, comm);
	maps_write(o);
	out_flush(o);
	if (close(o->fd) != 0 || o->failed || rename(tmp, path) != 0)
		unlink(tmp); /* no record rather than a torn one */
	errno = saved;
}

uint64_t preload_lock_short_ticks(void)
{
	static uint64_t cached; /* races are benign: every thread computes the same */
	uint64_t v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
	if (v)
		return v;
	if (!preload_counter)
		return PRELOAD_LOCK_SHORT_NS; /* ticks are ns */
	uint64_t ns = preload_now_ns(), ticks = preload_ticks();
	if (ns - clock0_ns < 1000000)
		return 2 * 4 * PRELOAD_LOCK_SHORT_NS;
	v = (uint64_t)((double)(ticks - process_start_ticks) / (double)(ns - clock0_ns) * PRELOAD_LOCK_SHORT_NS);
	__atomic_store_n(&cached, v ? v : 1, __ATOMIC_RELAXED);
	return v ? v : 1;
}

void preload_exec_prepare(char *buf, size_t cap)
{
	buf[0] = 0;
	if (!enabled || getpid() != self_pid)
		return;
	uint64_t runq = 0, now = preload_now_ns(), run = thread_cpu_ns((pid_t)syscall(SYS_gettid), 1);
	int sok = schedstat_read("/proc/thread-self/schedstat", &(uint64_t){ 0 }, &runq) == 0;
	preload_record_write(0); /* the old image's record, with or without a note */
	if (sok)
		snprintf(buf, cap, "%s=%d:%llu:%llu:%llu", SCALE_ENV_EXEC, (int)getpid(), (unsigned long long)run,
			 (unsigned long long)runq, (unsigned long long)now);
}

/* After fork() the child is a new process with one thread: its accounts start afresh. */
static void atfork_child(void)
{
	self_pid = getpid();
	forked = 1;
	/* only the slots the parent used: the rest are still untouched zero pages */
	int used = __atomic_load_n(&nthreads, __ATOMIC_RELAXED);
	memset(threads, 0, (size_t)(used < PRELOAD_THREADS_MAX ? used : PRELOAD_THREADS_MAX) * sizeof(threads[0]));
	nthreads = 0;
	alive = alive_max = 0;
	preload_me = NULL;
	preload_inside = 0; /* forked inside a wrapper (system, popen): the child is not in it */
	whatif_atfork_child();
	process_start_ns = clock0_ns = preload_now_ns();
	process_start_ticks = preload_ticks();
	preload_self();
}

double preload_ns_per_tick(void)
{
	uint64_t now = preload_now_ns(), now_ticks = preload_ticks();
	uint64_t dticks = now_ticks - process_start_ticks, dns = now - clock0_ns;
	return preload_counter && dticks > 0 ? (double)dns / (double)dticks : 1.0;
}

__attribute__((constructor)) static void preload_init(void)
{
	const char *d = getenv(SCALE_ENV_DIR);
	if (!d || !*d || strlen(d) >= sizeof(dir))
		return;
	memcpy(dir, d, strlen(d) + 1);
	const char *tsc = getenv(SCALE_ENV_TSC); /* archscope's answer, else ask the CPU */
	preload_counter = tsc && (tsc[0] == '0' || tsc[0] == '1') && !tsc[1] ? tsc[0] == '1' : scale_counter_usable();
	process_start_ns = clock0_ns = preload_now_ns();
	process_start_ticks = preload_ticks();
	self_pid = getpid();
	key_ok = pthread_key_create(&thread_key, key_end) == 0;
	enabled = 1;
	whatif_init();
	struct preload_thread *me = preload_self();
	if (me && me->start_ns < process_start_ns) /* exec and loading are this image's */
		process_start_ns = me->start_ns;
	pthread_atfork(NULL, NULL, atfork_child);
}

__attribute__((destructor)) static void preload_fini(void)
{
	in_fini = 1;
	preload_record_write(1);
	enabled = 0;
}
