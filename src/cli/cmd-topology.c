/* archscope topology: the machine as the OS reports it (hwloc), for people and as JSON. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/buffer.h"
#include "report/output.h"
#include "report/table.h"
#include "topo/topo.h"

static const char usage[] =
	"usage: archscope topology [--json]\n"
	"\n"
	"Prints packages, cores, hardware threads, caches per level (size, line, ways, which CPUs\n"
	"share each instance), NUMA nodes with their memory and SLIT distance matrix, and the CPUs\n"
	"this process may run on (taskset and cgroup cpusets are respected). These are the values\n"
	"the OS reports, through hwloc; `archscope probe` measures the effective ones.\n"
	"\n"
	"options:\n"
	"  --json        one JSON object: {\"archscope\", \"command\", \"machine\", \"results\"}\n"
	"  -h, --help    this help\n";

static json_t *cpulist_json(const struct as_cpulist *l)
{
	json_t *a = json_array();
	for (int i = 0; i < l->n; i++)
		json_array_append_new(a, json_integer(l->cpu[i]));
	return a;
}

static json_t *topo_json(const struct topo *t)
{
	json_t *r = json_object();
	json_object_set_new(r, "source", json_string("hwloc"));
	json_object_set_new(r, "hwloc_api_version", json_string(t->hwloc_version));
	json_object_set_new(r, "cpu_model", json_string(t->cpu_model));
	json_object_set_new(r, "packages", json_integer(t->packages));
	json_object_set_new(r, "cores", json_integer(t->cores));
	json_object_set_new(r, "threads", json_integer(t->pus));
	json_object_set_new(r, "threads_per_core", json_integer(t->cores ? t->pus / t->cores : 0));
	json_object_set_new(r, "memory_bytes", json_integer((json_int_t)t->memory_bytes));
	json_object_set_new(r, "memtotal_bytes", json_integer((json_int_t)t->memtotal_bytes));
	json_t *pus = json_array();
	for (int i = 0; i < t->npus_listed; i++) {
		json_t *p = json_object();
		json_object_set_new(p, "cpu", json_integer(t->pu[i].os_index));
		json_object_set_new(p, "core", json_integer(t->pu[i].core));
		json_object_set_new(p, "package", json_integer(t->pu[i].package));
		json_object_set_new(p, "allowed", json_boolean(t->pu[i].allowed));
		json_array_append_new(pus, p);
	}
	json_object_set_new(r, "cpus", pus);
	json_object_set_new(r, "allowed_cpus", cpulist_json(&t->allowed));
	json_t *caches = json_array();
	for (int i = 0; i < t->ncaches; i++) {
		const struct topo_cache *c = &t->caches[i];
		json_t *o = json_object();
		json_object_set_new(o, "level", json_integer(c->level));
		json_object_set_new(o, "type", json_string(c->type));
		json_object_set_new(o, "size_bytes", json_integer((json_int_t)c->size_bytes));
		json_object_set_new(o, "line_bytes", c->line_bytes ? json_integer(c->line_bytes) : json_null());
		json_object_set_new(o, "ways", c->ways > 0 ? json_integer(c->ways) :
				    c->ways < 0 ? json_string("full") : json_null());
		json_object_set_new(o, "cpus", cpulist_json(&c->cpus));
		json_array_append_new(caches, o);
	}
	json_object_set_new(r, "caches", caches);
	json_t *nodes = json_array();
	for (int i = 0; i < t->nnodes; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "node", json_integer(t->nodes[i].os_index));
		json_object_set_new(o, "memory_bytes", json_integer((json_int_t)t->nodes[i].memory_bytes));
		json_object_set_new(o, "cpus", cpulist_json(&t->nodes[i].cpus));
		json_array_append_new(nodes, o);
	}
	json_object_set_new(r, "numa_nodes", nodes);
	if (t->has_distances) {
		json_t *m = json_array();
		for (int i = 0; i < t->nnodes; i++) {
			json_t *row = json_array();
			for (int j = 0; j < t->nnodes; j++)
				json_array_append_new(row, json_integer((json_int_t)t->distance[i][j]));
			json_array_append_new(m, row);
		}
		json_object_set_new(r, "distances", m);
		json_object_set_new(r, "distances_source", json_string(t->distances_source));
	} else {
		json_object_set_new(r, "distances", json_null());
	}
	return r;
}

static void print_text(const struct topo *t)
{
	char buf[1024], sz[32];
	printf("topology as the OS reports it (through hwloc, API %s)\n\n", t->hwloc_version);
	struct table *tb = table_new(2, "item", "value");
	table_cell(tb, "cpu model");
	table_cell(tb, "%s", t->cpu_model);
	table_cell(tb, "packages");
	table_cell(tb, "%d", t->packages);
	table_cell(tb, "cores");
	table_cell(tb, "%d", t->cores);
	table_cell(tb, "hardware threads");
	table_cell(tb, "%d (%d per core)", t->pus, t->cores ? t->pus / t->cores : 0);
	table_cell(tb, "memory");
	table_cell(tb, "%s in NUMA nodes", buffer_format_size(t->memory_bytes, sz, sizeof(sz)));
	if (t->memtotal_bytes) {
		char sz2[32];
		int differs = t->memtotal_bytes > t->memory_bytes + t->memory_bytes / 10 ||
			      t->memory_bytes > t->memtotal_bytes + t->memtotal_bytes / 10;
		table_cell(tb, "memory (MemTotal)");
		table_cell(tb, "%s%s", buffer_format_size(t->memtotal_bytes, sz2, sizeof(sz2)),
			   differs ? "  <- differs from the NUMA nodes' total (memory outside any node's accounting)" : "");
	}
	table_cell(tb, "allowed cpus");
	table_cell(tb, "%s (%d of %d)", cpulist_format(&t->allowed, buf, sizeof(buf)), t->allowed.n, t->pus);
	table_print(tb, stdout, "  ");
	table_free(tb);

	printf("\ncaches\n");
	tb = table_new(7, "level", "type", "size", "line", "ways", "shared by", "instances (cpus)");
	/* One row per distinct kind of cache; instances listed by their CPU sets. */
	for (int i = 0; i < t->ncaches; i++) {
		const struct topo_cache *c = &t->caches[i];
		int dup = 0;
		for (int j = 0; j < i && !dup; j++)
			dup = t->caches[j].level == c->level && !strcmp(t->caches[j].type, c->type) &&
			      t->caches[j].size_bytes == c->size_bytes && t->caches[j].cpus.n == c->cpus.n;
		if (dup)
			continue;
		char inst[1024] = "";
		int n = 0;
		for (int j = i; j < t->ncaches; j++) {
			const struct topo_cache *d = &t->caches[j];
			if (d->level == c->level && !strcmp(d->type, c->type) && d->size_bytes == c->size_bytes &&
			    d->cpus.n == c->cpus.n) {
				size_t len = strlen(inst);
				snprintf(inst + len, sizeof(inst) - len, "%s[%s]", n ? " " : "",
					 cpulist_format(&d->cpus, buf, sizeof(buf)));
				n++;
			}
		}
		table_cell(tb, "L%d", c->level);
		table_cell(tb, "%s", c->type);
		table_cell(tb, "%s", buffer_format_size(c->size_bytes, sz, sizeof(sz)));
		if (c->line_bytes)
			table_cell(tb, "%d B", c->line_bytes);
		else
			table_cell(tb, "?");
		if (c->ways > 0)
			table_cell(tb, "%d", c->ways);
		else
			table_cell(tb, "%s", c->ways < 0 ? "full" : "?");
		table_cell(tb, "%d cpu%s", c->cpus.n, c->cpus.n == 1 ? "" : "s");
		table_cell(tb, "%d %s", n, inst);
	}
	table_print(tb, stdout, "  ");
	table_free(tb);

	printf("\nnuma nodes\n");
	tb = table_new(3, "node", "memory", "cpus");
	for (int i = 0; i < t->nnodes; i++) {
		table_cell(tb, "%d", t->nodes[i].os_index);
		table_cell(tb, "%s", buffer_format_size(t->nodes[i].memory_bytes, sz, sizeof(sz)));
		table_cell(tb, "%s", cpulist_format(&t->nodes[i].cpus, buf, sizeof(buf)));
	}
	table_print(tb, stdout, "  ");
	table_free(tb);

	if (t->has_distances) {
		printf("\nnuma distances (SLIT, relative; from %s)\n  %-6s", t->distances_source, "");
		for (int j = 0; j < t->nnodes; j++)
			printf(" node%-3d", t->nodes[j].os_index);
		printf("\n");
		for (int i = 0; i < t->nnodes; i++) {
			printf("  node%-2d", t->nodes[i].os_index);
			for (int j = 0; j < t->nnodes; j++)
				printf(" %7llu", (unsigned long long)t->distance[i][j]);
			printf("\n");
		}
	} else {
		printf("\nnuma distances: not reported by the OS\n");
	}
}

int cmd_topology(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int json = 0, c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_OK;
		default:
			usage_error("topology", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("topology", "unexpected argument '%s'", argv[optind]);

	struct topo t;
	struct as_error err = { 0 };
	if (topo_load(&t, &err) != 0)
		die_err(EXIT_FAIL, &err);
	if (json)
		cli_print_json("topology", topo_json(&t));
	else
		print_text(&t);
	topo_release(&t);
	return EXIT_OK;
}
