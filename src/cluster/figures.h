/* The groups of figures a node's leader measures (`cluster --probes`), with their names: MPI-free,
 * so that archscope's option parser (cli/cmd-cluster.c) and cluster/ share one list. */
#ifndef ARCHSCOPE_CLUSTER_FIGURES_H
#define ARCHSCOPE_CLUSTER_FIGURES_H

#define CLUSTER_FIGS(X)                                                                                     \
	X(CLUSTER_FIG_CLOCK, "clock")                                                                           \
	X(CLUSTER_FIG_CACHES, "caches")                                                                         \
	X(CLUSTER_FIG_BANDWIDTH, "bandwidth")                                                                   \
	X(CLUSTER_FIG_CONTEXTS, "contexts")

/* An X-macro list of (ID, "name") rows as flag bits: ID_I its index, ID = 1 << ID_I, and its names. */
#define CLUSTER_X_INDEX(id, name) id##_I,
#define CLUSTER_X_FLAG(id, name) id = 1 << id##_I,
#define CLUSTER_X_NAME(id, name) name,

enum { CLUSTER_FIGS(CLUSTER_X_INDEX) CLUSTER_FIG_COUNT };
enum { CLUSTER_FIGS(CLUSTER_X_FLAG) CLUSTER_FIG_ALL = (1 << CLUSTER_FIG_COUNT) - 1 };

#endif
