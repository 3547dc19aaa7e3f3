/* Unit tests of cluster/budget.c on synthetic placements: 4 nodes of 2 sockets of 2 ranks (three
 * layer classes: socket, node, across nodes), the tournament's rounds and the shift's distances as
 * steps. The order covers every class in its floor, a budget is kept, the choice is deterministic. */
#include <stdlib.h>
#include <string.h>

#include "cluster/budget.h"
#include "cluster/cluster.h"
#include "harness.h"

#define P 16

static int g_socket[P], g_node[P], g_all[P];

static void placement(void)
{
	for (int r = 0; r < P; r++)
		g_socket[r] = r / 2, g_node[r] = r / 4, g_all[r] = 0;
}

/* The pairs of the bandwidth sweep: every unordered pair, its step the tournament round. */
static int tournament_pairs(int *step, int *cls)
{
	const int *groups[3] = { g_socket, g_node, g_all };
	int n = 0;
	for (int r = 0; r < cluster_rounds(P); r++)
		for (int i = 0; i < P; i++) {
			int j = cluster_round_partner(P, r, i);
			if (j > i) {
				step[n] = r;
				cls[n++] = cluster_budget_class(groups, 3, i, j);
			}
		}
	return n;
}

/* The shift's: pair (i, i + k) measured in step k - 1. */
static int shift_pairs(int *step, int *cls)
{
	const int *groups[3] = { g_socket, g_node, g_all };
	int n = 0;
	for (int k = 1; k < P; k++)
		for (int i = 0; i < P; i++) {
			step[n] = k - 1;
			cls[n++] = cluster_budget_class(groups, 3, i, (i + k) % P);
		}
	return n;
}

/* Pairs of each class measured by the first m steps of order. */
static void covered(const int *order, int m, int npairs, const int *step, const int *cls, int per[4])
{
	memset(per, 0, 4 * sizeof(int));
	for (int k = 0; k < npairs; k++)
		for (int s = 0; s < m; s++)
			if (order[s] == step[k])
				per[cls[k]]++;
}

static void test_cluster_budget__floor_covers_every_class(void)
{
	int step[P * P], cls[P * P], order[P], floor = -1, per[4];
	placement();
	int np = tournament_pairs(step, cls);
	CHECK(np == P * (P - 1) / 2);
	int n = cluster_budget_order(np, step, cls, cluster_rounds(P), order, &floor);
	CHECK(n == cluster_rounds(P)); /* every round measures pairs: all are in the order once */
	CHECK(floor >= 1 && floor < n);
	covered(order, floor, np, step, cls, per);
	CHECK(per[0] >= 2 && per[1] >= 2 && per[2] >= 2);
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++)
			CHECK(order[a] != order[b]);
	/* the shift: 15 distances; socket pairs only at distance 1 and 15 */
	int sstep[P * P], scls[P * P], sorder[P], sfloor;
	int sn = shift_pairs(sstep, scls);
	CHECK(cluster_budget_order(sn, sstep, scls, P - 1, sorder, &sfloor) == P - 1);
	covered(sorder, sfloor, sn, sstep, scls, per);
	CHECK(per[0] >= 2 && per[1] >= 2 && per[2] >= 2);
	CHECK(sfloor <= 3);
	/* a class with a single pair: that pair, no more is asked of it */
	int st1[3] = { 0, 1, 2 }, cl1[3] = { 0, 1, 1 }, o1[3], f1;
	CHECK(cluster_budget_order(3, st1, cl1, 3, o1, &f1) == 3);
	CHECK(f1 == 3 && o1[0] == 0);
}

static void test_cluster_budget__respects_the_budget(void)
{
	/* all fit: all */
	CHECK(cluster_budget_fit(15, 3, 1.0, 15.0) == 15);
	CHECK(cluster_budget_fit(15, 3, 1.0, 100.0) == 15);
	/* as many as fit */
	CHECK(cluster_budget_fit(15, 3, 1.0, 7.5) == 7);
	CHECK(cluster_budget_fit(15, 3, 0.5, 7.5) == 15);
	for (double b = 3; b < 20; b += 0.25) {
		int m = cluster_budget_fit(15, 3, 1.0, b);
		CHECK(m * 1.0 <= b && m >= 3 && (m == 15 || (m + 1) * 1.0 > b));
	}
	/* the floor is kept even past the budget (the caller says so) */
	CHECK(cluster_budget_fit(15, 3, 1.0, 1.0) == 3);
	CHECK(cluster_budget_fit(15, 3, 1.0, 0) == 3);
	/* no cost known: all */
	CHECK(cluster_budget_fit(15, 3, 0, 1.0) == 15);
	CHECK(cluster_budget_fit(0, 0, 1.0, 1.0) == 0);
}

static void test_cluster_budget__deterministic_and_even(void)
{
	int step[P * P], cls[P * P], a[P], b[P], fa, fb, per[4];
	placement();
	int np = tournament_pairs(step, cls);
	int na = cluster_budget_order(np, step, cls, cluster_rounds(P), a, &fa);
	int nb = cluster_budget_order(np, step, cls, cluster_rounds(P), b, &fb);
	CHECK(na == nb && fa == fb && memcmp(a, b, sizeof(int) * (size_t)na) == 0);
	/* any prefix past the floor keeps every class measured */
	for (int m = fa; m <= na; m++) {
		covered(a, m, np, step, cls, per);
		CHECK(per[0] >= 2 && per[1] >= 2 && per[2] >= 2);
	}
	covered(a, na, np, step, cls, per);
	CHECK(per[0] == 8 && per[1] == 16 && per[2] == 96); /* all of them in the end */
	/* bad input */
	int bad[1] = { 99 }, zero[1] = { 0 };
	CHECK(cluster_budget_order(1, zero, bad, 1, a, &fa) == -1);
	CHECK(cluster_budget_order(1, bad, zero, 1, a, &fa) == -1);
	CHECK(cluster_budget_order(0, NULL, NULL, 0, a, &fa) == 0 && fa == 0);
}

TESTS(T(test_cluster_budget__floor_covers_every_class), T(test_cluster_budget__respects_the_budget),
      T(test_cluster_budget__deterministic_and_even))
