/* Steps of a sweep ordered for a time budget by the layer class of their pairs (see budget.h). */
#include "cluster/budget.h"

#include <stdlib.h>

#define MAX_CLASSES 64

/* Marks step s chosen and counts its pairs into done[] per class. */
static void take(int s, int npairs, const int *step, const int *cls, unsigned char *chosen, int *done)
{
	chosen[s] = 1;
	for (int k = 0; k < npairs; k++)
		if (step[k] == s)
			done[cls[k]]++;
}

/* The lowest step not chosen that measures a pair of class c; -1 when none is left. */
static int next_step(int c, int npairs, const int *step, const int *cls, const unsigned char *chosen)
{
	int best = -1;
	for (int k = 0; k < npairs; k++)
		if (cls[k] == c && !chosen[step[k]] && (best < 0 || step[k] < best))
			best = step[k];
	return best;
}

int cluster_budget_order(int npairs, const int *step, const int *cls, int nsteps, int *order, int *floor)
{
	int total[MAX_CLASSES] = { 0 }, done[MAX_CLASSES] = { 0 }, nclasses = 0, n = 0;
	if (npairs < 0 || nsteps < 0 || (npairs && (!step || !cls)) || !order || !floor)
		return -1;
	for (int k = 0; k < npairs; k++) {
		if (cls[k] < 0 || cls[k] >= MAX_CLASSES || step[k] < 0 || step[k] >= nsteps)
			return -1;
		total[cls[k]]++;
		nclasses = cls[k] + 1 > nclasses ? cls[k] + 1 : nclasses;
	}
	unsigned char *chosen = calloc((size_t)nsteps + 1, 1);
	if (!chosen)
		return -1;
	/* the floor: classes in order, each up to min(FLOOR, its pairs) */
	for (int c = 0; c < nclasses; c++) {
		int want = total[c] < CLUSTER_BUDGET_FLOOR ? total[c] : CLUSTER_BUDGET_FLOOR, s;
		while (done[c] < want && (s = next_step(c, npairs, step, cls, chosen)) >= 0) {
			take(s, npairs, step, cls, chosen, done);
			order[n++] = s;
		}
	}
	*floor = n;
	/* then the class with the least measured share first, one step at a time */
	for (;;) {
		int best = -1, s = -1;
		for (int c = 0; c < nclasses; c++) {
			int t = next_step(c, npairs, step, cls, chosen);
			if (t < 0)
				continue;
			/* done[c] / total[c] < done[best] / total[best], without division */
			if (best < 0 || (long long)done[c] * total[best] < (long long)done[best] * total[c])
				best = c, s = t;
		}
		if (best < 0)
			break;
		take(s, npairs, step, cls, chosen, done);
		order[n++] = s;
	}
	free(chosen);
	return n;
}

int cluster_budget_fit(int n, int floor, double step_s, double budget_s)
{
	if (n <= 0)
		return 0;
	if (!(step_s > 0) || step_s * n <= budget_s)
		return n;
	int fit = budget_s > 0 ? (int)(budget_s / step_s) : 0;
	if (fit < floor)
		fit = floor;
	return fit < n ? fit : n;
}

int cluster_budget_class(const int *const *group, int nlayers, int i, int j)
{
	for (int k = 0; k < nlayers; k++)
		if (group[k] && group[k][i] == group[k][j])
			return k;
	return nlayers;
}
