/* The TLB probes (BlackjackBench §3.2): the page size from pair latencies against the distance
 * between the pair, and the entries per level from a pages curve against a packed control. */
#ifndef ARCHSCOPE_PROBE_TLB_H
#define ARCHSCOPE_PROBE_TLB_H

#include "probe/memory.h"

/* Page size: pairs of accesses s bytes apart at random s-aligned places far apart, s from 4 lines
 * to 256 KiB; the second access misses the TLB once s exceeds the page. */
int probe_tlb_page_run(const struct probe_opts *o, size_t line, struct probe_curve *out, struct as_error *err);
/* Entries: N pages touched at a different cache line each, in random order; `control` gets the
 * same N lines packed into few pages, so that control - out isolates the TLB. */
int probe_tlb_entries_run(const struct probe_opts *o, size_t page, size_t line, size_t max_pages,
			  struct probe_curve *out, struct probe_curve *control, struct as_error *err);

#endif
