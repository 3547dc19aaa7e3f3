/* archscope cluster's renderer: one sequence of emit calls for text and JSON (report/emit.h).
 * Text: placement, the node table with its outliers (cmd-cluster-render-nodes.c), the layers with
 * LogGP, the matrices (in full up to 16 ranks, condensed to the innermost groups beyond),
 * contention, the time of each phase. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/order.h"
#include "cli/cli.h"
#include "cli/cluster/cmd-cluster-impl.h"
#include "machine/result-cluster.h"
#include "report/emit.h"

#define FULL_MATRIX_RANKS 16

static void rank_list(const struct cluster_place *p, const int *group, int g, struct as_cpulist *out)
{
	out->n = 0;
	for (int r = 0; r < p->size && out->n < AS_MAX_CPUS; r++)
		if (group[r] == g)
			out->cpu[out->n++] = r;
}

const char *cli_cluster_sig(double v, int sig)
{
	static const char *const fixed[] = { "%.0f", "%.1f", "%.2f", "%.3f", "%.4f", "%.5f", "%.6f", "%.7f", "%.8f", "%.9f" };
	int d = 0;
	if (isfinite(v) && v != 0) {
		d = sig - 1 - (int)floor(log10(fabs(v)));
		if (round(fabs(v) * pow(10, d)) >= pow(10, sig)) /* 999.6 rounds to 1000: one decimal fewer */
			d--;
		/* no trailing zeros, as %g: 2 CPUs, not 2.00 */
		while (d > 0 && d <= 9 && fabs(round(fabs(v) * pow(10, d)) - 10 * round(fabs(v) * pow(10, d - 1))) < 0.5)
			d--;
	}
	d = d < 0 ? 0 : d > 9 ? 9 : d;
	return fixed[d];
}

/* A P x P matrix: JSON rows of numbers; text only when P is small. */
static void render_matrix(struct emit *e, const struct cli_cluster_result *r, const char *key, const char *title,
			  const double *m, const char *unit, int sig)
{
	int P = r->size, text = P <= FULL_MATRIX_RANKS;
	emit_table_begin(e, key, text ? title : NULL);
	for (int i = 0; i < P; i++) {
		emit_tuple_begin(e);
		emit_text(e, "from \\ to", "%d %s", i, r->place->ranks[i].host);
		for (int j = 0; j < P; j++) {
			char label[16];
			snprintf(label, sizeof(label), "%d", j);
			double v = m ? m[(size_t)i * P + j] : NAN;
			if (i == j)
				emit_null(e, NULL, text ? label : NULL, "-");
			else
				emit_number(e, NULL, text ? label : NULL, v, unit, cli_cluster_sig(v, sig));
		}
		emit_row_end(e);
	}
	emit_table_end(e);
}

/* Text only: the matrix condensed to the groups of a layer (median over the pairs of two groups). */
static void render_condensed(struct emit *e, const struct cli_cluster_result *r, const char *title, const double *m,
			     const char *unit, int sig)
{
	const struct cluster_layers *L = &r->layers;
	int k = 0;
	while (k < L->n && L->layer[k].ngroups > 32)
		k++;
	if (!m || k >= L->n || L->layer[k].ngroups < 2)
		return;
	const struct cluster_layer *y = &L->layer[k];
	int P = r->size, G = y->ngroups;
	double *v = malloc((size_t)P * P * sizeof(double));
	struct as_cpulist *members = malloc((size_t)G * sizeof(*members));
	if (!v || !members) {
		free(v);
		free(members);
		return;
	}
	for (int a = 0; a < G; a++)
		rank_list(r->place, y->group, a, &members[a]);
	char t[200];
	snprintf(t, sizeof(t), "%s, condensed to the %d groups of layer %d (median over their pairs)", title, G, k + 1);
	emit_table_begin(e, NULL, t);
	for (int a = 0; a < G; a++) {
		char buf[128];
		emit_row_begin(e);
		emit_text(e, "group (ranks)", "%s", cpulist_format(&members[a], buf, sizeof(buf)));
		for (int b = 0; b < G; b++) {
			size_t n = 0;
			for (int x = 0; x < members[a].n; x++)
				for (int z = 0; z < members[b].n; z++) {
					int i = members[a].cpu[x], j = members[b].cpu[z];
					if (i != j && !isnan(m[(size_t)i * P + j]))
						v[n++] = m[(size_t)i * P + j];
				}
			char label[16];
			snprintf(label, sizeof(label), "g%d", b);
			double med = order_median(v, n);
			emit_number(e, NULL, label, med, unit, cli_cluster_sig(med, sig));
		}
		emit_row_end(e);
	}
	emit_table_end(e);
	free(v);
	free(members);
}

