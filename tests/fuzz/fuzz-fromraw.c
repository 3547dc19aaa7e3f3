/* libFuzzer target for `probe -o --from-raw`: the bytes as a saved run's probe-results.json and
 * benchmarks.json (one document read as both), made into the machine file the writer builds; the
 * file is checked, written, and must read back; the answers written as JSON read back to the same
 * JSON. Built and run by tests/fuzz/run.sh. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine/file.h"
#include "machine/write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t je;
	json_t *doc = json_loadb((const char *)data, size, 0, &je);
	if (!doc)
		return 0;
	static struct machine_probed p;
	static struct machine_probes a, b;
	memset(&p, 0, sizeof(p));
	snprintf(p.model_name, sizeof(p.model_name), "fuzz");
	p.cpus = 2;
	p.probes = &a;
	struct as_error err = { 0 };
	if (machine_probes_from_json(doc, &a, &err) != 0 || machine_probed_bench_from_saved(doc, &p, &err) != 0)
		abort(); /* only out of memory fails */
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
