/* probe c2c: core-to-core communication (BlackjackBench §3.1.4). probe/c2c.c measures and answers
 * (latency and bandwidth matrices, the locality tree, the classes of pairs); this saves the
 * matrices (raw CSV, plots) and renders the record for people. */
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

/* The locality tree for people: each clique indented under its parent. */
static void c2c_tree_text(struct emit *e, const struct machine_probes_c2c *c, int node, int indent)
{
	const struct machine_probes_node *nd = &c->node[node];
	char buf[1024] = "", sz[32];
	for (int i = 0; i < nd->ncpus; i++) {
		size_t len = strlen(buf);
		snprintf(buf + len, sizeof(buf) - len, "%s%d", i ? "," : "", nd->cpus[i]);
	}
	if (nd->split_at_block_bytes >= 0)
		emit_text(e, "", "%*s{%s}  (split at %s blocks)", indent * 2, "", buf,
			  buffer_format_size((size_t)nd->split_at_block_bytes, sz, sizeof(sz)));
	else
		emit_text(e, "", "%*s{%s}", indent * 2, "", buf);
	for (int j = node + 1; j < c->nnodes; j++)
		if (c->node[j].parent == node)
			c2c_tree_text(e, c, j, indent + 1);
}

/* An n x n matrix x of the CPUs cpu[] (GB/s, or ns with latency): a table with a column per CPU. */
static void c2c_matrix_render(struct emit *e, const char *title, const int *cpu, int n, const double *x, int latency)
{
	emit_table_begin(e, NULL, title);
	for (int i = 0; i < n; i++) {
		emit_tuple_begin(e);
		emit_text(e, "", "cpu %d", cpu[i]);
		for (int j = 0; j < n; j++) {
			char label[32];
			snprintf(label, sizeof(label), "cpu %d", cpu[j]);
			if (i == j)
				emit_null(e, NULL, label, "-");
			else
				emit_number(e, NULL, label, x[(size_t)i * (size_t)n + (size_t)j], latency ? "ns" : "GB/s",
					    latency ? "%.1f" : "%.2f");
		}
		emit_row_end(e);
	}
	emit_table_end(e);
}

/* How the pairs were chosen: the classes, their pairs, how many were measured, their figures. */
static void c2c_classes_render(struct emit *e, const struct machine_probes *rec, int all_pairs)
{
	const struct machine_probes_c2c *c = &rec->c2c;
	emit_string(e, NULL, "pairs", c->mode);
	emit_annotate(e, c->all_pairs_chosen ? ": every pair measured (fewer rounds than by class)"
		      : all_pairs ? ": every pair measured" : ": a few pairs per topology class, the matrices filled by class");
	emit_int(e, NULL, "measured", c->pairs_measured, "pairs");
	int npairs = c->ncpus * (c->ncpus - 1) / 2;
	emit_annotate(e, " of %d, in %d steps", npairs, c->steps);
	emit_int(e, NULL, "blocks skipped", c->skipped_blocks, NULL);
	emit_annotate(e, " (a class's curve settled; %d measured after all)", c->backfilled_blocks);
	emit_table_begin(e, NULL, "classes of pairs (what the two CPUs share per the topology)");
	for (int k = 0; k < c->nclasses; k++) {
		const struct machine_probes_c2c_class *cl = &c->cls[k];
		emit_row_begin(e);
		emit_string(e, NULL, "class", cl->name);
		emit_int(e, NULL, "pairs", cl->pairs, NULL);
		emit_int(e, NULL, "measured", cl->measured, NULL);
		emit_number(e, NULL, c->nstep_blocks ? "GB/s" : NULL, cl->bandwidth_gbs, "GB/s", "%.2f");
		emit_number(e, NULL, "latency", cl->latency_ns, "ns", "%.1f");
		emit_int(e, NULL, "blocks", cl->blocks_measured, NULL);
		emit_text(e, "note", "%s", cl->split ? "split (its pairs disagreed)" : cl->resolved ? "" : "pairs disagree; no budget to split");
		emit_row_end(e);
	}
	emit_table_end(e);
}

/* The bandwidth per block: a column per pair. */
static void c2c_blocks_render(struct emit *e, const struct machine_probes_c2c *c)
{
	int n = c->ncpus;
	emit_table_begin(e, NULL, "one-way bandwidth per block size");
	for (int k = 0; k < c->nblocks; k++) {
		const struct machine_probes_c2c_block *b = &c->block[k];
		emit_row_begin(e);
		emit_size(e, NULL, "block", (uint64_t)b->block_bytes);
		for (int i = 0; i < n && b->ncpus == n; i++)
			for (int j = i + 1; j < n; j++) {
				char pair[32];
				snprintf(pair, sizeof(pair), "%d<->%d", c->cpus[i], c->cpus[j]);
				emit_number(e, NULL, pair, b->bandwidth_gbs[(size_t)i * (size_t)n + (size_t)j], "GB/s", "%.2f");
			}
		emit_row_end(e);
	}
	emit_table_end(e);
}