/* One layer's LogGP (null where it was not measured). */
static void render_loggp(struct emit *e, const struct cli_cluster_result *r, int k)
{
	const struct cluster_loggp *g = &r->loggp[k];
	if (!r->loggp_measured || r->layers.layer[k].rep_a < 0 || g->a == g->b) {
		emit_null(e, CL_KEY(LOGGP), NULL, NULL);
		return;
	}
	emit_object_begin(e, CL_KEY(LOGGP), NULL);
	emit_array_begin(e, CL_KEY(LOGGP_PAIR), NULL);
	emit_int(e, NULL, NULL, g->a, NULL);
	emit_int(e, NULL, NULL, g->b, NULL);
	emit_array_end(e);
	emit_number(e, CL_KEY(LOGGP_L), NULL, g->L_us, "us", NULL);
	emit_number(e, CL_KEY(LOGGP_OS), NULL, g->o_s_us, "us", NULL);
	emit_number(e, CL_KEY(LOGGP_OR), NULL, g->o_r_us, "us", NULL);
	emit_number(e, CL_KEY(LOGGP_G), NULL, g->g_us, "us", NULL);
	emit_number(e, CL_KEY(LOGGP_GB), NULL, g->G_ns_per_byte, "ns/B", NULL);
	emit_number(e, CL_KEY(LOGGP_O_PRTT), NULL, g->o_prtt_us, "us", NULL);
	emit_number(e, CL_KEY(LOGGP_RTT), NULL, g->rtt_us, "us", NULL);
	emit_object_end(e);
}

/* Text: the hosts of each group of each layer, for people. */
static void render_layer_hosts(struct emit *e, const struct cli_cluster_result *r)
{
	const struct cluster_layers *L = &r->layers;
	for (int k = 0; r->have_layers && k < L->n; k++) {
		const struct cluster_layer *y = &L->layer[k];
		char line[1024];
		size_t w = 0;
		for (int g = 0; g < y->ngroups && g < 16 && w < sizeof(line) - 80; g++) {
			struct as_cpulist ra;
			rank_list(r->place, y->group, g, &ra);
			char buf[128], hosts[200] = "";
			for (int i = 0; i < ra.n; i++) {
				const char *h = r->place->ranks[ra.cpu[i]].host;
				int dup = 0;
				for (int j = 0; j < i && !dup; j++)
					dup = strcmp(r->place->ranks[ra.cpu[j]].host, h) == 0;
				if (!dup && strlen(hosts) + strlen(h) + 2 < sizeof(hosts))
					snprintf(hosts + strlen(hosts), sizeof(hosts) - strlen(hosts), "%s%s", hosts[0] ? "+" : "", h);
			}
			w += (size_t)snprintf(line + w, sizeof(line) - w, "%s[%s on %s]", g ? " " : "", cpulist_format(&ra, buf, sizeof(buf)),
					      hosts);
		}
		emit_heading(e, "  layer %d: %s%s", k + 1, line, y->ngroups > 16 ? " ..." : "");
	}
}

