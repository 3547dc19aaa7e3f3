/* The core and OS rows of the probe table: execution contexts, the scheduler time slice and
 * core-to-core communication (BlackjackBench §3.4, §3.6, §3.1.4). probe/contexts.c, timeslice.c
 * and c2c.c measure and answer; this renders their results as text, JSON, raw CSV and plots. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/probe.h"
#include "common/buffer.h"
#include "probe/c2c.h"
#include "probe/contexts.h"
#include "probe/timeslice.h"
#include "report/table.h"

int probe_row_contexts(struct probe_ctx *ctx)
{
	struct probe_contexts_result r;
	struct as_error err = { 0 };
	int rc = probe_contexts_find(&ctx->env, probe_progress, &r, &err);
	progress_done();
	if (rc != 0) {
		fprintf(stderr, "archscope: error: %s\n", err.msg);
		if (r.max_threads == 0) { /* the CPU set could not be widened: nothing ran */
			probe_contexts_result_release(&r);
			return EXIT_FAIL;
		}
		rc = EXIT_FAIL;
	}
	json_t *res = json_object();
	struct table *t = table_new(4, "kind", "contexts", "confidence", "normalised time for M = 1, 2, ...");
	for (int k = 0; k < r.nkinds; k++) {
		const struct probe_contexts_kind *kr = &r.kind[k];
		const struct probe_curve *c = &kr->curve;
		const char *name = probe_contexts_kind_name((enum contexts_kind)k);
		json_t *ans = probe_answer_json(&kr->contexts, 1);
		json_t *curve = json_array();
		char series[512] = "";
		for (size_t i = 0; i < c->n; i++) {
			json_array_append_new(curve, json_pack("{s:i,s:f,s:f}", "threads", (json_int_t)c->x[i],
							       "normalised_min", c->min_ns[i], "normalised_median", c->median_ns[i]));
			size_t len = strlen(series);
			snprintf(series + len, sizeof(series) - len, "%s%.2f", i ? " " : "", c->min_ns[i]);
		}
		json_object_set_new(ans, "curve", curve);
		json_object_set_new(res, name, ans);
		char file[32];
		snprintf(file, sizeof(file), "contexts-%s", name);
		probe_save_curve(ctx, file, "threads,normalised_min,normalised_median", c);
		table_cell(t, "%s", name);
		if (isfinite(kr->contexts.value))
			table_cell(t, "%.0f", kr->contexts.value);
		else
			table_cell(t, ">= %.0f (no step)", c->n ? c->x[c->n - 1] : 0.0);
		table_cell(t, "%.2f", kr->contexts.confidence);
		table_cell(t, "%s", series);
	}
	json_object_set_new(ctx->results, "contexts", res);
	if (!ctx->json) {
		printf("contexts (threads not pinned; os_reported: %d hardware threads)\n", r.os_threads);
		table_print(t, stdout, "  ");
		printf("\n");
	}
	table_free(t);
	probe_contexts_result_release(&r);
	return rc;
}

int probe_row_timeslice(struct probe_ctx *ctx)
{
	struct probe_timeslice_result r;
	struct as_error err = { 0 };
	int rc = probe_timeslice_find(&ctx->env, probe_progress, &r, &err);
	progress_done();
	if (rc) {
		fprintf(stderr, "archscope: error: %s\n", err.msg);
		probe_timeslice_result_release(&r);
		return EXIT_FAIL;
	}
	json_t *res = json_object();
	json_object_set_new(res, "slice", probe_answer_json(&r.slice, 0));
	json_object_set_new(res, "threads", json_integer(r.threads));
	json_object_set_new(res, "run_s", json_real(r.run_s));
	json_object_set_new(res, "gaps", json_integer((json_int_t)r.n));
	json_object_set_new(res, "threshold_us", json_real(r.threshold_us));
	json_t *q = json_object();
	static const char *qn[TIMESLICE_NQUANTILES] = { "p10_ms", "p25_ms", "p50_ms", "p75_ms", "p90_ms" };
	for (int i = 0; i < TIMESLICE_NQUANTILES; i++)
		json_object_set_new(q, qn[i], isfinite(r.quantile_ms[i]) ? json_real(r.quantile_ms[i]) : json_null());
	json_object_set_new(res, "distribution", q);
	json_object_set_new(ctx->results, "timeslice", res);
	if (r.n)
		probe_save_raw(ctx, "timeslice-gaps", "gap_us", r.gaps_us, r.n, 1);
	if (!ctx->json) {
		printf("timeslice (%d unpinned threads on %d CPUs for %.1f s; %zu gaps above %.0f us)\n", r.threads, r.cpus,
		       r.run_s, r.n, r.threshold_us);
		if (r.have_mode) {
			const struct dist_mode *m = &r.mode;
			printf("  time slice      %.2f ms (mode: %zu gaps, %.0f %%, between %.2f and %.2f ms; confidence %.2f)\n",
			       r.slice.value, m->count, m->share * 100, m->lo / 1000, m->hi / 1000, r.slice.confidence);
			printf("  distribution    p10 %.2f  p25 %.2f  median %.2f  p75 %.2f  p90 %.2f ms\n", r.quantile_ms[0],
			       r.quantile_ms[1], r.quantile_ms[2], r.quantile_ms[3], r.quantile_ms[4]);
		} else {
			printf("  time slice      no gaps above the threshold: no preemption seen\n");
		}
		printf("\n");
	}
	probe_timeslice_result_release(&r);
	return 0;
}

