/* --regions of stat and phases: the program runs with the marker library preloaded
 * (measure/marker/), which counts the regions it marks with LIKWID's marker API or
 * archscope-marker.h; its records are read after each run (measure/regions.h) and rendered per
 * region: calls, time, counts, threads (machine/result-region.h). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/util-regions.h"
#include "measure/stat-show.h"
#include "common/paths.h"
#include "machine/result-region.h"
#include "report/emit.h"

#define MARKER_LIB_NAME "libarchscope-marker.so"
#define MARKER_LIB_ENV "ARCHSCOPE_MARKER_LIB"

static void env_swap(const char *name, const char *value, char **old)
{
	const char *cur = getenv(name);
	*old = cur ? strdup(cur) : NULL;
	setenv(name, value, 1);
}

static void env_back(const char *name, char *old)
{
	if (old)
		setenv(name, old, 1);
	else
		unsetenv(name);
	free(old);
}

int cli_regions_begin(struct cli_regions *g)
{
	memset(g, 0, sizeof(*g)); /* the directory fills with run 0's records first */
	struct as_error err = { 0 };
	char lib[PATH_MAX], abs[PATH_MAX];
	if (paths_find_lib(MARKER_LIB_NAME, MARKER_LIB_ENV, lib, sizeof(lib), &err) != 0) {
		error("--regions: %s", err.msg);
		return EXIT_FAIL;
	}
	if (!realpath(lib, abs) || strpbrk(abs, " :")) {
		error("--regions: the marker library '%s': %s", lib,
		      errno ? strerror(errno) : "a path with a space or a colon, which LD_PRELOAD splits");
		return EXIT_FAIL;
	}
	const char *tmp = getenv("TMPDIR");
	snprintf(g->dir, sizeof(g->dir), "%s/archscope-regions.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(g->dir)) {
		error("--regions: cannot make a directory for the region records in '%s': %s", tmp && *tmp ? tmp : "/tmp",
		      strerror(errno));
		g->dir[0] = 0;
		return EXIT_FAIL;
	}
	/* first in LD_PRELOAD: its likwid_marker* come before liblikwid's, whatever the program links */
	const char *cur = getenv("LD_PRELOAD");
	char preload[2 * PATH_MAX];
	snprintf(preload, sizeof(preload), "%s%s%s", abs, cur && *cur ? " " : "", cur ? cur : "");
	env_swap("LD_PRELOAD", preload, &g->old_preload);
	env_swap(MARKER_ENV_OUT, g->dir, &g->old_out);
	g->active = 1;
	return 0;
}

int cli_regions_begin_events(struct cli_regions *g, const char *const names[], int n)
{
	char *env = NULL;
	struct as_error err = { 0 };
	if (n > 0 && !(env = measure_regions_events_env(names, n, &err))) {
		memset(g, 0, sizeof(*g));
		if (err.code == -ENOMEM)
			return error("out of memory"), EXIT_FAIL;
		return error_usage("stat", "--regions -e: %s", err.msg), EXIT_USAGE;
	}
	int rc = cli_regions_begin(g);
	if (rc == 0 && env) {
		env_swap(MARKER_ENV_EVENTS, env, &g->old_events);
		g->events_set = 1;
	}
	free(env);
	return rc;
}

/* The environment as it was before cli_regions_begin. */
static void regions_env_back(struct cli_regions *g)
{
	env_back("LD_PRELOAD", g->old_preload);
	env_back(MARKER_ENV_OUT, g->old_out);
	if (g->events_set)
		env_back(MARKER_ENV_EVENTS, g->old_events);
	g->old_preload = g->old_out = g->old_events = NULL;
	g->events_set = 0;
}

void cli_regions_collect(struct cli_regions *g, int run)
{
	if (!g->active || run == g->last_run)
		return;
	struct as_error err = { 0 };
	if (measure_regions_read_dir(&g->r, g->dir, g->last_run, &err) != 0 && !g->failed) {
		g->failed = 1;
		warning("--regions: %s", err.msg);
	}
	g->last_run = run;
}

void cli_regions_end(struct cli_regions *g, int runs_done)
{
	if (!g->active)
		return;
	cli_regions_collect(g, -1);
	regions_env_back(g);
	rmdir(g->dir);
	/* a run a signal cut is left out, as from every other number of stat */
	while (g->r.nsample > 0 && g->r.s[g->r.nsample - 1].run >= runs_done) {
		free(g->r.s[--g->r.nsample].name);
		g->cut++;
	}
	if (measure_regions_summarise(&g->r) != 0)
		warning("--regions: out of memory");
	g->active = 0;
}

