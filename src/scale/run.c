/* Runs the program under the preload library for each thread count, R times interleaved, and
 * builds the stacks (run.h): the whole process tree is followed (archscope is the subreaper of
 * its orphans, and a run ends when the last of them has), runs that cannot be right are repeated,
 * other processes' load is measured beside each run, and an interruption keeps what was measured. */
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

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "analysis/order.h"
#include "common/spawn.h"
#include "common/paths.h"
#include "common/atomicfile.h"
#include "common/interrupt.h"
#include "common/timer.h"
#include "measure/exec.h"
#include "scale/sched.h"
#include "scale/spin.h"

#define SCALE_X_TEXT(id, bit, what) { id, what },
const struct scale_flag_text scale_bad_texts[SCALE_BAD_KINDS] = { SCALE_BADS(SCALE_X_TEXT) };
const struct scale_flag_text scale_reject_texts[SCALE_REJECT_KINDS] = { SCALE_REJECT_LIST(SCALE_X_TEXT) };
#define SCALE_X_ONE(id, bit, what) +1
_Static_assert(0 SCALE_BADS(SCALE_X_ONE) == SCALE_BAD_KINDS, "SCALE_BAD_KINDS: the rows of SCALE_BADS");
_Static_assert(0 SCALE_REJECT_LIST(SCALE_X_ONE) == SCALE_REJECT_KINDS, "SCALE_REJECT_KINDS: the rows of SCALE_REJECT_LIST");

#if defined(__x86_64__)
#define ELF_MACHINE_HERE EM_X86_64
#elif defined(__aarch64__)
#define ELF_MACHINE_HERE EM_AARCH64
#elif defined(__riscv)
#define ELF_MACHINE_HERE EM_RISCV
#endif

/* 0 when path is a shared object the loader can preload into this machine's programs: a regular
 * ELF file, 64-bit, of this machine, ET_DYN with a dynamic section and not a position-independent
 * executable, its headers and segments inside the file; else -1 with why[len] saying what it is
 * instead ("a directory", "not an ELF file" ...). The loader's own refusal would be one line
 * among the program's output in every run, and the runs would record nothing. */
static int preload_check(const char *path, char *why, size_t len)
{
	if (strpbrk(path, " :"))
		return snprintf(why, len, "a path with a space or a colon, which LD_PRELOAD splits"), -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* never blocks on a FIFO */
	if (fd < 0)
		return snprintf(why, len, "%s", strerror(errno)), -1;
	struct stat st;
	Elf64_Ehdr eh;
	int rc = -1;
	if (fstat(fd, &st) != 0)
		snprintf(why, len, "%s", strerror(errno));
	else if (S_ISDIR(st.st_mode))
		snprintf(why, len, "a directory");
	else if (!S_ISREG(st.st_mode))
		snprintf(why, len, "not a regular file");
	else if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
		snprintf(why, len, "not an ELF file (a shared library starts with an ELF header)");
	else if (eh.e_ident[EI_CLASS] != ELFCLASS64)
		snprintf(why, len, "a 32-bit ELF object (this archscope runs 64-bit programs)");
#ifdef ELF_MACHINE_HERE
	else if (eh.e_machine != ELF_MACHINE_HERE)
		snprintf(why, len, "an ELF object for another machine (e_machine %d, this one's is %d)", eh.e_machine,
			 ELF_MACHINE_HERE);
#endif
	else if (eh.e_type != ET_DYN)
		snprintf(why, len, "an ELF %s, not a shared library",
			 eh.e_type == ET_EXEC ? "executable" : eh.e_type == ET_REL ? "object file (.o)" : "file of another type");
	else if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 ||
		 eh.e_phoff + (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) > (uint64_t)st.st_size)
		snprintf(why, len, "an ELF file without whole program headers (cut short?)");
	else
		rc = 0;
	int dynamic = 0;
	for (int i = 0; rc == 0 && i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (uint64_t)i * sizeof(ph))) != (ssize_t)sizeof(ph) ||
		    ((ph.p_type == PT_LOAD || ph.p_type == PT_DYNAMIC) && ph.p_offset + ph.p_filesz > (uint64_t)st.st_size)) {
			snprintf(why, len, "cut short: its segments end past the file's %lld bytes", (long long)st.st_size);
			rc = -1;
			break;
		}
		if (ph.p_type != PT_DYNAMIC)
			continue;
		dynamic = 1; /* a PIE executable has one too, and says so in DT_FLAGS_1 */
		for (uint64_t off = 0; rc == 0 && off + sizeof(Elf64_Dyn) <= ph.p_filesz; off += sizeof(Elf64_Dyn)) {
			Elf64_Dyn dyn;
			if (pread(fd, &dyn, sizeof(dyn), (off_t)(ph.p_offset + off)) != (ssize_t)sizeof(dyn) || dyn.d_tag == DT_NULL)
				break;
			if (dyn.d_tag == DT_FLAGS_1 && (dyn.d_un.d_val & DF_1_PIE)) {
				snprintf(why, len, "a position-independent executable, not a shared library");
				rc = -1;
			}
		}
	}
	if (rc == 0 && !dynamic) {
		snprintf(why, len, "an ELF file without a dynamic section, not a shared library");
		rc = -1;
	}
	close(fd);
	return rc;
}

