/* archscope numa load: Hydralisk's load generator. Flows SRC:DST:THREADS run together with the
 * bandwidth of each shown every second (ncurses on a terminal, a line otherwise); at the end per
 * flow, per link, and the cross-talk table of each flow alone against all together. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd-numa.h"
#include "cli/parse-options.h"
#include "bench/kernels.h"
#include "common/buffer.h"
#include "common/interrupt.h"
#include "machine/result-numa.h"

struct load_ctx {
	const struct numa_flow *f;
	int n;
	struct cli_numa_view *view;
	FILE *lines;                   /* a line per interval (NULL: none) */
};

static void on_sample(void *arg, const struct numa_load_sample *s)
{
	struct load_ctx *c = arg;
	if (c->view) {
		cli_numa_view_sample(c->view, s);
		return;
	}
	if (!c->lines)
		return;
	if (s->phase >= 0)
		fprintf(c->lines, "%5.1f s  alone %d:%d:%d", s->t_s, c->f[s->phase].src, c->f[s->phase].dst, c->f[s->phase].threads);
	else
		fprintf(c->lines, "%5.1f s  together", s->t_s);
	for (int k = 0; k < c->n; k++)
		if (isfinite(s->gbs[k]))
			fprintf(c->lines, "  %d:%d:%d %.2f GB/s", c->f[k].src, c->f[k].dst, c->f[k].threads, s->gbs[k]);
	fputc('\n', c->lines);
	fflush(c->lines);
}

struct load_result {
	const struct numa_flow *f;
	int n;
	struct as_cpulist cpus[NUMA_MAX_FLOWS];
	int dry_run;
	struct numa_load_result r;
	const struct numa_prediction *pred;       /* together, NULL without --predict */
	const struct numa_prediction *pred_alone;
	const char *predict_path;
	int nodes;
	double duration_s;
};

static void links_render(struct emit *e, const struct load_result *l)
{
	emit_table_begin(e, NLD_KEY(LINKS), "links (all flows together)");
	for (int k = 0; k < l->n; k++) {
		int first = 1;
		for (int q = 0; q < k; q++)
			first &= !(l->f[q].src == l->f[k].src && l->f[q].dst == l->f[k].dst);
		if (!first)
			continue;
		double sum = 0, pred = 0;
		int flows = 0, threads = 0;
		for (int q = k; q < l->n; q++)
			if (l->f[q].src == l->f[k].src && l->f[q].dst == l->f[k].dst) {
				sum += l->r.together_gbs[q];
				pred += l->pred ? l->pred[q].flow_gbs : NAN;
				flows++;
				threads += l->f[q].threads;
			}
		emit_row_begin(e);
		emit_int(e, NLD_KEY(LINK_SRC), "from node", l->f[k].src, NULL);
		emit_int(e, NLD_KEY(LINK_DST), "memory of node", l->f[k].dst, NULL);
		emit_int(e, NLD_KEY(LINK_FLOWS), "flows", flows, NULL);
		emit_int(e, NLD_KEY(LINK_THREADS), "threads", threads, NULL);
		emit_number(e, NLD_KEY(LINK_MEASURED), "measured", sum, "GB/s", "%.2f");
		emit_number(e, NLD_KEY(LINK_PREDICTED), l->pred ? "predicted" : NULL, l->pred ? pred : NAN, "GB/s", "%.2f");
		emit_row_end(e);
	}
	emit_table_end(e);
}

