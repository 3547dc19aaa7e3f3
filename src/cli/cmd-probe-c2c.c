/* probe c2c: core-to-core communication (BlackjackBench §3.1.4). probe/c2c.c measures and answers
 * (latency and bandwidth matrices, the locality tree, the classes of pairs); this saves the
 * matrices (raw CSV, plots) and renders the result once through the emitter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "common/buffer.h"
#include "probe/c2c.h"
#include "report/emit.h"
#include "report/plot.h"

/* The locality tree for people: each clique indented under its parent (text only). */
static void c2c_tree_text(struct emit *e, const struct probe_c2c_matrix *m, const struct clique_tree *t, int node,
			  int indent)
{
	char buf[1024] = "", sz[32];
	for (int i = 0; i < t->node[node].n; i++) {
		size_t len = strlen(buf);
		snprintf(buf + len, sizeof(buf) - len, "%s%d", i ? "," : "", m->cpus.cpu[t->node[node].member[i]]);
	}
	if (t->node[node].split_at >= 0)
		emit_text(e, "", "%*s{%s}  (split at %s blocks)", indent * 2, "", buf,
			  buffer_format_size(probe_c2c_split_bytes(m, t, node), sz, sizeof(sz)));
	else
		emit_text(e, "", "%*s{%s}", indent * 2, "", buf);
	for (int j = node + 1; j < t->nnodes; j++)
		if (t->node[j].parent == node)
			c2c_tree_text(e, m, t, j, indent + 1);
}

/* The clique tree: its recorded nodes in JSON ({cpus, parent, depth, split_at_block_bytes}),
 * indented in text; null when none was built. */
