/* Reading the marker library's records (measure/marker/account.c writes them) and summing them
 * per region: over the threads and processes of a run, then the mean over the runs. */
#include "measure/regions.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/array.h"
#include "measure/counters.h"

/* The escaped name back (account.c's marker_name_escape); -1 when it is not one. */
static int name_unescape(const char *in, char *out, size_t cap)
{
	size_t o = 0;
	for (const char *p = in; *p; p++) {
		if (o + 1 >= cap)
			return -1;
		if (*p != '%') {
			out[o++] = *p;
			continue;
		}
		unsigned v = 0;
		for (int k = 1; k <= 2; k++) {
			char c = p[k];
			unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16;
			if (d == 16)
				return -1;
			v = v * 16 + d;
		}
		if (v == 0)
			return -1;
		out[o++] = (char)v;
		p += 2;
	}
	out[o] = 0;
	return o ? 0 : -1;
}

static int parse_u64(const char *w, double *v)
{
	if (!w || !*w)
		return -1;
	if (strcmp(w, "-") == 0)
		return *v = NAN, 0;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(w, &end, 10);
	if (*end || errno || *w == '-' || *w == '+')
		return -1;
	*v = (double)x;
	return 0;
}

/* Splits line (modified) into at most max words; the count. */
static int words(char *line, char **w, int max)
{
	int n = 0;
	for (char *save = NULL, *t = strtok_r(line, " ", &save); t && n < max; t = strtok_r(NULL, " ", &save))
		w[n++] = t;
	return n;
}

static int parse_region(struct measure_regions *r, char **w, int n, int nev, int run, int pid, int thread, int tid)
{
	char name[MARKER_NAME_MAX + 1];
	if (n != 5 + nev || name_unescape(w[1], name, sizeof(name)) != 0)
		return -1;
	struct region_sample s = { .run = run, .pid = pid, .thread = thread, .tid = tid };
	double running;
	if (parse_u64(w[2], &s.calls) || isnan(s.calls) || parse_u64(w[3], &s.time_s) || isnan(s.time_s) ||
	    parse_u64(w[4], &running) || !(running == 0 || running == 1))
		return -1;
	s.time_s /= 1e9;
	s.running = running == 1;
	for (int e = 0; e < MARKER_EVENTS_MAX; e++)
		s.count[e] = NAN;
	for (int e = 0; e < nev; e++)
		if (parse_u64(w[5 + e], &s.count[e]))
			return -1;
	void *grown = array_grow(r->s, &r->cap_s, (size_t)r->nsample, sizeof(*r->s), 16);
	if (!grown)
		return -2;
	r->s = grown;
	if (!(s.name = strdup(name)))
		return -2;
	r->s[r->nsample++] = s;
	return 0;
}

/* The record's "stack" line: the kinds' names, the same in every record of the run. */
static const char *stack_names(struct measure_regions *r, char **w, int n)
{
	for (int k = 0; k < n; k++)
		if (strlen(w[k]) >= sizeof(r->stack_name[k]) ||
		    (r->nstack && (r->nstack != n || strcmp(r->stack_name[k], w[k]) != 0)))
			return "a 'stack' line that is not the other records' (names of at most 23 bytes)";
	for (int k = 0; k < n; k++)
		strcpy(r->stack_name[k], w[k]);
	r->nstack = n;
	return NULL;
}

/* A region's "rstack" line: its ns by kind. */
static const char *stack_values(struct region_sample *s, char **w, int n)
{
	for (int k = 0; k < n; k++)
		if (parse_u64(w[k], &s->st[k]) || isnan(s->st[k]))
			return "an 'rstack' line that is not one count per kind";
	s->nst = n;
	return NULL;
}

