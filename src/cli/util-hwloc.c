/* The hwloc export of a machine file (`machine export --hwloc`, `probe -o FILE --hwloc FILE.xml`):
 * the file's measured values picked for hwloc, then topo/hwloc-export.c writes the XML. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/util-hwloc.h"
#include "machine/file.h"
#include "machine/machine.h"
#include "machine/probes.h"
#include "topo/hwloc-export.h"

/* The machine file's measured values for hwloc: memory latency (page-local chase), the highest
 * memory bandwidth of its benchmarks at their largest core count, the caches' sizes and line. */
static void export_values(const struct machine *m, const struct machine_probes *p, struct topo_export_values *v)
{
	memset(v, 0, sizeof(*v));
	v->latency_ns = p->memory_latency.value;
	v->latency_method = p->memory_latency.method[0] ? p->memory_latency.method : NULL;
	v->line_bytes = p->line.value;
	v->bandwidth_bs = NAN;
	for (int b = 0; b < m->nbench; b++) {
		const struct machine_bench_level *bl = &m->bench[b];
		if (strcmp(bl->level, "MEM") || bl->ncores < 1)
			continue;
		for (int k = 0; k < m->nkernels; k++) {
			double bw = bl->bw[k][bl->ncores - 1];
			if (isfinite(bw) && bw > 0 && !(bw <= v->bandwidth_bs))
				v->bandwidth_bs = bw;
		}
		v->bandwidth_method = "the machine file's benchmarks: the fastest kernel at the most cores, MEM";
	}
	for (int i = 0; i < p->ncaches && v->ncaches < TOPO_EXPORT_LEVELS; i++) {
		v->cache[v->ncaches].level = p->cache[i].level;
		v->cache[v->ncaches++].size_bytes = p->cache[i].size.value;
	}
}

int cli_hwloc_export(const char *mfile, const char *xml)
{
	struct mtree t;
	if (cli_machine_open(mfile, &t) != 0)
		return EXIT_USAGE;
	struct machine m;
	machine_read(&t, &m);
	struct machine_probes *p = malloc(sizeof(*p));
	struct as_error err = { 0 };
	int rc = p ? machine_probes_read(&t, p, &err) : -ENOMEM;
	mtree_free(&t);
	if (rc < 0) {
		free(p);
		return error("machine file '%s': %s", mfile, rc == -ENOMEM ? "out of memory" : err.msg), EXIT_FAIL;
	}
	struct topo_export_values v;
	export_values(&m, p, &v);
	struct topo_export_done done;
	rc = topo_hwloc_export(NULL, &v, xml, &done, &err);
	machine_probes_release(p);
	free(p);
	if (rc)
		return error_err(&err), EXIT_FAIL;
	note("wrote '%s': Latency and Bandwidth of %d NUMA node%s, %d cache%s annotated", xml, done.nodes,
	     done.nodes == 1 ? "" : "s", done.caches, done.caches == 1 ? "" : "s");
	return EXIT_OK;
}
