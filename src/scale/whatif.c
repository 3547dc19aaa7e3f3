/* whatif's runs: the profiling run, then rounds of one run per site and line speedup with a
 * baseline run before each site's block, each under the preload library with the shared delay file
 * (preload/whatif.h) fresh; the program's output goes to files, never to archscope's streams. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#include "common/conditions.h"
#include "common/interrupt.h"
#include "common/spawn.h"
#include "common/timer.h"
#include "scale/preload/record.h"
#include "scale/record.h"
#include "scale/whatif.h"

const char *const whatif_verdict_names[] = { "rising", "flat", "within noise", "too few samples", "negative" };

/* Student's t, two-sided 95 %, by degrees of freedom 1..30 (then 1.96 at infinity, 2.00 to 60). */
static double t975(int df)
{
	static const double t[] = { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
				    2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
				    2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };
	if (df < 1)
		return NAN;
	return df <= 30 ? t[df - 1] : df <= 60 ? 2.00 : 1.96;
}

static void mean_sd(const double *v, int n, double *mean, double *sd)
{
	double s = 0, q = 0;
	int k = 0;
	for (int i = 0; i < n; i++)
		if (v[i] == v[i]) {
			s += v[i];
			k++;
		}
	*mean = k ? s / k : NAN;
	for (int i = 0; i < n; i++)
		if (v[i] == v[i])
			q += (v[i] - *mean) * (v[i] - *mean);
	*sd = k > 1 ? sqrt(q / (k - 1)) : NAN;
}

static int count_ok(const double *v, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += v[i] == v[i];
	return k;
}

void whatif_point_finish(const struct whatif_curve_point *base, struct whatif_curve_point *p)
{
	double m0, s0, m1, s1;
	mean_sd(base->period_s, base->n, &m0, &s0);
	mean_sd(p->period_s, p->n, &m1, &s1);
	int n0 = count_ok(base->period_s, base->n), n1 = count_ok(p->period_s, p->n);
	p->program_speedup = m0 > 0 && m1 == m1 ? 1 - m1 / m0 : NAN;
	p->ci = NAN;
	if (!(p->program_speedup == p->program_speedup))
		return;
	/* a side with one run: the other side's relative spread */
	double r0 = n0 > 1 ? s0 / m0 : NAN, r1 = n1 > 1 ? s1 / m1 : NAN;
	if (!(r0 == r0))
		r0 = r1;
	if (!(r1 == r1))
		r1 = r0;
	if (!(r0 == r0))
		return;
	/* var(m1/m0) by the delta method: (m1/m0)^2 (r1^2/n1 + r0^2/n0) */
	double ratio = m1 / m0, var = ratio * ratio * (r1 * r1 / n1 + r0 * r0 / n0);
	int df = (n0 < n1 ? n0 : n1) - 1;
	if (df < 1)
		df = (n0 > n1 ? n0 : n1) - 1;
	p->ci = t975(df) * sqrt(var);
}

int whatif_site_verdict(const struct whatif_site *s)
{
	if (s->samples < WHATIF_MIN_SAMPLES)
		return WHATIF_FEW;
	/* sampled in the profiling run but never in its own rounds (its code not reached, or its
	 * module not found in the processes): no delay was inserted, the curve says nothing */
	int delayed = 0, landed = 0;
	for (int i = 0; i < s->npts; i++)
		if (s->pts[i].line_speedup > 0 && s->pts[i].n > 0) {
			delayed = 1;
			landed |= s->pts[i].site_samples > 0;
		}
	if (delayed && !landed)
		return WHATIF_FEW;
	const struct whatif_curve_point *top = NULL;
	int wide = 0, outside = 0;
	for (int i = 0; i < s->npts; i++) {
		const struct whatif_curve_point *p = &s->pts[i];
		if (!(p->program_speedup == p->program_speedup))
			continue;
		if (!top || p->line_speedup > top->line_speedup)
			top = p;
		if (!(p->ci == p->ci) || p->ci > 0.05)
			wide = 1;
		if (p->ci == p->ci && fabs(p->program_speedup) > p->ci)
			outside = 1;
	}
	if (!top || !(top->ci == top->ci))
		return WHATIF_NOISE;
	if (top->program_speedup - top->ci > 0)
		return WHATIF_RISING;
	if (top->program_speedup + top->ci < 0)
		return WHATIF_NEGATIVE;
	if (!outside && !wide)
		return WHATIF_FLAT;
	return WHATIF_NOISE;
}

