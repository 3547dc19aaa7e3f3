/* The conditions of a measurement step: /proc/stat's busy and steal ticks of the CPUs around it less
 * this process's own CPU time, its involuntary switches (getrusage) and migrations (the perf software
 * event, where it opens), and the clock the caller measured; judged against COND_* thresholds. */
#include "common/conditions.h"

#include <linux/perf_event.h>
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/atomicfile.h"
#include "common/number.h"
#include "common/timer.h"

int cond_stat_ticks(const char *text, const struct as_cpulist *cpus, double *busy, double *steal, double *total)
{
	double b = 0, s = 0, t = 0;
	if (!text || !cpus)
		return -1;
	for (int i = 0; i < cpus->n; i++) {
		char key[32];
		snprintf(key, sizeof(key), "\ncpu%d ", cpus->cpu[i]);
		const char *p = strstr(text, key);
		if (!p)
			return -1;
		/* cpuN user nice system idle iowait irq softirq steal [guest guest_nice: inside user] */
		unsigned long long v[8] = { 0 };
		int n = sscanf(p + 1, "%*s %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
			       &v[5], &v[6], &v[7]);
		if (n < 7)
			return -1;
		b += (double)(v[0] + v[1] + v[2] + v[5] + v[6]);
		s += (double)v[7];
		t += (double)(v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7]);
	}
	*busy = b;
	*steal = s;
	*total = t;
	return 0;
}

static double self_cpu_s(long *nivcsw, long *nsw)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) != 0) {
		*nivcsw = *nsw = -1;
		return NAN;
	}
	*nivcsw = ru.ru_nivcsw;
	*nsw = ru.ru_nivcsw + ru.ru_nvcsw;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec * 1e-6;
}

/* The CPUs of role r (1 used, 2 other) as a list. */
static void role_list(const struct cond_window *w, int r, struct as_cpulist *l)
{
	l->n = 0;
	for (int c = 0; c < AS_MAX_CPUS; c++)
		if (w->role[c] == r)
			l->cpu[l->n++] = c;
}

/* /proc/stat's "ctxt N": context switches since boot (NAN: none). */
static double stat_ctxt(const char *text)
{
	const char *p = text ? strstr(text, "\nctxt ") : NULL;
	return p ? strtod(p + 6, NULL) : NAN;
}

static void read_ticks(const struct cond_window *w, double busy[2], double steal[2], double total[2], double *ctxt)
{
	char *text = file_read_all("/proc/stat", NULL);
	*ctxt = stat_ctxt(text);
	struct as_cpulist *l = malloc(sizeof(*l));
	for (int r = 0; r < 2; r++) {
		busy[r] = steal[r] = total[r] = NAN;
		if (!text || !l)
			continue;
		role_list(w, r + 1, l);
		if (l->n == 0)
			busy[r] = steal[r] = total[r] = 0;
		else if (cond_stat_ticks(text, l, &busy[r], &steal[r], &total[r]) != 0)
			busy[r] = steal[r] = total[r] = NAN;
	}
	free(l);
	free(text);
}

static int migrations_open(void)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_MIGRATIONS;
	a.inherit = 1; /* the threads the step creates */
	a.exclude_kernel = 0;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

/* The CPUs this process may use, read before main() pins any thread: a command that pins its
 * main thread (bench, probe) still judges the other CPUs it may use. */
static struct as_cpulist process_allowed;
static int process_allowed_ok;

__attribute__((constructor)) static void process_allowed_read(void)
{
	struct as_error err = { 0 };
	process_allowed_ok = cpulist_allowed(&process_allowed, &err) == 0;
}

