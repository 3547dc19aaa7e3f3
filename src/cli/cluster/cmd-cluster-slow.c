/* archscope-cluster's slow links and nodes: cluster/slow.h on the measured matrices, each layer's
 * pairs judged against the layer's median with the run's repetition spread, and their rendering
 * (results.slow[] and a text section). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cluster/cmd-cluster-impl.h"
#include "machine/result-cluster.h"
#include "report/emit.h"

void cli_cluster_find_slow(struct cli_cluster_result *r)
{
	const struct cluster_place *p = r->place;
	int P = p->size;
	if (P < 3)
		return;
	int *node_of = malloc((size_t)P * sizeof(int));
	double *ls = malloc((size_t)P * P * sizeof(double)), *ls2 = malloc((size_t)P * P * sizeof(double));
	struct cluster_layers L;
	struct as_error e = { 0 };
	memset(&L, 0, sizeof(L));
	if (node_of && ls && ls2) {
		for (int i = 0; i < P; i++)
			node_of[i] = p->ranks[i].node;
		cluster_slow_latency_spread(P, r->lat, r->p99, ls);
		cluster_slow_latency_spread(P, r->lat2, r->p99_2, ls2);
		/* layers of latency alone: a link slow in bandwidth is what a bandwidth split makes a layer of */
		if (cluster_layers_build(P, r->lat, r->p99, NULL, NULL, node_of, r->o->gap, &L, &e) == 0) {
			const double *bw = r->o->skip & CLI_CLUSTER_SKIP_BANDWIDTH ? NULL : r->bw;
			const double *shift = r->o->skip & CLI_CLUSTER_SKIP_SHIFT ? NULL : r->shift;
			r->nslow = cluster_slow_find(P, r->lat, ls, r->lat2, ls2, bw, r->bw_spread, shift, r->shift_spread, node_of,
						     &L, 0.02, r->slow, CLI_CLUSTER_MAX_SLOW);
			r->have_slow = 1;
			cluster_layers_release(&L);
		} else {
			note("no slow links judged: %s", e.msg);
		}
	}
	free(node_of);
	free(ls);
	free(ls2);
}

static int is_node(const struct cluster_slow *s)
{
	return s->b < 0;
}

static void render_one(struct emit *e, const struct cli_cluster_result *r, const struct cluster_slow *s)
{
	const struct cluster_place *p = r->place;
	const char *unit = cluster_slow_unit(s->what);
	emit_row_begin(e);
	emit_string(e, CL_KEY(SLOW_WHAT), "what", cluster_slow_what_name(s->what));
	if (emit_is_text(e)) {
		/* people read "2 -> 0 (node2 -> node0)" or a node's name */
		if (is_node(s))
			emit_text(e, "ranks (hosts)", "node %d (%s)", s->a, p->ranks[p->leader[s->a]].host);
		else
			emit_text(e, "ranks (hosts)", "%d %s %d (%s %s %s)", s->a, s->what == CLUSTER_SLOW_LATENCY ? "-" : "->",
				  s->b, p->ranks[s->a].host, s->what == CLUSTER_SLOW_LATENCY ? "-" : "->", p->ranks[s->b].host);
	}
	emit_array_begin(e, CL_KEY(SLOW_RANKS), NULL);
	for (int i = 0; i < p->size; i++)
		if (is_node(s) ? p->ranks[i].node == s->a : i == s->a)
			emit_int(e, NULL, NULL, i, NULL);
	if (!is_node(s))
		emit_int(e, NULL, NULL, s->b, NULL);
	emit_array_end(e);
	emit_array_begin(e, CL_KEY(SLOW_HOSTS), NULL);
	emit_string(e, NULL, NULL, is_node(s) ? p->ranks[p->leader[s->a]].host : p->ranks[s->a].host);
	if (!is_node(s))
		emit_string(e, NULL, NULL, p->ranks[s->b].host);
	emit_array_end(e);
	if (is_node(s))
		emit_int(e, CL_KEY(SLOW_NODE), NULL, s->a, NULL);
	else
		emit_null(e, CL_KEY(SLOW_NODE), NULL, NULL);
	emit_int(e, CL_KEY(SLOW_LAYER), "layer", s->layer + 1, NULL);
	emit_number(e, CL_KEY(SLOW_VALUE), "value", s->value, unit, cli_cluster_sig(s->value, 3));
	emit_number(e, CL_KEY(SLOW_MEDIAN), "layer median", s->layer_median, unit, cli_cluster_sig(s->layer_median, 3));
	emit_string(e, CL_KEY(SLOW_UNIT), NULL, unit);
	emit_number(e, CL_KEY(SLOW_NOISE), NULL, s->noise, NULL, NULL);
	emit_number(e, NULL, "threshold", 100 * s->noise, "%", "%.0f");
	emit_row_end(e);
}

/* What was judged (each figure measured twice) and what the sweeps ran in. */
static void render_basis(struct emit *e, const struct cli_cluster_result *r)
{
	int bw = !(r->o->skip & CLI_CLUSTER_SKIP_BANDWIDTH), shift = !(r->o->skip & CLI_CLUSTER_SKIP_SHIFT);
	emit_array_begin(e, CL_KEY(SLOW_JUDGED), NULL);
	emit_string(e, NULL, NULL, "latency");
	if (bw && shift)
		emit_string(e, NULL, NULL, "bandwidth");
	emit_array_end(e);
	if (bw && !shift)
		emit_heading(e, "  bandwidth not judged: measured once (--skip shift); a slow direction must be slow in the shift too");
	if (r->have_sweep_cond) {
		cli_conditions_render(e, CL_KEY(SLOW_COND), CL_KEY(SLOW_NOISY), &r->sweep_cond);
		if (r->sweep_cond.noisy)
			emit_heading(e, "  [noisy] the sweeps ran disturbed (%s): the verdict is flagged, a pair named may be healthy "
					"and a slow one missed; run again on a quiet machine", r->sweep_cond.why);
	}
}

void cli_cluster_render_slow(struct emit *e, const struct cli_cluster_result *r)
{
	if (!r->have_slow) {
		if (r->size < 3)
			emit_heading(e, "slow links: not judged (fewer than 3 ranks: no median says which one is off)");
		return;
	}
	int shown = r->nslow < CLI_CLUSTER_MAX_SLOW ? r->nslow : CLI_CLUSTER_MAX_SLOW;
	const char *flag = r->have_sweep_cond && r->sweep_cond.noisy ? " [noisy]" : "";
	if (shown == 0) {
		emit_table_begin(e, CL_KEY(SLOW), NULL);
		emit_table_end(e);
		emit_heading(e, "slow links and nodes%s: none (no pair worse than its layer's median by more than the run's "
				"repetition spread in both of its measurements)", flag);
		render_basis(e, r);
		return;
	}
	char title[300];
	snprintf(title, sizeof(title), "slow links and nodes%s (worse than the layer's median by more than the run's repetition "
		 "spread there, the threshold, in both of its measurements)", flag);
	emit_table_begin(e, CL_KEY(SLOW), title);
	/* the nodes first: they say where to look */
	for (int pass = 0; pass < 2; pass++)
		for (int k = 0; k < shown; k++)
			if (is_node(&r->slow[k]) == !pass)
				render_one(e, r, &r->slow[k]);
	emit_table_end(e);
	if (r->nslow > shown)
		emit_heading(e, "  (%d more not listed)", r->nslow - shown);
	render_basis(e, r);
}
