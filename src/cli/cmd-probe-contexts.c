/* probe contexts (BlackjackBench §3.4): probe/contexts.c finds the FP, integer and memory execution
 * contexts from teams of threads; this saves the curves (raw CSV) and renders the record
 * for people. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "probe/contexts.h"
#include "report/emit.h"

static void contexts_render(struct emit *e, const struct machine_probes *rec)
{
	int all_teams = !strcmp(rec->contexts_search, PROBE_CONTEXTS_SEARCH_ALL);
	emit_object_begin(e, NULL, "contexts (threads not pinned; the OS reports hardware threads)");
	for (int k = 0; k < CONTEXTS_KINDS; k++) {
		const struct machine_probes_contexts_ev *ev = &rec->contexts_ev[k];
		const struct machine_probes_curve *c = &ev->curve;
		if (!ev->shape[0]) /* not measured */
			continue;
		int id = probe_contexts_entry((enum contexts_kind)k);
		const struct machine_answer *a = machine_probes_at(rec, id);
		cli_probe_answer_render_begin(e, id, machine_probe_fields[id].key, a, "%.0f", 0);
		if (!isfinite(a->value) && !strncmp(a->reason, "cannot tell", 11))
			emit_annotate(e, " (%s)", a->reason);
		else if (!isfinite(a->value))
			emit_annotate(e, " (no step up to %.0f threads)", c->n ? c->pt[c->n - 1].x : 0.0);
		emit_string(e, NULL, "past the last context", ev->shape);
		emit_int(e, NULL, "team sizes measured", ev->teams, NULL);
		emit_annotate(e, all_teams ? " (every size)" : " (doubling, then bisection at the knee)");
		emit_array_begin(e, NULL, "time / time at M = 1");
		for (int i = 0; i < c->n; i++)
			emit_text(e, "", "%.0f: %.2f", c->pt[i].x, c->pt[i].min);
		emit_array_end(e);
		emit_annotate(e, " (M threads: time)");
		emit_object_end(e);
	}
	emit_object_end(e);
}

int cli_probe_row_contexts(struct cli_probe_ctx *ctx)
{
	struct probe_contexts_result r;
	struct as_error err = { 0 };
	int rc = probe_contexts_find(&ctx->env, cli_probe_progress, &r, ctx->rec, &err);
	progress_done();
	if (rc != 0) {
		rc = error_err(&err);
		if (r.max_threads == 0) { /* the CPU set could not be widened: nothing ran */
			probe_contexts_result_release(&r);
			return rc;
		}
	}
	for (int k = 0; k < r.nkinds; k++) {
		char file[32];
		snprintf(file, sizeof(file), "contexts-%s", probe_contexts_kind_name((enum contexts_kind)k));
		cli_probe_save_curve(ctx, file, "threads,normalised_min,normalised_median", &r.curve[k]);
	}
	CLI_PROBE_RENDER(ctx, contexts_render, ctx->rec);
	probe_contexts_result_release(&r);
	return rc;
}
