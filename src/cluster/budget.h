/* A time budget for the expensive sweeps (budget.c; pure): which steps of a sweep run, chosen by
 * the layer class of the pairs they measure, as probe's c2c picks pairs per topology class. A step
 * measures one or more pairs (a round of disjoint pairs, one pair, or a shift distance); the steps
 * are put in an order: first the floor (steps until every class has min(2, its pairs) pairs
 * measured), then one step per class in turn (the class with the fewest pairs measured first), so
 * that any prefix of the order covers the classes as evenly as it can. */
#ifndef ARCHSCOPE_CLUSTER_BUDGET_H
#define ARCHSCOPE_CLUSTER_BUDGET_H

#define CLUSTER_BUDGET_FLOOR 2   /* pairs per class measured at least, where the class has them */

/* npairs pairs, pair k measured by step step[k] (0..nsteps-1) and of class cls[k] (0..nclasses-1,
 * nclasses <= 64). Writes every step that measures a pair into order[] (at most nsteps), the floor
 * first, and the floor's length in *floor. Returns the steps written, or -1 on bad input. */
int cluster_budget_order(int npairs, const int *step, const int *cls, int nsteps, int *order, int *floor);

/* How many of n ordered steps of step_s seconds each fit in budget_s: all when they fit, else as
 * many as fit but never fewer than the floor (the floor may exceed the budget; the caller says so). */
int cluster_budget_fit(int n, int floor, double step_s, double budget_s);

/* The layer class of pair (i, j) for the order: the innermost layer (0-based) in which they share a
 * group, from group[k][rank] of nlayers layers; nlayers when none. */
int cluster_budget_class(const int *const *group, int nlayers, int i, int j);

#endif
