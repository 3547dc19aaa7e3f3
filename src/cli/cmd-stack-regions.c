/* stack --regions: the regions a program marks (LIKWID's marker API, archscope-marker.h), each with
 * the stack of its own time: the marker library reads the preload library's waits, the thread's
 * CPU and run-queue time at each region's start and stop (measure/marker/), scale/regions.c splits
 * them as stack splits a thread's time; rendered here (machine/result-region.h, "region stack"). */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd-stack-regions.h"
#include "common/array.h"
#include "machine/result-region.h"
#include "machine/result-stack.h"
#include "report/emit.h"

int cli_stack_regions_begin(struct cli_stack_regions *sr)
{
	memset(sr, 0, sizeof(*sr));
	return cli_regions_begin(&sr->g);
}

void cli_stack_regions_run(struct cli_stack_regions *sr, int threads)
{
	cli_regions_collect(&sr->g, sr->nrun); /* the run before this one: its records are complete */
	int *grown = array_grow(sr->run_threads, &sr->cap, (size_t)sr->nrun, sizeof(int), 16);
	if (!grown)
		return;
	sr->run_threads = grown;
	sr->run_threads[sr->nrun++] = threads;
}

void cli_stack_regions_end(struct cli_stack_regions *sr, int runs_done)
{
	cli_regions_end(&sr->g, runs_done);
	if (scale_region_stacks_compute(&sr->g.r, sr->run_threads, runs_done < sr->nrun ? runs_done : sr->nrun,
					&sr->st) != 0)
		warning("--regions: out of memory for the regions' stacks");
}

void cli_stack_regions_release(struct cli_stack_regions *sr)
{
	cli_regions_release(&sr->g);
	scale_region_stacks_release(&sr->st);
	free(sr->run_threads);
	memset(sr, 0, sizeof(*sr));
}

static const char *dominant_name(const struct scale_region_stack *s)
{
	return s->dominant >= 0 ? scale_region_part_name[s->dominant] : "none";
}

/* Text: one row per region and thread count, each part as a percentage of its thread time. */
static void render_text(struct emit *e, const struct cli_stack_regions *sr)
{
	emit_table_begin(e, NULL, "region stacks (each region's thread time split as the stack splits a thread's; "
				  "% of it, per run, mean over the runs at N)");
	for (int i = 0; i < sr->st.n; i++) {
		const struct scale_region_stack *s = &sr->st.rs[i];
		emit_row_begin(e);
		emit_string(e, NULL, "region", s->name);
		emit_int(e, NULL, "N", s->threads, NULL);
		emit_number(e, NULL, "thread time", s->thread_s, "s", "%.3g");
		for (int k = 0; k < SRP_COUNT; k++)
			emit_text(e, scale_region_part_name[k], "%.0f %%", 100 * s->share[k]);
		emit_string(e, NULL, "dominant", dominant_name(s));
		emit_row_end(e);
	}
	emit_table_end(e);
	if (sr->st.without)
		emit_text(e, "region stacks", "%d region accounts without a stack (the preload library was not seen: "
					      "a process it did not reach)", sr->st.without);
	if (sr->st.n)
		emit_text(e, "region stacks", "spinning in user code that no wrapper sees (the sampler's user_spin) is "
					      "in base here");
}

static void render_json(struct emit *e, const struct cli_stack_regions *sr)
{
	const struct measure_regions *r = &sr->g.r;
	emit_list_begin(e, SR_KEY(REGION_STACKS), NULL);
	for (int i = 0; i < sr->st.n; i++) {
		const struct scale_region_stack *s = &sr->st.rs[i];
		emit_object_begin(e, NULL, NULL);
		emit_string(e, RS_KEY(NAME), NULL, s->name);
		emit_int(e, RS_KEY(THREADS), NULL, s->threads, NULL);
		emit_int(e, RS_KEY(RUNS), NULL, s->runs, NULL);
		emit_int(e, RS_KEY(REGION_THREADS), NULL, s->region_threads, NULL);
		emit_number(e, RS_KEY(THREAD_S), NULL, s->thread_s, "s", NULL);
		emit_object_begin(e, RS_KEY(SHARES), NULL);
		for (int k = 0; k < SRP_COUNT; k++)
			emit_number(e, scale_region_part_name[k], NULL, s->share[k], NULL, NULL);
		emit_object_end(e);
		emit_object_begin(e, RS_KEY(TIMES), NULL);
		for (int k = 0; k < r->nstack; k++)
			if (k < 2 || s->wait_s[k] > 0)
				emit_number(e, r->stack_name[k], NULL, s->wait_s[k], "s", NULL);
		emit_object_end(e);
		emit_string(e, RS_KEY(DOMINANT), NULL, dominant_name(s));
		emit_object_end(e);
	}
	emit_list_end(e);
}

void cli_stack_regions_render(struct emit *e, const struct cli_stack_regions *sr)
{
	cli_regions_render(e, &sr->g, SR_KEY(REGIONS), SR_KEY(REGION_MARKS));
	if (emit_is_text(e))
		render_text(e, sr);
	else
		render_json(e, sr);
}
