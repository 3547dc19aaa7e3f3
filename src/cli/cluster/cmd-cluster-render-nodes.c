/* archscope cluster's renderer, the part about the ranks and nodes: the placement, each node
 * leader's quick probe figures side by side, which nodes are alike, and the outliers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cluster/cmd-cluster-impl.h"
#include "machine/result-cluster.h"
#include "report/emit.h"

#define MAX_FIGS 48

static void render_ranks(struct emit *e, const struct cli_cluster_result *r)
{
	const struct cluster_place *p = r->place;
	emit_table_begin(e, CL_KEY(RANKS), "placement (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) and hwloc)");
	for (int i = 0; i < p->size; i++) {
		const struct cluster_rank *k = &p->ranks[i];
		struct as_cpulist cpus;
		cluster_rank_cpus(k, &cpus);
		emit_row_begin(e);
		emit_int(e, CL_KEY(RANK), "rank", k->rank, NULL);
		emit_string(e, CL_KEY(RANK_HOST), "host", k->host);
		emit_int(e, CL_KEY(RANK_NODE), "node", k->node, NULL);
		emit_cpulist(e, CL_KEY(RANK_CPUS), "cpus", &cpus);
		if (k->numa_node >= 0)
			emit_int(e, CL_KEY(RANK_NUMA), "NUMA node", k->numa_node, NULL);
		else
			emit_null(e, CL_KEY(RANK_NUMA), "NUMA node", "several");
		emit_text(e, "role", "%s", k->node_rank == 0 ? "leader" : "");
		emit_row_end(e);
	}
	emit_table_end(e);
}

static void render_node_json(struct emit *e, const struct cli_cluster_result *r, int n)
{
	const struct cluster_place *p = r->place;
	const struct cluster_node_fig *f = &r->nodes[n];
	struct as_cpulist ranks = { 0 };
	for (int i = 0; i < p->size; i++)
		if (p->ranks[i].node == n)
			ranks.cpu[ranks.n++] = i;
	emit_row_begin(e);
	emit_int(e, CL_KEY(NODE), NULL, n, NULL);
	emit_string(e, CL_KEY(NODE_HOST), NULL, p->ranks[p->leader[n]].host);
	emit_int(e, CL_KEY(NODE_LEADER), NULL, p->leader[n], NULL);
	emit_cpulist(e, CL_KEY(NODE_RANKS), NULL, &ranks);
	emit_string(e, CL_KEY(NODE_VERSION), NULL, p->ranks[p->leader[n]].version);
	emit_bool(e, CL_KEY(NODE_PMU), NULL, p->ranks[p->leader[n]].pmu);
	if (r->machine) {
		emit_int(e, CL_KEY(NODE_MACHINE), NULL, r->machine[n], NULL);
		emit_bool(e, CL_KEY(NODE_SHARES_CPUS), NULL, r->shares_cpus[n]);
	}
	if (r->nodes_measured) {
		emit_int(e, CL_KEY(NODE_CPUS), NULL, f->cpus, NULL);
		emit_int(e, CL_KEY(NODE_CPU), NULL, f->cpu, NULL);
		emit_number(e, CL_KEY(NODE_CLOCK), NULL, f->clock_ghz, "GHz", NULL);
		emit_number(e, CL_KEY(NODE_LINE), NULL, f->line_bytes, "B", NULL);
		emit_table_begin(e, CL_KEY(NODE_CACHES), NULL);
		for (int l = 0; l < f->nlevels; l++) {
			emit_row_begin(e);
			emit_int(e, CL_KEY(CACHE_LEVEL), NULL, l + 1, NULL);
			emit_number(e, CL_KEY(CACHE_SIZE), NULL, f->level_bytes[l], "B", NULL);
			emit_number(e, CL_KEY(CACHE_LATENCY), NULL, f->level_ns[l], "ns", NULL);
			emit_row_end(e);
		}
		emit_table_end(e);
		emit_number(e, CL_KEY(NODE_MEMORY), NULL, f->memory_ns, "ns", NULL);
		emit_table_begin(e, CL_KEY(NODE_BW), NULL);
		for (int b = 0; b < f->nbw; b++) {
			emit_row_begin(e);
			emit_string(e, CL_KEY(BW_LEVEL), NULL, f->bw_level[b]);
			emit_int(e, CL_KEY(BW_SIZE), NULL, (long long)f->bw_bytes[b], "B");
			emit_number(e, CL_KEY(BW_GBS), NULL, f->bw_gbs[b], "GB/s", NULL);
			emit_row_end(e);
		}
		emit_table_end(e);
		emit_object_begin(e, CL_KEY(NODE_CONTEXTS), NULL);
		emit_number(e, CL_KEY(CONTEXTS_FP), NULL, f->contexts[0], NULL, NULL);
		emit_number(e, CL_KEY(CONTEXTS_INT), NULL, f->contexts[1], NULL, NULL);
		emit_number(e, CL_KEY(CONTEXTS_MEM), NULL, f->contexts[2], NULL, NULL);
		emit_object_end(e);
		emit_int(e, CL_KEY(NODE_ALIKE), NULL, r->alike[n], NULL);
		emit_number(e, CL_KEY(NODE_SECONDS), NULL, f->seconds, "s", NULL);
		if (f->failed[0])
			emit_string(e, CL_KEY(NODE_FAILED), NULL, f->failed);
		cli_conditions_render(e, CL_KEY(NODE_COND), CL_KEY(NODE_NOISY), &f->cond);
	}
	emit_row_end(e);
}

/* Text: a figure a row, a node a column (at most 8 nodes shown; the JSON has every one). */
static void render_figures(struct emit *e, const struct cli_cluster_result *r)
{
	const struct cluster_place *p = r->place;
	struct cluster_figure (*figs)[MAX_FIGS] = calloc((size_t)p->nnodes, sizeof(*figs));
	double spread[MAX_FIGS];
	int *nf = calloc((size_t)p->nnodes, sizeof(int));
	if (!figs || !nf) {
		free(figs);
		free(nf);
		return;
	}
	for (int n = 0; n < p->nnodes; n++)
		nf[n] = cluster_node_figures(&r->nodes[n], figs[n], spread, MAX_FIGS);
	int shown = p->nnodes < 8 ? p->nnodes : 8;
	char title[200], label[16];
	int shared = 0; /* nodes of one machine took turns */
	for (int n = 0; r->machine && n < p->nnodes; n++)
		shared |= r->machine[n] != n;
	snprintf(title, sizeof(title), "nodes (%d; each leader ran the quick probes at the same time%s%s)", p->nnodes,
		 shared ? ", those of one machine one after another" : "", shown < p->nnodes ? "; the first 8 shown" : "");
	emit_table_begin(e, NULL, title);
	emit_row_begin(e);
	emit_text(e, "figure", "host");
	for (int n = 0; n < shown; n++) {
		snprintf(label, sizeof(label), "node %d", n);
		emit_text(e, label, "%s", p->ranks[p->leader[n]].host);
	}
	emit_row_end(e);
	for (int k = 0; k < nf[0]; k++) {
		emit_row_begin(e);
		emit_text(e, "figure", "%s", figs[0][k].name);
		for (int n = 0; n < shown; n++) {
			snprintf(label, sizeof(label), "node %d", n);
			double v = NAN;
			const char *unit = figs[0][k].unit;
			for (int m = 0; m < nf[n]; m++)
				if (strcmp(figs[n][m].name, figs[0][k].name) == 0)
					v = figs[n][m].value;
			if (strcmp(unit, "B") == 0 && isfinite(v))
				emit_size(e, NULL, label, (uint64_t)v);
			else
				emit_number(e, NULL, label, v, unit[0] ? unit : NULL, strcmp(unit, "GHz") == 0 ? "%.3f" : cli_cluster_sig(v, 3));
		}
		emit_row_end(e);
	}
	emit_row_begin(e);
	emit_text(e, "figure", "PMU");
	for (int n = 0; n < shown; n++) {
		snprintf(label, sizeof(label), "node %d", n);
		emit_text(e, label, "%s", p->ranks[p->leader[n]].pmu ? "yes" : "no");
	}
	emit_row_end(e);
	emit_table_end(e);
	free(figs);
	free(nf);
}