void cond_window_begin(struct cond_window *w, const struct as_cpulist *used, const struct as_cpulist *allowed,
		       unsigned flags)
{
	memset(w, 0, sizeof(*w));
	w->flags = flags;
	w->clock_ghz = w->clock_expected_ghz = NAN;
	struct as_cpulist *own = malloc(sizeof(*own));
	struct as_error err = { 0 };
	if (!allowed && process_allowed_ok)
		allowed = &process_allowed;
	if (!allowed && own && cpulist_allowed(own, &err) == 0)
		allowed = own;
	if (allowed)
		for (int i = 0; i < allowed->n; i++)
			if (allowed->cpu[i] >= 0 && allowed->cpu[i] < AS_MAX_CPUS)
				w->role[allowed->cpu[i]] = used ? 2 : 1;
	/* a step that shares caches, memory or power is disturbed by every other online CPU, also
	 * those this process may not use (a run pinned with taskset -c 0 beside a loop on CPU 1) */
	char *online = (flags & COND_SHARED) ? file_read_all("/sys/devices/system/cpu/online", NULL) : NULL;
	if (online)
		online[strcspn(online, "\n")] = '\0';
	if (online && own && cpulist_parse(online, own, &err) == 0)
		for (int i = 0; i < own->n; i++)
			if (own->cpu[i] >= 0 && own->cpu[i] < AS_MAX_CPUS && w->role[own->cpu[i]] == 0)
				w->role[own->cpu[i]] = 2;
	free(online);
	if (used)
		for (int i = 0; i < used->n; i++)
			if (used->cpu[i] >= 0 && used->cpu[i] < AS_MAX_CPUS)
				w->role[used->cpu[i]] = 1;
	free(own);
	for (int c = 0; c < AS_MAX_CPUS; c++) {
		w->cpus += w->role[c] == 1;
		w->other += w->role[c] == 2;
	}
	w->mig_fd = migrations_open();
	read_ticks(w, w->busy0, w->steal0, w->total0, &w->ctxt0);
	w->self0_s = self_cpu_s(&w->nivcsw0, &w->nsw0);
	w->t0_ns = timer_now_ns();
	w->open = 1;
}

void cond_window_own(struct cond_window *w, double cpu_s, double switches)
{
	if (cpu_s > 0)
		w->own_extra_s += cpu_s;
	if (switches > 0)
		w->own_extra_switches += switches;
}

static double (*clock_source)(void);
static double clock_first_ghz = NAN; /* the first clock measured through it: the expected one */

void cond_clock_source(double (*now_ghz)(void))
{
	clock_source = now_ghz;
}

void cond_window_clock(struct cond_window *w, double expected_ghz, double measured_ghz)
{
	w->clock_expected_ghz = expected_ghz > 0 ? expected_ghz : NAN;
	w->clock_ghz = measured_ghz > 0 ? measured_ghz : NAN;
}

/* --- the test hook ----------------------------------------------------------------------- */

/* Teams of threads may close windows at once (numa matrix runs its flows side by side). */
static pthread_mutex_t sum_lock = PTHREAD_MUTEX_INITIALIZER;

static int test_windows_seen;

/* Replaces c's figures by ARCHSCOPE_TEST_CONDITIONS's (see conditions.h) in its first N windows. */
static void test_hook(struct conditions *c)
{
	const char *spec = getenv("ARCHSCOPE_TEST_CONDITIONS");
	if (!spec || !*spec)
		return;
	double v[6] = { NAN, NAN, NAN, NAN, NAN, NAN }, windows = 1e9;
	static const char *const names[] = { "foreign", "other", "steal", "clock", "windows", "switches" };
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		if (!eq)
			continue;
		*eq = '\0';
		for (int k = 0; k < 6; k++) {
			double x;
			if (strcmp(tok, names[k]) == 0 && number_parse_double(eq + 1, 0, 1e9, &x) == 0) {
				if (k == 4)
					windows = x;
				else
					v[k] = x;
			}
		}
	}
	pthread_mutex_lock(&sum_lock);
	int seen = test_windows_seen++;
	pthread_mutex_unlock(&sum_lock);
	if (seen >= windows)
		return;
	if (!isnan(v[0])) /* never more than the CPUs there are */
		c->foreign_cpus = c->cpus > 0 ? fmin(v[0], c->cpus) : v[0];
	if (!isnan(v[1]))
		c->foreign_other_cpus = c->other_cpus > 0 ? fmin(v[1], c->other_cpus) : v[1];
	if (!isnan(v[2]))
		c->steal_pct = v[2];
	if (!isnan(v[5]))
		c->switches_per_s = v[5];
	if (!isnan(v[3])) {
		if (!(c->clock_expected_ghz > 0))
			c->clock_expected_ghz = 3.0;
		c->clock_ghz = c->clock_expected_ghz * v[3];
	}
}

