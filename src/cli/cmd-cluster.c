/* archscope cluster: its options and --help, and the command as archscope runs it: the options are
 * checked here, then archscope-cluster (beside this executable, built when Open MPI is found) is
 * run in this process's place, so that no other command links or loads MPI. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd-cluster.h"
#include "cli/parse-options.h"
#include "common/buffer.h"

static const char *const cluster_usage[] = {
	"mpirun -np P [--host H1:N,H2:N,...] archscope cluster [--reps N] [--size BYTES] [--window N] [--sizes LIST] [--osu-counts]",
	"       [--pair-sizes LIST] [--coll-sizes LIST] [--budget SECONDS]",
	"       [--skip LIST] [--probes LIST] [--node-memory BYTES] [--machine-files DIR] [--json] [--plot DIR] [--raw DIR]",
	NULL,
};

static const struct opt_section cluster_sections[] = {
	{ "what it measures",
	  "placement  rank -> host, CPU set, NUMA node; nodes by MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), the\n"
	  "           lowest rank of each its leader\n"
	  "nodes      the leaders run the quick probes at the same time (clock, caches, memory latency, load\n"
	  "           bandwidth per level, contexts); a node off the median by more than the run's noise is flagged\n"
	  "latency    8 B ping-pong, half the round trip, median and p99, every pair once in P-1 rounds of\n"
	  "           disjoint pairs (the round-robin tournament)\n"
	  "bandwidth  windowed messages as osu_bw, both directions of every pair in the same rounds; and\n"
	  "           mpiGraph's shift pattern (every rank sends to rank+k at once, P-1 steps)\n"
	  "layers     the locality tree (BlackjackBench 3.1.4) of the matrices, innermost group first\n"
	  "loggp      L, o_s, o_r, g, G of one pair per layer by netgauge's PRTT method\n"
	  "p2p        one pair per layer as the OSU micro-benchmarks: osu_latency, osu_bw (a window of 64\n"
	  "           messages into one receive buffer, then an ack), osu_bibw, per message size\n"
	  "collectives\n"
	  "           barrier, bcast, reduce, allreduce, allgather, alltoall per size on the world, one rank per\n"
	  "           node and one node: IMB's t_min, t_avg, t_max over ranks, and the LogGP model's time\n"
	  "contention bandwidth per pair as 1, 2, 4, ... pairs of two nodes send at once\n",
	  NULL },
	{ "mpirun",
	  "--host H1:N,H2:N  the nodes and ranks per node (or --hostfile FILE): one rank per node compares the\n"
	  "                  nodes, more see inside them\n"
	  "--bind-to none    where nodes share one machine (namespaces, containers): by default each node's\n"
	  "                  daemon pins its first rank to CPU 0, and two ranks spinning on one CPU answer\n"
	  "                  each other at the scheduler's tick (4 ms at 250 Hz); archscope warns of it\n"
	  "--mca mpi_yield_when_idle 1\n"
	  "                  where a machine runs more ranks than CPUs (--oversubscribe) or other work: a\n"
	  "                  rank waiting for a message leaves the CPU (about 0.1 us more in shared memory)\n",
	  NULL },
	{ NULL, NULL, NULL },
};

static const struct opt_cmd cluster_cmd = {
	.name = "cluster",
	.usage = cluster_usage,
	.description =
		"Characterizes the nodes of a cluster and the network between its ranks, on Open MPI: are the nodes\n"
		"alike, how fast is each pair of ranks, where are the layers (shared memory, network), what does a\n"
		"message cost (LogGP), how does bandwidth share. Start it under mpirun; only rank 0 prints.\n",
	.sections = cluster_sections,
	.epilog = "Exit status: 0 done; 1 a measurement or a file failed; 2 bad options, one rank, not under mpirun\n"
		  "or archscope versions that differ between ranks; 130 interrupted. When a rank dies mpirun ends the\n"
		  "run; rank 0 names where it was and --raw keeps the matrices measured so far. See docs/archscope-cluster.md.\n",
};

/* A comma list of message sizes from 1 B to 1 GiB, at most max of them. */
static int parse_size_list(const char *opt, const char *arg, size_t *sizes, int max, int *n)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", arg);
	*n = 0;
	for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t s = 0;
		struct as_error err = { 0 };
		if (buffer_parse_size(w, &s, &err) != 0 || s < 1 || s > ((size_t)1 << 30))
			return error("%s: '%s' is not a message size from 1 B to 1 GiB", opt, w);
		if (*n == max)
			return error("%s: at most %d sizes", opt, max);
		sizes[(*n)++] = s;
	}
	if (*n == 0)
		return error("%s: give at least one size, as in 8,1KiB,1MiB", opt);
	return 0;
}

