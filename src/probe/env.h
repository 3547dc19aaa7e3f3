/* The environment every probe runs in, built one way for `archscope probe` and for every command
 * that probes internally (tune, bench --level/--ecm): the CPUs the process may use,
 * read before anything pins it (the line's coherence witness needs a second one), the probe CPU
 * among them, and the OS topology (os_reported values; the witness's partner on another core). */
#ifndef ARCHSCOPE_PROBE_ENV_H
#define ARCHSCOPE_PROBE_ENV_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "probe/probe.h"

/* Fills *env: cpu (-1: the first allowed CPU), quick, seed, the interrupt flag (may be NULL), the
 * allowed CPUs, and the topology (heap; NULL when the OS reports none: note then says why, else
 * note is ""). Returns 0; -EINVAL when cpu is not one the process may use (err names it and the
 * allowed set); another negative errno when the allowed set cannot be read. Release with
 * probe_env_release also after an error. */
int probe_env_init(struct probe_env *env, int cpu, int quick, uint64_t seed, volatile int *interrupted, char *note,
		   size_t note_size, struct as_error *err);

/* Pins the calling thread to env->cpu. 0 or a negative errno. */
int probe_env_pin(const struct probe_env *env, struct as_error *err);

void probe_env_release(struct probe_env *env);

/* A record of its own (machine_probes_init'ed, on the heap) for a probe whose answers only feed
 * env or a caller's figures (probe_line_need, probe_caches_need, tune, cluster): NULL when out of
 * memory. probe_scratch_free releases and frees it (NULL: nothing). */
struct machine_probes *probe_scratch_new(void);
void probe_scratch_free(struct machine_probes *rec);

#endif
