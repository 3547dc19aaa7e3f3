/* Slow links and nodes (slow.c; pure): within each layer, the pairs of ranks and the nodes whose
 * latency or bandwidth is off the layer's median by more than the run's own repetition spread. */
#ifndef ARCHSCOPE_CLUSTER_SLOW_H
#define ARCHSCOPE_CLUSTER_SLOW_H

#include "cluster/cluster.h"

enum cluster_slow_what {
	CLUSTER_SLOW_LATENCY,        /* a pair: its latency (both directions, one value) */
	CLUSTER_SLOW_BANDWIDTH,      /* a pair: its bandwidth from a to b */
	CLUSTER_SLOW_NODE_LATENCY,   /* a node: the latency of its links in the layer */
	CLUSTER_SLOW_NODE_SENDING,   /* a node: the bandwidth of its links out of it */
	CLUSTER_SLOW_NODE_RECEIVING, /* a node: the bandwidth of its links into it */
};

/* Its name in results.slow[].what: "latency", "bandwidth", "node latency", "node sending",
 * "node receiving". */
const char *cluster_slow_what_name(enum cluster_slow_what w);
/* Its unit: "us" or "GB/s". */
const char *cluster_slow_unit(enum cluster_slow_what w);

struct cluster_slow {
	enum cluster_slow_what what;
	int a, b;                /* a pair: ranks a and b (bandwidth: from a to b); a node: its node index in a, b = -1 */
	int layer;               /* the layer (innermost 0) */
	double value;            /* the pair's figure, or the median of the node's links in the layer */
	double layer_median;     /* the median of the layer's pairs (latency: per pair; bandwidth: per direction) */
	double noise;            /* the threshold (relative): latency the largest repetition spread of the
				  * layer's pairs, bandwidth the median one */
};

/* The spreads of the repetitions behind each pair's figure, relative (0.1: 10 %), size x size
 * (NaN: unknown): latency (p99 - median) / median of its ping-pongs; bandwidth (max - min) /
 * median of its windows. A figure is slow when it is worse than the layer's median by more than
 * the run's noise of it (at least `floor`; as the node comparison's noise): latency / median - 1
 * or median / bandwidth - 1 above it. Every figure must have been measured twice, at different
 * times, and both measurements must find it so, each against its own median and noise: latency
 * by two sweeps (lat_us and lat2_us; the noise of each the largest spread of the layer's pairs),
 * bandwidth one pair at a time (bw) and every rank at once (shift, mpiGraph's pattern; the noise
 * of each the median spread of the layer's pairs: one pair's erratic windows, a 30-fold spread
 * when one window ran while the machine was free, must not hide a degraded link). A figure
 * measured once (lat2_us or shift_gbs NULL) names nothing: on a loaded machine pairs differ by
 * more than one pair's repetitions do (where their ranks were scheduled in that step), and that
 * does not carry over to another measurement; a degraded link does. A node (node_of[rank];
 * NULL: each rank its own) is slow in a layer when more than half of its links there are (at
 * least 2 of them), in one direction for bandwidth. A layer needs at least 3 values of a figure
 * to have a median that says anything. layers: which pairs meet in which layer (build them from
 * latency alone: a link slow in bandwidth is what a bandwidth split would make a layer of).
 * Returns the count written to out (<= max). */
int cluster_slow_find(int size, const double *lat_us, const double *lat_spread, const double *lat2_us,
		      const double *lat2_spread, const double *bw_gbs, const double *bw_spread, const double *shift_gbs,
		      const double *shift_spread, const int *node_of, const struct cluster_layers *layers, double floor,
		      struct cluster_slow *out, int max);

/* The relative spread of latency from the median and p99 matrices: (p99 - med) / med per pair,
 * into spread (size x size, NaN where unknown). */
void cluster_slow_latency_spread(int size, const double *med_us, const double *p99_us, double *spread);

#endif
