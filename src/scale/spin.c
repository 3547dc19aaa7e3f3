/* Finding spin loops by software-clock sampling (spin.h): inherited task-clock sampling events on
 * every CPU, a thread draining their ring buffers while the program runs (the code around each
 * new instruction pointer is read from /proc/PID/mem then, while the process still exists), and
 * the classification of the samples once it has exited. */
#include "scale/spin.h"
#include "common/array.h"

#include "scale/ring.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SPIN_CPUS_MAX 1024
#define SPIN_PAGES 32 /* data pages per ring buffer (a power of two): 128 KiB, 3000 samples, 9.7 s
		       * of one CPU at 309 samples a second */
#define SPIN_DRAIN_NS 200000000 /* drained every 200 ms: the code is read from the binaries
				 * after the run, so nothing needs the process alive */

struct scale_spin {
	int ncpu;
	struct scale_ring ring[SPIN_CPUS_MAX];
	pthread_t drain;
	int stop;              /* atomic */
	int wake;              /* an eventfd: written to stop the drain at once */
	int self_pid;
	int draining;          /* the CPU whose buffer is being drained */
	uint32_t base_ns;      /* the base sampling period (scale_spin_period_ns) */
	struct spin_sample *s; /* the samples of the program (not of archscope) */
	size_t n, cap;
	struct spin_exit *ex;  /* the program's tasks' ends (PERF_RECORD_EXIT) */
	size_t nex, capex;
};

uint32_t scale_spin_period_ns(uint32_t base_ns, int cpu)
{
	double f = (double)(cpu < 0 ? 0 : cpu) * 0.6180339887498949;
	f -= (double)(long long)f;
	return (uint32_t)((double)base_ns * (1 + SPIN_PERIOD_SPREAD * f) + 0.5);
}

uint32_t scale_spin_base_period_ns(double cost_ns)
{
	static const double steps[] = SPIN_PERIOD_STEPS;
	size_t n = sizeof(steps) / sizeof(steps[0]), k = 0;
	if (!(cost_ns > 0))
		return SPIN_PERIOD_NS;
	while (k + 1 < n && cost_ns > SPIN_COST_BUDGET * steps[k] * SPIN_PERIOD_NS)
		k++;
	return (uint32_t)(steps[k] * SPIN_PERIOD_NS + 0.5);
}

static uint64_t thread_cpu_now_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A busy loop of n steps; its CPU time in ns. */
static uint64_t busy_ns(uint64_t n)
{
	volatile uint64_t x = 0;
	uint64_t t0 = thread_cpu_now_ns();
	for (uint64_t i = 0; i < n; i++)
		x = x + i * i;
	return thread_cpu_now_ns() - t0;
}