int measure_regions_parse(struct measure_regions *r, const char *what, const char *text, size_t len, int run,
			  struct as_error *err)
{
	char *buf = malloc(len + 1);
	if (!buf)
		return as_error_set(err, -ENOMEM, "out of memory");
	memcpy(buf, text, len);
	buf[len] = 0;
	int lineno = 0, pid = -1, thread = -1, tid = -1, nev = 0, ended = 0, rc = 0, nst = 0, last = -1;
	const char *why = NULL;
	char *save = NULL;
	for (char *line = strtok_r(buf, "\n", &save); line && !why; line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		char *w[MARKER_STACK_MAX + 2];
		if (ended)
			why = "a line after 'end'";
		else if (lineno == 1) {
			if (strcmp(line, MARKER_MAGIC) != 0)
				why = "not a record of archscope's marker library";
			continue;
		}
		int n = words(line, w, MARKER_STACK_MAX + 2);
		double v, v2, v3, v4;
		if (why || n == 0)
			why = why ? why : "an empty line";
		else if (strcmp(w[0], "pid") == 0 && n == 2 && parse_u64(w[1], &v) == 0 && !isnan(v))
			pid = (int)v;
		else if (strcmp(w[0], "status") == 0 && n >= 2)
			r->partial += strcmp(w[1], "signal") == 0;
		else if (strcmp(w[0], "event") == 0 && n == 3 && nev < MARKER_EVENTS_MAX &&
			 strlen(w[1]) <= MARKER_EVENT_NAME_MAX && strlen(w[2]) < 16) {
			if (r->records && (nev >= r->nevent || strcmp(r->event[nev], w[1]) != 0))
				why = "its counters are not the other records' counters";
			strcpy(r->event[nev], w[1]);
			strcpy(r->unit[nev++], w[2]);
		} else if (strcmp(w[0], "stack") == 0 && nst == 0 && n >= 2 && n <= MARKER_STACK_MAX + 1) {
			why = stack_names(r, w + 1, n - 1);
			nst = n - 1;
		} else if (strcmp(w[0], "rstack") == 0 && last == r->nsample - 1 && last >= 0 && n == nst + 1) {
			why = stack_values(&r->s[last], w + 1, nst);
			last = -1;
		} else if (strcmp(w[0], "thread") == 0 && n == 5 && parse_u64(w[1], &v) == 0 && parse_u64(w[2], &v2) == 0 &&
			   parse_u64(w[3], &v3) == 0 && parse_u64(w[4], &v4) == 0 && !isnan(v + v2 + v3 + v4)) {
			thread = (int)v;
			tid = (int)v2;
			r->unmatched += (int)v3;
			r->refused += (int)v4;
		} else if (strcmp(w[0], "region") == 0 && thread >= 0) {
			int prc = parse_region(r, w, n, nev, run, pid, thread, tid);
			last = prc == 0 ? r->nsample - 1 : -1;
			if (prc == -2)
				rc = as_error_set(err, -ENOMEM, "out of memory");
			else if (prc)
				why = "a region line that is not 'region NAME CALLS TIME_NS RUNNING COUNTS...'";
			if (rc)
				break;
		} else if (strcmp(w[0], "end") == 0 && n == 1)
			ended = 1;
		else
			why = "a line it does not know, or out of order";
	}
	free(buf);
	if (rc)
		return rc;
	if (!why && lineno == 0)
		why = "empty";
	if (!why && !ended)
		return as_error_set(err, -EINVAL, "region record '%s': cut short (no 'end' line)", what);
	if (why)
		return as_error_set(err, -EINVAL, "region record '%s': line %d: %s", what, lineno, why);
	if (r->records && nev != r->nevent)
		return as_error_set(err, -EINVAL, "region record '%s': %d counters where the others have %d", what, nev,
				    r->nevent);
	r->nevent = nev;
	r->records++;
	return 0;
}

