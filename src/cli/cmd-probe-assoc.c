/* probe assoc: the ways of each cache level, by sets of addresses and by congruent pages
 * (probe/assoc.h), their curves saved, recorded, and rendered for people. */
#include <math.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "probe/assoc.h"
#include "probe/caches.h"
#include "report/emit.h"

static void assoc_render(struct emit *e, const struct probe_assoc_result *r, const struct machine_probes *rec)
{
	emit_object_begin(e, NULL, "assoc");
	emit_table_begin(e, NULL, "");
	for (int i = 0; i < rec->nassoc; i++) {
		const struct probe_assoc_level *lv = &r->level[i];
		const struct machine_answer *ways = &rec->assoc[i].ways;
		emit_row_begin(e);
		emit_text(e, "level", "L%d", rec->assoc[i].level);
		cli_probe_answer_render(e, MP_ASSOC_WAYS, "ways", ways, "%.0f", 0);
		emit_number(e, NULL, "confidence", ways->confidence, NULL, "%.2f");
		if (lv->step_index >= 0)
			emit_text(e, "step", "%.2f -> %.2f ns", lv->step_before_ns, lv->step_after_ns);
		else if (lv->evset_tried && isfinite(lv->evset.ways))
			emit_text(e, "step", "%.2f -> %.2f ns (congruent pages)", lv->evset.hit_ns, lv->evset.miss_ns);
		else
			emit_text(e, "step", "no step to the next level");
		if (isfinite(ways->os_reported))
			emit_number(e, NULL, "os_reported", ways->os_reported, "ways", "%.0f");
		else
			emit_text(e, "os_reported", "-");
		emit_text(e, "", "%s", cli_probe_differs(ways->value, ways->os_reported) ? CLI_PROBE_DIFFERS_TEXT : "");
		emit_row_end(e);
	}
	emit_table_end(e);
	for (int i = 0; i < r->nlevels; i++) {
		const struct probe_evset_result *v = &r->level[i].evset;
		if (r->level[i].evset_tried && isfinite(v->ways))
			emit_text(e, "", "L%d: %.0f ways by congruent pages: %d pages evict each other, no %d of them do; %d such pages found (%d walks)",
				  i + 1, v->ways, v->minimal_pages, v->minimal_pages - 1, v->class_pages, v->tests);
		if (r->level[i].sweeps > 1)
			emit_text(e, "", "L%d: the first sweep showed no step; the curve is the fastest of %d sweeps at each K",
				  i + 1, r->level[i].sweeps);
		if (r->level[i].ways.reason[0])
			emit_text(e, "", "L%d: %s", i + 1, r->level[i].ways.reason);
	}
	emit_text(e, "", "physically indexed levels show no step when physical pages do not keep set alignment");
	emit_text(e, "", "(virtual machines, no huge pages) or when sets are hashed over slices (most x86 L3s)");
	emit_object_end(e);
}

int cli_probe_row_assoc(struct cli_probe_ctx *ctx)
{
	struct as_error err = { 0 };
	if (ctx->env.nlevels == 0) {
		note("assoc needs the cache sizes: running a quick caches probe first");
		cli_probe_need_line(ctx);
		if (probe_caches_need(&ctx->env, cli_probe_progress, &err) != 0)
			cli_probe_fail("caches", &err);
		else
			progress_done();
	}
	if (ctx->env.nlevels == 0)
		return error("assoc: no cache level was measured, nothing to probe");
	cli_probe_need_line(ctx);
	struct probe_assoc_result r;
	int rc = probe_assoc_find(&ctx->env, cli_probe_progress, &r, &err);
	progress_done();
	for (int i = 0; i < r.nlevels; i++) {
		char name[32];
		snprintf(name, sizeof(name), "assoc-L%d", i + 1);
		cli_probe_curve_evidence(ctx, name, MP_KEY(ASSOC_CURVE_X), &r.level[i].curve, "K addresses mapping to the same set", 0);
		if (r.level[i].evset_tried && r.level[i].evset.curve.n) {
			snprintf(name, sizeof(name), "assoc-L%d-pages", i + 1);
			cli_probe_curve_evidence(ctx, name, MP_KEY(ASSOC_EVSET_CURVE_X), &r.level[i].evset.curve, "K congruent pages (beside the flusher pages)", 0);
		}
	}
	if (rc == 0) {
		rc = cli_probe_recorded("assoc", probe_assoc_record(ctx->rec, &r));
		CLI_PROBE_RENDER(ctx, assoc_render, &r, ctx->rec);
		probe_assoc_result_release(&r);
		return rc;
	}
	probe_assoc_result_release(&r);
	return cli_probe_fail("assoc", &err);
}
