/* Machine files in Kerncraft's format plus archscope's own section: quantities with units
 * ("2.4 GHz", "32.00 kB", "64 B/cy", node.c), checking the keys and types a model needs (check.c;
 * errors name the line and the path, "memory hierarchy[1].cache per group.ways"), and the typed
 * values read back (read.c). */
#ifndef ARCHSCOPE_MACHINE_FILE_H
#define ARCHSCOPE_MACHINE_FILE_H

#include "machine/machine.h"
#include "machine/mtree.h"

/* A number with an optional SI (k M G T: powers of 1000) or binary (Ki Mi Gi Ti) prefix and
 * unit: "2.4 GHz" -> 2.4e9 "Hz"; "32 KiB" -> 32768 "B"; "64 B/cy"; "8" -> 8 "". 0 or -1. */
int machine_quantity(const char *text, double *value, char *unit, size_t unit_len);

/* Checks a parsed machine file by shape and by meaning: the keys a model needs ("incomplete:
 * missing key 'clock'"), positive finite numbers, a clock of MACHINE_MIN_CLOCK_HZ to
 * MACHINE_MAX_CLOCK_HZ, cache sizes that do not shrink from one level to the next, load_from,
 * store_to and victims_to naming another level, no archscope.incomplete; a cache's "size per
 * group" that agrees with sets x ways x cl_size (within 1 %, its prefix read as decimal or as
 * binary: Kerncraft's files write kB for KiB), a cl_size that is a power of two of
 * MACHINE_MIN_LINE_BYTES to MACHINE_MAX_LINE_BYTES, a cache of at most MACHINE_MAX_CACHE_BYTES
 * per group (the first level at most MACHINE_MAX_L1_BYTES); an
 * archscope section that is whole (no key left without a value; in one 'probe -o' wrote:
 * version, every probe in probes, every answer with unit, confidence, method and os_reported, the last item of a list with
 * every key the others share: a file cut inside it fails). Every problem is one line
 * "machine file 'NAME': line L: PATH: ..." appended to *report (malloc'd, NULL when there is
 * none). Returns the count. */
#define MACHINE_MIN_CLOCK_HZ 0.1e9
#define MACHINE_MAX_CLOCK_HZ 10e9
#define MACHINE_MIN_LINE_BYTES 8
#define MACHINE_MAX_LINE_BYTES 4096
#define MACHINE_MAX_CACHE_BYTES (4.0 * 1073741824.0)
#define MACHINE_MAX_L1_BYTES (1.0 * 1073741824.0)
int machine_check(const struct mtree *t, const char *name, char **report);
/* machine_check's checks of the benchmarks section alone (a mapping {kernels, measurements}), for
 * one read from elsewhere (probe -o --from-raw's benchmarks.json): problems read "WHAT 'NAME':
 * [line L: ]PATH: ...". Returns the count (-1: out of memory). */
int machine_check_benchmarks(const struct mnode *benchmarks, const char *what, const char *name, char **report);

/* Fills m from a tree that passed machine_check. */
void machine_read(const struct mtree *t, struct machine *m);

#endif