/* One run's measures. */
struct run_out {
	double wall_s, delay_s, eff_s, period_s;
	double site_samples;
	double visits; /* of the progress point (END visits for latency); NaN: wall time */
	int failed, processes;
	struct conditions cond;
};

/* The CPU time (s) and context switches of the children waited for so far. */
static void children_usage(double *cpu_s, double *switches)
{
	struct rusage ru;
	*cpu_s = *switches = 0;
	if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
		return;
	*cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
		 (double)ru.ru_stime.tv_usec * 1e-6;
	*switches = (double)(ru.ru_nvcsw + ru.ru_nivcsw);
}

struct ctx {
	const struct whatif_opts *o;
	struct whatif_result *res;
	char dir[256], rec[300], shm[300], out[300], errp[300];
	int point;       /* the progress point's index in the shared file; -1: wall time */
	int latency;     /* the point is a latency pair: END's index in point2 */
	int point2;
};

static int env_set(struct ctx *c, int profile, const struct whatif_site *s, double speedup)
{
	char *v = malloc(WHATIF_RANGES_MAX * 40 + 2048);
	if (!v)
		return -ENOMEM;
	int k = snprintf(v, 1024, "%c;%s;%llu;%.4f;", profile ? 'p' : 'd', c->shm,
			 (unsigned long long)(c->o->period_ms * 1e6), speedup);
	for (int i = 0; s && i < s->noffs; i++)
		k += snprintf(v + k, 40, "%s%llx-%llx", i ? "," : "", (unsigned long long)s->offs[i][0],
			      (unsigned long long)s->offs[i][1]);
	snprintf(v + k, 1024, ";%s", s ? s->path : "");
	int rc = setenv(WHATIF_ENV, v, 1);
	free(v);
	return rc ? -errno : 0;
}

