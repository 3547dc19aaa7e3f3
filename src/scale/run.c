/* Runs the program under the preload library for each thread count, R times interleaved, and
 * builds the stacks (run.h). */
#include "scale/run.h"

#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/order.h"
#include "common/paths.h"
#include "scale/sched.h"
#include "scale/spin.h"

int scale_preload_find(char *path, size_t len, struct as_error *err)
{
	return paths_find_lib(SCALE_PRELOAD_NAME, SCALE_ENV_PRELOAD, path, len, err);
}

/* 1 when the program (looked up in PATH) is an ELF file without an interpreter: a static binary,
 * which LD_PRELOAD cannot reach. */
static int program_static(const char *name)
{
	char path[4096];
	if (strchr(name, '/')) {
		snprintf(path, sizeof(path), "%s", name);
	} else {
		const char *env = getenv("PATH");
		path[0] = 0;
		for (const char *p = env ? env : "/usr/bin:/bin"; *p && !path[0];) {
			size_t n = strcspn(p, ":");
			snprintf(path, sizeof(path), "%.*s/%s", (int)n, p, name);
			if (access(path, X_OK) != 0)
				path[0] = 0;
			p += n + (p[n] == ':');
		}
	}
	int fd = path[0] ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0)
		return 0;
	Elf64_Ehdr eh;
	int is_static = 0;
	if (pread(fd, &eh, sizeof(eh), 0) == (ssize_t)sizeof(eh) && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
	    eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_phentsize == sizeof(Elf64_Phdr)) {
		is_static = 1;
		for (int i = 0; i < eh.e_phnum; i++) {
			Elf64_Phdr ph;
			if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (uint64_t)i * sizeof(ph))) != (ssize_t)sizeof(ph) ||
			    ph.p_type == PT_INTERP)
				is_static = 0;
		}
	}
	close(fd);
	return is_static;
}

/* argv with every "{T}" replaced by n; freed with argv_free. */
static char **argv_subst(char **argv, int n)
{
	int c = 0;
	while (argv[c])
		c++;
	char **out = calloc((size_t)c + 1, sizeof(char *));
	if (!out)
		return NULL;
	char num[16];
	snprintf(num, sizeof(num), "%d", n);
	for (int i = 0; i < c; i++) {
		size_t len = strlen(argv[i]) + 1, k = 0;
		for (const char *p = argv[i]; (p = strstr(p, "{T}")); p += 3)
			len += strlen(num);
		out[i] = malloc(len);
		if (!out[i])
			break;
		for (const char *p = argv[i]; *p;) {
			if (strncmp(p, "{T}", 3) == 0) {
				memcpy(out[i] + k, num, strlen(num));
				k += strlen(num);
				p += 3;
			} else {
				out[i][k++] = *p++;
			}
		}
		out[i][k] = 0;
	}
	return out;
}

static void argv_free(char **a)
{
	for (int i = 0; a && a[i]; i++)
		free(a[i]);
	free(a);
}

/* Sets name=value for the child (spawn_run inherits this process's environment), remembering
 * the old value in old (NULL: unset). */
static int env_push(const char *name, const char *value, char **old)
{
	const char *o = getenv(name);
	*old = o ? strdup(o) : NULL;
	return setenv(name, value, 1);
}

static void env_pop(const char *name, char *old)
{
	if (old)
		setenv(name, old, 1);
	else
		unsetenv(name);
	free(old);
}

/* Removes the records and outputs of the last run, so each run reads only its own. */
static void dir_clean(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	char path[4200];
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	closedir(d);
}