/* The levels of the pair latencies, and (text) LogGP per layer. */
static void render_levels_loggp(struct emit *e, const struct cli_cluster_result *r)
{
	const struct cluster_layers *L = &r->layers;
	if (r->have_layers && L->nlevels >= 0) {
		emit_table_begin(e, CL_KEY(LEVELS), "levels of the pair latencies (QT clustering, 25 % diameter), fastest first");
		for (int q = 0; q < L->nlevels; q++) {
			emit_row_begin(e);
			emit_number(e, CL_KEY(LEVEL_MIN), "from", L->level[q].min_us, "us", cli_cluster_sig(L->level[q].min_us, 3));
			emit_number(e, CL_KEY(LEVEL_MAX), "to", L->level[q].max_us, "us", cli_cluster_sig(L->level[q].max_us, 3));
			emit_int(e, CL_KEY(LEVEL_PAIRS), "pairs", L->level[q].pairs, NULL);
			emit_row_end(e);
		}
		emit_table_end(e);
	}
	if (!r->loggp_measured || !r->have_layers)
		return;
	emit_table_begin(e, NULL, "LogGP per layer (netgauge's PRTT method, one pair each)");
	for (int k = 0; k < L->n; k++) {
		const struct cluster_loggp *g = &r->loggp[k];
		if (L->layer[k].rep_a < 0 || g->a == g->b)
			continue;
		emit_row_begin(e);
		emit_text(e, "layer", "%d", k + 1);
		emit_text(e, "pair", "%d-%d", g->a, g->b);
		const struct cli_cell cells[] = {
			{ "L", g->L_us, "us", cli_cluster_sig(g->L_us, 3) }, { "o_s", g->o_s_us, "us", cli_cluster_sig(g->o_s_us, 3) }, { "o_r", g->o_r_us, "us", cli_cluster_sig(g->o_r_us, 3) },
			{ "g", g->g_us, "us", cli_cluster_sig(g->g_us, 3) }, { "G", g->G_ns_per_byte, "ns/B", cli_cluster_sig(g->G_ns_per_byte, 3) },
			{ "o (PRTT)", g->o_prtt_us, "us", cli_cluster_sig(g->o_prtt_us, 3) }, { "RTT", g->rtt_us, "us", cli_cluster_sig(g->rtt_us, 3) },
		};
		cli_emit_cells(e, cells, sizeof(cells) / sizeof(cells[0]));
		emit_row_end(e);
	}
	emit_table_end(e);
}

static void render_layers(struct emit *e, const struct cli_cluster_result *r)
{
	const struct cluster_layers *L = &r->layers;
	char title[300];
	snprintf(title, sizeof(title), "layers, innermost first (%s)", r->have_layers ? L->method : "none");
	emit_table_begin(e, CL_KEY(LAYERS), title);
	for (int k = 0; r->have_layers && k < L->n; k++) {
		const struct cluster_layer *y = &L->layer[k];
		emit_row_begin(e);
		emit_int(e, NULL, "layer", k + 1, NULL);
		emit_array_begin(e, CL_KEY(LAYER_GROUPS), "groups (ranks)");
		for (int g = 0; g < y->ngroups; g++) {
			struct as_cpulist ra;
			rank_list(r->place, y->group, g, &ra);
			emit_cpulist(e, NULL, "group", &ra);
		}
		emit_array_end(e);
		emit_int(e, CL_KEY(LAYER_PAIRS), "pairs", y->npairs, NULL);
		emit_number(e, CL_KEY(LAYER_LATENCY), "latency", y->latency_us, "us", cli_cluster_sig(y->latency_us, 3));
		emit_number(e, CL_KEY(LAYER_P99), "p99", y->latency_p99_us, "us", cli_cluster_sig(y->latency_p99_us, 3));
		emit_number(e, CL_KEY(LAYER_BW), "bandwidth", y->bandwidth_gbs, "GB/s", cli_cluster_sig(y->bandwidth_gbs, 3));
		emit_number(e, CL_KEY(LAYER_SHIFT), "all at once", y->shift_gbs, "GB/s", cli_cluster_sig(y->shift_gbs, 3));
		render_loggp(e, r, k);
		emit_row_end(e);
	}
	emit_table_end(e);
	render_layer_hosts(e, r);
	render_levels_loggp(e, r);
}

