/* Virtual speedups for `archscope whatif` (Coz's causal profiling, SOSP'15, carried across
 * processes): every thread samples itself on its CPU-time clock; in profile mode a sample counts
 * its instruction address, in delay mode a sample that lands in the selected site adds speedup x
 * the CPU time since the thread's last sample to the global delay count (shared memory, the whole
 * process tree) and to the thread's own count, and a thread whose count is behind the global one
 * pauses the difference at its next sample or before it wakes another thread. A thread that was
 * blocked is credited the delay inserted while it was blocked (another thread woke it after paying
 * its own). Also Coz's progress-point ABI: _coz_get_counter. Nothing here runs unless
 * $ARCHSCOPE_WHATIF is set. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "scale/preload/preload.h"
#include "scale/preload/whatif.h"

#define WHATIF_SIG (SIGRTMAX - 3)
#define HIST_SIZE 16384 /* distinct sampled addresses kept per process image (profile mode) */

int whatif_on;
static int profile;
static struct whatif_shared *sh;
static uint64_t period_ns;
static double speedup;
static uintptr_t ranges[WHATIF_RANGES_MAX][2]; /* the site in this image, runtime addresses */
static int nranges;
static char site_path[1024];
static uint64_t offs[WHATIF_RANGES_MAX][2];     /* the site as file offsets of site_path */
static int noffs;
static int (*real_sleep)(clockid_t, int, const struct timespec *, struct timespec *);

static __thread uint64_t w_local __attribute__((tls_model("initial-exec")));     /* delay paid or credited, ns */
static __thread uint64_t w_last_cpu __attribute__((tls_model("initial-exec")));  /* CPU time at the last sample */
static __thread uint64_t w_block_g __attribute__((tls_model("initial-exec")));   /* global count when it blocked */
static __thread int w_depth __attribute__((tls_model("initial-exec")));          /* blocking calls open */
static __thread uint64_t w_last_wait __attribute__((tls_model("initial-exec"))); /* run-queue wait at the last read */
static __thread uint64_t w_wait_cpu __attribute__((tls_model("initial-exec")));  /* CPU time then */
static __thread int w_timer_ok __attribute__((tls_model("initial-exec")));
static __thread timer_t w_timer __attribute__((tls_model("initial-exec")));

static __thread int w_tid __attribute__((tls_model("initial-exec")));            /* its kernel thread id */

/* Profile mode: samples by (address, thread), so that `stack --whatif` can tell which threads ran
 * a site (the critical-path share). */
static struct {
	uintptr_t ip;
	int tid;
	unsigned long n;
} hist[HIST_SIZE];
static unsigned long hist_lost;

static uint64_t cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The calling thread's time spent runnable but waiting for a CPU, ns (the second field of
 * /proc/thread-self/schedstat); 0 when it cannot be read. Raw system calls: async-signal-safe, and
 * not this library's own read(). */
static uint64_t wait_now(void)
{
	char buf[96];
	int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	long n = syscall(SYS_read, fd, buf, sizeof(buf) - 1);
	syscall(SYS_close, fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	const char *p = buf;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p++ != ' ')
		return 0;
	uint64_t w = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		w = w * 10 + (uint64_t)(*p - '0');
	return w;
}

/* Starts the interval over which wait_ratio() measures (at a thread's start, after a pause). */
static void wait_mark(void)
{
	w_last_wait = wait_now();
	w_wait_cpu = cpu_now();
}

/* The time the thread waited for a CPU per ns of its CPU time since the last mark or call (read
 * only at samples in the site: the read is a few system calls, 30 us on a loaded VM, too dear for
 * every sample). */
static double wait_ratio(uint64_t cpu)
{
	uint64_t w = wait_now();
	double r = w > w_last_wait && cpu > w_wait_cpu ? (double)(w - w_last_wait) / (double)(cpu - w_wait_cpu) : 0;
	w_last_wait = w;
	w_wait_cpu = cpu;
	return r;
}

