/* archscope tune stencil: spatial blocking of a 2D 5-point stencil from the layer conditions
 * `model` computes, then the blocked and the naive sweep timed against each other, interleaved. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd-tune.h"
#include "common/interrupt.h"
#include "machine/file.h"
#include "report/emit.h"
#include "machine/mtree.h"
#include "machine/result-tune.h"
#include "report/plot.h"
#include "tune/stencil.h"

static void stencil_render(struct emit *e, const struct tune_stencil_plan *p, const struct tune_stencil_run *r, int cpu,
			   int interrupted)
{
	emit_string(e, TS_KEY(KERNEL), "kernel", "stencil: b[j][i] = (a[j][i-1] + a[j][i+1] + a[j-1][i] + a[j+1][i]) * s");
	emit_object_begin(e, TS_KEY(GRID), "grid");
	emit_int(e, TS_KEY(GRID_ROWS), "rows M", p->rows, NULL);
	emit_int(e, TS_KEY(GRID_COLS), "columns N", p->cols, NULL);
	emit_size(e, TS_KEY(GRID_BYTES), "both arrays", (long long)p->grid_bytes);
	emit_size(e, TS_KEY(GRID_LAST_CACHE), "last cache", (long long)p->last_cache_bytes);
	emit_object_end(e);
	cli_tune_reasoning_render(e, TS_KEY(REASONING), p->reasoning, p->nreasoning);
	emit_table_begin(e, TS_KEY(LEVELS), "layer conditions per cache level (per update)");
	for (int i = 0; i < p->nlevels; i++) {
		const struct tune_stencil_level *l = &p->level[i];
		emit_row_begin(e);
		emit_string(e, TS_KEY(LEVEL_NAME), "level", l->name);
		emit_size(e, TS_KEY(LEVEL_SIZE), "size", (long long)l->size_bytes);
		emit_int(e, TS_KEY(LEVEL_NAIVE_MISSES), "naive misses", l->naive_misses, NULL);
		emit_int(e, TS_KEY(LEVEL_BLOCKED_MISSES), "blocked misses", l->blocked_misses, NULL);
		emit_int(e, TS_KEY(LEVEL_NAIVE_HITS), NULL, l->naive_hits, NULL);
		emit_int(e, TS_KEY(LEVEL_BLOCKED_HITS), NULL, l->blocked_hits, NULL);
		emit_int(e, TS_KEY(LEVEL_WIDTH), "holds up to N", l->width_limit, NULL);
		emit_row_end(e);
	}
	emit_table_end(e);
	if (p->target >= 0)
		emit_string(e, TS_KEY(BLOCKED_FOR), "blocked for", p->level[p->target].name);
	else
		emit_null(e, TS_KEY(BLOCKED_FOR), "blocked for", "no level");
	emit_int(e, TS_KEY(BLOCK), "block", p->block, "columns");
	emit_int(e, TS_KEY(CPU), "cpu", cpu, NULL);
	emit_int(e, TS_KEY(REPS), "repetitions", r->reps, NULL);
	if (interrupted)
		emit_bool(e, TS_KEY(INCOMPLETE), "incomplete", 1);
	if (r->reps < 1) { /* interrupted before a sweep was timed: no zeros for times */
		emit_null(e, TS_KEY(NAIVE), "naive", "not measured (interrupted)");
		emit_null(e, TS_KEY(BLOCKED), "blocked", "not measured (interrupted)");
		emit_null(e, TS_KEY(SPEEDUP), "speedup (naive/blocked, medians)", "not measured (interrupted)");
		emit_bool(e, TS_KEY(BEYOND), "grid beyond the last cache", p->grid_bytes > p->last_cache_bytes);
		return;
	}
	emit_object_begin(e, TS_KEY(NAIVE), "naive");
	emit_stat(e, TS_KEY(NAIVE_SECONDS), "time per sweep", &(struct emit_stat){ r->naive_s[0], r->naive_s[1], r->naive_s[2] }, "s", "%.4g");
	emit_number(e, TS_KEY(NAIVE_MLUPS), "updates", r->naive_mlups, "MLUP/s", "%.0f");
	emit_object_end(e);
	emit_object_begin(e, TS_KEY(BLOCKED), "blocked");
	emit_stat(e, TS_KEY(BLOCKED_SECONDS), "time per sweep", &(struct emit_stat){ r->blocked_s[0], r->blocked_s[1], r->blocked_s[2] }, "s",
		  "%.4g");
	emit_number(e, TS_KEY(BLOCKED_MLUPS), "updates", r->blocked_mlups, "MLUP/s", "%.0f");
	emit_object_end(e);
	emit_number(e, TS_KEY(SPEEDUP), "speedup (naive/blocked, medians)", r->speedup, NULL, "%.2f");
	emit_bool(e, TS_KEY(BLOCKED_FASTER), "blocked faster", r->speedup > 1.0);
	emit_bool(e, TS_KEY(BEYOND), "grid beyond the last cache", p->grid_bytes > p->last_cache_bytes);
	cli_conditions_render(e, TS_KEY(CONDITIONS), TS_KEY(NOISY), &r->cond);
	if (r->cond.noisy)
		emit_text(e, "noisy", "%s: the speedup may be off (flagged)", r->cond.why);
}

