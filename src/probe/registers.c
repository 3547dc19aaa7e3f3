/* The registers probe (BlackjackBench §3.5) on the generated live-range kernels of probe/kernels.h:
 * the time per addition against K live variables, and the K before its first rise. */
#include "probe/registers.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/order.h"
#include "analysis/steps.h"
#include "machine/probes.h"
#include "topo/cpuinfo.h"

int probe_registers_run(const struct probe_opts *o, const struct regs_set *set, struct probe_curve *out,
			struct as_error *err)
{
	/* The whole sweep takes well under a second: --quick keeps it, since fewer repetitions make
	 * the small rise after the first spill hard to tell from noise. */
	int reps = 3;
	for (int i = 0; i < set->nk; i++) {
		if (probe_opts_stopped(o))
			break;
		int k = set->k[i];
		if (i % 8 == 0) {
			char point[64];
			snprintf(point, sizeof(point), "%s %s, K = %d", set->kind, set->variant, k);
			probe_opts_report(o, "registers", point, i, set->nk);
		}
		probe_kernel_fn fn = set->fn[i];
		int ops = set->ops[i];
		uint64_t n = probe_kernel_calibrate(fn, 300e3);
		double ts[3];
		for (int r = 0; r < reps; r++)
			ts[r] = probe_kernel_ns(fn, n) / ((double)n * ops);
		if (probe_curve_add(out, k, order_kth(ts, (size_t)reps, 0), order_median(ts, (size_t)reps)) != 0)
			return as_error_set(err, -ENOMEM, "registers: out of memory");
	}
	if (out->n < 4) {
		return as_error_set(err, -EINTR, "registers: interrupted");
	}
	return 0;
}

void probe_registers_result_init(struct probe_registers_result *r)
{
	memset(r, 0, sizeof(*r)); /* zeroed curves are empty (memory.h) */
}

void probe_registers_result_release(struct probe_registers_result *r)
{
	for (int i = 0; i < REGS_MAX_BUILDS; i++)
		probe_curve_release(&r->build[i].curve);
	probe_registers_result_init(r);
}

int probe_registers_entry(const char *kind, int narrow, int *index)
{
	int fp = !strcmp(kind, "fp");
	if (index)
		*index = 2 * !!narrow + fp;
	return narrow ? (fp ? MP_REGISTERS_NARROW_FP : MP_REGISTERS_NARROW_INT) : (fp ? MP_REGISTERS_FP : MP_REGISTERS_INT);
}

int probe_registers_analyze(const struct probe_env *env, const struct probe_registers_build *b,
			    struct machine_probes *rec)
{
	const struct probe_curve *c = &b->curve;
	double *y = probe_curve_monotone(c);
	if (!y)
		return -ENOMEM;
	struct step_answer paper = steps_biggest_relative(y, c->n);
	struct step_answer a = steps_first_rise(c->min_ns, c->n, REGS_RISE);
	free(y);
	const struct regs_set *s = b->set;
	int k;
	struct machine_answer *regs = machine_probes_at(rec, probe_registers_entry(s->kind, b->narrow, &k));
	struct machine_probes_registers_ev *ev = &rec->registers_ev[k];
	char method[512];
	snprintf(method, sizeof(method),
		 "K live %s variables, P[i%%K] += P[(i+K-K/2)%%K] unrolled; first rise of the monotone time per addition > 3 %% above its minimum; %s %s",
		 !strcmp(s->kind, "int") ? "uint64_t" : "double", s->compiler, s->flags);
	probe_answer_clear(regs);
	probe_answer_set(regs, a.index >= 0 ? c->x[a.index] : NAN, a.index >= 0 ? a.confidence : 0, method);
	machine_probes_text(ev->flags, sizeof(ev->flags), s->flags);
	ev->step_relative = a.size;
	ev->biggest_k = paper.index >= 0 ? c->x[paper.index] : NAN;
	/* A core that hides a few spills behind its load ports (Zen 5: two loads a cycle beside the
	 * adds) stays flat past the registers it has: no probe can use more than the ISA names. */
	int isa = s->isa_regs;
	if (isa > 0 && regs->value > isa) {
		snprintf(regs->reason, sizeof(regs->reason),
			 "the time stays flat to K = %.0f: the spills of %.0f variables cost nothing measurable (the load "
			 "ports hide them); the ISA this build uses names %d",
			 regs->value, regs->value - isa, isa);
		regs->value = isa;
		regs->confidence *= 0.5;
	}
	/* the evidence: cycles per addition at the measured clock */
	double *cy = malloc((c->n ? c->n : 1) * sizeof(double));
	if (!cy)
		return -ENOMEM;
	for (size_t j = 0; j < c->n; j++)
		cy[j] = c->min_ns[j] * env->clock_ghz;
	int rc = probe_points_copy(&ev->curve, c->x, cy, NULL, c->n);
	free(cy);
	return rc;
}

/* Architectural registers of a kind as the OS reports the CPU (x86-64: 16 general-purpose, 16 or
 * 32 vector with AVX-512); os_reported only. 0 where unknown. */
static int os_registers(const char *kind, int narrow)
{
#if defined(__x86_64__)
	if (!strcmp(kind, "int"))
		return 16;
	if (narrow)
		return 16;
	char flags[8192];
	if (topo_cpuinfo("flags", flags, sizeof(flags) - 1) != 0) /* room for the space below */
		return 0;
	strcat(flags, " ");
	return strstr(flags, " avx512f ") ? 32 : 16;
#else
	(void)kind;
	(void)narrow;
	return 0;
#endif
}

int probe_registers_find(struct probe_env *env, probe_progress_fn *progress, struct probe_registers_result *out,
			 struct machine_probes *rec, struct as_error *err)
{
	probe_registers_result_init(out);
	machine_probes_group_release(rec, MP_G_REGISTERS); /* recorded before: a re-measurement */
	rec->have[MP_REGISTERS] = MP_HAVE_YES;
	struct probe_opts o = probe_opts_of(env, progress, HUGE_DEFAULT);
	const struct regs_set *sets[REGS_MAX_BUILDS];
	int nsets = 0;
	for (size_t i = 0; i < regs_nsets_wide && nsets < REGS_MAX_BUILDS; i++)
		sets[nsets++] = &regs_sets_wide[i];
	for (size_t i = 0; i < regs_nsets_narrow && nsets < REGS_MAX_BUILDS; i++)
		sets[nsets++] = &regs_sets_narrow[i];
	machine_probes_text(rec->registers_compiler, sizeof(rec->registers_compiler), nsets ? sets[0]->compiler : "");
	for (int i = 0; i < nsets && !probe_opts_stopped(&o); i++) {
		struct probe_registers_build *b = &out->build[i];
		b->set = sets[i];
		b->narrow = !strcmp(sets[i]->variant, "narrow");
		int rc = probe_registers_run(&o, sets[i], &b->curve, err);
		if (rc == 0 && (rc = probe_registers_analyze(env, b, rec)) != 0)
			as_error_set(err, rc, "registers: out of memory");
		if (rc != 0) {
			probe_curve_release(&b->curve);
			probe_curve_init(&b->curve);
			return probe_opts_stopped(&o) ? 0 : rc;
		}
		int os = os_registers(sets[i]->kind, b->narrow);
		struct machine_answer *regs = machine_probes_at(rec, probe_registers_entry(sets[i]->kind, b->narrow, NULL));
		regs->os_reported = os ? os : NAN;
		out->nbuilds++;
	}
	return 0;
}
