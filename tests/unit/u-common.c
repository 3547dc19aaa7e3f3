/* Unit tests of src/common: CPU lists, sizes, RNG, atomic files, order statistics, errors, teams. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "analysis/order.h"
#include "common/array.h"
#include "common/atomicfile.h"
#include "common/buffer.h"
#include "common/cpuset.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/rng.h"
#include "common/spawn.h"
#include "common/team.h"
#include "harness.h"

static void test_common__cpulist_parse_ranges(void)
{
	struct as_cpulist l;
	struct as_error err = { 0 };
	CHECK(cpulist_parse("0-3,8,10-11", &l, &err) == 0);
	CHECK(l.n == 7);
	CHECK(l.cpu[0] == 0 && l.cpu[3] == 3 && l.cpu[4] == 8 && l.cpu[6] == 11);
	CHECK(cpulist_parse("3,1,2", &l, &err) == 0); /* sorted */
	CHECK(l.n == 3 && l.cpu[0] == 1 && l.cpu[2] == 3);
	/* a CPU listed twice is an error, not silently one thread fewer (issue 29) */
	CHECK(cpulist_parse("3,1,3,2", &l, &err) == -EINVAL);
	CHECK(strstr(err.msg, "cpu 3 is listed twice") != NULL);
	CHECK(cpulist_parse("0-2,1", &l, &err) == -EINVAL);
	char buf[64];
	CHECK(cpulist_parse("0-3,8,10-11", &l, &err) == 0);
	CHECK_STR(cpulist_format(&l, buf, sizeof(buf)), "0-3,8,10-11");
}

static void test_common__cpulist_parse_errors(void)
{
	struct as_cpulist l;
	struct as_error err = { 0 };
	const char *bad[] = { "", "a", "1-", "-1", "3-1", "1,,2", "1,", "99999", "0x1", "1 2" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		as_error_clear(&err);
		CHECK(cpulist_parse(bad[i], &l, &err) == -EINVAL);
		CHECK(err.msg[0] != '\0');
	}
	CHECK(cpulist_parse("3-1", &l, &err) == -EINVAL);
	CHECK(strstr(err.msg, "reversed range") != NULL);
}

static void test_common__cpulist_check_allowed(void)
{
	struct as_cpulist allowed = { .n = 2, .cpu = { 0, 1 } }, l;
	struct as_error err = { 0 };
	CHECK(cpulist_parse("1", &l, &err) == 0);
	CHECK(cpulist_check_allowed(&l, &allowed, &err) == 0);
	CHECK(cpulist_parse("0,5", &l, &err) == 0);
	CHECK(cpulist_check_allowed(&l, &allowed, &err) == -EINVAL);
	CHECK(strstr(err.msg, "cpu 5") != NULL);
}

static void test_common__parse_size_units(void)
{
	size_t s;
	struct as_error err = { 0 };
	CHECK(buffer_parse_size("16kB", &s, &err) == 0 && s == 16000);
	CHECK(buffer_parse_size("16KiB", &s, &err) == 0 && s == 16384);
	CHECK(buffer_parse_size("1MB", &s, &err) == 0 && s == 1000000);
	CHECK(buffer_parse_size("1.5MiB", &s, &err) == 0 && s == 1572864);
	CHECK(buffer_parse_size("2GiB", &s, &err) == 0 && s == 2147483648ull);
	CHECK(buffer_parse_size("4096", &s, &err) == 0 && s == 4096);
	CHECK(buffer_parse_size("12XB", &s, &err) == -EINVAL);
	CHECK(buffer_parse_size("-1kB", &s, &err) == -EINVAL);
	CHECK(buffer_parse_size("kB", &s, &err) == -EINVAL);
	CHECK(buffer_parse_size("1e30GB", &s, &err) == -ERANGE);
}

static void test_common__format_size(void)
{
	char b[32];
	CHECK_STR(buffer_format_size(48 * 1024, b, sizeof(b)), "48 KiB");
	CHECK_STR(buffer_format_size(2 * 1048576, b, sizeof(b)), "2 MiB");
	CHECK_STR(buffer_format_size(100, b, sizeof(b)), "100 B");
	CHECK_STR(buffer_format_size(1536 * 1048576ull, b, sizeof(b)), "1.5 GiB");
}