static void count_sample(void *ctx, const struct perf_event_header *h, const uint8_t *rec)
{
	(void)rec;
	if (h->type == PERF_RECORD_SAMPLE)
		(*(uint64_t *)ctx)++;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double scale_spin_sample_cost_ns(void)
{
	enum { PAIRS = 12 };
	const uint64_t period = 250000, loop = 4000000; /* ns: 16 samples a loop */
	struct perf_event_attr a = { 0 };
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME; /* as the sampler's */
	a.sample_period = period;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.disabled = 1;
	a.wakeup_events = 1 << 20;
	struct scale_ring r;
	if (scale_ring_open(&r, &a, 0, -1, 8) != 0)
		return NAN;
	uint64_t n = 1u << 16, t = 0;
	while ((t = busy_ns(n)) < loop / 16 && n < (1ull << 30)) /* 2^30 steps: ~0.5 s at most */
		n *= 2;
	if (!t) { /* no thread CPU clock */
		scale_ring_close(&r);
		return NAN;
	}
	n = (uint64_t)((double)n * (double)loop / (double)t);
	double d[PAIRS];
	int k = 0;
	for (int i = 0; i < PAIRS; i++) {
		uint64_t got = 0;
		scale_ring_drain(&r, count_sample, &got);
		got = 0;
		int first = i & 1; /* which of the pair runs first, alternately; the pair's difference
				      per sample, so that the host's slow spells (seconds) cancel */
		uint64_t t0 = 0, t1 = 0;
		if (!first)
			t0 = busy_ns(n);
		ioctl(r.fd, PERF_EVENT_IOC_ENABLE, 0);
		t1 = busy_ns(n);
		ioctl(r.fd, PERF_EVENT_IOC_DISABLE, 0);
		if (first)
			t0 = busy_ns(n);
		scale_ring_drain(&r, count_sample, &got);
		if (got)
			d[k++] = ((double)t1 - (double)t0) / (double)got;
	}
	scale_ring_close(&r);
	if (!k)
		return NAN;
	qsort(d, (size_t)k, sizeof(d[0]), cmp_double);
	double c = k % 2 ? d[k / 2] : (d[k / 2 - 1] + d[k / 2]) / 2;
	return c > 0 ? c : 0;
}

int scale_spin_code_has_hint(const uint8_t *b, size_t n)
{
#if defined(__x86_64__) || defined(__i386__)
	for (size_t i = 0; i + 1 < n; i++)
		if (b[i] == 0xf3 && b[i + 1] == 0x90) /* PAUSE (rep; nop) */
			return 1;
#elif defined(__aarch64__)
	for (size_t i = 0; i + 3 < n; i += 4) {
		uint32_t w = (uint32_t)b[i] | (uint32_t)b[i + 1] << 8 | (uint32_t)b[i + 2] << 16 | (uint32_t)b[i + 3] << 24;
		if (w == 0xd503203f || w == 0xd503205f || w == 0xd5033fdf) /* YIELD, WFE, ISB */
			return 1;
	}
#else
	(void)b;
	(void)n;
#endif
	return 0;
}

#if defined(__x86_64__) || defined(__i386__)
/* A signed little-endian 32-bit displacement. */
static int32_t le32(const uint8_t *p)
{
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}
#endif

int scale_spin_code_is_spin(const uint8_t *b, size_t n, size_t at)
{
	if (at >= n)
		return 0;
	size_t lo = at > SPIN_HINT_WINDOW ? at - SPIN_HINT_WINDOW : 0;
	size_t hi = at + SPIN_HINT_WINDOW < n ? at + SPIN_HINT_WINDOW : n;
	if (scale_spin_code_has_hint(b + lo, hi - lo))
		return 1;
#if defined(__x86_64__) || defined(__i386__)
	for (size_t p = 0; p + 3 < n; p++) {
		if (b[p] != 0xf3 || b[p + 1] != 0x90)
			continue;
		size_t j = p + 2; /* the instruction after PAUSE */
		long long target;
		if ((b[j] == 0xeb || (b[j] & 0xf0) == 0x70) && j + 2 <= n) { /* jmp/jcc rel8 */
			target = (long long)j + 2 + (int8_t)b[j + 1];
		} else if (b[j] == 0xe9 && j + 5 <= n) { /* jmp rel32 */
			target = (long long)j + 5 + le32(b + j + 1);
		} else if (b[j] == 0x0f && (b[j + 1] & 0xf0) == 0x80 && j + 6 <= n) { /* jcc rel32 */
			target = (long long)j + 6 + le32(b + j + 2);
		} else {
			continue;
		}
		if (target <= (long long)at && (long long)at < target + SPIN_HEAD_BYTES)
			return 1;
	}
#endif
	return 0;
}

static int sample_cmp(const void *a, const void *b)
{
	const struct spin_sample *x = a, *y = b;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->time_ns < y->time_ns ? -1 : x->time_ns > y->time_ns;
}

static int near(uint64_t a, uint64_t b)
{
	return (a > b ? a - b : b - a) <= SPIN_LOOP_BYTES;
}

void scale_spin_classify(struct spin_sample *s, size_t n, uint8_t *spin)
{
	/* The code decides alone. A rule that also wanted a neighbouring sample (in time) in the
	 * same loop lost every isolated spin sample: a thread that spins in short waits between
	 * work (a lock held ~100 us, sampled every few ms) rarely has two consecutive samples in the
	 * loop, and at 2 threads `examples/stack/spin-timed.c` had 2 of its ~14 spinning samples
	 * counted (0.08 of the 0.51 slots it timed itself with its CPU clock). */
	qsort(s, n, sizeof(*s), sample_cmp);
	for (size_t i = 0; i < n; i++)
		spin[i] = s[i].hint == 1;
}

/* A task's end: PERF_RECORD_EXIT's pid, ppid, tid, ptid and time. */
static void exit_take(struct scale_spin *sp, const struct perf_event_header *h, const uint8_t *rec)
{
	struct {
		uint32_t pid, ppid, tid, ptid;
		uint64_t time;
	} v;
	if (h->size < sizeof(*h) + sizeof(v))
		return;
	memcpy(&v, rec + sizeof(*h), sizeof(v));
	if ((int)v.pid == sp->self_pid)
		return;
	void *grown = array_grow(sp->ex, &sp->capex, sp->nex, sizeof(*sp->ex), 256);
	if (!grown)
		return;
	sp->ex = grown;
	sp->ex[sp->nex++] = (struct spin_exit){ .pid = (int)v.pid, .tid = (int)v.tid, .time_ns = v.time };
}

/* One record of a ring buffer: keeps the program's samples and its tasks' ends. */
static void sample_take(void *ctx, const struct perf_event_header *h, const uint8_t *rec)
{
	struct scale_spin *sp = ctx;
	if (h->type == PERF_RECORD_EXIT) {
		exit_take(sp, h, rec);
		return;
	}
	/* PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME: ip, pid, tid, time */
	struct {
		uint64_t ip;
		uint32_t pid, tid;
		uint64_t time;
	} v;
	if (h->type != PERF_RECORD_SAMPLE || h->size < sizeof(*h) + sizeof(v))
		return;
	memcpy(&v, rec + sizeof(*h), sizeof(v));
	if ((int)v.pid == sp->self_pid)
		return;
	void *grown = array_grow(sp->s, &sp->cap, sp->n, sizeof(*sp->s), 4096);
	if (!grown)
		return;
	sp->s = grown;
	sp->s[sp->n++] = (struct spin_sample){ .pid = (int)v.pid, .tid = (int)v.tid, .ip = v.ip, .time_ns = v.time,
					       .period_ns = scale_spin_period_ns(sp->base_ns, sp->draining), .hint = -1 };
}

static void *drain_main(void *arg)
{
	struct scale_spin *sp = arg;
	while (!__atomic_load_n(&sp->stop, __ATOMIC_ACQUIRE)) {
		for (int c = 0; c < sp->ncpu; c++) {
			sp->draining = c;
			scale_ring_drain(&sp->ring[c], sample_take, sp);
		}
		/* rarely: waking up takes the program's CPU (every 5 ms cost 1.5-6 % more); the stop
		 * comes through the eventfd, at once */
		struct pollfd pf = { .fd = sp->wake, .events = POLLIN };
		poll(&pf, 1, SPIN_DRAIN_NS / 1000000);
	}
	for (int c = 0; c < sp->ncpu; c++) {
		sp->draining = c;
		scale_ring_drain(&sp->ring[c], sample_take, sp);
	}
	return NULL;
}

void scale_spin_free(struct scale_spin *sp)
{
	if (!sp)
		return;
	if (sp->wake >= 0)
		close(sp->wake);
	for (int c = 0; c < sp->ncpu; c++)
		scale_ring_close(&sp->ring[c]);
	free(sp->s);
	free(sp->ex);
	free(sp);
}

int scale_spin_start(struct scale_spin **out, uint32_t base_ns, struct as_error *err)
{
	*out = NULL;
	struct scale_spin *sp = calloc(1, sizeof(*sp));
	if (!sp)
		return as_error_set(err, -ENOMEM, "out of memory");
	sp->base_ns = base_ns ? base_ns : SPIN_PERIOD_NS;
	sp->self_pid = getpid();
	sp->wake = eventfd(0, EFD_CLOEXEC);
	if (sp->wake < 0) {
		int e = errno;
		free(sp);
		return as_error_set(err, -e, "eventfd: %s", strerror(e));
	}
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	sp->ncpu = ncpu < 1 ? 1 : ncpu > SPIN_CPUS_MAX ? SPIN_CPUS_MAX : (int)ncpu;
	for (int c = 0; c < sp->ncpu; c++)
		sp->ring[c].fd = -1;
	struct perf_event_attr a = { 0 };
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.inherit = 1;
	a.task = 1;          /* PERF_RECORD_EXIT: each task's end, after its exit work */
	a.use_clockid = 1; /* sample times on the records' clock */
	a.clockid = CLOCK_MONOTONIC;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.wakeup_events = 1 << 20;
	int opened = 0, first_errno = 0;
	for (int c = 0; c < sp->ncpu; c++) {
		a.sample_period = scale_spin_period_ns(sp->base_ns, c);
		int rc = scale_ring_open(&sp->ring[c], &a, 0, c, SPIN_PAGES);
		if (rc == 0)
			opened++;
		else if (!first_errno && rc != -ENODEV && rc != -EINVAL) /* an offline CPU: skip it */
			first_errno = -rc;
	}
	if (!opened) {
		int e = first_errno ? first_errno : ENOENT;
		scale_spin_free(sp);
		return as_error_set(err, -e, "task-clock sampling (perf_event_open) refused: %s%s", strerror(e),
				    e == EACCES || e == EPERM ? " (see /proc/sys/kernel/perf_event_paranoid)" : "");
	}
	if (pthread_create(&sp->drain, NULL, drain_main, sp) != 0) {
		scale_spin_free(sp);
		return as_error_set(err, -EAGAIN, "cannot start the sampling thread");
	}
	*out = sp;
	return 0;
}

void scale_spin_stop(struct scale_spin *sp)
{
	if (!sp)
		return;
	__atomic_store_n(&sp->stop, 1, __ATOMIC_RELEASE);
	uint64_t one = 1;
	if (write(sp->wake, &one, sizeof(one)) != (ssize_t)sizeof(one)) {
		/* the drain notices the flag within SPIN_DRAIN_NS */
	}
	pthread_join(sp->drain, NULL);
	for (int c = 0; c < sp->ncpu; c++)
		scale_ring_close(&sp->ring[c]); /* the children inherit no more events */
}

/* Which runtime a mapping belongs to: its spin loops are the spin phase of waits the preload
 * library times (so never user spinning counted twice). */
enum lib_kind { LIB_OTHER, LIB_LIBC, LIB_OMP, LIB_MPI };

static int lib_kind(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	if (!strncmp(b, "libc.so", 7) || !strncmp(b, "libc-", 5))
		return LIB_LIBC;
	if (!strncmp(b, "libomp.so", 9) || !strncmp(b, "libomp-", 7) || !strncmp(b, "libgomp.so", 10) ||
	    !strncmp(b, "libgomp-", 8) || !strncmp(b, "libiomp5", 8))
		return LIB_OMP;
	if (!strncmp(b, "libmpi", 6) || !strncmp(b, "libopen-pal", 11) || !strncmp(b, "libopen-rte", 11) ||
	    !strncmp(b, "libpmix", 7) || !strncmp(b, "libucp", 6) || !strncmp(b, "libuct", 6) ||
	    !strncmp(b, "libucs", 6) || !strncmp(b, "libfabric", 9) || !strncmp(b, "mca_", 4))
		return LIB_MPI;
	return LIB_OTHER;
}

/* Open binaries, by path, for reading the code around samples after the run. */
#define FILES_MAX 256
struct files {
	const char *path[FILES_MAX];
	int fd[FILES_MAX];
	int n;
};

static int file_fd(struct files *f, const char *path)
{
	for (int i = 0; i < f->n; i++)
		if (!strcmp(f->path[i], path))
			return f->fd[i];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->n < FILES_MAX) {
		f->path[f->n] = path;
		f->fd[f->n++] = fd;
	}
	return fd;
}