/* One execution of argv with N threads; records go to dir/rec.PID. */
static int exec_one(const struct scale_opts *o, struct scale_result *res, const char *dir, int n, struct scale_exec *x,
		    struct as_error *err)
{
	memset(x, 0, sizeof(*x));
	x->threads = n;
	char **argv = argv_subst(o->argv, n);
	if (!argv)
		return as_error_set(err, -ENOMEM, "out of memory");
	char num[16], preload[8192], *old_omp, *old_dir, *old_pre;
	snprintf(num, sizeof(num), "%d", n);
	const char *cur = getenv("LD_PRELOAD");
	snprintf(preload, sizeof(preload), "%s%s%s", o->preload, cur && *cur ? " " : "", cur ? cur : "");
	env_push("OMP_NUM_THREADS", num, &old_omp);
	env_push(SCALE_ENV_DIR, dir, &old_dir);
	env_push("LD_PRELOAD", preload, &old_pre);
	char out[4200], errp[4200];
	snprintf(out, sizeof(out), "%s/stdout", dir);
	snprintf(errp, sizeof(errp), "%s/stderr", dir);
	struct scale_spin *spin = NULL;
	if (o->spin) {
		struct as_error serr = { 0 };
		res->spin_available = scale_spin_start(&spin, &serr) == 0;
		if (!res->spin_available)
			snprintf(res->spin_why, sizeof(res->spin_why), "%.150s", serr.msg);
	}
	struct scale_sched *sched = NULL;
	if (res->tier1) {
		struct as_error terr = { 0 };
		if (scale_sched_start(&sched, &terr) != 0) {
			res->tier1 = 0;
			snprintf(res->tier1_why, sizeof(res->tier1_why), "%.150s", terr.msg);
		}
	}
	struct scale_counter_run counts;
	int counting = 0;
	if (res->tier2) { /* opened last: the sampler's thread is not counted */
		struct as_error cerr = { 0 };
		counting = scale_counts_open(&counts, &cerr) == 0;
		if (!counting) {
			res->tier2 = 0; /* not again */
			snprintf(res->tier2_why, sizeof(res->tier2_why), "%.250s", cerr.msg);
		}
	}
	int rc = spawn_run(argv, out, errp, o->timeout_s, -1, &x->sr, err);
	if (counting) {
		x->have_counts = rc == 0 && scale_counts_read(&counts, &x->counts) == 0;
		scale_counts_close(&counts);
	}
	scale_spin_stop(spin);
	scale_sched_stop(sched);
	env_pop("LD_PRELOAD", old_pre);
	env_pop(SCALE_ENV_DIR, old_dir);
	env_pop("OMP_NUM_THREADS", old_omp);
	argv_free(argv);
	if (rc == -ETIMEDOUT) {
		rc = 0;
		x->sr.timed_out = 1;
	}
	if (rc) {
		scale_spin_free(spin);
		scale_sched_free(sched);
		return rc;
	}
	spawn_head(errp, x->err_head, sizeof(x->err_head));
	x->wall_s = x->sr.seconds;
	x->span_s = x->wall_s;
	struct as_error rerr = { 0 };
	if (scale_record_load_dir(dir, &x->rec, &rerr) == 0)
		x->have_record = 1;
	else if (sched && scale_sched_record(sched, &x->rec, &rerr) == 0)
		x->have_record = x->tier = 1; /* the library saw nothing: the scheduler's view */
	scale_sched_free(sched);
	if (x->have_record) {
		if (x->rec.end_s > x->rec.start_s)
			x->span_s = x->rec.end_s - x->rec.start_s;
		scale_spin_assign(spin, &x->rec, &x->spin_samples, &x->samples);
	}
	scale_spin_free(spin);
	dir_clean(dir);
	return 0;
}

static int span_cmp(const void *a, const void *b)
{
	double x = (*(const struct scale_exec *const *)a)->span_s, y = (*(const struct scale_exec *const *)b)->span_s;
	return x < y ? -1 : x > y ? 1 : 0;
}

static unsigned exec_bad(const struct scale_exec *x)
{
	unsigned bad = 0;
	if (x->sr.timed_out)
		bad |= SCALE_BAD_TIMEOUT;
	else if (!x->sr.exited)
		bad |= SCALE_BAD_CRASH;
	else if (x->sr.status != 0)
		bad |= SCALE_BAD_STATUS;
	if (!x->have_record)
		bad |= SCALE_BAD_NORECORD;
	if (x->span_s < 0.010)
		bad |= SCALE_BAD_SHORT;
	if (x->have_record && x->threads > 1 && x->rec.threads_max <= 1)
		bad |= SCALE_BAD_NOTHREADS;
	if (x->have_record && !x->rec.schedstat_ok)
		bad |= SCALE_BAD_NOSCHEDSTAT;
	return bad;
}

/* The stacks of one thread count, its median run and the spread. */
static void point_finish(struct scale_result *res, struct scale_point *p)
{
	const struct scale_exec *by[SCALE_REPS_MAX];
	for (int r = 0; r < p->nex; r++) {
		struct scale_exec *x = &p->ex[r];
		const struct scale_thread *th = x->have_record ? x->rec.th : NULL;
		scale_stack_build(th, x->have_record ? x->rec.nth : 0, p->threads, x->span_s, res->t1_s, &x->stack);
		by[r] = x;
		unsigned bad = exec_bad(x);
		if ((bad & (SCALE_BAD_STATUS | SCALE_BAD_CRASH)) && !(res->bad & (SCALE_BAD_STATUS | SCALE_BAD_CRASH))) {
			res->first_status = x->sr.exited ? x->sr.status : 0;
			res->first_signal = x->sr.exited ? 0 : x->sr.status;
		}
		p->bad |= bad;
		res->bad |= bad;
	}
	qsort(by, (size_t)p->nex, sizeof(by[0]), span_cmp);
	p->median = (int)(by[(p->nex - 1) / 2] - p->ex);
	for (int k = 0; k < COMP_COUNT; k++) {
		p->comp_min[k] = INFINITY;
		p->comp_max[k] = -INFINITY;
		for (int r = 0; r < p->nex; r++) {
			p->comp_min[k] = fmin(p->comp_min[k], p->ex[r].stack.comp[k]);
			p->comp_max[k] = fmax(p->comp_max[k], p->ex[r].stack.comp[k]);
		}
	}
	const struct scale_exec *m = &p->ex[p->median];
	p->threads_max = m->have_record ? m->rec.threads_max : 0;
	p->threads_seen = m->have_record ? (int)m->rec.nth : 0;
	p->error = res->t1_s > 0 ? fabs(m->stack.estimated - m->stack.actual) / p->threads : NAN;
	p->dominant = scale_stack_dominant(m->stack.comp, p->threads);
	p->cls = scale_stack_class(res->t1_s > 0 ? m->stack.actual : m->stack.estimated, p->threads);
	if (m->have_record)
		scale_record_sites_resolve((struct scale_record *)&m->rec, 4 * SCALE_TOP_SITES);
}

