/* Each probe group's answers and evidence into the typed record (see record.h): a copy, field by
 * field, of what the probe found; the keys and units are the description's (machine/probes.h). */
#include "probe/record.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/buffer.h"
#include "probe/c2c.h"

static int bounded(int n, int max)
{
	return n < 0 ? 0 : n < max ? n : max;
}

/* An n x n matrix of the probe's pairs with NAN (null) on the diagonal: block k's bandwidths, or
 * with k < 0 the latencies. NULL on no memory. */
static double *c2c_matrix(const struct probe_c2c_matrix *m, int k)
{
	size_t n = (size_t)m->cpus.n;
	double *x = malloc(n * n * sizeof(double));
	for (size_t i = 0; x && i < n; i++)
		for (size_t j = 0; j < n; j++)
			x[i * n + j] = i == j ? NAN : k < 0 ? probe_c2c_lat(m, (int)i, (int)j) : probe_c2c_bw(m, k, (int)i, (int)j);
	return x;
}

/* The locality tree's cliques (t NULL: none built, null). */
static int c2c_tree(struct machine_probes *p, const struct probe_c2c_matrix *m, const struct clique_tree *t)
{
	struct machine_probes_c2c *c = &p->c2c;
	p->have[MP_C2C_TREE] = t ? MP_HAVE_YES : MP_HAVE_NULL;
	if (!t)
		return 0;
	if (!(c->node = calloc((size_t)t->nnodes, sizeof(*c->node))))
		return -ENOMEM;
	for (int i = 0; i < t->nnodes; i++) {
		const struct clique_node *nd = &t->node[i];
		struct machine_probes_node *d = &c->node[c->nnodes++];
		machine_probes_row_init(MP_C2C_NODES, d);
		d->parent = nd->parent;
		d->depth = nd->depth;
		d->split_at_block_bytes = nd->split_at >= 0 ? (long long)probe_c2c_split_bytes(m, t, i) : -1;
		if (!(d->cpus = malloc((size_t)(nd->n ? nd->n : 1) * sizeof(int))))
			return -ENOMEM;
		for (int a = 0; a < nd->n; a++)
			d->cpus[d->ncpus++] = m->cpus.cpu[nd->member[a]];
	}
	c->leaves = clique_tree_leaves(t);
	return 0;
}

/* The classes the matrices were filled by (a class split into finer ones is left out: its pairs
 * belong to those) with their figures. */
static int c2c_classes(struct machine_probes_c2c *c, const struct probe_c2c_plan *pl)
{
	int nb = pl->nblocks;
	if (pl->nclasses <= 0)
		return 0;
	if (!(c->cls = calloc((size_t)pl->nclasses, sizeof(*c->cls))))
		return -ENOMEM;
	for (int k = 0; k < pl->nclasses; k++) {
		const struct probe_c2c_class *s = &pl->cls[k];
		if (s->split)
			continue;
		struct machine_probes_c2c_class *d = &c->cls[c->nclasses++];
		machine_probes_row_init(MP_C2C_CLASSES, d);
		machine_probes_text(d->name, sizeof(d->name), s->name);
		d->pairs = s->npairs;
		d->measured = s->nmeasured;
		d->bandwidth_gbs = nb ? probe_c2c_plan_class_bw(pl, k, nb - 1) : NAN;
		d->latency_ns = s->lat_ns;
		for (int b = 0; b < nb; b++)
			d->blocks_measured += !isnan(s->bw_gbs[b]);
		d->level = s->level;
		machine_probes_text(d->split_from, sizeof(d->split_from), s->parent >= 0 ? pl->cls[s->parent].name : "");
		d->split = s->split;
		d->resolved = !s->unresolved;
	}
	return 0;
}