int scale_preload_find(char *path, size_t len, struct as_error *err)
{
	char why[160];
	const char *env = getenv(SCALE_ENV_PRELOAD);
	if (env && *env && preload_check(env, why, sizeof(why)) != 0)
		return as_error_set(err, -EINVAL,
				    "$%s names '%s': %s; it must name stack's preload library (%s, built beside archscope), "
				    "or be unset for the installed one",
				    SCALE_ENV_PRELOAD, env, why, SCALE_PRELOAD_NAME);
	int rc = paths_find_lib(SCALE_PRELOAD_NAME, SCALE_ENV_PRELOAD, path, len, err);
	if (rc == 0 && (!env || !*env) && preload_check(path, why, sizeof(why)) != 0)
		return as_error_set(err, -ENOEXEC, "the preload library '%s' is %s: build or install archscope again", path,
				    why);
	char abs[PATH_MAX]; /* the program may change its directory: LD_PRELOAD gets the whole path */
	if (rc == 0 && path[0] != '/' && realpath(path, abs) && strlen(abs) < len)
		memcpy(path, abs, strlen(abs) + 1);
	return rc;
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
	/* never blocks: a FIFO named as the program is refused by spawn_have afterwards */
	int fd = path[0] ? open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
	if (fd < 0)
		return 0;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
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
	char path[4096 + 512];
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	closedir(d);
}

