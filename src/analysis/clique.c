/* Locality tree by clique splitting (see clique.h). */
#include "analysis/clique.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Splits `members` by the pair bandwidths in m; writes component ids into comp[] (0..k-1) and
 * returns k (1 when the clique stays whole). */
static int split(const double *m, int ncores, const int *members, int n, double gap, int *comp)
{
	int pairs = n * (n - 1) / 2;
	if (n < 2 || pairs < 1)
		return 1;
	double *v = malloc((size_t)pairs * sizeof(double));
	if (!v)
		return 1;
	int p = 0;
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++) {
			/* a pair's bandwidth: the mean of both directions */
			v[p++] = 0.5 * (m[members[a] * ncores + members[b]] + m[members[b] * ncores + members[a]]);
		}
	qsort(v, (size_t)pairs, sizeof(double), cmp_double);
	/* The biggest relative gap between consecutive sorted pair values separates slow from fast. */
	double best = 1.0, threshold = INFINITY;
	for (int i = 0; i + 1 < pairs; i++)
		if (v[i] > 0 && v[i + 1] / v[i] > best) {
			best = v[i + 1] / v[i];
			threshold = 0.5 * (v[i] + v[i + 1]);
		}
	free(v);
	if (best < gap)
		return 1;
	/* Connected components over the fast pairs (union-find on member positions). */
	int parent[CLIQUE_MAX_CORES];
	for (int a = 0; a < n; a++)
		parent[a] = a;
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++) {
			double bw = 0.5 * (m[members[a] * ncores + members[b]] + m[members[b] * ncores + members[a]]);
			if (bw < threshold)
				continue;
			int ra = a, rb = b;
			while (parent[ra] != ra)
				ra = parent[ra];
			while (parent[rb] != rb)
				rb = parent[rb];
			if (ra != rb)
				parent[rb] = ra;
		}
	int k = 0, id[CLIQUE_MAX_CORES];
	for (int a = 0; a < n; a++)
		id[a] = -1;
	for (int a = 0; a < n; a++) {
		int r = a;
		while (parent[r] != r)
			r = parent[r];
		if (id[r] < 0)
			id[r] = k++;
		comp[a] = id[r];
	}
	return k;
}

int clique_tree_build(const double *const *bw, int nmatrices, int ncores, double gap, struct clique_tree *out)
{
	memset(out, 0, sizeof(*out));
	if (ncores < 1 || ncores > CLIQUE_MAX_CORES || nmatrices < 0 || !(gap > 1.0))
		return -1;
	struct clique_node *root = &out->node[0];
	root->parent = -1;
	root->split_at = -1;
	root->n = ncores;
	for (int i = 0; i < ncores; i++)
		root->member[i] = i;
	out->nnodes = 1;
	/* Leaves of the tree so far; each matrix may split each of them. */
	int leaves[CLIQUE_MAX_NODES], nleaves = 1;
	leaves[0] = 0;
	for (int m = 0; m < nmatrices; m++) {
		int next[CLIQUE_MAX_NODES], nnext = 0;
		for (int l = 0; l < nleaves; l++) {
			struct clique_node *c = &out->node[leaves[l]];
			int comp[CLIQUE_MAX_CORES];
			int k = split(bw[m], ncores, c->member, c->n, gap, comp);
			if (k <= 1 || out->nnodes + k > CLIQUE_MAX_NODES) {
				next[nnext++] = leaves[l];
				continue;
			}
			for (int g = 0; g < k; g++) {
				struct clique_node *ch = &out->node[out->nnodes];
				memset(ch, 0, sizeof(*ch));
				ch->parent = leaves[l];
				ch->depth = c->depth + 1;
				ch->split_at = m;
				for (int a = 0; a < c->n; a++)
					if (comp[a] == g)
						ch->member[ch->n++] = c->member[a];
				next[nnext++] = out->nnodes++;
			}
		}
		memcpy(leaves, next, sizeof(int) * (size_t)nnext);
		nleaves = nnext;
	}
	return 0;
}

int clique_tree_leaves(const struct clique_tree *t)
{
	int leaves = 0;
	for (int i = 0; i < t->nnodes; i++) {
		int has_child = 0;
		for (int j = i + 1; j < t->nnodes && !has_child; j++)
			has_child = t->node[j].parent == i;
		leaves += !has_child;
	}
	return leaves;
}
