/* Private to archscope-cluster (src/cli/cluster/): what rank 0 found, its renderer, and the files
 * it writes (--raw as the run goes, --plot, --machine-files). */
#ifndef ARCHSCOPE_CLI_CLUSTER_CMD_CLUSTER_IMPL_H
#define ARCHSCOPE_CLI_CLUSTER_CMD_CLUSTER_IMPL_H

#include "cli/cmd-cluster.h"
#include "cluster/cluster.h"
#include "cluster/slow.h"

struct emit;

#define CLI_CLUSTER_MAX_OUTLIERS 64
#define CLI_CLUSTER_MAX_PHASES 16
#define CLI_CLUSTER_MAX_CONTENTION 256
#define CLI_CLUSTER_MAX_COLL 256
#define CLI_CLUSTER_MAX_SLOW 256

struct cli_cluster_phase_time {
	const char *phase;
	int steps;
	double seconds;
};

/* Everything rank 0 renders. Matrices are size x size, row i column j, NaN where not measured. */
struct cli_cluster_result {
	const struct cli_cluster_opts *o;
	const struct cluster_place *place;
	int size;
	int one_pair;                /* pairs one at a time (asked, or the machine is oversubscribed) */
	const char *one_pair_why;
	int nodes_measured;          /* the leaders ran the probes */
	struct cluster_node_fig *nodes;  /* [place->nnodes] */
	int noutliers;
	struct cluster_outlier outliers[CLI_CLUSTER_MAX_OUTLIERS];
	int *alike;                  /* [nnodes] */
	double *lat, *p99, *bw, *shift;
	double *size_lat[CLI_CLUSTER_MAX_SIZES];
	int have_layers;
	struct cluster_layers layers;
	int loggp_measured;
	struct cluster_loggp loggp[CLUSTER_MAX_LAYERS];
	int np2p;                    /* point to point per size: one pair per layer (osu's methods) */
	struct cluster_p2p p2p[CLUSTER_MAX_LAYERS];
	int p2p_layer[CLUSTER_MAX_LAYERS];
	int ncoll;                   /* collectives, with the model beside each */
	struct cluster_coll coll[CLI_CLUSTER_MAX_COLL];
	int ncont;
	struct cluster_contention cont[CLI_CLUSTER_MAX_CONTENTION];
	int nphases;
	struct cli_cluster_phase_time phase[CLI_CLUSTER_MAX_PHASES];
	int shared_cpu_a, shared_cpu_b;  /* -1: none */
	int over_ranks, over_cpus;       /* the most oversubscribed machine; 0: none */
	double seconds;
	int save_failed;
	/* slow links and nodes (cmd-cluster-slow.c): the bandwidth windows' spread, what was found
	 * (nslow may exceed CLI_CLUSTER_MAX_SLOW: the rest is counted, not listed) */
	double *bw_spread, *shift_spread;
	/* nodes sharing a machine (cluster_nodes_machines): [nnodes] each, NULL when not known */
	int *machine, *shares_cpus;
	int have_slow, nslow;
	struct cluster_slow slow[CLI_CLUSTER_MAX_SLOW];
	/* the slow links' second latency sweep (after the shift), and what the sweeps ran in: each
	 * machine's conditions (common/conditions.h, every rank of the machine counted as its own),
	 * the worst of them; a disturbed one flags the verdict */
	double *lat2, *p99_2;
	int have_sweep_cond;
	struct conditions sweep_cond;
	/* --budget (cmd-cluster-phases.c): the run's start, and per budgeted sweep (0 bandwidth,
	 * 1 shift) its steps run of all and whether its floor ran past the budget */
	uint64_t start_ns;
	int budgeted[2], budget_ran[2], budget_steps[2], budget_floor[2], budget_over[2];
};

/* Every phase on every rank (cmd-cluster-phases.c), into r on rank 0; co->status is rank 0's
 * (set there: the phases say where they are in it). 0, or -errno with err filled (an MPI failure
 * leaves the ranks out of step: the caller aborts). */
int cli_cluster_run_all(struct cli_cluster_result *r, const struct cluster_place *p, const struct cli_cluster_opts *o,
			struct cluster_opts *co, struct as_error *err);

void cli_cluster_render(struct emit *e, const struct cli_cluster_result *r);
/* The printf format that shows v with at most `sig` significant digits in plain notation (1290,
 * 0.0189, 2), as %g without its exponent (1.29e+03): the text's numbers as the other commands
 * print them. */
const char *cli_cluster_sig(double v, int sig);
/* Point to point per message size (cmd-cluster-render-p2p.c). */
void cli_cluster_render_p2p(struct emit *e, const struct cli_cluster_result *r);
void cli_cluster_render_coll(struct emit *e, const struct cli_cluster_result *r);
/* Its first part: the placement, the nodes' figures, the alike groups and the outliers. */
void cli_cluster_render_nodes(struct emit *e, const struct cli_cluster_result *r);
/* --raw: the placement (at the start), the matrices measured so far (as the run goes), all (at
 * the end). 0, or -1 after error(). */
int cli_cluster_save_place(const struct cli_cluster_result *r, const char *dir);
int cli_cluster_save_matrices(const struct cli_cluster_result *r, const char *dir);
/* point-to-point.csv: the pairs measured so far. */
int cli_cluster_save_p2p(const struct cli_cluster_result *r, const char *dir);
int cli_cluster_save_all(const struct cli_cluster_result *r, const char *dir);
/* DIR/NAME holding text, written whole. 0, or -1 after error(). */
int cli_cluster_save_text(const char *dir, const char *name, const char *text);
/* Rank 0, after the sweeps: the slow pairs and nodes of each layer (layers of latency alone). */
void cli_cluster_find_slow(struct cli_cluster_result *r);
/* results.slow[] and its text section. */
void cli_cluster_render_slow(struct emit *e, const struct cli_cluster_result *r);
/* results.scale[]: the time of this run's steps at 16, 128 and 1,024 nodes (cmd-cluster-scale.c). */
void cli_cluster_render_scale(struct emit *e, const struct cli_cluster_result *r);
/* results.budget[]: what --budget left out of bandwidth and shift (cmd-cluster-scale.c). */
void cli_cluster_render_budget(struct emit *e, const struct cli_cluster_result *r);
/* --plot: heatmaps of the matrices. */
void cli_cluster_plot(struct cli_cluster_result *r, const char *dir);
/* --machine-files: one per node with node figures. 0, or -1 after error(). */
int cli_cluster_machine_files(const struct cli_cluster_result *r, const char *dir);

#endif