/* --- the summary of a command's steps ---------------------------------------------------- */

static struct {
	int steps, noisy, finals, streak;
	double wall_s, foreign_cpu_s, foreign_max, steal_s, total_s;
	double clock_min, clock_max, clock_expected;
	int cpus;
} sum = { .clock_min = INFINITY, .clock_max = -INFINITY, .clock_expected = NAN, .foreign_max = 0 };

static void summary_add(const struct conditions *c)
{
	pthread_mutex_lock(&sum_lock);
	sum.steps++;
	if (c->wall_s > 0 && isfinite(c->foreign_cpus)) {
		sum.wall_s += c->wall_s;
		sum.foreign_cpu_s += c->foreign_cpus * c->wall_s;
		if (c->foreign_cpus > sum.foreign_max)
			sum.foreign_max = c->foreign_cpus;
	}
	if (c->wall_s > 0 && isfinite(c->steal_pct)) {
		sum.steal_s += c->steal_pct / 100 * c->wall_s;
		sum.total_s += c->wall_s;
	}
	if (c->cpus > sum.cpus)
		sum.cpus = c->cpus;
	if (isfinite(c->clock_ghz)) {
		sum.clock_min = fmin(sum.clock_min, c->clock_ghz);
		sum.clock_max = fmax(sum.clock_max, c->clock_ghz);
	}
	if (isfinite(c->clock_expected_ghz))
		sum.clock_expected = c->clock_expected_ghz;
	pthread_mutex_unlock(&sum_lock);
}

void cond_summary_final(const struct conditions *c)
{
	pthread_mutex_lock(&sum_lock);
	sum.finals++;
	sum.noisy += c->noisy != 0;
	sum.streak = c->noisy ? sum.streak + 1 : 0;
	pthread_mutex_unlock(&sum_lock);
}

int cond_summary_steps(void)
{
	pthread_mutex_lock(&sum_lock);
	int n = sum.steps;
	pthread_mutex_unlock(&sum_lock);
	return n;
}

int cond_summary_flagged(void)
{
	pthread_mutex_lock(&sum_lock);
	int n = sum.noisy;
	pthread_mutex_unlock(&sum_lock);
	return n;
}

int cond_noisy_streak(void)
{
	pthread_mutex_lock(&sum_lock);
	int n = sum.streak;
	pthread_mutex_unlock(&sum_lock);
	return n;
}

const char *cond_summary(char *buf, size_t len)
{
	if (!len)
		return buf;
	buf[0] = '\0';
	if (sum.steps == 0)
		return buf;
	size_t k = 0;
#define ADD(...)                                                                                   \
	do {                                                                                       \
		int n_ = snprintf(buf + k, k < len ? len - k : 0, __VA_ARGS__);                    \
		if (n_ > 0)                                                                        \
			k += (size_t)n_;                                                           \
	} while (0)
	ADD("conditions: %d step%s measured", sum.steps, sum.steps == 1 ? "" : "s");
	if (sum.wall_s > 0)
		ADD(", other processes %.2f of %d CPU%s on average (at most %.2f)", sum.foreign_cpu_s / sum.wall_s,
		    sum.cpus, sum.cpus == 1 ? "" : "s", sum.foreign_max);
	else
		ADD(", other processes' load not known (/proc/stat unreadable)");
	if (sum.total_s > 0)
		ADD(", steal %.1f %%", 100 * sum.steal_s / sum.total_s);
	if (sum.clock_max >= sum.clock_min) {
		if (sum.clock_max - sum.clock_min < 0.005)
			ADD(", clock %.2f GHz", sum.clock_min);
		else
			ADD(", clock %.2f-%.2f GHz", sum.clock_min, sum.clock_max);
		if (isfinite(sum.clock_expected))
			ADD(" (expected %.2f)", sum.clock_expected);
	}
	if (sum.finals)
		ADD("; %d of %d answer%s flagged noisy", sum.noisy, sum.finals, sum.finals == 1 ? "" : "s");
#undef ADD
	return buf;
}

/* --- judging ----------------------------------------------------------------------------- */

