/* archscope topology: the machine as the OS reports it (hwloc), for people and as JSON. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/parse-options.h"
#include "machine/result-topology.h"
#include "report/emit.h"
#include "topo/topo.h"

/* Two caches of the same kind: level, type, size and how many CPUs share an instance. */
static int cache_same_kind(const struct topo_cache *a, const struct topo_cache *b)
{
	return a->level == b->level && !strcmp(a->type, b->type) && a->size_bytes == b->size_bytes &&
	       a->cpus.n == b->cpus.n;
}

/* For people, one row per kind of cache with its instances' CPU sets (JSON lists every instance). */
static void render_cache_kinds(struct emit *e, const struct topo *t)
{
	char buf[1024];
	emit_table_begin(e, NULL, "caches");
	for (int i = 0; i < t->ncaches; i++) {
		const struct topo_cache *c = &t->caches[i];
		int dup = 0;
		for (int j = 0; j < i && !dup; j++)
			dup = cache_same_kind(&t->caches[j], c);
		if (dup)
			continue;
		char inst[1024] = "";
		int n = 0;
		for (int j = i; j < t->ncaches; j++) {
			if (!cache_same_kind(&t->caches[j], c))
				continue;
			size_t len = strlen(inst);
			snprintf(inst + len, sizeof(inst) - len, "%s[%s]", n ? " " : "",
				 cpulist_format(&t->caches[j].cpus, buf, sizeof(buf)));
			n++;
		}
		emit_row_begin(e);
		emit_text(e, "level", "L%d", c->level);
		emit_string(e, NULL, "type", c->type);
		emit_size(e, NULL, "size", c->size_bytes);
		if (c->line_bytes)
			emit_int(e, NULL, "line", c->line_bytes, "B");
		else
			emit_null(e, NULL, "line", "?");
		if (c->ways > 0)
			emit_int(e, NULL, "ways", c->ways, NULL);
		else
			emit_text(e, "ways", "%s", c->ways < 0 ? "full" : "?");
		emit_text(e, "shared by", "%d cpu%s", c->cpus.n, c->cpus.n == 1 ? "" : "s");
		emit_text(e, "instances (cpus)", "%d %s", n, inst);
		emit_row_end(e);
	}
	emit_table_end(e);
}

/* The machine in numbers: packages, cores, threads, memory. */
static void render_summary(struct emit *e, const struct topo *t)
{
	emit_heading(e, "topology as the OS reports it (through hwloc, API %s)", t->hwloc_version);
	emit_string(e, TR_KEY(SOURCE), NULL, "hwloc");
	emit_string(e, TR_KEY(HWLOC_API), NULL, t->hwloc_version);
	emit_string(e, TR_KEY(CPU_MODEL), "cpu model", t->cpu_model);
	emit_int(e, TR_KEY(PACKAGES), "packages", t->packages, NULL);
	emit_int(e, TR_KEY(CORES), "cores", t->cores, NULL);
	emit_int(e, TR_KEY(THREADS), "hardware threads", t->pus, NULL);
	emit_annotate(e, " (%d per core)", t->cores ? t->pus / t->cores : 0);
	emit_int(e, TR_KEY(THREADS_PER_CORE), NULL, t->cores ? t->pus / t->cores : 0, NULL);
	emit_size(e, TR_KEY(MEMORY), "memory", t->memory_bytes);
	emit_annotate(e, " in NUMA nodes");
	emit_size(e, TR_KEY(MEMTOTAL), t->memtotal_bytes ? "memory (MemTotal)" : NULL, t->memtotal_bytes);
	if (t->memtotal_bytes > t->memory_bytes + t->memory_bytes / 10 ||
	    t->memory_bytes > t->memtotal_bytes + t->memtotal_bytes / 10)
		emit_annotate(e, "  <- differs from the NUMA nodes' total (memory outside any node's accounting)");
}

