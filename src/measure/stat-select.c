/* Event selection for stat: defaults, -e lists, --all through libpfm4, metric groups from data
 * files. See stat-select.h. */
#include "measure/stat-select.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "measure/counters.h"
#include "measure/stat.h"

void stat_select_init(struct stat_select *s)
{
	memset(s, 0, sizeof(*s));
}

static int add_one(struct stat_select *s, const char *name, size_t len, struct as_error *err)
{
	while (len && isspace((unsigned char)*name)) {
		name++;
		len--;
	}
	while (len && isspace((unsigned char)name[len - 1]))
		len--;
	if (!len)
		return 0;
	for (int i = 0; i < s->n; i++)
		if (strlen(s->names[i]) == len && !strncmp(s->names[i], name, len))
			return 0;
	char **nn = realloc(s->names, (size_t)(s->n + 1) * sizeof(char *));
	if (!nn)
		return as_error_set(err, -ENOMEM, "out of memory");
	s->names = nn;
	s->names[s->n] = strndup(name, len);
	if (!s->names[s->n])
		return as_error_set(err, -ENOMEM, "out of memory");
	s->n++;
	return 0;
}

int stat_select_add(struct stat_select *s, const char *list, struct as_error *err)
{
	for (const char *p = list;;) {
		size_t n = strcspn(p, ",");
		int rc = add_one(s, p, n, err);
		if (rc)
			return rc;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

int stat_select_default(struct stat_select *s, struct as_error *err)
{
	return stat_select_add(s, "task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,"
			       "branches,branch-misses", err);
}

/* One PMU's events: "pmu::EVENT" with its default unit masks, or once per unit mask where the
 * event has no default. */
static int add_pmu_events(struct stat_select *s, pfm_pmu_info_t *pi, struct as_error *err)
{
	for (int ev = pi->first_event; ev != -1; ev = pfm_get_event_next(ev)) {
		pfm_event_info_t info;
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_event_info(ev, PFM_OS_PERF_EVENT_EXT, &info) != PFM_SUCCESS)
			continue;
		char name[256];
		snprintf(name, sizeof(name), "%s::%s", pi->name, info.name);
		uint32_t type;
		uint64_t config;
		struct as_error ee = { 0 };
		if (counters_encode(name, &type, &config, NULL, 0, &ee) == 0) {
			if (add_one(s, name, strlen(name), err))
				return err->code;
			continue;
		}
		for (int a = 0; a < info.nattrs; a++) {
			pfm_event_attr_info_t at;
			memset(&at, 0, sizeof(at));
			at.size = sizeof(at);
			if (pfm_get_event_attr_info(ev, a, PFM_OS_PERF_EVENT_EXT, &at) != PFM_SUCCESS ||
			    at.type != PFM_ATTR_UMASK)
				continue;
			char um[320];
			snprintf(um, sizeof(um), "%s:%s", name, at.name);
			if (counters_encode(um, &type, &config, NULL, 0, &ee) == 0 && add_one(s, um, strlen(um), err))
				return err->code;
		}
	}
	return 0;
}

int stat_select_all(struct stat_select *s, struct as_error *err)
{
	/* the kernel's software events first: they count everywhere */
	int rc = stat_select_add(s, "task-clock,cpu-clock,page-faults,minor-faults,major-faults,context-switches,"
				 "cpu-migrations,alignment-faults,emulation-faults", err);
	if (rc)
		return rc;
	uint32_t type;
	uint64_t config;
	if (counters_encode("cycles", &type, &config, NULL, 0, err) != 0)
		return err->code;
	int any = 0;
	pfm_pmu_t p;
	pfm_for_all_pmus(p)
	{
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.is_present || pi.type == PFM_PMU_TYPE_OS_GENERIC)
			continue;
		any = 1;
		if ((rc = add_pmu_events(s, &pi, err)) != 0)
			return rc;
	}
	if (!any) /* libpfm4 does not know this CPU's PMU: perf's generic hardware events stand in */
		rc = stat_select_add(s, "cycles,instructions,branches,branch-misses,cache-references,cache-misses,"
				     "stalled-cycles-frontend,stalled-cycles-backend,ref-cycles,L1-dcache-loads,"
				     "L1-dcache-load-misses,LLC-loads,LLC-load-misses,dTLB-load-misses", err);
	return rc;
}

