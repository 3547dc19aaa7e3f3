/* See counters.h. */
#include "measure/counters.h"

#include <errno.h>
#include <math.h>
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "measure/sysfs-pmu.h"

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_status = PFM_ERR_NOINIT;

static void pfm_init_once(void)
{
	pfm_status = pfm_initialize();
}

int counters_tracepoint_id(const char *tracefs, const char *name, uint64_t *id)
{
	const char *colon = strchr(name, ':');
	if (!colon || strchr(colon + 1, ':') || strchr(name, '/') || colon == name || !colon[1])
		return -ENOENT;
	const char *roots[] = { tracefs, "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	for (int r = tracefs ? 0 : 1; r < 3; r++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/events/%.*s/%s/id", roots[r], (int)(colon - name), name, colon + 1);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		unsigned long long v;
		int ok = fscanf(f, "%llu", &v) == 1;
		fclose(f);
		if (ok) {
			*id = v;
			return 0;
		}
	}
	return -ENOENT;
}

/* perf's generic events by their libpfm4 names, for when libpfm4 does not list them: 4.13 lacks
 * some software events, and under LIBPFM_FORCE_PMU it hides the whole perf:: table, while the
 * kernel's software events count on any CPU (stat --all on a forced PMU still counts them). */
static int software_attr(const char *name, int plm, struct perf_event_attr *attr)
{
	/* a row per event: its libpfm4 name is perf's constant's */
#define SW(x) { "perf::PERF_COUNT_SW_" #x, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##x }
#define HW(x) { "perf::PERF_COUNT_HW_" #x, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##x }
	static const struct {
		const char *name;
		uint32_t type;
		uint64_t config;
	} sw[] = {
		SW(CPU_CLOCK), SW(TASK_CLOCK), SW(PAGE_FAULTS), SW(CONTEXT_SWITCHES), SW(CPU_MIGRATIONS),
		SW(PAGE_FAULTS_MIN), SW(PAGE_FAULTS_MAJ), SW(ALIGNMENT_FAULTS), SW(EMULATION_FAULTS),
		{ "perf::PERF_COUNT_SW_CGROUP_SWITCHES", PERF_TYPE_SOFTWARE, 11 /* PERF_COUNT_SW_CGROUP_SWITCHES, Linux 5.13 */ },
		HW(CPU_CYCLES), HW(INSTRUCTIONS), HW(CACHE_REFERENCES), HW(CACHE_MISSES), HW(BRANCH_INSTRUCTIONS),
		HW(BRANCH_MISSES), HW(STALLED_CYCLES_FRONTEND), HW(STALLED_CYCLES_BACKEND), HW(REF_CPU_CYCLES),
	};
#undef SW
#undef HW
	for (size_t i = 0; i < sizeof(sw) / sizeof(sw[0]); i++)
		if (!strcmp(name, sw[i].name) || !strcmp(name, sw[i].name + 6)) {
			memset(attr, 0, sizeof(*attr));
			attr->type = sw[i].type;
			attr->config = sw[i].config;
			attr->exclude_kernel = !(plm & PFM_PLM0);
			return 0;
		}
	return -ENOENT;
}

/* "sys:event" as a tracepoint when tracefs has it. */
static int tracepoint_attr(const char *name, int plm, struct perf_event_attr *attr)
{
	uint64_t id;
	if (counters_tracepoint_id(NULL, name, &id) != 0)
		return -ENOENT;
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->config = id;
	attr->exclude_kernel = !(plm & PFM_PLM0);
	return 0;
}

/* "pmu/event/" from sysfs (sysfs-pmu.h): a CPU's own PMU takes the modes asked for; energy, uncore
 * and msr PMUs take none (the kernel refuses exclude bits there, as perf knows). sa may be NULL. */
static int sysfs_attr(const char *name, int plm, struct perf_event_attr *attr, char **fq, struct sysfs_pmu_attr *sa,
		      struct as_error *err)
{
	struct sysfs_pmu_attr own;
	if (!sa)
		sa = &own;
	int rc = sysfs_pmu_encode(NULL, name, sa, err);
	if (rc)
		return rc;
	memset(attr, 0, sizeof(*attr));
	attr->type = sa->type;
	attr->config = sa->config;
	attr->config1 = sa->config1;
	attr->config2 = sa->config2;
	attr->exclude_kernel = sa->core && !(plm & PFM_PLM0);
	if (fq && !(*fq = strdup(name)))
		return as_error_set(err, -ENOMEM, "out of memory");
	return 0;
}

