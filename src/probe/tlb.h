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

/* 8192 pages: twice the largest second-level TLB we know of (4096 entries). Beyond about
 * 64 MiB the paging-structure caches run out too, a further step that is not a TLB level. */
#define PROBE_TLB_MAX_PAGES 8192

/* What the TLB probe measures before it answers (the record keeps copies of the curves as its
 * evidence). A zeroed struct is empty. */
struct probe_tlb_work {
	struct probe_curve page_curve;     /* x: the distance s between a pair's accesses, bytes */
	struct probe_curve fault_curve;    /* x: s, bytes between first touches; y: ns per touch */
	struct probe_curve entries_curve;  /* x: pages touched */
	struct probe_curve control_curve;  /* x: lines touched, packed */
};

void probe_tlb_work_release(struct probe_tlb_work *w);

/* Measures the page and fault curves (first the line, probe_line_need, when env has none) and
 * answers the page size into rec: the fault witness where it found the end of the doubling, else
 * the s before the first step of the pair curve at least a third of the biggest; when the two
 * disagree the confidence drops and the reason says so. With a page size, measures the entries and
 * control curves up to PROBE_TLB_MAX_PAGES pages and answers the levels (steps_tlb_levels). An
 * interrupted curve's answers keep their value with confidence 0 (tlb.partial). The group is
 * present when it succeeds. progress may be NULL. Returns 0 or a negative errno (err says what
 * failed; the group is then absent from rec). */
int probe_tlb_find(struct probe_env *env, probe_progress_fn *progress, struct machine_probes *rec,
		   struct as_error *err);

/* The statistics of probe_tlb_find on curves already measured (recorded curves in tests): the
 * page size and its witnesses from w->page_curve and w->fault_curve (either may be empty), with
 * those curves as evidence; the levels from w->entries_curve and w->control_curve, with those. 0
 * or -ENOMEM. */
int probe_tlb_analyze_page(const struct probe_tlb_work *w, struct machine_probes *rec);
int probe_tlb_analyze_entries(const struct probe_tlb_work *w, struct machine_probes *rec);

/* The TLB's share beyond the last level (the page walks), ns, from rec's recorded entries and
 * control curves; NAN when there is none or the entries curve was cut short. */
double probe_tlb_walk_ns(const struct machine_probes *rec);

#endif
