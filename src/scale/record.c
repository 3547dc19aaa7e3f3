/* Parses the preload library's records (preload/record.h) and picks the program's process. */
#include "scale/record.h"
#include "common/array.h"
#include "scale/ring.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void scale_record_release(struct scale_record *r)
{
	free(r->procs);
	free(r->th);
	free(r->sites);
	free(r->maps);
	memset(r, 0, sizeof(*r));
}

static int site_cmp(const void *a, const void *b)
{
	double x = ((const struct scale_site *)a)->wait_s, y = ((const struct scale_site *)b)->wait_s;
	return x < y ? 1 : x > y ? -1 : 0;
}

void scale_record_sites_sort(struct scale_record *r)
{
	if (r->nsites)
		qsort(r->sites, r->nsites, sizeof(*r->sites), site_cmp);
}

/* One "T" line: tid start end run runq wait[nprim] calls[nprim] (nprim: the version's). */
static int thread_parse(char *s, struct scale_thread *t, int nprim)
{
	memset(t, 0, sizeof(*t));
	char *e;
	t->tid = (int)strtol(s, &e, 10);
	double v[4 + PRIM_COUNT];
	for (int k = 0; k < 4 + nprim; k++) {
		s = e;
		unsigned long long x = strtoull(s, &e, 10);
		if (e == s)
			return -1;
		v[k] = (double)x * 1e-9;
	}
	for (int k = 0; k < nprim; k++) {
		s = e;
		t->calls[k] = strtoull(s, &e, 10);
		if (e == s)
			return -1;
	}
	while (*e == ' ' || *e == '\t')
		e++;
	if (*e && *e != '\n')
		return -1;
	t->start_s = v[0];
	t->end_s = v[1];
	t->run_s = v[2];
	t->runq_s = v[3];
	for (int k = 0; k < nprim; k++)
		t->wait_s[k] = v[4 + k];
	return 0;
}