/* libpfm4 fills attr (type, config, privilege bits) for a user-level count of `name`. *fq (may be
 * NULL) gets the fully qualified name, malloc'd (any length: names are data, never cut). */
static int encode_attr_plm(const char *name, int plm, struct perf_event_attr *attr, char **fq, struct as_error *err)
{
	if (fq)
		*fq = NULL;
	if (sysfs_pmu_is_name(name))
		return sysfs_attr(name, plm, attr, fq, NULL, err);
	pthread_once(&pfm_once, pfm_init_once);
	if (pfm_status != PFM_SUCCESS)
		return as_error_set(err, -ENOSYS, "libpfm4 did not start: %s", pfm_strerror(pfm_status));
	memset(attr, 0, sizeof(*attr));
	char *fstr = NULL;
	pfm_perf_encode_arg_t arg;
	memset(&arg, 0, sizeof(arg));
	arg.attr = attr;
	arg.fstr = &fstr;
	arg.size = sizeof(arg);
	int rc = pfm_get_os_event_encoding(name, plm, PFM_OS_PERF_EVENT_EXT, &arg);
	const char *prefix = NULL;
	if (rc == PFM_ERR_NOTFOUND && software_attr(name, plm, attr) == 0)
		prefix = strncmp(name, "perf::", 6) ? "perf::" : "";
	else if (rc == PFM_ERR_NOTFOUND && tracepoint_attr(name, plm, attr) == 0)
		prefix = "tracepoint::";
	if (prefix) {
		free(fstr);
		fstr = NULL;
		if (fq && asprintf(fq, "%s%s", prefix, name) < 0) {
			*fq = NULL;
			return as_error_set(err, -ENOMEM, "out of memory");
		}
		return 0;
	}
	if (rc != PFM_SUCCESS) {
		free(fstr);
		return as_error_set(err, rc == PFM_ERR_NOTFOUND ? -ENOENT : -EINVAL, "event '%s': %s", name,
				    pfm_strerror(rc));
	}
	if (fq) {
		*fq = fstr ? fstr : strdup(name);
		if (!*fq)
			return as_error_set(err, -ENOMEM, "out of memory");
	} else {
		free(fstr);
	}
	return 0;
}

/* LIBPFM_FORCE_PMU names a PMU libpfm4 knows, or it is refused: an empty name is its first
 * table (the Pentium 4's), an unknown one is ignored by libpfm4 without a word. */
int counters_forced_pmu_check(struct as_error *err)
{
	pthread_once(&pfm_once, pfm_init_once);
	if (pfm_status != PFM_SUCCESS)
		return 0; /* no libpfm4: nothing it could be forced to */
	const char *force = getenv("LIBPFM_FORCE_PMU");
	if (!force)
		return 0;
	if (!*force)
		return as_error_set(err, -ENOENT, "an empty PMU name (libpfm4 would take its first table, the Pentium 4's); "
						  "libpfm4's PMUs are skx, icx, spr, amd64_fam19h_zen4, ...");
	char known[2048] = "";
	size_t used = 0;
	pfm_pmu_t p;
	pfm_for_all_pmus(p)
	{
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS)
			continue;
		if (!strcmp(pi.name, force)) /* known; libpfm4 forces only core PMUs, and says so by listing none */
			return 0;
		if (pi.type == PFM_PMU_TYPE_CORE && used + strlen(pi.name) + 3 < sizeof(known))
			used += (size_t)snprintf(known + used, sizeof(known) - used, "%s%s", used ? ", " : "", pi.name);
	}
	return as_error_set(err, -ENOENT, "libpfm4 knows no PMU '%s'; its core PMUs: %s", force, known);
}

int counters_pfm_start(struct as_error *err)
{
	pthread_once(&pfm_once, pfm_init_once);
	if (pfm_status != PFM_SUCCESS)
		return as_error_set(err, -ENOSYS, "libpfm4 did not start: %s", pfm_strerror(pfm_status));
	return counters_forced_pmu_check(err);
}

