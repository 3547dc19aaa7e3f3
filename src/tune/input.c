/* Reading tune's inputs from a machine file (input.h). */
#include "tune/input.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <strings.h>

#include "machine/probes.h"

/* The FP register count the file's probe answers give (wide or narrow builds): 1 with a whole
 * number from 1 to 1024 in *value, 0 when there is none, -1 when it is no such count; -ENOMEM, or
 * -EINVAL with err filled when the answers do not read (a value that is not a number, as "32abc"). */
static int registers_read(const struct mtree *t, int id, double *value, struct as_error *err)
{
	struct machine_probes *p = malloc(sizeof(*p));
	if (!p)
		return -ENOMEM;
	int rc = machine_probes_read(t, p, err);
	*value = NAN;
	if (rc > 0 && p->have[MP_REGISTERS] == MP_HAVE_YES)
		*value = ((const struct machine_answer *)machine_probes_at(p, id))->value;
	machine_probes_release(p);
	free(p);
	if (rc < 0)
		return rc;
	return isnan(*value) ? 0 : *value >= 1 && *value <= 1024 && *value == floor(*value) ? 1 : -1;
}

int tune_input_read(const struct mtree *t, const struct machine *m, const char *name, enum tune_isa isa,
		    int registers_override, struct tune_machine *tm, const char **reg_path, struct as_error *err)
{
	const struct tune_isa_info *info = tune_isa_get(isa);
	tm->vector_doubles = info ? info->vector_doubles : 1;
	tm->registers = 0;
	if (registers_override > 0) {
		tm->registers = registers_override;
		*reg_path = "--registers";
	} else {
		/* the narrow builds' count for a 16-register ISA where the file has one, else the wide */
		static char path[2][128];
		double x = NAN;
		int narrow = info && !info->wide_registers;
		struct as_error re = { 0 };
		int rc = narrow ? registers_read(t, MP_REGISTERS_NARROW_FP, &x, &re) : 0;
		narrow &= rc != 0;
		if (!narrow)
			rc = registers_read(t, MP_REGISTERS_FP, &x, &re);
		*reg_path = machine_probes_path(narrow ? MP_REGISTERS_NARROW_FP : MP_REGISTERS_FP, 1, path[narrow], sizeof(path[0]));
		if (rc == -ENOMEM)
			return as_error_set(err, rc, "machine file '%s': out of memory", name);
		if (rc < -1)
			return as_error_set(err, rc, "machine file '%s': %s", name, re.msg);
		if (rc == 0)
			return as_error_set(err, -EINVAL,
					    "machine file '%s' has no register count (%s): "
					    "write one with 'archscope probe -o FILE', or give --registers N",
					    name, *reg_path);
		if (rc < 0)
			return as_error_set(err, -EINVAL, "machine file '%s': %s: %g is not a register count (a whole number from 1 to 1024)", name,
					    *reg_path, x);
		tm->registers = (int)lround(x);
	}
	tm->l1_bytes = 0;
	tm->line_bytes = 0;
	if (m->nlevels > 0 && m->level[0].has_cache && m->level[0].size_bytes > 0 && !strcasecmp(m->level[0].name, "L1")) {
		tm->l1_bytes = m->level[0].size_bytes;
		tm->line_bytes = m->level[0].cl_size > 0 ? (double)m->level[0].cl_size : m->cacheline_bytes;
	}
	if (!(tm->l1_bytes > 0))
		return as_error_set(err, -EINVAL, "machine file '%s' has no L1 cache (a first level named L1 with a size)", name);
	if (!(tm->line_bytes > 0))
		return as_error_set(err, -EINVAL, "machine file '%s' has no cache line size (cl_size of L1)", name);
	if (tm->l1_bytes > TUNE_MAX_L1_BYTES || tm->line_bytes > TUNE_MAX_LINE_BYTES)
		return as_error_set(err, -EINVAL, "machine file '%s': an L1 of %.0f B with %.0f B lines is beyond what tune "
				    "plans for (at most %.0f B of L1, %.0f B lines)", name, tm->l1_bytes, tm->line_bytes,
				    TUNE_MAX_L1_BYTES, TUNE_MAX_LINE_BYTES);
	return 0;
}
