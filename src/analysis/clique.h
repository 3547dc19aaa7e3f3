/* The locality tree of BlackjackBench §3.1.4: starting from one clique of all cores, each
 * bandwidth matrix (largest block size first) splits every clique into sub-cliques of cores that
 * communicate faster with each other than with the rest of the clique. */
#ifndef ARCHSCOPE_ANALYSIS_CLIQUE_H
#define ARCHSCOPE_ANALYSIS_CLIQUE_H

#include <stddef.h>

#define CLIQUE_MAX_CORES 256
#define CLIQUE_MAX_NODES 512

struct clique_node {
	int parent;          /* index of the parent node, -1 for the root */
	int depth;           /* 0 for the root */
	int split_at;        /* index of the matrix whose data split this node off (-1: root) */
	int n;
	int member[CLIQUE_MAX_CORES];  /* core indices (0..ncores-1) */
};

struct clique_tree {
	int nnodes;
	struct clique_node node[CLIQUE_MAX_NODES];
};

/* bw[m][i*ncores + j]: bandwidth between cores i and j for the m-th block size, matrices ordered
 * from the largest block size down (the paper's order). A clique splits when the bandwidths among
 * its members form two groups (the faster group at least `gap` times the slower, e.g. 1.25), into
 * the connected components of the faster pairs; a lone core with no fast pair stays on its own.
 * Returns 0, or -1 on bad input. */
int clique_tree_build(const double *const *bw, int nmatrices, int ncores, double gap, struct clique_tree *out);

/* Number of leaves (nodes without children). */
int clique_tree_leaves(const struct clique_tree *t);

#endif
