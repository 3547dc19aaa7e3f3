/* Topology through hwloc (see topo.h). */
#include "topo/topo.h"

#include <errno.h>
#include <hwloc.h>
#include <limits.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/atomicfile.h"
#include "common/buffer.h"

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

/* The PU's CPU-side objects from its core up to its package (groups above the package, such as
 * hwloc's groups made from NUMA distances, are left out: the node distance says that). */
static void load_ancestors(struct topo_pu *pu, hwloc_obj_t o)
{
	pu->nanc = 0;
	for (hwloc_obj_t p = o->parent; p && p->type != HWLOC_OBJ_MACHINE && pu->nanc < TOPO_PU_ANCESTORS; p = p->parent) {
		struct topo_anc a = { .id = (int)p->gp_index, .pus = hwloc_bitmap_weight(p->cpuset) };
		if (p->type == HWLOC_OBJ_CORE) {
			a.type = TOPO_ANC_CORE;
		} else if (hwloc_obj_type_is_dcache(p->type)) {
			if (p->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION)
				continue;
			a.type = TOPO_ANC_CACHE;
			a.level = (int)p->attr->cache.depth;
			a.bytes = p->attr->cache.size;
		} else if (p->type == HWLOC_OBJ_GROUP) {
			a.type = TOPO_ANC_GROUP;
			a.cluster = p->subtype && !strcasecmp(p->subtype, "Cluster");
#if HWLOC_API_VERSION >= 0x00020100
		} else if (p->type == HWLOC_OBJ_DIE) {
			a.type = TOPO_ANC_DIE;
#endif
		} else if (p->type == HWLOC_OBJ_PACKAGE) {
			a.type = TOPO_ANC_PACKAGE;
		} else {
			continue;
		}
		pu->anc[pu->nanc++] = a;
		if (a.type == TOPO_ANC_PACKAGE)
			break;
	}
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
		t->pu[i].node = -1;
		for (int k = 0; k < t->nnodes && t->pu[i].node < 0; k++)
			if (list_has(&t->nodes[k].cpus, (int)o->os_index))
				t->pu[i].node = k;
		load_ancestors(&t->pu[i], o);
	}
	t->npus_listed = t->pus;
	return 0;
}

/* What is wrong with an XML text that is not an hwloc topology, before hwloc sees it (hwloc says
 * only "Invalid argument", and libxml2 would print on stderr): libxml2's first error with its
 * line, or the root that is not <topology> or holds no Machine object. */
struct xml_first {
	int line;
	char msg[256];
};

/* libxml2's errors come here instead of stderr; the first one is kept (the later ones follow
 * from it). */
static void xml_on_error(void *ctx, xmlErrorPtr e)
{
	struct xml_first *f = ctx;
	if (f->msg[0] || !e || e->level < XML_ERR_ERROR)
		return;
	f->line = e->line;
	snprintf(f->msg, sizeof(f->msg), "%s", e->message ? e->message : "not XML");
	f->msg[strcspn(f->msg, "\n")] = '\0';
	if (f->msg[0] >= 'A' && f->msg[0] <= 'Z')
		f->msg[0] = (char)(f->msg[0] - 'A' + 'a');
}

static int xml_check(const char *buf, size_t len, const char *what, const char *name, struct as_error *err)
{
	if (len > INT_MAX)
		return as_error_set(err, -EFBIG, "%s '%s' is too large", what, name);
	xmlParserCtxtPtr ctx = xmlNewParserCtxt();
	if (!ctx)
		return as_error_set(err, -ENOMEM, "%s '%s': out of memory", what, name);
	struct xml_first first = { 0 };
	xmlSetStructuredErrorFunc(&first, xml_on_error);
	xmlDocPtr doc = xmlCtxtReadMemory(ctx, buf, (int)len, name, NULL, XML_PARSE_NONET | XML_PARSE_NOWARNING);
	xmlSetStructuredErrorFunc(NULL, NULL);
	int rc = 0;
	if (!doc || first.msg[0]) {
		rc = as_error_set(err, -EINVAL, "%s '%s': line %d: not well-formed XML: %s", what, name, first.line,
				  first.msg[0] ? first.msg : "no document");
	}
	if (doc && !rc) {
		xmlNodePtr root = xmlDocGetRootElement(doc), c = NULL;
		for (c = root ? root->children : NULL; c && c->type != XML_ELEMENT_NODE; c = c->next)
			;
		xmlChar *type = c ? xmlGetProp(c, (const xmlChar *)"type") : NULL;
		if (!root || strcmp((const char *)root->name, "topology"))
			rc = as_error_set(err, -EINVAL, "%s '%s': the root element is <%s>, not <topology>: not an "
					  "hwloc XML topology (lstopo --of xml writes one)", what, name,
					  root ? (const char *)root->name : "nothing");
		else if (!c || strcmp((const char *)c->name, "object") || !type || strcmp((const char *)type, "Machine"))
			rc = as_error_set(err, -EINVAL, "%s '%s': line %d: <topology> does not start with "
					  "<object type=\"Machine\">: not an hwloc XML topology (lstopo --of xml writes one)",
					  what, name, c ? (int)xmlGetLineNo(c) : (int)xmlGetLineNo(root));
		xmlFree(type);
	}
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctx);
	return rc;
}

/* Loads h (from the system or from path) with the filters topo wants, and fills t from it. An
 * XML file (path, or HWLOC_XMLFILE for the live topology) is read by the checked reader and
 * checked before hwloc sees it. */