static void test_common__buffer_too_large(void)
{
	struct buffer b;
	struct as_error err = { 0 };
	CHECK(buffer_alloc(&b, 1 << 20, HUGE_NEVER, &err) == 0);
	CHECK(((uintptr_t)b.data & 4095) == 0);
	((char *)b.data)[(1 << 20) - 1] = 1;
	buffer_release(&b);
	size_t avail = buffer_mem_available();
	if (!avail)
		SKIP("needs MEMINFO (no MemAvailable in /proc/meminfo: the refusal of a buffer larger than it is not checked)");
	CHECK(buffer_alloc(&b, avail * 4, HUGE_NEVER, &err) == -ENOMEM);
	CHECK(strstr(err.msg, "larger than the available memory") != NULL);
}

static void test_common__rng_reproducible(void)
{
	struct rng a, b;
	rng_init(&a, 42);
	rng_init(&b, 42);
	for (int i = 0; i < 100; i++)
		CHECK(rng_next(&a) == rng_next(&b));
	rng_init(&b, 43);
	CHECK(rng_next(&a) != rng_next(&b));
	for (int i = 0; i < 1000; i++)
		CHECK(rng_below(&a, 7) < 7);
}

static void test_common__rng_shuffle_is_permutation(void)
{
	struct rng r;
	rng_init(&r, 1);
	size_t v[257], seen[257] = { 0 };
	for (size_t i = 0; i < 257; i++)
		v[i] = i;
	rng_shuffle(&r, v, 257);
	size_t fixed = 0;
	for (size_t i = 0; i < 257; i++) {
		CHECK(v[i] < 257);
		seen[v[i]]++;
		fixed += v[i] == i;
	}
	for (size_t i = 0; i < 257; i++)
		CHECK(seen[i] == 1);
	CHECK(fixed < 20); /* a shuffle leaves about one fixed point; 20 is ~1e-18 likely */
}