/* --- core to core ------------------------------------------------------------------------- */

static void print_tree(const struct probe_c2c_matrix *m, const struct clique_tree *t, int node, int indent)
{
	char buf[1024] = "", sz[32];
	for (int i = 0; i < t->node[node].n; i++) {
		size_t len = strlen(buf);
		snprintf(buf + len, sizeof(buf) - len, "%s%d", i ? "," : "", m->cpus.cpu[t->node[node].member[i]]);
	}
	if (t->node[node].split_at >= 0)
		printf("  %*s{%s}  (split at %s blocks)\n", indent * 2, "", buf,
		       buffer_format_size(probe_c2c_split_bytes(m, t, node), sz, sizeof(sz)));
	else
		printf("  %*s{%s}\n", indent * 2, "", buf);
	for (int j = node + 1; j < t->nnodes; j++)
		if (t->node[j].parent == node)
			print_tree(m, t, j, indent + 1);
}

/* An n x n matrix as JSON rows, null on the diagonal. */
static json_t *matrix_json(const struct probe_c2c_matrix *m, int k, int latency)
{
	int n = m->cpus.n;
	json_t *rows = json_array();
	for (int i = 0; i < n; i++) {
		json_t *row = json_array();
		for (int j = 0; j < n; j++)
			json_array_append_new(row, i == j ? json_null()
							  : json_real(latency ? probe_c2c_lat(m, i, j) : probe_c2c_bw(m, k, i, j)));
		json_array_append_new(rows, row);
	}
	return rows;
}

static json_t *c2c_json(const struct probe_c2c_result *r)
{
	const struct probe_c2c_matrix *m = &r->m;
	int n = m->cpus.n, nb = m->nblocks;
	json_t *res = json_object();
	json_t *cpuj = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(cpuj, json_integer(m->cpus.cpu[i]));
	json_object_set_new(res, "cpus", cpuj);
	json_t *blocksj = json_array();
	for (int k = 0; k < nb; k++)
		json_array_append_new(blocksj, json_pack("{s:I,s:o}", "block_bytes", (json_int_t)m->block_bytes[k], "bandwidth_gbs",
							 matrix_json(m, k, 0)));
	json_object_set_new(res, "bandwidth_gbs", nb ? matrix_json(m, nb - 1, 0) : json_null());
	json_object_set_new(res, "bandwidth_block_bytes", json_integer(nb ? (json_int_t)m->block_bytes[nb - 1] : 0));
	json_object_set_new(res, "latency_ns", matrix_json(m, 0, 1));
	json_object_set_new(res, "blocks", blocksj);
	json_object_set_new(res, "method",
			    json_string("two pinned threads take turns updating a block first touched by the first; one-way GB/s = block bytes per round; "
					"latency = half the round trip of a cache line bounced between them; tree by clique splitting from the largest block down"));
	const struct clique_tree *tree = r->tree;
	if (tree) {
		json_t *nodes = json_array();
		for (int i = 0; i < tree->nnodes; i++) {
			json_t *mem = json_array();
			for (int a = 0; a < tree->node[i].n; a++)
				json_array_append_new(mem, json_integer(m->cpus.cpu[tree->node[i].member[a]]));
			json_array_append_new(nodes, json_pack("{s:o,s:i,s:i,s:o}", "cpus", mem, "parent", tree->node[i].parent,
							       "depth", tree->node[i].depth, "split_at_block_bytes",
							       tree->node[i].split_at >= 0
								       ? json_integer((json_int_t)probe_c2c_split_bytes(m, tree, i))
								       : json_null()));
		}
		json_object_set_new(res, "tree", json_pack("{s:o,s:i}", "nodes", nodes, "leaves", clique_tree_leaves(tree)));
	} else {
		json_object_set_new(res, "tree", json_null());
	}
	return res;
}

