/* The memory levels a streaming command sizes its working sets by (bench --level, --ecm,
 * --threads-scaling and numa matrix): a quick cache probe, one working set per level. */
#include <errno.h>

#include "bench/levels.h"
#include "cli/cli.h"
#include "common/buffer.h"
#include "common/interrupt.h"
#include "probe/caches.h"
#include "probe/env.h"

int cli_levels_measure(const char *cmd, int cpu, volatile int *stop, struct bench_levels *out, struct probe_env *env_out)
{
	struct probe_env env;
	struct as_error err = { 0 };
	if (probe_env_init(&env, cpu, 1, 1, stop, NULL, 0, &err) != 0 || probe_env_pin(&env, &err) != 0) {
		probe_env_release(&env);
		return error_err(&err), EXIT_FAIL;
	}
	progress("%s: quick cache probe to size the memory levels ...", cmd);
	struct machine_probes *rec = probe_scratch_new(); /* only env's levels are kept */
	int rc = rec ? probe_caches_find(&env, NULL, &(struct probe_caches_params){ HUGE_NEVER, (size_t)256 << 20 }, rec, &err)
		     : as_error_set(&err, -ENOMEM, "%s: out of memory", cmd);
	progress_done();
	probe_scratch_free(rec);
	probe_env_release(&env);
	if (env_out)
		*env_out = env;
	if (rc != 0)
		return error_err(&err), EXIT_FAIL;
	if (stop && *stop)
		return error("%s: interrupted during the cache probe", cmd), INTERRUPT_EXIT;
	if (env.nlevels < 1)
		return error("%s: the quick cache probe found no cache level; give -s SIZE", cmd), EXIT_FAIL;
	bench_levels_from(env.level_bytes, env.nlevels, out);
	return 0;
}