static void test_common__atomic_write(void)
{
	char dir[] = "/tmp/archscope-u-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[256];
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	struct as_error err = { 0 };
	CHECK(atomic_file_write(path, "hello\n", 6, &err) == 0);
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	char buf[16] = "";
	CHECK(fgets(buf, sizeof(buf), f) != NULL);
	fclose(f);
	CHECK_STR(buf, "hello\n");
	/* An aborted write leaves the old content and no temporary file. */
	struct atomic_file af;
	CHECK(atomic_file_open(&af, path, &err) == 0);
	fputs("partial", af.fp);
	atomic_file_abort(&af);
	f = fopen(path, "r");
	CHECK(f && fgets(buf, sizeof(buf), f));
	fclose(f);
	CHECK_STR(buf, "hello\n");
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "test $(ls '%s' | wc -l) -eq 1", dir);
	CHECK(system(cmd) == 0);
	snprintf(path, sizeof(path), "%s/no/such/dir/x", dir);
	CHECK(atomic_file_write(path, "x", 1, &err) < 0);
	CHECK(strstr(err.msg, "cannot create") != NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

/* Inputs only from regular files, with a cap; outputs never replace links, FIFOs or devices
 * (issue 29: /dev/zero grew without bound, a FIFO hung, -o replaced /dev/full). */
static void test_common__input_output_safety(void)
{
	char dir[] = "/tmp/archscope-u-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[256], fifo[256], link[256];
	struct as_error err = { 0 };
	size_t len = 0;
	snprintf(path, sizeof(path), "%s/in.txt", dir);
	CHECK(atomic_file_write(path, "0123456789", 10, &err) == 0);
	char *t = file_read_input(path, "kernel", 10, &len, &err);
	CHECK(t && len == 10 && !strcmp(t, "0123456789"));
	free(t);
	CHECK(file_read_input(path, "kernel", 9, &len, &err) == NULL && err.code == -EFBIG);
	CHECK(strstr(err.msg, "larger than 9 B (the limit)") != NULL);
	CHECK(file_read_input("/dev/zero", "kernel", 1 << 20, &len, &err) == NULL && err.code == -EINVAL);
	CHECK(strstr(err.msg, "kernel '/dev/zero' is a character device") != NULL);
	CHECK(file_read_input(dir, "curve", 1 << 20, &len, &err) == NULL && strstr(err.msg, "is a directory"));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	CHECK(mkfifo(fifo, 0600) == 0);
	CHECK(file_open_input(fifo, "machine file", &err) == NULL && strstr(err.msg, "is a FIFO")); /* no hang */
	CHECK(file_read_input("/nonexistent/x", "kernel", 10, &len, &err) == NULL && err.code == -ENOENT);
	/* writing: the FIFO and a link are refused, the link's target untouched; AF_FORCE follows the link */
	CHECK(atomic_file_write(fifo, "x", 1, &err) == -EEXIST && strstr(err.msg, "is a FIFO: not replaced"));
	snprintf(link, sizeof(link), "%s/link", dir);
	CHECK(symlink("in.txt", link) == 0);
	CHECK(atomic_file_target_check(link, &err) == -EEXIST && strstr(err.msg, "symbolic link"));
	CHECK(atomic_file_write(link, "y", 1, &err) == -EEXIST);
	struct atomic_file af;
	CHECK(atomic_file_open_mode(&af, link, AF_FORCE, &err) == 0);
	fputs("forced", af.fp);
	CHECK(atomic_file_commit(&af, &err) == 0);
	struct stat st;
	CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	t = file_read_input(path, "file", 100, &len, &err);
	CHECK(t && !strcmp(t, "forced"));
	free(t);
	CHECK(atomic_file_target_check(dir, &err) == -EISDIR);
	CHECK(atomic_file_target_check("/dev/null", &err) == -EEXIST && strstr(err.msg, "character device"));
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

static void test_common__order_statistics(void)
{
	double v[] = { 5, 1, 4, 2, 3 };
	CHECK(order_kth(v, 5, 0) == 1);
	CHECK(order_kth(v, 5, 1) == 2);
	CHECK(order_median(v, 5) == 3);
	CHECK(order_median(v, 4) == 3); /* (2 + 4) / 2 over {5,1,4,2} */
	CHECK(isnan(order_median(v, 0)));
	CHECK(v[0] == 5); /* input untouched */
}

static void test_common__error_prefix(void)
{
	struct as_error err = { 0 };
	CHECK(as_error_set(&err, -ENOENT, "cannot open '%s'", "x.yaml") == -ENOENT);
	as_error_prefix(&err, "machine file: ");
	CHECK_STR(err.msg, "machine file: cannot open 'x.yaml'");
	CHECK(as_error_set(NULL, -EINVAL, "dropped") == -EINVAL);
}

struct team_probe {
	int count[4];
	int after_barrier[4];
	int seen_all;
};

static void team_fn_count(struct team *t, int tid, int cpu, void *arg)
{
	struct team_probe *p = arg;
	(void)cpu;
	__atomic_add_fetch(&p->count[0], 1, __ATOMIC_SEQ_CST);
	team_barrier(t);
	/* After the barrier every member has incremented. */
	p->after_barrier[tid] = __atomic_load_n(&p->count[0], __ATOMIC_SEQ_CST);
}

static void test_common__team_barrier(void)
{
	struct as_cpulist allowed;
	struct as_error err = { 0 };
	CHECK(cpulist_allowed(&allowed, &err) == 0);
	/* Three members on the first allowed CPU (oversubscribed), so this runs anywhere. */
	struct as_cpulist cpus = { .n = 3, .cpu = { allowed.cpu[0], allowed.cpu[0], allowed.cpu[0] } };
	struct team_probe p = { { 0 }, { 0 }, 0 };
	CHECK(team_run(&cpus, 1, team_fn_count, &p, &err) == 0);
	CHECK(p.count[0] == 3);
	for (int i = 0; i < 3; i++)
		CHECK(p.after_barrier[i] == 3);
	/* A CPU outside the machine fails to pin, and the work is not run. */
	struct as_cpulist bad = { .n = 2, .cpu = { allowed.cpu[0], AS_MAX_CPUS - 1 } };
	memset(&p, 0, sizeof(p));
	CHECK(team_run(&bad, 1, team_fn_count, &p, &err) < 0);
	CHECK(strstr(err.msg, "cannot pin") != NULL);
	CHECK(p.count[0] == 0);
}

struct stop_log {
	int n;
	int nth[4];
};

static int log_stop(void *ctx, int pid, int nth)
{
	struct stop_log *l = ctx;
	(void)pid;
	if (l->n < 4)
		l->nth[l->n++] = nth;
	return nth == 1 ? 7 : 0;
}

/* A program that stops itself twice is handed to the hook twice, in order, and runs on. */
static void test_common__spawn_stops(void)
{
	struct stop_log l = { 0, { 0 } };
	struct spawn_hooks h = { log_stop, &l };
	struct spawn_result r;
	struct as_error err = { 0 };
	char *argv[] = { "sh", "-c", "kill -STOP $$; kill -STOP $$; exit 3", NULL };
	CHECK(spawn_run_hooked(argv, NULL, NULL, 30, -1, &h, &r, &err) == 0);
	CHECK(r.exited && r.status == 3);
	CHECK(r.stops == 2 && l.n == 2 && l.nth[0] == 0 && l.nth[1] == 1);
	CHECK(r.hook_status == 7);
	char *missing[] = { "archscope-no-such-program", NULL };
	CHECK(spawn_run_hooked(missing, NULL, NULL, 30, -1, &h, &r, &err) == -ENOENT);
}

/* The first signal goes to the watched program's process group (every process in it) and is
 * remembered; archscope itself keeps running to report what it measured. */
static void test_common__interrupt_forwards_to_group(void)
{
	interrupt_install();
	interrupt_reset();
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	int p[2];
	CHECK(pipe(p) == 0);
	pid_t pid = fork();
	if (pid == 0) {
		interrupt_child_setup();
		close(p[0]);
		if (fork() == 0) { /* a grandchild in the same group */
			pause();
			_exit(0);
		}
		ssize_t w = write(p[1], "x", 1);
		(void)w;
		pause();
		_exit(0);
	}
	close(p[1]);
	interrupt_watch(pid);
	char c;
	CHECK(read(p[0], &c, 1) == 1);
	close(p[0]);
	CHECK(interrupt_signal() == 0);
	raise(SIGTERM);
	CHECK(interrupt_signal() == SIGTERM);
	int st = 0;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	/* the grandchild got it too: this test is its subreaper, so reaping it empties the group */
	int gone = 0;
	for (int i = 0; i < 500 && !gone; i++) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		gone = kill(-pid, 0) != 0;
		if (!gone)
			usleep(10000);
	}
	CHECK(gone);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	interrupt_watch(0);
	interrupt_reset();
	interrupt_restore();
}

/* A second signal ends archscope at once with 130 and removes the registered temporary directory. */
static void test_common__interrupt_second_signal_exits(void)
{
	char dir[] = "/tmp/archscope-u-common.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char f[64];
	snprintf(f, sizeof(f), "%s/a", dir);
	FILE *fp = fopen(f, "w");
	CHECK(fp != NULL);
	if (fp)
		fclose(fp);
	pid_t pid = fork();
	if (pid == 0) {
		interrupt_install();
		interrupt_cleanup_dir(dir);
		raise(SIGINT);
		if (interrupt_signal() != SIGINT)
			_exit(3);
		raise(SIGINT);
		_exit(4);
	}
	int st = 0;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == INTERRUPT_EXIT);
	struct stat sb;
	CHECK(stat(dir, &sb) != 0);
}

