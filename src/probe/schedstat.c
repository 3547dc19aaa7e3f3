/* Time slice from the kernel's schedstat (schedstat.h): costs `seconds` of one CPU. */
#include "probe/schedstat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/team.h"
#include "common/timer.h"

int schedstat_read_self(struct schedstat *s, struct as_error *err)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%ld/schedstat", (long)syscall(SYS_gettid));
	FILE *f = fopen(path, "r");
	if (!f)
		return as_error_set(err, -ENOENT, "cannot read '%s': %s (a kernel without CONFIG_SCHEDSTATS?)", path,
				    strerror(errno));
	int n = fscanf(f, "%" SCNu64 " %" SCNu64 " %" SCNu64, &s->run_ns, &s->wait_ns, &s->slices);
	fclose(f);
	if (n != 3)
		return as_error_set(err, -EIO, "'%s' does not hold three numbers", path);
	return 0;
}

struct slice_run {
	uint64_t end_ns;
	struct schedstat before[4], after[4];
	int failed;
	struct as_error err;
};

static void slice_member(struct team *t, int tid, int cpu, void *arg)
{
	struct slice_run *r = arg;
	(void)cpu;
	team_barrier(t);
	if (schedstat_read_self(&r->before[tid], &r->err) != 0)
		r->failed = 1;
	while (!r->failed && timer_now_ns() < r->end_ns)
		; /* busy: the scheduler must take the CPU away to run the other threads */
	if (!r->failed && schedstat_read_self(&r->after[tid], &r->err) != 0)
		r->failed = 1;
	team_barrier(t);
}

int schedstat_slice_run(int cpu, int threads, double seconds, struct schedstat_slice *out, struct as_error *err)
{
	memset(out, 0, sizeof(*out));
	if (threads < 2 || threads > 4 || !(seconds > 0.01 && seconds < 60))
		return as_error_set(err, -EINVAL, "schedstat slice: 2..4 threads for 0.01..60 s");
	struct slice_run r = { .end_ns = timer_now_ns() + (uint64_t)(seconds * 1e9) };
	struct as_cpulist cpus = { .n = threads };
	for (int i = 0; i < threads; i++)
		cpus.cpu[i] = cpu;
	int rc = team_run(&cpus, 1, slice_member, &r, err);
	if (rc)
		return rc;
	if (r.failed) {
		*err = r.err;
		return -ENOENT;
	}
	uint64_t run = 0, slices = 0;
	out->threads = threads;
	out->seconds = seconds;
	for (int i = 0; i < threads; i++) {
		uint64_t dr = r.after[i].run_ns - r.before[i].run_ns, ds = r.after[i].slices - r.before[i].slices;
		out->slices[i] = ds;
		out->slice_ms[i] = ds ? (double)dr / (double)ds / 1e6 : 0;
		run += dr;
		slices += ds;
	}
	out->mean_slice_ms = slices ? (double)run / (double)slices / 1e6 : 0;
	if (!slices)
		return as_error_set(err, -EAGAIN, "schedstat counted no slices in %.2f s", seconds);
	return 0;
}