/* c2c for people, from the record. */
static void c2c_render(struct emit *e, const struct machine_probes *rec)
{
	const struct machine_probes_c2c *c = &rec->c2c;
	char cpus[1024] = "";
	for (int i = 0; i < c->ncpus; i++) {
		size_t len = strlen(cpus);
		snprintf(cpus + len, sizeof(cpus) - len, "%s%d", i ? "," : "", c->cpus[i]);
	}
	emit_object_begin(e, NULL, "c2c (one-way bandwidth of two pinned threads taking turns on a block; line ping-pong latency)");
	emit_text(e, "cpus", "%s", cpus);
	c2c_matrix_render(e, "latency (half the round trip of a cache line)", c->cpus, c->ncpus, c->latency_ns, 1);
	c2c_blocks_render(e, c);
	emit_int(e, NULL, "rounds", c->rounds, NULL);
	emit_int(e, NULL, "pairs at once", c->concurrent_pairs, NULL);
	c2c_classes_render(e, rec, !strcmp(c->mode, machine_probes_c2c_mode_name(MP_C2C_MODE_ALL_PAIRS)));
	if (rec->have[MP_C2C_TREE] == MP_HAVE_YES && c->nnodes) {
		emit_object_begin(e, NULL, "locality tree (cliques of cores that communicate faster with each other)");
		c2c_tree_text(e, c, 0, 0);
		emit_object_end(e);
	} else {
		emit_text(e, "locality tree (cliques of cores that communicate faster with each other)", "none");
	}
	emit_object_end(e);
}

/* --raw: block size, then one column of GB/s per pair; --plot: those curves and a heat map of the
 * largest block's matrix; from the record. */
static void c2c_evidence(struct cli_probe_ctx *ctx, const struct machine_probes_c2c *c)
{
	int n = c->ncpus, nb = c->nblocks;
	const int *cpu = c->cpus;
	char sz[32];
	int cols = 1 + n * (n - 1) / 2;
	double *rows = malloc((size_t)nb * (size_t)cols * sizeof(double) + 1);
	if (!rows)
		return;
	char header[4096];
	snprintf(header, sizeof(header), "%s", MP_KEY(C2C_BLOCK_BYTES));
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			size_t len = strlen(header);
			snprintf(header + len, sizeof(header) - len, ",gbs_%d_%d", cpu[i], cpu[j]);
		}
	for (int k = 0; k < nb; k++) {
		int col = 0;
		const struct machine_probes_c2c_block *b = &c->block[k];
		rows[(size_t)k * cols + col++] = (double)b->block_bytes;
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++)
				rows[(size_t)k * cols + col++] = b->bandwidth_gbs[(size_t)i * (size_t)n + (size_t)j];
	}
	cli_probe_save_raw(ctx, "c2c-bandwidth", header, rows, (size_t)nb, cols);
	if (ctx->plot_dir && nb) {
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
				for (int col = 0; col < cols; col++)
					fprintf(f, "%.10g%s", rows[(size_t)k * cols + col], col + 1 < cols ? " " : "\n");
			}
			cli_probe_data_done(ctx, &af);
			cli_probe_plotf(ctx, "c2c",
					"set title 'archscope probe c2c: one-way bandwidth between cores'\n"
					"set xlabel 'block size (bytes; k = 1024)'\nset ylabel 'GB/s'\nset format x '%%.0b%%B'\n"
					"set logscale x 2\nset grid\nset key top right\n"
					"plot for [c=2:%d] 'c2c.dat' using 1:c with linespoints title columnhead(c)",
					cols);
			snprintf(path, sizeof(path), "%s/c2c-heatmap.dat", ctx->plot_dir);
			f = plot_data_open(path, &af);
			if (f) {
				const double *top = c->block[nb - 1].bandwidth_gbs;
				for (int i = 0; i < n; i++)
					for (int j = 0; j < n; j++)
						fprintf(f, "%d %d %.6g%s", cpu[i], cpu[j], i == j ? 0.0 : top[(size_t)i * (size_t)n + (size_t)j],
							j + 1 < n ? "\n" : "\n\n");
				cli_probe_data_done(ctx, &af);
				cli_probe_plotf(ctx, "c2c-heatmap",
						"set title 'c2c bandwidth (GB/s) at %s blocks'\nset xlabel 'cpu'\nset ylabel 'cpu'\n"
						"set view map\nset palette rgb 33,13,10\n"
						"plot 'c2c-heatmap.dat' using 1:2:3 with image title ''",
						buffer_format_size((size_t)c->block[nb - 1].block_bytes, sz, sizeof(sz)));
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
	int rc = probe_c2c_find(&ctx->env, cli_probe_progress, &r, ctx->rec, &err);
	progress_done();
	probe_c2c_result_release(&r);
	if (rc)
		return error_err(&err);
	const struct machine_probes_c2c *c = &ctx->rec->c2c;
	if (ctx->rec->have[MP_C2C] != MP_HAVE_YES) {
		note("c2c needs two allowed CPUs; only %d allowed", ctx->env.allowed.n);
		cli_probe_measured(ctx);
	} else {
		if (ctx->raw_dir || ctx->plot_dir)
			c2c_evidence(ctx, c);
		CLI_PROBE_RENDER(ctx, c2c_render, ctx->rec);
	}
	return 0;
}