/* Whether the code at ip, in a mapping of a binary, is a spin loop (scale_spin_code_is_spin):
 * read from the file the mapping came from, so it does not matter that the process is gone. */
static int hint_from_file(struct files *f, const struct scale_map *m, uint64_t ip)
{
	int fd = file_fd(f, m->path);
	if (fd < 0)
		return -1;
	uint8_t code[2 * SPIN_SCAN_BYTES];
	uint64_t off = ip - m->start + m->offset;
	/* the wide window, else (near the start or end of the file) the narrow one */
	if (off > SPIN_SCAN_BYTES && pread(fd, code, sizeof(code), (off_t)(off - SPIN_SCAN_BYTES)) == (ssize_t)sizeof(code))
		return scale_spin_code_is_spin(code, sizeof(code), SPIN_SCAN_BYTES);
	if (off > SPIN_HINT_WINDOW &&
	    pread(fd, code, 2 * SPIN_HINT_WINDOW, (off_t)(off - SPIN_HINT_WINDOW)) == 2 * SPIN_HINT_WINDOW)
		return scale_spin_code_has_hint(code, 2 * SPIN_HINT_WINDOW);
	return -1;
}

static const struct scale_map *map_at(const struct scale_record *rec, int proc, uint64_t ip)
{
	const struct scale_process *p = &rec->procs[proc];
	for (size_t k = p->map0; k < p->map0 + p->nmaps && k < rec->nmaps; k++)
		if (ip >= rec->maps[k].start && ip < rec->maps[k].end)
			return &rec->maps[k];
	return NULL;
}