static void render_contention(struct emit *e, const struct cli_cluster_result *r)
{
	if (r->o->skip & CLI_CLUSTER_SKIP_CONTENTION)
		return;
	const char *title = r->place->nnodes > 1 ? "contention: node i's first k ranks stream to node i^1's at once"
						 : "contention: k pairs of the node's ranks stream at once";
	emit_table_begin(e, CL_KEY(CONTENTION), title);
	for (int k = 0; k < r->ncont; k++) {
		const struct cluster_contention *c = &r->cont[k];
		emit_row_begin(e);
		emit_int(e, CL_KEY(CONT_PER_NODE), "pairs per node", c->pairs_per_node, NULL);
		emit_int(e, CL_KEY(CONT_PAIRS), "pairs in all", c->npairs, NULL);
		emit_number(e, CL_KEY(CONT_BW), "per pair", c->bandwidth_gbs, "GB/s", cli_cluster_sig(c->bandwidth_gbs, 3));
		emit_number(e, CL_KEY(CONT_TOTAL), "per node pair", c->total_gbs, "GB/s", cli_cluster_sig(c->total_gbs, 3));
		emit_row_end(e);
	}
	emit_table_end(e);
}

/* --pair-sizes: each size's matrices, and (text) the median latency per size and layer. */
static void render_sizes(struct emit *e, const struct cli_cluster_result *r)
{
	const struct cli_cluster_opts *o = r->o;
	int P = r->size;
	emit_list_begin(e, CL_KEY(SIZES), NULL);
	for (int s = 0; s < o->nsizes; s++) {
		emit_object_begin(e, NULL, NULL);
		emit_int(e, CL_KEY(SIZE_BYTES), NULL, (long long)o->sizes[s], "B");
		render_matrix(e, r, CL_KEY(SIZE_LATENCY), NULL, r->size_lat[s], "us", 3);
		double *bw = malloc((size_t)P * P * sizeof(double));
		for (size_t k = 0; bw && k < (size_t)P * P; k++)
			bw[k] = (double)o->sizes[s] / (r->size_lat[s][k] * 1e3);
		render_matrix(e, r, CL_KEY(SIZE_BW), NULL, bw, "GB/s", 3);
		free(bw);
		emit_object_end(e);
	}
	emit_list_end(e);
	emit_table_begin(e, NULL, "ping-pong per message size (median over every pair of each layer)");
	for (int s = 0; s < o->nsizes; s++) {
		for (int k = 0; r->have_layers && k < r->layers.n; k++) {
			const struct cluster_layer *y = &r->layers.layer[k];
			double *v = malloc((size_t)P * P * sizeof(double));
			size_t n = 0;
			for (int i = 0; v && i < P; i++)
				for (int j = i + 1; j < P; j++)
					if (y->group[i] == y->group[j] && (k == 0 || r->layers.layer[k - 1].group[i] != r->layers.layer[k - 1].group[j]) &&
					    !isnan(r->size_lat[s][(size_t)i * P + j]))
						v[n++] = r->size_lat[s][(size_t)i * P + j];
			double med = order_median(v, n);
			free(v);
			emit_row_begin(e);
			emit_size(e, NULL, "message", o->sizes[s]);
			emit_text(e, "layer", "%d", k + 1);
			emit_number(e, NULL, "latency", med, "us", cli_cluster_sig(med, 4));
			double gbs = (double)o->sizes[s] / (med * 1e3);
			emit_number(e, NULL, "bandwidth", gbs, "GB/s", cli_cluster_sig(gbs, 4));
			emit_row_end(e);
		}
	}
	emit_table_end(e);
}