static void crosstalk_render(struct emit *e, const struct load_result *l)
{
	emit_table_begin(e, NLD_KEY(XT), "cross-talk (each flow alone, then all together)");
	for (int k = 0; k < l->n; k++) {
		emit_row_begin(e);
		emit_text(e, "flow", "%d:%d:%d", l->f[k].src, l->f[k].dst, l->f[k].threads);
		emit_int(e, NLD_KEY(XT_SRC), NULL, l->f[k].src, NULL);
		emit_int(e, NLD_KEY(XT_DST), NULL, l->f[k].dst, NULL);
		emit_int(e, NLD_KEY(XT_THREADS), NULL, l->f[k].threads, NULL);
		emit_number(e, NLD_KEY(XT_ALONE_GBS), "alone", l->r.alone_gbs[k], "GB/s", "%.2f");
		emit_number(e, NLD_KEY(XT_TOGETHER_GBS), "together", l->r.together_gbs[k], "GB/s", "%.2f");
		emit_number(e, NLD_KEY(XT_RATIO), "together / alone", l->r.together_gbs[k] / l->r.alone_gbs[k], NULL, "%.3f");
		if (l->pred) {
			emit_number(e, NLD_KEY(XT_PRED_ALONE), "predicted alone", l->pred_alone[k].flow_gbs, "GB/s", "%.2f");
			emit_number(e, NLD_KEY(XT_PRED_RATIO), "predicted together / alone",
				    l->pred[k].flow_gbs / l->pred_alone[k].flow_gbs, NULL, "%.3f");
		}
		const struct conditions *c = l->r.alone_run ? &l->r.alone_cond[k] : &l->r.together_cond;
		emit_text(e, "conditions", "%s", c->noisy ? "noisy" : "quiet");
		emit_object_begin(e, NLD_KEY(XT_ALONE), NULL);
		cli_conditions_render(e, NLD_KEY(XT_ALONE_COND), NLD_KEY(XT_ALONE_NOISY), c);
		emit_object_end(e);
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_object_begin(e, NLD_KEY(TOGETHER), NULL);
	cli_conditions_render(e, NLD_KEY(TOGETHER_COND), NLD_KEY(TOGETHER_NOISY), &l->r.together_cond);
	emit_object_end(e);
	if (l->r.together_cond.noisy)
		emit_text(e, "noisy", "together: %s (the flows' figures are flagged)", l->r.together_cond.why);
	for (int k = 0; k < l->n && l->r.alone_run; k++)
		if (l->r.alone_cond[k].noisy)
			emit_text(e, "noisy", "flow %d alone: %s", k, l->r.alone_cond[k].why);
}

static void load_render(struct emit *e, const struct load_result *l)
{
	cli_numa_one_node_note(e, NLD_KEY(NODE_COUNT), l->nodes);
	if (l->dry_run) {
		emit_bool(e, NLD_KEY(DRY_RUN), "dry run", 1);
		emit_annotate(e, " (placement only, nothing ran)");
		cli_numa_flows_render(e, NLD_KEY(FLOWS), l->f, l->n, l->pred, NULL, l->cpus);
		return;
	}
	cli_numa_flows_render(e, NLD_KEY(FLOWS), l->f, l->n, l->pred, l->r.together_gbs, l->cpus);
	links_render(e, l);
	if (l->n == 1)
		emit_text(e, "cross-talk", "one flow: alone and together are the same run");
	crosstalk_render(e, l);
	emit_table_begin(e, NLD_KEY(SERIES), "together, per interval (GB/s)");
	for (int s = 0; s < l->r.nsamples; s++) {
		emit_tuple_begin(e);
		emit_text(e, "interval", "%d", s + 1);
		for (int k = 0; k < l->n; k++) {
			char label[32];
			snprintf(label, sizeof(label), "%d:%d:%d", l->f[k].src, l->f[k].dst, l->f[k].threads);
			emit_number(e, NULL, label, l->r.series[(size_t)s * (size_t)l->n + (size_t)k], "GB/s", "%.2f");
		}
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_array_begin(e, NLD_KEY(PLACED), "pages found on DST");
	for (int k = 0; k < l->n; k++)
		emit_number(e, NULL, "fraction", l->r.placed[k], NULL, "%.2f");
	emit_array_end(e);
	emit_string(e, NLD_KEY(KERNEL), "kernel", l->r.kernel);
	emit_bool(e, NLD_KEY(WRITE_ALLOCATE), "write-allocate", l->r.write_allocate);
	if (l->r.write_allocate)
		emit_annotate(e, " (GB/s count the reads of the lines the stores allocate)");
	emit_size(e, NLD_KEY(BYTES), "streams per thread", l->r.bytes_per_thread);
	emit_number(e, NLD_KEY(DURATION), "each phase", l->duration_s, "s", "%.1f");
	emit_number(e, NLD_KEY(TOGETHER_S), "together phase measured", l->r.together_s, "s", "%.2f");
	if (l->predict_path)
		emit_string(e, NLD_KEY(MATRIX), "model's matrix", l->predict_path);
	if (l->r.interrupted)
		emit_bool(e, NLD_KEY(INCOMPLETE), "incomplete", 1);
}

static const struct opt_cmd load_cmd = {
	.name = "numa load",
	.usage = (const char *const[]){
		"archscope numa load SRC:DST:THREADS... [--duration S] [--kernel NAME] [--size BYTES] [--no-alone]\n"
		"                    [--predict FILE] [--topology FILE] [--dry-run] [--json]",
		NULL },
	.description = "Runs the flows together: each flow's THREADS threads pinned on CPUs of node SRC (one per core\n"
		       "first) stream from memory bound to node DST with bench's kernel (triad, as Hydralisk's gland).\n"
		       "With several flows each runs alone first for the cross-talk table. The bandwidth of every flow\n"
		       "shows each second (an ncurses view on a terminal, a line otherwise); at the end per flow, per\n"
		       "link and alone against together. --predict FILE sets the model ('numa model') beside.\n",
	.epilog = "example: archscope numa load 0:1:4 1:0:4 --duration 10 --predict matrix.json\n",
};

/* --predict FILE: the model's rates of the flows together and of each alone into l (pred and
 * pred_alone hold them). 0, or an exit code after error(). */
static int load_predict(struct load_result *l, struct numa_matrix *m, const struct bench_kernel *bk,
			struct numa_prediction *pred, struct numa_prediction *pred_alone)
{
	struct as_error err = { 0 };
	if (numa_matrix_read(m, l->predict_path, &err) != 0 || numa_model_predict(m, l->f, l->n, pred, &err) != 0)
		return error_err(&err), EXIT_USAGE;
	for (int k = 0; k < l->n; k++)
		if (numa_model_predict(m, &l->f[k], 1, &pred_alone[k], &err) != 0)
			return error_err(&err), EXIT_USAGE;
	l->pred = pred;
	l->pred_alone = pred_alone;
	char ours[40];
	snprintf(ours, sizeof(ours), "%s-%s", bk->name, bk->variant);
	if (m->kernel[0] && strcmp(m->kernel, ours) != 0)
		note("the matrix was measured with %s, this load runs %s: the prediction is for the matrix's traffic",
		     m->kernel, ours);
	return 0;
}

/* Runs the flows placed in l (alone first unless no_alone), sampled every second into the
 * ncurses view on a terminal, else a line per second. 0, or an exit code after error(). */
static int load_measure(struct load_result *l, const char *kernel, size_t size, int no_alone, int json)
{
	struct as_error err = { 0 };
	struct load_ctx c = { .f = l->f, .n = l->n };
	int tty = !json && isatty(STDOUT_FILENO);
	c.view = tty ? cli_numa_view_begin(l->f, l->n, l->duration_s, !no_alone) : NULL;
	c.lines = c.view ? NULL : json ? (cli_quiet ? NULL : stderr) : stdout;
	struct numa_load_opts o = {
		.flows = l->f, .n = l->n, .cpus = l->cpus, .kernel = kernel, .bytes_per_thread = size,
		.duration_s = l->duration_s, .interval_s = 1.0, .alone = !no_alone,
		.stop = interrupt_flag(), .sample = on_sample, .arg = &c,
	};
	interrupt_install();
	int lrc = numa_load_run(&o, &l->r, &err);
	interrupt_restore();
	cli_numa_view_end(c.view);
	if (lrc)
		return error_err(&err), EXIT_FAIL;
	if (interrupt_signal())
		note("interrupted: the figures measured so far follow");
	return 0;
}

int cmd_numa_load(int argc, char **argv)
{
	int json = 0, no_alone = 0, dry_run = 0;
	double duration = 5;
	const char *kernel = "triad", *size_text = NULL, *predict = NULL, *topology = NULL;
	const struct opt options[] = {
		OPT_DOUBLE('d', "duration", &duration, "S", 0, 3600, "seconds of each phase (default 5)", .flags = OPT_F_ABOVE_MIN),
		OPT_STRING('k', "kernel", &kernel, "NAME", "bench's streaming kernel (default triad)"),
		OPT_STRING('s', "size", &size_text, "BYTES", "streams of each thread (default 256MiB)"),
		OPT_FLAG(0, "no-alone", &no_alone, "skip the phases of each flow alone (no cross-talk table)"),
		OPT_STRING('p', "predict", &predict, "FILE", "set the model's prediction from this matrix beside"),
		OPT_STRING(0, "topology", &topology, "FILE", "place on a recorded hwloc XML topology (only with --dry-run)"),
		OPT_FLAG('n', "dry-run", &dry_run, "check and place the flows, print the CPUs, run nothing"),
		OPT_JSON(&json),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &load_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	struct numa_flow f[NUMA_MAX_FLOWS];
	int rc = cli_numa_flows("numa load", (const char *const *)argv, argc, f);
	if (rc)
		return rc;
	if (topology && !dry_run)
		return error_usage("numa load", "--topology places on another machine: give --dry-run too"), EXIT_USAGE;
	struct as_error err = { 0 };
	size_t size = 0;
	if (size_text && (buffer_parse_size(size_text, &size, &err) != 0 || size < ((size_t)1 << 20)))
		return error_usage("numa load", "--size '%s': %s", size_text, err.code ? err.msg : "at least 1MiB"), EXIT_USAGE;
	const struct bench_kernel *bk = bench_kernel_best(kernel);
	if (!bk || !bench_kernel_supported(bk))
		return error_usage("numa load", "--kernel '%s': %s", kernel, bk ? "this CPU cannot run it" : "no such kernel (see 'archscope bench --list')"),
		       EXIT_USAGE;
	struct load_result *l = calloc(1, sizeof(*l));
	struct topo *t = malloc(sizeof(*t));
	struct numa_matrix *m = predict ? malloc(sizeof(*m)) : NULL;
	struct numa_prediction pred[NUMA_MAX_FLOWS], pred_alone[NUMA_MAX_FLOWS];
	if (!l || !t || (predict && !m)) {
		free(l), free(t), free(m);
		return error("out of memory"), EXIT_FAIL;
	}
	l->f = f;
	l->n = argc;
	l->dry_run = dry_run;
	l->duration_s = duration;
	l->predict_path = predict;
	for (int k = 0; k < NUMA_MAX_FLOWS; k++)
		l->r.alone_gbs[k] = l->r.together_gbs[k] = l->r.placed[k] = NAN;
	if ((rc = cli_numa_topology(topology, t)) != 0) {
		free(l), free(t), free(m);
		return rc;
	}
	l->nodes = t->nnodes;
	if (numa_flows_place(t, f, argc, l->cpus, &err) != 0)
		rc = (error_err(&err), EXIT_USAGE);
	else if (predict)
		rc = load_predict(l, m, bk, pred, pred_alone);
	if (!rc && !dry_run)
		rc = load_measure(l, kernel, size, no_alone, json);
	if (!rc) {
		struct emit *e = emit_new(json ? EMIT_JSON : EMIT_TEXT, stdout);
		if (!e) {
			rc = (error("out of memory"), EXIT_FAIL);
		} else {
			load_render(e, l);
			rc = cli_emit_end(e, "numa load");
			if (!rc && interrupt_signal())
				rc = INTERRUPT_EXIT;
		}
	}
	numa_load_result_release(&l->r);
	topo_release(t);
	free(t);
	free(l);
	free(m);
	return rc;
}
