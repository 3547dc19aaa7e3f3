/* probe assoc: the ways of each cache level, by sets of addresses and by congruent pages
 * (probe/assoc.h), their curves saved, recorded, and rendered for people. */
#include <math.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "probe/assoc.h"
#include "probe/caches.h"
#include "probe/memory.h"
#include "report/emit.h"

/* How a level's answer shows on its curve: the sweep's step, the congruent pages' check, or none. */
static void assoc_step(struct emit *e, const struct machine_probes_assoc *a)
{
	double before, after;
	if (isfinite(a->evset_ways))
		emit_text(e, "step", "%.2f -> %.2f ns (congruent pages)", a->evset_hit_ns, a->evset_miss_ns);
	else if (isfinite(a->ways.value) && probe_points_step(&a->curve, a->ways.value, &before, &after, NULL) == 0)
		emit_text(e, "step", "%.2f -> %.2f ns", before, after);
	else
		emit_text(e, "step", "no step to the next level");
}

static void assoc_render(struct emit *e, const struct machine_probes *rec)
{
	emit_object_begin(e, NULL, "assoc");
	emit_table_begin(e, NULL, "");
	for (int i = 0; i < rec->nassoc; i++) {
		const struct machine_answer *ways = &rec->assoc[i].ways;
		emit_row_begin(e);
		emit_text(e, "level", "L%d", rec->assoc[i].level);
		cli_probe_answer_render(e, MP_ASSOC_WAYS, "ways", ways, "%.0f", 0);
		emit_number(e, NULL, "confidence", ways->confidence, NULL, "%.2f");
		assoc_step(e, &rec->assoc[i]);
		if (isfinite(ways->os_reported))
			emit_number(e, NULL, "os_reported", ways->os_reported, "ways", "%.0f");
		else
			emit_text(e, "os_reported", "-");
		emit_text(e, "", "%s", cli_probe_differs(ways->value, ways->os_reported) ? CLI_PROBE_DIFFERS_TEXT : "");
		emit_row_end(e);
	}
	emit_table_end(e);
	for (int i = 0; i < rec->nassoc; i++) {
		const struct machine_probes_assoc *a = &rec->assoc[i];
		if (isfinite(a->evset_ways))
			emit_text(e, "", "L%d: %.0f ways by congruent pages: %d pages evict each other, no %d of them do; %d such pages found (%d walks)",
				  a->level, a->evset_ways, a->evset_minimal_pages, a->evset_minimal_pages - 1, a->evset_class_pages,
				  a->evset_walks);
		if (a->sweeps > 1)
			emit_text(e, "", "L%d: the first sweep showed no step; the curve is the fastest of %d sweeps at each K",
				  a->level, a->sweeps);
		if (a->ways.reason[0])
			emit_text(e, "", "L%d: %s", a->level, a->ways.reason);
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
	int rc = probe_assoc_find(&ctx->env, cli_probe_progress, ctx->rec, &err);
	progress_done();
	for (int i = 0; i < ctx->rec->nassoc; i++) {
		const struct machine_probes_assoc *a = &ctx->rec->assoc[i];
		char name[32];
		snprintf(name, sizeof(name), "assoc-L%d", i + 1);
		cli_probe_curve_evidence(ctx, name, MP_KEY(ASSOC_CURVE_X), &a->curve, "K addresses mapping to the same set", 0);
		if (a->evset_curve.n) {
			snprintf(name, sizeof(name), "assoc-L%d-pages", i + 1);
			cli_probe_curve_evidence(ctx, name, MP_KEY(ASSOC_EVSET_CURVE_X), &a->evset_curve, "K congruent pages (beside the flusher pages)", 0);
		}
	}
	if (rc != 0)
		return cli_probe_fail("assoc", &err);
	CLI_PROBE_RENDER(ctx, assoc_render, ctx->rec);
	return 0;
}