int scale_record_read(const char *path, struct scale_record *r, struct as_error *err)
{
	memset(r, 0, sizeof(*r));
	FILE *f = fopen(path, "r");
	if (!f)
		return as_error_set(err, -errno, "cannot open record '%s'", path);
	char line[2048];
	int lineno = 0, rc = 0, have_p = 0, nprim = PRIM_V1;
	struct scale_process proc = { 0 };
	while (rc == 0 && fgets(line, sizeof(line), f)) {
		lineno++;
		unsigned long long a, b, c;
		int i1, i2, i3, i4, off = 0;
		switch (line[0]) {
		case 'V':
			if (sscanf(line + 1, "%d", &i1) != 1 || i1 != 2 || lineno != 1)
				rc = -EINVAL;
			nprim = PRIM_COUNT;
			break;
		case 'P':
			if (nprim == PRIM_V1 && sscanf(line + 1, "%d %llu %llu %d %d", &i1, &a, &b, &i2, &i3) == 5) {
				i4 = 0;
			} else if (nprim == PRIM_COUNT &&
				   sscanf(line + 1, "%d %d %llu %llu %d %d %n", &i1, &i4, &a, &b, &i2, &i3, &off) >= 6) {
				char *nl = strchr(line, '\n');
				if (nl)
					*nl = 0;
				snprintf(proc.comm, sizeof(proc.comm), "%s", line + 1 + off);
			} else {
				rc = -EINVAL;
				break;
			}
			proc.pid = i1;
			proc.ppid = i4;
			proc.start_s = (double)a * 1e-9;
			proc.end_s = (double)b * 1e-9;
			proc.threads_max = i2;
			r->schedstat_ok = i3;
			have_p = 1;
			break;
		case 'T': {
			void *th = array_grow(r->th, &r->th_cap, r->nth, sizeof(*r->th), 16);
			if (!th) {
				rc = -ENOMEM;
				break;
			}
			r->th = th;
			if (thread_parse(line + 1, &r->th[r->nth], nprim) != 0)
				rc = -EINVAL;
			else
				r->nth++;
			break;
		}
		case 'S': {
			struct scale_site s = { 0 };
			if (sscanf(line + 1, "%d %llx %llu %llu", &i1, &a, &b, &c) != 4 || i1 < 0 || i1 >= nprim) {
				rc = -EINVAL;
				break;
			}
			s.prim = i1;
			s.addr = a;
			s.wait_s = (double)b * 1e-9;
			s.calls = c;
			size_t k;
			for (k = 0; k < r->nsites; k++)
				if (r->sites[k].addr == s.addr && r->sites[k].prim == s.prim)
					break;
			if (k < r->nsites) {
				r->sites[k].wait_s += s.wait_s;
				r->sites[k].calls += s.calls;
			} else {
				void *q = array_grow(r->sites, &r->sites_cap, r->nsites, sizeof(*r->sites), 16);
				if (!q)
					rc = -ENOMEM;
				else
					(r->sites = q)[r->nsites++] = s;
			}
			break;
		}
		case 'M': {
			struct scale_map m = { 0 };
			if (sscanf(line + 1, "%llx %llx %llx %255s", &a, &b, &c, m.path) != 4) {
				rc = -EINVAL;
				break;
			}
			m.start = a;
			m.end = b;
			m.offset = c;
			void *q = array_grow(r->maps, &r->maps_cap, r->nmaps, sizeof(*r->maps), 16);
			if (!q)
				rc = -ENOMEM;
			else
				(r->maps = q)[r->nmaps++] = m;
			break;
		}
		default:
			rc = -EINVAL;
		}
	}
	fclose(f);
	if (rc == 0 && !have_p)
		rc = -EINVAL;
	if (rc == 0) {
		proc.nmaps = r->nmaps;
		r->procs = malloc(sizeof(*r->procs));
		if (!r->procs)
			rc = -ENOMEM;
		else
			r->procs_cap = 1;
	}
	if (rc) {
		scale_record_release(r);
		return as_error_set(err, rc, "record '%s': malformed line %d", path, lineno);
	}
	r->procs[0] = proc;
	r->nprocs = r->processes = 1;
	r->pid = proc.pid;
	r->start_s = proc.start_s;
	r->end_s = proc.end_s;
	r->threads_max = proc.threads_max;
	scale_record_sites_sort(r);
	return 0;
}

/* Most threads alive at once, over every process (a sweep over the starts and ends). */
static int ev_cmp(const void *a, const void *b)
{
	const double *x = a, *y = b;
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1]; /* an end (-1) before a start (+1) at the same time */
}

static int threads_at_once(const struct scale_record *r)
{
	double *ev = malloc(2 * r->nth * 2 * sizeof(double));
	if (!ev)
		return r->threads_max;
	for (size_t i = 0; i < r->nth; i++) {
		ev[4 * i] = r->th[i].start_s;
		ev[4 * i + 1] = 1;
		ev[4 * i + 2] = r->th[i].end_s;
		ev[4 * i + 3] = -1;
	}
	qsort(ev, 2 * r->nth, 2 * sizeof(double), ev_cmp);
	int now = 0, max = 0;
	for (size_t i = 0; i < 2 * r->nth; i++) {
		now += (int)ev[2 * i + 1];
		max = now > max ? now : max;
	}
	free(ev);
	return max;
}

