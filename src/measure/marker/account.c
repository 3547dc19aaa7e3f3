/* Region accounting of the marker library (account.h): LIKWID's semantics on times and counts
 * given by the caller, and the record written with write(2) alone (also from a signal handler). */
#include "measure/marker/account.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

int marker_region_find(struct marker_thread *t, const char *name, int create)
{
	if (!name || !*name)
		return -EINVAL;
	size_t len = strnlen(name, MARKER_NAME_MAX + 1);
	if (len > MARKER_NAME_MAX) {
		t->refused++;
		return -ENAMETOOLONG;
	}
	for (int i = 0; i < t->nreg; i++)
		if (strcmp(t->reg[i].name, name) == 0)
			return i;
	if (!create)
		return -ENOENT;
	if (t->nreg >= MARKER_REGIONS_MAX) {
		t->refused++;
		return -ENOSPC;
	}
	struct marker_region *r = &t->reg[t->nreg];
	memset(r, 0, sizeof(*r));
	memcpy(r->name, name, len + 1);
	/* the slot is whole before a writer at exit or in a signal handler can see it */
	__atomic_store_n(&t->nreg, t->nreg + 1, __ATOMIC_RELEASE);
	return t->nreg - 1;
}

int marker_region_start(struct marker_thread *t, const char *name, uint64_t now_ns, const uint64_t *count)
{
	int i = marker_region_find(t, name, 1);
	if (i < 0)
		return i;
	struct marker_region *r = &t->reg[i];
	if (r->running) {
		t->unmatched++;
		return -EFAULT;
	}
	for (int e = 0; e < t->nev && e < MARKER_EVENTS_MAX; e++)
		r->start_count[e] = count[e];
	r->start_ns = now_ns;
	r->running = 1;
	return 0;
}

int marker_region_stop(struct marker_thread *t, const char *name, uint64_t now_ns, const uint64_t *count)
{
	int i = marker_region_find(t, name, 0);
	if (i == -ENOENT || (i >= 0 && !t->reg[i].running)) {
		t->unmatched++;
		return -EFAULT;
	}
	if (i < 0)
		return i;
	struct marker_region *r = &t->reg[i];
	for (int e = 0; e < t->nev && e < MARKER_EVENTS_MAX; e++)
		if ((t->available >> e) & 1u)
			r->count[e] += count[e] - r->start_count[e];
	r->time_ns += now_ns - r->start_ns;
	r->calls++;
	r->running = 0;
	return 0;
}

int marker_region_stack(struct marker_thread *t, const char *name, const uint64_t *st, int nst, int stop)
{
	int i = marker_region_find(t, name, 0);
	if (i < 0 || !t->reg[i].running)
		return -EFAULT;
	struct marker_region *r = &t->reg[i];
	for (int k = 0; k < nst && k < MARKER_STACK_MAX; k++) {
		if (stop)
			r->st[k] += st[k] >= r->start_st[k] ? st[k] - r->start_st[k] : 0;
		else
			r->start_st[k] = st[k];
	}
	return 0;
}

int marker_region_reset(struct marker_thread *t, const char *name)
{
	int i = marker_region_find(t, name, 0);
	if (i < 0)
		return i;
	struct marker_region *r = &t->reg[i];
	r->calls = 0;
	r->time_ns = 0;
	memset(r->count, 0, sizeof(r->count));
	memset(r->st, 0, sizeof(r->st));
	return 0;
}

void marker_region_get(const struct marker_thread *t, const char *name, int *nev, double *events, double *time_s,
		       int *calls)
{
	int i = -1;
	for (int k = 0; t && name && k < t->nreg; k++)
		if (strcmp(t->reg[k].name, name) == 0)
			i = k;
	const struct marker_region *r = i >= 0 ? &t->reg[i] : NULL;
	if (nev) {
		int have = t ? t->nev : MARKER_NEVENTS;
		int n = *nev < have ? *nev : have;
		for (int e = 0; events && e < n; e++)
			events[e] = r && ((t->available >> e) & 1u) ? (double)r->count[e] : 0.0;
		*nev = n < 0 ? 0 : n;
	}
	if (time_s)
		*time_s = r ? (double)r->time_ns / 1e9 : 0.0;
	if (calls)
		*calls = r ? (int)r->calls : 0;
}

void marker_name_escape(const char *name, char *buf)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		if (*p > ' ' && *p <= '~' && *p != '%') {
			buf[o++] = (char)*p;
		} else {
			buf[o++] = '%';
			buf[o++] = hex[*p >> 4];
			buf[o++] = hex[*p & 15];
		}
	}
	buf[o] = 0;
}

/* A line buffer flushed with write(2). */
struct out {
	int fd, failed;
	size_t n;
	char b[1024];
};

