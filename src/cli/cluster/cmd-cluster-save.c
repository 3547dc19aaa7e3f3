/* The files of archscope cluster, all written atomically by rank 0: --raw (placement at the start,
 * matrices as they are measured, everything at the end), --plot heatmaps, and --machine-files
 * (one machine file per node through the machine writer; the writer's schema is machine/'s). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cluster/cmd-cluster-impl.h"
#include "common/atomicfile.h"
#include "machine/file.h"
#include "machine/mtree.h"
#include "machine/probes.h"
#include "machine/write.h"
#include "report/emit.h"
#include "report/output.h"
#include "report/plot.h"

/* A text file built by fn into a temporary file beside path, renamed over it. */
static int save_text(const char *dir, const char *name, void (*fn)(FILE *f, const struct cli_cluster_result *r, const void *arg),
		     const struct cli_cluster_result *r, const void *arg)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	struct atomic_file af;
	struct as_error err = { 0 };
	if (atomic_file_open(&af, path, &err) != 0)
		return error_err(&err);
	fn(af.fp, r, arg);
	if (atomic_file_commit(&af, &err) != 0)
		return error_err(&err);
	return 0;
}

static void ranks_csv(FILE *f, const struct cli_cluster_result *r, const void *arg)
{
	(void)arg;
	const struct cluster_place *p = r->place;
	fprintf(f, "rank,host,node,node_rank,numa_node,cpus,version\n");
	for (int i = 0; i < p->size; i++) {
		const struct cluster_rank *k = &p->ranks[i];
		struct as_cpulist cpus;
		char buf[512];
		cluster_rank_cpus(k, &cpus);
		fprintf(f, "%d,%s,%d,%d,%d,\"%s\",%s\n", i, k->host, k->node, k->node_rank, k->numa_node,
			cpulist_format(&cpus, buf, sizeof(buf)), k->version);
	}
}

static void matrix_csv(FILE *f, const struct cli_cluster_result *r, const void *arg)
{
	const double *m = arg;
	int P = r->size;
	fprintf(f, "from");
	for (int j = 0; j < P; j++)
		fprintf(f, ",%d", j);
	fprintf(f, "\n");
	for (int i = 0; i < P; i++) {
		fprintf(f, "%d", i);
		for (int j = 0; j < P; j++)
			fprintf(f, ",%.6g", m[(size_t)i * P + j]);
		fprintf(f, "\n");
	}
}

static void nodes_csv(FILE *f, const struct cli_cluster_result *r, const void *arg)
{
	(void)arg;
	fprintf(f, "node,host,figure,value,unit,spread\n");
	for (int n = 0; n < r->place->nnodes; n++) {
		struct cluster_figure fig[48];
		double spread[48];
		int nf = cluster_node_figures(&r->nodes[n], fig, spread, 48);
		for (int k = 0; k < nf; k++)
			fprintf(f, "%d,%s,%s,%.9g,%s,%.4g\n", n, r->place->ranks[r->place->leader[n]].host, fig[k].name, fig[k].value,
				fig[k].unit, spread[k]);
	}
}

static void layers_csv(FILE *f, const struct cli_cluster_result *r, const void *arg)
{
	(void)arg;
	fprintf(f, "layer,rank,group\n");
	for (int k = 0; k < r->layers.n; k++)
		for (int i = 0; i < r->size; i++)
			fprintf(f, "%d,%d,%d\n", k + 1, i, r->layers.layer[k].group[i]);
}

static void loggp_csv(FILE *f, const struct cli_cluster_result *r, const void *arg)
{
	(void)arg;
	fprintf(f, "layer,a,b,L_us,o_s_us,o_r_us,g_us,G_ns_per_byte,o_prtt_us,rtt_us\n");
	for (int k = 0; k < r->layers.n; k++) {
		const struct cluster_loggp *g = &r->loggp[k];
		if (g->a != g->b)
			fprintf(f, "%d,%d,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", k + 1, g->a, g->b, g->L_us, g->o_s_us, g->o_r_us,
				g->g_us, g->G_ns_per_byte, g->o_prtt_us, g->rtt_us);
	}
}

static void contention_csv(FILE *f, const struct cli_cluster_result *r, const void *arg)
{
	(void)arg;
	fprintf(f, "pairs_per_node,pairs,bandwidth_gbs,total_gbs\n");
	for (int k = 0; k < r->ncont; k++)
		fprintf(f, "%d,%d,%.6g,%.6g\n", r->cont[k].pairs_per_node, r->cont[k].npairs, r->cont[k].bandwidth_gbs,
			r->cont[k].total_gbs);
}

