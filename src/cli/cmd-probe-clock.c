/* probe clock: the core clock by a dependent add chain and the TSC rate (probe/clock.h), rendered
 * once through the emitter; the quick clock the other rows count cycles at. */
#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "probe/clock.h"
#include "report/emit.h"

/* The clock; text 0: in JSON only (the quick clock other rows need), so no heading and no
 * annotations either. */
static void clock_render(struct emit *e, const struct probe_clock_result *r, const struct machine_probes *rec, int text)
{
	const struct machine_answer *a = &rec->clock;
	if (text)
		emit_heading(e, "clock");
	cli_probe_answer_render_begin(e, MP_CLOCK, text ? "core clock" : NULL, a, "%.3f", 0);
	if (text && cli_probe_differs(a->value, a->os_reported))
		emit_annotate(e, "  <- differs from the measured clock");
	emit_string(e, NULL, "method", a->method);
	emit_number(e, "median_ghz", "median", r->median_ghz, "GHz", "%.3f");
	emit_int(e, "adds_per_repetition", "dependent adds", (long long)r->adds, NULL);
	if (text)
		emit_annotate(e, " per repetition");
	emit_int(e, "repetitions", "repetitions", r->reps, NULL);
	emit_number(e, MP_KEY(CLOCK_TSC), "TSC rate", rec->tsc_ghz, "GHz", "%.3f");
	if (text && r->tsc_ghz > 0)
		emit_annotate(e, " (time-stamp counter ticks, not core cycles)");
	emit_int(e, "cpu", NULL, r->cpu, NULL);
	emit_object_end(e);
}

void cli_probe_clock_run(struct cli_probe_ctx *ctx, int quick_first)
{
	struct probe_env env = ctx->env;
	env.quick |= quick_first;
	struct probe_clock_result r;
	progress("probe clock: dependent add chain on cpu %d ...", env.cpu);
	probe_clock_find(&env, &r);
	progress_done();
	ctx->env.clock_ghz = env.clock_ghz;
	ctx->env.tsc_ghz = env.tsc_ghz;
	cli_probe_record_clock(ctx->rec, &r);
	CLI_PROBE_RENDER(ctx, clock_render, &r, ctx->rec, !quick_first);
}

int cli_probe_row_clock(struct cli_probe_ctx *ctx)
{
	cli_probe_clock_run(ctx, 0);
	return 0;
}