int scale_record_merge(struct scale_record *dst, struct scale_record *src)
{
	if (!dst->nprocs) {
		*dst = *src;
		memset(src, 0, sizeof(*src));
		return 0;
	}
	/* room for both (and one more): a tree of many processes merges in amortised linear time */
	int rc = 0;
	void *p = array_grow(dst->procs, &dst->procs_cap, dst->nprocs + src->nprocs, sizeof(*dst->procs), 4);
	if (p)
		dst->procs = p;
	void *t = p ? array_grow(dst->th, &dst->th_cap, dst->nth + src->nth, sizeof(*dst->th), 16) : NULL;
	if (t)
		dst->th = t;
	void *s = t ? array_grow(dst->sites, &dst->sites_cap, dst->nsites + src->nsites, sizeof(*dst->sites), 16) : NULL;
	if (s)
		dst->sites = s;
	void *m = s ? array_grow(dst->maps, &dst->maps_cap, dst->nmaps + src->nmaps, sizeof(*dst->maps), 16) : NULL;
	if (m)
		dst->maps = m;
	if (!m) {
		rc = -ENOMEM;
	} else {
		int p0 = (int)dst->nprocs;
		for (size_t k = 0; k < src->nprocs; k++) {
			dst->procs[dst->nprocs] = src->procs[k];
			dst->procs[dst->nprocs++].map0 += dst->nmaps;
		}
		for (size_t k = 0; k < src->nth; k++) {
			dst->th[dst->nth] = src->th[k];
			dst->th[dst->nth++].proc += p0;
		}
		for (size_t k = 0; k < src->nsites; k++) {
			dst->sites[dst->nsites] = src->sites[k];
			dst->sites[dst->nsites++].proc += p0;
		}
		memcpy(dst->maps + dst->nmaps, src->maps, src->nmaps * sizeof(*src->maps));
		dst->nmaps += src->nmaps;
		dst->processes = (int)dst->nprocs;
		dst->schedstat_ok &= src->schedstat_ok;
		if (src->start_s < dst->start_s) {
			dst->start_s = src->start_s;
			dst->pid = src->pid;
		}
		dst->end_s = src->end_s > dst->end_s ? src->end_s : dst->end_s;
		dst->threads_max = threads_at_once(dst);
		scale_record_sites_sort(dst);
	}
	scale_record_release(src);
	return rc;
}

int scale_record_proc_of(const struct scale_record *r, int pid, double time_s)
{
	int best = -1;
	for (size_t k = 0; k < r->nprocs; k++) {
		if (r->procs[k].pid != pid)
			continue;
		if (time_s >= r->procs[k].start_s - 1e-3 && time_s <= r->procs[k].end_s + 1e-3)
			return (int)k;
		best = (int)k;
	}
	return best;
}

int scale_record_load_dir(const char *dir, struct scale_record *r, int *unreadable, struct as_error *err)
{
	memset(r, 0, sizeof(*r));
	if (unreadable)
		*unreadable = 0;
	DIR *d = opendir(dir);
	if (!d)
		return as_error_set(err, -errno, "cannot open '%s'", dir);
	int rc = 0, bad = 0;
	struct as_error first = { 0 };
	struct dirent *de;
	while ((de = readdir(d))) {
		/* tmp.*: a record its process did not finish (killed while writing it) */
		if (strncmp(de->d_name, "tmp.", 4) == 0) {
			if (!bad++)
				as_error_set(&first, -EINVAL, "record '%s/%s' was never finished", dir, de->d_name);
			continue;
		}
		if (strncmp(de->d_name, "rec.", 4) != 0)
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		struct scale_record one;
		struct as_error rerr = { 0 };
		rc = scale_record_read(path, &one, &rerr);
		if (rc == -ENOMEM) {
			as_error_set(err, rc, "out of memory");
			break;
		}
		if (rc) { /* one process's record lost, not the others': skipped and counted */
			if (!bad++)
				first = rerr;
			rc = 0;
			continue;
		}
		if ((rc = scale_record_merge(r, &one)) != 0) {
			as_error_set(err, rc, "out of memory");
			break;
		}
	}
	closedir(d);
	if (unreadable)
		*unreadable = bad;
	if (rc) {
		scale_record_release(r);
		return rc;
	}
	if (!r->nprocs) {
		if (bad)
			return as_error_set(err, -ENOENT, "no readable record in '%s' (%d unreadable; the first: %s)", dir, bad,
					    first.msg);
		return as_error_set(err, -ENOENT, "no record in '%s'", dir);
	}
	return 0;
}