static void p2p_csv(FILE *f, const struct cli_cluster_result *r, const void *arg)
{
	(void)arg;
	fprintf(f, "layer,a,b,bytes,latency_us,bandwidth_gbs,bibandwidth_gbs,latency_iterations,bandwidth_windows\n");
	for (int k = 0; k < r->np2p; k++)
		for (int s = 0; s < r->p2p[k].n; s++) {
			const struct cluster_p2p_point *pt = &r->p2p[k].pt[s];
			fprintf(f, "%d,%d,%d,%zu,%.6g,%.6g,%.6g,%d,%d\n", r->p2p_layer[k] + 1, r->p2p[k].a, r->p2p[k].b, pt->bytes,
				pt->latency_us, pt->bandwidth_gbs, pt->bibandwidth_gbs, pt->lat_iters, pt->bw_iters);
		}
}

static void coll_csv(FILE *f, const struct cli_cluster_result *r, const void *arg)
{
	(void)arg;
	fprintf(f, "communicator,ranks,operation,bytes,iterations,t_min_us,t_avg_us,t_max_us,model_algorithm,model_us,model_error\n");
	for (int k = 0; k < r->ncoll; k++) {
		const struct cluster_coll *c = &r->coll[k];
		fprintf(f, "%s,%d,%s,%zu,%d,%.6g,%.6g,%.6g,%s,%.6g,%.6g\n", cluster_comm_name(c->comm), c->ranks, cluster_coll_name(c->op),
			c->bytes, c->iters, c->t_min_us, c->t_avg_us, c->t_max_us, cluster_coll_algorithm(c->op), c->model_us,
			c->model_error);
	}
}

int cli_cluster_save_p2p(const struct cli_cluster_result *r, const char *dir)
{
	return r->np2p ? save_text(dir, "point-to-point.csv", p2p_csv, r, NULL) : 0;
}

int cli_cluster_save_text(const char *dir, const char *name, const char *text)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	struct as_error err = { 0 };
	if (atomic_file_write(path, text, strlen(text), &err) != 0)
		return error_err(&err);
	return 0;
}

int cli_cluster_save_place(const struct cli_cluster_result *r, const char *dir)
{
	return save_text(dir, "ranks.csv", ranks_csv, r, NULL);
}

int cli_cluster_save_matrices(const struct cli_cluster_result *r, const char *dir)
{
	int rc = 0;
	rc |= save_text(dir, "latency-us.csv", matrix_csv, r, r->lat);
	rc |= save_text(dir, "latency-p99-us.csv", matrix_csv, r, r->p99);
	if (r->size >= 3) /* the slow links' second sweep */
		rc |= save_text(dir, "latency-again-us.csv", matrix_csv, r, r->lat2);
	if (!(r->o->skip & CLI_CLUSTER_SKIP_BANDWIDTH))
		rc |= save_text(dir, "bandwidth-gbs.csv", matrix_csv, r, r->bw);
	if (!(r->o->skip & CLI_CLUSTER_SKIP_SHIFT))
		rc |= save_text(dir, "bandwidth-shift-gbs.csv", matrix_csv, r, r->shift);
	for (int s = 0; s < r->o->nsizes; s++) {
		char name[64];
		snprintf(name, sizeof(name), "latency-%zuB-us.csv", r->o->sizes[s]);
		rc |= save_text(dir, name, matrix_csv, r, r->size_lat[s]);
	}
	if (r->nodes_measured)
		rc |= save_text(dir, "nodes.csv", nodes_csv, r, NULL);
	return rc ? -1 : 0;
}

