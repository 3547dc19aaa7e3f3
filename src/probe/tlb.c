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

void probe_tlb_work_release(struct probe_tlb_work *w)
{
	probe_curve_release(&w->page_curve);
	probe_curve_release(&w->fault_curve);
	probe_curve_release(&w->entries_curve);
	probe_curve_release(&w->control_curve);
}

/* The page size from its two witnesses (set in rec): the fault witness's where it answered. */
static void tlb_page_decide(struct machine_probes *rec)
{
	struct machine_answer *p = &rec->page_size, *pf = &rec->page_faults, *pp = &rec->page_pairs;
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
		probe_answer_clear(p);
		probe_answer_set(p, NAN, 0, pp->method);
		snprintf(p->reason, sizeof(p->reason), "neither witness found a step");
	}
	p->os_reported = (double)sysconf(_SC_PAGESIZE);
}

int probe_tlb_analyze_page(const struct probe_tlb_work *w, struct machine_probes *rec)
{
	const struct probe_curve *c = &w->page_curve;
	double *y = c->n ? probe_curve_monotone(c) : NULL;
	if (c->n && !y)
		return -ENOMEM;
	/* Witness 1: both accesses of a pair share a page while s <= page: the page size is the
	 * last stride before the step, as the line size is for the line probe. The first step, not
	 * the biggest: beyond (PTEs per line) x page the second access's page walk misses too, a
	 * later and often bigger step. Steps under a third of the biggest are passed over: at the
	 * shortest distances a next-line prefetcher can make the second access cheaper. */
	struct step_answer a = y ? steps_first_significant(y, c->n, 1.0 / 3.0) : (struct step_answer){ .index = -1 };
	free(y);
	probe_answer_clear(&rec->page_pairs);
	probe_answer_set(&rec->page_pairs, a.index >= 0 ? c->x[a.index] : NAN, a.index >= 0 ? a.confidence : 0,
			 "pairs of accesses s bytes apart at random places over a sparse 2 GiB range; first step of the monotone curve at least a third of the biggest");
	/* Witness 2: the fault cost doubles with s until s reaches the page. */
	const struct probe_curve *f = &w->fault_curve;
	struct doubling_end d = { .index = -1 };
	if (f->n)
		plateaus_doubling_end(f->x, f->min_ns, f->n, &d);
	struct machine_answer *pf = &rec->page_faults;
	probe_answer_clear(pf);
	probe_answer_set(pf, d.index >= 0 ? f->x[d.index] : NAN, d.index >= 0 ? d.confidence : 0,
			 "first touches of fresh memory every s bytes: the time per touch doubles with s while s / page of them fault, and stops at the page");
	if (!f->n)
		snprintf(pf->reason, sizeof(pf->reason), "not measured");
	else if (d.index < 0)
		snprintf(pf->reason, sizeof(pf->reason),
			 "the time per touch did not double and then stop between %.0f and %.0f B", f->x[0], f->x[f->n - 1]);
	tlb_page_decide(rec);
	if (probe_points_of(&rec->tlb_ev.page_curve, c) || probe_points_of(&rec->tlb_ev.fault_curve, f))
		return -ENOMEM;
	return 0;
}

int probe_tlb_analyze_entries(const struct probe_tlb_work *w, struct machine_probes *rec)
{
	const struct probe_curve *c = &w->entries_curve, *ctl = &w->control_curve;
	/* TLB share = pages curve - control curve, shifted up by the control's first point so the
	 * relative QT diameter works on a latency-like scale. */
	struct level tlv[PROBE_MAX_LEVELS];
	double base = 0, walk_min = NAN;
	int n = c->n && ctl->n == c->n
		? steps_tlb_levels(c->x, c->min_ns, ctl->min_ns, c->n, tlv, PROBE_MAX_LEVELS, &base, &walk_min)
		: 0;
	if (n < 0)
		n = 0;
	rec->ntlb = n < MACHINE_PROBES_MAX_LEVELS ? n : MACHINE_PROBES_MAX_LEVELS;
	for (int i = 0; i < rec->ntlb; i++) {
		struct machine_probes_tlb *t = &rec->tlb[i];
		machine_probes_row_init(MP_TLB_LEVELS, t);
		t->level = i + 1;
		probe_answer_set(&t->entries, tlv[i].size, tlv[i].confidence,
				 "pages touched at a different line each, random order, minus a control chase over as many packed lines; QT levels, edge halfway to the next");
		t->qt_max_x = tlv[i].qt_max_x;
		t->cost_ns = tlv[i].latency - base;
	}
	if (probe_points_of(&rec->tlb_ev.entries_curve, c) || probe_points_of(&rec->tlb_ev.control_curve, ctl))
		return -ENOMEM;
	return 0;
}

/* The page counts of a full entries curve. */
static size_t tlb_entries_want(void)
{
	size_t counts[256];
	return probe_size_series(4, PROBE_TLB_MAX_PAGES, 1, 0, counts, 256);
}

