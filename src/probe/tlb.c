/* The TLB probes (BlackjackBench §3.2): the page size from pairs of accesses s bytes apart, and
 * the entries per level from pages touched at a different line each against a packed control. */
#include "probe/tlb.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "analysis/plateaus.h"
#include "analysis/steps.h"
#include "common/timer.h"
#include "common/rng.h"
#include "probe/line.h"

int probe_tlb_page_run(const struct probe_opts *o, size_t line, struct probe_curve *out, struct as_error *err)
{
	/* Pairs of accesses in an s-aligned segment of a random block: the first at a random line of
	 * the segment's first half, the second at a random line of its second half. While s <= page
	 * the pair shares a page; from s = 2 pages on the halves lie in different pages and the
	 * second access misses the TLB too (the blocks are spread over gigabytes, more pages than any
	 * TLB holds). The random lines spread the data over every cache set, so the data part is a
	 * cache hit and the page walk stands out. */
	size_t pairs = o->quick ? 4096 : 8192, smax = 256u << 10;
	size_t smin = 4 * line;
	size_t bytes = pairs * smax;
	struct buffer buf;
	int rc = buffer_alloc_sparse(&buf, bytes, 2 * pairs * smax / 16 + (64u << 20), HUGE_NEVER, err);
	if (rc)
		return as_error_prefix(err, "probe tlb: "), rc;
	struct rng r;
	rng_init(&r, o->seed);
	size_t *order = probe_pairs_alloc(&r, pairs);
	if (!order) {
		buffer_release(&buf);
		return as_error_set(err, -ENOMEM, "probe tlb: out of memory");
	}
	size_t *off = order + pairs;
	int total = probe_doublings(smin, smax), done = 0;
	for (size_t s = smin; s <= smax && !probe_opts_stopped(o); s *= 2, done++) {
		char label[48];
		snprintf(label, sizeof(label), "stride %zu B", s);
		probe_opts_report(o, "tlb", label, done, total);
		size_t half_lines = s / 2 / line;
		for (size_t i = 0; i < pairs; i++) {
			size_t seg = order[i] * smax + (size_t)rng_below(&r, smax / s) * s;
			off[2 * i] = seg + (size_t)rng_below(&r, half_lines) * line;
			off[2 * i + 1] = seg + s - line - (size_t)rng_below(&r, half_lines) * line;
		}
		if ((rc = probe_slots_measure(o, buf.data, off, 2 * pairs, (double)s, out)) != 0)
			break;
	}
	free(order);
	buffer_release(&buf);
	return rc ? as_error_set(err, rc, "probe tlb: out of memory") : 0;
}

int probe_tlb_fault_run(const struct probe_opts *o, struct probe_curve *out, struct as_error *err)
{
	/* n first touches every s bytes of a fresh mapping: while s < page, s / page of them fault;
	 * from s = page on, every one does. */
	size_t n = o->quick ? 256 : 512, smin = 512, smax = 256u << 10;
	int reps = o->quick ? 3 : 5, total = probe_doublings(smin, smax), done = 0, rc = 0;
	for (size_t s = smin; s <= smax && !probe_opts_stopped(o); s *= 2, done++) {
		char label[48];
		snprintf(label, sizeof(label), "first touches every %zu B", s);
		probe_opts_report(o, "tlb", label, done, total);
		double t[8];
		for (int k = 0; k < reps; k++) {
			struct buffer buf;
			if ((rc = buffer_alloc_sparse(&buf, n * s, n * 4096, HUGE_NEVER, err)) != 0)
				return as_error_prefix(err, "probe tlb: "), rc;
			volatile char *p = buf.data;
			uint64_t t0 = timer_now_ns();
			for (size_t i = 0; i < n; i++)
				p[i * s] = 1;
			t[k] = (double)(timer_now_ns() - t0) / (double)n;
			buffer_release(&buf);
		}
		double lo = t[0], sorted[8];
		for (int k = 0; k < reps; k++) {
			lo = t[k] < lo ? t[k] : lo;
			sorted[k] = t[k];
		}
		for (int a = 1; a < reps; a++) /* insertion sort of a handful */
			for (int b = a; b > 0 && sorted[b] < sorted[b - 1]; b--) {
				double x = sorted[b];
				sorted[b] = sorted[b - 1];
				sorted[b - 1] = x;
			}
		if ((rc = probe_curve_add(out, (double)s, lo, sorted[reps / 2])) != 0)
			return as_error_set(err, rc, "probe tlb: out of memory");
	}
	return 0;
}

