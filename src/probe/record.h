/* Each probe group's result into the typed record (struct machine_probes, machine/probes.h): its
 * answers and its evidence, the one route from a probe to the JSON of `probe`, probe-results.json
 * and the machine file. Each call first frees what the group held (a re-measurement); curves,
 * tables and matrices are copied to the heap. 0, or -ENOMEM (what was copied stays, freed with
 * the record). */
#ifndef ARCHSCOPE_PROBE_RECORD_H
#define ARCHSCOPE_PROBE_RECORD_H

#include "machine/probes.h"

struct probe_c2c_result;

int probe_c2c_record(struct machine_probes *p, const struct probe_c2c_result *r);

#endif
