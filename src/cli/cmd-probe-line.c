/* probe line: the cache line from the stride, coherence and flush witnesses (probe/line.h), its
 * curves saved (--raw, --plot), recorded, and rendered for people. */
#include <math.h>
#include <stddef.h>

#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "probe/line.h"
#include "probe/memory.h"
#include "report/emit.h"

static void line_render(struct emit *e, const struct machine_probes *rec)
{
	const struct machine_probes_curve *c = &rec->line_ev.curve;
	double before, after, next;
	emit_heading(e, "line");
	cli_probe_answer_render_begin(e, MP_LINE, "cache line", &rec->line, "%.0f", CLI_PROBE_ANSWER_NOTE | CLI_PROBE_ANSWER_DIFFERS);
	emit_object_begin(e, NULL, "");
	cli_probe_answer_render_begin(e, MP_LINE_STRIDE, "stride", &rec->line_stride, "%.0f", 0);
	if (isfinite(rec->line_stride.value) && probe_points_step(c, rec->line_stride.value, &before, &after, &next) == 0)
		emit_annotate(e, ": latency per access %.2f ns at D = %.0f B, %.2f ns at D = %.0f B", before,
			      rec->line_stride.value, after, next);
	else
		emit_annotate(e, ": no step found (the curve is flat: %d points)", c->n);
	emit_object_end(e);
	int shared = isfinite(rec->line_coherence.value);
	cli_probe_answer_render_begin(e, MP_LINE_COHERENCE, "coherence unit", &rec->line_coherence, "%.0f", CLI_PROBE_ANSWER_NOTE);
	if (shared) {
		emit_array_begin(e, NULL, "coherence CPUs");
		emit_int(e, NULL, "", rec->line_ev.cpus[0], NULL);
		emit_int(e, NULL, "", rec->line_ev.cpus[1], NULL);
		emit_array_end(e);
		emit_number(e, NULL, "contrast", rec->line_ev.coherence_contrast, NULL, "%.1fx slower per increment below the unit");
	}
	emit_object_end(e);
	int flushed = isfinite(rec->line_flush.value);
	cli_probe_answer_render_begin(e, MP_LINE_FLUSH, "flush witness", &rec->line_flush, "%.0f", CLI_PROBE_ANSWER_NOTE);
	if (flushed)
		emit_number(e, NULL, "contrast", rec->line_ev.flush_contrast, NULL, "%.1fx slower reload below the line");
	emit_object_end(e);
	emit_object_end(e);
	emit_int(e, NULL, "witnesses the answer rests on", rec->line_witnesses_used, NULL);
	emit_annotate(e, rec->line_witnesses_used == 2 ? " (coherence unit and flush witness)"
			 : rec->line_witnesses_used == 1 ? " (one prefetcher-proof witness)" : " (the stride witness alone)");
	emit_object_end(e);
}

int cli_probe_row_line(struct cli_probe_ctx *ctx)
{
	struct as_error err = { 0 };
	int rc = probe_line_find(&ctx->env, cli_probe_progress, ctx->rec, &err);
	if (rc != 0)
		return cli_probe_fail("line", &err);
	progress_done();
	const struct machine_probes *rec = ctx->rec;
	cli_probe_curve_evidence(ctx, "line", MP_KEY(LINE_CURVE_X), &rec->line_ev.curve,
				 "distance D between the two accesses of a pair (bytes)", 1);
	if (rec->line_ev.coherence_curve.n)
		cli_probe_save_points(ctx, "line-sharing", "d_bytes,min_ns,median_ns", &rec->line_ev.coherence_curve);
	if (rec->line_ev.flush_curve.n)
		cli_probe_save_points(ctx, "line-flush", "d_bytes,min_ns,median_ns", &rec->line_ev.flush_curve);
	CLI_PROBE_RENDER(ctx, line_render, ctx->rec);
	return 0;
}