int probe_tlb_entries_run(const struct probe_opts *o, size_t page, size_t line, size_t max_pages,
			  struct probe_curve *out, struct probe_curve *control, struct as_error *err)
{
	if (page < line || line == 0)
		return as_error_set(err, -EINVAL, "probe tlb: page %zu B smaller than line %zu B", page, line);
	size_t counts[256];
	size_t nc = probe_size_series(4, max_pages, 1, 0, counts, 256);
	struct buffer buf;
	int rc = buffer_alloc(&buf, max_pages * page, HUGE_NEVER, err);
	if (rc)
		return as_error_prefix(err, "probe tlb: "), rc;
	size_t *off = malloc(max_pages * sizeof(size_t));
	if (!off) {
		buffer_release(&buf);
		return as_error_set(err, -ENOMEM, "probe tlb: out of memory");
	}
	struct rng r;
	rng_init(&r, o->seed);
	size_t lines_per_page = page / line;
	for (size_t i = 0; i < nc && !probe_opts_stopped(o); i++) {
		char label[48];
		snprintf(label, sizeof(label), "%zu pages", counts[i]);
		probe_opts_report(o, "tlb", label, (int)i, (int)nc);
		/* Page p is touched at line p mod (lines per page): the data spreads over every cache
		 * set instead of piling into one, so data caches interfere as little as they can. */
		for (size_t p = 0; p < counts[i]; p++)
			off[p] = p * page + (p % lines_per_page) * line;
		rng_shuffle(&r, off, counts[i]);
		if ((rc = probe_slots_measure(o, buf.data, off, counts[i], (double)counts[i], out)) != 0)
			break;
		/* Control: the same number of lines, packed into consecutive lines (so into as few
		 * pages as possible) and spread over the cache sets alike: the data caches behave as
		 * above but the TLB barely misses. The difference is the TLB's share. */
		for (size_t p = 0; p < counts[i]; p++)
			off[p] = p * line;
		rng_shuffle(&r, off, counts[i]);
		if ((rc = probe_slots_measure(o, buf.data, off, counts[i], (double)counts[i], control)) != 0)
			break;
	}
	free(off);
	buffer_release(&buf);
	return rc ? as_error_set(err, rc, "probe tlb: out of memory") : 0;
}

void probe_tlb_result_init(struct probe_tlb_result *r)
{
	*r = (struct probe_tlb_result){
		.page = probe_answer_none(), .page_pairs = probe_answer_none(), .page_faults = probe_answer_none(),
		.page_step_index = -1, .walk_ns = NAN,
	}; /* zeroed curves are empty (memory.h) */
}

void probe_tlb_result_release(struct probe_tlb_result *r)
{
	probe_curve_release(&r->page_curve);
	probe_curve_release(&r->fault_curve);
	probe_curve_release(&r->entries_curve);
	probe_curve_release(&r->control_curve);
}

int probe_tlb_analyze_page(struct probe_tlb_result *r)
{
	const struct probe_curve *c = &r->page_curve;
	double *y = c->n ? probe_curve_monotone(c) : NULL;
	if (c->n && !y)
		return -ENOMEM;
	/* Witness 1: both accesses of a pair share a page while s <= page: the page size is the
	 * last stride before the step, as the line size is for the line probe. The first step, not
	 * the biggest: beyond (PTEs per line) x page the second access's page walk misses too, a
	 * later and often bigger step. Steps under a third of the biggest are passed over: at the
	 * shortest distances a next-line prefetcher can make the second access cheaper. */
	struct step_answer a = y ? steps_first_significant(y, c->n, 1.0 / 3.0) : (struct step_answer){ .index = -1 };
	r->page_pairs = (struct probe_answer){
		.value = a.index >= 0 ? c->x[a.index] : NAN, .confidence = a.index >= 0 ? a.confidence : 0,
		.method = "pairs of accesses s bytes apart at random places over a sparse 2 GiB range; first step of the monotone curve at least a third of the biggest",
		.os_reported = NAN,
	};
	r->page_step_index = a.index;
	r->page_before_ns = a.index >= 0 ? y[a.index] : 0;
	r->page_after_ns = a.index >= 0 ? y[a.index + 1] : 0;
	free(y);
	/* Witness 2: the fault cost doubles with s until s reaches the page. */
	const struct probe_curve *f = &r->fault_curve;
	struct doubling_end d = { .index = -1 };
	if (f->n)
		plateaus_doubling_end(f->x, f->min_ns, f->n, &d);
	r->page_faults = (struct probe_answer){
		.value = d.index >= 0 ? f->x[d.index] : NAN, .confidence = d.index >= 0 ? d.confidence : 0,
		.method = "first touches of fresh memory every s bytes: the time per touch doubles with s while s / page of them fault, and stops at the page",
		.os_reported = NAN,
	};
	if (!f->n)
		snprintf(r->page_faults.reason, sizeof(r->page_faults.reason), "not measured");
	else if (d.index < 0)
		snprintf(r->page_faults.reason, sizeof(r->page_faults.reason),
			 "the time per touch did not double and then stop between %.0f and %.0f B", f->x[0], f->x[f->n - 1]);
	double os = (double)sysconf(_SC_PAGESIZE);
	struct probe_answer *p = &r->page, *pf = &r->page_faults, *pp = &r->page_pairs;
	if (isfinite(pf->value)) {
		*p = *pf;
		if (isfinite(pp->value) && pp->value != pf->value) {
			p->confidence *= 0.75;
			snprintf(p->reason, sizeof(p->reason),
				 "the witnesses disagree: pairs %.0f B (the step at the page is a few ns: nested page "
				 "walks and the PTE line's step can hide it), faults %.0f B", pp->value, pf->value);
		}
	} else if (isfinite(pp->value)) {
		*p = *pp;
		p->confidence *= 0.75;
		snprintf(p->reason, sizeof(p->reason), "pair witness only (fault witness: %.100s)", pf->reason);
	} else {
		*p = (struct probe_answer){ .value = NAN, .method = pp->method };
		snprintf(p->reason, sizeof(p->reason), "neither witness found a step");
	}
	p->os_reported = os;
	return 0;
}

