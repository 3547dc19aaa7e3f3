/* Unit tests of the locality tree (analysis/clique.c) on synthetic bandwidth matrices. */
#include <stdlib.h>

#include "analysis/clique.h"
#include "common/rng.h"
#include "harness.h"

/* 8 cores, two sockets of four: 10 GB/s within a socket, 5 GB/s across, 3 % noise. */
static void two_sockets(double *m, uint64_t seed, double intra, double inter)
{
	struct rng r;
	rng_init(&r, seed);
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++) {
			double base = i == j ? 0 : (i / 4 == j / 4) ? intra : inter;
			m[i * 8 + j] = base * (1 + 0.03 * (2.0 * (double)(rng_next(&r) >> 11) / 9007199254740992.0 - 1));
		}
}

static void test_clique__two_sockets_give_two_cliques_of_four(void)
{
	double big[64], small[64];
	two_sockets(big, 1, 10, 5);
	two_sockets(small, 2, 30, 29); /* in-cache blocks: no further asymmetry */
	const double *mats[] = { big, small };
	struct clique_tree t;
	CHECK(clique_tree_build(mats, 2, 8, 1.25, &t) == 0);
	CHECK(t.nnodes == 3);
	CHECK(clique_tree_leaves(&t) == 2);
	CHECK(t.node[1].n == 4 && t.node[2].n == 4);
	CHECK(t.node[1].parent == 0 && t.node[1].depth == 1 && t.node[1].split_at == 0);
	for (int i = 0; i < 4; i++) {
		CHECK(t.node[1].member[i] / 4 == t.node[1].member[0] / 4);
		CHECK(t.node[2].member[i] / 4 == t.node[2].member[0] / 4);
	}
	CHECK(t.node[1].member[0] / 4 != t.node[2].member[0] / 4);
}

static void test_clique__uniform_matrix_is_one_level(void)
{
	double m[4] = { 0, 7.0, 7.1, 0 };
	const double *mats[] = { m };
	struct clique_tree t;
	CHECK(clique_tree_build(mats, 1, 2, 1.25, &t) == 0);
	CHECK(t.nnodes == 1);
	CHECK(clique_tree_leaves(&t) == 1);
	CHECK(t.node[0].n == 2);
}

static void test_clique__nested_split_on_smaller_blocks(void)
{
	/* Largest block: sockets {0-3},{4-7}. Smaller block: pairs sharing an L2 ({0,1},{2,3},...)
	 * are faster within each socket. */
	double big[64], small[64];
	two_sockets(big, 3, 10, 5);
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++)
			small[i * 8 + j] = i == j ? 0 : (i / 2 == j / 2) ? 40 : (i / 4 == j / 4) ? 20 : 10;
	const double *mats[] = { big, small };
	struct clique_tree t;
	CHECK(clique_tree_build(mats, 2, 8, 1.25, &t) == 0);
	CHECK(clique_tree_leaves(&t) == 4);
	CHECK(t.nnodes == 7);
	for (int i = 3; i < 7; i++) {
		CHECK(t.node[i].depth == 2 && t.node[i].n == 2);
		CHECK(t.node[i].member[0] / 2 == t.node[i].member[1] / 2);
	}
}

static void test_clique__bad_input(void)
{
	struct clique_tree t;
	CHECK(clique_tree_build(NULL, 0, 0, 1.25, &t) == -1);
	CHECK(clique_tree_build(NULL, 0, 4, 1.0, &t) == -1);
	CHECK(clique_tree_build(NULL, 0, 4, 1.25, &t) == 0 && t.nnodes == 1);
}

TESTS(T(test_clique__two_sockets_give_two_cliques_of_four), T(test_clique__uniform_matrix_is_one_level),
      T(test_clique__nested_split_on_smaller_blocks), T(test_clique__bad_input))
