/* sysfs PMUs and perf's "pmu/event/" names; see sysfs-pmu.h. The layout is the kernel's
 * Documentation/ABI/testing/sysfs-bus-event_source-devices-{events,format}. */
#include "measure/sysfs-pmu.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"

#define SYSFS_PMU_ROOT "/sys/bus/event_source/devices"

/* The first line of a small file, without its newline; -errno when unreadable. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -errno;
	buf[0] = 0;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* A name read from a directory or typed by a user is a file name here, never a path. */
static int plain_name(const char *s)
{
	return s[0] && s[0] != '.' && !strchr(s, '/');
}

static int cmp_event(const void *a, const void *b)
{
	return strcmp(((const struct sysfs_pmu_event *)a)->name, ((const struct sysfs_pmu_event *)b)->name);
}

static int cmp_pmu(const void *a, const void *b)
{
	return strcmp(((const struct sysfs_pmu *)a)->name, ((const struct sysfs_pmu *)b)->name);
}

/* One event of dir/events: its terms, scale and unit. */
static int event_read(const char *dir, const char *name, struct sysfs_pmu_event *e)
{
	char path[8448], line[512];
	snprintf(path, sizeof(path), "%s/events/%s", dir, name);
	if (read_line(path, line, sizeof(line)) != 0)
		return -ENOENT;
	e->name = strdup(name);
	e->terms = strdup(line);
	if (!e->name || !e->terms)
		return -ENOMEM;
	e->scale = 1;
	snprintf(path, sizeof(path), "%s/events/%s.scale", dir, name);
	if (read_line(path, line, sizeof(line)) == 0) {
		char *end;
		double s = strtod(line, &end);
		if (end != line && s > 0)
			e->scale = s;
	}
	snprintf(path, sizeof(path), "%s/events/%s.unit", dir, name);
	if (read_line(path, line, sizeof(line)) == 0)
		snprintf(e->unit, sizeof(e->unit), "%.*s", (int)sizeof(e->unit) - 1, line);
	return 0;
}

static int pmu_read(const char *root, const char *name, struct sysfs_pmu *p)
{
	char dir[4096], path[4200], line[SYSFS_PMU_MASK_MAX];
	snprintf(dir, sizeof(dir), "%s/%s", root, name);
	snprintf(path, sizeof(path), "%s/type", dir);
	char *end;
	if (read_line(path, line, sizeof(line)) != 0)
		return -ENOENT;
	unsigned long type = strtoul(line, &end, 10);
	if (end == line)
		return -ENOENT;
	p->type = (uint32_t)type;
	snprintf(path, sizeof(path), "%s/cpumask", dir);
	if (read_line(path, line, sizeof(line)) == 0)
		snprintf(p->cpumask, sizeof(p->cpumask), "%s", line);
	p->name = strdup(name);
	if (!p->name)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/events", dir);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	size_t cap = 0;
	struct dirent *de;
	int rc = 0;
	while (!rc && (de = readdir(d))) {
		/* energy-pkg.scale and .unit belong to energy-pkg */
		if (!plain_name(de->d_name) || strchr(de->d_name, '.'))
			continue;
		struct sysfs_pmu_event *ne = array_grow(p->ev, &cap, (size_t)p->nevents, sizeof(*ne), 16);
		if (!ne) {
			rc = -ENOMEM;
			break;
		}
		p->ev = ne;
		memset(&p->ev[p->nevents], 0, sizeof(p->ev[0]));
		rc = event_read(dir, de->d_name, &p->ev[p->nevents]);
		if (rc == 0)
			p->nevents++;
		else if (rc == -ENOENT)
			rc = 0;
	}
	closedir(d);
	if (p->nevents)
		qsort(p->ev, (size_t)p->nevents, sizeof(p->ev[0]), cmp_event);
	return rc;
}

static void pmu_release(struct sysfs_pmu *p)
{
	for (int i = 0; i < p->nevents; i++) {
		free(p->ev[i].name);
		free(p->ev[i].terms);
	}
	free(p->ev);
	free(p->name);
	memset(p, 0, sizeof(*p));
}

