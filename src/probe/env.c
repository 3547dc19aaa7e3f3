/* The probe environment (see env.h). */
#include "probe/env.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int probe_env_init(struct probe_env *env, int cpu, int quick, uint64_t seed, volatile int *interrupted, char *note,
		   size_t note_size, struct as_error *err)
{
	*env = (struct probe_env){ .cpu = cpu, .quick = quick, .seed = seed, .interrupted = interrupted };
	if (note && note_size)
		note[0] = 0;
	int rc = cpulist_allowed(&env->allowed, err);
	if (rc)
		return rc;
	if (env->allowed.n == 0)
		return as_error_set(err, -EINVAL, "this process may use no CPU");
	if (cpu < 0)
		env->cpu = env->allowed.cpu[0];
	struct as_cpulist one = { .n = 1, .cpu = { env->cpu } };
	if ((rc = cpulist_check_allowed(&one, &env->allowed, err)) != 0)
		return rc;
	struct topo *t = calloc(1, sizeof(*t));
	struct as_error terr = { 0 };
	if (!t || topo_load(t, &terr) != 0) {
		if (note && note_size)
			snprintf(note, note_size, "no OS-reported topology (%s); answers are measured anyway",
				 t ? terr.msg : "out of memory");
		free(t);
		return 0;
	}
	env->topo = t;
	return 0;
}

int probe_env_pin(const struct probe_env *env, struct as_error *err)
{
	return cpu_pin_self(env->cpu, err);
}

void probe_env_release(struct probe_env *env)
{
	if (env->topo) {
		topo_release(env->topo);
		free(env->topo);
		env->topo = NULL;
	}
}

struct machine_probes *probe_scratch_new(void)
{
	struct machine_probes *rec = malloc(sizeof(*rec));
	if (rec)
		machine_probes_init(rec);
	return rec;
}

void probe_scratch_free(struct machine_probes *rec)
{
	if (!rec)
		return;
	machine_probes_release(rec);
	free(rec);
}
