/* libFuzzer target for `probe -o --from-raw`: the bytes as a saved run's probe-results.json and
 * benchmarks.json (one document read as both), made into the machine file the writer builds; the
 * file is checked, written, and must read back; the answers written as JSON read back to the same
 * JSON. A document the readers refuse (-EINVAL: a value of the wrong kind or out of range) must
 * say why. Built and run by tests/fuzz/run.sh. */
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine/file.h"
#include "machine/write.h"
#include "report/output.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *doc = output_json_parse((const char *)data, size, "saved results", "fuzz.json", 1, 0, NULL);
	if (!doc)
		return 0;
	static struct machine_probed p;
	static struct machine_probes a, b;
	memset(&p, 0, sizeof(p));
	snprintf(p.model_name, sizeof(p.model_name), "fuzz");
	p.cpus = 2;
	p.probes = &a;
	struct as_error err = { 0 };
	int rc = machine_probes_from_json(doc, &a, &err);
	if (rc == 0)
		rc = machine_probed_bench_from_saved(doc, "fuzz.json", &p, &err);
	if (rc == -EINVAL && err.msg[0]) { /* refused, saying why: a value of the wrong kind or out of range */
		machine_probes_release(&a);
		json_decref(doc);
		return 0;
	}
	if (rc)
		abort(); /* else only out of memory fails */
	json_t *j1 = machine_probes_json(&a), *j2 = NULL;
	if (!j1 || machine_probes_from_json(j1, &b, &err) != 0 || !(j2 = machine_probes_json(&b)) || !json_equal(j1, j2))
		abort(); /* the answers' JSON reads back to itself */
	json_decref(j1);
	json_decref(j2);
	machine_probes_release(&b);
	json_t *m = machine_probed_json(&p);
	if (!m)
		abort();
	struct mtree t = { .root = mnode_from_json(m) };
	json_decref(m);
	if (t.root) {
		char *report = NULL;
		machine_check(&t, "fuzz", &report);
		free(report);
		char *text = mtree_emit_string(&t, &err);
		struct mtree u;
		if (!text || mtree_parse(text, strlen(text), "written", &u, &err) != 0)
			abort(); /* what the writer makes must read back */
		mtree_free(&u);
		free(text);
		mtree_free(&t);
	}
	machine_probes_release(&a);
	json_decref(doc);
	return 0;
}