/* Every pair measured with its own figures at the largest block. */
static int c2c_pairs(struct machine_probes_c2c *c, const struct probe_c2c_plan *pl, const struct probe_c2c_matrix *m)
{
	int nb = pl->nblocks;
	if (pl->npairs <= 0)
		return 0;
	if (!(c->pair = calloc((size_t)pl->npairs, sizeof(*c->pair))))
		return -ENOMEM;
	for (int q = 0; q < pl->npairs && c->npairs < MACHINE_PROBES_MAX_PAIRS; q++) {
		if (isnan(pl->lat[q]) || pl->role[q] == PROBE_C2C_UNMEASURED)
			continue;
		int i, j;
		probe_c2c_pair_of(pl->n, q, &i, &j);
		struct machine_probes_c2c_pair *d = &c->pair[c->npairs++];
		machine_probes_row_init(MP_C2C_PAIRS, d);
		if (!(d->cpus = malloc(2 * sizeof(int))))
			return -ENOMEM;
		d->cpus[0] = m->cpus.cpu[i];
		d->cpus[1] = m->cpus.cpu[j];
		d->ncpus = 2;
		machine_probes_text(d->cls, sizeof(d->cls), pl->cls[pl->pair_class[q]].name);
		machine_probes_text(d->role, sizeof(d->role), probe_c2c_role_name((enum probe_c2c_role)pl->role[q]));
		d->bandwidth_gbs = nb ? pl->bw[(size_t)q * nb + nb - 1] : NAN;
		d->latency_ns = pl->lat[q];
	}
	return 0;
}

/* The steps' wall time and the bandwidth matrix of every block. */
static int c2c_blocks(struct machine_probes_c2c *c, const struct probe_c2c_result *r)
{
	const struct probe_c2c_matrix *m = &r->m;
	int nb = bounded(m->nblocks, MACHINE_PROBES_MAX_BLOCKS);
	int steps = r->plan.nblocks;
	c->step_latency_s = r->step_s[steps];
	if (!(c->step_blocks_s = malloc((size_t)(steps ? steps : 1) * sizeof(double))))
		return -ENOMEM;
	for (int k = 0; k < steps; k++)
		c->step_blocks_s[k] = r->step_s[k];
	c->nstep_blocks = steps;
	if (!nb)
		return 0;
	if (!(c->block = calloc((size_t)nb, sizeof(*c->block))))
		return -ENOMEM;
	for (int k = 0; k < nb; k++) {
		struct machine_probes_c2c_block *d = &c->block[c->nblocks++];
		machine_probes_row_init(MP_C2C_BLOCKS, d);
		d->block_bytes = (long long)m->block_bytes[k];
		if (!(d->bandwidth_gbs = c2c_matrix(m, k)))
			return -ENOMEM;
		d->ncpus = m->cpus.n;
	}
	return 0;
}

int probe_c2c_record(struct machine_probes *p, const struct probe_c2c_result *r)
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
	c->latency_ns = c2c_matrix(m, -1);
	c->bandwidth_gbs = nb ? c2c_matrix(m, nb - 1) : NULL;
	c->block_bytes = nb ? (long long)m->block_bytes[nb - 1] : 0;
	if (!c->cpus || !c->latency_ns || (nb && !c->bandwidth_gbs))
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		c->cpus[i] = m->cpus.cpu[i];
	/* how the pairs were measured: the classes the matrices were filled by */
	const struct probe_c2c_plan *pl = &r->plan;
	machine_probes_text(c->mode, sizeof(c->mode),
			    machine_probes_c2c_mode_name(r->all_pairs ? MP_C2C_MODE_ALL_PAIRS : MP_C2C_MODE_CLASSES));
	c->pairs_measured = probe_c2c_plan_measured(pl);
	c->all_pairs_chosen = r->all_pairs_chosen;
	c->steps = r->steps;
	c->skipped_blocks = r->skipped;
	c->backfilled_blocks = r->backfilled;
	c->rounds = r->rounds;
	c->concurrent_pairs = m->concurrent_pairs;
	machine_probes_text(c->method, sizeof(c->method),
			    "two pinned threads take turns updating a block first touched by the first; one-way GB/s = block bytes per round; "
			    "latency = half the round trip of a cache line bounced between them; pairs in rounds of disjoint pairs "
			    "measured at once: by class, a few pairs per topology class and random pairs to verify them, finer "
			    "classes where they disagree, the matrices filled by class (--all-pairs: every pair, round robin); "
			    "tree by clique splitting from the largest block down");
	if (c2c_tree(p, m, r->tree) || c2c_classes(c, pl) || c2c_pairs(c, pl, m) || c2c_blocks(c, r))
		return -ENOMEM;
	return 0;
}
