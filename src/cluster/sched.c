/* The schedule of the pair sweeps: the round-robin tournament by the circle method, so that P
 * ranks meet every partner in P - 1 rounds (P rounds for odd P) of disjoint pairs. */
#include "cluster/cluster.h"

int cluster_rounds(int p)
{
	if (p < 2)
		return 0;
	return p % 2 ? p : p - 1;
}

int cluster_round_partner(int p, int r, int i)
{
	int n = p + p % 2; /* odd p: a phantom rank n - 1; its partner sits out */
	if (p < 2 || r < 0 || r >= n - 1 || i < 0 || i >= p)
		return -1;
	int j;
	if (i == n - 1)
		j = r;
	else if (i == r)
		j = n - 1;
	else
		j = ((2 * r - i) % (n - 1) + (n - 1)) % (n - 1);
	return j < p ? j : -1;
}
