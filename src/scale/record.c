/* Parses the preload library's records (preload/record.h) and picks the program's process. */
#include "scale/record.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void scale_record_release(struct scale_record *r)
{
	free(r->th);
	free(r->sites);
	free(r->maps);
	memset(r, 0, sizeof(*r));
}

static int grow(void **p, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : 16;
	void *q = realloc(*p, c * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
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

/* One "T" line: tid start end run runq wait[PRIM_COUNT] calls[PRIM_COUNT]. */
static int thread_parse(char *s, struct scale_thread *t)
{
	memset(t, 0, sizeof(*t));
	char *e;
	t->tid = (int)strtol(s, &e, 10);
	double v[4 + PRIM_COUNT];
	for (int k = 0; k < 4 + PRIM_COUNT; k++) {
		s = e;
		unsigned long long x = strtoull(s, &e, 10);
		if (e == s)
			return -1;
		v[k] = (double)x * 1e-9;
	}
	for (int k = 0; k < PRIM_COUNT; k++) {
		s = e;
		t->calls[k] = strtoull(s, &e, 10);
		if (e == s)
			return -1;
	}
	t->start_s = v[0];
	t->end_s = v[1];
	t->run_s = v[2];
	t->runq_s = v[3];
	for (int k = 0; k < PRIM_COUNT; k++)
		t->wait_s[k] = v[4 + k];
	return 0;
}

int scale_record_read(const char *path, struct scale_record *r, struct as_error *err)
{
	memset(r, 0, sizeof(*r));
	FILE *f = fopen(path, "r");
	if (!f)
		return as_error_set(err, -errno, "cannot open record '%s'", path);
	size_t cth = 0, csi = 0, cma = 0;
	char line[2048];
	int lineno = 0, rc = 0, have_p = 0;
	while (rc == 0 && fgets(line, sizeof(line), f)) {
		lineno++;
		unsigned long long a, b, c;
		int i1, i2, i3;
		switch (line[0]) {
		case 'P':
			if (sscanf(line + 1, "%d %llu %llu %d %d", &i1, &a, &b, &i2, &i3) != 5) {
				rc = -EINVAL;
				break;
			}
			r->pid = i1;
			r->start_s = (double)a * 1e-9;
			r->end_s = (double)b * 1e-9;
			r->threads_max = i2;
			r->schedstat_ok = i3;
			have_p = 1;
			break;
		case 'T':
			if (grow((void **)&r->th, r->nth, &cth, sizeof(*r->th))) {
				rc = -ENOMEM;
				break;
			}
			if (thread_parse(line + 1, &r->th[r->nth]) != 0)
				rc = -EINVAL;
			else
				r->nth++;
			break;
		case 'S': {
			struct scale_site s = { 0 };
			if (sscanf(line + 1, "%d %llx %llu %llu", &i1, &a, &b, &c) != 4 || i1 < 0 || i1 >= PRIM_COUNT) {
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
			} else if (grow((void **)&r->sites, r->nsites, &csi, sizeof(*r->sites))) {
				rc = -ENOMEM;
			} else {
				r->sites[r->nsites++] = s;
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
			if (grow((void **)&r->maps, r->nmaps, &cma, sizeof(*r->maps)))
				rc = -ENOMEM;
			else
				r->maps[r->nmaps++] = m;
			break;
		}
		default:
			rc = -EINVAL;
		}
	}
	fclose(f);
	if (rc == 0 && !have_p)
		rc = -EINVAL;
	if (rc) {
		scale_record_release(r);
		return as_error_set(err, rc, "record '%s': malformed line %d", path, lineno);
	}
	scale_record_sites_sort(r);
	return 0;
}

static double thread_time(const struct scale_record *r)
{
	double s = 0;
	for (size_t i = 0; i < r->nth; i++)
		s += r->th[i].end_s - r->th[i].start_s;
	return s;
}

int scale_record_load_dir(const char *dir, struct scale_record *r, struct as_error *err)
{
	memset(r, 0, sizeof(*r));
	DIR *d = opendir(dir);
	if (!d)
		return as_error_set(err, -errno, "cannot open '%s'", dir);
	int found = 0, rc = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "rec.", 4) != 0)
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		struct scale_record one;
		rc = scale_record_read(path, &one, err);
		if (rc)
			break;
		found++;
		if (found == 1 || thread_time(&one) > thread_time(r)) {
			scale_record_release(r);
			*r = one;
		} else {
			scale_record_release(&one);
		}
	}
	closedir(d);
	if (rc) {
		scale_record_release(r);
		return rc;
	}
	if (!found)
		return as_error_set(err, -ENOENT, "no record in '%s'", dir);
	r->processes = found;
	return 0;
}
