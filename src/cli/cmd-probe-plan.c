/* probe --plan: what a full probe would run on a topology (this machine's, or an hwloc XML file's),
 * measuring nothing: each group's steps and predicted time from step costs measured beforehand,
 * c2c's classes of pairs with the pairs measured in each, contexts' team sizes. probe/plan.c
 * plans; this renders it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd-probe.h"
#include "machine/result-plan.h"
#include "probe/plan.h"
#include "report/emit.h"

/* Each group's steps and their predicted time. */
static void plan_steps_render(struct emit *e, const struct probe_plan *p)
{
	emit_table_begin(e, PL_KEY(STEPS), "steps");
	for (int i = 0; i < p->nsteps; i++) {
		emit_row_begin(e);
		emit_string(e, PL_KEY(STEP_GROUP), "group", p->step[i].group);
		emit_int(e, PL_KEY(STEP_STEPS), "steps", p->step[i].steps, NULL);
		emit_number(e, PL_KEY(STEP_PREDICTED), "predicted", p->step[i].seconds, "s", "%.1f");
		emit_string(e, PL_KEY(STEP_WHAT), "what", p->step[i].what);
		emit_row_end(e);
	}
	emit_table_end(e);
}

/* contexts' team sizes. */
static void plan_contexts_render(struct emit *e, const struct probe_plan *p)
{
	emit_object_begin(e, PL_KEY(CONTEXTS), "contexts");
	emit_array_begin(e, PL_KEY(TEAMS), "team sizes");
	for (int i = 0; i < p->teams; i++)
		emit_int(e, NULL, "", p->team[i], NULL);
	emit_array_end(e);
	emit_annotate(e, " (per kind, when the time ramps past %d contexts)", p->cpus);
	emit_int(e, PL_KEY(ALL_TEAMS_STEPS), "every size", p->all_teams_steps, NULL);
	emit_annotate(e, " team sizes per kind");
	emit_number(e, PL_KEY(ALL_TEAMS_S), NULL, p->contexts_all_teams_s, "s", NULL);
	emit_object_end(e);
}

/* c2c's class k: its pairs, and the pairs of the first batch measured in it. */
static void plan_class_render(struct emit *e, const struct probe_plan *p, int k)
{
	const struct probe_c2c_plan *c = &p->c2c;
	emit_row_begin(e);
	emit_string(e, PL_KEY(CLASS_NAME), "class", c->cls[k].name);
	emit_int(e, PL_KEY(CLASS_TOTAL), "pairs", c->cls[k].npairs, NULL);
	char text[512] = "";
	emit_table_begin(e, PL_KEY(CLASS_PAIRS), NULL);
	for (int b = 0; b < p->c2c_batch.n; b++) {
		int q = p->c2c_batch.pair[b], i, j;
		if (c->pair_class[q] != k)
			continue;
		probe_c2c_pair_of(c->n, q, &i, &j);
		emit_row_begin(e);
		emit_array_begin(e, PL_KEY(PAIR_CPUS), NULL);
		emit_int(e, NULL, NULL, c->cpu[i], NULL);
		emit_int(e, NULL, NULL, c->cpu[j], NULL);
		emit_array_end(e);
		emit_string(e, PL_KEY(PAIR_ROLE), NULL, probe_c2c_role_name((enum probe_c2c_role)c->role[q]));
		emit_int(e, PL_KEY(PAIR_ROUND), NULL, p->c2c_batch.round[b], NULL);
		emit_row_end(e);
		size_t len = strlen(text);
		if (len < sizeof(text) - 40)
			snprintf(text + len, sizeof(text) - len, "%s%d-%d%s r%d", len ? ", " : "", c->cpu[i], c->cpu[j],
				 c->role[q] == PROBE_C2C_VERIFY ? " (verify)" : "", p->c2c_batch.round[b] + 1);
	}
	emit_table_end(e);
	emit_text(e, "measured", "%s", text);
	emit_row_end(e);
}