int counters_cpu_pmu_each(int (*fn)(void *ctx, const char *pmu, int first_event), void *ctx)
{
	pfm_pmu_t p;
	pfm_for_all_pmus(p)
	{
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.is_present || pi.type == PFM_PMU_TYPE_OS_GENERIC)
			continue;
		int rc = fn(ctx, pi.name, pi.first_event);
		if (rc)
			return rc;
	}
	return 0;
}

static int pmu_found(void *ctx, const char *pmu, int first_event)
{
	(void)ctx;
	(void)pmu;
	(void)first_event;
	return 1;
}

int counters_cpu_pmu_known(void)
{
	return counters_pfm_start(NULL) == 0 && counters_cpu_pmu_each(pmu_found, NULL) == 1;
}

const char *counters_why_not(int rc)
{
	switch (-rc) {
	case EOPNOTSUPP:
	case ENOENT:
	case ENODEV:
		return "this machine does not offer the counter: no PMU for it (a virtual machine without PMU "
		       "pass-through, or another CPU's event)";
	case EACCES:
	case EPERM:
		return "not permitted: kernel.perf_event_paranoid too high for this user (<= 2 for own processes, "
		       "or root / CAP_PERFMON)";
	case EINVAL:
		return "the kernel rejects this encoding (a unit mask or modifier it does not take)";
	case EBUSY:
		return "the counter is in use (another tool holds it exclusively)";
	default:
		return "perf_event_open failed";
	}
}

int counters_encode(const char *name, uint32_t *type, uint64_t *config, char *fq, size_t fqlen,
		    struct as_error *err)
{
	struct perf_event_attr attr;
	char *full = NULL;
	int rc = encode_attr_plm(name, PFM_PLM3, &attr, fq && fqlen ? &full : NULL, err);
	if (rc)
		return rc;
	if (fq && fqlen)
		snprintf(fq, fqlen, "%s", full);
	free(full);
	*type = attr.type;
	*config = attr.config;
	return 0;
}

int counters_encode_name(const char *name, char **fq, struct as_error *err)
{
	struct perf_event_attr attr;
	return encode_attr_plm(name, PFM_PLM3, &attr, fq, err);
}
/* kernel.perf_event_paranoid as the file says it ("?" when unreadable), for error messages. */
static void paranoid_text(char *par, size_t n)
{
	snprintf(par, n, "?");
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (f) {
		if (!fgets(par, (int)n, f))
			snprintf(par, n, "?");
		par[strcspn(par, "\n")] = 0;
		fclose(f);
	}
}


/* A sysfs PMU with a cpumask (energy, uncore) counts whole CPUs, and only on the CPUs of its mask
 * (the kernel moves an event opened elsewhere onto them, so opening it on every CPU would count
 * it once per CPU): -EINVAL for one task, -EXDEV for a CPU outside the mask. */
static int sysfs_placement(const char *name, const struct sysfs_pmu_attr *sa, const struct counters_how *how,
			   struct as_error *err)
{
	if (!sa->cpumask[0])
		return 0;
	if (!how || !how->cpu_wide)
		return as_error_set(err, -EINVAL, "'%s' counts whole CPUs (its PMU's cpumask is %s), not one program: "
					      "count it system-wide (stat -a)", name, sa->cpumask);
	if (!sysfs_pmu_cpu_in_mask(sa->cpumask, how->cpu))
		return as_error_set(err, -EXDEV, "'%s' counts on CPUs %s only, not on CPU %d", name, sa->cpumask, how->cpu);
	return 0;
}

