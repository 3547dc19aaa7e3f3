/* Tier 1: thread accounts from sched_switch and sched_wakeup tracepoints on every CPU (sched.h).
 * The raw events are kept while the program runs and turned into accounts after it exits. */
#include "scale/sched.h"
#include "common/array.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "scale/ring.h"

#define SCHED_CPUS_MAX 1024
#define SCHED_PAGES 64

struct raw_ev {
	uint64_t time_ns;
	int type; /* 0 switch (a = prev, b = next, state), 1 wakeup (a), 2 fork (a = pid, b = tid, c = ppid), 3 exit (a, b) */
	int a, b, c;
	long state;
};

struct scale_sched {
	int ncpu;
	struct scale_ring sw[SCHED_CPUS_MAX], wk[SCHED_CPUS_MAX];
	int off_prev_pid, off_prev_state, off_next_pid, off_wake_pid; /* in the raw data */
	pthread_t drain;
	int stop;
	int self_pid;
	struct raw_ev *ev;
	size_t n, cap;
};

void scale_sched_account(const struct sched_ev *ev, size_t n, struct scale_thread *t)
{
	enum { RUN, RUNQ, BLK } state = RUNQ; /* a new thread is runnable */
	memset(t, 0, sizeof(*t));
	if (!n)
		return;
	t->tid = ev[0].tid;
	t->start_s = (double)ev[0].time_ns * 1e-9;
	uint64_t since = ev[0].time_ns, end = ev[n - 1].time_ns;
	double blocked = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t now = ev[i].time_ns;
		double d = (double)(now - since) * 1e-9;
		switch (ev[i].type) {
		case SCHED_EV_IN:
			if (state == RUNQ)
				t->runq_s += d;
			else if (state == BLK)
				blocked += d; /* the wake-up was not seen */
			state = RUN;
			since = now;
			break;
		case SCHED_EV_OUT_RUN:
		case SCHED_EV_OUT_BLK:
			if (state == RUN)
				t->run_s += d;
			state = ev[i].type == SCHED_EV_OUT_RUN ? RUNQ : BLK;
			since = now;
			break;
		case SCHED_EV_WAKE:
			if (state == BLK) {
				blocked += d;
				state = RUNQ;
				since = now;
			}
			break;
		case SCHED_EV_EXIT:
			end = now;
			i = n; /* nothing after the exit counts */
			break;
		default:
			break;
		}
	}
	if (end > since) { /* the last interval */
		double d = (double)(end - since) * 1e-9;
		if (state == RUN)
			t->run_s += d;
		else if (state == RUNQ)
			t->runq_s += d;
	}
	t->end_s = (double)end * 1e-9;
	(void)blocked; /* the rest of alive: stack.c calls it blocked_other */
}

/* tracefs: the event's id and the offsets of the named fields. 0, or -errno. */
static int tp_read(const char *event, const char *const fields[], int *offs, int nf, int *id)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	for (size_t r = 0; r < 2; r++) {
		char path[256];
		snprintf(path, sizeof(path), "%s/events/sched/%s/id", roots[r], event);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		int ok = fscanf(f, "%d", id) == 1;
		fclose(f);
		snprintf(path, sizeof(path), "%s/events/sched/%s/format", roots[r], event);
		f = fopen(path, "r");
		if (!ok || !f) {
			if (f)
				fclose(f);
			return -EINVAL;
		}
		char line[256];
		int found = 0;
		while (fgets(line, sizeof(line), f))
			for (int k = 0; k < nf; k++) {
				char key[64];
				snprintf(key, sizeof(key), " %s;", fields[k]);
				char *p = strstr(line, key), *o = strstr(line, "offset:");
				if (p && o && sscanf(o, "offset:%d", &offs[k]) == 1)
					found++;
			}
		fclose(f);
		return found == nf ? 0 : -EINVAL;
	}
	return -ENOENT;
}

static void ev_push(struct scale_sched *s, struct raw_ev e)
{
	void *grown = array_grow(s->ev, &s->cap, s->n, sizeof(*s->ev), 65536);
	if (!grown)
		return;
	s->ev = grown;
	s->ev[s->n++] = e;
}

