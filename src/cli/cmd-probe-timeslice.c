/* probe timeslice (BlackjackBench §3.6): probe/timeslice.c measures the scheduler's time slice from
 * the gaps of threads that share CPUs, schedstat beside it; this saves the gaps (raw CSV) and renders
 * the record for people (the gaps' modal bin and the CPUs from the probe's working state). */
#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "probe/timeslice.h"
#include "report/emit.h"

static void timeslice_render(struct emit *e, const struct probe_timeslice_result *r, const struct machine_probes *rec)
{
	static const char *const label[TIMESLICE_NQUANTILES] = { "p10", "p25", "median", "p75", "p90" };
	emit_object_begin(e, NULL, "timeslice");
	cli_probe_answer_render_begin(e, MP_TIMESLICE_SLICE, "time slice", &rec->timeslice, "%.2f", 0);
	if (r->have_mode)
		emit_text(e, "gaps' mode", "%.2f ms: %zu gaps holding %.0f %% of the lost time, between %.2f and %.2f ms",
			  r->mode.value / 1000, r->mode.count, r->mode.share * 100, r->mode.lo / 1000, r->mode.hi / 1000);
	else
		emit_text(e, "gaps' mode", "no gaps above the threshold, no preemption seen");
	if (rec->timeslice.reason[0])
		emit_text(e, "note", "%s", rec->timeslice.reason);
	emit_object_end(e);
	cli_probe_answer_render(e, MP_TIMESLICE_SCHEDSTAT, "kernel's slice", &rec->schedstat, "%.2f", CLI_PROBE_ANSWER_NOTE);
	emit_int(e, NULL, "threads", rec->timeslice_ev.threads, NULL);
	emit_annotate(e, " unpinned, on %d CPUs", r->cpus);
	emit_number(e, NULL, "run", rec->timeslice_ev.run_s, "s", "%.1f");
	emit_int(e, NULL, "gaps", rec->timeslice_ev.gaps, NULL);
	emit_number(e, NULL, "threshold", rec->timeslice_ev.threshold_us, "us", "%.0f");
	emit_object_begin(e, NULL, "");
	for (int i = 0; i < TIMESLICE_NQUANTILES && i < 5; i++)
		emit_number(e, NULL, label[i], rec->timeslice_ev.quantile_ms[i], "ms", "%.2f");
	emit_object_end(e);
	emit_object_end(e);
}

int cli_probe_row_timeslice(struct cli_probe_ctx *ctx)
{
	struct probe_timeslice_result r;
	struct as_error err = { 0 };
	int rc = probe_timeslice_find(&ctx->env, cli_probe_progress, &r, ctx->rec, &err);
	progress_done();
	if (rc) {
		probe_timeslice_result_release(&r);
		return error_err(&err);
	}
	if (r.n)
		cli_probe_save_raw(ctx, "timeslice-gaps", "gap_us", r.gaps_us, r.n, 1);
	CLI_PROBE_RENDER(ctx, timeslice_render, &r, ctx->rec);
	probe_timeslice_result_release(&r);
	return 0;
}