/* A fresh shared file; the parent's view of it in *sh. */
static int shm_fresh(struct ctx *c, struct whatif_shared **sh)
{
	int fd = open(c->shm, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, sizeof(struct whatif_shared)) != 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	void *m = mmap(NULL, sizeof(struct whatif_shared), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -errno;
	*sh = m;
	(*sh)->magic = WHATIF_MAGIC;
	return 0;
}

static void dir_clean(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	char path[600];
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	closedir(d);
}

/* Waits for the program (its process group killed after timeout_s); its wait status in *st. */
static void wait_root(pid_t pid, double timeout_s, int *st, int *timed_out)
{
	uint64_t t0 = timer_now_ns();
	*timed_out = 0;
	for (;;) {
		pid_t w = waitpid(pid, st, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			*st = 0;
			break;
		}
		double el = (double)(timer_now_ns() - t0) / 1e9;
		if (timeout_s > 0 && el > timeout_s) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			*timed_out = 1;
			waitpid(pid, st, 0);
			break;
		}
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
}

/* The progress measured by the chosen point, after a run: its period in *period (effective time
 * per unit of progress). */
static double period_of(const struct ctx *c, const struct whatif_shared *sh, double eff_s)
{
	if (c->point < 0)
		return eff_s;
	size_t count = sh->points[c->point].c.count;
	if (!c->latency)
		return count ? eff_s / (double)count : NAN;
	size_t ends = sh->points[c->point2].c.count;
	if (!ends || !sh->samples)
		return NAN;
	/* Little's law: latency = visits in flight (mean over the samples) / arrival rate */
	double inflight = (double)sh->inflight_sum / (double)sh->samples;
	return inflight * eff_s / (double)ends;
}

/* After the profiling run: the progress measure (the point named, else the first throughput one,
 * else the first latency pair: BEGIN and END of one name), and the points the program has. */
static void point_choose(struct ctx *c, const struct whatif_shared *sh, struct run_out *out)
{
	for (int i = 0; i < sh->npoints && c->point < 0; i++)
		if (sh->points[i].type == 1 &&
		    (!c->o->progress_point || !strcmp(sh->points[i].name, c->o->progress_point)))
			c->point = i;
	for (int i = 0; i < sh->npoints && c->point < 0; i++)
		for (int k = 0; k < sh->npoints; k++)
			if (sh->points[i].type == 2 && sh->points[k].type == 3 &&
			    !strcmp(sh->points[i].name, sh->points[k].name) &&
			    (!c->o->progress_point || !strcmp(sh->points[i].name, c->o->progress_point))) {
				c->point = i;
				c->point2 = k;
				c->latency = 1;
			}
	for (int i = 0; i < sh->npoints; i++) {
		size_t k = strlen(c->res->points_seen);
		snprintf(c->res->points_seen + k, sizeof(c->res->points_seen) - k, "%s%s (%s)", k ? ", " : "",
			 sh->points[i].name, sh->points[i].type == 1 ? "throughput" : sh->points[i].type == 2 ? "begin" : "end");
	}
	if (c->point >= 0) {
		out->visits = (double)sh->points[c->latency ? c->point2 : c->point].c.count;
		snprintf(c->res->progress, sizeof(c->res->progress), "%s", sh->points[c->point].name);
		c->res->throughput = !c->latency;
		c->res->latency = c->latency;
	}
}

/* One run of the program under the library; *out filled. 0, or a negative errno when it could not
 * start (-ENOENT: not found). */
static int run_once(struct ctx *c, int profile, const struct whatif_site *s, double speedup, struct run_out *out,
		    struct as_error *err)
{
	struct whatif_shared *sh = NULL;
	memset(out, 0, sizeof(*out));
	dir_clean(c->rec);
	int rc = shm_fresh(c, &sh);
	if (!rc)
		rc = env_set(c, profile, s, speedup);
	if (rc) {
		if (sh)
			munmap(sh, sizeof(*sh));
		return as_error_set(err, rc, "whatif: the shared delay file in '%s': %s", c->dir, strerror(-rc));
	}
	struct cond_window win;
	double cpu0, sw0, cpu1, sw1;
	children_usage(&cpu0, &sw0);
	cond_window_begin(&win, NULL, NULL, 0);
	uint64_t t0 = timer_now_ns();
	pid_t pid;
	int se = spawn_have(c->o->argv[0]) ? 0 : ENOENT;
	if (!se)
		se = spawn_start(c->o->argv, c->out, c->errp, &pid);
	unsetenv(WHATIF_ENV);
	if (se) {
		struct conditions ignored;
		cond_window_end(&win, &ignored);
		munmap(sh, sizeof(*sh));
		return as_error_set(err, -se, "cannot run '%s': %s", c->o->argv[0], strerror(se));
	}
	interrupt_watch(pid);
	int st = 0, to = 0;
	wait_root(pid, c->o->timeout_s, &st, &to);
	interrupt_watch(0);
	out->wall_s = (double)(timer_now_ns() - t0) / 1e9;
	children_usage(&cpu1, &sw1);
	cond_window_own(&win, cpu1 - cpu0, sw1 - sw0);
	cond_window_end(&win, &out->cond);
	cond_summary_final(&out->cond); /* each run counts as it is: none is measured again */
	if (out->cond.noisy && !c->res->runs_noisy++)
		snprintf(c->res->noisy_why, sizeof(c->res->noisy_why), "%s", out->cond.why);
	out->delay_s = (double)__atomic_load_n(&sh->delay_ns, __ATOMIC_RELAXED) / 1e9;
	out->eff_s = out->wall_s - out->delay_s;
	out->site_samples = (double)sh->site_samples;
	out->processes = (int)sh->processes;
	out->period_s = period_of(c, sh, out->eff_s);
	out->visits = c->point < 0 ? NAN : (double)sh->points[c->latency ? c->point2 : c->point].c.count;
	if (profile)
		c->res->profile_samples = (long)sh->samples;
	if (profile && c->point < 0 && sh->npoints > 0)
		point_choose(c, sh, out);
	munmap(sh, sizeof(*sh));
	int exited = 0, status = 0;
	spawn_status(st, &exited, &status);
	out->failed = to || !exited || status != 0;
	c->res->runs++;
	if (out->processes > c->res->processes_max)
		c->res->processes_max = out->processes;
	if (out->wall_s > 0 && out->delay_s / out->wall_s > c->res->delay_share_max)
		c->res->delay_share_max = out->delay_s / out->wall_s;
	if (out->failed && !interrupt_signal()) {
		if (!c->res->runs_failed++) {
			c->res->first_status = exited ? status : 0;
			c->res->first_signal = exited ? 0 : status;
			spawn_head(c->errp, c->res->err_head, sizeof(c->res->err_head));
		}
	}
	return 0;
}

static void progress_say(const struct ctx *c, const char *what, int run, int runs)
{
	if (c->o->progress)
		c->o->progress(c->o->ctx, what, run, runs);
}

/* The sites' critical-path shares from the profiling run's stack record (its threads' CPU time
 * and span) and samples; left NaN where the record cannot be read. */
static void critical_from_record(struct ctx *c, const struct whatif_sample *v, const int *mark, size_t n)
{
	struct scale_record rec = { 0 };
	struct as_error e = { 0 };
	int bad = 0;
	for (int s = 0; s < c->res->nsites; s++)
		c->res->sites[s].crit_share = NAN;
	if (scale_record_load_dir(c->rec, &rec, &bad, &e) != 0)
		return;
	struct whatif_thread_cpu *th = calloc(rec.nth ? rec.nth : 1, sizeof(*th));
	if (th) {
		for (size_t t = 0; t < rec.nth; t++)
			th[t] = (struct whatif_thread_cpu){ rec.th[t].tid, rec.th[t].run_s, rec.th[t].runq_s };
		c->res->crit_span_s = rec.end_s - rec.start_s;
		c->res->crit_threads = whatif_critical_shares(v, mark, n, th, rec.nth, c->res->crit_span_s, c->res->sites,
							      c->res->nsites, &c->res->crit_threads_seen);
	}
	free(th);
	scale_record_release(&rec);
}

/* The profiling run and the sites it finds. */
static int profile_run(struct ctx *c, struct as_error *err)
{
	struct run_out out;
	progress_say(c, "profiling run", 0, 1);
	int rc = run_once(c, 1, NULL, 0, &out, err);
	if (rc)
		return rc;
	c->res->profile_wall_s = out.wall_s;
	c->res->profile_cond = out.cond;
	if (out.failed)
		return 0;
	struct whatif_sample *v = NULL;
	size_t n = 0;
	long total = 0;
	rc = whatif_samples_load(c->rec, &v, &n, &total);
	int *mark = rc == 0 ? calloc(n ? n : 1, sizeof(*mark)) : NULL;
	if (rc == 0 && !mark)
		rc = -ENOMEM;
	if (rc == 0) {
		int ns = whatif_sites_pick(v, n, total, c->o->by_function, c->o->nsites, c->res->sites, c->res->waiting,
					   &c->res->nwaiting, mark);
		c->res->nsites = ns > 0 ? ns : 0;
		if (total > c->res->profile_samples)
			c->res->profile_samples = total;
		critical_from_record(c, v, mark, n);
	}
	free(mark);
	free(v);
	return rc == -ENOMEM ? as_error_set(err, rc, "out of memory") : 0;
}

/* The rounds: per round and site, a baseline run and one run per line speedup. */
static int rounds_run(struct ctx *c, struct as_error *err)
{
	struct whatif_result *res = c->res;
	const struct whatif_opts *o = c->o;
	int runs = o->rounds * res->nsites * (1 + o->nspeedups), run = 0;
	for (int s = 0; s < res->nsites; s++) {
		res->sites[s].npts = o->nspeedups + 1;
		res->sites[s].pts[0].line_speedup = 0;
		for (int k = 0; k < o->nspeedups; k++)
			res->sites[s].pts[k + 1].line_speedup = o->speedups[k];
	}
	for (int r = 0; r < o->rounds; r++)
		for (int s = 0; s < res->nsites; s++)
			for (int k = 0; k <= o->nspeedups; k++) {
				if (interrupt_signal())
					return 0;
				struct whatif_site *st = &res->sites[s];
				double sp = k ? o->speedups[k - 1] : 0;
				char what[300];
				snprintf(what, sizeof(what), "round %d of %d, %s at %.0f %%", r + 1, o->rounds, st->where,
					 100 * sp);
				progress_say(c, what, run++, runs);
				struct run_out out;
				int rc = run_once(c, 0, k ? st : NULL, sp, &out, err);
				if (rc)
					return rc;
				if (interrupt_signal())
					return 0; /* the cut run is left out */
				double v = out.failed ? NAN : out.period_s;
				struct whatif_curve_point *p = k ? &st->pts[k] : &res->base;
				if (!k && !out.failed && out.visits == out.visits) {
					res->visits_mean = (res->visits_mean * res->visits_runs + out.visits) / (res->visits_runs + 1);
					res->visits_runs++;
				}
				if (p->n < WHATIF_ROUNDS_MAX) {
					p->noisy += out.cond.noisy;
					p->site_samples = (p->site_samples * p->n + out.site_samples) / (p->n + 1);
					p->period_s[p->n++] = v;
				}
			}
	return 0;
}

int whatif_run(const struct whatif_opts *o, struct whatif_result *res, struct as_error *err)
{
	struct ctx c = { .o = o, .res = res, .point = -1, .point2 = -1 };
	memset(res, 0, sizeof(*res));
	snprintf(res->progress, sizeof(res->progress), "wall time");
	const char *tmp = getenv("TMPDIR");
	snprintf(c.dir, sizeof(c.dir), "%s/archscope-whatif.XXXXXX", tmp && *tmp && strlen(tmp) < 150 ? tmp : "/tmp");
	if (strchr(c.dir, ';'))
		snprintf(c.dir, sizeof(c.dir), "/tmp/archscope-whatif.XXXXXX");
	if (!mkdtemp(c.dir))
		return as_error_set(err, -errno, "cannot make a temporary directory '%s': %s", c.dir, strerror(errno));
	snprintf(c.rec, sizeof(c.rec), "%s/rec", c.dir);
	snprintf(c.shm, sizeof(c.shm), "%s/shm", c.dir);
	snprintf(c.out, sizeof(c.out), "%s/stdout", c.dir);
	snprintf(c.errp, sizeof(c.errp), "%s/stderr", c.dir);
	int rc = mkdir(c.rec, 0700) != 0 ? as_error_set(err, -errno, "cannot make '%s': %s", c.rec, strerror(errno)) : 0;
	interrupt_cleanup_dirs(c.rec, c.dir);
	/* the library and the records directory for every run; the stack's accounting comes along */
	const char *old_pre = getenv("LD_PRELOAD");
	char *keep_pre = old_pre ? strdup(old_pre) : NULL;
	setenv("LD_PRELOAD", o->preload, 1);
	setenv(SCALE_ENV_DIR, c.rec, 1);
	setenv(SCALE_ENV_TSC, scale_counter_usable() ? "1" : "0", 1);
	if (!rc)
		rc = profile_run(&c, err);
	if (!rc && res->nsites > 0 && !interrupt_signal())
		rc = rounds_run(&c, err);
	res->interrupted = interrupt_signal();
	for (int s = 0; s < res->nsites; s++) {
		struct whatif_site *st = &res->sites[s];
		if (st->npts > 0) { /* line speedup 0 is the baseline itself */
			memcpy(st->pts[0].period_s, res->base.period_s, sizeof(res->base.period_s));
			st->pts[0].n = res->base.n;
			st->pts[0].noisy = res->base.noisy;
		}
		for (int k = 0; k < st->npts; k++)
			whatif_point_finish(&res->base, &st->pts[k]);
		st->verdict = whatif_site_verdict(st);
	}
	if (keep_pre)
		setenv("LD_PRELOAD", keep_pre, 1);
	else
		unsetenv("LD_PRELOAD");
	free(keep_pre);
	unsetenv(SCALE_ENV_DIR);
	unsetenv(SCALE_ENV_TSC);
	dir_clean(c.rec);
	rmdir(c.rec);
	dir_clean(c.dir);
	rmdir(c.dir);
	interrupt_cleanup_dirs(NULL, NULL);
	return rc;
}
