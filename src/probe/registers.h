/* The registers probe (BlackjackBench §3.5, adapted to wide cores): the time per addition against
 * the number of live variables K, for integer and FP variables, built with the build's flags
 * (wide) and without AVX-512 (narrow); the usable registers are the K before the curve first
 * rises. The architectural count the OS reports is set beside it. */
#ifndef ARCHSCOPE_PROBE_REGISTERS_H
#define ARCHSCOPE_PROBE_REGISTERS_H

#include "common/error.h"
#include "probe/kernels.h"
#include "probe/memory.h"
#include "probe/probe.h"

/* The rise over the minimum that counts as spilling: above run-to-run noise of a pinned loop. */
#define REGS_RISE 0.03

/* The builds: integer and FP, wide and narrow. */
#define REGS_MAX_BUILDS 4

/* Time per addition (ns) against the number of live variables K = 3..132. Returns 0, -EINTR when
 * stopped before four points, -ENOMEM. */
int probe_registers_run(const struct probe_opts *o, const struct regs_set *set, struct probe_curve *out,
			struct as_error *err);

struct machine_probes;

/* One build of one kind: what the probe works on. Its answer and evidence are in the record
 * (machine/probes.h: registers.int, .fp, .narrow.int, .narrow.fp; probe_registers_entry). */
struct probe_registers_build {
	const struct regs_set *set;
	int narrow;                      /* the narrow variant (built without AVX-512) */
	struct probe_curve curve;        /* x: K; min/median: ns per addition */
};

struct probe_registers_result {
	int nbuilds;                     /* measured: the wide builds, then the narrow ones */
	struct probe_registers_build build[REGS_MAX_BUILDS];
};

void probe_registers_result_init(struct probe_registers_result *r);
void probe_registers_result_release(struct probe_registers_result *r);

/* The record's entry (MP_REGISTERS_INT, _FP, _NARROW_INT, _NARROW_FP) of a build of kind "int" or
 * "fp", narrow or wide, and (index not NULL) its index in registers_ev[]: 2 x narrow + fp. */
int probe_registers_entry(const char *kind, int narrow, int *index);

/* Measures every build (progress before points; may be NULL) and answers each into rec (the group
 * recorded before is released: a re-measurement), cycles at env->clock_ghz. *work is initialised
 * here; release it also after an error, which keeps the builds measured before it (recorded).
 * Returns 0 (also when interrupted) or a negative errno (err says what failed). */
int probe_registers_find(struct probe_env *env, probe_progress_fn *progress, struct probe_registers_result *work,
			 struct machine_probes *rec, struct as_error *err);

/* The statistics of probe_registers_find on b->curve, already measured (recorded curves in
 * tests), for b->set and b->narrow, into b's entry of rec and its evidence (the curve in cycles at
 * env->clock_ghz): the K before the monotone time per addition first rises more than REGS_RISE
 * above its minimum. os_reported is left NAN (probe_registers_find sets it from the running CPU).
 * 0 or -ENOMEM. */
int probe_registers_analyze(const struct probe_env *env, const struct probe_registers_build *b,
			    struct machine_probes *rec);

#endif