int measure_regions_read_dir(struct measure_regions *r, const char *dir, int run, struct as_error *err)
{
	DIR *d = opendir(dir);
	if (!d)
		return as_error_set(err, -errno, "cannot read the region records in '%s'", dir);
	int rc = 0;
	struct dirent *de;
	while (rc == 0 && (de = readdir(d))) {
		if (de->d_name[0] == '.' && strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(dirfd(d), de->d_name, 0); /* a temporary file a signal left */
		if (strncmp(de->d_name, MARKER_FILE_PREFIX, strlen(MARKER_FILE_PREFIX)) != 0)
			continue;
		int fd = openat(dirfd(d), de->d_name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		char *buf = NULL;
		size_t len = 0, cap = 0;
		for (ssize_t got = 1; fd >= 0 && got > 0 && rc == 0;) {
			char *grown = array_grow(buf, &cap, len + 4096, 1, 65536);
			if (!grown) {
				rc = as_error_set(err, -ENOMEM, "out of memory");
				break;
			}
			buf = grown;
			got = read(fd, buf + len, cap - len);
			len += got > 0 ? (size_t)got : 0;
		}
		if (fd < 0)
			rc = as_error_set(err, -errno, "cannot open the region record '%s/%s'", dir, de->d_name);
		else if (rc == 0)
			rc = measure_regions_parse(r, de->d_name, buf ? buf : "", len, run, err);
		if (fd >= 0)
			close(fd);
		free(buf);
		unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
	return rc;
}

static int summary_of(struct measure_regions *r, const char *name)
{
	for (int i = 0; i < r->nreg; i++)
		if (strcmp(r->reg[i].name, name) == 0)
			return i;
	void *grown = array_grow(r->reg, &r->cap_reg, (size_t)r->nreg, sizeof(*r->reg), 8);
	if (!grown)
		return -1;
	r->reg = grown;
	struct region_summary *g = &r->reg[r->nreg];
	memset(g, 0, sizeof(*g));
	g->name = (char *)name;
	g->time_min_s = INFINITY;
	g->time_max_s = -INFINITY;
	for (int e = 0; e < MARKER_EVENTS_MAX; e++)
		g->count[e] = NAN;
	return r->nreg++;
}

int measure_regions_summarise(struct measure_regions *r)
{
	r->nreg = 0;
	for (int i = 0; i < r->nsample; i++)
		if (summary_of(r, r->s[i].name) < 0)
			return -ENOMEM;
	int maxrun = -1;
	for (int i = 0; i < r->nsample; i++)
		maxrun = r->s[i].run > maxrun ? r->s[i].run : maxrun;
	for (int g = 0; g < r->nreg; g++) {
		struct region_summary *s = &r->reg[g];
		for (int run = 0; run <= maxrun; run++) {
			double calls = 0, t = 0, c[MARKER_EVENTS_MAX];
			int threads = 0, counted[MARKER_EVENTS_MAX] = { 0 };
			for (int e = 0; e < MARKER_EVENTS_MAX; e++)
				c[e] = 0;
			for (int i = 0; i < r->nsample; i++) {
				const struct region_sample *x = &r->s[i];
				if (x->run != run || strcmp(x->name, s->name) != 0)
					continue;
				threads++;
				calls += x->calls;
				t += x->time_s;
				s->running += x->running;
				for (int e = 0; e < MARKER_EVENTS_MAX; e++)
					if (!isnan(x->count[e])) {
						c[e] += x->count[e];
						counted[e] = 1;
					}
			}
			if (!threads)
				continue;
			s->runs++;
			s->calls += calls;
			s->time_s += t;
			s->time_min_s = fmin(s->time_min_s, t);
			s->time_max_s = fmax(s->time_max_s, t);
			s->threads = threads > s->threads ? threads : s->threads;
			for (int e = 0; e < MARKER_EVENTS_MAX; e++)
				if (counted[e])
					s->count[e] = (isnan(s->count[e]) ? 0 : s->count[e]) + c[e];
		}
		s->calls /= s->runs;
		s->time_s /= s->runs;
		for (int e = 0; e < MARKER_EVENTS_MAX; e++)
			s->count[e] /= s->runs;
	}
	return 0;
}

void measure_regions_release(struct measure_regions *r)
{
	for (int i = 0; i < r->nsample; i++)
		free(r->s[i].name);
	free(r->s);
	free(r->reg);
	memset(r, 0, sizeof(*r));
}

char *measure_regions_events_env(const char *const names[], int n, struct as_error *err)
{
	if (n > MARKER_EVENTS_MAX) {
		as_error_set(err, -E2BIG, "%d events: a region counts at most %d", n, MARKER_EVENTS_MAX);
		return NULL;
	}
	size_t cap = (size_t)n * (MARKER_EVENT_NAME_MAX + 64) + 1, len = 0;
	char *text = calloc(1, cap);
	if (!text) {
		as_error_set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		uint32_t type;
		uint64_t config;
		size_t nl = strlen(names[i]);
		int bad = nl == 0 || nl > MARKER_EVENT_NAME_MAX;
		for (size_t k = 0; k < nl && !bad; k++)
			bad = names[i][k] <= ' ' || names[i][k] > '~';
		int rc = bad ? as_error_set(err, -EINVAL, "event '%s': a region's counter is a name of 1 to %d printable "
							   "bytes without a space", names[i], MARKER_EVENT_NAME_MAX)
			     : counters_encode(names[i], &type, &config, NULL, 0, err);
		if (rc) {
			free(text);
			return NULL;
		}
		/* time events count ns, as perf shows them; the rest are counts */
		int ns = type == PERF_TYPE_SOFTWARE && (config == PERF_COUNT_SW_TASK_CLOCK || config == PERF_COUNT_SW_CPU_CLOCK);
		len += (size_t)snprintf(text + len, cap - len, "%s%u %llu %s %s", i ? "\n" : "", type,
					(unsigned long long)config, ns ? "ns" : "events", names[i]);
	}
	return text;
}
