/* Event selection for stat: defaults, -e lists, --all through libpfm4, metric groups from data
 * files. See stat-select.h. */
#include "measure/stat-select.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/array.h"
#include "measure/counters.h"
#include "measure/stat.h"
#include "measure/sysfs-pmu.h"

void measure_stat_select_init(struct stat_select *s)
{
	memset(s, 0, sizeof(*s));
}

/* Adds one name. strict (names a user typed): an empty name or one given twice (also under another
 * of perf's names for the same event, "faults" after "page-faults") is an error (-EINVAL);
 * otherwise (lists archscope builds) a repeat is skipped. */
static int add_one(struct stat_select *s, const char *name, size_t len, int quiet, struct as_error *err)
{
	while (len && isspace((unsigned char)*name)) {
		name++;
		len--;
	}
	while (len && isspace((unsigned char)name[len - 1]))
		len--;
	if (!len)
		return quiet ? 0 : as_error_set(err, -EINVAL, "an empty event name (-e '' or a list with ',,')");
	char *n = strndup(name, len);
	if (!n)
		return as_error_set(err, -ENOMEM, "out of memory");
	for (int i = 0; i < s->n; i++) {
		if (strcmp(s->names[i], n) && strcmp(measure_stat_alias(s->names[i]), measure_stat_alias(n)))
			continue;
		int rc = 0;
		if (quiet)
			;
		else if (!strcmp(s->names[i], n))
			rc = as_error_set(err, -EINVAL, "event '%s' is given twice", n);
		else
			rc = as_error_set(err, -EINVAL, "events '%s' and '%s' are the same event (%s): give it once",
					  s->names[i], n, measure_stat_alias(n));
		free(n);
		return rc;
	}
	if (!quiet) {
		/* a name nothing knows is a typo where libpfm4 knows this CPU's PMUs; elsewhere (a VM
		 * that hides them) it may be this CPU's event, and it is reported as not counted */
		char *fq = NULL;
		struct as_error ee = { 0 };
		int rc = counters_encode_name(measure_stat_alias(n), &fq, &ee);
		free(fq);
		if (rc == -EINVAL && sysfs_pmu_is_name(n)) { /* the kernel's PMU has no such term, or a bad value */
			rc = as_error_set(err, -EINVAL, "%s", ee.msg);
			free(n);
			return rc;
		}
		if (rc == -ENOENT && !sysfs_pmu_is_name(n) && counters_cpu_pmu_known()) {
			rc = as_error_set(err, -EINVAL,
					  "event '%s' is not known to libpfm4's PMUs for this CPU, perf's software "
					  "events or the tracepoints: 'archscope events' lists them",
					  n);
			free(n);
			return rc;
		}
	}
	char **nn = array_grow(s->names, &s->cap, (size_t)s->n, sizeof(char *), 16);
	if (!nn) {
		free(n);
		return as_error_set(err, -ENOMEM, "out of memory");
	}
	s->names = nn;
	s->names[s->n++] = n;
	return 0;
}

int measure_stat_select_add(struct stat_select *s, const char *list, struct as_error *err)
{
	for (const char *p = list;;) {
		size_t n = strcspn(p, ",/");
		if (p[n] == '/') { /* perf's pmu/term,term/ keeps its commas: up to the closing slash */
			const char *close = strchr(p + n + 1, '/');
			n = close ? (size_t)(close - p) + 1 : strlen(p);
			n += strcspn(p + n, ",");
		}
		int rc = add_one(s, p, n, 0, err);
		if (rc)
			return rc;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

int measure_stat_select_default(struct stat_select *s, struct as_error *err)
{
	return measure_stat_select_add(s, "task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,"
			       "branches,branch-misses", err);
}

/* One PMU's events: "pmu::EVENT" with its default unit masks, or once per unit mask where the
 * event has no default. Names are built at their length: libpfm4's can be long
 * ("amd64_fam19h_zen4::..."). */
static int add_pmu_events(struct stat_select *s, const char *pmu, int first_event, struct as_error *err)
{
	for (int ev = first_event; ev != -1; ev = pfm_get_event_next(ev)) {
		pfm_event_info_t info;
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_event_info(ev, PFM_OS_PERF_EVENT_EXT, &info) != PFM_SUCCESS)
			continue;
		char *name = NULL;
		if (asprintf(&name, "%s::%s", pmu, info.name) < 0)
			return as_error_set(err, -ENOMEM, "out of memory");
		uint32_t type;
		uint64_t config;
		struct as_error ee = { 0 };
		int rc = 0;
		if (counters_encode(name, &type, &config, NULL, 0, &ee) == 0) {
			rc = add_one(s, name, strlen(name), 1, err);
			free(name);
			if (rc)
				return rc;
			continue;
		}
		for (int a = 0; a < info.nattrs && !rc; a++) {
			pfm_event_attr_info_t at;
			memset(&at, 0, sizeof(at));
			at.size = sizeof(at);
			if (pfm_get_event_attr_info(ev, a, PFM_OS_PERF_EVENT_EXT, &at) != PFM_SUCCESS ||
			    at.type != PFM_ATTR_UMASK)
				continue;
			char *um = NULL;
			if (asprintf(&um, "%s:%s", name, at.name) < 0) {
				rc = as_error_set(err, -ENOMEM, "out of memory");
				break;
			}
			if (counters_encode(um, &type, &config, NULL, 0, &ee) == 0)
				rc = add_one(s, um, strlen(um), 1, err);
			free(um);
		}
		free(name);
		if (rc)
			return rc;
	}
	return 0;
}

struct pmu_walk {
	struct stat_select *s;
	struct as_error *err;
	int any; /* a PMU of this CPU was found */
};

static int add_pmu(void *ctx, const char *pmu, int first_event)
{
	struct pmu_walk *w = ctx;
	w->any = 1;
	return add_pmu_events(w->s, pmu, first_event, w->err);
}

int measure_stat_select_all(struct stat_select *s, struct as_error *err)
{
	/* the kernel's software events first: they count everywhere */
	int rc = measure_stat_select_add(s, "task-clock,cpu-clock,page-faults,minor-faults,major-faults,context-switches,"
				 "cpu-migrations,alignment-faults,emulation-faults", err);
	if (rc)
		return rc;
	if ((rc = counters_pfm_start(err)) != 0)
		return rc;
	struct pmu_walk w = { s, err, 0 };
	if ((rc = counters_cpu_pmu_each(add_pmu, &w)) != 0)
		return rc;
	if (!w.any) /* libpfm4 does not know this CPU's PMU: perf's generic hardware events stand in */
		rc = measure_stat_select_add(s, "cycles,instructions,branches,branch-misses,cache-references,cache-misses,"
				     "stalled-cycles-frontend,stalled-cycles-backend,ref-cycles,L1-dcache-loads,"
				     "L1-dcache-load-misses,LLC-loads,LLC-load-misses,dTLB-load-misses", err);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void measure_stat_select_group_list(const char *dir, char *out, size_t len)
{
	out[0] = 0;
	DIR *d = opendir(dir);
	if (!d)
		return;
	char *names[64];
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d)) && n < 64) {
		size_t l = strlen(de->d_name);
		if (l > 4 && !strcmp(de->d_name + l - 4, ".txt"))
			names[n++] = strndup(de->d_name, l - 4);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(char *), cmp_str);
	size_t used = 0;
	for (int i = 0; i < n; i++) {
		if (names[i] && used + strlen(names[i]) + 3 < len)
			used += (size_t)snprintf(out + used, len - used, "%s%s", i ? ", " : "", names[i]);
		free(names[i]);
	}
}

