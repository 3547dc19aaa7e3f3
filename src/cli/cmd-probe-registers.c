/* probe registers (BlackjackBench §3.5): probe/registers.c measures the live ranges a C loop keeps in
 * registers and answers; this saves the curves (raw CSV, plot) and renders the
 * record for people. Cycles are cycles of the core clock the clock row measured, never TSC ticks. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "probe/registers.h"
#include "report/emit.h"
#include "report/plot.h"

/* The builds in the record's order (registers_ev[k], k = 2 x narrow + fp): kind and variant. */
static const char *const build_kind[4] = { "int", "fp", "int", "fp" };
static const char *const build_variant[4] = { "wide", "wide", "narrow", "narrow" };

/* Whether build k was measured: its curve is recorded. */
static int build_measured(const struct machine_probes *rec, int k)
{
	return rec->registers_ev[k].curve.n > 0;
}

/* One build's answer: the registers and its flags. */
static void registers_build_render(struct emit *e, const struct machine_probes *rec, int k)
{
	int id = probe_registers_entry(build_kind[k], k >= 2, NULL);
	const struct machine_answer *a = machine_probes_at(rec, id);
	cli_probe_answer_render_begin(e, id, k & 1 ? "fp (double)" : "int (uint64_t)", a, "%.0f", 0);
	if (!isfinite(a->value))
		emit_annotate(e, " (no step)");
	emit_string(e, NULL, "flags", rec->registers_ev[k].flags);
	emit_object_end(e);
}

/* The wide builds' answers, then the narrow ones'. */
static void registers_render(struct emit *e, const struct machine_probes *rec)
{
	emit_object_begin(e, NULL, "registers (live variables a C loop keeps in registers)");
	for (int k = 0; k < 2; k++)
		if (build_measured(rec, k))
			registers_build_render(e, rec, k);
	emit_object_begin(e, NULL, "narrow builds");
	for (int k = 2; k < 4; k++)
		if (build_measured(rec, k))
			registers_build_render(e, rec, k);
	emit_object_end(e);
	emit_string(e, NULL, "compiler", rec->registers_compiler);
	emit_text(e, "", "os_reported: architectural registers (x86-64: 16 general-purpose; 16 vector, 32 with AVX-512);");
	emit_text(e, "", "usable is fewer where the loop counter, stack pointer and bound hold registers");
	emit_object_end(e);
}

/* Cycles per addition against live variables for every build, the answers marked. */
static void plot_registers(struct cli_probe_ctx *ctx, const struct machine_probes *rec)
{
	char path[4096], plots[2048] = "", marks[1024] = "";
	snprintf(path, sizeof(path), "%s/registers.dat", ctx->plot_dir);
	struct atomic_file af;
	FILE *dat = plot_data_open(path, &af);
	if (!dat) {
		error("cannot write '%s': %s", path, strerror(errno));
		ctx->save_failed = 1;
		return;
	}
	for (int k = 0, i = 0; k < 4; k++) {
		if (!build_measured(rec, k))
			continue;
		const struct machine_probes_curve *c = &rec->registers_ev[k].curve;
		double regs = ((const struct machine_answer *)machine_probes_at(rec, probe_registers_entry(build_kind[k], k >= 2, NULL)))->value;
		fprintf(dat, "# %s %s\n", build_kind[k], build_variant[k]);
		for (int j = 0; j < c->n; j++)
			fprintf(dat, "%g %.6g\n", c->pt[j].x, c->pt[j].min);
		fprintf(dat, "\n\n");
		size_t len = strlen(plots);
		snprintf(plots + len, sizeof(plots) - len, "%s'registers.dat' index %d using 1:2 with linespoints title '%s %s (%s)'",
			 i ? ", " : "plot ", i, build_kind[k], build_variant[k], isfinite(regs) ? "" : "no step");
		i++;
		len = strlen(plots);
		if (isfinite(regs))
			snprintf(plots + len - 2, sizeof(plots) - len + 2, "%.0f)'", regs);
		len = strlen(marks);
		if (isfinite(regs))
			snprintf(marks + len, sizeof(marks) - len, "set arrow from %g, graph 0 to %g, graph 1 nohead dashtype 3\n", regs, regs);
	}
	cli_probe_data_done(ctx, &af);
	char *body = NULL;
	if (plots[0] && asprintf(&body,
			    "set title 'archscope probe registers: time per addition against live variables'\n"
			    "set xlabel 'live variables K'\nset ylabel 'core cycles per addition'\nset grid\nset key top left\n%s%s\n",
			    marks, plots) >= 0) {
		cli_probe_plot(ctx, "registers", body);
		free(body);
	}
}

int cli_probe_row_registers(struct cli_probe_ctx *ctx)
{
	struct probe_registers_result res;
	struct as_error err = { 0 };
	int rc = probe_registers_find(&ctx->env, cli_probe_progress, &res, ctx->rec, &err);
	progress_done();
	if (rc != 0)
		rc = error_err(&err);
	for (int i = 0; i < res.nbuilds; i++) {
		const struct regs_set *s = res.build[i].set;
		char name[64];
		snprintf(name, sizeof(name), "registers-%s-%s", s->kind, s->variant);
		cli_probe_save_curve(ctx, name, "k,min_ns,median_ns", &res.build[i].curve);
	}
	if (ctx->plot_dir)
		plot_registers(ctx, ctx->rec);
	CLI_PROBE_RENDER(ctx, registers_render, ctx->rec);
	probe_registers_result_release(&res);
	return rc;
}