int probe_tlb_analyze_entries(struct probe_tlb_result *r)
{
	const struct probe_curve *c = &r->entries_curve, *ctl = &r->control_curve;
	/* TLB share = pages curve - control curve, shifted up by the control's first point so the
	 * relative QT diameter works on a latency-like scale. */
	struct level tlv[PROBE_MAX_LEVELS];
	double base = 0, walk_min = NAN;
	int n = c->n && ctl->n == c->n
		? steps_tlb_levels(c->x, c->min_ns, ctl->min_ns, c->n, tlv, PROBE_MAX_LEVELS, &base, &walk_min)
		: 0;
	if (n < 0)
		n = 0;
	r->nlevels = n;
	for (int i = 0; i < n; i++) {
		r->level[i] = (struct probe_tlb_level){
			.entries = {
				.value = tlv[i].size, .confidence = tlv[i].confidence,
				.method = "pages touched at a different line each, random order, minus a control chase over as many packed lines; QT levels, edge halfway to the next",
				.os_reported = NAN,
			},
			.qt_max_x = tlv[i].qt_max_x,
			.cost_ns = tlv[i].latency - base,
		};
	}
	r->walk_ns = isfinite(walk_min) ? walk_min - base : NAN;
	return 0;
}

/* An answer from a curve cut short (an interrupted run) is no answer: a step or a final plateau
 * found in the points measured may lie anywhere in the points not measured. Its value stays, as
 * evidence, with confidence 0 and the reason. */
static void answer_partial(struct probe_answer *a, size_t got, size_t want, const char *what)
{
	if (!isfinite(a->value))
		return;
	a->confidence = 0;
	snprintf(a->reason, sizeof(a->reason), "partial curve: interrupted after %zu of %zu %s", got, want, what);
}

int probe_tlb_find(struct probe_env *env, probe_progress_fn *progress, struct probe_tlb_result *out,
		   struct as_error *err)
{
	probe_tlb_result_init(out);
	struct as_error line_err = { 0 };
	out->line_assumed = probe_line_need(env, progress, &line_err) != 0;
	size_t line = (size_t)env->line_bytes;
	struct probe_opts o = probe_opts_of(env, progress, HUGE_NEVER);
	int rc = probe_tlb_page_run(&o, line, &out->page_curve, err);
	if (rc == 0 && !probe_opts_stopped(&o))
		rc = probe_tlb_fault_run(&o, &out->fault_curve, err);
	if (rc == 0 && (rc = probe_tlb_analyze_page(out)) != 0)
		as_error_set(err, rc, "probe tlb: out of memory");
	size_t want = (size_t)probe_doublings(4 * line, 256u << 10), want_f = (size_t)probe_doublings(512, 256u << 10);
	if (rc == 0 && out->page_curve.n < want) {
		out->partial = 1;
		answer_partial(&out->page_pairs, out->page_curve.n, want, "strides");
		answer_partial(&out->page, out->page_curve.n, want, "strides");
	}
	if (rc == 0 && out->fault_curve.n < want_f && (out->fault_curve.n > 0 || probe_opts_stopped(&o))) {
		out->partial = 1;
		int from_faults = out->page.value == out->page_faults.value;
		answer_partial(&out->page_faults, out->fault_curve.n, want_f, "distances");
		if (from_faults)
			answer_partial(&out->page, out->fault_curve.n, want_f, "distances");
	}
	if (rc != 0 || !isfinite(out->page.value) || probe_opts_stopped(&o))
		return rc;
	/* 8192 pages: twice the largest second-level TLB we know of (4096 entries). Beyond about
	 * 64 MiB the paging-structure caches run out too, a further step that is not a TLB level. */
	out->max_pages = 8192;
	out->entries_measured = 1;
	rc = probe_tlb_entries_run(&o, (size_t)out->page.value, line, out->max_pages, &out->entries_curve,
				   &out->control_curve, err);
	if (rc == 0 && (rc = probe_tlb_analyze_entries(out)) != 0)
		as_error_set(err, rc, "probe tlb: out of memory");
	size_t counts[256];
	want = probe_size_series(4, out->max_pages, 1, 0, counts, 256);
	if (rc == 0 && out->entries_curve.n < want) {
		out->partial = 1;
		for (int i = 0; i < out->nlevels; i++)
			answer_partial(&out->level[i].entries, out->entries_curve.n, want, "page counts");
		out->walk_ns = NAN; /* the last plateau measured need not be the page walks' */
	}
	return rc;
}