int sysfs_pmu_list(const char *root, struct sysfs_pmu_list *l, struct as_error *err)
{
	memset(l, 0, sizeof(*l));
	if (!root)
		root = SYSFS_PMU_ROOT;
	DIR *d = opendir(root);
	if (!d) {
		char eb[96];
		return as_error_set(err, -ENOENT, "cannot read the PMUs in '%s': %s", root, as_strerror(errno, eb, sizeof(eb)));
	}
	size_t cap = 0;
	struct dirent *de;
	int rc = 0;
	while (!rc && (de = readdir(d))) {
		if (!plain_name(de->d_name))
			continue;
		struct sysfs_pmu *np = array_grow(l->p, &cap, (size_t)l->n, sizeof(*np), 16);
		if (!np) {
			rc = -ENOMEM;
			break;
		}
		l->p = np;
		memset(&l->p[l->n], 0, sizeof(l->p[0]));
		rc = pmu_read(root, de->d_name, &l->p[l->n]);
		if (rc == 0)
			l->n++;
		else {
			pmu_release(&l->p[l->n]);
			if (rc == -ENOENT)
				rc = 0;
		}
	}
	closedir(d);
	if (rc) {
		sysfs_pmu_list_release(l);
		return as_error_set(err, rc, "reading the PMUs in '%s': out of memory", root);
	}
	if (l->n)
		qsort(l->p, (size_t)l->n, sizeof(l->p[0]), cmp_pmu);
	return 0;
}

void sysfs_pmu_list_release(struct sysfs_pmu_list *l)
{
	for (int i = 0; i < l->n; i++)
		pmu_release(&l->p[i]);
	free(l->p);
	memset(l, 0, sizeof(*l));
}

int sysfs_pmu_is_name(const char *name)
{
	const char *slash = name ? strchr(name, '/') : NULL;
	size_t n = name ? strlen(name) : 0;
	return slash && slash != name && n >= 3 && name[n - 1] == '/' && slash != name + n - 1;
}

int sysfs_pmu_format_apply(const char *format, uint64_t value, uint64_t config[3])
{
	int which;
	const char *p;
	if (!strncmp(format, "config1:", 8))
		which = 1, p = format + 8;
	else if (!strncmp(format, "config2:", 8))
		which = 2, p = format + 8;
	else if (!strncmp(format, "config:", 7))
		which = 0, p = format + 7;
	else
		return -EINVAL;
	int used = 0; /* bits of value deposited so far */
	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		if (end == p || lo < 0 || lo > 63)
			return -EINVAL;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo || hi > 63)
				return -EINVAL;
			p = end;
		}
		for (long b = lo; b <= hi; b++, used++)
			if ((value >> used) & 1)
				config[which] |= (uint64_t)1 << b;
		if (*p == ',')
			p++;
		else if (*p)
			return -EINVAL;
	}
	if (used < 64 && (value >> used) != 0)
		return -EINVAL; /* wider than the field */
	return 0;
}

/* One "term" or "term=value" of the PMU in dir into a; an event alias expands to its terms. depth
 * stops an alias that names itself. */
static int term_apply(const char *dir, const struct sysfs_pmu *p, char *term, struct sysfs_pmu_attr *a,
		      uint64_t config[3], int depth, struct as_error *err);

static int terms_apply(const char *dir, const struct sysfs_pmu *p, const char *terms, struct sysfs_pmu_attr *a,
		       uint64_t config[3], int depth, struct as_error *err)
{
	char *copy = strdup(terms), *save = NULL;
	if (!copy)
		return as_error_set(err, -ENOMEM, "out of memory");
	int rc = 0;
	for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save))
		rc = term_apply(dir, p, t, a, config, depth, err);
	free(copy);
	return rc;
}

