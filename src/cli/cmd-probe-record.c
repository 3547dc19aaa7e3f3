/* Each probe group's answers into the typed record (struct machine_probes, machine/probes.h): the
 * one route from a probe's result to the JSON of `probe`, probe-results.json and the machine file.
 * A copy, field by field, of what the probe found; the keys and units are the description's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "probe/assoc.h"
#include "probe/c2c.h"
#include "probe/caches.h"
#include "probe/clock.h"
#include "probe/contexts.h"
#include "probe/instr.h"
#include "probe/line.h"
#include "probe/registers.h"
#include "probe/timeslice.h"
#include "probe/tlb.h"

static void answer(struct machine_answer *a, const struct probe_answer *s)
{
	a->value = s->value;
	a->confidence = s->confidence;
	a->os_reported = s->os_reported;
	machine_probes_text(a->method, sizeof(a->method), s->method ? s->method : "");
	machine_probes_text(a->reason, sizeof(a->reason), s->reason);
}

static int bounded(int n, int max)
{
	return n < 0 ? 0 : n < max ? n : max;
}

void cli_probe_record_clock(struct machine_probes *p, const struct probe_clock_result *r)
{
	p->have[MP_CLOCK] = MP_HAVE_YES;
	answer(&p->clock, &r->clock);
	p->tsc_ghz = r->tsc_ghz > 0 ? r->tsc_ghz : NAN;
}

void cli_probe_record_line(struct machine_probes *p, const struct probe_line_result *r)
{
	p->have[MP_LINE] = MP_HAVE_YES;
	answer(&p->line, &r->line);
	answer(&p->line_stride, &r->stride);
	answer(&p->line_coherence, &r->coherence);
	answer(&p->line_flush, &r->flush);
	p->line_witnesses_used = r->witnesses;
}

void cli_probe_record_caches(struct machine_probes *p, const struct probe_caches_result *r)
{
	p->have[MP_CACHES] = MP_HAVE_YES;
	p->ncaches = bounded(r->nlevels, MACHINE_PROBES_MAX_LEVELS);
	for (int i = 0; i < p->ncaches; i++) {
		struct machine_probes_cache *c = &p->cache[i];
		machine_probes_row_init(MP_CACHES_LEVELS, c);
		c->level = i + 1;
		answer(&c->size, &r->level[i].size);
		answer(&c->latency, &r->level[i].latency);
		c->latency_cy = r->level[i].latency_cy;
	}
	answer(&p->memory_latency, &r->memory);
	p->memory_latency_cy = r->memory_cy;
	answer(&p->memory_latency_random, &r->memory_random);
	p->memory_latency_random_cy = r->memory_random_cy;
}

void cli_probe_record_assoc(struct machine_probes *p, const struct probe_assoc_result *r)
{
	p->have[MP_ASSOC] = MP_HAVE_YES;
	p->nassoc = bounded(r->nlevels, MACHINE_PROBES_MAX_LEVELS);
	for (int i = 0; i < p->nassoc; i++) {
		machine_probes_row_init(MP_ASSOC_LEVELS, &p->assoc[i]);
		p->assoc[i].level = i + 1;
		answer(&p->assoc[i].ways, &r->level[i].ways);
	}
}

void cli_probe_record_tlb(struct machine_probes *p, const struct probe_tlb_result *r)
{
	p->have[MP_TLB] = MP_HAVE_YES;
	answer(&p->page_size, &r->page);
	answer(&p->page_pairs, &r->page_pairs);
	answer(&p->page_faults, &r->page_faults);
	p->ntlb = r->entries_measured ? bounded(r->nlevels, MACHINE_PROBES_MAX_LEVELS) : 0;
	for (int i = 0; i < p->ntlb; i++) {
		machine_probes_row_init(MP_TLB_LEVELS, &p->tlb[i]);
		p->tlb[i].level = i + 1;
		answer(&p->tlb[i].entries, &r->level[i].entries);
		p->tlb[i].cost_ns = r->level[i].cost_ns;
	}
}

void cli_probe_record_instr(struct machine_probes *p, const struct probe_instr_result *r)
{
	p->have[MP_INSTR] = MP_HAVE_YES;
	p->nops = bounded((int)r->nops, MACHINE_PROBES_MAX_OPS);
	for (int i = 0; i < p->nops; i++) {
		const struct probe_instr_op *o = &r->op[i];
		struct machine_probes_op *d = &p->op[i];
		machine_probes_row_init(MP_INSTR_OPS, d);
		machine_probes_text(d->op, sizeof(d->op), o->set->op);
		machine_probes_text(d->type, sizeof(d->type), o->set->type);
		d->width_bits = o->set->width_bits;
		d->latency_cy = o->latency_cy;
		d->throughput_per_cy = o->throughput_per_cy;
		d->in_flight = o->in_flight;
	}
	memcpy(p->flops_per_cy, r->flops_per_cy, sizeof(p->flops_per_cy));
	p->nsplit = bounded(r->split.nwidths, MACHINE_PROBES_MAX_SPLIT);
	for (int k = 0; k < p->nsplit; k++) {
		const struct probe_split_width *w = &r->split.w[k];
		p->split[k] = (struct machine_probes_split){ w->width_bits, w->load_cy, w->load_split_cy, w->store_cy,
							      w->store_split_cy, w->mixed_cy, w->clock_ghz };
	}
}

void cli_probe_record_contexts(struct machine_probes *p, const struct probe_contexts_result *r)
{
	p->have[MP_CONTEXTS] = MP_HAVE_YES;
	for (int k = 0; k < r->nkinds; k++)
		answer(machine_probes_at(p, cli_probe_record_contexts_id(k)), &r->kind[k].contexts);
}

int cli_probe_record_contexts_id(int kind)
{
	return kind == CONTEXTS_FP ? MP_CONTEXTS_FP : kind == CONTEXTS_INT ? MP_CONTEXTS_INT : MP_CONTEXTS_MEM;
}

int cli_probe_record_registers_id(const struct probe_registers_build *b)
{
	int fp = !strcmp(b->set->kind, "fp");
	return b->narrow ? (fp ? MP_REGISTERS_NARROW_FP : MP_REGISTERS_NARROW_INT) : (fp ? MP_REGISTERS_FP : MP_REGISTERS_INT);
}

void cli_probe_record_registers(struct machine_probes *p, const struct probe_registers_result *r)
{
	p->have[MP_REGISTERS] = MP_HAVE_YES;
	for (int i = 0; i < r->nbuilds; i++)
		answer(machine_probes_at(p, cli_probe_record_registers_id(&r->build[i])), &r->build[i].regs);
}

void cli_probe_record_timeslice(struct machine_probes *p, const struct probe_timeslice_result *r)
{
	p->have[MP_TIMESLICE] = MP_HAVE_YES;
	answer(&p->timeslice, &r->slice);
	answer(&p->schedstat, &r->schedstat);
}

/* An n x n matrix of the probe's pairs with NAN (null) on the diagonal, or NULL on no memory. */
static double *matrix(const struct probe_c2c_matrix *m, int k)
{
	size_t n = (size_t)m->cpus.n;
	double *x = malloc(n * n * sizeof(double));
	for (size_t i = 0; x && i < n; i++)
		for (size_t j = 0; j < n; j++)
			x[i * n + j] = i == j ? NAN : k < 0 ? probe_c2c_lat(m, (int)i, (int)j) : probe_c2c_bw(m, k, (int)i, (int)j);
	return x;
}