static int parse_sizes(const struct opt *opt, const char *arg, const char *value)
{
	(void)value;
	struct cli_cluster_opts *o = opt->value;
	return parse_size_list("--sizes", arg, o->p2p_sizes, CLI_CLUSTER_MAX_P2P_SIZES, &o->np2p);
}

static int parse_pair_sizes(const struct opt *opt, const char *arg, const char *value)
{
	(void)value;
	struct cli_cluster_opts *o = opt->value;
	return parse_size_list("--pair-sizes", arg, o->sizes, CLI_CLUSTER_MAX_SIZES, &o->nsizes);
}

static int parse_coll_sizes(const struct opt *opt, const char *arg, const char *value)
{
	(void)value;
	struct cli_cluster_opts *o = opt->value;
	return parse_size_list("--coll-sizes", arg, o->coll_sizes, CLI_CLUSTER_MAX_SIZES, &o->ncoll);
}

/* A comma list of words into bits (1 << index in words). */
static int parse_words(const char *opt, const char *arg, const char *const *words, unsigned *bits)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%s", arg);
	*bits = 0;
	for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		int k = 0;
		while (words[k] && strcmp(words[k], w) != 0)
			k++;
		if (!words[k]) {
			char all[256] = "";
			for (int i = 0; words[i]; i++)
				snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s", i ? ", " : "", words[i]);
			return error("%s: unknown word '%s' (words: %s)", opt, w, all);
		}
		*bits |= 1u << k;
	}
	return 0;
}

static const char *const skip_words[] = { CLI_CLUSTER_SKIPS(CLUSTER_X_NAME) NULL };
static const char *const probe_words[] = { CLUSTER_FIGS(CLUSTER_X_NAME) NULL };

static int parse_skip(const struct opt *opt, const char *arg, const char *value)
{
	(void)value;
	return parse_words("--skip", arg, skip_words, opt->value);
}

static int parse_probes(const struct opt *opt, const char *arg, const char *value)
{
	(void)value;
	struct cli_cluster_opts *o = opt->value;
	if (strcmp(arg, "none") == 0) {
		o->figures = 0;
		return 0;
	}
	return parse_words("--probes", arg, probe_words, &o->figures);
}

static int parse_bytes(const char *opt, const char *arg, size_t lo, size_t hi, size_t *out)
{
	struct as_error err = { 0 };
	if (buffer_parse_size(arg, out, &err) != 0 || *out < lo || *out > hi)
		return error("%s: '%s' is not a size from %zu B to %zu MiB", opt, arg, lo, hi >> 20);
	return 0;
}

static int parse_size(const struct opt *opt, const char *arg, const char *value)
{
	(void)value;
	return parse_bytes("--size", arg, 1, (size_t)1 << 30, opt->value);
}

static int parse_node_memory(const struct opt *opt, const char *arg, const char *value)
{
	(void)value;
	return parse_bytes("--node-memory", arg, (size_t)1 << 20, (size_t)1 << 40, opt->value);
}

/* This process's rank when mpirun started it (Open MPI, PMIx, PMI), else -1. */
static int rank_env(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", NULL };
	for (int i = 0; vars[i]; i++) {
		const char *v = getenv(vars[i]);
		if (v && *v)
			return atoi(v);
	}
	return -1;
}

