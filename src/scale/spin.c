/* Finding spin loops by software-clock sampling (spin.h): inherited task-clock sampling events on
 * every CPU, a thread draining their ring buffers while the program runs (the code around each
 * new instruction pointer is read from /proc/PID/mem then, while the process still exists), and
 * the classification of the samples once it has exited. */
#include "scale/spin.h"

#include "scale/ring.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SPIN_CPUS_MAX 1024
#define SPIN_PAGES 16 /* data pages per ring buffer (a power of two) */
#define SPIN_CACHE 8192

struct scale_spin {
	int ncpu;
	struct scale_ring ring[SPIN_CPUS_MAX];
	pthread_t drain;
	int stop;              /* atomic */
	int self_pid;
	struct spin_sample *s; /* the samples of the program (not of archscope) */
	size_t n, cap;
	struct { uint64_t ip; int pid; int hint; } cache[SPIN_CACHE];
};

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
	qsort(s, n, sizeof(*s), sample_cmp);
	for (size_t i = 0; i < n; i++) {
		int prev = i > 0 && s[i - 1].tid == s[i].tid && near(s[i - 1].ip, s[i].ip);
		int next = i + 1 < n && s[i + 1].tid == s[i].tid && near(s[i + 1].ip, s[i].ip);
		spin[i] = s[i].hint == 1 && (prev || next);
	}
}

/* Whether the code around ip in process pid holds a spin hint; cached per address. */
static int hint_of(struct scale_spin *sp, int pid, uint64_t ip)
{
	unsigned h = (unsigned)((ip * 0x9e3779b97f4a7c15ull) >> 51) % SPIN_CACHE;
	for (unsigned k = 0; k < 16; k++) {
		unsigned j = (h + k) % SPIN_CACHE;
		if (sp->cache[j].ip == ip && sp->cache[j].pid == pid)
			return sp->cache[j].hint;
		if (sp->cache[j].ip == 0) {
			h = j;
			break;
		}
	}
	/* opened for each new address: an fd opened before the child's exec would show the old
	 * address space */
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint8_t code[2 * SPIN_SCAN_BYTES];
	int hint = -1;
	/* the wide window, else (near the end of a mapping) the narrow one */
	if (fd >= 0 && ip > SPIN_SCAN_BYTES &&
	    pread(fd, code, sizeof(code), (off_t)(ip - SPIN_SCAN_BYTES)) == (ssize_t)sizeof(code))
		hint = scale_spin_code_is_spin(code, sizeof(code), SPIN_SCAN_BYTES);
	else if (fd >= 0 && ip > SPIN_HINT_WINDOW &&
		 pread(fd, code, 2 * SPIN_HINT_WINDOW, (off_t)(ip - SPIN_HINT_WINDOW)) == 2 * SPIN_HINT_WINDOW)
		hint = scale_spin_code_has_hint(code, 2 * SPIN_HINT_WINDOW);
	if (fd >= 0)
		close(fd);
	if (hint >= 0) { /* an unreadable page may become readable: not cached */
		sp->cache[h].ip = ip;
		sp->cache[h].pid = pid;
		sp->cache[h].hint = hint;
	}
	return hint;
}

/* One record of a ring buffer: keeps the program's samples. */
static void sample_take(void *ctx, const struct perf_event_header *h, const uint8_t *rec)
{
	struct scale_spin *sp = ctx;
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
	if (sp->n == sp->cap) {
		size_t cap = sp->cap ? 2 * sp->cap : 4096;
		void *q = realloc(sp->s, cap * sizeof(*sp->s));
		if (!q)
			return;
		sp->s = q;
		sp->cap = cap;
	}
	sp->s[sp->n++] = (struct spin_sample){ .pid = (int)v.pid, .tid = (int)v.tid, .ip = v.ip, .time_ns = v.time,
					       .hint = hint_of(sp, (int)v.pid, v.ip) };
}