static void hist_add(uintptr_t ip, int tid)
{
	unsigned h = (unsigned)(((ip >> 1) ^ ((uintptr_t)tid * 40503u)) * 2654435761u) % HIST_SIZE;
	/* a slot is claimed by its address (compare and exchange), its tid written by the claiming
	 * thread right after; another thread that finds the address with another tid (or none yet)
	 * passes over it */
	for (int k = 0; k < 32; k++) {
		unsigned i = (h + (unsigned)k) % HIST_SIZE;
		uintptr_t cur = __atomic_load_n(&hist[i].ip, __ATOMIC_ACQUIRE);
		if (cur == 0) {
			uintptr_t want = 0;
			if (__atomic_compare_exchange_n(&hist[i].ip, &want, ip, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
				__atomic_store_n(&hist[i].tid, tid, __ATOMIC_RELEASE);
				__atomic_add_fetch(&hist[i].n, 1, __ATOMIC_RELAXED);
				return;
			}
			cur = want;
		}
		if (cur == ip && __atomic_load_n(&hist[i].tid, __ATOMIC_ACQUIRE) == tid) {
			__atomic_add_fetch(&hist[i].n, 1, __ATOMIC_RELAXED);
			return;
		}
	}
	__atomic_add_fetch(&hist_lost, 1, __ATOMIC_RELAXED);
}

static int in_site(uintptr_t ip)
{
	int n = __atomic_load_n(&nranges, __ATOMIC_ACQUIRE);
	for (int i = 0; i < n; i++)
		if (ip >= ranges[i][0] && ip < ranges[i][1])
			return 1;
	return 0;
}

/* A hex number at *p, moving *p past it. */
static uint64_t hex_next(const char **p)
{
	uint64_t v = 0;
	for (;; (*p)++) {
		char c = **p;
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0)
			return v;
		v = v * 16 + (uint64_t)d;
	}
}

/* One line of /proc/self/maps: an executable mapping of site_path places the site's offsets in it. */
static int place_line(const char *l, uintptr_t (*r)[2], int n)
{
	uint64_t lo = hex_next(&l);
	if (*l++ != '-')
		return n;
	uint64_t hi = hex_next(&l);
	if (*l++ != ' ' || l[2] != 'x')
		return n;
	l += 5;
	uint64_t off = hex_next(&l);
	for (int f = 0; f < 2 && *l; f++) { /* the device, the inode */
		while (*l == ' ')
			l++;
		while (*l && *l != ' ')
			l++;
	}
	while (*l == ' ')
		l++;
	if (strcmp(l, site_path) != 0)
		return n;
	for (int k = 0; k < noffs && n < WHATIF_RANGES_MAX; k++)
		if (offs[k][0] >= off && offs[k][0] < off + (hi - lo)) {
			r[n][0] = (uintptr_t)(lo + (offs[k][0] - off));
			r[n][1] = r[n][0] + (uintptr_t)(offs[k][1] - offs[k][0]);
			n++;
		}
	return n;
}

/* The site's module was not loaded when the process started (a library dlopened later: numpy's
 * OpenBLAS): from a sample, now and then, its mappings are looked up in /proc/self/maps with raw
 * system calls (async-signal-safe; dl_iterate_phdr takes the loader's lock, which the interrupted
 * thread may hold), and the ranges published once found. dlopen itself is not wrapped (see
 * unloaded.c). */
