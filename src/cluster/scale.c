/* The time of a run at scale from a measured run's step costs (see scale.h): the tournament's
 * rounds for latency and bandwidth, P - 1 shift steps, one LogGP per layer, contention's steps. */
#include "cluster/scale.h"

#include <math.h>

static double cost(double v)
{
	return isfinite(v) && v > 0 ? v : 0;
}

void cluster_scale_estimate(const struct cluster_step_costs *c, int nodes, int per_node, int layers, int one_pair,
			    struct cluster_scale *out)
{
	long long p = (long long)nodes * per_node;
	/* circle method: P - 1 rounds for even P, P for odd; one pair a step: P(P-1)/2 */
	long long rounds = p < 2 ? 0 : one_pair ? p * (p - 1) / 2 : (p % 2 ? p : p - 1);
	long long shift = p < 2 ? 0 : p - 1;
	/* contention: k = 1, 2, 4, ... up to the ranks of a node, and that number itself */
	long long cont = 0;
	int k;
	for (k = 1; k <= per_node; k *= 2)
		cont++;
	if (k / 2 != per_node)
		cont++;
	if (p < 2)
		cont = 0;
	out->nodes = nodes;
	out->per_node = per_node;
	out->ranks = p;
	out->steps = (c->latency_ms > 0 ? rounds : 0) + (c->bandwidth_ms > 0 ? rounds : 0) + (c->shift_ms > 0 ? shift : 0) +
		     (c->loggp_s > 0 ? layers : 0) + (c->contention_ms > 0 ? cont : 0);
	out->seconds = cost(c->nodes_s) + 1e-3 * (double)rounds * (cost(c->latency_ms) + cost(c->bandwidth_ms)) +
		       1e-3 * (double)shift * cost(c->shift_ms) + layers * cost(c->loggp_s) +
		       1e-3 * (double)cont * cost(c->contention_ms);
}

double cluster_scale_budgeted(const struct cluster_step_costs *c, int nodes, int per_node, int layers, int one_pair,
			      double budget_s, const int floor_steps[2])
{
	struct cluster_scale full, rest, before;
	struct cluster_step_costs no_sweeps = *c, first = { .nodes_s = c->nodes_s, .latency_ms = c->latency_ms };
	no_sweeps.bandwidth_ms = no_sweeps.shift_ms = 0;
	cluster_scale_estimate(c, nodes, per_node, layers, one_pair, &full);
	cluster_scale_estimate(&no_sweeps, nodes, per_node, layers, one_pair, &rest);
	cluster_scale_estimate(&first, nodes, per_node, 0, one_pair, &before);
	double sweeps = full.seconds - rest.seconds;
	double floor = 1e-3 * (floor_steps[0] * cost(c->bandwidth_ms) + floor_steps[1] * cost(c->shift_ms));
	double left = budget_s - before.seconds;
	double allowed = left > floor ? left : floor;
	return rest.seconds + (sweeps < allowed ? sweeps : allowed);
}