/* Whether every event of a block encodes on this machine. */
static int block_encodes(const struct stat_group_block *b)
{
	for (int i = 0; i < b->n; i++) {
		/* the kernel's software events exist everywhere (libpfm4 hides them under a forced PMU) */
		if (measure_stat_is_software(measure_stat_alias(b->ev[i])))
			continue;
		uint32_t type;
		uint64_t config;
		struct as_error ee = { 0 };
		if (counters_encode(measure_stat_alias(b->ev[i]), &type, &config, NULL, 0, &ee) != 0)
			return 0;
	}
	return b->n > 0;
}

int measure_stat_select_group(struct stat_select *s, const char *dir, const char *name, struct as_error *err)
{
	char path[4096], file[256] = "";
	DIR *d = opendir(dir);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l == strlen(name) + 4 && !strncasecmp(de->d_name, name, l - 4) && !strcmp(de->d_name + l - 4, ".txt"))
			snprintf(file, sizeof(file), "%s", de->d_name);
	}
	if (d)
		closedir(d);
	char have[512];
	measure_stat_select_group_list(dir, have, sizeof(have));
	if (!file[0])
		return as_error_set(err, -ENOENT, "no metric group '%s' in %s (there are: %s)", name, dir,
				    have[0] ? have : "none");
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	struct stat_group *g = calloc(1, sizeof(*g));
	if (!g)
		return as_error_set(err, -ENOMEM, "out of memory");
	/* the whole file is read and checked (the checked reader: a regular file, text, a size cap), so
	 * a mistake in a block this machine does not take is found too */
	int rc = measure_stat_group_read(g, path, measure_stat_alias, err);
	if (rc) {
		free(g);
		return rc;
	}
	snprintf(s->group, sizeof(s->group), "%.*s", (int)(strlen(file) - 4), file);
	snprintf(s->group_title, sizeof(s->group_title), "%s", g->title);
	/* the first block that encodes here, else the last (taken even when an event does not encode:
	 * stat says why) */
	const struct stat_group_block *chosen = &g->block[g->nblocks - 1];
	for (int k = 0; k < g->nblocks - 1; k++)
		if (block_encodes(&g->block[k])) {
			chosen = &g->block[k];
			break;
		}
	/* no repeat to skip (the parser refused them): $N is the N-th name */
	for (int i = 0; !rc && i < chosen->n; i++)
		rc = add_one(s, chosen->ev[i], strlen(chosen->ev[i]), 1, err);
	if (!rc) {
		snprintf(s->group_pmu, sizeof(s->group_pmu), "%s", chosen->label);
		memcpy(s->metric, chosen->metric, sizeof(s->metric));
		s->nmetrics = chosen->nmetrics;
	}
	free(g);
	return rc;
}

double measure_stat_metric_eval(const struct stat_select *s, const struct stat_metric *m,
			double (*value)(void *ctx, const char *name), void *ctx)
{
	return measure_stat_expr_eval(m->expr, s ? (const char *const *)s->names : NULL, s ? s->n : 0, value, ctx);
}

void measure_stat_select_release(struct stat_select *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->names[i]);
	free(s->names);
	memset(s, 0, sizeof(*s));
}