/* Every hardware thread (JSON only), and those this process may run on. */
static void render_cpus(struct emit *e, const struct topo *t)
{
	emit_table_begin(e, TR_KEY(CPUS), NULL);
	for (int i = 0; i < t->npus_listed; i++) {
		emit_row_begin(e);
		emit_int(e, TR_KEY(CPU), NULL, t->pu[i].os_index, NULL);
		emit_int(e, TR_KEY(CPU_CORE), NULL, t->pu[i].core, NULL);
		emit_int(e, TR_KEY(CPU_PACKAGE), NULL, t->pu[i].package, NULL);
		emit_bool(e, TR_KEY(CPU_ALLOWED), NULL, t->pu[i].allowed);
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_cpulist(e, TR_KEY(ALLOWED_CPUS), "allowed cpus", &t->allowed);
	emit_annotate(e, " (%d of %d)", t->allowed.n, t->pus);
}

/* Every cache instance (JSON only). */
static void render_caches(struct emit *e, const struct topo *t)
{
	emit_table_begin(e, TR_KEY(CACHES), NULL);
	for (int i = 0; i < t->ncaches; i++) {
		const struct topo_cache *c = &t->caches[i];
		emit_row_begin(e);
		emit_int(e, TR_KEY(CACHE_LEVEL), NULL, c->level, NULL);
		emit_string(e, TR_KEY(CACHE_TYPE), NULL, c->type);
		emit_int(e, TR_KEY(CACHE_SIZE), NULL, (long long)c->size_bytes, NULL);
		if (c->line_bytes)
			emit_int(e, TR_KEY(CACHE_LINE), NULL, c->line_bytes, NULL);
		else
			emit_null(e, TR_KEY(CACHE_LINE), NULL, NULL);
		if (c->ways > 0)
			emit_int(e, TR_KEY(CACHE_WAYS), NULL, c->ways, NULL);
		else if (c->ways < 0)
			emit_string(e, TR_KEY(CACHE_WAYS), NULL, "full");
		else
			emit_null(e, TR_KEY(CACHE_WAYS), NULL, NULL);
		emit_cpulist(e, TR_KEY(CACHE_CPUS), NULL, &c->cpus);
		emit_row_end(e);
	}
	emit_table_end(e);
}

/* The NUMA nodes and their distances. */
static void render_nodes(struct emit *e, const struct topo *t)
{
	emit_table_begin(e, TR_KEY(NODES), "numa nodes");
	for (int i = 0; i < t->nnodes; i++) {
		emit_row_begin(e);
		emit_int(e, TR_KEY(NODE), "node", t->nodes[i].os_index, NULL);
		emit_size(e, TR_KEY(NODE_MEMORY), "memory", t->nodes[i].memory_bytes);
		emit_cpulist(e, TR_KEY(NODE_CPUS), "cpus", &t->nodes[i].cpus);
		emit_row_end(e);
	}
	emit_table_end(e);

	if (!t->has_distances) {
		emit_null(e, TR_KEY(DISTANCES), "numa distances", "not reported by the OS");
		return;
	}
	char title[128], label[32];
	snprintf(title, sizeof(title), "numa distances (SLIT, relative; from %s)", t->distances_source);
	emit_table_begin(e, TR_KEY(DISTANCES), title);
	for (int i = 0; i < t->nnodes; i++) {
		emit_tuple_begin(e);
		emit_text(e, "", "node%d", t->nodes[i].os_index);
		for (int j = 0; j < t->nnodes; j++) {
			snprintf(label, sizeof(label), "node%d", t->nodes[j].os_index);
			emit_int(e, NULL, label, (long long)t->distance[i][j], NULL);
		}
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_string(e, TR_KEY(DISTANCES_SOURCE), NULL, t->distances_source);
}

/* The one renderer: text for people, JSON for programs, from the same calls. */
static void topology_render(struct emit *e, const struct topo *t)
{
	render_summary(e, t);
	render_cpus(e, t);
	render_caches(e, t);
	render_cache_kinds(e, t);
	render_nodes(e, t);
}

static const char *const topology_usage[] = { "archscope topology [--json]", NULL };
static const struct opt_cmd topology_cmd = {
	.name = "topology",
	.usage = topology_usage,
	.description = "Prints packages, cores, hardware threads, caches per level (size, line, ways, which CPUs\n"
		       "share each instance), NUMA nodes with their memory and SLIT distance matrix, and the CPUs\n"
		       "this process may run on (taskset and cgroup cpusets are respected). These are the values\n"
		       "the OS reports, through hwloc; `archscope probe` measures the effective ones.\n",
};

int cmd_topology(int argc, char **argv)
{
	int json = 0;
	const struct opt options[] = {
		OPT_JSON(&json),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &topology_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc > 0) {
		error_usage("topology", "unexpected argument '%s'", argv[0]);
		return EXIT_USAGE;
	}

	struct topo t;
	struct as_error err = { 0 };
	if (topo_load(&t, &err) != 0) {
		error_err(&err);
		/* a recorded topology named by HWLOC_XMLFILE that cannot be read is bad input */
		return getenv("HWLOC_XMLFILE") && *getenv("HWLOC_XMLFILE") && err.code != -ENOMEM ? EXIT_USAGE : EXIT_FAIL;
	}
	int rc = EXIT_FAIL;
	struct emit *e = emit_new(json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (e) {
		topology_render(e, &t);
		rc = cli_emit_end(e, "topology");
	} else {
		error("out of memory");
	}
	topo_release(&t);
	return rc;
}