static void place_late(void)
{
	static int busy, tries;
	static char buf[1 << 16];
	static uintptr_t r[WHATIF_RANGES_MAX][2];
	if (__atomic_fetch_add(&tries, 1, __ATOMIC_RELAXED) % 16 != 0 || __atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
		return;
	int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC), n = 0;
	size_t have = 0;
	long got = 0;
	while (fd >= 0 && (got = syscall(SYS_read, fd, buf + have, sizeof(buf) - 1 - have)) > 0) {
		have += (size_t)got;
		buf[have] = 0;
		char *nl, *line = buf;
		while ((nl = strchr(line, '\n'))) {
			*nl = 0;
			n = place_line(line, r, n);
			line = nl + 1;
		}
		have = strlen(line); /* a line cut by the read: kept for the next */
		memmove(buf, line, have);
		if (have == sizeof(buf) - 1)
			have = 0;
	}
	if (fd >= 0)
		syscall(SYS_close, fd);
	if (n > 0 && __atomic_load_n(&nranges, __ATOMIC_ACQUIRE) == 0) {
		memcpy(ranges, r, sizeof(r[0]) * (size_t)n);
		__atomic_store_n(&nranges, n, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
}

/* Pauses the calling thread for the delay it owes (global count - its own), crediting what it
 * really slept (an overshoot is paid in advance). Async-signal-safe. */
void whatif_pay(void)
{
	if (!whatif_on || profile)
		return;
	uint64_t g = __atomic_load_n(&sh->delay_ns, __ATOMIC_RELAXED);
	if (w_local >= g)
		return;
	int saved = errno;
	struct timespec a, b, d = { (time_t)((g - w_local) / 1000000000u), (long)((g - w_local) % 1000000000u) };
	clock_gettime(CLOCK_MONOTONIC, &a);
	while (real_sleep(CLOCK_MONOTONIC, 0, &d, &d) == EINTR)
		;
	clock_gettime(CLOCK_MONOTONIC, &b);
	uint64_t slept = (uint64_t)(b.tv_sec - a.tv_sec) * 1000000000u + (uint64_t)b.tv_nsec - (uint64_t)a.tv_nsec;
	w_local += slept > g - w_local ? slept : g - w_local;
	__atomic_add_fetch(&sh->paused_ns, slept, __ATOMIC_RELAXED);
	if (nranges && speedup > 0)
		wait_mark(); /* waiting for a CPU after the pause is the pause's, not the site's */
	errno = saved;
}

void whatif_block(void)
{
	if (whatif_on && !profile && w_depth++ == 0)
		w_block_g = __atomic_load_n(&sh->delay_ns, __ATOMIC_RELAXED);
}

/* credit: the wait ended because another thread acted (a lock, a signal, data): the delay inserted
 * meanwhile is the waker's, already paid; else (a sleep, a timeout) the thread owes it. */
void whatif_unblock(int credit)
{
	if (!whatif_on || profile || w_depth <= 0 || --w_depth > 0)
		return;
	uint64_t g = __atomic_load_n(&sh->delay_ns, __ATOMIC_RELAXED);
	if (credit && g > w_block_g)
		w_local += g - w_block_g;
}

static void on_sample(int sig, siginfo_t *si, void *ucv)
{
	(void)sig;
	(void)si;
	int saved = errno;
	ucontext_t *uc = ucv;
#if defined(__x86_64__)
	uintptr_t ip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	uintptr_t ip = (uintptr_t)uc->uc_mcontext.pc;
#else
	uintptr_t ip = 0;
	(void)uc;
#endif
	uint64_t cpu = cpu_now(), dt = cpu > w_last_cpu ? cpu - w_last_cpu : 0;
	w_last_cpu = cpu;
	__atomic_add_fetch(&sh->samples, 1, __ATOMIC_RELAXED);
	long inflight = 0;
	for (int i = 0; i < sh->npoints && i < WHATIF_POINTS_MAX; i++) {
		struct whatif_point *p = &sh->points[i];
		if (__atomic_load_n(&p->used, __ATOMIC_ACQUIRE) == 2 && p->type != 1)
			inflight += (p->type == 2 ? 1 : -1) * (long)__atomic_load_n(&p->c.count, __ATOMIC_RELAXED);
	}
	if (inflight > 0)
		__atomic_add_fetch(&sh->inflight_sum, (uint64_t)inflight, __ATOMIC_RELAXED);
	if (profile) {
		hist_add(ip, w_tid ? w_tid : (int)syscall(SYS_gettid));
	} else {
		/* A site sped up by x saves x of the wall time it took: its CPU time and the time its thread
		 * waited for a CPU meanwhile (other load, or more threads than CPUs), at the thread's rate
		 * of waiting since its last sample in the site. Its CPU time alone would predict x times
		 * the CPU's share of the gain on a loaded machine. */
		if (noffs && !__atomic_load_n(&nranges, __ATOMIC_ACQUIRE))
			place_late();
		if (in_site(ip)) {
			uint64_t d = speedup > 0 ? (uint64_t)(speedup * (double)dt * (1 + wait_ratio(cpu))) : 0;
			__atomic_add_fetch(&sh->delay_ns, d, __ATOMIC_RELAXED);
			__atomic_add_fetch(&sh->site_samples, 1, __ATOMIC_RELAXED);
			w_local += d;
		}
		if (w_depth == 0)
			whatif_pay();
	}
	errno = saved;
}

void whatif_thread_start(void)
{
	if (!whatif_on)
		return;
	w_local = __atomic_load_n(&sh->delay_ns, __ATOMIC_RELAXED); /* its creator paid before */
	w_depth = 0;
	w_last_cpu = cpu_now();
	if (nranges && !profile && speedup > 0)
		wait_mark();
	struct sigevent ev;
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = WHATIF_SIG;
	w_tid = (int)syscall(SYS_gettid);
	ev._sigev_un._tid = w_tid;
	w_timer_ok = 0;
	/* A thread born with every signal blocked (liblzma's workers: xz -T2 gave 8 samples in 2.4 s
	 * of CPU time, -T1 712) would never take its samples; the signal is this library's own and
	 * goes to this thread only, so unblocking it changes nothing the program sees. */
	sigset_t mine;
	sigemptyset(&mine);
	sigaddset(&mine, WHATIF_SIG);
	pthread_sigmask(SIG_UNBLOCK, &mine, NULL);
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &w_timer) != 0)
		return;
	struct itimerspec it = { { (time_t)(period_ns / 1000000000u), (long)(period_ns % 1000000000u) },
				 { (time_t)(period_ns / 1000000000u), (long)(period_ns % 1000000000u) } };
	w_timer_ok = timer_settime(w_timer, 0, &it, NULL) == 0;
}

