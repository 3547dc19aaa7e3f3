/* A saved probe run read back (probe -o --from-raw): the answers of probe-results.json and the
 * streaming benchmarks of benchmarks.json into the writer's struct machine_probed; see write.h. */
#include "machine/write.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "machine/file.h"

/* An answer's value ({"value": ...}) or a plain number under key; NAN when there is none. */
static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	if (json_is_object(v))
		v = json_object_get(v, "value");
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A count or size that must be positive and finite to mean anything: else NAN. */
static double positive(double v)
{
	return isfinite(v) && v > 0 ? v : NAN;
}

void machine_probed_from_results(const json_t *R, struct machine_probed *p)
{
	p->clock_ghz = num(R, "clock");
	p->line_bytes = positive(num(R, "line"));
	const json_t *levels = json_object_get(json_object_get(R, "caches"), "levels");
	const json_t *assoc = json_object_get(json_object_get(R, "assoc"), "levels");
	size_t n = json_array_size(levels);
	p->nlevels = n < MACHINE_MAX_LEVELS - 1 ? (int)n : MACHINE_MAX_LEVELS - 1;
	for (int i = 0; i < p->nlevels; i++) {
		p->level_bytes[i] = num(json_array_get(levels, (size_t)i), "size");
		p->level_ways[i] = NAN;
	}
	for (size_t a = 0; a < json_array_size(assoc); a++) {
		const json_t *al = json_array_get(assoc, a);
		json_int_t level = json_integer_value(json_object_get(al, "level"));
		if (level >= 1 && level <= p->nlevels)
			p->level_ways[level - 1] = num(al, "ways");
	}
	const json_t *ctxs = json_object_get(R, "contexts");
	p->contexts_fp = positive(num(ctxs, "fp"));
	p->contexts_int = positive(num(ctxs, "int"));
	const json_t *fpc = json_object_get(json_object_get(R, "instr"), "flops_per_cycle");
	static const char *const prec[] = { "SP", "DP" }, *const ks[] = { "total", "ADD", "MUL", "FMA" };
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 4; k++) {
			double v = fpc ? num(json_object_get(json_object_get(fpc, prec[i]), "vector"), ks[k]) : 0;
			p->flops_per_cy[i][k] = v;
			p->has_flops |= v > 0;
		}
}

int machine_probed_bench_from_saved(const json_t *saved, struct machine_probed *p, struct as_error *err)
{
	/* the saved file is the benchmarks section itself: read it as a file that holds only that */
	json_t *doc = json_pack("{s:O}", "benchmarks", (json_t *)saved);
	struct mtree t = { .root = doc ? mnode_from_json(doc) : NULL };
	json_decref(doc);
	struct machine *m = malloc(sizeof(*m));
	if (!t.root || !m) {
		free(m);
		mtree_free(&t);
		return as_error_set(err, -ENOMEM, "out of memory");
	}
	machine_read(&t, m);
	p->nkernels = m->nkernels;
	memcpy(p->kernel, m->kernel, sizeof(p->kernel));
	p->nbench = m->nbench;
	memcpy(p->bench, m->bench, sizeof(p->bench));
	free(m);
	mtree_free(&t);
	const json_t *ecm = json_object_get(saved, "ecm"), *tr = json_object_get(ecm, "transfers");
	if (!ecm)
		return 0;
	p->has_ecm = 1;
	p->ecm.l1_load_bytes_per_cy = num(ecm, "l1_load_bytes_per_cy");
	p->ecm.l1_store_bytes_per_cy = num(ecm, "l1_store_bytes_per_cy");
	for (size_t b = 0; b < json_array_size(tr) && b < MACHINE_MAX_LEVELS; b++)
		p->ecm.cy_per_cl[p->ecm.ntransfers++] = num(json_array_get(tr, b), "cy_per_cl");
	return 0;
}
