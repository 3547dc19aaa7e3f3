/* Live load-latency sampling (memsample.h) through perf_event_open: Intel PEBS load latency (the
 * cpu PMU's mem-loads event, its ldlat threshold in config1, and the mem-loads-aux group leader
 * that Sapphire Rapids and later need) and AMD IBS op (the ibs_op PMU; Linux 6.1 and later fill
 * PERF_SAMPLE_WEIGHT and PERF_SAMPLE_DATA_SRC from the IBS registers). Samples come through one
 * ring buffer per CPU (as perf record's); memsample_ring_parse decodes their records. */
#include "measure/memsample.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/spawn.h"
#include "measure/series.h"

#define PMU_DIR "/sys/bus/event_source/devices"
#define RING_PAGES 64 /* data pages of the ring buffer (a power of two) */
#define MEMSAMPLE_FREQ UINT64_MAX /* a period meaning "perf record's default frequency" */

/* The first line of a sysfs file, without the newline; -1 when unreadable. */
static int sysfs_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int memsample_live_probe(char *why, size_t len)
{
	char buf[256];
	if (sysfs_line(PMU_DIR "/cpu/events/mem-loads", buf, sizeof(buf)) == 0 ||
	    sysfs_line(PMU_DIR "/cpu_core/events/mem-loads", buf, sizeof(buf)) == 0)
		return 'I';
	if (sysfs_line(PMU_DIR "/ibs_op/type", buf, sizeof(buf)) == 0)
		return 'A';
	snprintf(why, len,
		 "no load-latency sampling here: the kernel offers neither Intel PEBS load latency (no "
		 "%s/cpu/events/mem-loads) nor AMD IBS op (no %s/ibs_op); bare-metal Intel (Nehalem or later) "
		 "or AMD (Zen with Linux 6.1 or later), or a VM whose hypervisor passes PEBS or IBS through, "
		 "provides it; --from FILE reads recorded samples",
		 PMU_DIR, PMU_DIR);
	return 0;
}

/* Sets the field `name` of a PMU (its format file, e.g. "config:0-7" or "config1:0-15") to v. */
static int pmu_field_set(const char *pmu, const char *name, uint64_t v, struct perf_event_attr *a)
{
	char path[256], fmt[64];
	snprintf(path, sizeof(path), PMU_DIR "/%s/format/%s", pmu, name);
	if (sysfs_line(path, fmt, sizeof(fmt)) != 0)
		return -1;
	char reg[16];
	int lo, hi;
	int n = sscanf(fmt, "%15[a-z0-9]:%d-%d", reg, &lo, &hi);
	if (n == 2)
		hi = lo;
	else if (n != 3)
		return -1;
	__u64 *dst = !strcmp(reg, "config") ? &a->config : !strcmp(reg, "config1") ? &a->config1
						       : !strcmp(reg, "config2") ? &a->config2 : NULL;
	if (!dst || lo < 0 || hi > 63 || hi < lo)
		return -1;
	uint64_t mask = hi - lo == 63 ? ~0ull : ((1ull << (hi - lo + 1)) - 1) << lo;
	*dst = (*dst & ~mask) | ((v << lo) & mask);
	return 0;
}

/* An event of a PMU from its sysfs description ("event=0xcd,umask=0x1,ldlat=3"). */
static int pmu_event_attr(const char *pmu, const char *event, struct perf_event_attr *a)
{
	char path[256], desc[256], type[32];
	snprintf(path, sizeof(path), PMU_DIR "/%s/type", pmu);
	if (sysfs_line(path, type, sizeof(type)) != 0)
		return -1;
	a->type = (uint32_t)strtoul(type, NULL, 10);
	snprintf(path, sizeof(path), PMU_DIR "/%s/events/%s", pmu, event);
	if (sysfs_line(path, desc, sizeof(desc)) != 0)
		return -1;
	char *save = NULL;
	for (char *t = strtok_r(desc, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		uint64_t v = eq ? strtoull(eq + 1, NULL, 0) : 1;
		if (eq)
			*eq = 0;
		if (pmu_field_set(pmu, t, v, a) != 0)
			return -1;
	}
	return 0;
}

#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC)

int memsample_ring_parse(const uint8_t *data, size_t len, int user_only, struct memsample_set *set)
{
	size_t off = 0;
	while (off + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;
		memcpy(&h, data + off, sizeof(h));
		if (h.size < sizeof(h) || off + h.size > len)
			return -EINVAL;
		if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 2 * sizeof(uint64_t)) {
			uint64_t idlost[2]; /* id, lost */
			memcpy(idlost, data + off + sizeof(h), sizeof(idlost));
			set->lost += idlost[1];
		}
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 5 * sizeof(uint64_t)) {
			/* ip, pid/tid, addr, weight, data_src: the order of sample_type's bits */
			uint64_t v[5];
			memcpy(v, data + off + sizeof(h), sizeof(v));
			int user = (h.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER;
			uint64_t src = v[4];
			/* IBS samples every kind of op: keep the loads */
			int load = (src & 0x1f) & PERF_MEM_OP_LOAD;
			if ((!user_only || user) && load && memsample_add(set, (double)(v[3] & 0xffffffffu), src) != 0)
				return -ENOMEM;
		}
		off += h.size;
	}
	return 0;
}

