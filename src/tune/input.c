/* Reading tune's inputs from a machine file (input.h). */
#include "tune/input.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <strings.h>

#include "common/number.h"

/* archscope.probes.registers[.narrow].fp.value, or NULL. */
static const struct mnode *reg_node(const struct mtree *t, int narrow)
{
	const struct mnode *r = mnode_get(mnode_get(mnode_get(t->root, "archscope"), "probes"), "registers");
	if (narrow)
		r = mnode_get(r, "narrow");
	const struct mnode *v = mnode_get(mnode_get(r, "fp"), "value");
	return v && v->kind == MN_SCALAR && !mnode_is_null(v) ? v : NULL;
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
		const struct mnode *v = NULL;
		*reg_path = "archscope.probes.registers.fp";
		if (info && !info->wide_registers && (v = reg_node(t, 1)) != NULL)
			*reg_path = "archscope.probes.registers.narrow.fp";
		else
			v = reg_node(t, 0);
		if (!v)
			return as_error_set(err, -EINVAL,
					    "machine file '%s' has no register count (archscope.probes.registers.fp): "
					    "write one with 'archscope probe -o FILE', or give --registers N",
					    name);
		double x;
		if (number_parse_double(v->text, 1, 1024, &x) != 0 || x != floor(x))
			return as_error_set(err, -EINVAL, "machine file '%s': line %d: %s: register count '%s' is not a whole "
					    "number from 1 to 1024", name, v->line, *reg_path, v->text);
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
