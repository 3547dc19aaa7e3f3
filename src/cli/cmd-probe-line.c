/* probe line: the cache line from the stride, coherence and flush witnesses (probe/line.h), its
 * curves saved (--raw, --plot), recorded, and rendered for people. */
#include <math.h>
#include <stddef.h>

#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "probe/line.h"
#include "report/emit.h"

static void line_render(struct emit *e, const struct probe_line_result *r, const struct machine_probes *rec)
{
	const struct probe_curve *c = &r->curve;
	emit_heading(e, "line");
	cli_probe_answer_render_begin(e, MP_LINE, "cache line", &rec->line, "%.0f", CLI_PROBE_ANSWER_NOTE | CLI_PROBE_ANSWER_DIFFERS);
	emit_object_begin(e, NULL, "");
	cli_probe_answer_render_begin(e, MP_LINE_STRIDE, "stride", &rec->line_stride, "%.0f", 0);
	if (isfinite(rec->line_stride.value))
		emit_annotate(e, ": latency per access %.2f ns at D = %.0f B, %.2f ns at D = %.0f B", r->step_before_ns,
			      c->x[r->step_index], r->step_after_ns, c->x[r->step_index + 1]);
	else
		emit_annotate(e, ": no step found (the curve is flat: %zu points)", c->n);
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
	struct probe_line_result r;
	struct as_error err = { 0 };
	if (probe_line_find(&ctx->env, cli_probe_progress, &r, &err) != 0) {
		probe_line_result_release(&r);
		return cli_probe_fail("line", &err);
	}
	progress_done();
	cli_probe_curve_evidence(ctx, "line", MP_KEY(LINE_CURVE_X), &r.curve, "distance D between the two accesses of a pair (bytes)", 1);
	struct probe_curve sharing = { .n = (size_t)r.sharing.n, .x = r.sharing.d_bytes, .min_ns = r.sharing.min_ns,
				       .median_ns = r.sharing.median_ns };
	if (sharing.n)
		cli_probe_save_curve(ctx, "line-sharing", "d_bytes,min_ns,median_ns", &sharing);
	if (r.flush_curve.n)
		cli_probe_save_curve(ctx, "line-flush", "d_bytes,min_ns,median_ns", &r.flush_curve);
	int rc = cli_probe_recorded("line", probe_line_record(ctx->rec, &r));
	CLI_PROBE_RENDER(ctx, line_render, &r, ctx->rec);
	probe_line_result_release(&r);
	return rc;
}
