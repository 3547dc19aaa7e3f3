/* probe registers (BlackjackBench §3.5): probe/registers.c measures the live ranges a C loop keeps in
 * registers and answers; this saves the curves (raw CSV, plot), records the result and renders it
 * for people. Cycles are cycles of the core clock the clock row measured, never TSC ticks. */
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

/* One build's answer: the registers and its flags. */
static void registers_build_render(struct emit *e, const struct probe_registers_build *b, const struct machine_probes *rec)
{
	int k;
	int id = probe_registers_record_id(b, &k);
	const struct machine_answer *a = machine_probes_at(rec, id);
	cli_probe_answer_render_begin(e, id, !strcmp(b->set->kind, "int") ? "int (uint64_t)" : "fp (double)", a, "%.0f", 0);
	if (!isfinite(a->value))
		emit_annotate(e, " (no step)");
	emit_string(e, NULL, "flags", rec->registers_ev[k].flags);
	emit_object_end(e);
}

/* The wide builds' answers, then the narrow ones'. */
static void registers_render(struct emit *e, const struct probe_registers_result *res, const struct machine_probes *rec)
{
	emit_object_begin(e, NULL, "registers (live variables a C loop keeps in registers)");
	for (int i = 0; i < res->nbuilds; i++)
		if (!res->build[i].narrow)
			registers_build_render(e, &res->build[i], rec);
	emit_object_begin(e, NULL, "narrow builds");
	for (int i = 0; i < res->nbuilds; i++)
		if (res->build[i].narrow)
			registers_build_render(e, &res->build[i], rec);
	emit_object_end(e);
	emit_string(e, NULL, "compiler", rec->registers_compiler);
	emit_text(e, "", "os_reported: architectural registers (x86-64: 16 general-purpose; 16 vector, 32 with AVX-512);");
	emit_text(e, "", "usable is fewer where the loop counter, stack pointer and bound hold registers");
	emit_object_end(e);
}

/* Time per addition against live variables for every build, the answers marked. */
static void plot_registers(struct cli_probe_ctx *ctx, const struct probe_registers_result *res)
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
	for (int i = 0; i < res->nbuilds; i++) {
		const struct probe_registers_build *b = &res->build[i];
		const struct regs_set *s = b->set;
		const struct probe_curve *c = &b->curve;
		double regs = b->regs.value;
		fprintf(dat, "# %s %s\n", s->kind, s->variant);
		for (size_t k = 0; k < c->n; k++)
			fprintf(dat, "%g %.6g\n", c->x[k], c->min_ns[k] * ctx->env.clock_ghz);
		fprintf(dat, "\n\n");
		size_t len = strlen(plots);
		snprintf(plots + len, sizeof(plots) - len, "%s'registers.dat' index %d using 1:2 with linespoints title '%s %s (%s)'",
			 i ? ", " : "plot ", i, s->kind, s->variant, isfinite(regs) ? "" : "no step");
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
	int rc = probe_registers_find(&ctx->env, cli_probe_progress, &res, &err);
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
		plot_registers(ctx, &res);
	if (cli_probe_recorded("registers", probe_registers_record(ctx->rec, &res, ctx->env.clock_ghz)))
		rc = -1;
	CLI_PROBE_RENDER(ctx, registers_render, &res, ctx->rec);
	probe_registers_result_release(&res);
	return rc;
}