static int load(struct topo *t, const char *path, struct as_error *err)
{
	memset(t, 0, sizeof(*t));
	const char *xml = path, *env = getenv("HWLOC_XMLFILE");
	char named[4200];
	if (!xml && env && *env) {
		xml = env;
		snprintf(named, sizeof(named), "topology file (HWLOC_XMLFILE)");
	} else {
		snprintf(named, sizeof(named), "topology file");
	}
	char *buf = NULL;
	size_t len = 0;
	const char *name = xml && strcmp(xml, "-") ? xml : "<stdin>";
	if (xml && (!(buf = file_read_input(xml, named, TOPO_MAX_XML_BYTES, &len, err)) ||
		    xml_check(buf, len, named, name, err) != 0)) {
		free(buf);
		return err && err->code ? err->code : -EINVAL;
	}
	hwloc_topology_t h;
	if (hwloc_topology_init(&h) != 0) {
		free(buf);
		return as_error_set(err, -ENOMEM, "cannot initialise hwloc");
	}
	if (xml && hwloc_topology_set_xmlbuffer(h, buf, (int)len + 1) != 0) {
		int e = errno ? errno : EINVAL;
		hwloc_topology_destroy(h);
		free(buf);
		char b[96];
		return as_error_set(err, -e, "%s '%s': hwloc cannot import it: %s", named, name, as_strerror(e, b, sizeof(b)));
	}
	hwloc_topology_set_flags(h, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	hwloc_topology_set_icache_types_filter(h, HWLOC_TYPE_FILTER_KEEP_ALL);
	if (hwloc_topology_load(h) != 0) {
		int e = errno ? errno : EINVAL;
		hwloc_topology_destroy(h);
		free(buf);
		char b[96];
		if (xml)
			return as_error_set(err, -e, "%s '%s': hwloc cannot build a topology from it (%s): check "
					  "its objects and cpusets (lstopo --of xml writes a valid one)", named, name,
					  as_strerror(e, b, sizeof(b)));
		return as_error_set(err, -e, "hwloc cannot load the topology: %s", strerror(e));
	}
	free(buf);
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

const struct topo_pu *topo_pu_find(const struct topo *t, int os_index)
{
	for (int i = 0; t->pu && i < t->npus_listed; i++)
		if (t->pu[i].os_index == os_index)
			return &t->pu[i];
	return NULL;
}

int topo_pu_llc(const struct topo_pu *p, uint64_t *bytes)
{
	int id = -1;
	uint64_t b = 0;
	for (int i = 0; i < p->nanc; i++)
		if (p->anc[i].type == TOPO_ANC_CACHE) {
			id = p->anc[i].id;
			b = p->anc[i].bytes;
		}
	if (bytes)
		*bytes = b;
	return id;
}

void topo_pair_share(const struct topo *t, const struct topo_pu *a, const struct topo_pu *b, struct topo_share *out)
{
	memset(out, 0, sizeof(*out));
	out->kind_a = a->kind < b->kind ? a->kind : b->kind;
	out->kind_b = a->kind < b->kind ? b->kind : a->kind;
	/* The innermost object of a's chain that b's chain holds too (chains are nested). */
	const struct topo_anc *lca = NULL;
	for (int i = 0; i < a->nanc && !lca; i++)
		for (int j = 0; j < b->nanc && !lca; j++)
			if (a->anc[i].id == b->anc[j].id)
				lca = &a->anc[i];
	out->pus = lca ? lca->pus : t->pus;
	if (!lca)
		snprintf(out->what, sizeof(out->what), "machine");
	else if (lca->type == TOPO_ANC_CORE)
		snprintf(out->what, sizeof(out->what), "smt");
	else if (lca->type == TOPO_ANC_CACHE)
		snprintf(out->what, sizeof(out->what), "L%d", lca->level);
	else if (lca->type == TOPO_ANC_GROUP)
		snprintf(out->what, sizeof(out->what), "%s", lca->cluster ? "cluster" : "group");
	else if (lca->type == TOPO_ANC_DIE)
		snprintf(out->what, sizeof(out->what), "die");
	else
		snprintf(out->what, sizeof(out->what), "package");
	if (a->node < 0 || b->node < 0) {
		out->same_node = -1;
		return;
	}
	out->same_node = a->node == b->node;
	if (out->same_node) {
		/* A node smaller than the innermost CPU-side object they share names the pair (an EPYC
		 * node of two L3s inside a package; a cluster-on-die node). */
		/* (a group of just the node's CPUs is hwloc's place for the node: the node too) */
		int n = t->nodes[a->node].cpus.n;
		if (n < out->pus || (n == out->pus && lca && lca->type == TOPO_ANC_GROUP && !lca->cluster)) {
			snprintf(out->what, sizeof(out->what), "node");
			out->pus = n;
		}
	} else if (t->has_distances) {
		out->distance = t->distance[a->node][b->node];
	}
}

char *topo_share_name(const struct topo *t, const struct topo_share *s, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s", s->what);
	if (s->distance && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " d=%llu", (unsigned long long)s->distance);
	if (t->nkinds > 1 && s->kind_a >= 0 && n >= 0 && (size_t)n < len) {
		const char *ka = t->kinds[s->kind_a].core_type, *kb = t->kinds[s->kind_b].core_type;
		char na[16], nb[16];
		if (!ka[0])
			snprintf(na, sizeof(na), "kind%d", s->kind_a), ka = na;
		if (!kb[0])
			snprintf(nb, sizeof(nb), "kind%d", s->kind_b), kb = nb;
		if (s->kind_a == s->kind_b)
			snprintf(buf + n, len - (size_t)n, " %s", ka);
		else
			snprintf(buf + n, len - (size_t)n, " %s-%s", ka, kb);
	}
	return buf;
}
