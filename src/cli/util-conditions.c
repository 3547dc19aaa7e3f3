/* The conditions of a measured step (common/conditions.h) in a command's output: the JSON object
 * every measuring command writes beside its answers, and the flag people read. */
#include <math.h>

#include "cli/cli.h"
#include "common/conditions.h"
#include "report/emit.h"

void cli_conditions_render(struct emit *e, const struct conditions *c)
{
	emit_object_begin(e, "conditions", NULL);
	emit_number(e, "wall_s", NULL, c->wall_s, "s", NULL);
	emit_int(e, "cpus", NULL, c->cpus, NULL);
	emit_int(e, "other_cpus", NULL, c->other_cpus, NULL);
	emit_number(e, "foreign_cpus", NULL, c->foreign_cpus, NULL, NULL);
	emit_number(e, "foreign_other_cpus", NULL, c->foreign_other_cpus, NULL, NULL);
	emit_number(e, "steal_pct", NULL, c->steal_pct, NULL, NULL);
	emit_number(e, "switches_per_s", NULL, c->switches_per_s, NULL, NULL);
	emit_number(e, "clock_ghz", NULL, c->clock_ghz, NULL, NULL);
	emit_number(e, "clock_expected_ghz", NULL, c->clock_expected_ghz, NULL, NULL);
	if (c->involuntary_switches >= 0)
		emit_int(e, "involuntary_switches", NULL, c->involuntary_switches, NULL);
	else
		emit_null(e, "involuntary_switches", NULL, NULL);
	if (c->migrations >= 0)
		emit_int(e, "migrations", NULL, c->migrations, NULL);
	else
		emit_null(e, "migrations", NULL, NULL);
	emit_int(e, "attempts", NULL, c->attempts, NULL);
	emit_bool(e, "noisy", NULL, c->noisy);
	emit_string(e, "why", NULL, c->why);
	emit_object_end(e);
	emit_bool(e, "noisy", NULL, c->noisy);
}