/* --plot DIR: updates per second of the naive and the blocked sweep, the bar at the median and
 * the whisker from the slowest to the fastest sweep. */
static void stencil_plot(const struct tune_stencil_plan *p, const struct tune_stencil_run *r, const char *dir)
{
	if (r->reps < 1 || !(r->naive_s[1] > 0) || !(r->blocked_s[1] > 0)) {
		warning("no picture in %s: no sweep was timed", dir);
		return;
	}
	char path[4096];
	snprintf(path, sizeof(path), "%s/tune-stencil.dat", dir);
	struct atomic_file af;
	FILE *f = plot_data_open(path, &af);
	if (f) {
		/* MLUP/s scale as 1/time: the median's rate times median/min (fastest) and median/max */
		fprintf(f, "# sweep  MLUP/s: median  slowest  fastest\n");
		fprintf(f, "\"naive\" %.6g %.6g %.6g\n", r->naive_mlups, r->naive_mlups * r->naive_s[1] / r->naive_s[2],
			r->naive_mlups * r->naive_s[1] / r->naive_s[0]);
		fprintf(f, "\"blocked (%lld columns)\" %.6g %.6g %.6g\n", (long long)p->block, r->blocked_mlups,
			r->blocked_mlups * r->blocked_s[1] / r->blocked_s[2], r->blocked_mlups * r->blocked_s[1] / r->blocked_s[0]);
	}
	if (!f || plot_data_close(&af) != 0) {
		warning("cannot write '%s': %s: no picture", path, strerror(errno));
		return;
	}
	char title[256], qt[600], body[2048];
	snprintf(title, sizeof(title), "archscope tune stencil: 2D 5-point Jacobi, %lld x %lld grid, blocked for %s",
		 (long long)p->rows, (long long)p->cols, p->target >= 0 ? p->level[p->target].name : "no level");
	snprintf(body, sizeof(body),
		 "set title %s noenhanced\nset ylabel 'million lattice-site updates per second (MLUP/s)'\n"
		 "set style data histograms\nset style histogram errorbars gap 1 lw 1\n"
		 "set style fill solid 0.6 border -1\nset boxwidth 0.6\nset yrange [0:*]\nset grid ytics\n"
		 "plot 'tune-stencil.dat' using 2:3:4:xtic(1) title 'median of %d sweeps (whisker: slowest to fastest)'",
		 plot_quote(title, qt, sizeof(qt)), r->reps);
	struct as_error err = { 0 };
	int pr = plot_render(dir, "tune-stencil", body, &err);
	cli_plot_done(pr, dir, "tune-stencil", &err);
}

int cli_tune_stencil(const struct cli_tune_opts *o)
{
	struct machine *m = calloc(1, sizeof(*m));
	struct tune_stencil_plan *p = calloc(1, sizeof(*p));
	struct tune_stencil_run r = { 0 };
	struct mtree mt = { 0 };
	struct as_error err = { 0 };
	int rc = EXIT_FAIL;
	if (!m || !p) {
		error("out of memory");
		goto out;
	}
	if (cli_machine_open(o->machine, &mt) != 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	machine_read(&mt, m);
	progress("tune stencil: layer conditions ...");
	if (tune_stencil_plan(m, 0, 0, o->quick, p, &err) != 0) {
		progress_done();
		rc = err.code == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
		error_err(&err);
		goto out;
	}
	int cpu;
	if (cli_tune_pin(o->cpu, &cpu) != 0)
		goto out;
	progress("tune stencil: timing %lld x %lld, naive and blocked (%lld columns) ...", (long long)p->rows,
		 (long long)p->cols, (long long)p->block);
	int reps = o->reps > 0 ? o->reps : (o->quick ? 3 : 11);
	int mr = tune_stencil_measure(p, reps, o->stop, &r, &err);
	progress_done();
	int interrupted = *o->stop != 0;
	if (mr != 0)
		error_err(&err);
	else if (interrupted)
		note("interrupted: %d of %d repetitions timed%s", r.reps, reps,
		     r.reps ? ": the times are theirs (marked incomplete)" : ": nothing measured");
	struct emit *e = emit_new(o->json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (!e) {
		error("out of memory");
		goto out;
	}
	stencil_render(e, p, &r, cpu, interrupted);
	rc = cli_emit_end(e, "tune");
	if (o->plot_dir)
		stencil_plot(p, &r, o->plot_dir);
	if (rc == EXIT_OK && mr != 0)
		rc = EXIT_FAIL;
	else if (rc == EXIT_OK && interrupted)
		rc = INTERRUPT_EXIT;
out:
	if (mt.root)
		mtree_free(&mt);
	free(m);
	free(p);
	return rc;
}