int scale_run(const struct scale_opts *o, struct scale_result *res, struct as_error *err)
{
	memset(res, 0, sizeof(*res));
	if (o->npoints < 1 || o->npoints >= SCALE_POINTS_MAX || o->reps < 1 || o->reps > SCALE_REPS_MAX)
		return as_error_set(err, -EINVAL, "between 1 and %d thread counts and 1 and %d repetitions",
				    SCALE_POINTS_MAX - 1, SCALE_REPS_MAX);
	res->reps = o->reps;
	res->one = -1;
	res->tier1 = o->tracepoints || (geteuid() == 0 && program_static(o->argv[0]));
	res->tier2 = 1; /* until the counters do not open */
	for (int i = 0; i < o->npoints; i++) {
		res->pt[i].threads = o->threads[i];
		if (o->threads[i] == 1)
			res->one = i;
	}
	res->npoints = o->npoints;
	if (res->one < 0) { /* the 1-thread run gives S = T1 / TN (item 5), first */
		memmove(&res->pt[1], &res->pt[0], (size_t)res->npoints * sizeof(res->pt[0]));
		memset(&res->pt[0], 0, sizeof(res->pt[0]));
		res->pt[0].threads = 1;
		res->one = 0;
		res->one_added = 1;
		res->npoints++;
	}
	const char *tmp = getenv("TMPDIR");
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/archscope-stack.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return as_error_set(err, -errno, "cannot make a temporary directory '%s'", dir);
	int rc = 0;
	/* interleaved: rep 1 of every N, then rep 2 ..., so a change of machine load hits all N */
	for (int r = 0; r < o->reps && rc == 0; r++)
		for (int i = 0; i < res->npoints && rc == 0; i++) {
			struct scale_point *p = &res->pt[i];
			if (o->progress)
				o->progress(o->ctx, p->threads, r, o->reps);
			rc = exec_one(o, res, dir, p->threads, &p->ex[r], err);
			if (rc == 0)
				p->nex++;
		}
	dir_clean(dir);
	rmdir(dir);
	if (rc)
		return rc;
	double spans[SCALE_REPS_MAX];
	int ns = 0;
	struct scale_point *one = &res->pt[res->one];
	for (int r = 0; r < one->nex; r++)
		if (one->ex[r].sr.exited && one->ex[r].sr.status == 0)
			spans[ns++] = one->ex[r].span_s;
	res->t1_s = ns ? order_median(spans, (size_t)ns) : NAN;
	for (int i = 0; i < res->npoints; i++)
		point_finish(res, &res->pt[i]);
	scale_run_tier2(res);
	/* a program that ignores {T} and OMP_NUM_THREADS starts as many threads whatever N is (threads
	 * started, not alive at once: a short thread may end before the next starts) */
	int distinct = 0, same = 1;
	for (int i = 0; i < res->npoints; i++) {
		if (res->pt[i].threads != res->pt[0].threads)
			distinct = 1;
		if (res->pt[i].threads_seen != res->pt[0].threads_seen)
			same = 0;
	}
	if (distinct && same && res->pt[0].threads_seen > 0) {
		res->bad |= SCALE_BAD_IGNORES_T;
		for (int i = 0; i < res->npoints; i++)
			res->pt[i].bad |= SCALE_BAD_IGNORES_T;
	}
	return 0;
}

void scale_run_tier2(struct scale_result *res)
{
	const struct scale_point *one = &res->pt[res->one];
	const struct scale_exec *o1 = one->nex ? &one->ex[one->median] : NULL;
	for (int i = 0; i < res->npoints; i++) {
		struct scale_point *p = &res->pt[i];
		const struct scale_exec *m = p->nex ? &p->ex[p->median] : NULL;
		p->have_t2 = o1 && m && o1->have_counts && m->have_counts && res->t1_s > 0 &&
			     scale_tier2_split(&m->stack, &o1->counts, &m->counts, p->t2, &p->t2_rest) == 0;
	}
}

void scale_result_release(struct scale_result *res)
{
	for (int i = 0; i < res->npoints; i++)
		for (int r = 0; r < res->pt[i].nex; r++)
			scale_record_release(&res->pt[i].ex[r].rec);
}
