/* The time of a run at scale, on paper (scale.c; pure): the steps a default run takes at N nodes
 * and what they cost at the step times a measured run had. */
#ifndef ARCHSCOPE_CLUSTER_SCALE_H
#define ARCHSCOPE_CLUSTER_SCALE_H

/* What each phase of a measured run cost: per step where the phase has P-dependent steps. NaN
 * or 0: the phase was not run (it then costs nothing in the estimate). */
struct cluster_step_costs {
	double nodes_s;          /* the node probes, once (every leader at once) */
	double latency_ms;       /* per step (a round of the tournament) */
	double bandwidth_ms;
	double shift_ms;
	double loggp_s;          /* per layer */
	double contention_ms;    /* per step (k = 1, 2, 4, ... pairs per node) */
};

struct cluster_scale {
	int nodes, per_node;
	long long ranks;
	long long steps;         /* every phase's steps */
	double seconds;
};

/* The steps of a default run on nodes x per_node ranks (rounds of disjoint pairs, or one pair a
 * step with one_pair) with `layers` LogGP pairs, and their time at the costs c. */
void cluster_scale_estimate(const struct cluster_step_costs *c, int nodes, int per_node, int layers, int one_pair,
			    struct cluster_scale *out);

/* The same run under a time budget (cluster --budget): the bandwidth and shift sweeps take their
 * floor of steps (floor_steps[0] of bandwidth, [1] of the shift: pairs per layer class, as many at
 * scale as in this run) and then what the budget leaves after the nodes and latency, up to their
 * whole time; the other phases as without. Seconds. */
double cluster_scale_budgeted(const struct cluster_step_costs *c, int nodes, int per_node, int layers, int one_pair,
			      double budget_s, const int floor_steps[2]);

#endif
