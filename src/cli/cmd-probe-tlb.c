/* probe tlb: the page size and the TLB levels (probe/tlb.h), their curves saved, recorded, and
 * rendered for people. */
#include <math.h>

#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "probe/memory.h"
#include "probe/tlb.h"
#include "report/emit.h"

static void tlb_render(struct emit *e, const struct machine_probes *rec)
{
	double before, after;
	emit_object_begin(e, NULL, "tlb");
	cli_probe_answer_render(e, MP_TLB_PAGE_SIZE, "page size", &rec->page_size, "%.0f", CLI_PROBE_ANSWER_NOTE | CLI_PROBE_ANSWER_DIFFERS);
	emit_object_begin(e, NULL, "");
	cli_probe_answer_render_begin(e, MP_TLB_PAIRS, "pairs", &rec->page_pairs, "%.0f", 0);
	if (isfinite(rec->page_pairs.value) &&
	    probe_points_step(&rec->tlb_ev.page_curve, rec->page_pairs.value, &before, &after, NULL) == 0)
		emit_annotate(e, ": pair latency %.2f -> %.2f ns", before, after);
	else
		emit_annotate(e, ": no step found");
	emit_object_end(e);
	cli_probe_answer_render_begin(e, MP_TLB_FAULTS, "faults", &rec->page_faults, "%.0f", CLI_PROBE_ANSWER_NOTE);
	if (isfinite(rec->page_faults.value))
		emit_annotate(e, ": the time per first touch stops doubling");
	emit_object_end(e);
	emit_object_end(e);
	int nlevels = rec->ntlb;
	emit_table_begin(e, NULL, nlevels ? "" : NULL);
	for (int i = 0; i < nlevels; i++) {
		const struct machine_probes_tlb *a = &rec->tlb[i];
		emit_row_begin(e);
		emit_text(e, "level", "L%d", a->level);
		cli_probe_answer_render(e, MP_TLB_ENTRIES, "entries", &a->entries, "%.0f", 0);
		emit_number(e, NULL, "TLB cost per access", a->cost_ns, "ns", "%.2f");
		emit_row_end(e);
	}
	emit_table_end(e);
	if (rec->tlb_ev.entries_curve.n) {
		double walk_ns = probe_tlb_walk_ns(rec);
		if (isfinite(walk_ns))
			emit_number(e, NULL, "page walk", walk_ns, "ns", "%.2f");
		if (!nlevels)
			emit_text(e, "levels", "no TLB level boundary found up to %d pages", PROBE_TLB_MAX_PAGES);
	}
	emit_text(e, "", "beyond the last level every access walks the page table; entries are what user code can use");
	if (rec->tlb_ev.partial)
		emit_text(e, "", "interrupted: the curves stop early, so their answers have confidence 0");
	emit_object_end(e);
}

int cli_probe_row_tlb(struct cli_probe_ctx *ctx)
{
	cli_probe_need_line(ctx);
	struct as_error err = { 0 };
	int rc = probe_tlb_find(&ctx->env, cli_probe_progress, ctx->rec, &err);
	progress_done();
	const struct machine_probes *rec = ctx->rec;
	if (rc == 0 || rec->tlb_ev.page_curve.n) { /* the page curves were measured in full */
		cli_probe_curve_evidence(ctx, "tlb-page", MP_KEY(TLB_PAGE_CURVE_X), &rec->tlb_ev.page_curve,
					 "distance s between the two accesses of a pair (bytes)", 1);
		if (rec->tlb_ev.fault_curve.n)
			cli_probe_curve_evidence(ctx, "tlb-faults", MP_KEY(TLB_FAULTS_CURVE_X), &rec->tlb_ev.fault_curve,
						 "distance s between first touches of fresh memory (bytes)", 1);
	}
	if (rc != 0)
		return cli_probe_fail("tlb", &err);
	if (rec->tlb_ev.entries_curve.n) {
		cli_probe_curve_evidence(ctx, "tlb-entries", MP_KEY(TLB_ENTRIES_CURVE_X), &rec->tlb_ev.entries_curve,
					 "pages touched", 1);
		cli_probe_curve_evidence(ctx, "tlb-control", MP_KEY(TLB_CONTROL_CURVE_X), &rec->tlb_ev.control_curve,
					 "lines touched, packed", 1);
	}
	CLI_PROBE_RENDER(ctx, tlb_render, ctx->rec);
	return 0;
}
