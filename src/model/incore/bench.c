/* Benchmark mode: the kernel's program compiled and run pinned, its best time per call read back;
 * see incore.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "model/incore/incore.h"
#include "model/incore/work.h"

/* CPU time of the children waited for, in s. */
static double children_cpu_s(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec * 1e-6;
}

int incore_benchmark(const struct kernel *k, const struct kbound *b, const char *text, size_t len,
		     const struct incore_config *cfg, int cpu, double min_seconds, int reps,
		     const struct spawn_hooks *hooks, struct incore_bench *out, struct as_error *err)
{
	memset(out, 0, sizeof(*out));
	struct incore_workdir w;
	int rc = incore_workdir_open(&w, err);
	if (rc)
		return rc;
	if ((rc = incore_codegen_file(k, b, text, len, 1, w.path[W_C], err)) ||
	    (rc = incore_compile(cfg, w.path[W_C], w.path[W_BIN], 0, &w, err)))
		goto out;
	char secs[32], nreps[16];
	snprintf(secs, sizeof(secs), "%.3f", min_seconds);
	snprintf(nreps, sizeof(nreps), "%d", reps);
	out->reps = reps;
	char *argv[] = { w.path[W_BIN], secs, nreps, hooks ? "stops" : NULL, NULL };
	struct spawn_result sr;
	struct as_cpulist on = { .n = cpu >= 0 ? 1 : 0, .cpu = { cpu } };
	for (int attempt = 1;; attempt++) {
		struct cond_window win;
		double c0 = children_cpu_s();
		cond_window_begin(&win, cpu >= 0 ? &on : NULL, NULL, COND_SHARED);
		rc = spawn_run_hooked(argv, w.path[W_OUT], w.path[W_ERR], 60 + 4 * (reps + 4) * min_seconds, cpu, hooks, &sr, err);
		cond_window_own(&win, children_cpu_s() - c0, 0);
		cond_window_end(&win, &out->cond);
		out->cond.attempts = attempt;
		/* with hooks the caller counts around this run: it is the only one */
		if (rc || hooks || !out->cond.noisy || attempt >= 3 || !sr.exited || sr.status != 0 ||
		    cond_noisy_streak() >= COND_BUSY_STREAK)
			break;
		cond_wait_quiet(cpu >= 0 ? &on : NULL, NULL, COND_SHARED, 1.0);
	}
	cond_summary_final(&out->cond);
	if (rc)
		goto out;
	out->wall_seconds = sr.seconds;
	if (!sr.exited || sr.status != 0) {
		char msg[400];
		spawn_head(w.path[W_ERR], msg, sizeof(msg));
		rc = sr.exited ? as_error_set(err, -EIO, "the benchmark exited with %d: %s", sr.status, msg)
			       : as_error_set(err, -EIO, "the benchmark was killed by signal %d (%s)", sr.status, strsignal(sr.status));
		goto out;
	}
	char line[256];
	spawn_head(w.path[W_OUT], line, sizeof(line));
	if (sscanf(line, "seconds_per_call %lf calls %ld", &out->seconds_per_call, &out->calls) != 2 ||
	    !(out->seconds_per_call > 0))
		rc = as_error_set(err, -EIO, "the benchmark printed '%s'", line);
out:
	incore_workdir_close(&w);
	return rc;
}