/* c2c's classes of pairs and its rounds. */
static void plan_c2c_render(struct emit *e, const struct probe_plan *p)
{
	const struct probe_c2c_plan *c = &p->c2c;
	emit_object_begin(e, PL_KEY(C2C), "c2c");
	if (c->n < 2) {
		emit_null(e, PL_KEY(C2C_CLASSES), "classes", "none (fewer than two CPUs)");
		emit_object_end(e);
		return;
	}
	emit_string(e, PL_KEY(C2C_MODE), "mode",
		    machine_probes_c2c_mode_name(p->c2c_all_pairs ? MP_C2C_MODE_ALL_PAIRS : MP_C2C_MODE_CLASSES));
	if (p->c2c_all_pairs)
		emit_annotate(e, " (every pair: fewer rounds than by class)");
	emit_int(e, PL_KEY(C2C_PAIRS), "pairs", c->npairs, NULL);
	emit_int(e, PL_KEY(C2C_MEASURED), "measured", p->c2c_batch.n, "pairs");
	emit_int(e, PL_KEY(C2C_ROUNDS), "rounds", p->c2c_batch.nrounds, NULL);
	emit_int(e, PL_KEY(C2C_BLOCKS), "block sizes", c->nblocks, NULL);
	emit_size(e, PL_KEY(C2C_LLC), "largest cache", p->llc_bytes);
	emit_number(e, PL_KEY(C2C_BUDGET), "budget", c->budget_s, "s", "%.0f");
	emit_annotate(e, " for finer classes where pairs disagree");
	emit_int(e, PL_KEY(C2C_ALL_ROUNDS), "all pairs", p->c2c_all_pairs_rounds, "rounds");
	emit_number(e, PL_KEY(C2C_ALL_S), NULL, p->c2c_all_pairs_s, "s", NULL);
	emit_table_begin(e, PL_KEY(C2C_CLASSES), "classes (pairs measured: CPU a-b, r = round)");
	for (int k = 0; k < c->nclasses; k++)
		plan_class_render(e, p, k);
	emit_table_end(e);
	emit_object_end(e);
}

static void plan_render(struct emit *e, const struct probe_plan *p, const char *source)
{
	emit_object_begin(e, PL_KEY(PLAN), "plan of a full probe (nothing measured)");
	emit_string(e, PL_KEY(TOPOLOGY), "topology", source);
	emit_int(e, PL_KEY(CPUS), "CPUs", p->cpus, NULL);
	emit_int(e, PL_KEY(PUS), NULL, p->pus, NULL);
	emit_bool(e, PL_KEY(QUICK), NULL, p->quick);
	emit_number(e, PL_KEY(PREDICTED), "predicted", p->predicted_s, "s", "%.1f");
	emit_annotate(e, " (with --all-pairs and every team size: %.1f s)", p->predicted_all_s);
	emit_number(e, PL_KEY(PREDICTED_ALL), NULL, p->predicted_all_s, "s", NULL);
	emit_number(e, PL_KEY(PREDICTED_MAX), "at most", p->predicted_max_s, "s", "%.1f");
	emit_annotate(e, " (when c2c's classes disagree and finer ones take its budget)");
	emit_string(e, PL_KEY(COSTS), "step costs", probe_plan_costs_default()->source);
	plan_steps_render(e, p);
	plan_contexts_render(e, p);
	plan_c2c_render(e, p);
	emit_object_end(e);
}

int cli_probe_plan(struct emit *e, const char *topology, int quick, uint64_t seed)
{
	struct topo *t = calloc(1, sizeof(*t));
	struct as_error err = { 0 };
	if (!t) {
		error("out of memory");
		return EXIT_FAIL;
	}
	/* HWLOC_XMLFILE names a recorded machine: planned as --topology plans one (its topology and its
	 * allowed CPUs only, labelled as the file), never mixed with this machine's CPUs */
	const char *env = getenv("HWLOC_XMLFILE"), *from = topology ? "--topology" : "HWLOC_XMLFILE";
	if (!topology && env && *env)
		topology = env;
	int rc = topology ? topo_load_xml(t, topology, &err) : topo_load(t, &err);
	if (rc != 0) {
		free(t);
		if (topology) {
			error_usage("probe", "%s: %s", from, err.msg);
			return EXIT_USAGE;
		}
		error_err(&err);
		return EXIT_FAIL;
	}
	struct probe_plan p;
	rc = probe_plan_make(t, NULL, quick, seed, NULL, &p, &err);
	if (rc == 0) {
		char src[1100];
		snprintf(src, sizeof(src), "%s%s (%d packages, %d cores, %d PUs, %d NUMA nodes)",
			 topology ? topology : "this machine", topology && topology == env ? " (HWLOC_XMLFILE)" : "",
			 t->packages, t->cores, t->pus, t->nnodes);
		plan_render(e, &p, src);
	} else {
		error_err(&err);
	}
	probe_plan_release(&p);
	topo_release(t);
	free(t);
	return rc ? EXIT_FAIL : 0;
}
