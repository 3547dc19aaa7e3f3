/* probe clock: the core clock by a dependent add chain and the TSC rate (probe/clock.h), rendered
 * once through the emitter; the quick clock the other rows count cycles at. */
#include <math.h>

#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "probe/clock.h"
#include "report/emit.h"

/* The clock for people; text 0: nothing (the quick clock other rows need is in the JSON only). */
static void clock_render(struct emit *e, const struct machine_probes *rec, int text)
{
	const struct machine_answer *a = &rec->clock;
	if (!text)
		return;
	emit_heading(e, "clock");
	cli_probe_answer_render_begin(e, MP_CLOCK, "core clock", a, "%.3f", 0);
	if (cli_probe_differs(a->value, a->os_reported))
		emit_annotate(e, "  <- differs from the measured clock");
	emit_string(e, NULL, "method", a->method);
	emit_number(e, NULL, "median", rec->clock_ev.median_ghz, "GHz", "%.3f");
	emit_int(e, NULL, "dependent adds", rec->clock_ev.adds, NULL);
	emit_annotate(e, " per repetition");
	emit_int(e, NULL, "repetitions", rec->clock_ev.repetitions, NULL);
	emit_number(e, NULL, "TSC rate", rec->tsc_ghz, "GHz", "%.3f");
	if (isfinite(rec->tsc_ghz))
		emit_annotate(e, " (time-stamp counter ticks, not core cycles)");
	emit_object_end(e);
}

void cli_probe_clock_run(struct cli_probe_ctx *ctx, int quick_first)
{
	struct probe_env env = ctx->env;
	env.quick |= quick_first;
	progress("probe clock: dependent add chain on cpu %d ...", env.cpu);
	probe_clock_find(&env, ctx->rec);
	progress_done();
	ctx->env.clock_ghz = env.clock_ghz;
	ctx->env.tsc_ghz = env.tsc_ghz;
	CLI_PROBE_RENDER(ctx, clock_render, ctx->rec, !quick_first);
}

int cli_probe_row_clock(struct cli_probe_ctx *ctx)
{
	cli_probe_clock_run(ctx, 0);
	return 0;
}
