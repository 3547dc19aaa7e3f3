/* archscope-cluster's run at scale, on paper: this run's step costs (its phase table) put into
 * cluster/scale.h's count of the steps at 16, 128 and 1,024 nodes (results.scale[], a text table), and
 * what --budget measured of the sweeps (results.budget[]). */
#include <math.h>
#include <string.h>

#include "cli/cluster/cmd-cluster-impl.h"
#include "cluster/scale.h"
#include "machine/result-cluster.h"
#include "report/emit.h"

/* The step costs of this run's phases (per step; the nodes phase whole, LogGP per layer). */
static void run_costs(const struct cli_cluster_result *r, struct cluster_step_costs *c, int *layers)
{
	memset(c, 0, sizeof(*c));
	*layers = 0;
	for (int k = 0; k < r->nphases; k++) {
		const struct cli_cluster_phase_time *t = &r->phase[k];
		double per_ms = t->steps > 0 ? 1e3 * t->seconds / t->steps : NAN;
		if (strcmp(t->phase, "nodes") == 0)
			c->nodes_s = t->seconds;
		else if (strcmp(t->phase, "latency") == 0)
			c->latency_ms = per_ms;
		else if (strcmp(t->phase, "bandwidth") == 0)
			c->bandwidth_ms = per_ms;
		else if (strcmp(t->phase, "shift") == 0)
			c->shift_ms = per_ms;
		else if (strcmp(t->phase, "loggp") == 0 && t->steps > 0)
			c->loggp_s = t->seconds / t->steps, *layers = t->steps;
		else if (strcmp(t->phase, "contention") == 0)
			c->contention_ms = per_ms;
	}
	/* at scale every node is a machine of its own and the leaders probe at once: the nodes
	 * phase takes the longest node's probes (here nodes of one machine took turns) */
	if (r->nodes_measured && r->place->nnodes > 0) {
		double longest = 0;
		for (int n = 0; n < r->place->nnodes; n++)
			if (r->nodes[n].seconds > longest)
				longest = r->nodes[n].seconds;
		c->nodes_s = longest;
	}
}

void cli_cluster_render_scale(struct emit *e, const struct cli_cluster_result *r)
{
	static const int nodes[] = { 16, 128, 1024 };
	struct cluster_step_costs c;
	int layers;
	run_costs(r, &c, &layers);
	int per_node = r->place->nnodes > 0 ? (r->size + r->place->nnodes - 1) / r->place->nnodes : 1;
	/* a cluster's layers: one more (the switches) than here, where there are any */
	emit_table_begin(e, CL_KEY(SCALE),
			 "this run at scale, on paper: its cost per step, the pairs of a round at once (a network of "
			 "full bisection)");
	for (size_t k = 0; k < sizeof(nodes) / sizeof(nodes[0]); k++) {
		struct cluster_scale s;
		cluster_scale_estimate(&c, nodes[k], per_node, layers, 0, &s);
		emit_row_begin(e);
		emit_int(e, CL_KEY(SCALE_NODES), "nodes", s.nodes, NULL);
		emit_int(e, CL_KEY(SCALE_PER_NODE), "ranks per node", s.per_node, NULL);
		emit_int(e, CL_KEY(SCALE_STEPS), "steps", s.steps, NULL);
		emit_number(e, CL_KEY(SCALE_SECONDS), "time", s.seconds, "s", cli_cluster_sig(s.seconds, 3));
		emit_number(e, NULL, "in minutes", s.seconds / 60, "min", cli_cluster_sig(s.seconds / 60, 3));
		if (r->o->budget_s > 0) {
			double b = cluster_scale_budgeted(&c, nodes[k], per_node, layers, 0, r->o->budget_s, r->budget_floor);
			emit_number(e, CL_KEY(SCALE_BUDGETED), "with --budget", b, "s", cli_cluster_sig(b, 3));
		}
		emit_row_end(e);
	}
	emit_table_end(e);
}

void cli_cluster_render_budget(struct emit *e, const struct cli_cluster_result *r)
{
	static const char *const phase[2] = { "bandwidth", "shift" };
	const double *m[2] = { r->bw, r->shift };
	if (!r->budgeted[0] && !r->budgeted[1])
		return;
	emit_table_begin(e, CL_KEY(BUDGET),
			 "--budget: the pairs measured, per layer class (the others not measured: \"none\" in the matrices)");
	for (int k = 0; k < 2; k++) {
		if (!r->budgeted[k])
			continue;
		emit_row_begin(e);
		emit_string(e, CL_KEY(BUDGET_PHASE), "sweep", phase[k]);
		emit_number(e, CL_KEY(BUDGET_SECONDS), "budget", r->o->budget_s, "s", cli_cluster_sig(r->o->budget_s, 3));
		emit_int(e, CL_KEY(BUDGET_STEPS), "steps run", r->budget_ran[k], NULL);
		emit_int(e, CL_KEY(BUDGET_ALL_STEPS), "of", r->budget_steps[k], NULL);
		emit_int(e, CL_KEY(BUDGET_FLOOR), "floor", r->budget_floor[k], NULL);
		emit_int(e, CL_KEY(BUDGET_PAIRS), "pairs measured", cluster_matrix_measured(m[k], r->size), "pairs");
		emit_int(e, CL_KEY(BUDGET_ALL_PAIRS), "of", (long long)r->size * (r->size - 1), "pairs");
		emit_bool(e, CL_KEY(BUDGET_OVER), "over budget", r->budget_over[k]);
		emit_row_end(e);
	}
	emit_table_end(e);
}
