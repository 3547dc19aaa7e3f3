/* This machine's hwloc topology written as hwloc XML with archscope's measured values added where
 * hwloc holds such values: the memory attributes Latency (ns) and Bandwidth (MiB/s) from each
 * NUMA node's local CPUs to it (hwloc_memattr_set_value), and the measured cache sizes and line
 * beside the ones hwloc reports, as info attributes of the cache objects. The values come from
 * the caller (a machine file); this module measures nothing and never prints. */
#ifndef ARCHSCOPE_TOPO_HWLOC_EXPORT_H
#define ARCHSCOPE_TOPO_HWLOC_EXPORT_H

#include "common/error.h"

#define TOPO_EXPORT_LEVELS 8

struct topo_export_values {
	double latency_ns;          /* memory latency, local node (NaN: none) */
	const char *latency_method; /* how it was measured ("page-local chase"), NULL: none */
	double bandwidth_bs;        /* memory bandwidth, B/s (NaN: none) */
	const char *bandwidth_method;
	double line_bytes;          /* measured cache line (NaN: none) */
	int ncaches;
	struct {
		int level;          /* 1, 2, 3 */
		double size_bytes;  /* measured (NaN: none) */
	} cache[TOPO_EXPORT_LEVELS];
};

/* What the export did, for the caller to report. */
struct topo_export_done {
	int nodes;                  /* NUMA nodes given Latency/Bandwidth */
	int caches;                 /* cache objects annotated */
};

/* Loads this machine's topology (xml: a topology XML to start from instead, for tests; NULL: this
 * machine), adds v and writes it to path atomically (a temporary file beside it, renamed). */
int topo_hwloc_export(const char *xml, const struct topo_export_values *v, const char *path,
		      struct topo_export_done *done, struct as_error *err);

#endif