void whatif_thread_stop(void)
{
	if (!whatif_on)
		return;
	if (w_timer_ok) {
		timer_delete(w_timer);
		w_timer_ok = 0;
	}
	w_depth = 0;
	whatif_pay(); /* its end wakes its joiner */
}

/* The site's file offsets as runtime addresses of this image (the object loaded from site_path). */
static int map_site(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	char path[1024];
	const char *name = info->dlpi_name;
	if (!name || !*name) {
		ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
		if (n <= 0)
			return 0;
		path[n] = 0;
		name = path;
	} else if (name[0] != '/' || strcmp(name, site_path) != 0) {
		char rp[1024];
		if (!realpath(name, rp) || strcmp(rp, site_path) != 0)
			return 0;
		name = site_path;
	}
	if (strcmp(name, site_path) != 0)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		for (int k = 0; k < noffs && nranges < WHATIF_RANGES_MAX; k++)
			if (offs[k][0] >= ph->p_offset && offs[k][0] < ph->p_offset + ph->p_filesz) {
				uintptr_t a = info->dlpi_addr + ph->p_vaddr + (offs[k][0] - ph->p_offset);
				ranges[nranges][0] = a;
				ranges[nranges][1] = a + (offs[k][1] - offs[k][0]);
				nranges++;
			}
	}
	return 1;
}