static void c2c_tree_render(struct emit *e, const struct probe_c2c_matrix *m, const struct clique_tree *tree,
			    const struct machine_probes_c2c *c)
{
	const char *title = "locality tree (cliques of cores that communicate faster with each other)";
	if (!tree) {
		emit_null(e, MP_KEY(C2C_TREE), title, "none");
		return;
	}
	emit_object_begin(e, MP_KEY(C2C_TREE), title);
	emit_table_begin(e, MP_KEY(C2C_NODES), NULL);
	for (int i = 0; i < c->nnodes; i++) {
		const struct machine_probes_node *nd = &c->node[i];
		emit_row_begin(e);
		emit_array_begin(e, MP_KEY(C2C_NODE_CPUS), NULL);
		for (int a = 0; a < nd->ncpus; a++)
			emit_int(e, NULL, NULL, nd->cpus[a], NULL);
		emit_array_end(e);
		emit_int(e, MP_KEY(C2C_NODE_PARENT), NULL, nd->parent, NULL);
		emit_int(e, MP_KEY(C2C_NODE_DEPTH), NULL, nd->depth, NULL);
		if (nd->split_at_block_bytes >= 0)
			emit_int(e, MP_KEY(C2C_NODE_SPLIT), NULL, nd->split_at_block_bytes, NULL);
		else
			emit_null(e, MP_KEY(C2C_NODE_SPLIT), NULL, NULL);
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_int(e, MP_KEY(C2C_LEAVES), NULL, c->leaves, NULL);
	c2c_tree_text(e, m, tree, 0, 0);
	emit_object_end(e);
}

/* An n x n matrix x of the CPUs cpu[] (GB/s, or ns with latency): rows of numbers in JSON with
 * null on the diagonal, in text a table with a column per CPU (title NULL: JSON only). */
static void c2c_matrix_render(struct emit *e, const char *key, const char *title, const int *cpu, int n, const double *x,
			      int latency)
{
	emit_table_begin(e, key, title);
	for (int i = 0; i < n; i++) {
		emit_tuple_begin(e);
		emit_text(e, "", "cpu %d", cpu[i]);
		for (int j = 0; j < n; j++) {
			char label[32];
			double v = x[(size_t)i * (size_t)n + (size_t)j];
			snprintf(label, sizeof(label), "cpu %d", cpu[j]);
			if (i == j)
				emit_null(e, NULL, label, "-");
			else
				emit_number(e, NULL, label, v, latency ? "ns" : "GB/s", latency ? "%.1f" : "%.2f");
		}
		emit_row_end(e);
	}
	emit_table_end(e);
}

/* How the pairs were chosen: the classes (their pairs, how many were measured, their figures)
 * and every pair measured with its own figures, the steps and their time. */
static void c2c_classes_render(struct emit *e, const struct probe_c2c_result *r)
{
	const struct probe_c2c_plan *p = &r->plan;
	const struct probe_c2c_matrix *m = &r->m;
	int nb = p->nblocks, measured = probe_c2c_plan_measured(p);
	emit_string(e, MP_KEY(C2C_MODE), "pairs", r->all_pairs ? "all_pairs" : "classes");
	emit_annotate(e, r->all_pairs_chosen ? ": every pair measured (fewer rounds than by class)"
		      : r->all_pairs ? ": every pair measured" : ": a few pairs per topology class, the matrices filled by class");
	emit_bool(e, "all_pairs_chosen", NULL, r->all_pairs_chosen);
	emit_int(e, MP_KEY(C2C_PAIRS_MEASURED), "measured", measured, "pairs");
	emit_annotate(e, " of %d, in %d steps", p->npairs, r->steps);
	emit_int(e, "steps", NULL, r->steps, NULL);
	emit_int(e, "skipped_blocks", "blocks skipped", r->skipped, NULL);
	emit_annotate(e, " (a class's curve settled; %d measured after all)", r->backfilled);
	emit_int(e, "backfilled_blocks", NULL, r->backfilled, NULL);
	emit_object_begin(e, "step_seconds", NULL);
	emit_array_begin(e, "blocks", NULL);
	for (int k = 0; k < nb; k++)
		emit_number(e, NULL, NULL, r->step_s[k], "s", NULL);
	emit_array_end(e);
	emit_number(e, "latency", NULL, r->step_s[nb], "s", NULL);
	emit_object_end(e);
	emit_table_begin(e, MP_KEY(C2C_CLASSES), "classes of pairs (what the two CPUs share per the topology)");
	for (int c = 0; c < p->nclasses; c++) {
		const struct probe_c2c_class *cl = &p->cls[c];
		emit_row_begin(e);
		emit_string(e, MP_KEY(C2C_CLASS_NAME), "class", cl->name);
		emit_int(e, MP_KEY(C2C_CLASS_PAIRS), "pairs", cl->npairs, NULL);
		emit_int(e, MP_KEY(C2C_CLASS_MEASURED), "measured", cl->nmeasured, NULL);
		emit_number(e, "bandwidth_gbs", nb ? "GB/s" : NULL, nb ? probe_c2c_plan_class_bw(p, c, nb - 1) : NAN, "GB/s", "%.2f");
		emit_number(e, "latency_ns", "latency", cl->lat_ns, "ns", "%.1f");
		int got = 0;
		for (int k = 0; k < nb; k++)
			got += !isnan(cl->bw_gbs[k]);
		emit_int(e, "blocks_measured", "blocks", got, NULL);
		emit_int(e, "level", NULL, cl->level, NULL);
		if (cl->parent >= 0)
			emit_string(e, "split_from", NULL, p->cls[cl->parent].name);
		else
			emit_null(e, "split_from", NULL, NULL);
		emit_bool(e, "split", NULL, cl->split);
		emit_bool(e, "resolved", NULL, !cl->unresolved);
		emit_text(e, "note", "%s", cl->split ? "split (its pairs disagreed)" : cl->unresolved ? "pairs disagree; no budget to split" : "");
		emit_row_end(e);
	}
	emit_table_end(e);
	/* JSON only: every pair measured, with its own figures at the largest block */
	emit_table_begin(e, "measured_pairs", NULL);
	for (int q = 0; q < p->npairs; q++) {
		if (isnan(p->lat[q]) || p->role[q] == PROBE_C2C_UNMEASURED)
			continue;
		int i, j;
		probe_c2c_pair_of(p->n, q, &i, &j);
		emit_row_begin(e);
		emit_array_begin(e, "cpus", NULL);
		emit_int(e, NULL, NULL, m->cpus.cpu[i], NULL);
		emit_int(e, NULL, NULL, m->cpus.cpu[j], NULL);
		emit_array_end(e);
		emit_string(e, "class", NULL, p->cls[p->pair_class[q]].name);
		emit_string(e, "role", NULL, probe_c2c_role_name((enum probe_c2c_role)p->role[q]));
		emit_number(e, "bandwidth_gbs", NULL, nb ? p->bw[(size_t)q * nb + nb - 1] : NAN, "GB/s", NULL);
		emit_number(e, "latency_ns", NULL, p->lat[q], "ns", NULL);
		emit_row_end(e);
	}
	emit_table_end(e);
}

static void c2c_render(struct emit *e, const struct probe_c2c_result *r, const struct machine_probes *rec)
{
	const struct probe_c2c_matrix *m = &r->m;
	const struct machine_probes_c2c *c = &rec->c2c;
	int n = m->cpus.n, nb = m->nblocks;
	emit_object_begin(e, MP_KEY(C2C), "c2c (one-way bandwidth of two pinned threads taking turns on a block; line ping-pong latency)");
	emit_cpulist(e, MP_KEY(C2C_CPUS), "cpus", &m->cpus);
	if (c->bandwidth_gbs)
		c2c_matrix_render(e, MP_KEY(C2C_BANDWIDTH), NULL, c->cpus, c->ncpus, c->bandwidth_gbs, 0);
	else
		emit_null(e, MP_KEY(C2C_BANDWIDTH), NULL, NULL);
	emit_int(e, MP_KEY(C2C_BLOCK), NULL, c->block_bytes, NULL);
	c2c_matrix_render(e, MP_KEY(C2C_LATENCY), "latency (half the round trip of a cache line)", c->cpus, c->ncpus,
			  c->latency_ns, 1);
	/* per block: the matrix in JSON, a column per pair in text */
	emit_table_begin(e, "blocks", "one-way bandwidth per block size");
	for (int k = 0; k < nb; k++) {
		emit_row_begin(e);
		emit_size(e, "block_bytes", "block", m->block_bytes[k]);
		c2c_matrix_render(e, "bandwidth_gbs", NULL, m->cpus.cpu, n, &m->bandwidth_gbs[(size_t)k * (size_t)n * (size_t)n], 0);
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++) {
				char pair[32];
				snprintf(pair, sizeof(pair), "%d<->%d", m->cpus.cpu[i], m->cpus.cpu[j]);
				emit_number(e, NULL, pair, probe_c2c_bw(m, k, i, j), "GB/s", "%.2f");
			}
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_string(e, "method", NULL,
		    "two pinned threads take turns updating a block first touched by the first; one-way GB/s = block bytes per round; "
		    "latency = half the round trip of a cache line bounced between them; pairs in rounds of disjoint pairs "
		    "measured at once: by class, a few pairs per topology class and random pairs to verify them, finer "
		    "classes where they disagree, the matrices filled by class (--all-pairs: every pair, round robin); "
		    "tree by clique splitting from the largest block down");
	emit_int(e, "rounds", "rounds", r->rounds, NULL);
	emit_int(e, "concurrent_pairs", "pairs at once", m->concurrent_pairs, NULL);
	c2c_classes_render(e, r);
	c2c_tree_render(e, m, r->tree, c);
	emit_object_end(e);
}

/* --raw: block size, then one column of GB/s per pair; --plot: those curves and a heat map of the
 * largest block's matrix. */
static void c2c_evidence(struct cli_probe_ctx *ctx, const struct probe_c2c_matrix *m)
{
	int n = m->cpus.n, nb = m->nblocks;
	const int *cpu = m->cpus.cpu;
	char sz[32];
	int cols = 1 + n * (n - 1) / 2;
	double *rows = malloc((size_t)nb * (size_t)cols * sizeof(double) + 1);
	if (!rows)
		return;
	char header[4096] = "block_bytes";
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			size_t len = strlen(header);
			snprintf(header + len, sizeof(header) - len, ",gbs_%d_%d", cpu[i], cpu[j]);
		}
	for (int k = 0; k < nb; k++) {
		int c = 0;
		rows[(size_t)k * cols + c++] = (double)m->block_bytes[k];
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++)
				rows[(size_t)k * cols + c++] = probe_c2c_bw(m, k, i, j);
	}
	cli_probe_save_raw(ctx, "c2c-bandwidth", header, rows, (size_t)nb, cols);
	if (ctx->plot_dir) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/c2c.dat", ctx->plot_dir);
		struct atomic_file af;
		FILE *f = plot_data_open(path, &af);
		if (f) {
			fputs("block", f);
			for (int i = 0; i < n; i++)
				for (int j = i + 1; j < n; j++)
					fprintf(f, " cpu%d-cpu%d", cpu[i], cpu[j]);
			fputc('\n', f);
			for (int k = 0; k < nb; k++) {
				for (int c = 0; c < cols; c++)
					fprintf(f, "%.10g%s", rows[(size_t)k * cols + c], c + 1 < cols ? " " : "\n");
			}
			cli_probe_data_done(ctx, &af);
			char *body = NULL;
			if (asprintf(&body,
				     "set title 'archscope probe c2c: one-way bandwidth between cores'\n"
				     "set xlabel 'block size (bytes; k = 1024)'\nset ylabel 'GB/s'\nset format x '%%.0b%%B'\n"
				     "set logscale x 2\nset grid\nset key top right\n"
				     "plot for [c=2:%d] 'c2c.dat' using 1:c with linespoints title columnhead(c)",
				     cols) >= 0) {
				cli_probe_plot(ctx, "c2c", body);
				free(body);
			}
			snprintf(path, sizeof(path), "%s/c2c-heatmap.dat", ctx->plot_dir);
			f = plot_data_open(path, &af);
			if (f) {
				for (int i = 0; i < n; i++)
					for (int j = 0; j < n; j++)
						fprintf(f, "%d %d %.6g%s", cpu[i], cpu[j], i == j ? 0.0 : probe_c2c_bw(m, nb - 1, i, j),
							j + 1 < n ? "\n" : "\n\n");
				cli_probe_data_done(ctx, &af);
				if (asprintf(&body,
					     "set title 'c2c bandwidth (GB/s) at %s blocks'\nset xlabel 'cpu'\nset ylabel 'cpu'\n"
					     "set view map\nset palette rgb 33,13,10\n"
					     "plot 'c2c-heatmap.dat' using 1:2:3 with image title ''",
					     buffer_format_size(m->block_bytes[nb - 1], sz, sizeof(sz))) >= 0) {
					cli_probe_plot(ctx, "c2c-heatmap", body);
					free(body);
				}
			}
		}
	}
	free(rows);
}

int cli_probe_row_c2c(struct cli_probe_ctx *ctx)
{
	if (ctx->env.allowed.n > PROBE_C2C_MAX_CPUS)
		note("c2c: measuring the first %d of %d allowed CPUs", PROBE_C2C_MAX_CPUS, ctx->env.allowed.n);
	struct probe_c2c_result r;
	struct as_error err = { 0 };
	int rc = probe_c2c_find(&ctx->env, cli_probe_progress, &r, &err);
	progress_done();
	if (rc) {
		probe_c2c_result_release(&r);
		return error_err(&err);
	}
	if (cli_probe_record_c2c(ctx->rec, &r) != 0) {
		rc = -1;
	} else if (r.m.cpus.n == 0) {
		note("c2c needs two allowed CPUs; only %d allowed", r.allowed);
		CLI_PROBE_RENDER(ctx, emit_null, MP_KEY(C2C), NULL, NULL);
	} else {
		if (ctx->raw_dir || ctx->plot_dir)
			c2c_evidence(ctx, &r.m);
		CLI_PROBE_RENDER(ctx, c2c_render, &r, ctx->rec);
	}
	probe_c2c_result_release(&r);
	return rc;
}