int cli_cluster_save_all(const struct cli_cluster_result *r, const char *dir)
{
	int rc = cli_cluster_save_matrices(r, dir);
	if (r->have_layers)
		rc |= save_text(dir, "layers.csv", layers_csv, r, NULL);
	if (r->loggp_measured && r->have_layers)
		rc |= save_text(dir, "loggp.csv", loggp_csv, r, NULL);
	if (r->ncont)
		rc |= save_text(dir, "contention.csv", contention_csv, r, NULL);
	rc |= cli_cluster_save_p2p(r, dir);
	if (r->ncoll)
		rc |= save_text(dir, "collectives.csv", coll_csv, r, NULL);
	/* the whole result as --json prints it */
	struct emit *doc = emit_new(EMIT_JSON, NULL);
	if (doc) {
		cli_cluster_render(doc, r);
		json_t *env = output_envelope("cluster", cli_machine_json(), json_incref(emit_results(doc)));
		char path[4096];
		snprintf(path, sizeof(path), "%s/cluster.json", dir);
		struct as_error err = { 0 };
		if (!env || output_write_file(path, env, &err) != 0)
			rc |= error("cannot write %s: %s", path, env ? err.msg : "out of memory");
		json_decref(env);
		emit_free(doc);
	}
	return rc ? -1 : 0;
}

/* --- heatmaps ------------------------------------------------------------------------------- */

void cli_cluster_plot(struct cli_cluster_result *r, const char *dir)
{
	static const struct { const char *name, *title, *unit; int log; } pics[] = {
		{ "cluster-latency", "latency, half round trip of 8 B (us)", "us", 1 },
		{ "cluster-bandwidth", "bandwidth, one pair at a time per rank (GB/s)", "GB/s", 0 },
		{ "cluster-bandwidth-shift", "bandwidth, every rank at once (mpiGraph shift) (GB/s)", "GB/s", 0 },
	};
	const double *mats[3] = { r->lat, r->o->skip & CLI_CLUSTER_SKIP_BANDWIDTH ? NULL : r->bw,
				  r->o->skip & CLI_CLUSTER_SKIP_SHIFT ? NULL : r->shift };
	int P = r->size;
	for (int k = 0; k < 3; k++) {
		if (!mats[k])
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s.dat", dir, pics[k].name);
		struct atomic_file af;
		FILE *f = plot_data_open(path, &af);
		if (!f) {
			r->save_failed = error("cannot write %s", path);
			return;
		}
		for (int i = 0; i < P; i++) {
			for (int j = 0; j < P; j++) {
				double v = mats[k][(size_t)i * P + j];
				if (isfinite(v))
					fprintf(f, "%d %d %.6g\n", j, i, v);
				else
					fprintf(f, "%d %d NaN\n", j, i);
			}
			fprintf(f, "\n");
		}
		if (plot_data_close(&af) != 0) {
			r->save_failed = error("cannot write %s", path);
			return;
		}
		char body[1600];
		snprintf(body, sizeof(body),
			 "set title 'archscope cluster: %s'\nset xlabel 'to rank'\nset ylabel 'from rank'\n"
			 "set xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\nset size ratio -1\nset cblabel '%s'\n%s"
			 "set datafile missing 'NaN'\nplot '%s.dat' using 1:2:3 with image notitle",
			 pics[k].title, P - 1, P - 1, pics[k].unit, pics[k].log ? "set logscale cb\n" : "", pics[k].name);
		struct as_error err = { 0 };
		int pr = plot_render(dir, pics[k].name, body, &err);
		if (pr < 0) {
			r->save_failed = error("plot: %s", err.msg);
			return;
		}
		if (pr == 1) {
			note("plot skipped: gnuplot not found");
			return;
		}
	}
}

/* --- machine files ---------------------------------------------------------------------------- */

/* A node's answers through the one description (machine/probes.h): the groups the quick probes
 * ran, the others written as run without an answer (null). NULL when out of memory. */