static int thread_of(const struct scale_record *rec, int proc, int tid, double time_s)
{
	int best = -1;
	for (size_t t = 0; t < rec->nth; t++)
		if (rec->th[t].tid == tid && rec->th[t].proc == proc) {
			if (time_s >= rec->th[t].start_s - 1e-3 && time_s <= rec->th[t].end_s + 1e-3)
				return (int)t;
			best = (int)t;
		}
	return best;
}

static int thread_has(const struct scale_thread *t, int kind)
{
	if (kind == LIB_OMP)
		return t->wait_s[PRIM_OMP_BARRIER] + t->wait_s[PRIM_OMP_TASKWAIT] + t->wait_s[PRIM_OMP_LOCK] +
			       t->wait_s[PRIM_OMP_IDLE] > 0;
	if (kind == LIB_MPI)
		return t->wait_s[PRIM_MPI] > 0;
	return kind == LIB_LIBC; /* pthread_spin_lock: its wrapper timed it */
}

/* The spinning code as a site of its process; addr + 1 so that the call-site lookup (addr - 1)
 * lands on the sampled instruction. */
static void site_add(struct scale_record *rec, int proc, uint64_t ip, double s)
{
	size_t k;
	for (k = 0; k < rec->nsites; k++)
		if (rec->sites[k].prim == PRIM_COUNT && rec->sites[k].proc == proc && near(rec->sites[k].addr, ip + 1))
			break;
	if (k < rec->nsites) {
		rec->sites[k].wait_s += s;
		rec->sites[k].calls++;
		return;
	}
	void *q = array_grow(rec->sites, &rec->sites_cap, rec->nsites, sizeof(*rec->sites), 16);
	if (!q)
		return;
	rec->sites = q;
	rec->sites[rec->nsites++] =
		(struct scale_site){ .prim = PRIM_COUNT, .proc = proc, .addr = ip + 1, .wait_s = s, .calls = 1 };
}