void cond_judge(struct conditions *c)
{
	char *w = c->why;
	size_t len = sizeof(c->why), k = 0;
	w[0] = '\0';
	c->noisy = 0;
#define WHY(...)                                                                                   \
	do {                                                                                       \
		int n_ = snprintf(w + k, k < len ? len - k : 0, "%s", k ? ", " : "");              \
		k += n_ > 0 ? (size_t)n_ : 0;                                                      \
		n_ = snprintf(w + k, k < len ? len - k : 0, __VA_ARGS__);                          \
		k += n_ > 0 ? (size_t)n_ : 0;                                                      \
		c->noisy = 1;                                                                      \
	} while (0)
	/* /proc/stat counts in ticks sampled on each CPU, its own time comes exact from getrusage:
	 * a short step may read a tick or two of each CPU that nobody else used */
	long hz = sysconf(_SC_CLK_TCK);
	double grain = c->wall_s > 0 && hz > 0 ? 2.0 / ((double)hz * c->wall_s) : 0;
	int own = c->cpus > 0 && c->foreign_cpus > COND_FOREIGN_MAX * c->cpus + grain * c->cpus;
	int other = (c->flags & COND_SHARED) && c->other_cpus > 0 &&
		    c->foreign_other_cpus > (COND_FOREIGN_SHARED_MAX + grain) * c->other_cpus;
	if (own && other)
		WHY("other processes used %.1f of %d CPU%s and %.1f of the %d other CPU%s (they share caches and memory)",
		    c->foreign_cpus, c->cpus, c->cpus == 1 ? "" : "s", c->foreign_other_cpus, c->other_cpus,
		    c->other_cpus == 1 ? "" : "s");
	else if (own)
		WHY("other processes used %.1f of %d CPU%s", c->foreign_cpus, c->cpus, c->cpus == 1 ? "" : "s");
	else if (other)
		WHY("other processes used %.1f of the %d other CPU%s (they share caches and memory)", c->foreign_other_cpus,
		    c->other_cpus, c->other_cpus == 1 ? "" : "s");
	if (c->steal_pct > COND_STEAL_MAX_PCT)
		WHY("steal %.0f %%", c->steal_pct);
	/* a wakeup or interrupt storm takes little CPU time (a tick rarely sees it) but preempts the
	 * step's threads thousands of times a second; a short step may see a few hundred by chance */
	int ncpu = c->cpus + c->other_cpus > 0 ? c->cpus + c->other_cpus : 1;
	double sw_grain = c->wall_s > 0 ? 200 / c->wall_s : 0;
	if (c->switches_per_s > COND_SWITCHES_MAX * ncpu + sw_grain)
		WHY("other processes switched %.0f times a second (a wakeup or interrupt storm)", c->switches_per_s);
	if (c->clock_ghz > 0 && c->clock_expected_ghz > 0) {
		double r = c->clock_ghz / c->clock_expected_ghz;
		if (r < COND_CLOCK_LOW || r > COND_CLOCK_HIGH)
			WHY("clock %.2f GHz against the %.2f GHz its cycles assume", c->clock_ghz, c->clock_expected_ghz);
	}
	if (k >= len && len > 4)
		memcpy(w + len - 4, "...", 4);
#undef WHY
}

