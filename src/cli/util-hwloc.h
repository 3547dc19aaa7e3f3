/* The hwloc XML of this machine with a machine file's measured values (topo/hwloc-export.h), shared
 * by `machine export --hwloc` and `probe -o FILE --hwloc FILE.xml` (cli/util-hwloc.c). */
#ifndef ARCHSCOPE_CLI_UTIL_HWLOC_H
#define ARCHSCOPE_CLI_UTIL_HWLOC_H

/* Reads the machine file `machine` (a path or a name), writes this machine's hwloc topology with
 * its measured latency, bandwidth, cache sizes and line to xml (atomically) and notes what was
 * written. 0, EXIT_USAGE (the machine file cannot be opened) or EXIT_FAIL, after error(). */
int cli_hwloc_export(const char *machine, const char *xml);

#endif
