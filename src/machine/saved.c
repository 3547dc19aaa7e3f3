/* A saved probe run read back (probe -o --from-raw): its JSON files, and the streaming benchmarks
 * of benchmarks.json into the writer's struct machine_probed (the answers of probe-results.json
 * are machine_probes_from_json's); see write.h. */
#include "machine/write.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomicfile.h"
#include "machine/file.h"

/* An answer's value ({"value": ...}) or a plain number under key; NAN when there is none. */
static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	if (json_is_object(v))
		v = json_object_get(v, "value");
	return json_is_number(v) ? json_number_value(v) : NAN;
}

json_t *machine_saved_load(const char *path, struct as_error *err)
{
	size_t n = 0;
	char *text = file_read_input(path, "saved results", (size_t)16 << 20, &n, err);
	if (!text)
		return NULL;
	json_error_t je;
	json_t *j = json_loadb(text, n, 0, &je);
	free(text);
	if (!j)
		as_error_set(err, -EINVAL, "%s: line %d: %s", path, je.line, je.text);
	else if (!json_is_object(j)) {
		as_error_set(err, -EINVAL, "%s: not a JSON object", path);
		json_decref(j);
		j = NULL;
	}
	return j;
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
	/* the benchmarks' flags (conditions.md), as the run that measured them wrote them */
	const json_t *fl = json_object_get(saved, "flags");
	if (json_is_object(fl)) {
		const json_t *runs = json_object_get(fl, "runs"), *noisy = json_object_get(fl, "noisy");
		const json_t *first = json_object_get(fl, "noisy_first"), *impl = json_object_get(fl, "implausible");
		p->bench_runs = json_is_integer(runs) && json_integer_value(runs) > 0 && json_integer_value(runs) < INT32_MAX
					? (int)json_integer_value(runs) : 0;
		p->bench_noisy = json_is_integer(noisy) && json_integer_value(noisy) >= 0 && json_integer_value(noisy) <= p->bench_runs
					 ? (int)json_integer_value(noisy) : 0;
		if (json_is_string(first))
			snprintf(p->bench_noisy_first, sizeof(p->bench_noisy_first), "%s", json_string_value(first));
		if (json_is_string(impl))
			snprintf(p->bench_implausible, sizeof(p->bench_implausible), "%s", json_string_value(impl));
	}
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