/* how NULL: the classic set (user mode, one group, the leader disabled until enabled by ioctl). */
static int open_one(struct counter_set *s, int i, pid_t pid, const struct counters_how *how, struct as_error *err)
{
	struct perf_event_attr attr;
	int kernel = how && how->kernel;
	free(s->fq[i]);
	s->fq[i] = NULL;
	struct sysfs_pmu_attr sa = { .scale = 1, .core = 1 };
	int plm = kernel ? PFM_PLM0 | PFM_PLM3 : PFM_PLM3;
	int rc = sysfs_pmu_is_name(s->name[i]) ? sysfs_attr(s->name[i], plm, &attr, &s->fq[i], &sa, err)
					       : encode_attr_plm(s->name[i], plm, &attr, &s->fq[i], err);
	if (rc == 0)
		rc = sysfs_placement(s->name[i], &sa, how, err);
	if (rc)
		return rc;
	s->unit_scale[i] = sa.scale;
	int grouped = !how || how->grouped;
	attr.size = sizeof(attr);
	attr.disabled = grouped ? i == 0 : 1;
	attr.exclude_kernel = sa.core && !kernel;
	attr.exclude_hv = sa.core;
	if (how) {
		attr.inherit = how->inherit ? 1 : 0;
		attr.enable_on_exec = how->enable_on_exec && attr.disabled ? 1 : 0;
	}
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	s->type[i] = attr.type;
	s->config[i] = attr.config;
	int cpu = -1;
	if (how && how->cpu_wide) {
		/* system-wide on one CPU: every task there, no inheritance */
		cpu = how->cpu;
		pid = -1;
		attr.inherit = 0;
		attr.enable_on_exec = 0;
	}
	int fd = (int)syscall(SYS_perf_event_open, &attr, pid, cpu, grouped && i > 0 ? s->fd[0] : -1,
			      PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		/* "perf::PERF_COUNT_HW_CPU_CYCLES:u=1:k=0:..." -> "perf::PERF_COUNT_HW_CPU_CYCLES" */
		char *pmu = strstr(s->fq[i], "::");
		char *mod = strchr(pmu ? pmu + 2 : s->fq[i], ':');
		if (mod)
			*mod = 0;
		char eb[96];
		as_strerror(e, eb, sizeof(eb));
		if (e == EACCES || e == EPERM) {
			char par[16];
			paranoid_text(par, sizeof(par));
			return as_error_set(err, -e, "perf_event_open for '%s': %s (kernel.perf_event_paranoid is %s)",
					    s->name[i], eb, par);
		}
		if (e == EINVAL && grouped && i > 0)
			return as_error_set(err, -ENOSPC, "perf_event_open for '%s' (%s): the group of %d events does not "
					    "fit the counters", s->name[i], s->fq[i], i + 1);
		if (e == ENOENT || e == EOPNOTSUPP || e == ENODEV)
			return as_error_set(err, -EOPNOTSUPP,
					    "perf_event_open for '%s' (%s): %s: this machine does not offer that counter "
					    "(virtual machines usually have no hardware counters)",
					    s->name[i], s->fq[i], eb);
		return as_error_set(err, -e, "perf_event_open for '%s' (%s): %s", s->name[i], s->fq[i], eb);
	}
	s->fd[i] = fd;
	return 0;
}

int counters_open(struct counter_set *s, const char *const names[], int n, pid_t pid, struct as_error *err)
{
	counters_init(s);
	if (n < 1 || n > COUNTERS_MAX)
		return as_error_set(err, -EINVAL, "counters: between 1 and %d events, not %d", COUNTERS_MAX, n);
	for (int i = 0; i < n; i++) {
		s->name[i] = strdup(names[i]);
		s->n = i + 1;
		if (!s->name[i]) {
			counters_close(s);
			return as_error_set(err, -ENOMEM, "out of memory");
		}
		int rc = open_one(s, i, pid, NULL, err);
		if (rc) {
			s->fd[i] = -1;
			counters_close(s);
			return rc;
		}
	}
	return 0;
}