void cli_regions_release(struct cli_regions *g)
{
	if (g->active) {
		regions_env_back(g);
		rmdir(g->dir);
	}
	measure_regions_release(&g->r);
}

/* Text: one row per region, its counts in their units. */
static void regions_render_text(struct emit *e, const struct cli_regions *g)
{
	const struct measure_regions *r = &g->r;
	emit_table_begin(e, NULL, "regions (per run: every thread's calls, time and counts summed; mean over runs)");
	for (int i = 0; i < r->nreg; i++) {
		const struct region_summary *s = &r->reg[i];
		char buf[64];
		emit_row_begin(e);
		emit_string(e, NULL, "region", s->name);
		emit_text(e, "calls", "%.10g", s->calls);
		struct stat_disp d = measure_stat_disp_of("ns", s->time_s * 1e9);
		measure_stat_disp_format(&d, s->time_s * 1e9, buf, sizeof(buf), 1);
		emit_text(e, "time", "%s", buf);
		emit_int(e, NULL, "threads", s->threads, NULL);
		for (int k = 0; k < r->nevent; k++) {
			d = measure_stat_disp_of(r->unit[k], s->count[k]);
			measure_stat_disp_format(&d, s->count[k], buf, sizeof(buf), 1);
			emit_text(e, r->event[k], "%s", isnan(s->count[k]) ? "<not counted>" : buf);
		}
		emit_row_end(e);
	}
	emit_table_end(e);
}

static void regions_render_json(struct emit *e, const struct cli_regions *g, const char *key)
{
	const struct measure_regions *r = &g->r;
	emit_list_begin(e, key, NULL);
	for (int i = 0; i < r->nreg; i++) {
		const struct region_summary *s = &r->reg[i];
		emit_object_begin(e, NULL, NULL);
		emit_string(e, RG_KEY(NAME), NULL, s->name);
		emit_number(e, RG_KEY(CALLS), NULL, s->calls, NULL, NULL);
		emit_number(e, RG_KEY(TIME), NULL, s->time_s, "s", NULL);
		emit_number(e, RG_KEY(TIME_MIN), NULL, s->time_min_s, "s", NULL);
		emit_number(e, RG_KEY(TIME_MAX), NULL, s->time_max_s, "s", NULL);
		emit_object_begin(e, RG_KEY(EVENTS), NULL);
		for (int k = 0; k < r->nevent; k++)
			emit_number(e, r->event[k], NULL, s->count[k], NULL, NULL);
		emit_object_end(e);
		emit_int(e, RG_KEY(THREADS), NULL, s->threads, NULL);
		emit_int(e, RG_KEY(RUNS), NULL, s->runs, NULL);
		emit_int(e, RG_KEY(UNFINISHED), NULL, s->running, NULL);
		emit_object_end(e);
	}
	emit_list_end(e);
}

void cli_regions_render(struct emit *e, const struct cli_regions *g, const char *regions_key, const char *marks_key)
{
	const struct measure_regions *r = &g->r;
	if (emit_is_text(e))
		regions_render_text(e, g);
	else
		regions_render_json(e, g, regions_key);
	emit_object_begin(e, marks_key, NULL);
	emit_int(e, RM_KEY(RECORDS), NULL, r->records, NULL);
	emit_int(e, RM_KEY(PARTIAL), NULL, r->partial, NULL);
	emit_int(e, RM_KEY(UNMATCHED), NULL, r->unmatched, NULL);
	emit_int(e, RM_KEY(REFUSED), NULL, r->refused, NULL);
	if (!emit_is_text(e)) {
		emit_list_begin(e, RM_KEY(COUNTERS), NULL);
		for (int k = 0; r->records && k < r->nevent; k++) {
			emit_object_begin(e, NULL, NULL);
			emit_string(e, RM_KEY(CT_NAME), NULL, r->event[k]);
			emit_string(e, RM_KEY(CT_UNIT), NULL, r->unit[k]);
			emit_object_end(e);
		}
		emit_list_end(e);
	}
	emit_object_end(e);
	if (!emit_is_text(e))
		return;
	if (r->records == 0)
		emit_text(e, "regions", "none: the program called no marker (built without -DLIKWID_PERFMON or "
					"archscope-marker.h, a static binary, or it never called LIKWID_MARKER_INIT)");
	if (r->unmatched)
		emit_text(e, "unmatched", "%d stops without their start or starts of a running region (ignored)",
			  r->unmatched);
	if (r->refused)
		emit_text(e, "refused", "%d region names too long (127 bytes) or past 128 regions a thread", r->refused);
	if (g->cut)
		emit_text(e, "cut", "%d regions of the run a signal cut are left out", g->cut);
}