/* The one growable array: room for element n, doubling from first, refusing an overflow. */
static void test_common__array_grow(void)
{
	size_t cap = 0;
	int *a = array_grow(NULL, &cap, 0, sizeof(int), 4);
	CHECK(a != NULL && cap == 4);
	for (size_t i = 0; i < 100; i++) {
		int *b = array_grow(a, &cap, i, sizeof(int), 4);
		CHECK(b != NULL && cap > i);
		a = b;
		a[i] = (int)i;
	}
	CHECK(cap == 128 && a[99] == 99 && a[0] == 0);
	int *same = array_grow(a, &cap, 100, sizeof(int), 4);
	CHECK(same == a && cap == 128);
	size_t big = cap;
	CHECK(array_grow(a, &big, (size_t)-1 / 2, sizeof(int), 4) == NULL && big == 128);
	free(a);
	size_t c2 = 0;
	char *s = array_grow(NULL, &c2, 1000, 1, 256); /* far beyond first: doubled until it holds it */
	CHECK(s != NULL && c2 == 1024);
	free(s);
}

TESTS(T(test_common__array_grow), T(test_common__cpulist_parse_ranges), T(test_common__cpulist_parse_errors),
      T(test_common__cpulist_check_allowed), T(test_common__parse_size_units), T(test_common__format_size),
      T(test_common__buffer_too_large), T(test_common__rng_reproducible),
      T(test_common__rng_shuffle_is_permutation), T(test_common__atomic_write), T(test_common__input_output_safety),
      T(test_common__order_statistics), T(test_common__error_prefix), T(test_common__team_barrier),
      T(test_common__spawn_stops), T(test_common__interrupt_forwards_to_group),
      T(test_common__interrupt_second_signal_exits))