/* Copies what the kernel wrote since the last call out of the ring (it may wrap) and parses it. */
static int ring_drain(struct perf_event_mmap_page *m, size_t data_bytes, int user_only, struct memsample_set *set)
{
	uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE), tail = m->data_tail;
	const uint8_t *base = (const uint8_t *)m + m->data_offset;
	size_t n = (size_t)(head - tail);
	uint8_t *copy = malloc(n ? n : 1);
	if (!copy)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		copy[i] = base[(tail + i) % data_bytes];
	int rc = memsample_ring_parse(copy, n, user_only, set);
	free(copy);
	__atomic_store_n(&m->data_tail, head, __ATOMIC_RELEASE);
	return rc;
}

/* The sampling (or, with period 0, counting) event for this machine, on pid and its children, on
 * one CPU (cpu >= 0: a sampling event, as the kernel maps no ring buffer of an inherited event
 * that follows a task over every CPU) or any (-1: counting). The fd, -errno. */
static int live_open(int vendor, pid_t pid, int cpu, int ldlat, uint64_t period, int *aux_fd, struct as_error *err)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	const char *pmu = vendor == 'I' ? (access(PMU_DIR "/cpu_core", F_OK) == 0 ? "cpu_core" : "cpu") : "ibs_op";
	*aux_fd = -1;
	if (vendor == 'I') {
		if (pmu_event_attr(pmu, "mem-loads", &a) != 0 || pmu_field_set(pmu, "ldlat", (uint64_t)ldlat, &a) != 0)
			return as_error_set(err, -EOPNOTSUPP, "cannot read %s/%s/events/mem-loads and its format", PMU_DIR, pmu);
		a.precise_ip = 2;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
	} else {
		char type[32];
		if (sysfs_line(PMU_DIR "/ibs_op/type", type, sizeof(type)) != 0)
			return as_error_set(err, -EOPNOTSUPP, "no %s/ibs_op/type", PMU_DIR);
		a.type = (uint32_t)strtoul(type, NULL, 10);
		a.config = 0; /* count cycles between samples; IBS ignores privilege filters: samples are filtered by mode */
	}
	a.size = sizeof(a);
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.inherit = 1;
	if (period == MEMSAMPLE_FREQ) {
		a.freq = 1;
		a.sample_freq = 4000; /* samples per second per CPU, perf record's default */
	} else if (period) {
		a.sample_period = period;
	} else {
		/* counting: PEBS on, and no sample within 2^31 qualifying loads (the largest period
		 * every Intel PMU takes); without a ring buffer one would be dropped anyway */
		a.sample_period = (1ull << 31) - 1;
	}
	if (period) {
		a.sample_type = SAMPLE_TYPE;
		a.wakeup_events = 64;
	}
	int leader = -1;
	struct perf_event_attr aux;
	memset(&aux, 0, sizeof(aux));
	if (vendor == 'I' && pmu_event_attr(pmu, "mem-loads-aux", &aux) == 0) {
		/* Sapphire Rapids and later: the load-latency event needs this event as its leader */
		aux.size = sizeof(aux);
		aux.disabled = 1;
		aux.enable_on_exec = 1;
		aux.inherit = 1;
		aux.exclude_kernel = 1;
		aux.exclude_hv = 1;
		leader = (int)syscall(SYS_perf_event_open, &aux, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (leader < 0)
			return as_error_set(err, -errno, "perf_event_open of mem-loads-aux: %s", strerror(errno));
		*aux_fd = leader;
		a.disabled = 0;
		a.enable_on_exec = 0;
	}
	int fd = (int)syscall(SYS_perf_event_open, &a, pid, cpu, leader, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		if (leader >= 0)
			close(leader);
		*aux_fd = -1;
		return as_error_set(err, -e, "perf_event_open of %s: %s%s", vendor == 'I' ? "mem-loads (PEBS)" : "ibs_op",
				    strerror(e),
				    e == EACCES || e == EPERM ? " (kernel.perf_event_paranoid forbids it)"
				    : e == EINVAL && vendor == 'A' ? " (IBS weight and data source need Linux 6.1 or later)"
								     : "");
	}
	return fd;
}

static int live_wait(pid_t pid, int *status)
{
	int st = 0;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	int exited;
	spawn_status(st, &exited, status);
	if (!exited) /* a signal, as a shell reports it */
		*status += 128;
	return 0;
}

/* One sampling event per CPU, each with its ring buffer. */
struct live_cpus {
	int n;
	int *fd, *aux;
	void **ring;
	size_t data_bytes, map_bytes;
};