/* Context switches (voluntary and involuntary) of the children waited for. */
static long children_switches(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
		return 0;
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

static double rusage_s(int who)
{
	struct rusage ru;
	if (getrusage(who, &ru) != 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec * 1e-6;
}

/* Runs argv as its own process group (interrupt.h: the first signal is forwarded to it) and
 * waits for it and for every process it leaves behind (archscope is their subreaper), at most
 * timeout_s (0: no limit). r->seconds: fork to the last exit. 0, or -ENOENT (the program cannot
 * run as named) / -errno. */
static int tree_run(char *const argv[], const char *out_path, const char *err_path, double timeout_s,
		    struct spawn_result *r, int *cut, pid_t *root, struct as_error *err)
{
	memset(r, 0, sizeof(*r));
	*cut = 0;
	*root = 0;
	/* a program that cannot run is named with why, in stat's words (measure/exec.h); -ENOENT for
	 * every program named wrongly (missing, a directory, not executable, a missing #!
	 * interpreter, a foreign binary): a usage error */
	char why[sizeof(err->msg)];
	int se = spawn_have(argv[0]) ? 0 : ENOENT;
	uint64_t t0 = timer_now_ns();
	pid_t pid;
	if (!se)
		se = spawn_start(argv, out_path, err_path, &pid);
	if (se) {
		int rc = measure_exec_explain(argv[0], se, why, sizeof(why));
		return as_error_set(err, rc == -EACCES || rc == -ENOEXEC ? -ENOENT : rc, "%s", why);
	}
	interrupt_watch(pid);
	*root = pid;
	int pfd = -1;
#ifdef SYS_pidfd_open
	pfd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
	int st = 0, root_done = 0;
	for (;;) {
		int s2;
		pid_t w = waitpid(-1, &s2, WNOHANG);
		if (w == pid) {
			st = s2;
			root_done = 1;
			continue; /* then the orphans it left */
		}
		if (w > 0)
			continue;
		if (w < 0 && errno == ECHILD)
			break;
		if (w < 0 && errno != EINTR) {
			int e = errno;
			kill(-pid, SIGKILL);
			while (waitpid(-1, NULL, 0) > 0)
				;
			if (pfd >= 0)
				close(pfd);
			interrupt_watch(0);
			return as_error_set(err, -e, "waiting for '%s': %s", argv[0], strerror(e));
		}
		double el = (double)(timer_now_ns() - t0) / 1e9;
		if (timeout_s > 0 && el > timeout_s) {
			kill(-pid, SIGKILL);
			if (!root_done)
				kill(pid, SIGKILL);
			r->timed_out = 1;
			while ((w = waitpid(-1, &s2, 0)) > 0)
				if (w == pid)
					st = s2;
			break;
		}
		/* the root on its pidfd (its end seen at once, no periodic wake-up); the orphans it
		 * left (rare) every 2 ms */
		double left_ms = timeout_s > 0 ? (timeout_s - el) * 1e3 + 1 : 1000;
		int ms = left_ms > 1000 ? 1000 : left_ms < 0 ? 0 : (int)left_ms;
		if (pfd >= 0 && !root_done) {
			struct pollfd pf = { .fd = pfd, .events = POLLIN };
			poll(&pf, 1, ms);
		} else {
			struct timespec ts = { 0, 2000000 };
			nanosleep(&ts, NULL);
		}
	}
	if (pfd >= 0)
		close(pfd);
	*cut = interrupt_signal(); /* a signal before the last exit cut the run */
	interrupt_watch(0);
	r->seconds = (double)(timer_now_ns() - t0) / 1e9;
	spawn_status(st, &r->exited, &r->status);
	return 0;
}

double scale_foreign_cpu(const char *stat0, const char *stat1, const struct as_cpulist *cpus, double own_cpu_s,
			 long ticks_per_s)
{
	if (!stat0 || !stat1 || !cpus || cpus->n < 1 || ticks_per_s <= 0)
		return NAN;
	/* busy and steal: a CPU stolen from the guest is time the program's threads could not run */
	double b0, s0, t0, b1, s1, t1;
	if (cond_stat_ticks(stat0, cpus, &b0, &s0, &t0) != 0 || cond_stat_ticks(stat1, cpus, &b1, &s1, &t1) != 0 ||
	    b1 + s1 < b0 + s0)
		return NAN;
	double f = (b1 + s1 - b0 - s0) / (double)ticks_per_s - own_cpu_s;
	return f > 0 ? f : 0;
}

int scale_work_grows(double ratio, double speedup, int threads, int cpus)
{
	int eff = threads < cpus ? threads : cpus;
	double slower = threads > cpus ? (double)threads / cpus : 1; /* fixed work per thread, oversubscribed */
	/* no more than 2 N: work that grows with N grows about N-fold (more only where the 1-thread
	 * run had less of a CPU than the N-thread run had of each) */
	return threads > 1 && ratio >= 1.5 && ratio >= 0.9 * eff && ratio <= 2.0 * threads && speedup >= 1 / (1.5 * slower);
}

/* Whether r holds a process image of pid. */
static int record_has_pid(const struct scale_record *r, pid_t pid)
{
	for (size_t k = 0; k < r->nprocs; k++)
		if (r->procs[k].pid == pid)
			return 1;
	return 0;
}

/* One execution of argv with N threads; its output goes to dir, the records to rdir/rec.PID.START. */
static int exec_one(const struct scale_opts *o, struct scale_result *res, const struct as_cpulist *cpus,
		    const char *dir, const char *rdir, int n, struct scale_exec *x, struct as_error *err)
{
	memset(x, 0, sizeof(*x));
	x->threads = n;
	x->foreign_cpu_s = NAN;
	char **argv = argv_subst(o->argv, n);
	if (!argv)
		return as_error_set(err, -ENOMEM, "out of memory");
	char num[16], preload[8192], *old_omp, *old_dir, *old_pre, *old_tsc;
	snprintf(num, sizeof(num), "%d", n);
	const char *cur = getenv("LD_PRELOAD");
	snprintf(preload, sizeof(preload), "%s%s%s", o->preload, cur && *cur ? " " : "", cur ? cur : "");
	env_push("OMP_NUM_THREADS", num, &old_omp);
	env_push(SCALE_ENV_DIR, rdir, &old_dir);
	env_push(SCALE_ENV_TSC, scale_counter_usable() ? "1" : "0", &old_tsc);
	env_push("LD_PRELOAD", preload, &old_pre);
	char out[4200], errp[4200];
	snprintf(out, sizeof(out), "%s/stdout", dir);
	snprintf(errp, sizeof(errp), "%s/stderr", dir);
	struct scale_spin *spin = NULL;
	if (o->spin) {
		struct as_error serr = { 0 };
		res->spin_available = scale_spin_start(&spin, res->spin_period_ns, &serr) == 0;
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
	struct cond_window win;
	long kids_sw0 = children_switches();
	cond_window_begin(&win, cpus, NULL, 0);
	char *stat0 = file_read_all("/proc/stat", NULL);
	double self0 = rusage_s(RUSAGE_SELF), kids0 = rusage_s(RUSAGE_CHILDREN);
	pid_t root;
	int rc = tree_run(argv, out, errp, o->timeout_s, &x->sr, &x->cut, &root, err);
	double self1 = rusage_s(RUSAGE_SELF), kids1 = rusage_s(RUSAGE_CHILDREN);
	char *stat1 = file_read_all("/proc/stat", NULL);
	cond_window_own(&win, kids1 - kids0, (double)(children_switches() - kids_sw0));
	cond_window_end(&win, &x->cond);
	cond_summary_final(&x->cond); /* stack never runs a program again: each run counts as it is */
	if (counting) {
		x->have_counts = rc == 0 && scale_counts_read(&counts, &x->counts) == 0;
		scale_counts_close(&counts);
	}
	scale_spin_stop(spin);
	scale_sched_stop(sched);
	env_pop("LD_PRELOAD", old_pre);
	env_pop(SCALE_ENV_TSC, old_tsc);
	env_pop(SCALE_ENV_DIR, old_dir);
	env_pop("OMP_NUM_THREADS", old_omp);
	argv_free(argv);
	x->cpu_s = kids1 - kids0;
	x->foreign_cpu_s = scale_foreign_cpu(stat0, stat1, cpus, (kids1 - kids0) + (self1 - self0), sysconf(_SC_CLK_TCK));
	free(stat0);
	free(stat1);
	if (rc) {
		scale_spin_free(spin);
		scale_sched_free(sched);
		return rc;
	}
	spawn_head(errp, x->err_head, sizeof(x->err_head));
	struct stat so;
	x->stdout_bytes = stat(out, &so) == 0 ? (long long)so.st_size : 0;
	x->wall_s = x->sr.seconds;
	x->span_s = x->wall_s;
	struct as_error rerr = { 0 };
	if (scale_record_load_dir(rdir, &x->rec, &x->records_bad, &rerr) == 0)
		x->have_record = 1;
	else if (sched && scale_sched_record(sched, &x->rec, &rerr) == 0)
		x->have_record = x->tier = 1; /* the library saw nothing: the scheduler's view */
	scale_sched_free(sched);
	/* records were lost, the program's own among them: the run cannot give its stack (a run
	 * of nothing, 0.00 x); rejected and run again (issue 52) */
	if (x->records_bad && !(x->have_record && (x->tier || record_has_pid(&x->rec, root))))
		x->rejected |= SCALE_REJECT_LOST;
	if (x->have_record) {
		scale_spin_exits(spin, &x->rec);
		/* never longer than archscope saw it live, spawn to the last exit (a birth estimated
		 * from CPU and run-queue time can precede the spawn by their granularity) */
		if (x->rec.end_s > x->rec.start_s)
			x->span_s = fmin(x->rec.end_s - x->rec.start_s, x->wall_s);
		scale_spin_assign(spin, &x->rec, &x->spin_samples, &x->samples);
		/* the share of its slots other processes took, for judging the next runs by it */
		struct scale_stack st;
		if (scale_stack_build(x->rec.th, x->rec.nth, n, x->span_s, NAN, &st) == 0) {
			scale_stack_foreign(&st, x->foreign_cpu_s);
			x->foreign_share = st.comp[COMP_FOREIGN] / n;
		}
	}
	scale_spin_free(spin);
	dir_clean(dir);
	dir_clean(rdir);
	return 0;
}

/* The records' directory: $ARCHSCOPE_STACK_RECORDS/archscope-stack.XXXXXX where it is set, else
 * on tmpfs where /dev/shm is one with room, else the run's own (the program's output stays
 * there, out of memory). The library writes a record for every image (each exec too), and a file
 * created on ext4 cost a gcc compile (its driver, cc1 and as) 1.9 ms more than on tmpfs (2.55 ms
 * against 0.64 ms of library in all, 100 compiles): 2-4 % of a make -j2 build. */
static int records_dir(const char *dir, char *out, size_t len, struct as_error *err)
{
	const char *want = getenv("ARCHSCOPE_STACK_RECORDS");
	if (want && *want) {
		snprintf(out, len, "%s/archscope-stack.XXXXXX", want);
		if (!mkdtemp(out))
			return as_error_set(err, -errno, "cannot make a directory for the records in '%s' (ARCHSCOPE_STACK_RECORDS): %s",
					    want, strerror(errno));
		return 0;
	}
	struct statfs sf;
	snprintf(out, len, "/dev/shm/archscope-stack.XXXXXX");
	if (statfs("/dev/shm", &sf) == 0 && sf.f_type == TMPFS_MAGIC && (double)sf.f_bavail * (double)sf.f_bsize >= 256e6 &&
	    access("/dev/shm", W_OK) == 0 && mkdtemp(out))
		return 0;
	snprintf(out, len, "%s", dir);
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

/* Why a finished run cannot be right, judged against the 1-thread runs so far (item 6): a wall
 * time under T1 / (2 N) (more than twice a perfect speedup: the program did not do its work), or
 * nothing on stdout where every 1-thread run printed something. */
static unsigned exec_reject(const struct scale_exec *x, const struct scale_point *one)
{
	if (x->threads == 1 || !one || one->nex < 1 || x->sr.timed_out || !x->sr.exited)
		return 0;
	double walls[SCALE_REPS_MAX];
	int printed = 1;
	for (int r = 0; r < one->nex; r++) {
		walls[r] = one->ex[r].wall_s * (1 - fmin(fmax(one->ex[r].foreign_share, 0), 1));
		printed &= one->ex[r].stdout_bytes > 0;
	}
	unsigned why = 0;
	/* the 1-thread runs' wall less their wait for CPUs other processes held: a 1-thread run
	 * that other load slowed fivefold must not make an N-thread run that had the CPUs look
	 * impossibly fast */
	if (x->wall_s < order_median(walls, (size_t)one->nex) / (2.0 * x->threads))
		why |= SCALE_REJECT_FAST;
	if (printed && x->stdout_bytes == 0)
		why |= SCALE_REJECT_SILENT;
	return why;
}

static double comp_sum(const struct scale_stack *s)
{
	double t = 0;
	for (int k = 0; k < COMP_COUNT; k++)
		t += s->comp[k];
	return t;
}

/* The stacks of one thread count, its median run and the spread. */
static void point_finish(struct scale_result *res, struct scale_point *p)
{
	const struct scale_exec *by[SCALE_REPS_MAX];
	int nby = 0;
	for (int r = 0; r < p->nex; r++) {
		struct scale_exec *x = &p->ex[r];
		const struct scale_thread *th = x->have_record ? x->rec.th : NULL;
		scale_stack_build(th, x->have_record ? x->rec.nth : 0, p->threads, x->span_s, res->t1_s, &x->stack);
		scale_stack_foreign(&x->stack, x->foreign_cpu_s);
		double sum = comp_sum(&x->stack);
		if (!(fabs(sum - p->threads) < 1e-6) && x->stack.span_s > 0) { /* NaN included */
			x->rejected |= SCALE_REJECT_SUM;
			p->nrejected++;
			p->rejects |= SCALE_REJECT_SUM;
		}
		if (x->rejected)
			continue;
		by[nby++] = x;
		unsigned bad = exec_bad(x);
		if ((bad & (SCALE_BAD_STATUS | SCALE_BAD_CRASH)) && !(res->bad & (SCALE_BAD_STATUS | SCALE_BAD_CRASH))) {
			res->first_status = x->sr.exited ? x->sr.status : 0;
			res->first_signal = x->sr.exited ? 0 : x->sr.status;
		}
		p->bad |= bad;
		res->bad |= bad;
	}
	if (!nby) { /* every run rejected: the first one stands for the point, named as such */
		by[nby++] = &p->ex[0];
		p->bad |= SCALE_BAD_REJECTED;
		res->bad |= SCALE_BAD_REJECTED;
	}
	qsort(by, (size_t)nby, sizeof(by[0]), span_cmp);
	p->median = (int)(by[(nby - 1) / 2] - p->ex);
	for (int k = 0; k < COMP_COUNT; k++) {
		p->comp_min[k] = INFINITY;
		p->comp_max[k] = -INFINITY;
		for (int r = 0; r < nby; r++) {
			p->comp_min[k] = fmin(p->comp_min[k], by[r]->stack.comp[k]);
			p->comp_max[k] = fmax(p->comp_max[k], by[r]->stack.comp[k]);
		}
	}
	const struct scale_exec *m = &p->ex[p->median];
	p->threads_max = m->have_record ? m->rec.threads_max : 0;
	p->threads_seen = m->have_record ? (int)m->rec.nth : 0;
	p->foreign_cpu_s = m->foreign_cpu_s;
	p->speedup_strong = m->stack.actual;
	if (m->have_record)
		scale_record_sites_resolve((struct scale_record *)&m->rec, 16 * SCALE_TOP_SITES);
}

/* Recomputes the spread of base and work_inflation over the runs kept. */
static void spread_actual(struct scale_point *p)
{
	for (int k = 0; k < COMP_COUNT; k++)
		if (k == COMP_BASE || k == COMP_INFLATION) {
			p->comp_min[k] = INFINITY;
			p->comp_max[k] = -INFINITY;
			for (int r = 0; r < p->nex; r++)
				if (!p->ex[r].rejected) {
					p->comp_min[k] = fmin(p->comp_min[k], p->ex[r].stack.comp[k]);
					p->comp_max[k] = fmax(p->comp_max[k], p->ex[r].stack.comp[k]);
				}
		}
}

/* The 1-thread time the N-thread runs are held against (issue 36 item 7): a 1-thread run that
 * waited for a CPU other processes held (its foreign_load, the share of its one slot they took)
 * was that much longer than the program alone; S^ counts those slots as foreign_load in the
 * N-thread run, so S is T1 less that wait over TN. A 1-thread run whose threads overlapped (more
 * than one CPU busy with work) is not the serial run S^ is an estimate against: its work on one
 * CPU (its base time) is the reference. Where neither applies, T1 is unchanged. */
static void points_unloaded(struct scale_result *res)
{
	const struct scale_point *one = &res->pt[res->one];
	double t1[SCALE_REPS_MAX], ts[SCALE_REPS_MAX], busy[SCALE_REPS_MAX];
	int n = 0, nb = 0;
	for (int r = 0; r < one->nex; r++) {
		const struct scale_exec *x = &one->ex[r];
		if (x->sr.exited && x->sr.status == 0 && !x->rejected) {
			t1[n] = x->span_s * (1 - fmin(fmax(x->stack.comp[COMP_FOREIGN], 0), 1));
			ts[n] = fmax(t1[n], x->have_record ? x->stack.base_raw_s : 0);
			n++;
			if (x->have_record && x->span_s > 0)
				busy[nb++] = x->stack.base_raw_s / x->span_s;
		}
	}
	res->t1_unloaded_s = n ? order_median(t1, (size_t)n) : NAN;
	res->t1_busy = nb ? order_median(busy, (size_t)nb) : NAN;
	res->t1_serial_s = n && res->t1_busy >= SCALE_T1_PARALLEL ? order_median(ts, (size_t)n) : NAN;
	double unloaded = res->t1_unloaded_s > 0 && res->t1_unloaded_s < res->t1_s ? res->t1_unloaded_s : NAN;
	for (int i = 0; i < res->npoints; i++) {
		struct scale_point *p = &res->pt[i];
		if (!p->nex)
			continue;
		/* the 1-thread point itself keeps T1: one slot holds no more than one CPU's work */
		double ref = res->t1_serial_s > 0 && i != res->one ? res->t1_serial_s : unloaded;
		p->speedup_serial = NAN;
		if (ref > 0) {
			for (int r = 0; r < p->nex; r++)
				scale_stack_set_actual(&p->ex[r].stack, ref / p->ex[r].span_s);
			spread_actual(p);
		}
		const struct scale_exec *m = &p->ex[p->median];
		p->speedup_unloaded = res->t1_unloaded_s > 0 && res->t1_unloaded_s < res->t1_s
					      ? res->t1_unloaded_s / m->span_s
					      : m->stack.actual;
		if (res->t1_serial_s > 0 && i != res->one)
			p->speedup_serial = m->stack.actual;
	}
}

/* The program's CPU time over the runs kept: their median (NaN without one). */
static double median_cpu_s(const struct scale_point *p)
{
	double v[SCALE_REPS_MAX];
	int n = 0;
	for (int r = 0; r < p->nex; r++)
		if (!p->ex[r].rejected && p->ex[r].cpu_s > 0)
			v[n++] = p->ex[r].cpu_s;
	return n ? order_median(v, (size_t)n) : NAN;
}

/* A delimiter is named only where it stands out (issue 47 item 5): beyond the runs' own spread
 * (its least run above every other component's largest), and work_inflation only where the
 * program's CPU time grew with it; else dominant is "none" and the point says why. */
void scale_dominant_check(const struct scale_result *res, struct scale_point *p)
{
	p->dominant_unclear = p->inflation_unconfirmed = 0;
	p->runner_up = NULL;
	p->dominant_spread = p->cpu_ratio = NAN;
	int best = p->dominant, kept = 0;
	for (int r = 0; r < p->nex; r++)
		kept += !p->ex[r].rejected;
	const struct scale_point *one = &res->pt[res->one];
	if (p != one && one->nex) {
		double c1 = median_cpu_s(one), cn = median_cpu_s(p);
		if (c1 > 0 && cn > 0)
			p->cpu_ratio = cn / c1;
	}
	if (best < 0)
		return;
	if (kept >= 2) {
		int second = -1;
		for (int k = 0; k < COMP_COUNT; k++)
			if (k != best && k != COMP_BASE && k != COMP_POSITIVE && k != COMP_FOREIGN &&
			    (second < 0 || p->comp_max[k] > p->comp_max[second]))
				second = k;
		if (second >= 0 && p->comp_min[best] <= p->comp_max[second] && p->comp_max[second] > 0) {
			p->dominant_unclear = 1;
			p->runner_up = scale_comp_names[second];
			p->dominant_spread = p->comp_max[best] - p->comp_min[best];
			p->dominant = SCALE_NONE;
			return;
		}
	}
	if (best == COMP_INFLATION && p->cpu_ratio > 0) {
		const struct scale_exec *m = &p->ex[p->median];
		double explained = p->threads * fmax(0, 1 - 1 / p->cpu_ratio);
		if (m->stack.comp[COMP_INFLATION] > explained + 0.1 * p->threads) {
			p->inflation_unconfirmed = 1;
			p->dominant = SCALE_NONE;
		}
	}
}

/* The answers of a point once its stack is final (work growth may have changed base). */
static void point_answers(struct scale_result *res, struct scale_point *p)
{
	const struct scale_exec *m = &p->ex[p->median];
	p->error = res->t1_s > 0 ? fabs(m->stack.estimated - m->stack.actual) / p->threads : NAN;
	p->error_raw = res->t1_s > 0 ? fabs(m->stack.estimated - p->speedup_strong) / p->threads : NAN;
	p->dominant = scale_stack_dominant(m->stack.comp, p->threads);
	scale_dominant_check(res, p);
	p->dominant_part = scale_stack_dominant_part(&m->stack, p->dominant);
	double sp = res->t1_s > 0 ? m->stack.actual : m->stack.estimated;
	p->cls = scale_stack_class(sp, p->threads);
	p->cls_program = scale_stack_class(fmin(sp + m->stack.comp[COMP_FOREIGN], p->threads), p->threads);
}

/* Work that grows with N (item 8): the N-thread run's work against the 1-thread run's, by
 * instructions where counters counted both, else by base time (CPU time less spinning, of every
 * thread: a spinning thread is on the CPU without doing work). */
static void point_work(struct scale_result *res, struct scale_point *p)
{
	const struct scale_point *one = &res->pt[res->one];
	if (p == one || !one->nex || !p->nex || !(res->t1_s > 0))
		return;
	const struct scale_exec *m = &p->ex[p->median], *o = &one->ex[one->median];
	double wn = 0, w1 = 0;
	if (m->have_counts && o->have_counts) {
		wn = m->counts.instructions;
		w1 = o->counts.instructions;
	} else if (m->have_record && o->have_record) {
		wn = m->stack.base_raw_s; /* all of it: a 1-thread run may keep more than one CPU busy */
		w1 = o->stack.base_raw_s;
	}
	/* a 1-thread run whose CPU time is almost all inside waits (a runtime that ran the
	 * program's tasks inside one) gives no ratio to judge by */
	double cpu1 = 0;
	for (size_t t = 0; o->have_record && t < o->rec.nth; t++)
		cpu1 += o->rec.th[t].run_s;
	p->work_ratio = w1 > 0 && (m->have_counts || w1 >= 0.2 * cpu1) ? wn / w1 : NAN;
	p->speedup_scaled = p->work_ratio * m->stack.actual; /* T1 as held against (unloaded, serial) */
	/* the time the threads waited for a CPU (other processes' load among it) is not a slowdown of
	 * the work itself */
	double waited = m->stack.comp[COMP_SCHEDULING] + m->stack.comp[COMP_FOREIGN];
	p->work_grows = scale_work_grows(p->work_ratio, p->speedup_strong + waited, p->threads, res->cpus);
	if (!p->work_grows)
		return;
	/* base is the scaled speedup, in every run of the point */
	for (int r = 0; r < p->nex; r++)
		scale_stack_set_actual(&p->ex[r].stack, p->ex[r].stack.actual * p->work_ratio);
	spread_actual(p);
}

/* The median of the 1-thread runs' spans that exited well and were not rejected. */
static double t1_median(const struct scale_point *one)
{
	double spans[SCALE_REPS_MAX];
	int ns = 0;
	for (int r = 0; r < one->nex; r++)
		if (one->ex[r].sr.exited && one->ex[r].sr.status == 0 && !one->ex[r].rejected)
			spans[ns++] = one->ex[r].span_s;
	return ns ? order_median(spans, (size_t)ns) : NAN;
}

int scale_run(const struct scale_opts *o, struct scale_result *res, struct as_error *err)
{
	memset(res, 0, sizeof(*res));
	if (o->npoints < 1 || o->npoints >= SCALE_POINTS_MAX || o->reps < 1 || o->reps > SCALE_REPS_MAX)
		return as_error_set(err, -EINVAL, "between 1 and %d thread counts and 1 and %d repetitions",
				    SCALE_POINTS_MAX - 1, SCALE_REPS_MAX);
	res->reps = o->reps;
	res->one = -1;
	res->spin_cost_ns = NAN;
	if (o->spin && o->sample_period_ms > 0) {
		res->spin_period_ns = (uint32_t)(o->sample_period_ms * 1e6 + 0.5);
	} else if (o->spin) { /* once, before any run: ~0.1 s */
		res->spin_cost_ns = scale_spin_sample_cost_ns();
		res->spin_period_ns = scale_spin_base_period_ns(res->spin_cost_ns);
	}
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
	struct as_cpulist cpus;
	if (cpulist_allowed(&cpus, err) != 0)
		return err->code ? err->code : -EINVAL;
	res->cpus = cpus.n;
	static char dir[4096]; /* static: the interrupt handler may remove it */
	int trc = tmp_dir_make(dir, sizeof(dir), "archscope-stack", err); /* names TMPDIR and the reason */
	if (trc)
		return trc;
	static char rdir[4096];
	if (records_dir(dir, rdir, sizeof(rdir), err) != 0) {
		rmdir(dir);
		return err->code;
	}
	interrupt_cleanup_dirs(dir, strcmp(rdir, dir) ? rdir : NULL);
	/* orphans of the program (a process whose parent ended first) come to archscope, so that a
	 * run ends with the last of them and their CPU time is in the children's usage */
	int was_subreaper = 0;
	prctl(PR_GET_CHILD_SUBREAPER, &was_subreaper);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	int rc = 0;
	/* interleaved: rep 1 of every N, then rep 2 ..., the 1-thread point first in each, so a
	 * change of machine load hits all N and each run can be judged against T1 */
	int order[SCALE_POINTS_MAX], no = 0;
	order[no++] = res->one;
	for (int i = 0; i < res->npoints; i++)
		if (i != res->one)
			order[no++] = i;
	for (int r = 0; r < o->reps && rc == 0 && !res->interrupted; r++)
		for (int j = 0; j < no && rc == 0 && !res->interrupted; j++) {
			struct scale_point *p = &res->pt[order[j]];
			for (int try = 0; try < SCALE_TRIES; try++) {
				if (o->progress)
					o->progress(o->ctx, p->threads, r, o->reps);
				struct scale_exec *x = &p->ex[p->nex];
				rc = exec_one(o, res, &cpus, dir, rdir, p->threads, x, err);
				if (rc == 0) {
					p->records_bad += x->records_bad;
					res->records_bad += x->records_bad;
				}
				if (rc == 0 && x->cut) { /* the cut run never counts */
					res->interrupted = x->cut;
					scale_record_release(&x->rec);
					break;
				}
				if (rc == 0 && interrupt_signal()) /* after the run ended: it counts, then stop */
					res->interrupted = interrupt_signal();
				if (rc)
					break;
				x->rejected |= exec_reject(x, &res->pt[res->one]);
				if (!x->rejected || try == SCALE_TRIES - 1 || res->interrupted) {
					p->nex++; /* the last try stands, rejected or not */
					if (x->rejected) {
						p->nrejected++;
						p->rejects |= x->rejected;
					}
					break;
				}
				p->nrejected++;
				p->rejects |= x->rejected;
				scale_record_release(&x->rec);
			}
		}
	prctl(PR_SET_CHILD_SUBREAPER, was_subreaper);
	dir_clean(dir);
	rmdir(dir);
	if (strcmp(rdir, dir)) {
		dir_clean(rdir);
		rmdir(rdir);
	}
	interrupt_cleanup_dir(NULL);
	if (rc)
		return rc;
	/* points without a run (interrupted before them) are dropped */
	int kept = 0;
	for (int i = 0; i < res->npoints; i++) {
		if (!res->pt[i].nex && i != res->one)
			continue;
		if (i == res->one)
			res->one = kept;
		if (kept != i)
			res->pt[kept] = res->pt[i];
		kept++;
	}
	res->npoints = kept;
	struct scale_point *one = &res->pt[res->one];
	res->t1_s = t1_median(one);
	for (int i = 0; i < res->npoints; i++)
		if (res->pt[i].nex)
			point_finish(res, &res->pt[i]);
	points_unloaded(res);
	scale_run_tier2(res);
	for (int i = 0; i < res->npoints; i++)
		if (res->pt[i].nex) {
			point_work(res, &res->pt[i]);
			point_answers(res, &res->pt[i]);
		}
	/* a program that ignores {T} and OMP_NUM_THREADS starts as many threads whatever N is (threads
	 * started, not alive at once: a short thread may end before the next starts); a tree of
	 * processes also runs as many at once (make -j1 and make -j2 start the same processes, not
	 * as many at once) */
	int distinct = 0, same = 1;
	const struct scale_point *ref = NULL;
	for (int i = 0; i < res->npoints; i++) {
		const struct scale_point *q = &res->pt[i];
		if (!q->nex)
			continue;
		if (!ref) {
			ref = q;
			continue;
		}
		if (q->threads != ref->threads)
			distinct = 1;
		int procs = q->ex[q->median].rec.processes > 1 || ref->ex[ref->median].rec.processes > 1;
		if (q->threads_seen != ref->threads_seen || (procs && q->threads_max != ref->threads_max))
			same = 0;
	}
	if (ref && distinct && same && ref->threads_seen > 0) {
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