int cli_probe_record_c2c(struct machine_probes *p, const struct probe_c2c_result *r)
{
	const struct probe_c2c_matrix *m = &r->m;
	struct machine_probes_c2c *c = &p->c2c;
	machine_probes_group_release(p, MP_G_C2C); /* recorded before: a re-measurement */
	int n = m->cpus.n, nb = m->nblocks;
	p->have[MP_C2C] = n ? MP_HAVE_YES : MP_HAVE_NULL;
	if (!n)
		return 0;
	c->ncpus = n;
	c->cpus = malloc((size_t)n * sizeof(int));
	c->latency_ns = matrix(m, -1);
	c->bandwidth_gbs = nb ? matrix(m, nb - 1) : NULL;
	c->block_bytes = nb ? (long long)m->block_bytes[nb - 1] : 0;
	int ok = c->cpus && c->latency_ns && (!nb || c->bandwidth_gbs);
	for (int i = 0; ok && i < n; i++)
		c->cpus[i] = m->cpus.cpu[i];
	const struct clique_tree *t = r->tree;
	p->have[MP_C2C_TREE] = t ? MP_HAVE_YES : MP_HAVE_NULL;
	if (ok && t) {
		c->node = calloc((size_t)t->nnodes, sizeof(*c->node));
		ok = c->node != NULL;
		for (int i = 0; ok && i < t->nnodes; i++) {
			const struct clique_node *nd = &t->node[i];
			struct machine_probes_node *d = &c->node[c->nnodes++];
			machine_probes_row_init(MP_C2C_NODES, d);
			d->parent = nd->parent;
			d->depth = nd->depth;
			d->split_at_block_bytes = nd->split_at >= 0 ? (long long)probe_c2c_split_bytes(m, t, i) : -1;
			ok = (d->cpus = malloc((size_t)(nd->n ? nd->n : 1) * sizeof(int))) != NULL;
			for (int a = 0; ok && a < nd->n; a++)
				d->cpus[d->ncpus++] = m->cpus.cpu[nd->member[a]];
		}
		c->leaves = clique_tree_leaves(t);
	}
	/* how the pairs were measured: the classes the matrices were filled by */
	const struct probe_c2c_plan *pl = &r->plan;
	machine_probes_text(c->mode, sizeof(c->mode), r->all_pairs ? "all_pairs" : "classes");
	c->pairs_measured = probe_c2c_plan_measured(pl);
	if (ok && pl->nclasses > 0) {
		c->cls = calloc((size_t)pl->nclasses, sizeof(*c->cls));
		ok = c->cls != NULL;
		for (int k = 0; ok && k < pl->nclasses; k++) {
			if (pl->cls[k].split) /* its pairs belong to the finer classes now */
				continue;
			struct machine_probes_c2c_class *d = &c->cls[c->nclasses++];
			machine_probes_row_init(MP_C2C_CLASSES, d);
			machine_probes_text(d->name, sizeof(d->name), pl->cls[k].name);
			d->pairs = pl->cls[k].npairs;
			d->measured = pl->cls[k].nmeasured;
		}
	}
	return ok ? 0 : error("c2c: out of memory for the record of the matrices");
}
