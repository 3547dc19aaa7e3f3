/* Benchmark mode: the kernel's program compiled and run pinned, its best time per call read back;
 * see incore.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model/incore/incore.h"
#include "model/incore/work.h"

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
	if ((rc = spawn_run_hooked(argv, w.path[W_OUT], w.path[W_ERR], 60 + 4 * (reps + 4) * min_seconds, cpu, hooks, &sr, err)))
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
