/* Listing events through libpfm4 and tracefs, and trying each once; see events.h. */
#include "measure/events.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/counters.h"
#include "measure/sysfs-pmu.h"
#include "common/array.h"

static int matches(const char *pattern, const char *name)
{
	if (!pattern || !*pattern)
		return 1;
	if (strpbrk(pattern, "*?[")) {
		/* "inst_ret*" matches "skx::INST_RETIRED": the glob may leave out the PMU */
		const char *ev = strstr(name, "::");
		ev = ev ? ev + 2 : strchr(name, ':') ? strchr(name, ':') + 1 : NULL;
		return fnmatch(pattern, name, FNM_CASEFOLD) == 0 || (ev && fnmatch(pattern, ev, FNM_CASEFOLD) == 0);
	}
	return strcasestr(name, pattern) != NULL;
}

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

static struct events_entry *push(struct events_list *l, size_t *cap)
{
	struct events_entry *ne = array_grow(l->e, cap, (size_t)l->n, sizeof(*ne), 256);
	if (!ne)
		return NULL;
	l->e = ne;
	struct events_entry *e = &l->e[l->n++];
	memset(e, 0, sizeof(*e));
	return e;
}

/* Unit masks and modifiers of one libpfm4 event. */
static int add_attrs(struct events_entry *e, int ev, int nattrs)
{
	e->umasks = calloc((size_t)nattrs + 1, sizeof(*e->umasks));
	e->mods = calloc((size_t)nattrs + 1, sizeof(*e->mods));
	if (!e->umasks || !e->mods)
		return -ENOMEM;
	for (int a = 0; a < nattrs; a++) {
		pfm_event_attr_info_t at;
		memset(&at, 0, sizeof(at));
		at.size = sizeof(at);
		if (pfm_get_event_attr_info(ev, a, PFM_OS_PERF_EVENT_EXT, &at) != PFM_SUCCESS)
			continue;
		struct events_attr *x = at.type == PFM_ATTR_UMASK ? &e->umasks[e->numasks++] : &e->mods[e->nmods++];
		x->name = dup_or_empty(at.name);
		x->desc = dup_or_empty(at.desc);
		x->is_default = at.type == PFM_ATTR_UMASK && at.is_dfl;
		if (!x->name || !x->desc)
			return -ENOMEM;
	}
	return 0;
}

/* Opens the event once on this thread, user mode, disabled, to see whether it counts here (a sysfs
 * event of a PMU with a cpumask: on the mask's first CPU, system-wide, as stat -a opens it). */
static void try_open(struct events_entry *e)
{
	struct counter_set s;
	struct counters_how how = { .grouped = 0, .cpu_wide = e->cpumask[0] != 0, .cpu = sysfs_pmu_mask_first(e->cpumask) };
	struct as_error err = { 0 };
	counters_init(&s);
	char name[320];
	snprintf(name, sizeof(name), "%s", e->name);
	/* an event without a default unit mask needs one to encode: try the first */
	int rc = counters_add(&s, name, 0, &how, &err);
	if (rc == -EINVAL && e->numasks) {
		snprintf(name, sizeof(name), "%s:%s", e->name, e->umasks[0].name);
		as_error_clear(&err);
		rc = counters_add(&s, name, 0, &how, &err);
	}
	e->checked = 1;
	e->opens = rc == 0;
	free(e->reason);
	e->reason = strdup(rc == 0 ? "" : counters_why_not(rc));
	counters_close(&s);
}