void scale_spin_exits(const struct scale_spin *sp, struct scale_record *rec)
{
	if (sp)
		scale_spin_exits_apply(sp->ex, sp->nex, rec);
}

void scale_spin_exits_apply(const struct spin_exit *ex, size_t n, struct scale_record *rec)
{
	for (size_t i = 0; i < n; i++) {
		const struct spin_exit *e = &ex[i];
		double t = (double)e->time_ns * 1e-9;
		size_t best = rec->nth;
		for (size_t k = 0; k < rec->nth; k++) { /* the latest record of the task that ended */
			const struct scale_thread *th = &rec->th[k];
			if (th->tid == e->tid && th->proc >= 0 && (size_t)th->proc < rec->nprocs &&
			    rec->procs[th->proc].pid == e->pid && th->end_s <= t + 1e-6 &&
			    (best == rec->nth || th->end_s > rec->th[best].end_s))
				best = k;
		}
		if (best == rec->nth)
			continue;
		struct scale_thread *th = &rec->th[best];
		double tail = t - th->end_s;
		if (!(tail > 0 && tail < SPIN_EXIT_TAIL_MAX_S))
			continue;
		th->end_s = t;
		th->run_s += tail;
		struct scale_process *p = &rec->procs[th->proc];
		if (t > p->end_s)
			p->end_s = t;
		if (t > rec->end_s)
			rec->end_s = t;
	}
}

