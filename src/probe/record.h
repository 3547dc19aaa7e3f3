/* Each probe group's result into the typed record (struct machine_probes, machine/probes.h): its
 * answers and its evidence, the one route from a probe to the JSON of `probe`, probe-results.json
 * and the machine file. Each call first frees what the group held (a re-measurement); curves,
 * tables and matrices are copied to the heap. 0, or -ENOMEM (what was copied stays, freed with
 * the record). */
#ifndef ARCHSCOPE_PROBE_RECORD_H
#define ARCHSCOPE_PROBE_RECORD_H

#include "machine/probes.h"

struct probe_clock_result;
struct probe_line_result;
struct probe_caches_result;
struct probe_assoc_result;
struct probe_tlb_result;
struct probe_instr_result;
struct probe_contexts_result;
struct probe_c2c_result;

int probe_clock_record(struct machine_probes *p, const struct probe_clock_result *r);
int probe_line_record(struct machine_probes *p, const struct probe_line_result *r);
int probe_caches_record(struct machine_probes *p, const struct probe_caches_result *r);
int probe_assoc_record(struct machine_probes *p, const struct probe_assoc_result *r);
int probe_tlb_record(struct machine_probes *p, const struct probe_tlb_result *r);
int probe_instr_record(struct machine_probes *p, const struct probe_instr_result *r);
int probe_contexts_record(struct machine_probes *p, const struct probe_contexts_result *r);
int probe_c2c_record(struct machine_probes *p, const struct probe_c2c_result *r);

/* What a probe that fills the record itself uses. An answer: value (NAN: none), confidence,
 * method (copied; NULL: ""), os_reported (NAN: the OS reports nothing); its reason "". */
void probe_record_answer(struct machine_answer *a, double value, double confidence, const char *method,
			 double os_reported);
/* A curve: the points x[i], min[i] and median[i] (median NULL: NAN) into d, n of them (what d held
 * is freed). 0 or -ENOMEM. */
int probe_record_curve(struct machine_probes_curve *d, const double *x, const double *min, const double *median,
		       size_t n);

/* The entry (MP_CONTEXTS_*) of a contexts kind (enum contexts_kind), and its index in contexts_ev[]. */
int probe_contexts_record_id(int kind);

#endif