static struct machine_probes *node_answers(const struct cluster_node_fig *f)
{
	struct machine_probes *a = malloc(sizeof(*a));
	if (!a)
		return NULL;
	machine_probes_init(a);
	a->cpu = f->cpu;
	a->seed = (long long)f->seed;
	a->have[MP_CPU] = a->have[MP_SEED] = MP_HAVE_YES;
	static const int groups[] = { MP_CLOCK, MP_LINE, MP_CACHES, MP_ASSOC, MP_TLB, MP_INSTR,
				      MP_CONTEXTS, MP_REGISTERS, MP_TIMESLICE, MP_C2C };
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
		a->have[groups[g]] = MP_HAVE_NULL;
	const char *method = "archscope cluster: the quick probes of the node's leader";
	if (isfinite(f->clock_ghz) && f->clock_ghz > 0) {
		a->have[MP_CLOCK] = MP_HAVE_YES;
		a->clock.value = f->clock_ghz;
		a->clock.confidence = 1;
		snprintf(a->clock.method, sizeof(a->clock.method), "%s", method);
	}
	if (isfinite(f->line_bytes) && f->line_bytes > 0) {
		a->have[MP_LINE] = MP_HAVE_YES;
		a->line.value = f->line_bytes;
		a->line.confidence = 1;
		snprintf(a->line.method, sizeof(a->line.method), "%s", method);
	}
	if (f->nlevels > 0) {
		a->have[MP_CACHES] = MP_HAVE_YES;
		a->ncaches = f->nlevels < MACHINE_PROBES_MAX_LEVELS ? f->nlevels : MACHINE_PROBES_MAX_LEVELS;
		for (int l = 0; l < a->ncaches; l++) {
			machine_probes_row_init(MP_CACHES_LEVELS, &a->cache[l]);
			a->cache[l].level = l + 1;
			a->cache[l].size.value = f->level_bytes[l];
			a->cache[l].size.confidence = 1;
			a->cache[l].latency.value = f->level_ns[l];
			a->cache[l].latency.confidence = 1;
		}
		a->memory_latency.value = f->memory_ns;
		a->memory_latency.confidence = isfinite(f->memory_ns) ? 1 : 0;
	}
	if (f->contexts[0] > 0) {
		a->have[MP_CONTEXTS] = MP_HAVE_YES;
		a->contexts_fp.value = f->contexts[0];
		a->contexts_int.value = f->contexts[1];
		a->contexts_mem.value = f->contexts[2];
	}
	return a;
}

/* DIR/HOST.yaml of node n, checked (what the quick probes leave out is noted) and written. 0, or
 * -1 after error(). */
static int node_machine_file(const struct cli_cluster_result *r, int n, const char *dir)
{
	const struct cluster_place *p = r->place;
	const struct cluster_node_fig *f = &r->nodes[n];
	const char *host = p->ranks[p->leader[n]].host;
	struct machine_probes *a = node_answers(f);
	if (!a)
		return error("out of memory for the machine file of %s", host);
	struct machine_probed mp;
	memset(&mp, 0, sizeof(mp));
	snprintf(mp.model_name, sizeof(mp.model_name), "node %s (archscope cluster)", host);
	snprintf(mp.incore_cpu, sizeof(mp.incore_cpu), "native");
	mp.cpus = f->cpus;
	mp.seed = f->seed;
	mp.probes = a;
	json_t *doc = machine_probed_json(&mp);
	machine_probes_release(a);
	free(a);
	struct mtree t = { .root = doc ? mnode_from_json(doc) : NULL };
	json_decref(doc);
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s.yaml", dir, host);
	if (!t.root)
		return error("out of memory for the machine file of %s", host);
	if (asprintf(&t.header, "# machine file of node %s written by archscope %s 'cluster --machine-files' from the\n"
				"# quick probes of its leader (rank %d); assumptions are listed under archscope.assumed\n",
		     host, ARCHSCOPE_VERSION, p->leader[n]) < 0)
		t.header = NULL;
	char *report = NULL;
	int problems = machine_check(&t, path, &report);
	if (problems) /* the quick probes leave out what model needs (ways, FLOPs): say so, write anyway */
		note("machine file %s: %d key%s the quick probes do not measure (run 'archscope probe -o' on the node for a "
		     "complete one)", path, problems, problems == 1 ? "" : "s");
	free(report);
	struct as_error err = { 0 };
	int rc = 0;
	if (mtree_write_file(&t, path, 0, &err) != 0)
		rc = error_err(&err);
	mtree_free(&t);
	return rc;
}

int cli_cluster_machine_files(const struct cli_cluster_result *r, const char *dir)
{
	const struct cluster_place *p = r->place;
	if (!r->nodes_measured) {
		note("--machine-files: the nodes were not probed (--skip nodes or --probes none): no machine file written");
		return 0;
	}
	int rc = 0;
	for (int n = 0; n < p->nnodes; n++)
		if (node_machine_file(r, n, dir) != 0)
			rc = -1;
	/* which nodes are identical: the alike groups */
	for (int g = 0; g < p->nnodes; g++) {
		if (r->alike[g] != g)
			continue;
		char line[1024] = "";
		int count = 0;
		for (int n = 0; n < p->nnodes; n++)
			if (r->alike[n] == g && strlen(line) < 900) {
				snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s", count ? ", " : "",
					 p->ranks[p->leader[n]].host);
				count++;
			}
		note("machine files alike within the run's noise: %s", line);
	}
	return rc;
}
