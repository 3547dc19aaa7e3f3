/* /proc/cpuinfo as the OS reports it: the CPU's name, vendor, family, model, flags and current
 * MHz. For os_reported values and to pick tables of published figures, never for an answer. */
#ifndef ARCHSCOPE_TOPO_CPUINFO_H
#define ARCHSCOPE_TOPO_CPUINFO_H

#include <stddef.h>

/* The value of the first "key : value" line of /proc/cpuinfo (exact key) into out; 0, or -1 when
 * absent or unreadable. */
int topo_cpuinfo(const char *key, char *out, size_t len);

#endif
