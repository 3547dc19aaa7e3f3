/* The conditions of a measured step (common/conditions.h) in a command's output: the JSON object
 * every measuring command writes beside its answers, and the flag people read. */
#include <math.h>

#include "cli/cli.h"
#include "common/conditions.h"
#include "machine/result-conditions.h"
#include "report/emit.h"

/* key, noisy_key: the keys the caller's description gives the object and its flag beside it */
void cli_conditions_render(struct emit *e, const char *key, const char *noisy_key, const struct conditions *c)
{
	emit_object_begin(e, key, NULL);
	emit_number(e, RC_KEY(WALL), NULL, c->wall_s, "s", NULL);
	emit_int(e, RC_KEY(CPUS), NULL, c->cpus, NULL);
	emit_int(e, RC_KEY(OTHER_CPUS), NULL, c->other_cpus, NULL);
	emit_number(e, RC_KEY(FOREIGN), NULL, c->foreign_cpus, NULL, NULL);
	emit_number(e, RC_KEY(FOREIGN_OTHER), NULL, c->foreign_other_cpus, NULL, NULL);
	emit_number(e, RC_KEY(STEAL), NULL, c->steal_pct, NULL, NULL);
	emit_number(e, RC_KEY(SWITCHES_S), NULL, c->switches_per_s, NULL, NULL);
	emit_number(e, RC_KEY(CLOCK), NULL, c->clock_ghz, NULL, NULL);
	emit_number(e, RC_KEY(CLOCK_EXPECTED), NULL, c->clock_expected_ghz, NULL, NULL);
	if (c->involuntary_switches >= 0)
		emit_int(e, RC_KEY(INVOLUNTARY), NULL, c->involuntary_switches, NULL);
	else
		emit_null(e, RC_KEY(INVOLUNTARY), NULL, NULL);
	if (c->migrations >= 0)
		emit_int(e, RC_KEY(MIGRATIONS), NULL, c->migrations, NULL);
	else
		emit_null(e, RC_KEY(MIGRATIONS), NULL, NULL);
	emit_int(e, RC_KEY(ATTEMPTS), NULL, c->attempts, NULL);
	emit_bool(e, RC_KEY(NOISY), NULL, c->noisy);
	emit_string(e, RC_KEY(WHY), NULL, c->why);
	emit_object_end(e);
	emit_bool(e, noisy_key, NULL, c->noisy);
}
