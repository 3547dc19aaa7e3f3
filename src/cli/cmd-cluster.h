/* archscope cluster's options, shared by the command in archscope (which checks them, prints
 * --help and runs archscope-cluster) and by archscope-cluster itself (src/cli/cluster/, the only
 * executable that links Open MPI). No MPI header here. */
#ifndef ARCHSCOPE_CLI_CMD_CLUSTER_H
#define ARCHSCOPE_CLI_CMD_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "cluster/figures.h"

#define CLI_CLUSTER_MAX_SIZES 16
#define CLI_CLUSTER_MAX_P2P_SIZES 32   /* as CLUSTER_P2P_MAX_SIZES */

/* --skip: the parts a run may leave out, as flag bits, with their words */
#define CLI_CLUSTER_SKIPS(X)                                                                                \
	X(CLI_CLUSTER_SKIP_NODES, "nodes")                                                                      \
	X(CLI_CLUSTER_SKIP_BANDWIDTH, "bandwidth")                                                              \
	X(CLI_CLUSTER_SKIP_SHIFT, "shift")                                                                      \
	X(CLI_CLUSTER_SKIP_LOGGP, "loggp")                                                                      \
	X(CLI_CLUSTER_SKIP_CONTENTION, "contention")                                                            \
	X(CLI_CLUSTER_SKIP_P2P, "p2p")                                                                          \
	X(CLI_CLUSTER_SKIP_COLLECTIVES, "collectives")
enum { CLI_CLUSTER_SKIPS(CLUSTER_X_INDEX) CLI_CLUSTER_SKIP_COUNT };
enum { CLI_CLUSTER_SKIPS(CLUSTER_X_FLAG) };

struct cli_cluster_opts {
	int json;
	const char *plot_dir, *raw_dir, *machine_dir;
	int reps, window, bursts, one_pair;
	size_t bw_bytes;
	int nsizes;                 /* --pair-sizes: every pair's ping-pong per size */
	size_t sizes[CLI_CLUSTER_MAX_SIZES];
	int np2p;                   /* --sizes: osu_latency, osu_bw, osu_bibw per size (default 1 B ... 4 MiB) */
	size_t p2p_sizes[CLI_CLUSTER_MAX_P2P_SIZES];
	int osu_counts;
	int ncoll;                  /* --coll-sizes: the collectives' message sizes (default 8, 1KiB, 64KiB, 1MiB) */
	size_t coll_sizes[CLI_CLUSTER_MAX_SIZES];             /* --osu-counts: osu's own iteration counts */
	unsigned skip;
	unsigned figures;           /* CLUSTER_FIG_* bits (cluster/figures.h) */
	size_t node_bytes;          /* --node-memory; 0: the probes' own limits */
	double gap;
	double budget_s;            /* --budget: 0 none */
	uint64_t seed;
};

/* Parses archscope cluster's options (argv[0] is "cluster"; argv is reordered). Returns 0,
 * OPT_ERROR after a usage error or OPT_HELP_SHOWN after --help (opt_exit_code() gives the exit
 * code). */
int cli_cluster_parse(int argc, char **argv, struct cli_cluster_opts *o);

#endif