static void *drain_main(void *arg)
{
	struct scale_spin *sp = arg;
	for (int round = 0; !__atomic_load_n(&sp->stop, __ATOMIC_ACQUIRE); round++) {
		for (int c = 0; c < sp->ncpu; c++)
			scale_ring_drain(&sp->ring[c], sample_take, sp);
		/* every 50 ms: often enough to read the code of new addresses while the program
		 * lives (and far from filling a ring: at most 250 samples a second per CPU), rarely
		 * enough that waking up does not take the program's CPU (5 ms cost 1.5-6 % more).
		 * The first 250 ms every 5 ms: a sample's code is read from the living process, and a
		 * program of 40 ms drained only after its exit had none of its spinning seen. */
		struct timespec ts = { 0, round < 50 ? 5000000 : 50000000 };
		nanosleep(&ts, NULL);
	}
	for (int c = 0; c < sp->ncpu; c++)
		scale_ring_drain(&sp->ring[c], sample_take, sp);
	return NULL;
}

void scale_spin_free(struct scale_spin *sp)
{
	if (!sp)
		return;
	for (int c = 0; c < sp->ncpu; c++)
		scale_ring_close(&sp->ring[c]);
	free(sp->s);
	free(sp);
}

int scale_spin_start(struct scale_spin **out, struct as_error *err)
{
	*out = NULL;
	struct scale_spin *sp = calloc(1, sizeof(*sp));
	if (!sp)
		return as_error_set(err, -ENOMEM, "out of memory");
	sp->self_pid = getpid();
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	sp->ncpu = ncpu < 1 ? 1 : ncpu > SPIN_CPUS_MAX ? SPIN_CPUS_MAX : (int)ncpu;
	for (int c = 0; c < sp->ncpu; c++)
		sp->ring[c].fd = -1;
	struct perf_event_attr a = { 0 };
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = SPIN_PERIOD_NS;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.inherit = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.wakeup_events = 1 << 20;
	int opened = 0, first_errno = 0;
	for (int c = 0; c < sp->ncpu; c++) {
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
	pthread_join(sp->drain, NULL);
	for (int c = 0; c < sp->ncpu; c++)
		scale_ring_close(&sp->ring[c]); /* the children inherit no more events */
}

static int in_libc(const struct scale_record *rec, uint64_t ip)
{
	for (size_t k = 0; k < rec->nmaps; k++)
		if (ip >= rec->maps[k].start && ip < rec->maps[k].end) {
			const char *b = strrchr(rec->maps[k].path, '/');
			b = b ? b + 1 : rec->maps[k].path;
			return strncmp(b, "libc.so", 7) == 0 || strncmp(b, "libc-", 5) == 0;
		}
	return 0;
}

void scale_spin_assign(struct scale_spin *sp, struct scale_record *rec, double *spin, double *all)
{
	*spin = *all = 0;
	if (!sp || !sp->n)
		return;
	uint8_t *flag = calloc(sp->n, 1);
	if (!flag)
		return;
	scale_spin_classify(sp->s, sp->n, flag);
	for (size_t i = 0; i < sp->n; i++) {
		const struct spin_sample *s = &sp->s[i];
		if (s->pid != rec->pid)
			continue;
		*all += 1;
		if (!flag[i] || in_libc(rec, s->ip))
			continue;
		*spin += 1;
		for (size_t t = 0; t < rec->nth; t++)
			if (rec->th[t].tid == s->tid)
				rec->th[t].spin_s += SPIN_PERIOD_NS * 1e-9;
		/* the spinning code as a site; addr + 1 so that the call-site lookup (addr - 1)
		 * lands on the sampled instruction */
		size_t k;
		for (k = 0; k < rec->nsites; k++)
			if (rec->sites[k].prim == PRIM_COUNT && near(rec->sites[k].addr, s->ip + 1))
				break;
		if (k < rec->nsites) {
			rec->sites[k].wait_s += SPIN_PERIOD_NS * 1e-9;
			rec->sites[k].calls++;
		} else {
			void *q = realloc(rec->sites, (rec->nsites + 1) * sizeof(*rec->sites));
			if (!q)
				continue;
			rec->sites = q;
			rec->sites[rec->nsites++] = (struct scale_site){ .prim = PRIM_COUNT, .addr = s->ip + 1,
									 .wait_s = SPIN_PERIOD_NS * 1e-9, .calls = 1 };
		}
	}
	free(flag);
	scale_record_sites_sort(rec);
}