/* The groups of nodes alike, each named by its first node. */
static void render_alike(struct emit *e, const struct cli_cluster_result *r)
{
	const struct cluster_place *p = r->place;
	emit_table_begin(e, CL_KEY(ALIKE), "nodes alike (every figure within the run's noise)");
	for (int g = 0; g < p->nnodes; g++) {
		if (r->alike[g] != g)
			continue;
		struct as_cpulist members = { 0 };
		for (int n = 0; n < p->nnodes; n++)
			if (r->alike[n] == g)
				members.cpu[members.n++] = n;
		emit_row_begin(e);
		emit_cpulist(e, CL_KEY(ALIKE_NODES), "nodes", &members);
		char hosts[256] = "";
		for (int i = 0; i < members.n && strlen(hosts) < 200; i++)
			snprintf(hosts + strlen(hosts), sizeof(hosts) - strlen(hosts), "%s%s", i ? " " : "",
				 p->ranks[p->leader[members.cpu[i]]].host);
		emit_text(e, "hosts", "%s", hosts);
		emit_row_end(e);
	}
	emit_table_end(e);
}

/* Text: the nodes that share a machine, said (their figures are the same hardware's). */
static void render_machines(struct emit *e, const struct cli_cluster_result *r)
{
	const struct cluster_place *p = r->place;
	for (int m = 0; r->machine && m < p->nnodes; m++) {
		int count = 0, cpus = 0;
		char list[256] = "";
		size_t len = 0;
		for (int n = 0; n < p->nnodes; n++)
			if (r->machine[n] == m) {
				count++;
				cpus |= r->shares_cpus[n];
				if (len < sizeof(list))
					len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%d (%s)", count > 1 ? ", " : "",
								n, p->ranks[p->leader[n]].host);
			}
		if (count > 1)
			emit_heading(e, "  nodes %s share one machine (kernel boot id %.8s...)%s: probed one after another, and "
					"their differences are not outliers",
				     list, p->ranks[p->leader[m]].boot_id, cpus ? " and CPUs" : "");
	}
}