void scale_spin_assign(struct scale_spin *sp, struct scale_record *rec, double *spin, double *all)
{
	*spin = *all = 0;
	if (!sp || !sp->n || !rec->nprocs)
		return;
	uint8_t *flag = calloc(sp->n, 1);
	int *thr = malloc(sp->n * sizeof(int)), *kind = malloc(sp->n * sizeof(int));
	double *cnt = calloc(3 * rec->nth + 1, sizeof(double)); /* per thread: samples, user spin, runtime spin */
	struct files *files = calloc(1, sizeof(*files));
	if (!flag || !thr || !kind || !cnt || !files)
		goto out;
	/* the code of each sample, from its process's binaries */
	for (size_t i = 0; i < sp->n; i++) {
		struct spin_sample *s = &sp->s[i];
		double ts = (double)s->time_ns * 1e-9;
		int proc = scale_record_proc_of(rec, s->pid, ts);
		const struct scale_map *m = proc >= 0 ? map_at(rec, proc, s->ip) : NULL;
		s->hint = m ? hint_from_file(files, m, s->ip) : -1;
	}
	scale_spin_classify(sp->s, sp->n, flag); /* sorts the samples */
	for (size_t i = 0; i < sp->n; i++) {
		const struct spin_sample *s = &sp->s[i];
		double ts = (double)s->time_ns * 1e-9;
		int proc = scale_record_proc_of(rec, s->pid, ts);
		thr[i] = proc >= 0 ? thread_of(rec, proc, s->tid, ts) : -1;
		const struct scale_map *m = proc >= 0 ? map_at(rec, proc, s->ip) : NULL;
		kind[i] = m ? lib_kind(m->path) : LIB_OTHER;
		if (thr[i] < 0)
			continue;
		double w = (double)s->period_ns; /* the CPU time the sample stands for */
		*all += 1;
		cnt[3 * thr[i]] += w;
		/* An OpenMP runtime's code, where its waits were timed: the CPU time of their spin
		 * phase. Every sample counts, not only those that look like a spin loop: libomp's wait
		 * loop calls out to read the time stamp counter and to yield, too far from its PAUSE
		 * for the loop rule; the rest of the runtime's own time (dispatching, forking) is
		 * small and stays inside the waits' time by the cap in stack.c. */
		if (kind[i] == LIB_OMP && thread_has(&rec->th[thr[i]], LIB_OMP)) {
			cnt[3 * thr[i] + 2] += w;
			continue;
		}
		if (!flag[i])
			continue;
		if (kind[i] != LIB_OTHER && thread_has(&rec->th[thr[i]], kind[i]))
			continue; /* inside a wait timed whole (pthread_spin_lock, MPI) */
		cnt[3 * thr[i] + 1] += w;
		*spin += 1;
	}
	/* in time: each thread's CPU time x the share of its samples in spin loops, each sample
	 * weighed by the period of its CPU */
	for (size_t t = 0; t < rec->nth; t++) {
		double n = cnt[3 * t];
		rec->th[t].spin_s = n > 0 ? rec->th[t].run_s * cnt[3 * t + 1] / n : 0;
		rec->th[t].rt_spin_s = n > 0 ? rec->th[t].run_s * cnt[3 * t + 2] / n : 0;
	}
	for (size_t i = 0; i < sp->n; i++) {
		int t = thr[i];
		if (t < 0 || !flag[i] || (kind[i] != LIB_OTHER && thread_has(&rec->th[t], kind[i])))
			continue;
		site_add(rec, rec->th[t].proc, sp->s[i].ip, rec->th[t].spin_s * (double)sp->s[i].period_ns / cnt[3 * t + 1]);
	}
	scale_record_sites_sort(rec);
out:
	if (files)
		for (int i = 0; i < files->n; i++)
			if (files->fd[i] >= 0)
				close(files->fd[i]);
	free(files);
	free(cnt);
	free(kind);
	free(thr);
	free(flag);
}