/* Parses $ARCHSCOPE_WHATIF (whatif.h); 0 when it is whole. */
static int env_parse(const char *v, char *shm, size_t shmlen)
{
	char mode = v[0];
	if ((mode != 'p' && mode != 'd') || v[1] != ';')
		return -1;
	profile = mode == 'p';
	const char *p = v + 2, *semi = strchr(p, ';');
	if (!semi || (size_t)(semi - p) >= shmlen)
		return -1;
	memcpy(shm, p, (size_t)(semi - p));
	shm[semi - p] = 0;
	char *end;
	period_ns = strtoull(semi + 1, &end, 10);
	if (*end != ';' || period_ns < 10000)
		return -1;
	speedup = strtod(end + 1, &end);
	if (*end != ';' || !(speedup >= 0 && speedup <= 1))
		return -1;
	p = end + 1;
	while (*p && *p != ';' && noffs < WHATIF_RANGES_MAX) {
		unsigned long long lo = strtoull(p, &end, 16), hi;
		if (*end != '-')
			return -1;
		hi = strtoull(end + 1, &end, 16);
		if (hi <= lo || (*end != ',' && *end != ';'))
			return -1;
		offs[noffs][0] = lo;
		offs[noffs][1] = hi;
		noffs++;
		p = *end == ',' ? end + 1 : end;
	}
	if (*p != ';' || strlen(p + 1) >= sizeof(site_path))
		return -1;
	strcpy(site_path, p + 1);
	return 0;
}

void whatif_init(void)
{
	const char *v = getenv(WHATIF_ENV);
	char shm[512];
	if (!v || env_parse(v, shm, sizeof(shm)) != 0)
		return;
	real_sleep = (int (*)(clockid_t, int, const struct timespec *, struct timespec *))preload_real("clock_nanosleep");
	int fd = open(shm, O_RDWR | O_CLOEXEC);
	if (fd < 0 || !real_sleep)
		return;
	void *m = mmap(NULL, sizeof(struct whatif_shared), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return;
	sh = m;
	if (sh->magic != WHATIF_MAGIC) {
		munmap(m, sizeof(struct whatif_shared));
		sh = NULL;
		return;
	}
	__atomic_add_fetch(&sh->processes, 1, __ATOMIC_RELAXED);
	if (!profile && noffs)
		dl_iterate_phdr(map_site, NULL);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sample;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(WHATIF_SIG, &sa, NULL) != 0)
		return;
	whatif_on = 1;
}

void whatif_atfork_child(void)
{
	memset(hist, 0, sizeof(hist)); /* the parent's samples are in the parent's file */
	hist_lost = 0;
	w_timer_ok = 0; /* timers are not inherited: preload_self() makes the child's */
	w_tid = 0;      /* the child's thread has its own */
	if (whatif_on)
		__atomic_add_fetch(&sh->processes, 1, __ATOMIC_RELAXED);
}

