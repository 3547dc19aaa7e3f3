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
#include "machine/probes.h"
#include "report/output.h"

/* An answer's value ({"value": ...}) or a plain number under key of o into *out (NAN when there is
 * none or it is null); a value of another kind, or one below 0 or beyond MACHINE_PROBES_MAX_VALUE,
 * is -EINVAL naming name and path.key. */
static int num(const json_t *o, const char *path, const char *key, double *out, const char *name, struct as_error *err)
{
	const json_t *v = json_object_get(o, key);
	*out = NAN;
	if (json_is_object(v))
		v = json_object_get(v, "value");
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v) || !(json_number_value(v) >= 0 && json_number_value(v) <= MACHINE_PROBES_MAX_VALUE))
		return as_error_set(err, -EINVAL, "saved results '%s': %s.%s is not a number from 0 to 2^53", name, path, key);
	*out = json_number_value(v);
	return 0;
}

/* flags.key: an integer from 0 to max, or absent (0). */
static int count_of(const json_t *fl, const char *key, int max, int *out, const char *name, struct as_error *err)
{
	const json_t *v = json_object_get(fl, key);
	*out = 0;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > max)
		return as_error_set(err, -EINVAL, "saved results '%s': flags.%s is not a whole number from 0 to %d", name, key, max);
	*out = (int)json_integer_value(v);
	return 0;
}

/* flags.key: a string, or absent. */
static int text_of(const json_t *fl, const char *key, char *buf, size_t len, const char *name, struct as_error *err)
{
	const json_t *v = json_object_get(fl, key);
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return as_error_set(err, -EINVAL, "saved results '%s': flags.%s is not a string", name, key);
	snprintf(buf, len, "%s", json_string_value(v));
	return 0;
}

json_t *machine_saved_load(const char *path, struct as_error *err)
{
	json_t *j = output_json_read(path, "saved results", (size_t)16 << 20, err);
	if (j && !json_is_object(j)) {
		as_error_set(err, -EINVAL, "saved results '%s': not a JSON object", path);
		json_decref(j);
		j = NULL;
	}
	return j;
}

int machine_probed_bench_from_saved(const json_t *saved, const char *name, struct machine_probed *p, struct as_error *err)
{
	/* the saved file is the benchmarks section itself: checked as machine_check checks that
	 * section of a machine file, then read as a file that holds only that */
	json_t *doc = json_pack("{s:O}", "benchmarks", (json_t *)saved);
	struct mtree t = { .root = doc ? mnode_from_json(doc) : NULL };
	json_decref(doc);
	struct machine *m = malloc(sizeof(*m));
	char *report = NULL;
	int n = t.root && m ? machine_check_benchmarks(mnode_get(t.root, "benchmarks"), "saved results", name, &report) : -1;
	if (n != 0) {
		free(m);
		mtree_free(&t);
		if (n < 0)
			return as_error_set(err, -ENOMEM, "out of memory");
		report[strcspn(report, "\n")] = '\0';
		as_error_set(err, -EINVAL, "%s%s", report, n > 1 ? " (and more problems)" : "");
		free(report);
		return -EINVAL;
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
	if (fl && !json_is_null(fl) && !json_is_object(fl))
		return as_error_set(err, -EINVAL, "saved results '%s': flags is not an object", name);
	int rc;
	if (json_is_object(fl) &&
	    ((rc = count_of(fl, "runs", INT32_MAX - 1, &p->bench_runs, name, err)) ||
	     (rc = count_of(fl, "noisy", p->bench_runs, &p->bench_noisy, name, err)) ||
	     (rc = text_of(fl, "noisy_first", p->bench_noisy_first, sizeof(p->bench_noisy_first), name, err)) ||
	     (rc = text_of(fl, "implausible", p->bench_implausible, sizeof(p->bench_implausible), name, err))))
		return rc;
	const json_t *ecm = json_object_get(saved, "ecm"), *tr = json_object_get(ecm, "transfers");
	if (!ecm || json_is_null(ecm))
		return 0;
	if (!json_is_object(ecm) || (tr && !json_is_array(tr)))
		return as_error_set(err, -EINVAL, "saved results '%s': %s is not %s", name, json_is_object(ecm) ? "ecm.transfers" : "ecm",
				    json_is_object(ecm) ? "a list" : "an object");
	p->has_ecm = 1;
	if ((rc = num(ecm, "ecm", "l1_load_bytes_per_cy", &p->ecm.l1_load_bytes_per_cy, name, err)) ||
	    (rc = num(ecm, "ecm", "l1_store_bytes_per_cy", &p->ecm.l1_store_bytes_per_cy, name, err)))
		return rc;
	for (size_t b = 0; b < json_array_size(tr) && b < MACHINE_MAX_LEVELS; b++) {
		char path[48];
		snprintf(path, sizeof(path), "ecm.transfers[%zu]", b);
		const json_t *x = json_array_get(tr, b);
		if (!json_is_object(x))
			return as_error_set(err, -EINVAL, "saved results '%s': %s is not an object", name, path);
		if ((rc = num(x, path, "cy_per_cl", &p->ecm.cy_per_cl[p->ecm.ntransfers++], name, err)))
			return rc;
	}
	return 0;
}
