/* Topology through hwloc (see topo.h). */
#include "topo/topo.h"

#include "common/buffer.h"

#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void bitmap_to_list(hwloc_const_bitmap_t bm, struct as_cpulist *out)
{
	out->n = 0;
	int i;
	hwloc_bitmap_foreach_begin(i, bm)
		if (i < AS_MAX_CPUS && out->n < AS_MAX_CPUS)
			out->cpu[out->n++] = i;
	hwloc_bitmap_foreach_end();
}

static int list_has(const struct as_cpulist *l, int cpu)
{
	for (int i = 0; i < l->n; i++)
		if (l->cpu[i] == cpu)
			return 1;
	return 0;
}

static void load_caches(struct topo *t, hwloc_topology_t h)
{
	static const hwloc_obj_type_t types[] = {
		HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L1ICACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L2ICACHE,
		HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L3ICACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE,
	};
	for (size_t k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
		int n = hwloc_get_nbobjs_by_type(h, types[k]);
		for (int i = 0; i < n && t->ncaches < TOPO_MAX_CACHES; i++) {
			hwloc_obj_t o = hwloc_get_obj_by_type(h, types[k], (unsigned)i);
			struct topo_cache *c = &t->caches[t->ncaches++];
			c->level = (int)o->attr->cache.depth;
			snprintf(c->type, sizeof(c->type), "%s",
				 o->attr->cache.type == HWLOC_OBJ_CACHE_DATA ? "data" :
				 o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION ? "instruction" : "unified");
			c->size_bytes = o->attr->cache.size;
			c->line_bytes = (int)o->attr->cache.linesize;
			c->ways = o->attr->cache.associativity;
			bitmap_to_list(o->cpuset, &c->cpus);
		}
	}
}

/* live: the running machine, whose kernel also exports SLIT rows hwloc leaves out */
static void load_distances(struct topo *t, hwloc_topology_t h, int live)
{
	unsigned nr = 1;
	struct hwloc_distances_s *d = NULL;
	if (hwloc_distances_get_by_type(h, HWLOC_OBJ_NUMANODE, &nr, &d, HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) == 0 &&
	    nr == 1 && d->nbobjs == (unsigned)t->nnodes) {
		for (unsigned i = 0; i < d->nbobjs && i < TOPO_MAX_NODES; i++)
			for (unsigned j = 0; j < d->nbobjs && j < TOPO_MAX_NODES; j++)
				t->distance[i][j] = d->values[i * d->nbobjs + j];
		t->has_distances = 1;
		snprintf(t->distances_source, sizeof(t->distances_source), "hwloc");
		hwloc_distances_release(h, d);
		return;
	}
	/* hwloc drops the trivial 1x1 matrix; the kernel still exports the SLIT row per node. */
	if (!live)
		return;
	for (int i = 0; i < t->nnodes; i++) {
		char path[128];
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/distance", t->nodes[i].os_index);
		FILE *f = fopen(path, "r");
		if (!f)
			return;
		for (int j = 0; j < t->nnodes; j++) {
			unsigned long long v;
			if (fscanf(f, "%llu", &v) != 1) {
				fclose(f);
				return;
			}
			t->distance[i][j] = v;
		}
		fclose(f);
	}
	t->has_distances = t->nnodes > 0;
	snprintf(t->distances_source, sizeof(t->distances_source), "sysfs");
}

static void load_kinds(struct topo *t, hwloc_topology_t h)
{
	int n = hwloc_cpukinds_get_nr(h, 0);
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	for (int k = 0; set && k < n && t->nkinds < TOPO_MAX_KINDS; k++) {
		int efficiency;
		unsigned ninfos;
		struct hwloc_info_s *infos;
		if (hwloc_cpukinds_get_info(h, (unsigned)k, set, &efficiency, &ninfos, &infos, 0) != 0)
			break;
		struct topo_cpukind *c = &t->kinds[t->nkinds++];
		c->efficiency = efficiency;
		for (unsigned i = 0; i < ninfos; i++) {
			if (!strcmp(infos[i].name, "CoreType"))
				snprintf(c->core_type, sizeof(c->core_type), "%s", infos[i].value);
			else if (!strcmp(infos[i].name, "FrequencyMaxMHz"))
				c->max_mhz = atoi(infos[i].value);
		}
		bitmap_to_list(set, &c->cpus);
	}
	hwloc_bitmap_free(set);
}

