/* hwloc XML with measured memory attributes and cache sizes; see hwloc-export.h. */
#include "topo/hwloc-export.h"

#include <errno.h>
#include <hwloc.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Latency and Bandwidth from the node's local CPUs (its cpuset) to the node. */
static int node_memattrs(hwloc_topology_t h, hwloc_obj_t node, const struct topo_export_values *v)
{
	struct hwloc_location init;
	init.type = HWLOC_LOCATION_TYPE_CPUSET;
	init.location.cpuset = node->cpuset;
	int set = 0;
	if (isfinite(v->latency_ns) && v->latency_ns > 0) {
		if (hwloc_memattr_set_value(h, HWLOC_MEMATTR_ID_LATENCY, node, &init, 0,
					    (hwloc_uint64_t)llround(v->latency_ns)) != 0)
			return -errno;
		set = 1;
	}
	if (isfinite(v->bandwidth_bs) && v->bandwidth_bs > 0) {
		if (hwloc_memattr_set_value(h, HWLOC_MEMATTR_ID_BANDWIDTH, node, &init, 0,
					    (hwloc_uint64_t)llround(v->bandwidth_bs / 1048576.0)) != 0)
			return -errno;
		set = 1;
	}
	if (set) {
		char buf[64];
		if (isfinite(v->latency_ns)) {
			snprintf(buf, sizeof(buf), "%.2f", v->latency_ns);
			hwloc_obj_add_info(node, "ArchscopeLatencyNs", buf);
			if (v->latency_method)
				hwloc_obj_add_info(node, "ArchscopeLatencyMethod", v->latency_method);
		}
		if (isfinite(v->bandwidth_bs)) {
			snprintf(buf, sizeof(buf), "%.3f", v->bandwidth_bs / 1e9);
			hwloc_obj_add_info(node, "ArchscopeBandwidthGBs", buf);
			if (v->bandwidth_method)
				hwloc_obj_add_info(node, "ArchscopeBandwidthMethod", v->bandwidth_method);
		}
	}
	return set;
}

/* The measured size of cache level L beside hwloc's own (its attr->cache.size), and the line. */
static int cache_infos(hwloc_topology_t h, const struct topo_export_values *v)
{
	static const hwloc_obj_type_t types[] = { HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE,
						  HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE };
	int n = 0;
	char buf[64];
	for (int l = 1; l <= 5; l++) {
		double size = NAN;
		for (int i = 0; i < v->ncaches && i < TOPO_EXPORT_LEVELS; i++)
			if (v->cache[i].level == l)
				size = v->cache[i].size_bytes;
		for (hwloc_obj_t o = hwloc_get_next_obj_by_type(h, types[l - 1], NULL); o;
		     o = hwloc_get_next_obj_by_type(h, types[l - 1], o)) {
			if (o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION)
				continue;
			int any = 0;
			if (isfinite(size)) {
				snprintf(buf, sizeof(buf), "%.0f", size);
				hwloc_obj_add_info(o, "ArchscopeMeasuredSize", buf);
				any = 1;
			}
			if (isfinite(v->line_bytes)) {
				snprintf(buf, sizeof(buf), "%.0f", v->line_bytes);
				hwloc_obj_add_info(o, "ArchscopeMeasuredLineSize", buf);
				any = 1;
			}
			n += any;
		}
	}
	return n;
}

int topo_hwloc_export(const char *xml, const struct topo_export_values *v, const char *path,
		      struct topo_export_done *done, struct as_error *err)
{
	memset(done, 0, sizeof(*done));
	hwloc_topology_t h;
	if (hwloc_topology_init(&h) != 0)
		return as_error_set(err, -ENOMEM, "hwloc: cannot start a topology");
	if (xml && hwloc_topology_set_xml(h, xml) != 0) {
		hwloc_topology_destroy(h);
		return as_error_set(err, -EINVAL, "hwloc: cannot read the topology XML '%s'", xml);
	}
	hwloc_topology_set_io_types_filter(h, HWLOC_TYPE_FILTER_KEEP_NONE);
	if (hwloc_topology_load(h) != 0) {
		hwloc_topology_destroy(h);
		return as_error_set(err, -EIO, "hwloc: cannot load the topology");
	}
	int rc = 0;
	for (hwloc_obj_t node = hwloc_get_next_obj_by_type(h, HWLOC_OBJ_NUMANODE, NULL); node && rc >= 0;
	     node = hwloc_get_next_obj_by_type(h, HWLOC_OBJ_NUMANODE, node)) {
		rc = node_memattrs(h, node, v);
		done->nodes += rc > 0;
	}
	if (rc < 0) {
		hwloc_topology_destroy(h);
		char eb[96];
		return as_error_set(err, rc, "hwloc: setting a memory attribute: %s", as_strerror(-rc, eb, sizeof(eb)));
	}
	done->caches = cache_infos(h, v);
	char tmp[4200];
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >= sizeof(tmp)) {
		hwloc_topology_destroy(h);
		return as_error_set(err, -ENAMETOOLONG, "the path '%s' is too long", path);
	}
	rc = hwloc_topology_export_xml(h, tmp, 0);
	hwloc_topology_destroy(h);
	if (rc != 0 || rename(tmp, path) != 0) {
		int e = errno;
		unlink(tmp);
		char eb[96];
		return as_error_set(err, -e, "cannot write '%s': %s", path, as_strerror(e, eb, sizeof(eb)));
	}
	return 0;
}
