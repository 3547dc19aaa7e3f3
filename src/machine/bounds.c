/* Physical bounds of probe answers: what was measured and what the ISA allows, checked on the typed
 * record, so that a figure no machine can produce (66 FLOP/cy on a core that issues 64, a cache
 * slower than memory) is re-measured, then flagged, and never printed as a plain answer. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "machine/probes.h"

/* Tolerance on a bound: measurement error of a correct answer (timer and clock brackets). */
#define BOUND_SLACK 1.03

/* FLOPs per cycle of one precision (0 SP, 1 DP) at the widest vector, against lanes x 2 x the
 * FMA (or ADD/MUL) pipes its measured throughput implies (a throughput is a whole number of
 * pipes, or one pipe shared: 2.07 ops/cy is 2 pipes, so at most 2 ops/cy). */
static int flops_bound(const struct machine_probes *p, int prec, char *why, size_t len)
{
	const char *type = prec ? "double" : "float";
	int elem_bits = prec ? 64 : 32;
	double best_bound = 0;
	for (int i = 0; i < p->nops; i++) {
		const struct machine_probes_op *o = &p->op[i];
		if (strcmp(o->type, type) != 0 || !(o->throughput_per_cy > 0) || o->width_bits < elem_bits)
			continue;
		int fma = strcmp(o->op, "fma") == 0;
		if (!fma && strcmp(o->op, "add") != 0 && strcmp(o->op, "mul") != 0 && strcmp(o->op, "sub") != 0)
			continue;
		double pipes = o->throughput_per_cy >= 1 ? floor(o->throughput_per_cy + 0.25) : o->throughput_per_cy;
		double b = (double)(o->width_bits / elem_bits) * (fma ? 2 : 1) * pipes;
		if (b > best_bound)
			best_bound = b;
	}
	double total = p->flops_per_cy[prec][1][0];
	if (best_bound > 0 && total > best_bound * BOUND_SLACK) {
		snprintf(why, len, "%s vector %.1f FLOP/cy above the %.0f this core can issue (its measured pipes x vector lanes x 2 for FMA)",
			 prec ? "DP" : "SP", total, best_bound);
		return 1;
	}
	return 0;
}

static int caches_bound(const struct machine_probes *p, char *why, size_t len)
{
	for (int i = 1; i < p->ncaches; i++) {
		const struct machine_probes_cache *a = &p->cache[i - 1], *b = &p->cache[i];
		if (b->latency.value * BOUND_SLACK < a->latency.value) {
			snprintf(why, len, "L%d latency %.2f ns below L%d's %.2f ns (latencies rise with the level)", b->level,
				 b->latency.value, a->level, a->latency.value);
			return 1;
		}
		if (b->size.value <= a->size.value) {
			snprintf(why, len, "L%d size %.0f B not above L%d's %.0f B", b->level, b->size.value, a->level,
				 a->size.value);
			return 1;
		}
	}
	if (p->ncaches > 0) {
		const struct machine_probes_cache *l = &p->cache[p->ncaches - 1];
		if (p->memory_latency.value * BOUND_SLACK < l->latency.value) {
			snprintf(why, len, "memory latency %.2f ns below L%d's %.2f ns", p->memory_latency.value, l->level,
				 l->latency.value);
			return 1;
		}
	}
	return 0;
}

static int contexts_bound(const struct machine_probes *p, int allowed, char *why, size_t len)
{
	const struct machine_answer *a[3] = { &p->contexts_fp, &p->contexts_int, &p->contexts_mem };
	static const char *const name[3] = { "fp", "int", "mem" };
	for (int k = 0; k < 3; k++) {
		double v = a[k]->value;
		if (isfinite(v) && (v < 1 || (allowed > 0 && v > allowed))) {
			snprintf(why, len, "%s contexts %.0f outside 1..%d, the CPUs this process may use", name[k], v, allowed);
			return 1;
		}
	}
	return 0;
}

/* c2c latency: above the L1 latency (a line moves between two caches) and below 3 x the memory
 * latency (a line between two cores never costs more than a few trips to memory). */
static int c2c_bound(const struct machine_probes *p, char *why, size_t len)
{
	const struct machine_probes_c2c *c = &p->c2c;
	if (!c->latency_ns || c->ncpus < 2)
		return 0;
	double l1 = p->ncaches > 0 ? p->cache[0].latency.value : NAN;
	double mem = isfinite(p->memory_latency_random.value) ? p->memory_latency_random.value : p->memory_latency.value;
	for (int i = 0; i < c->ncpus; i++)
		for (int j = 0; j < c->ncpus; j++) {
			double v = c->latency_ns[i * c->ncpus + j];
			if (i == j || !isfinite(v))
				continue;
			if (v <= 0 || (isfinite(l1) && v * BOUND_SLACK < l1)) {
				snprintf(why, len, "c2c latency %d->%d %.1f ns not above the L1 latency %.2f ns", c->cpus[i],
					 c->cpus[j], v, l1);
				return 1;
			}
			if (isfinite(mem) && v > 3 * mem) {
				snprintf(why, len, "c2c latency %d->%d %.0f ns above 3 x the memory latency (%.0f ns)", c->cpus[i],
					 c->cpus[j], v, mem);
				return 1;
			}
		}
	return 0;
}

/* The kernel's slice: 0.1 ms (sched_base_slice's and min_granularity's floor) to 100 ms (the
 * longest sched_latency any kernel allows is 1 s; slices that long are not CFS or EEVDF defaults). */
static int timeslice_bound(const struct machine_probes *p, char *why, size_t len)
{
	double v = p->timeslice.value;
	if (isfinite(v) && (v < 0.1 || v > 100)) {
		snprintf(why, len, "time slice %.3g ms outside the kernel's 0.1-100 ms", v);
		return 1;
	}
	return 0;
}

int machine_probes_bounds(const struct machine_probes *p, enum mp_group g, int allowed_cpus, char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	switch (g) {
	case MP_G_INSTR: return flops_bound(p, 0, why, len) || flops_bound(p, 1, why, len);
	case MP_G_CACHES: return caches_bound(p, why, len);
	case MP_G_CONTEXTS: return contexts_bound(p, allowed_cpus, why, len);
	case MP_G_C2C: return c2c_bound(p, why, len);
	case MP_G_TIMESLICE: return timeslice_bound(p, why, len);
	default: return 0;
	}
}

int machine_probes_contexts_uncertain(struct machine_probes *p, int allowed_cpus, double foreign_cpus)
{
	struct machine_answer *a[3] = { &p->contexts_fp, &p->contexts_int, &p->contexts_mem };
	int n = 0;
	for (int k = 0; k < 3; k++) {
		if (!isfinite(a[k]->value) || a[k]->value >= allowed_cpus)
			continue;
		char why[400];
		snprintf(why, sizeof(why), "cannot tell: other processes used %.1f of the %d CPUs while the teams ran, and a "
			 "context they hold reads as none (measured %.0f; run it on a quiet machine, or with --wait-quiet)",
			 foreign_cpus, allowed_cpus, a[k]->value);
		machine_probes_text(a[k]->reason, sizeof(a[k]->reason), why);
		a[k]->value = NAN;
		a[k]->confidence = 0;
		n++;
	}
	return n;
}