static int rd32(const uint8_t *p)
{
	int32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* A tracepoint sample (TID | TIME | RAW): its time and raw data; NULL for other records. */
static const uint8_t *sample_raw(const struct perf_event_header *h, const uint8_t *rec, uint64_t *time, uint32_t *size)
{
	const uint8_t *p = rec + sizeof(*h); /* pid, tid (u32 each), time (u64), raw size (u32), raw */
	if (h->type != PERF_RECORD_SAMPLE || h->size < sizeof(*h) + 20)
		return NULL;
	memcpy(time, p + 8, 8);
	memcpy(size, p + 16, 4);
	if (sizeof(*h) + 20 + *size > h->size)
		return NULL;
	return p + 20;
}

/* The switch rings: switches, and the fork and exit records. */
static void switch_take(void *ctx, const struct perf_event_header *h, const uint8_t *rec)
{
	struct scale_sched *s = ctx;
	if (h->type == PERF_RECORD_FORK || h->type == PERF_RECORD_EXIT) {
		const uint8_t *p = rec + sizeof(*h); /* pid, ppid, tid, ptid (u32 each), time */
		uint64_t time;
		memcpy(&time, p + 16, 8);
		ev_push(s, (struct raw_ev){ .time_ns = time, .type = h->type == PERF_RECORD_FORK ? 2 : 3, .a = rd32(p),
					    .b = rd32(p + 8), .c = rd32(p + 4) });
		return;
	}
	uint64_t time;
	uint32_t size;
	const uint8_t *raw = sample_raw(h, rec, &time, &size);
	if (!raw || size < (uint32_t)s->off_next_pid + 4 || size < (uint32_t)s->off_prev_state + 8)
		return;
	int64_t state;
	memcpy(&state, raw + s->off_prev_state, 8);
	ev_push(s, (struct raw_ev){ .time_ns = time, .type = 0, .a = rd32(raw + s->off_prev_pid),
				    .b = rd32(raw + s->off_next_pid), .state = (long)state });
}

static void wakeup_take(void *ctx, const struct perf_event_header *h, const uint8_t *rec)
{
	struct scale_sched *s = ctx;
	uint64_t time;
	uint32_t size;
	const uint8_t *raw = sample_raw(h, rec, &time, &size);
	if (raw && size >= (uint32_t)s->off_wake_pid + 4)
		ev_push(s, (struct raw_ev){ .time_ns = time, .type = 1, .a = rd32(raw + s->off_wake_pid) });
}

static void *drain_main(void *arg)
{
	struct scale_sched *s = arg;
	for (int last = 0; !last;) {
		last = __atomic_load_n(&s->stop, __ATOMIC_ACQUIRE);
		for (int c = 0; c < s->ncpu; c++) {
			scale_ring_drain(&s->sw[c], switch_take, s);
			scale_ring_drain(&s->wk[c], wakeup_take, s);
		}
		struct timespec ts = { 0, 5000000 };
		if (!last)
			nanosleep(&ts, NULL);
	}
	return NULL;
}

void scale_sched_free(struct scale_sched *s)
{
	if (!s)
		return;
	for (int c = 0; c < s->ncpu; c++) {
		scale_ring_close(&s->sw[c]);
		scale_ring_close(&s->wk[c]);
	}
	free(s->ev);
	free(s);
}

int scale_sched_start(struct scale_sched **out, struct as_error *err)
{
	*out = NULL;
	struct scale_sched *s = calloc(1, sizeof(*s));
	if (!s)
		return as_error_set(err, -ENOMEM, "out of memory");
	int sw_id, wk_id, offs[3], woff[1];
	int rc = tp_read("sched_switch", (const char *const[]){ "prev_pid", "prev_state", "next_pid" }, offs, 3, &sw_id);
	if (rc == 0)
		rc = tp_read("sched_wakeup", (const char *const[]){ "pid" }, woff, 1, &wk_id);
	if (rc) {
		free(s);
		return as_error_set(err, rc, "no sched tracepoints in tracefs (mount -t tracefs nodev /sys/kernel/tracing)");
	}
	s->off_prev_pid = offs[0];
	s->off_prev_state = offs[1];
	s->off_next_pid = offs[2];
	s->off_wake_pid = woff[0];
	s->self_pid = getpid();
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	s->ncpu = ncpu < 1 ? 1 : ncpu > SCHED_CPUS_MAX ? SCHED_CPUS_MAX : (int)ncpu;
	for (int c = 0; c < s->ncpu; c++)
		s->sw[c].fd = s->wk[c].fd = -1;
	int opened = 0;
	rc = 0;
	for (int c = 0; c < s->ncpu; c++) {
		struct perf_event_attr a = { 0 };
		a.size = sizeof(a);
		a.type = PERF_TYPE_TRACEPOINT;
		a.config = (uint64_t)sw_id;
		a.sample_period = 1;
		a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_RAW;
		a.task = 1; /* fork and exit records */
		a.wakeup_events = 1 << 20;
		int r1 = scale_ring_open(&s->sw[c], &a, -1, c, SCHED_PAGES);
		a.config = (uint64_t)wk_id;
		a.task = 0;
		int r2 = r1 ? r1 : scale_ring_open(&s->wk[c], &a, -1, c, SCHED_PAGES);
		if (r1 == 0 && r2 == 0)
			opened++;
		else if (!rc && r1 != -ENODEV && r2 != -ENODEV)
			rc = r1 ? r1 : r2;
	}
	if (!opened || rc) {
		scale_sched_free(s);
		rc = rc ? rc : -ENOENT;
		return as_error_set(err, rc, "sched tracepoints (perf_event_open, every CPU) refused: %s%s", strerror(-rc),
				    rc == -EACCES || rc == -EPERM ? " (tier 1 needs root or CAP_PERFMON)" : "");
	}
	if (pthread_create(&s->drain, NULL, drain_main, s) != 0) {
		scale_sched_free(s);
		return as_error_set(err, -EAGAIN, "cannot start the tracing thread");
	}
	*out = s;
	return 0;
}

void scale_sched_stop(struct scale_sched *s)
{
	if (!s)
		return;
	for (int c = 0; c < s->ncpu; c++) {
		scale_ring_stop(&s->sw[c]);
		scale_ring_stop(&s->wk[c]);
	}
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
	pthread_join(s->drain, NULL);
}

static int ev_cmp(const void *a, const void *b)
{
	const struct sched_ev *x = a, *y = b;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->time_ns < y->time_ns ? -1 : x->time_ns > y->time_ns;
}

int scale_sched_record(struct scale_sched *s, struct scale_record *rec, struct as_error *err)
{
	memset(rec, 0, sizeof(*rec));
	int child = 0;
	for (size_t i = 0; i < s->n && !child; i++)
		if (s->ev[i].type == 2 && s->ev[i].c == s->self_pid && s->ev[i].a == s->ev[i].b && s->ev[i].a != s->self_pid)
			child = s->ev[i].a;
	if (!child)
		return as_error_set(err, -ENOENT, "the scheduler trace holds no process started by archscope");
	/* the child's threads: itself and every thread it forked */
	int tids[4096], nt = 0;
	tids[nt++] = child;
	for (size_t i = 0; i < s->n; i++)
		if (s->ev[i].type == 2 && s->ev[i].a == child && s->ev[i].b != child && nt < 4096)
			tids[nt++] = s->ev[i].b;
	struct sched_ev *ev = malloc((2 * s->n + 1) * sizeof(*ev));
	rec->th = calloc((size_t)nt, sizeof(*rec->th));
	rec->th_cap = rec->th ? (size_t)nt : 0;
	if (!ev || !rec->th) {
		free(ev);
		free(rec->th);
		rec->th = NULL;
		return as_error_set(err, -ENOMEM, "out of memory");
	}
	size_t m = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct raw_ev *r = &s->ev[i];
		for (int k = 0; k < nt; k++) {
			int t = tids[k];
			if (r->type == 0 && r->a == t)
				ev[m++] = (struct sched_ev){ r->time_ns, t, (r->state & 0xff) == 0 ? SCHED_EV_OUT_RUN : SCHED_EV_OUT_BLK };
			if (r->type == 0 && r->b == t)
				ev[m++] = (struct sched_ev){ r->time_ns, t, SCHED_EV_IN };
			if (r->type == 1 && r->a == t)
				ev[m++] = (struct sched_ev){ r->time_ns, t, SCHED_EV_WAKE };
			if (r->type == 2 && r->b == t)
				ev[m++] = (struct sched_ev){ r->time_ns, t, SCHED_EV_START };
			if (r->type == 3 && r->b == t)
				ev[m++] = (struct sched_ev){ r->time_ns, t, SCHED_EV_EXIT };
		}
	}
	qsort(ev, m, sizeof(*ev), ev_cmp);
	rec->pid = child;
	for (size_t i = 0; i < m;) {
		size_t j = i;
		while (j < m && ev[j].tid == ev[i].tid)
			j++;
		scale_sched_account(ev + i, j - i, &rec->th[rec->nth]);
		if (ev[i].tid == child) {
			rec->start_s = rec->th[rec->nth].start_s;
			rec->end_s = rec->th[rec->nth].end_s;
		}
		rec->nth++;
		i = j;
	}
	free(ev);
	rec->threads_max = nt; /* an upper bound: threads seen, not at once */
	rec->schedstat_ok = 1;
	rec->processes = 1;
	return 0;
}
