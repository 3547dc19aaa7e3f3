/* archscope cluster's options, shared by the command in archscope (which checks them, prints
 * --help and runs archscope-cluster) and by archscope-cluster itself (src/cli/cluster/, the only
 * executable that links Open MPI). No MPI header here. */
#ifndef ARCHSCOPE_CLI_CMD_CLUSTER_H
#define ARCHSCOPE_CLI_CMD_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#define CLI_CLUSTER_MAX_SIZES 16

/* --skip words */
enum { CLI_CLUSTER_SKIP_NODES = 1, CLI_CLUSTER_SKIP_BANDWIDTH = 2, CLI_CLUSTER_SKIP_SHIFT = 4, CLI_CLUSTER_SKIP_LOGGP = 8,
       CLI_CLUSTER_SKIP_CONTENTION = 16 };

struct cli_cluster_opts {
	int json;
	const char *plot_dir, *raw_dir, *machine_dir;
	int reps, window, bursts, one_pair;
	size_t bw_bytes;
	int nsizes;
	size_t sizes[CLI_CLUSTER_MAX_SIZES];
	unsigned skip;
	unsigned figures;           /* CLUSTER_FIG_* bits: clock 1, caches 2, bandwidth 4, contexts 8 */
	size_t node_bytes;          /* --node-memory; 0: the probes' own limits */
	double gap;
	uint64_t seed;
};

/* Parses archscope cluster's options (argv[0] is "cluster"; argv is reordered). Returns 0,
 * OPT_ERROR after a usage error or OPT_HELP_SHOWN after --help (opt_exit_code() gives the exit
 * code). */
int cli_cluster_parse(int argc, char **argv, struct cli_cluster_opts *o);

#endif
