/* The TLB probes (BlackjackBench §3.2): the page size from two witnesses — pair latencies against
 * the distance between the pair (the paper's; a step of a few ns that a VM's nested page walks
 * drown in noise, and a later, bigger step when the page walk's PTE line changes) and the cost of
 * first touches every s bytes of fresh memory (a page fault per page: it doubles with s until s
 * reaches the page, microseconds against nanoseconds of noise) — and the entries per level from a
 * pages curve against a packed control; the answers with their curves as evidence. */
#ifndef ARCHSCOPE_PROBE_TLB_H
#define ARCHSCOPE_PROBE_TLB_H

#include "probe/memory.h"

/* Page size: pairs of accesses s bytes apart at random s-aligned places far apart, s from 4 lines
 * to 256 KiB; the second access misses the TLB once s exceeds the page. */
int probe_tlb_page_run(const struct probe_opts *o, size_t line, struct probe_curve *out, struct as_error *err);
/* Fault witness: time per first touch of fresh memory every s bytes, s = 512 B .. 256 KiB (4 KiB
 * pages for the mapping, MADV_NOHUGEPAGE); min over the repetitions. */
int probe_tlb_fault_run(const struct probe_opts *o, struct probe_curve *out, struct as_error *err);
/* Entries: N pages touched at a different cache line each, in random order; `control` gets the
 * same N lines packed into few pages, so that control - out isolates the TLB. */
int probe_tlb_entries_run(const struct probe_opts *o, size_t page, size_t line, size_t max_pages,
			  struct probe_curve *out, struct probe_curve *control, struct as_error *err);

struct probe_tlb_level {
	struct probe_answer entries;  /* entries: the level's edge halfway to the next */
	double qt_max_x;              /* the largest page count in the level's QT cluster */
	double cost_ns;               /* the TLB's share of an access at this level */
};

struct probe_tlb_result {
	struct probe_answer page;     /* B; os_reported: the OS's base page size */
	struct probe_answer page_pairs;  /* witness 1: the first step of the pair curve */
	struct probe_answer page_faults; /* witness 2: where the fault cost stops doubling */
	struct probe_curve fault_curve;  /* x: s, bytes between first touches; y: ns per touch */
	int page_step_index;          /* the step lies between page_curve points i and i+1; -1: none */
	double page_before_ns;        /* monotone pair latency on either side of the step */
	double page_after_ns;
	struct probe_curve page_curve;     /* x: the distance s between a pair's accesses, bytes */
	int entries_measured;         /* 0: no page size was found, or the run was interrupted first */
	size_t max_pages;
	int nlevels;
	struct probe_tlb_level level[PROBE_MAX_LEVELS];
	double walk_ns;               /* TLB share beyond the last level (page walks); NAN: none */
	struct probe_curve entries_curve;  /* x: pages touched */
	struct probe_curve control_curve;  /* x: lines touched, packed */
	int line_assumed;             /* no line size could be measured: 64 B assumed */
	int partial;                  /* interrupted: a curve stops early, its answers have confidence 0 */
};

void probe_tlb_result_init(struct probe_tlb_result *r);
void probe_tlb_result_release(struct probe_tlb_result *r);

/* Measures the page and fault curves (first the line, probe_line_need, when env has none) and
 * answers the page size: the fault witness where it found the end of the doubling, else the s
 * before the first step of the pair curve at least a third of the biggest; when the two disagree
 * the confidence drops and the reason says so.
 * With a page size, measures the entries and control curves up to 8192 pages and answers the
 * levels (steps_tlb_levels). *out is initialised here; release it also after an error; after an
 * error in the entries run the page answer and curve stay filled. progress may be NULL. Returns
 * 0 or a negative errno (err says what failed). */
int probe_tlb_find(struct probe_env *env, probe_progress_fn *progress, struct probe_tlb_result *out,
		   struct as_error *err);

/* The statistics of probe_tlb_find on curves already measured (recorded curves in tests): the
 * page size from r->page_curve and r->fault_curve (either may be empty), the levels from
 * r->entries_curve and r->control_curve. 0 or -ENOMEM. */
int probe_tlb_analyze_page(struct probe_tlb_result *r);
int probe_tlb_analyze_entries(struct probe_tlb_result *r);

#endif