static int term_apply(const char *dir, const struct sysfs_pmu *p, char *term, struct sysfs_pmu_attr *a,
		      uint64_t config[3], int depth, struct as_error *err)
{
	while (isspace((unsigned char)*term))
		term++;
	char *eq = strchr(term, '=');
	if (eq)
		*eq = 0;
	if (!plain_name(term))
		return as_error_set(err, -EINVAL, "PMU '%s': an empty or malformed term '%s'", p->name, term);
	if (!eq) {
		for (int i = 0; i < p->nevents; i++)
			if (!strcmp(p->ev[i].name, term)) {
				if (depth > 2)
					return as_error_set(err, -EINVAL, "PMU '%s': event '%s' refers to itself", p->name, term);
				a->scale = p->ev[i].scale;
				snprintf(a->unit, sizeof(a->unit), "%s", p->ev[i].unit);
				return terms_apply(dir, p, p->ev[i].terms, a, config, depth + 1, err);
			}
	}
	uint64_t value = 1;
	if (eq) {
		char *end;
		errno = 0;
		value = strtoull(eq + 1, &end, 0);
		if (end == eq + 1 || *end || errno)
			return as_error_set(err, -EINVAL, "PMU '%s': '%s=%s' is not a number", p->name, term, eq + 1);
	}
	char path[4400], format[256];
	snprintf(path, sizeof(path), "%s/format/%s", dir, term);
	if (!strcmp(term, "config") || !strcmp(term, "config1") || !strcmp(term, "config2"))
		snprintf(format, sizeof(format), "%s:0-63", term);
	else if (read_line(path, format, sizeof(format)) != 0)
		return as_error_set(err, eq ? -EINVAL : -ENOENT, "PMU '%s' has no %s '%s' (see archscope events '%s/')",
				    p->name, eq ? "format term" : "event", term, p->name);
	if (sysfs_pmu_format_apply(format, value, config) != 0)
		return as_error_set(err, -EINVAL, "PMU '%s': %s=%#llx does not fit its format '%s'", p->name, term,
				    (unsigned long long)value, format);
	return 0;
}

int sysfs_pmu_encode(const char *root, const char *name, struct sysfs_pmu_attr *a, struct as_error *err)
{
	memset(a, 0, sizeof(*a));
	a->scale = 1;
	if (!sysfs_pmu_is_name(name))
		return as_error_set(err, -EINVAL, "'%s' is not of the form pmu/event/", name);
	if (!root)
		root = SYSFS_PMU_ROOT;
	const char *slash = strchr(name, '/');
	char pmu[256];
	snprintf(pmu, sizeof(pmu), "%.*s", (int)(slash - name), name);
	if (!plain_name(pmu))
		return as_error_set(err, -ENOENT, "event '%s': '%s' is not a PMU name", name, pmu);
	struct sysfs_pmu p;
	memset(&p, 0, sizeof(p));
	int rc = pmu_read(root, pmu, &p);
	if (rc) {
		pmu_release(&p);
		return rc == -ENOENT ? as_error_set(err, -ENOENT, "event '%s': the kernel offers no PMU '%s' (%s)", name,
						    pmu, root)
				     : as_error_set(err, rc, "out of memory");
	}
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/%s", root, pmu);
	size_t n = strlen(slash + 1);
	char *terms = strndup(slash + 1, n - 1);
	if (!terms) {
		pmu_release(&p);
		return as_error_set(err, -ENOMEM, "out of memory");
	}
	uint64_t config[3] = { 0, 0, 0 };
	if (strchr(terms, '/'))
		rc = as_error_set(err, -EINVAL, "event '%s': one pmu/terms/ and no modifiers", name);
	else if (strspn(terms, ", ") == strlen(terms))
		rc = as_error_set(err, -EINVAL, "event '%s' names no event of PMU '%s'", name, pmu);
	else
		rc = terms_apply(dir, &p, terms, a, config, 0, err);
	free(terms);
	if (rc == 0) {
		a->type = p.type;
		a->config = config[0];
		a->config1 = config[1];
		a->config2 = config[2];
		snprintf(a->cpumask, sizeof(a->cpumask), "%s", p.cpumask);
		a->core = !strcmp(pmu, "cpu") || !strcmp(pmu, "cpu_core") || !strcmp(pmu, "cpu_atom");
	}
	pmu_release(&p);
	return rc;
}

int sysfs_pmu_cpu_in_mask(const char *mask, int cpu)
{
	if (!mask || !*mask)
		return 1;
	const char *p = mask;
	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		if (end == p)
			return 0;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			p = end;
		}
		if (cpu >= lo && cpu <= hi)
			return 1;
		if (*p != ',')
			break;
		p++;
	}
	return 0;
}

int sysfs_pmu_mask_first(const char *mask)
{
	return mask && *mask ? atoi(mask) : 0;
}