static void render_nodes(struct emit *e, const struct cli_cluster_result *r)
{
	const struct cluster_place *p = r->place;
	emit_table_begin(e, CL_KEY(NODES), NULL);
	for (int n = 0; n < p->nnodes; n++)
		render_node_json(e, r, n);
	emit_table_end(e);
	if (!r->nodes_measured) {
		emit_heading(e, "nodes: %d (not probed: --skip nodes or --probes none)", p->nnodes);
		return;
	}
	render_figures(e, r);
	render_machines(e, r);
	for (int n = 0; n < p->nnodes; n++)
		if (r->nodes[n].failed[0])
			emit_heading(e, "  node %d (%s): %s", n, p->ranks[p->leader[n]].host, r->nodes[n].failed);
	for (int n = 0; n < p->nnodes; n++)
		if (r->nodes[n].cond.noisy)
			emit_heading(e, "  node %d (%s) noisy: %s (its figures are flagged)", n, p->ranks[p->leader[n]].host,
				     r->nodes[n].cond.why);
	render_alike(e, r);
}

static void render_outliers(struct emit *e, const struct cli_cluster_result *r)
{
	const struct cluster_place *p = r->place;
	if (r->noutliers == 0) {
		emit_table_begin(e, CL_KEY(OUTLIERS), NULL);
		emit_table_end(e);
		if (r->nodes_measured && p->nnodes > 1)
			emit_heading(e, "outliers: none (no node's figure is off the median by more than the run's noise)");
		return;
	}
	emit_table_begin(e, CL_KEY(OUTLIERS), "outliers (off the nodes' median by more than the run's noise of that figure)");
	for (int i = 0; i < r->noutliers; i++) {
		const struct cluster_outlier *o = &r->outliers[i];
		emit_row_begin(e);
		emit_int(e, CL_KEY(OUT_NODE), "node", o->node, NULL);
		emit_string(e, CL_KEY(OUT_HOST), "host", p->ranks[p->leader[o->node]].host);
		emit_string(e, CL_KEY(OUT_FIGURE), "figure", o->figure);
		emit_number(e, CL_KEY(OUT_VALUE), "value", o->value, o->unit[0] ? o->unit : NULL, cli_cluster_sig(o->value, 4));
		emit_number(e, CL_KEY(OUT_MEDIAN), "median", o->median, o->unit[0] ? o->unit : NULL, cli_cluster_sig(o->median, 4));
		emit_string(e, CL_KEY(OUT_UNIT), NULL, o->unit);
		emit_number(e, CL_KEY(OUT_DIFF), NULL, o->difference, NULL, NULL);
		emit_number(e, NULL, "difference", 100 * o->difference, "%", "%+.1f");
		emit_number(e, CL_KEY(OUT_NOISE), NULL, o->noise, NULL, NULL);
		emit_number(e, NULL, "noise", 100 * o->noise, "%", "%.1f");
		emit_row_end(e);
	}
	emit_table_end(e);
	if (p->nnodes == 2)
		emit_heading(e, "  (two nodes: the median is between them, so both differ; a third node tells which one is off)");
}

void cli_cluster_render_nodes(struct emit *e, const struct cli_cluster_result *r)
{
	render_ranks(e, r);
	render_nodes(e, r);
	render_outliers(e, r);
}