/* The matrices: condensed for people beyond FULL_MATRIX_RANKS, whole in JSON. */
static void render_matrices(struct emit *e, const struct cli_cluster_result *r)
{
	const struct cli_cluster_opts *o = r->o;
	if (r->size > FULL_MATRIX_RANKS) {
		render_condensed(e, r, "latency (us)", r->lat, "us", 3);
		if (!(o->skip & CLI_CLUSTER_SKIP_BANDWIDTH))
			render_condensed(e, r, "bandwidth (GB/s)", r->bw, "GB/s", 3);
	}
	render_matrix(e, r, CL_KEY(LATENCY), "latency: half the round trip of 8 B, median (us)", r->lat, "us", 3);
	render_matrix(e, r, CL_KEY(P99), NULL, r->p99, "us", 3);
	if (!(o->skip & CLI_CLUSTER_SKIP_BANDWIDTH))
		render_matrix(e, r, CL_KEY(BANDWIDTH), "bandwidth from row to column, one pair at a time per rank (GB/s)", r->bw, "GB/s", 3);
	else
		emit_null(e, CL_KEY(BANDWIDTH), NULL, NULL);
	if (!(o->skip & CLI_CLUSTER_SKIP_SHIFT))
		render_matrix(e, r, CL_KEY(SHIFT), "bandwidth with every rank sending at once, mpiGraph's shift (GB/s)", r->shift,
			      "GB/s", 3);
	if (o->nsizes)
		render_sizes(e, r);
}

/* The time of each phase, the settings and the warnings. */
static void render_run(struct emit *e, const struct cli_cluster_result *r)
{
	const struct cli_cluster_opts *o = r->o;
	emit_table_begin(e, CL_KEY(TIMING), "time of each phase");
	for (int k = 0; k < r->nphases; k++) {
		emit_row_begin(e);
		emit_string(e, CL_KEY(TIMING_PHASE), "phase", r->phase[k].phase);
		emit_int(e, CL_KEY(TIMING_STEPS), "steps", r->phase[k].steps, NULL);
		emit_number(e, CL_KEY(TIMING_SECONDS), "time", r->phase[k].seconds, "s", "%.2f");
		emit_number(e, CL_KEY(TIMING_PER_STEP), "per step",
			    r->phase[k].steps ? 1e3 * r->phase[k].seconds / r->phase[k].steps : NAN, "ms", "%.1f");
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_object_begin(e, CL_KEY(SETTINGS), "settings");
	emit_int(e, CL_KEY(SET_REPS), "ping-pongs per pair", o->reps, NULL);
	emit_size(e, CL_KEY(SET_MESSAGE), "bandwidth message", o->bw_bytes);
	emit_int(e, CL_KEY(SET_WINDOW), "window", o->window, "messages");
	emit_int(e, CL_KEY(SET_BURSTS), "windows per pair", o->bursts, NULL);
	emit_bool(e, CL_KEY(SET_ONE_PAIR), "pairs one at a time", r->one_pair);
	if (r->one_pair_why)
		emit_annotate(e, " (%s)", r->one_pair_why);
	emit_number(e, CL_KEY(SET_GAP), "layer gap", o->gap, NULL, "%.2f");
	emit_int(e, CL_KEY(SET_SEED), "seed", (long long)o->seed, NULL);
	emit_number(e, CL_KEY(SET_SECONDS), "run time", r->seconds, "s", "%.1f");
	emit_object_end(e);
	if (r->shared_cpu_a >= 0) {
		emit_array_begin(e, CL_KEY(WARNINGS), "warnings");
		emit_string(e, NULL, "warning", "nodes of one machine pinned to the same CPU: latencies are scheduler ticks");
		emit_array_end(e);
	}
}

void cli_cluster_render(struct emit *e, const struct cli_cluster_result *r)
{
	const struct cluster_place *p = r->place;
	emit_heading(e, "archscope cluster: %d ranks on %d node%s (%.1f s)", p->size, p->nnodes, p->nnodes > 1 ? "s" : "", r->seconds);
	emit_int(e, CL_KEY(SIZE), NULL, p->size, NULL);
	cli_cluster_render_nodes(e, r);
	render_layers(e, r);
	cli_cluster_render_p2p(e, r);
	cli_cluster_render_coll(e, r);
	cli_cluster_render_slow(e, r);
	render_matrices(e, r);
	cli_cluster_render_budget(e, r);
	render_contention(e, r);
	render_run(e, r);
	cli_cluster_render_scale(e, r);
}