int cli_cluster_parse(int argc, char **argv, struct cli_cluster_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->reps = 200;
	o->window = 64;
	o->bursts = 5;
	o->bw_bytes = (size_t)1 << 20;
	o->figures = CLUSTER_FIG_ALL;
	o->gap = 1.5;
	o->seed = 1;
	for (o->np2p = 0; o->np2p <= 22; o->np2p++) /* 1 B ... 4 MiB */
		o->p2p_sizes[o->np2p] = (size_t)1 << o->np2p;
	static const size_t coll_default[] = { 8, 1024, 65536, 1048576 };
	for (o->ncoll = 0; o->ncoll < 4; o->ncoll++)
		o->coll_sizes[o->ncoll] = coll_default[o->ncoll];
	const struct opt options[] = {
		OPT_GROUP("between ranks"),
		OPT_INT(0, "reps", &o->reps, "N", 10, 100000, "timed ping-pongs per pair (default 200; median and p99 of their half round trips)"),
		OPT_CALLBACK(0, "size", &o->bw_bytes, "BYTES", "message size of the bandwidth runs (default 1MiB)", parse_size),
		OPT_INT(0, "window", &o->window, "N", 1, 1024, "messages in flight in the bandwidth runs, as osu_bw (default 64)"),
		OPT_INT(0, "bursts", &o->bursts, "N", 1, 1000, "windows timed per pair and direction; the median counts (default 5)"),
		OPT_CALLBACK(0, "sizes", o, "LIST", "message sizes of osu_latency, osu_bw and osu_bibw, one pair per layer\n"
						    "(default 1 B ... 4 MiB in powers of two; 8,64KiB,1MiB)", parse_sizes),
		OPT_FLAG(0, "osu-counts", &o->osu_counts, "osu's own iteration counts per size (default: a tenth, at most 32 MiB moved)"),
		OPT_CALLBACK(0, "pair-sizes", o, "LIST", "also ping-pong latency and bandwidth of every pair per message size (8,1KiB,1MiB)",
			     parse_pair_sizes),
		OPT_CALLBACK(0, "coll-sizes", o, "LIST", "message sizes of the collectives (default 8,1KiB,64KiB,1MiB)", parse_coll_sizes),
		OPT_FLAG(0, "one-pair", &o->one_pair, "pairs of a round one after another instead of at once (P(P-1)/2 steps; the\n"
						     "default when a machine has more ranks than CPUs)"),
		OPT_DOUBLE(0, "gap", &o->gap, "X", 1, 100, "layers: a clique splits where its pair values form groups X times apart (default 1.5)",
			   .flags = OPT_F_ABOVE_MIN),
		OPT_DOUBLE(0, "budget", &o->budget_s, "SECONDS", 0, 1e9, "time budget of the run up to the shift: bandwidth and shift\n"
									    "measure a subset of pairs per layer class (at least 2)", .flags = OPT_F_ABOVE_MIN),
		OPT_CALLBACK(0, "skip", &o->skip, "LIST", "leave out: nodes, bandwidth, shift, loggp, contention, p2p,\n"
								   "collectives", parse_skip),
		OPT_GROUP("nodes"),
		OPT_CALLBACK(0, "probes", o, "LIST", "node figures: clock, caches, bandwidth, contexts (default all; none)", parse_probes),
		OPT_CALLBACK(0, "node-memory", &o->node_bytes, "BYTES", "largest buffer of the node probes (default: the probes' own, up to 256MiB)",
			     parse_node_memory),
		OPT_U64(0, "seed", &o->seed, "N", 0, UINT64_MAX, "seed of the probes' random orders (default 1)"),
		OPT_STRING(0, "machine-files", &o->machine_dir, "DIR", "write one machine file per node into DIR (NODE.yaml)"),
		OPT_GROUP("output"),
		OPT_JSON(&o->json),
		OPT_STRING(0, "plot", &o->plot_dir, "DIR", "heatmaps of the matrices with gnuplot into DIR (SVG and PNG)"),
		OPT_STRING(0, "raw", &o->raw_dir, "DIR", "save the placement, node figures and matrices as CSV in DIR, as they are measured"),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	/* under mpirun every rank parses the same options: rank 0 alone says what is wrong (or prints --help) */
	int quiet = rank_env() > 0, fd1 = -1, fd2 = -1, null = -1;
	if (quiet && (null = open("/dev/null", O_WRONLY | O_CLOEXEC)) >= 0) {
		fflush(stdout);
		fd1 = dup(1), fd2 = dup(2);
		dup2(null, 1);
		dup2(null, 2);
	}
	int n = opt_parse(argc, argv, &cluster_cmd, options);
	if (n > 0) {
		error_usage("cluster", "unexpected argument '%s'", argv[0]);
		n = OPT_ERROR;
	}
	if (null >= 0) {
		fflush(stdout);
		fflush(stderr);
		if (fd1 >= 0)
			dup2(fd1, 1), close(fd1);
		if (fd2 >= 0)
			dup2(fd2, 2), close(fd2);
		close(null);
	}
	return n < 0 ? n : 0;
}

/* archscope-cluster beside this executable, or "" when there is none. */
static void cluster_exe(char *out, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	out[0] = 0;
	if (n <= 0)
		return;
	self[n] = 0;
	char *slash = strrchr(self, '/');
	if (!slash)
		return;
	*slash = 0;
	snprintf(out, len, "%s/archscope-cluster", self);
	if (access(out, X_OK) != 0)
		out[0] = 0;
}

int cmd_cluster(int argc, char **argv)
{
	/* check the options on a copy: archscope-cluster gets them as they were given */
	char **copy = calloc((size_t)argc + 1, sizeof(char *));
	if (!copy)
		return error("out of memory"), EXIT_FAIL;
	memcpy(copy, argv, (size_t)argc * sizeof(char *));
	struct cli_cluster_opts o;
	int rc = cli_cluster_parse(argc, copy, &o);
	free(copy);
	if (rc < 0)
		return opt_exit_code(rc);
	char exe[PATH_MAX + 32];
	cluster_exe(exe, sizeof(exe));
	if (!exe[0]) {
		error("cluster: this archscope was built without Open MPI: install openmpi-bin and libopenmpi-dev "
		      "(scripts/setup.sh does) and build again");
		return EXIT_FAIL;
	}
	fflush(stdout);
	argv[0] = "archscope-cluster";
	execv(exe, argv);
	error("cluster: cannot run '%s': %s", exe, strerror(errno));
	return EXIT_FAIL;
}