static int list_pfm(struct events_list *l, size_t *cap, const char *pattern, int check_open)
{
	pfm_pmu_t p;
	size_t used = 0;
	pfm_for_all_pmus(p)
	{
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.is_present || !strcmp(pi.name, "perf_raw"))
			continue;
		if (used + strlen(pi.name) + 3 < sizeof(l->pmus))
			used += (size_t)snprintf(l->pmus + used, sizeof(l->pmus) - used, "%s%s", used ? ", " : "", pi.name);
		int forced = l->forced[0] && !strcmp(pi.name, l->forced);
		for (int ev = pi.first_event; ev != -1; ev = pfm_get_event_next(ev)) {
			pfm_event_info_t info;
			memset(&info, 0, sizeof(info));
			info.size = sizeof(info);
			if (pfm_get_event_info(ev, PFM_OS_PERF_EVENT_EXT, &info) != PFM_SUCCESS)
				continue;
			char full[320];
			snprintf(full, sizeof(full), "%s::%s", pi.name, info.name);
			if (!matches(pattern, full))
				continue;
			struct events_entry *e = push(l, cap);
			if (!e)
				return -ENOMEM;
			e->pmu = strdup(pi.name);
			e->name = strdup(full);
			e->desc = dup_or_empty(info.desc);
			e->reason = strdup("");
			e->kind = strstr(info.name, "PERF_COUNT_SW_") || (info.desc && strstr(info.desc, "PERF_COUNT_SW_"))
					  ? EVENTS_SOFTWARE
					  : EVENTS_HARDWARE;
			if (!e->pmu || !e->name || !e->desc || !e->reason || add_attrs(e, ev, info.nattrs))
				return -ENOMEM;
			if (forced) {
				free(e->reason);
				e->reason = strdup("an event of the PMU forced with --pmu (LIBPFM_FORCE_PMU): not this machine's");
			} else if (check_open) {
				try_open(e);
			}
		}
	}
	return 0;
}