/* Closes the window into c, judged; not counted in the summary. */
static void window_close(struct cond_window *w, struct conditions *c)
{
	memset(c, 0, sizeof(*c));
	uint64_t t1 = timer_now_ns();
	long niv1 = -1, nsw1 = -1;
	double self1 = self_cpu_s(&niv1, &nsw1);
	double busy1[2], steal1[2], total1[2], ctxt1;
	read_ticks(w, busy1, steal1, total1, &ctxt1);
	long tick = sysconf(_SC_CLK_TCK);
	c->wall_s = (double)(t1 - w->t0_ns) * 1e-9;
	c->cpus = w->cpus;
	c->other_cpus = w->other;
	c->flags = w->flags;
	c->attempts = 1;
	c->clock_ghz = w->clock_ghz;
	c->clock_expected_ghz = w->clock_expected_ghz;
	c->involuntary_switches = w->nivcsw0 >= 0 && niv1 >= 0 ? niv1 - w->nivcsw0 : -1;
	c->migrations = -1;
	if (w->mig_fd >= 0) {
		uint64_t n = 0;
		if (read(w->mig_fd, &n, sizeof(n)) == (ssize_t)sizeof(n))
			c->migrations = (long)n;
		close(w->mig_fd);
		w->mig_fd = -1;
	}
	/* the process's own CPU time is charged to the CPUs it used (its threads run there; a
	 * thread elsewhere is counted against the other CPUs' figure instead, where it is smaller) */
	double own = self1 - w->self0_s + w->own_extra_s;
	c->foreign_cpus = c->foreign_other_cpus = c->steal_pct = c->switches_per_s = NAN;
	if (c->wall_s > 0 && tick > 0) {
		double span = c->wall_s;
		double b0 = (busy1[0] - w->busy0[0]) / (double)tick, b1 = (busy1[1] - w->busy0[1]) / (double)tick;
		if (isfinite(b0)) {
			double f = b0 - (isfinite(own) ? own : 0);
			double rest = 0;
			if (f < 0) { /* own time beyond what these CPUs show ran on the others */
				rest = -f;
				f = 0;
			}
			c->foreign_cpus = fmin(f / span, (double)c->cpus);
			if (isfinite(b1))
				c->foreign_other_cpus = fmin(fmax(b1 - rest, 0) / span, (double)c->other_cpus);
		}
		double dt = total1[0] - w->total0[0], ds = steal1[0] - w->steal0[0];
		if (isfinite(dt) && isfinite(ds))
			c->steal_pct = dt > 0 ? 100 * ds / dt : 0;
		/* each switch of its own is counted twice by the machine: out, and later back in */
		double own_sw = (nsw1 >= 0 && w->nsw0 >= 0 ? (double)(nsw1 - w->nsw0) : 0) + w->own_extra_switches;
		if (isfinite(ctxt1) && isfinite(w->ctxt0))
			c->switches_per_s = fmax(0, ctxt1 - w->ctxt0 - 2 * own_sw) / span;
	}
	cond_judge(c);
	w->open = 0;
}

void cond_window_end(struct cond_window *w, struct conditions *c)
{
	if (!(w->clock_ghz > 0) && clock_source) { /* the caller measured none: the source's, now */
		double now = clock_source();
		pthread_mutex_lock(&sum_lock);
		if (!(clock_first_ghz > 0) && now > 0)
			clock_first_ghz = now;
		double first = clock_first_ghz;
		pthread_mutex_unlock(&sum_lock);
		w->clock_ghz = now > 0 ? now : NAN;
		if (!(w->clock_expected_ghz > 0))
			w->clock_expected_ghz = first;
	}
	window_close(w, c);
	test_hook(c); /* steps only: a wait for quiet sees the machine as it is */
	cond_judge(c);
	summary_add(c);
}

double cond_wait_quiet(const struct as_cpulist *used, const struct as_cpulist *allowed, unsigned flags, double max_s)
{
	uint64_t t0 = timer_now_ns();
	struct cond_window *w = malloc(sizeof(*w));
	if (!w)
		return -max_s;
	for (;;) {
		struct conditions c;
		cond_window_begin(w, used, allowed, flags);
		struct timespec ts = { 0, 200 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		window_close(w, &c); /* not a step: judged, never counted in the summary */
		double waited = (double)(timer_now_ns() - t0) * 1e-9;
		if (!c.noisy) {
			free(w);
			return waited;
		}
		if (waited >= max_s) {
			free(w);
			return -waited;
		}
	}
}

int cond_step(const struct as_cpulist *used, unsigned flags, int max_attempts, volatile int *stop,
	      int (*fn)(void *arg, int attempt), void *arg, struct conditions *out)
{
	int busy = cond_noisy_streak() >= COND_BUSY_STREAK; /* a machine that stays busy: measured once */
	int rc = 0;
	struct cond_window w;
	for (int attempt = 1;; attempt++) {
		if (attempt > 1)
			cond_wait_quiet(used, NULL, flags, 1.0); /* let a burst of other work pass */
		cond_window_begin(&w, used, NULL, flags);
		rc = fn(arg, attempt);
		cond_window_end(&w, out);
		out->attempts = attempt;
		if (rc || !out->noisy || busy || attempt >= max_attempts || (stop && *stop))
			break;
	}
	cond_summary_final(out);
	return rc;
}