int counters_reset_enable(struct counter_set *s)
{
	if (s->n < 1 || ioctl(s->fd[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP) < 0 ||
	    ioctl(s->fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) < 0)
		return -errno;
	return 0;
}

int counters_disable(struct counter_set *s)
{
	if (s->n < 1 || ioctl(s->fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP) < 0)
		return -errno;
	return 0;
}

double counters_scale(uint64_t raw, uint64_t enabled, uint64_t running, double *share)
{
	if (running == 0 || enabled == 0) {
		*share = 0;
		return 0;
	}
	*share = running >= enabled ? 1.0 : (double)running / (double)enabled;
	return running >= enabled ? (double)raw : (double)raw * ((double)enabled / (double)running);
}

/* value, time enabled, time running of counter i; value[i] and running[i] set (scaled). */
static int read_raw(struct counter_set *s, int i, uint64_t v[3], struct as_error *err)
{
	ssize_t got = read(s->fd[i], v, 3 * sizeof(uint64_t));
	if (got != (ssize_t)(3 * sizeof(uint64_t))) {
		char eb[96];
		return as_error_set(err, got < 0 ? -errno : -EIO, "reading counter '%s': %s", s->name[i],
				    got < 0 ? as_strerror(errno, eb, sizeof(eb)) : "short read");
	}
	s->value[i] = counters_scale(v[0], v[1], v[2], &s->running[i]) * (s->unit_scale[i] > 0 ? s->unit_scale[i] : 1);
	return 0;
}

int counters_read(struct counter_set *s, struct as_error *err)
{
	uint64_t v[3];
	for (int i = 0; i < s->n; i++) {
		int rc = read_raw(s, i, v, err);
		if (rc)
			return rc;
	}
	return 0;
}

void counters_close(struct counter_set *s)
{
	for (int i = COUNTERS_MAX - 1; i >= 0; i--) {
		if (s->fd[i] >= 0) {
			close(s->fd[i]);
			s->fd[i] = -1;
		}
		free(s->name[i]);
		free(s->fq[i]);
		s->name[i] = s->fq[i] = NULL;
	}
	s->n = 0;
}

int counters_find(const struct counter_set *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name))
			return i;
	return -1;
}

void counters_init(struct counter_set *s)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < COUNTERS_MAX; i++)
		s->fd[i] = -1;
}

int counters_add(struct counter_set *s, const char *name, pid_t pid, const struct counters_how *how,
		 struct as_error *err)
{
	if (s->n >= COUNTERS_MAX)
		return as_error_set(err, -E2BIG, "counters: a set holds at most %d events", COUNTERS_MAX);
	int i = s->n;
	s->name[i] = strdup(name);
	if (!s->name[i])
		return as_error_set(err, -ENOMEM, "out of memory");
	int rc = open_one(s, i, pid, how, err);
	if (rc) {
		s->fd[i] = -1;
		free(s->name[i]);
		free(s->fq[i]);
		s->name[i] = s->fq[i] = NULL;
		return rc;
	}
	s->n = i + 1;
	return 0;
}

int counters_kernel_allowed(void)
{
	if (geteuid() == 0)
		return 1;
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int level = 2;
	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 2;
		fclose(f);
	}
	return level <= 1;
}

int counters_read_one(struct counter_set *s, int i, struct as_error *err)
{
	uint64_t v[3];
	int rc = read_raw(s, i, v, err);
	/* enabled but never on a counter (multiplexed out): not counted, which is not 0; never enabled
	 * at all (its task did not run since): 0 events happened */
	if (rc == 0 && v[2] == 0) {
		s->value[i] = v[1] == 0 && v[0] == 0 ? 0 : NAN;
		s->running[i] = v[1] == 0 ? 1 : 0;
	}
	return rc;
}

int counters_disable_one(struct counter_set *s, int i)
{
	if (i < 0 || i >= s->n || ioctl(s->fd[i], PERF_EVENT_IOC_DISABLE, 0) < 0)
		return -errno;
	return 0;
}

int counters_enable_one(struct counter_set *s, int i)
{
	if (i < 0 || i >= s->n || ioctl(s->fd[i], PERF_EVENT_IOC_ENABLE, 0) < 0)
		return -errno;
	return 0;
}

void counters_attr_user(struct perf_event_attr *attr, uint32_t type, uint64_t config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
	attr->disabled = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

int counters_hw_check(void)
{
	struct perf_event_attr attr;
	counters_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int counters_system_wide_check(struct as_error *err)
{
	struct counter_set s;
	counters_init(&s);
	struct counters_how how = { .cpu_wide = 1, .cpu = 0 };
	struct as_error e = { 0 };
	int rc = counters_add(&s, "perf::PERF_COUNT_SW_TASK_CLOCK", -1, &how, &e);
	counters_close(&s);
	if (rc == -EACCES || rc == -EPERM) {
		char par[16];
		paranoid_text(par, sizeof(par));
		return as_error_set(err, rc, "counting every CPU needs root, CAP_PERFMON or kernel.perf_event_paranoid <= 0 "
					     "(it is %s here; sysctl kernel.perf_event_paranoid=0)", par);
	}
	if (rc)
		return as_error_set(err, rc, "cannot count system-wide: %s", e.msg);
	return 0;
}