static int list_tracepoints(struct events_list *l, size_t *cap, const char *pattern, int check_open, const char *tracefs)
{
	const char *roots[] = { tracefs, "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char dir[4096];
	DIR *d = NULL;
	int r;
	for (r = tracefs ? 0 : 1; r < 3 && !d; r++) {
		snprintf(dir, sizeof(dir), "%s/events", roots[r]);
		d = opendir(dir);
	}
	if (!d) {
		snprintf(l->tracepoints, sizeof(l->tracepoints),
			 "none: no readable tracefs (%s or /sys/kernel/debug/tracing; mount -t tracefs nodev "
			 "/sys/kernel/tracing as root)",
			 tracefs ? tracefs : "/sys/kernel/tracing");
		return 0;
	}
	snprintf(l->tracepoints, sizeof(l->tracepoints), "%s", dir);
	/* thousands of tracepoints share one permission: the first is tried for all (closing a
	 * perf event waits for an RCU grace period, milliseconds each) */
	int first = -1;
	struct dirent *sys;
	while ((sys = readdir(d))) {
		if (sys->d_name[0] == '.')
			continue;
		char sdir[4096 + 256];
		snprintf(sdir, sizeof(sdir), "%s/%s", dir, sys->d_name);
		DIR *sd = opendir(sdir);
		if (!sd)
			continue;
		struct dirent *ev;
		while ((ev = readdir(sd))) {
			char name[512];
			uint64_t id;
			snprintf(name, sizeof(name), "%s:%s", sys->d_name, ev->d_name);
			if (ev->d_name[0] == '.' || !matches(pattern, name) ||
			    counters_tracepoint_id(roots[r - 1], name, &id) != 0)
				continue;
			struct events_entry *e = push(l, cap);
			if (!e) {
				closedir(sd);
				closedir(d);
				return -ENOMEM;
			}
			e->pmu = strdup("tracepoint");
			e->name = strdup(name);
			e->desc = strdup("kernel tracepoint");
			e->reason = strdup("");
			e->kind = EVENTS_TRACEPOINT;
			e->umasks = calloc(1, sizeof(*e->umasks));
			e->mods = calloc(1, sizeof(*e->mods));
			if (check_open && !tracefs) {
				if (first < 0) {
					try_open(e);
					first = l->n - 1;
				} else {
					const struct events_entry *f = &l->e[first];
					e->checked = 1;
					e->opens = f->opens;
					free(e->reason);
					e->reason = strdup(f->reason);
				}
			}
		}
		closedir(sd);
	}
	closedir(d);
	return 0;
}

/* The events of every PMU the kernel describes in sysfs, as "pmu/event/". */
static int list_sysfs(struct events_list *l, size_t *cap, const char *pattern, int check_open)
{
	struct sysfs_pmu_list pl;
	if (sysfs_pmu_list(NULL, &pl, NULL) != 0)
		return 0; /* no sysfs: nothing listed, as without tracefs */
	size_t used = 0;
	int rc = 0;
	for (int i = 0; i < pl.n && !rc; i++) {
		const struct sysfs_pmu *p = &pl.p[i];
		if (p->nevents && used + strlen(p->name) + 3 < sizeof(l->sysfs_pmus))
			used += (size_t)snprintf(l->sysfs_pmus + used, sizeof(l->sysfs_pmus) - used, "%s%s", used ? ", " : "",
						 p->name);
		for (int k = 0; k < p->nevents && !rc; k++) {
			const struct sysfs_pmu_event *x = &p->ev[k];
			char name[600], desc[800];
			snprintf(name, sizeof(name), "%s/%s/", p->name, x->name);
			if (!matches(pattern, name))
				continue;
			struct events_entry *e = push(l, cap);
			if (!e) {
				rc = -ENOMEM;
				break;
			}
			snprintf(desc, sizeof(desc), "%s (sysfs)%s%s%s%s", x->terms, x->unit[0] ? "; in " : "", x->unit,
				 p->cpumask[0] ? "; system-wide (-a), counts on CPUs " : "", p->cpumask);
			e->pmu = strdup(p->name);
			e->name = strdup(name);
			e->desc = strdup(desc);
			e->reason = strdup("");
			e->kind = EVENTS_SYSFS;
			e->scale = x->scale;
			snprintf(e->unit, sizeof(e->unit), "%s", x->unit);
			snprintf(e->cpumask, sizeof(e->cpumask), "%.*s", (int)sizeof(e->cpumask) - 1, p->cpumask);
			e->umasks = calloc(1, sizeof(*e->umasks));
			e->mods = calloc(1, sizeof(*e->mods));
			if (!e->pmu || !e->name || !e->desc || !e->reason || !e->umasks || !e->mods)
				rc = -ENOMEM;
			else if (check_open)
				try_open(e);
		}
	}
	sysfs_pmu_list_release(&pl);
	return rc;
}

int measure_events_list(struct events_list *l, const char *pattern, int check_open, const char *tracefs,
			struct as_error *err)
{
	memset(l, 0, sizeof(*l));
	/* starts libpfm4 (once), which reads LIBPFM_FORCE_PMU then */
	if (counters_pfm_start(err) != 0)
		return err->code;
	const char *force = getenv("LIBPFM_FORCE_PMU");
	if (force && *force) /* one libpfm4 does not know was refused by counters_pfm_start */
		snprintf(l->forced, sizeof(l->forced), "%s", force);
	size_t cap = 0;
	int rc = list_pfm(l, &cap, pattern, check_open);
	if (rc == 0)
		rc = list_sysfs(l, &cap, pattern, check_open);
	if (rc == 0)
		rc = list_tracepoints(l, &cap, pattern, check_open, tracefs);
	if (rc)
		return as_error_set(err, rc, "events: out of memory");
	return 0;
}

static void free_attrs(struct events_attr *a, int n)
{
	for (int i = 0; i < n; i++) {
		free(a[i].name);
		free(a[i].desc);
	}
	free(a);
}

void measure_events_release(struct events_list *l)
{
	for (int i = 0; i < l->n; i++) {
		struct events_entry *e = &l->e[i];
		free(e->pmu);
		free(e->name);
		free(e->desc);
		free(e->reason);
		free_attrs(e->umasks, e->numasks);
		free_attrs(e->mods, e->nmods);
	}
	free(l->e);
	memset(l, 0, sizeof(*l));
}