static char *trim(char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	size_t n = strlen(p);
	while (n && isspace((unsigned char)p[n - 1]))
		p[--n] = 0;
	return p;
}

/* The first alternative ("a | b | c") that libpfm4 encodes on this machine; the first one when
 * none does (stat then says why it cannot be counted). */
static int add_alternatives(struct stat_select *s, char *line, struct as_error *err)
{
	char *first = NULL;
	for (char *tok = strtok(line, "|"); tok; tok = strtok(NULL, "|")) {
		tok = trim(tok);
		if (!*tok)
			continue;
		if (!first)
			first = tok;
		uint32_t type;
		uint64_t config;
		struct as_error ee = { 0 };
		if (counters_encode(measure_stat_alias(tok), &type, &config, NULL, 0, &ee) == 0)
			return add_one(s, tok, strlen(tok), err);
	}
	return first ? add_one(s, first, strlen(first), err) : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void stat_select_group_list(const char *dir, char *out, size_t len)
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

int stat_select_group(struct stat_select *s, const char *dir, const char *name, struct as_error *err)
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
	stat_select_group_list(dir, have, sizeof(have));
	if (!file[0])
		return as_error_set(err, -ENOENT, "no metric group '%s' in %s (there are: %s)", name, dir,
				    have[0] ? have : "none");
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	FILE *f = fopen(path, "r");
	if (!f)
		return as_error_set(err, -errno, "cannot read metric group '%s'", path);
	snprintf(s->group, sizeof(s->group), "%.*s", (int)(strlen(file) - 4), file);
	char line[512];
	int section = 0, lineno = 0, rc = 0, nev = 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		lineno++;
		char *p = trim(line);
		if (!*p || *p == '#')
			continue;
		if (!strncmp(p, "SHORT", 5) && isspace((unsigned char)p[5])) {
			snprintf(s->group_title, sizeof(s->group_title), "%s", trim(p + 5));
		} else if (!strcmp(p, "EVENTSET")) {
			section = 1;
		} else if (!strcmp(p, "METRICS")) {
			section = 2;
		} else if (section == 1) {
			rc = add_alternatives(s, p, err);
			nev++;
		} else if (section == 2) {
			char *a = strchr(p, '|'), *b = a ? strchr(a + 1, '|') : NULL;
			if (!b || s->nmetrics >= STAT_METRICS_MAX) {
				rc = as_error_set(err, -EINVAL, "%s:%d: a metric is 'LABEL | UNIT | EXPR' (at most %d)", path,
						  lineno, STAT_METRICS_MAX);
				break;
			}
			*a = *b = 0;
			struct stat_metric *m = &s->metric[s->nmetrics++];
			snprintf(m->label, sizeof(m->label), "%s", trim(p));
			snprintf(m->unit, sizeof(m->unit), "%s", trim(a + 1));
			snprintf(m->expr, sizeof(m->expr), "%s", trim(b + 1));
		} else {
			rc = as_error_set(err, -EINVAL, "%s:%d: '%s' before EVENTSET", path, lineno, p);
		}
	}
	fclose(f);
	if (!rc && !nev)
		rc = as_error_set(err, -EINVAL, "%s: no events (an EVENTSET section lists them)", path);
	return rc;
}

double stat_metric_eval(const struct stat_metric *m, double (*value)(void *ctx, const char *name), void *ctx)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", m->expr);
	double acc = NAN;
	char op = 0;
	for (char *tok = strtok(buf, " \t"); tok; tok = strtok(NULL, " \t")) {
		if ((tok[0] == '*' || tok[0] == '/') && !tok[1]) {
			if (op || isnan(acc))
				return NAN;
			op = tok[0];
			continue;
		}
		char *end;
		double v = strtod(tok, &end);
		if (*end)
			v = value(ctx, tok);
		if (isnan(acc) && !op)
			acc = v;
		else if (op == '*')
			acc *= v;
		else if (op == '/')
			acc = v == 0 ? NAN : acc / v;
		else
			return NAN;
		op = 0;
	}
	return op ? NAN : acc;
}

void stat_select_release(struct stat_select *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->names[i]);
	free(s->names);
	memset(s, 0, sizeof(*s));
}