static void out_flush(struct out *o)
{
	size_t done = 0;
	while (done < o->n && !o->failed) {
		ssize_t w = write(o->fd, o->b + done, o->n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			o->failed = 1;
		else
			done += (size_t)w;
	}
	o->n = 0;
}

static void out_str(struct out *o, const char *s)
{
	for (; *s; s++) {
		if (o->n == sizeof(o->b))
			out_flush(o);
		o->b[o->n++] = *s;
	}
}

static void out_u64(struct out *o, uint64_t v)
{
	char d[24];
	int n = 0;
	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	char s[24];
	for (int i = 0; i < n; i++)
		s[i] = d[n - 1 - i];
	s[n] = 0;
	out_str(o, s);
}

int marker_record_write(int fd, int pid, const char *status, int nev, const char *const names[],
			const char *const units[], int nst, const char *const stnames[], const struct marker_thread *head)
{
	struct out o = { .fd = fd };
	out_str(&o, MARKER_MAGIC "\npid ");
	out_u64(&o, (uint64_t)pid);
	out_str(&o, "\nstatus ");
	out_str(&o, status);
	out_str(&o, "\n");
	for (int e = 0; e < nev; e++) {
		out_str(&o, "event ");
		out_str(&o, names[e]);
		out_str(&o, " ");
		out_str(&o, units[e]);
		out_str(&o, "\n");
	}
	if (nst > MARKER_STACK_MAX)
		nst = MARKER_STACK_MAX;
	if (nst > 0) {
		out_str(&o, "stack");
		for (int k = 0; k < nst; k++) {
			out_str(&o, " ");
			out_str(&o, stnames[k]);
		}
		out_str(&o, "\n");
	}
	char esc[3 * MARKER_NAME_MAX + 1];
	for (const struct marker_thread *t = head; t; t = t->next) {
		out_str(&o, "thread ");
		out_u64(&o, (uint64_t)t->index);
		out_str(&o, " ");
		out_u64(&o, (uint64_t)t->tid);
		out_str(&o, " ");
		out_u64(&o, t->unmatched);
		out_str(&o, " ");
		out_u64(&o, t->refused);
		out_str(&o, "\n");
		int n = __atomic_load_n(&t->nreg, __ATOMIC_ACQUIRE);
		for (int i = 0; i < n; i++) {
			const struct marker_region *r = &t->reg[i];
			marker_name_escape(r->name, esc);
			out_str(&o, "region ");
			out_str(&o, esc);
			out_str(&o, " ");
			out_u64(&o, r->calls);
			out_str(&o, " ");
			out_u64(&o, r->time_ns);
			out_str(&o, r->running ? " 1" : " 0");
			for (int e = 0; e < nev; e++) {
				out_str(&o, " ");
				if ((t->available >> e) & 1u)
					out_u64(&o, r->count[e]);
				else
					out_str(&o, "-");
			}
			out_str(&o, "\n");
			for (int k = 0; k < nst; k++) {
				out_str(&o, k ? " " : "rstack ");
				out_u64(&o, r->st[k]);
			}
			if (nst > 0)
				out_str(&o, "\n");
		}
	}
	out_str(&o, "end\n");
	out_flush(&o);
	return o.failed ? -1 : 0;
}

/* A decimal number of at most 20 digits into *v; the text after it. NULL when there is none. */
static const char *parse_dec(const char *p, uint64_t *v)
{
	int n = 0;
	for (*v = 0; *p >= '0' && *p <= '9' && n < 20; p++, n++) {
		if (*v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return NULL;
		*v = *v * 10 + (uint64_t)(*p - '0');
	}
	return n ? p : NULL;
}

/* A word of printable bytes up to a space or the line's end into buf (cap bytes with the NUL);
 * the text after it, NULL when empty or too long. */
static const char *parse_word(const char *p, char *buf, size_t cap)
{
	size_t n = 0;
	for (; *p > ' ' && *p <= '~'; p++) {
		if (n + 1 >= cap)
			return NULL;
		buf[n++] = *p;
	}
	buf[n] = 0;
	return n ? p : NULL;
}

int marker_events_parse(const char *text, struct marker_event *ev, int max)
{
	int n = 0;
	for (const char *p = text; p && *p;) {
		if (n >= max)
			return -E2BIG;
		struct marker_event *e = &ev[n];
		uint64_t type;
		p = parse_dec(p, &type);
		if (!p || *p++ != ' ' || type > UINT32_MAX)
			return -EINVAL;
		e->type = (uint32_t)type;
		p = parse_dec(p, &e->config);
		if (!p || *p++ != ' ')
			return -EINVAL;
		p = parse_word(p, e->unit, sizeof(e->unit));
		if (!p || *p++ != ' ')
			return -EINVAL;
		p = parse_word(p, e->name, sizeof(e->name));
		if (!p || (*p && *p != '\n'))
			return -EINVAL;
		n++;
		if (*p)
			p++;
	}
	return n ? n : -EINVAL;
}
