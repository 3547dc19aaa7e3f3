/* Unit tests of cluster/scale.c: the steps and time of a default run at N nodes from given step
 * costs, counted by hand. */
#include <math.h>

#include "cluster/scale.h"
#include "harness.h"

static void test_cluster_scale__steps_and_time_by_hand(void)
{
	struct cluster_step_costs c = { .nodes_s = 10, .latency_ms = 2, .bandwidth_ms = 50, .shift_ms = 50, .loggp_s = 1,
					.contention_ms = 100 };
	struct cluster_scale s;
	/* 16 nodes, one rank each: 15 rounds of latency and of bandwidth, 15 shift steps, one LogGP
	 * layer, contention at k = 1 */
	cluster_scale_estimate(&c, 16, 1, 1, 0, &s);
	CHECK(s.ranks == 16 && s.steps == 15 + 15 + 15 + 1 + 1);
	CHECK_NEAR(s.seconds, 10 + 15 * 0.052 + 15 * 0.05 + 1 + 0.1, 1e-9);
	cluster_scale_estimate(&c, 1024, 1, 1, 0, &s);
	CHECK(s.steps == 1023 * 3 + 2);
	CHECK_NEAR(s.seconds, 10 + 1023 * 0.052 + 1023 * 0.05 + 1 + 0.1, 1e-9);
	/* odd P: P rounds; 3 ranks a node: contention at k = 1, 2, 3 */
	cluster_scale_estimate(&c, 3, 3, 2, 0, &s);
	CHECK(s.ranks == 9 && s.steps == 9 + 9 + 8 + 2 + 3);
	/* one pair a step: P(P-1)/2 */
	cluster_scale_estimate(&c, 4, 1, 1, 1, &s);
	CHECK(s.steps == 6 + 6 + 3 + 1 + 1);
	/* phases not run cost nothing and take no steps */
	struct cluster_step_costs lat = { .latency_ms = 1, .bandwidth_ms = NAN };
	cluster_scale_estimate(&lat, 128, 1, 2, 0, &s);
	CHECK(s.steps == 127);
	CHECK_NEAR(s.seconds, 0.127, 1e-12);
	cluster_scale_estimate(&c, 1, 1, 1, 0, &s);
	CHECK(s.steps == 1 && s.seconds == 10 + 1); /* one rank: no pairs, the probes and LogGP's layer only */
}

static void test_cluster_scale__budgeted_by_hand(void)
{
	struct cluster_step_costs c = { .nodes_s = 10, .latency_ms = 2, .bandwidth_ms = 50, .shift_ms = 50, .loggp_s = 1,
					.contention_ms = 100 };
	const int floor[2] = { 2, 1 };
	/* 16 nodes: 10 s + 15 x 2 ms before the sweeps; the sweeps 15 x 50 ms each (1.5 s), the rest 1.1 s */
	double all = 10 + 15 * 0.052 + 15 * 0.05 + 1 + 0.1;
	CHECK_NEAR(cluster_scale_budgeted(&c, 16, 1, 1, 0, 1000, floor), all, 1e-9);
	/* 11 s: 10.03 s before, 0.97 s left of the 1.5 s of sweeps */
	CHECK_NEAR(cluster_scale_budgeted(&c, 16, 1, 1, 0, 11, floor), 10.03 + 0.97 + 1.1, 1e-9);
	/* too small: the floor, 3 steps of 50 ms */
	CHECK_NEAR(cluster_scale_budgeted(&c, 16, 1, 1, 0, 1, floor), 10.03 + 0.15 + 1.1, 1e-9);
	/* at 1,024 nodes the budget caps what grew with P */
	double b = cluster_scale_budgeted(&c, 1024, 1, 1, 0, 60, floor);
	CHECK_NEAR(b, 60 + 1 + 0.1, 1e-9);
	struct cluster_scale s;
	cluster_scale_estimate(&c, 1024, 1, 1, 0, &s);
	CHECK(b < s.seconds);
}

TESTS(T(test_cluster_scale__steps_and_time_by_hand), T(test_cluster_scale__budgeted_by_hand))