/* Fills t from a loaded topology; live: h is the running machine (affinity, meminfo, sysfs). */
static int load_from(struct topo *t, hwloc_topology_t h, int live, struct as_error *err)
{
	unsigned v = hwloc_get_api_version();
	snprintf(t->hwloc_version, sizeof(t->hwloc_version), "%u.%u.%u", v >> 16, (v >> 8) & 0xff, v & 0xff);
	t->packages = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PACKAGE);
	t->cores = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_CORE);
	t->pus = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PU);
	hwloc_obj_t root = hwloc_get_root_obj(h);
	t->memory_bytes = root->total_memory;
	t->memtotal_bytes = live ? buffer_mem_total() : 0;
	hwloc_obj_t pkg = hwloc_get_obj_by_type(h, HWLOC_OBJ_PACKAGE, 0);
	const char *model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
	snprintf(t->cpu_model, sizeof(t->cpu_model), "%s", model ? model : "unknown");

	load_caches(t, h);

	t->nnodes = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_NUMANODE);
	if (t->nnodes > TOPO_MAX_NODES)
		t->nnodes = TOPO_MAX_NODES;
	for (int i = 0; i < t->nnodes; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(h, HWLOC_OBJ_NUMANODE, (unsigned)i);
		t->nodes[i].os_index = (int)o->os_index;
		t->nodes[i].memory_bytes = o->attr->numanode.local_memory;
		bitmap_to_list(o->cpuset, &t->nodes[i].cpus);
	}
	load_distances(t, h, live);
	load_kinds(t, h);

	/* Allowed = hwloc's allowed set (cgroup cpusets) intersected with our affinity (taskset). */
	struct as_cpulist hw_allowed;
	bitmap_to_list(hwloc_topology_get_allowed_cpuset(h), &hw_allowed);
	if (live) {
		struct as_cpulist affinity;
		int rc = cpulist_allowed(&affinity, err);
		if (rc)
			return rc;
		for (int i = 0; i < affinity.n; i++)
			if (list_has(&hw_allowed, affinity.cpu[i]))
				t->allowed.cpu[t->allowed.n++] = affinity.cpu[i];
	} else {
		t->allowed = hw_allowed;
	}

	t->pu = calloc((size_t)(t->pus > 0 ? t->pus : 1), sizeof(*t->pu));
	if (!t->pu)
		return as_error_set(err, -ENOMEM, "out of memory");
	for (int i = 0; i < t->pus; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(h, HWLOC_OBJ_PU, (unsigned)i);
		hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_CORE, o);
		hwloc_obj_t p = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_PACKAGE, o);
		t->pu[i].os_index = (int)o->os_index;
		t->pu[i].core = core ? (int)core->logical_index : -1;
		t->pu[i].package = p ? (int)p->logical_index : -1;
		t->pu[i].allowed = list_has(&t->allowed, (int)o->os_index);
		t->pu[i].kind = -1;
		for (int k = 0; k < t->nkinds; k++)
			if (list_has(&t->kinds[k].cpus, (int)o->os_index))
				t->pu[i].kind = k;
	}
	t->npus_listed = t->pus;
	return 0;
}

/* Loads h (from the system or from path) with the filters topo wants, and fills t from it. */
static int load(struct topo *t, const char *path, struct as_error *err)
{
	memset(t, 0, sizeof(*t));
	hwloc_topology_t h;
	if (hwloc_topology_init(&h) != 0)
		return as_error_set(err, -ENOMEM, "cannot initialise hwloc");
	if (path && hwloc_topology_set_xml(h, path) != 0) {
		int e = errno ? errno : EINVAL;
		hwloc_topology_destroy(h);
		return as_error_set(err, -e, "cannot read topology file '%s': %s", path, strerror(e));
	}
	hwloc_topology_set_flags(h, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	hwloc_topology_set_icache_types_filter(h, HWLOC_TYPE_FILTER_KEEP_ALL);
	if (hwloc_topology_load(h) != 0) {
		int e = errno ? errno : EINVAL;
		hwloc_topology_destroy(h);
		if (path)
			return as_error_set(err, -e, "hwloc cannot load topology file '%s': %s", path, strerror(e));
		return as_error_set(err, -e, "hwloc cannot load the topology: %s", strerror(e));
	}
	int rc = load_from(t, h, path == NULL, err);
	hwloc_topology_destroy(h);
	if (rc)
		topo_release(t);
	return rc;
}

int topo_load(struct topo *t, struct as_error *err)
{
	return load(t, NULL, err);
}

int topo_load_xml(struct topo *t, const char *path, struct as_error *err)
{
	return load(t, path, err);
}

void topo_release(struct topo *t)
{
	free(t->pu);
	t->pu = NULL;
}

const struct topo_cache *topo_data_cache(const struct topo *t, int level)
{
	for (int i = 0; i < t->ncaches; i++)
		if (t->caches[i].level == level && strcmp(t->caches[i].type, "instruction") != 0)
			return &t->caches[i];
	return NULL;
}

int topo_line_bytes(const struct topo *t)
{
	for (int i = 0; i < t->ncaches; i++)
		if (t->caches[i].level == 1 && strcmp(t->caches[i].type, "instruction") && t->caches[i].line_bytes > 0)
			return t->caches[i].line_bytes;
	return 0;
}
