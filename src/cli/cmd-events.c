/* archscope events: every event this machine (or, with --pmu, another CPU) offers, with its
 * description, unit masks and modifiers, and whether it opens here and why not. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/parse-options.h"
#include "machine/result-stat-events.h"
#include "measure/events.h"
#include "report/emit.h"

static const char *const kind_names[] = { "hardware", "software", "tracepoint", "sysfs" };

struct events_report {
	struct events_list l;
	int verbose;
	int opens, closed;
	char reasons[4][600];  /* the distinct reasons, for people (the first few) */
	int nreasons;
};

static void attr_list(char *buf, size_t len, const struct events_attr *a, int n)
{
	size_t used = 0;
	buf[0] = 0;
	for (int i = 0; i < n && used + 8 < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s", i ? "," : "", a[i].name, a[i].is_default ? "*" : "");
}

/* A sysfs event's scale, unit and CPUs (JSON). */
static void events_render_sysfs(struct emit *e, const struct events_entry *x)
{
	emit_number(e, EL_KEY(EV_SCALE), NULL, x->scale, NULL, NULL);
	if (x->unit[0])
		emit_string(e, EL_KEY(EV_UNIT), NULL, x->unit);
	else
		emit_null(e, EL_KEY(EV_UNIT), NULL, NULL);
	if (x->cpumask[0])
		emit_string(e, EL_KEY(EV_CPUMASK), NULL, x->cpumask);
	else
		emit_null(e, EL_KEY(EV_CPUMASK), NULL, NULL);
}

static void events_render(struct emit *e, struct events_report *r)
{
	const struct events_list *l = &r->l;
	emit_string(e, EL_KEY(PMUS), "PMUs", l->pmus);
	if (l->forced[0]) {
		emit_string(e, EL_KEY(FORCED_PMU), "forced PMU", l->forced);
		emit_annotate(e, " (another CPU's events: not tried here)");
	}
	else
		emit_null(e, EL_KEY(FORCED_PMU), NULL, NULL);
	emit_string(e, EL_KEY(TRACEPOINTS), "tracepoints", l->tracepoints);
	emit_string(e, EL_KEY(SYSFS_PMUS), "sysfs PMUs", l->sysfs_pmus[0] ? l->sysfs_pmus : "none with events");
	emit_int(e, EL_KEY(NEVENTS), "events", l->n, NULL);
	emit_annotate(e, " (%d open here)", r->opens);
	emit_table_begin(e, NULL, "events");
	for (int i = 0; i < l->n; i++) {
		const struct events_entry *x = &l->e[i];
		emit_row_begin(e);
		emit_string(e, NULL, "event", x->name);
		emit_string(e, NULL, "kind", kind_names[x->kind]);
		if (!x->checked)
			emit_text(e, "opens", "-");
		else if (x->opens)
			emit_text(e, "opens", "yes");
		else {
			int k = 0;
			while (k < r->nreasons && strcmp(r->reasons[k], x->reason))
				k++;
			emit_text(e, "opens", k < r->nreasons ? "no [%d]" : "no", k + 1);
		}
		char um[256];
		attr_list(um, r->verbose ? sizeof(um) : 48, x->umasks, x->numasks);
		emit_text(e, "umasks", "%s", um);
		emit_text(e, "description", "%.*s", r->verbose ? 400 : 60, x->desc);
		emit_row_end(e);
	}
	emit_table_end(e);
	for (int k = 0; k < r->nreasons; k++)
		emit_text(e, k ? "" : "why not", "[%d] %s", k + 1, r->reasons[k]);
	emit_list_begin(e, EL_KEY(EVENTS), NULL);
	for (int i = 0; i < l->n; i++) {
		const struct events_entry *x = &l->e[i];
		emit_object_begin(e, NULL, NULL);
		emit_string(e, EL_KEY(EV_NAME), NULL, x->name);
		emit_string(e, EL_KEY(EV_PMU), NULL, x->pmu);
		emit_string(e, EL_KEY(EV_KIND), NULL, kind_names[x->kind]);
		emit_string(e, EL_KEY(EV_DESC), NULL, x->desc);
		for (int u = 0; u < 2; u++) {
			const struct events_attr *a = u ? x->mods : x->umasks;
			int n = u ? x->nmods : x->numasks;
			emit_table_begin(e, u ? EL_KEY(MODS) : EL_KEY(UMASKS), NULL);
			for (int k = 0; k < n; k++) {
				emit_row_begin(e);
				emit_string(e, u ? EL_KEY(MOD_NAME) : EL_KEY(UM_NAME), NULL, a[k].name);
				emit_string(e, u ? EL_KEY(MOD_DESC) : EL_KEY(UM_DESC), NULL, a[k].desc);
				if (!u)
					emit_bool(e, EL_KEY(UM_DEFAULT), NULL, a[k].is_default);
				emit_row_end(e);
			}
			emit_table_end(e);
		}
		if (x->checked)
			emit_bool(e, EL_KEY(EV_OPENS), NULL, x->opens);
		else
			emit_null(e, EL_KEY(EV_OPENS), NULL, NULL);
		if (x->reason && x->reason[0])
			emit_string(e, EL_KEY(EV_REASON), NULL, x->reason);
		else
			emit_null(e, EL_KEY(EV_REASON), NULL, NULL);
		if (x->kind == EVENTS_SYSFS)
			events_render_sysfs(e, x);
		emit_object_end(e);
	}
	emit_list_end(e);
}

static const char *const events_usage[] = { "archscope events [PATTERN] [--pmu NAME] [-v] [--json]", NULL };
static const struct opt_cmd events_cmd = {
	.name = "events",
	.usage = events_usage,
	.description =
		"Lists every event libpfm4 knows for this CPU's PMUs (core, uncore, offcore) and perf's generic and\n"
		"software events, the events of every PMU the kernel describes in sysfs (power/energy-pkg/, msr/tsc/,\n"
		"uncore_*: named pmu/event/ as perf names them, with their unit; those with a cpumask count\n"
		"system-wide, stat -a), plus the tracepoints of a readable tracefs, with description and unit masks\n"
		"(* marks a default), and whether each opens here; an event that does not says why (no PMU in this\n"
		"guest, perf_event_paranoid, permissions). PATTERN filters by name: a glob (*, ?) or a substring,\n"
		"case-insensitive. --pmu (or LIBPFM_FORCE_PMU) lists another CPU's events, e.g. skx, icx, spr,\n"
		"amd64_fam19h_zen4; those are not tried here.\n",
};

int cmd_events(int argc, char **argv)
{
	struct events_report r;
	memset(&r, 0, sizeof(r));
	const char *pmu = NULL;
	int json = 0;
	const struct opt options[] = {
		OPT_STRING(0, "pmu", &pmu, "NAME", "list the events of libpfm4's PMU NAME (sets LIBPFM_FORCE_PMU)"),
		OPT_COUNTER('v', "verbose", &r.verbose, "whole descriptions and every unit mask"),
		OPT_JSON(&json),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &events_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc > 1) {
		error_usage("events", "one pattern at most, got '%s' and '%s'", argv[0], argv[1]);
		return EXIT_USAGE;
	}
	/* an empty name is no PMU: libpfm4 would take it for its first table (the Pentium 4's) */
	const char *env = getenv("LIBPFM_FORCE_PMU");
	if (pmu && !*pmu)
		return error_usage("events", "--pmu '': an empty PMU name; give one of libpfm4's PMUs (skx, icx, spr, "
				   "amd64_fam19h_zen4, ...)"), EXIT_USAGE;
	if (!pmu && env && !*env)
		return error_usage("events", "LIBPFM_FORCE_PMU is set but empty: unset it, or set it to one of "
				   "libpfm4's PMUs (skx, icx, spr, ...)"), EXIT_USAGE;
	if (pmu)
		setenv("LIBPFM_FORCE_PMU", pmu, 1); /* before libpfm4 starts: it reads it once */
	struct as_error err = { 0 };
	int rc = measure_events_list(&r.l, argc ? argv[0] : NULL, 1, NULL, &err);
	if (rc) {
		/* a PMU libpfm4 does not know is bad input, whether from --pmu or the environment */
		if (rc == -ENOENT && !pmu && env)
			error_usage("events", "LIBPFM_FORCE_PMU='%s': %s; unset it or set it to one of them", env, err.msg);
		else if (rc == -ENOENT)
			error_usage("events", "--pmu '%s': %s", pmu, err.msg);
		else
			error_err(&err);
		measure_events_release(&r.l);
		return rc == -ENOENT && (pmu || env) ? EXIT_USAGE : EXIT_FAIL;
	}
	for (int i = 0; i < r.l.n; i++) {
		const struct events_entry *x = &r.l.e[i];
		r.opens += x->opens;
		if (!x->checked || x->opens)
			continue;
		int k = 0;
		while (k < r.nreasons && strcmp(r.reasons[k], x->reason))
			k++;
		if (k == r.nreasons && r.nreasons < 4)
			snprintf(r.reasons[r.nreasons++], sizeof(r.reasons[0]), "%s", x->reason);
	}
	if (!r.l.n)
		note("no event matches '%s'", argc ? argv[0] : "");
	struct emit *e = emit_new(json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (!e) {
		measure_events_release(&r.l);
		return error("out of memory") ? EXIT_FAIL : EXIT_FAIL;
	}
	events_render(e, &r);
	rc = cli_emit_end(e, "events");
	measure_events_release(&r.l);
	return rc;
}