static void live_cpus_close(struct live_cpus *c)
{
	for (int i = 0; i < c->n; i++) {
		if (c->ring && c->ring[i] && c->ring[i] != MAP_FAILED)
			munmap(c->ring[i], c->map_bytes);
		if (c->fd && c->fd[i] >= 0)
			close(c->fd[i]);
		if (c->aux && c->aux[i] >= 0)
			close(c->aux[i]);
	}
	free(c->fd);
	free(c->aux);
	free(c->ring);
}

/* Opens and maps the event on every CPU that takes it (an offline CPU does not); -errno when
 * none does. */
static int live_cpus_open(struct live_cpus *c, int vendor, pid_t pid, int ldlat, uint64_t period,
			  struct as_error *err)
{
	long page = sysconf(_SC_PAGESIZE);
	c->n = (int)sysconf(_SC_NPROCESSORS_CONF);
	c->data_bytes = (size_t)RING_PAGES * (size_t)page;
	c->map_bytes = c->data_bytes + (size_t)page;
	c->fd = malloc((size_t)c->n * sizeof(int));
	c->aux = malloc((size_t)c->n * sizeof(int));
	c->ring = calloc((size_t)c->n, sizeof(void *));
	if (!c->fd || !c->aux || !c->ring)
		return as_error_set(err, -ENOMEM, "out of memory");
	int opened = 0, rc = 0;
	for (int i = 0; i < c->n; i++) {
		c->aux[i] = -1;
		c->fd[i] = live_open(vendor, pid, i, ldlat, period, &c->aux[i], err);
		if (c->fd[i] < 0) {
			rc = c->fd[i];
			continue;
		}
		c->ring[i] = mmap(NULL, c->map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd[i], 0);
		if (c->ring[i] == MAP_FAILED)
			return as_error_set(err, -errno, "cannot map the sample buffer of CPU %d: %s", i, strerror(errno));
		opened++;
	}
	return opened ? 0 : rc;
}

int memsample_live_record(char *const argv[], const struct memsample_live_opts *o, struct memsample_set *set,
			  int *status, struct as_error *err)
{
	char why[512];
	int vendor = memsample_live_probe(why, sizeof(why));
	if (!vendor)
		return as_error_set(err, -EOPNOTSUPP, "%s", why);
	int gate, execd;
	pid_t pid = series_fork(argv, &gate, &execd, err);
	if (pid < 0)
		return (int)pid;
	uint64_t period = o->period ? o->period : MEMSAMPLE_FREQ;
	struct live_cpus c = { 0 };
	int rc = live_cpus_open(&c, vendor, pid, o->ldlat_cy > 0 ? o->ldlat_cy : 3, period, err);
	if (rc) {
		close(gate);
		close(execd);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		goto out;
	}
	rc = series_fork_release(argv, pid, gate, execd, err);
	if (rc)
		goto out;
	struct pollfd *p = calloc((size_t)c.n, sizeof(*p));
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	double last_tick = 0;
	for (int done = 0; !done;) {
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		/* drain once more after the end: the last samples */
		done = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
		int np = 0;
		for (int i = 0; p && i < c.n; i++)
			if (c.fd[i] >= 0)
				p[np++] = (struct pollfd){ .fd = c.fd[i], .events = POLLIN };
		if (!done)
			poll(p, (nfds_t)np, 50);
		for (int i = 0; !rc && i < c.n; i++)
			if (c.fd[i] >= 0 && (rc = ring_drain(c.ring[i], c.data_bytes, vendor == 'A', set)) != 0) {
				as_error_set(err, rc, "reading samples: %s", strerror(-rc));
				kill(pid, SIGKILL);
			}
		clock_gettime(CLOCK_MONOTONIC, &now);
		double t = (double)(now.tv_sec - t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - t0.tv_nsec);
		if (o->timeout_s > 0 && t > o->timeout_s)
			kill(pid, SIGKILL);
		if (o->tick && t - last_tick >= 1.0) {
			o->tick(o->ctx, t, set->n);
			last_tick = t;
		}
	}
	free(p);
	live_wait(pid, status);
out:
	live_cpus_close(&c);
	return rc;
}

int memsample_live_count_above(char *const argv[], int ldlat_cy, double *count, int *status, struct as_error *err)
{
	char why[512];
	int vendor = memsample_live_probe(why, sizeof(why));
	if (vendor != 'I')
		return as_error_set(err, -EOPNOTSUPP, "%s", vendor ? "threshold counting needs Intel's ldlat threshold" : why);
	int gate, execd, aux = -1;
	pid_t pid = series_fork(argv, &gate, &execd, err);
	if (pid < 0)
		return (int)pid;
	int fd = live_open(vendor, pid, -1, ldlat_cy, 0, &aux, err);
	if (fd < 0) {
		close(gate);
		close(execd);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return fd;
	}
	int rc = series_fork_release(argv, pid, gate, execd, err);
	if (!rc) {
		live_wait(pid, status);
		uint64_t v;
		*count = read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v) ? (double)v : -1;
	}
	close(fd);
	if (aux >= 0)
		close(aux);
	return rc;
}