/* --raw: block size, then one column of GB/s per pair; --plot: those curves and a heat map of the
 * largest block's matrix. */
static void c2c_evidence(struct probe_ctx *ctx, const struct probe_c2c_matrix *m)
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
	probe_save_raw(ctx, "c2c-bandwidth", header, rows, (size_t)nb, cols);
	if (ctx->plot_dir) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/c2c.dat", ctx->plot_dir);
		FILE *f = fopen(path, "w");
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
			fclose(f);
			char *body = NULL;
			if (asprintf(&body,
				     "set title 'archscope probe c2c: one-way bandwidth between cores'\n"
				     "set xlabel 'block size (bytes; k = 1024)'\nset ylabel 'GB/s'\nset format x '%%.0b%%B'\n"
				     "set logscale x 2\nset grid\nset key top right\n"
				     "plot for [c=2:%d] 'c2c.dat' using 1:c with linespoints title columnhead(c)",
				     cols) >= 0) {
				probe_plot(ctx, "c2c", body);
				free(body);
			}
			snprintf(path, sizeof(path), "%s/c2c-heatmap.dat", ctx->plot_dir);
			f = fopen(path, "w");
			if (f) {
				for (int i = 0; i < n; i++)
					for (int j = 0; j < n; j++)
						fprintf(f, "%d %d %.6g%s", cpu[i], cpu[j], i == j ? 0.0 : probe_c2c_bw(m, nb - 1, i, j),
							j + 1 < n ? "\n" : "\n\n");
				fclose(f);
				if (asprintf(&body,
					     "set title 'c2c bandwidth (GB/s) at %s blocks'\nset xlabel 'cpu'\nset ylabel 'cpu'\n"
					     "set view map\nset palette rgb 33,13,10\n"
					     "plot 'c2c-heatmap.dat' using 1:2:3 with image title ''",
					     buffer_format_size(m->block_bytes[nb - 1], sz, sizeof(sz))) >= 0) {
					probe_plot(ctx, "c2c-heatmap", body);
					free(body);
				}
			}
		}
	}
	free(rows);
}

int probe_row_c2c(struct probe_ctx *ctx)
{
	if (ctx->env.allowed.n > PROBE_C2C_MAX_CPUS)
		note("c2c: measuring the first %d of %d allowed CPUs", PROBE_C2C_MAX_CPUS, ctx->env.allowed.n);
	struct probe_c2c_result r;
	struct as_error err = { 0 };
	int rc = probe_c2c_find(&ctx->env, probe_progress, &r, &err);
	progress_done();
	if (rc) {
		fprintf(stderr, "archscope: error: %s\n", err.msg);
		probe_c2c_result_release(&r);
		return EXIT_FAIL;
	}
	if (r.m.cpus.n == 0) {
		note("c2c needs two allowed CPUs; only %d allowed", r.allowed);
		json_object_set_new(ctx->results, "c2c", json_null());
		probe_c2c_result_release(&r);
		return 0;
	}
	const struct probe_c2c_matrix *m = &r.m;
	int n = m->cpus.n, nb = m->nblocks;
	json_object_set_new(ctx->results, "c2c", c2c_json(&r));
	if (ctx->raw_dir || ctx->plot_dir)
		c2c_evidence(ctx, m);
	if (!ctx->json) {
		char sz[32];
		printf("c2c (one-way bandwidth of two pinned threads taking turns on a block; line ping-pong latency)\n");
		/* one column per pair */
		printf("  %-10s", "block");
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++) {
				char p[32];
				snprintf(p, sizeof(p), "%d<->%d", m->cpus.cpu[i], m->cpus.cpu[j]);
				printf(" %12s", p);
			}
		printf("\n");
		for (int k = 0; k < nb; k++) {
			printf("  %-10s", buffer_format_size(m->block_bytes[k], sz, sizeof(sz)));
			for (int i = 0; i < n; i++)
				for (int j = i + 1; j < n; j++)
					printf(" %7.2f GB/s", probe_c2c_bw(m, k, i, j));
			printf("\n");
		}
		printf("  %-10s", "latency");
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++)
				printf(" %9.1f ns", probe_c2c_lat(m, i, j));
		printf("\n  locality tree (cliques of cores that communicate faster with each other):\n");
		if (r.tree)
			print_tree(m, r.tree, 0, 1);
		printf("\n");
	}
	probe_c2c_result_release(&r);
	return 0;
}