/* Writes a line to fd; 0, or -1 when the write failed. */
static int put(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Profile mode: this image's samples in dir/wif.PID.START: "I address count tid" lines, then its
 * executable mappings ("M start end offset path", as the stack's record) from /proc/self/maps.
 * Written under a temporary name and renamed once complete. */
void whatif_write(const char *dir, int pid, unsigned long long start_ns)
{
	if (!whatif_on || !profile)
		return;
	if (w_timer_ok) {
		timer_delete(w_timer);
		w_timer_ok = 0;
	}
	char path[640], tmp[700], line[1200];
	snprintf(path, sizeof(path), "%s/" WHATIF_SAMPLES_PREFIX "%d.%llu", dir, pid, start_ns);
	snprintf(tmp, sizeof(tmp), "%s/tmp.wif.%d.%llu", dir, pid, start_ns);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), bad = fd < 0;
	if (bad)
		return;
	int n = snprintf(line, sizeof(line), "L %lu\n", hist_lost);
	bad |= put(fd, line, (size_t)n);
	for (int i = 0; i < HIST_SIZE && !bad; i++)
		if (hist[i].ip) {
			n = snprintf(line, sizeof(line), "I %llx %lu %d\n", (unsigned long long)hist[i].ip, hist[i].n,
				     hist[i].tid);
			bad |= put(fd, line, (size_t)n);
		}
	int mfd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (mfd >= 0) {
		char buf[8192];
		ssize_t r;
		while (!bad && (r = read(mfd, buf, sizeof(buf))) > 0)
			bad |= put(fd, buf, (size_t)r); /* the reader keeps the executable mappings */
		close(mfd);
	}
	if (close(fd) != 0 || bad || rename(tmp, path) != 0)
		unlink(tmp);
}

/* Coz's progress points (coz.h finds this through dlsym): one counter per (type, name) shared by
 * every process of the tree; NULL outside whatif, so the macros count nothing. */
__attribute__((visibility("default"))) struct whatif_coz_counter *_coz_get_counter(int type, const char *name);
struct whatif_coz_counter *_coz_get_counter(int type, const char *name)
{
	if (!whatif_on || !name || type < 1 || type > 3)
		return NULL;
	while (__atomic_exchange_n(&sh->lock, 1, __ATOMIC_ACQUIRE))
		;
	struct whatif_coz_counter *c = NULL;
	int n = sh->npoints;
	for (int i = 0; i < n && !c; i++)
		if (sh->points[i].type == type && strncmp(sh->points[i].name, name, sizeof(sh->points[i].name) - 1) == 0)
			c = &sh->points[i].c;
	if (!c && n < WHATIF_POINTS_MAX) {
		struct whatif_point *p = &sh->points[n];
		p->type = type;
		snprintf(p->name, sizeof(p->name), "%s", name);
		__atomic_store_n(&p->used, 2, __ATOMIC_RELEASE);
		sh->npoints = n + 1;
		c = &p->c;
	}
	__atomic_store_n(&sh->lock, 0, __ATOMIC_RELEASE);
	return c;
}

/* Calls that wake another thread or process pay the caller's delay first (Coz: a thread must not
 * wake another before it has paused what it owes); a read waits for data another one wrote, and is
 * credited. Outside whatif each is the real call behind one load and a branch. The real functions
 * are found by a constructor, not at the first call: a program may call write or sem_post first in
 * a signal handler, where dlsym is not safe. */
#include <pthread.h>
#include <semaphore.h>

static int (*real_unlock)(pthread_mutex_t *);
static int (*real_signal)(pthread_cond_t *);
static int (*real_broadcast)(pthread_cond_t *);
static int (*real_post)(sem_t *);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_read)(int, void *, size_t);

__attribute__((constructor(101))) static void wake_resolve(void)
{
	real_unlock = (int (*)(pthread_mutex_t *))preload_real("pthread_mutex_unlock");
	real_signal = (int (*)(pthread_cond_t *))preload_real("pthread_cond_signal");
	real_broadcast = (int (*)(pthread_cond_t *))preload_real("pthread_cond_broadcast");
	real_post = (int (*)(sem_t *))preload_real("sem_post");
	real_write = (ssize_t (*)(int, const void *, size_t))preload_real("write");
	real_read = (ssize_t (*)(int, void *, size_t))preload_real("read");
}

/* A call before the constructors ran (another library's constructor): found then. */
#define WAKE_REAL(p)                                                                               \
	if (!p)                                                                                    \
		wake_resolve()

int pthread_mutex_unlock(pthread_mutex_t *m)
{
	WAKE_REAL(real_unlock);
	if (whatif_on)
		whatif_pay();
	return real_unlock(m);
}

int pthread_cond_signal(pthread_cond_t *c)
{
	WAKE_REAL(real_signal);
	if (whatif_on)
		whatif_pay();
	return real_signal(c);
}

int pthread_cond_broadcast(pthread_cond_t *c)
{
	WAKE_REAL(real_broadcast);
	if (whatif_on)
		whatif_pay();
	return real_broadcast(c);
}

int sem_post(sem_t *s)
{
	WAKE_REAL(real_post);
	if (whatif_on)
		whatif_pay();
	return real_post(s);
}

ssize_t write(int fd, const void *b, size_t n)
{
	WAKE_REAL(real_write);
	if (whatif_on)
		whatif_pay();
	return real_write(fd, b, n);
}

ssize_t read(int fd, void *b, size_t n)
{
	WAKE_REAL(real_read);
	if (!whatif_on || profile)
		return real_read(fd, b, n);
	whatif_block();
	ssize_t r = real_read(fd, b, n);
	int e = errno;
	whatif_unblock(r > 0);
	errno = e;
	return r;
}