double probe_tlb_walk_ns(const struct machine_probes *rec)
{
	const struct machine_probes_curve *c = &rec->tlb_ev.entries_curve, *ctl = &rec->tlb_ev.control_curve;
	if (!c->n || ctl->n != c->n || (rec->tlb_ev.partial && (size_t)c->n < tlb_entries_want()))
		return NAN; /* the last plateau of a cut curve need not be the page walks' */
	size_t n = (size_t)c->n;
	double *x = malloc(3 * n * sizeof(double)), *y = x + n, *yc = y + n;
	if (!x)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		x[i] = c->pt[i].x;
		y[i] = c->pt[i].min;
		yc[i] = ctl->pt[i].min;
	}
	struct level tlv[PROBE_MAX_LEVELS];
	double base = 0, walk_min = NAN;
	steps_tlb_levels(x, y, yc, n, tlv, PROBE_MAX_LEVELS, &base, &walk_min);
	free(x);
	return isfinite(walk_min) ? walk_min - base : NAN;
}

/* An answer from a curve cut short (an interrupted run) is no answer: a step or a final plateau
 * found in the points measured may lie anywhere in the points not measured. Its value stays, as
 * evidence, with confidence 0 and the reason. */
static void answer_partial(struct machine_answer *a, size_t got, size_t want, const char *what)
{
	if (!isfinite(a->value))
		return;
	a->confidence = 0;
	snprintf(a->reason, sizeof(a->reason), "partial curve: interrupted after %zu of %zu %s", got, want, what);
}

/* The page answers of curves cut short (answer_partial). */
static void tlb_page_partial(const struct probe_tlb_work *w, const struct probe_opts *o, size_t line,
			     struct machine_probes *rec)
{
	size_t want = (size_t)probe_doublings(4 * line, 256u << 10), want_f = (size_t)probe_doublings(512, 256u << 10);
	if (w->page_curve.n < want) {
		rec->tlb_ev.partial = 1;
		answer_partial(&rec->page_pairs, w->page_curve.n, want, "strides");
		answer_partial(&rec->page_size, w->page_curve.n, want, "strides");
	}
	if (w->fault_curve.n < want_f && (w->fault_curve.n > 0 || probe_opts_stopped(o))) {
		rec->tlb_ev.partial = 1;
		int from_faults = rec->page_size.value == rec->page_faults.value;
		answer_partial(&rec->page_faults, w->fault_curve.n, want_f, "distances");
		if (from_faults)
			answer_partial(&rec->page_size, w->fault_curve.n, want_f, "distances");
	}
}

/* The entries and control curves and the levels, for the page size found. */
static int tlb_entries(struct probe_tlb_work *w, const struct probe_opts *o, size_t line, struct machine_probes *rec,
		       struct as_error *err)
{
	int rc = probe_tlb_entries_run(o, (size_t)rec->page_size.value, line, PROBE_TLB_MAX_PAGES, &w->entries_curve,
				       &w->control_curve, err);
	if (rc == 0 && (rc = probe_tlb_analyze_entries(w, rec)) != 0)
		as_error_set(err, rc, "probe tlb: out of memory");
	size_t want = tlb_entries_want();
	if (rc == 0 && w->entries_curve.n < want) {
		rec->tlb_ev.partial = 1;
		for (int i = 0; i < rec->ntlb; i++)
			answer_partial(&rec->tlb[i].entries, w->entries_curve.n, want, "page counts");
	}
	return rc;
}

int probe_tlb_find(struct probe_env *env, probe_progress_fn *progress, struct machine_probes *rec,
		   struct as_error *err)
{
	machine_probes_group_release(rec, MP_G_TLB); /* a re-measurement */
	rec->have[MP_TLB] = MP_HAVE_NO;
	rec->tlb_ev.partial = 0;
	struct probe_tlb_work w = { 0 };
	struct as_error line_err = { 0 };
	probe_line_need(env, progress, &line_err);
	size_t line = (size_t)env->line_bytes;
	struct probe_opts o = probe_opts_of(env, progress, HUGE_NEVER);
	int rc = probe_tlb_page_run(&o, line, &w.page_curve, err);
	if (rc == 0 && !probe_opts_stopped(&o))
		rc = probe_tlb_fault_run(&o, &w.fault_curve, err);
	if (rc == 0 && (rc = probe_tlb_analyze_page(&w, rec)) != 0)
		as_error_set(err, rc, "probe tlb: out of memory");
	if (rc == 0)
		tlb_page_partial(&w, &o, line, rec);
	if (rc == 0 && isfinite(rec->page_size.value) && !probe_opts_stopped(&o))
		rc = tlb_entries(&w, &o, line, rec, err);
	probe_tlb_work_release(&w);
	if (rc == 0)
		rec->have[MP_TLB] = MP_HAVE_YES;
	return rc;
}
