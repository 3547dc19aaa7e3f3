/* Memory-hierarchy probes (see memory.h). Every probe builds a list of slot offsets, links them
 * into one random cycle, and times a dependent walk over it (chase.h). */
#include "probe/memory.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/steps.h"
#include "common/rng.h"
#include "probe/chase.h"

void probe_curve_init(struct probe_curve *c)
{
	memset(c, 0, sizeof(*c));
}

void probe_curve_release(struct probe_curve *c)
{
	free(c->x);
	free(c->min_ns);
	free(c->median_ns);
	memset(c, 0, sizeof(*c));
}

int probe_curve_add(struct probe_curve *c, double x, double min_ns, double median_ns)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		double *nx = realloc(c->x, cap * sizeof(double));
		if (nx)
			c->x = nx;
		double *nm = nx ? realloc(c->min_ns, cap * sizeof(double)) : NULL;
		if (nm)
			c->min_ns = nm;
		double *nd = nm ? realloc(c->median_ns, cap * sizeof(double)) : NULL;
		if (!nd)
			return -ENOMEM;
		c->median_ns = nd;
		c->cap = cap;
	}
	c->x[c->n] = x;
	c->min_ns[c->n] = min_ns;
	c->median_ns[c->n] = median_ns;
	c->n++;
	return 0;
}

double *probe_curve_monotone(const struct probe_curve *c)
{
	double *y = malloc((c->n ? c->n : 1) * sizeof(double));
	if (y)
		steps_monotone(c->min_ns, y, c->n);
	return y;
}

int probe_reps(const struct probe_opts *o)
{
	return o->quick ? 9 : 31;
}

uint64_t probe_point_ns(const struct probe_opts *o)
{
	return o->quick ? 1000000ull : 5000000ull; /* all repetitions of a point together */
}

struct probe_opts probe_opts_of(const struct probe_env *env, probe_progress_fn *progress, enum huge_policy huge)
{
	struct probe_opts o = {
		.quick = env->quick, .seed = env->seed, .stop = env->interrupted, .progress = progress, .huge = huge,
	};
	return o;
}

int probe_opts_stopped(const struct probe_opts *o)
{
	return o->stop && *o->stop;
}

void probe_opts_report(const struct probe_opts *o, const char *probe, const char *point, int done, int total)
{
	if (o->progress)
		o->progress(o->progress_ctx, probe, point, done, total);
}

static int stopped(const struct probe_opts *o)
{
	return o->stop && *o->stop;
}

static void report(const struct probe_opts *o, const char *probe, const char *point, int done, int total)
{
	if (o->progress)
		o->progress(o->progress_ctx, probe, point, done, total);
}

size_t probe_size_series(size_t lo, size_t hi, size_t align, int quick, size_t *out, size_t max)
{
	static const double full[] = { 1.0, 1.25, 1.5, 1.75 }, fast[] = { 1.0, 1.5 };
	const double *m = quick ? fast : full;
	int per = quick ? 2 : 4;
	size_t n = 0;
	for (size_t p = 1; p <= hi && n < max; p *= 2) {
		for (int i = 0; i < per && n < max; i++) {
			size_t s = (size_t)((double)p * m[i]);
			s = s / align * align;
			if (s < lo || s > hi || s == 0 || (n && s <= out[n - 1]))
				continue;
			out[n++] = s;
		}
		if (p > SIZE_MAX / 2)
			break;
	}
	return n;
}

/* Links the slots and measures: warm-up of min(2 passes, cap) steps, then min/median. */
static void measure_slots(const struct probe_opts *o, char *base, const size_t *off, size_t count,
			  struct chase_stats *st)
{
	void *p = chase_link(base, off, count);
	uint64_t warm = 2 * (uint64_t)count;
	if (warm > (1u << 18))
		warm = 1u << 18;
	chase_measure(&p, warm, probe_reps(o), probe_point_ns(o), st);
}

/* --- line size --------------------------------------------------------------------------- */

int probe_line_run(const struct probe_opts *o, struct probe_curve *out, struct as_error *err)
{
	/* A buffer far beyond any cache, so the first access of a pair misses; blocks of 512 B
	 * (the largest D) in random order, each contributing one pair. */
	size_t bytes = o->quick ? (64u << 20) : (256u << 20), block = 512;
	struct buffer buf;
	int rc = buffer_alloc(&buf, bytes, HUGE_NEVER, err);
	if (rc)
		return as_error_prefix(err, "probe line: "), rc;
	size_t blocks = bytes / block;
	size_t *order = malloc(blocks * sizeof(size_t)), *off = malloc(2 * blocks * sizeof(size_t));
	if (!order || !off) {
		free(order);
		free(off);
		buffer_release(&buf);
		return as_error_set(err, -ENOMEM, "probe line: out of memory");
	}
	struct rng r;
	rng_init(&r, o->seed);
	for (size_t b = 0; b < blocks; b++)
		order[b] = b;
	rng_shuffle(&r, order, blocks);
	/* D starts at 16 B: with 8-byte pointers a pair 8 B apart is one word, which cannot hold
	 * the two links a pair needs. */
	int total = 6, done = 0;
	for (size_t d = 16; d <= block && !stopped(o); d *= 2, done++) {
		char label[32];
		snprintf(label, sizeof(label), "D = %zu B", d);
		report(o, "line", label, done, total);
		/* Pair k: the first and the last pointer of a D-extent segment at block k's start. */
		for (size_t b = 0; b < blocks; b++) {
			off[2 * b] = order[b] * block;
			off[2 * b + 1] = order[b] * block + d - sizeof(void *);
		}
		struct chase_stats st;
		measure_slots(o, buf.data, off, 2 * blocks, &st);
		rc = probe_curve_add(out, (double)d, st.min_ns, st.median_ns);
		if (rc)
			break;
	}
	free(order);
	free(off);
	buffer_release(&buf);
	return rc ? as_error_set(err, rc, "probe line: out of memory") : 0;
}

/* --- cache sizes and latencies ------------------------------------------------------------ */

/* One sweep over sizes[0..nsizes) into out; with adaptive set, stops on the last plateau and
 * returns the number of sizes measured. */
static size_t caches_pass(const struct probe_opts *o, char *base, size_t *off, size_t line, size_t page,
			  const size_t *sizes, size_t nsizes, int adaptive, int pass, int passes,
			  struct rng *r, struct probe_curve *out, int *rc)
{
	double last_step_x = 0;
	size_t i;
	for (i = 0; i < nsizes && !stopped(o); i++) {
		char label[64], sz[32];
		snprintf(label, sizeof(label), "pass %d/%d, %s", pass + 1, passes, buffer_format_size(sizes[i], sz, sizeof(sz)));
		report(o, "caches", label, (int)i, (int)nsizes);
		size_t count = chase_order_segmented(r, sizes[i], line, page, off);
		struct chase_stats st;
		measure_slots(o, base, off, count, &st);
		if ((*rc = probe_curve_add(out, (double)sizes[i], st.min_ns, st.median_ns)) != 0)
			return i;
		if (!adaptive)
			continue;
		/* Stop once the curve is on its last plateau: flat (< 10 %) over three octaves,
		 * at least 4x past the last step (> 20 % between neighbours) and past 64 MiB. */
		size_t n = out->n;
		if (n >= 2 && out->min_ns[n - 1] > 1.2 * out->min_ns[n - 2])
			last_step_x = out->x[n - 1];
		size_t back = 12;
		if (n > back && sizes[i] >= (64u << 20) && (double)sizes[i] >= 4 * last_step_x) {
			double a = out->min_ns[n - 1 - back], b = out->min_ns[n - 1];
			if (b < 1.1 * a && b > 0.9 * a)
				return i + 1;
		}
	}
	return i;
}

int probe_caches_run(const struct probe_opts *o, size_t line, size_t max_bytes, struct probe_curve *out,
		     struct as_error *err)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t sizes[256];
	size_t lo = 1024 > 4 * line ? 1024 : 4 * line;
	/* Quick mode keeps four sizes per octave (QT needs several points per level) and saves
	 * time in repetitions and passes instead. */
	size_t nsizes = probe_size_series(lo, max_bytes, line, 0, sizes, 256);
	if (nsizes == 0)
		return as_error_set(err, -EINVAL, "probe caches: no sizes between %zu and %zu bytes", lo, max_bytes);
	size_t *off = malloc((max_bytes / line + 1) * sizeof(size_t));
	if (!off)
		return as_error_set(err, -ENOMEM, "probe caches: out of memory for %zu slots", max_bytes / line);
	/* Several passes, each on a fresh buffer (fresh physical placement) at a different time:
	 * a neighbour's burst or an unlucky placement spoils one pass's point, not the minimum
	 * over passes. The first pass chooses where the sweep ends. */
	int passes = o->quick ? 2 : 3, rc = 0, ran = 0;
	struct probe_curve pc[3];
	for (int p = 0; p < 3; p++)
		probe_curve_init(&pc[p]);
	struct rng r;
	rng_init(&r, o->seed);
	for (int p = 0; p < passes && !rc && !stopped(o); p++, ran++) {
		struct buffer buf;
		rc = buffer_alloc(&buf, p == 0 ? max_bytes : sizes[nsizes - 1], o->huge, err);
		if (rc) {
			as_error_prefix(err, "probe caches: ");
			break;
		}
		size_t done = caches_pass(o, buf.data, off, line, page, sizes, nsizes, p == 0, p, passes, &r, &pc[p], &rc);
		buffer_release(&buf);
		if (p == 0)
			nsizes = done;
		if (rc)
			as_error_set(err, rc, "probe caches: out of memory");
	}
	free(off);
	/* An interrupted pass measured fewer sizes: merge only what every used pass has. */
	passes = ran;
	/* Merge: per size, the minimum over passes and the median of the pass medians. */
	for (size_t i = 0; passes > 0 && i < pc[0].n && !rc; i++) {
		double mn = pc[0].min_ns[i], med[3];
		int m = 0;
		for (int p = 0; p < passes; p++) {
			if (i >= pc[p].n)
				continue;
			if (pc[p].min_ns[i] < mn)
				mn = pc[p].min_ns[i];
			med[m++] = pc[p].median_ns[i];
		}
		double md = m == 1 ? med[0] : m == 2 ? 0.5 * (med[0] + med[1])
				   : fmax(fmin(med[0], med[1]), fmin(fmax(med[0], med[1]), med[2]));
		if (probe_curve_add(out, pc[0].x[i], mn, md) != 0)
			rc = as_error_set(err, -ENOMEM, "probe caches: out of memory");
	}
	for (int p = 0; p < 3; p++)
		probe_curve_release(&pc[p]);
	return rc;
}

/* --- associativity ------------------------------------------------------------------------ */

int probe_assoc_run(const struct probe_opts *o, size_t level_bytes, size_t lower_bytes, size_t line,
		    int max_k, struct probe_curve *out, struct as_error *err)
{
	if (level_bytes < line || max_k < 2)
		return as_error_set(err, -EINVAL, "probe assoc: level of %zu bytes is too small", level_bytes);
	/* M sets, one line apart: M lines must stay within one way of this level (level/32 bytes
	 * covers up to 32 ways) and should overflow the lower level at K = 1. */
	size_t m_max = level_bytes / 32 / line;
	size_t m = lower_bytes ? 2 * lower_bytes / line : 16;
	if (m > m_max)
		m = m_max;
	if (m < 1)
		m = 1;
	size_t bytes = (size_t)max_k * level_bytes;
	struct buffer buf;
	int rc = buffer_alloc(&buf, bytes, o->huge, err);
	if (rc)
		return as_error_prefix(err, "probe assoc: "), rc;
	size_t *off = malloc((size_t)max_k * m * sizeof(size_t));
	if (!off) {
		buffer_release(&buf);
		return as_error_set(err, -ENOMEM, "probe assoc: out of memory");
	}
	struct rng r;
	rng_init(&r, o->seed);
	for (int k = 1; k <= max_k && !stopped(o); k++) {
		char label[64], sz[32];
		snprintf(label, sizeof(label), "%s level, K = %d", buffer_format_size(level_bytes, sz, sizeof(sz)), k);
		report(o, "assoc", label, k - 1, max_k);
		size_t count = 0;
		for (int a = 0; a < k; a++)
			for (size_t s = 0; s < m; s++)
				off[count++] = (size_t)a * level_bytes + s * line;
		rng_shuffle(&r, off, count);
		struct chase_stats st;
		measure_slots(o, buf.data, off, count, &st);
		if ((rc = probe_curve_add(out, k, st.min_ns, st.median_ns)) != 0)
			break;
	}
	free(off);
	buffer_release(&buf);
	return rc ? as_error_set(err, rc, "probe assoc: out of memory") : 0;
}

/* --- TLB ------------------------------------------------------------------------------------ */

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
	size_t *order = malloc(pairs * sizeof(size_t)), *off = malloc(2 * pairs * sizeof(size_t));
	if (!order || !off) {
		free(order);
		free(off);
		buffer_release(&buf);
		return as_error_set(err, -ENOMEM, "probe tlb: out of memory");
	}
	struct rng r;
	rng_init(&r, o->seed);
	for (size_t i = 0; i < pairs; i++)
		order[i] = i;
	rng_shuffle(&r, order, pairs);
	int total = 0, done = 0;
	for (size_t s = smin; s <= smax; s *= 2)
		total++;
	for (size_t s = smin; s <= smax && !stopped(o); s *= 2, done++) {
		char label[48];
		snprintf(label, sizeof(label), "stride %zu B", s);
		report(o, "tlb", label, done, total);
		size_t half_lines = s / 2 / line;
		for (size_t i = 0; i < pairs; i++) {
			size_t seg = order[i] * smax + (size_t)rng_below(&r, smax / s) * s;
			off[2 * i] = seg + (size_t)rng_below(&r, half_lines) * line;
			off[2 * i + 1] = seg + s - line - (size_t)rng_below(&r, half_lines) * line;
		}
		struct chase_stats st;
		measure_slots(o, buf.data, off, 2 * pairs, &st);
		if ((rc = probe_curve_add(out, (double)s, st.min_ns, st.median_ns)) != 0)
			break;
	}
	free(order);
	free(off);
	buffer_release(&buf);
	return rc ? as_error_set(err, rc, "probe tlb: out of memory") : 0;
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
	for (size_t i = 0; i < nc && !stopped(o); i++) {
		char label[48];
		snprintf(label, sizeof(label), "%zu pages", counts[i]);
		report(o, "tlb", label, (int)i, (int)nc);
		/* Page p is touched at line p mod (lines per page): the data spreads over every cache
		 * set instead of piling into one, so data caches interfere as little as they can. */
		for (size_t p = 0; p < counts[i]; p++)
			off[p] = p * page + (p % lines_per_page) * line;
		rng_shuffle(&r, off, counts[i]);
		struct chase_stats st;
		measure_slots(o, buf.data, off, counts[i], &st);
		if ((rc = probe_curve_add(out, (double)counts[i], st.min_ns, st.median_ns)) != 0)
			break;
		/* Control: the same number of lines, packed into consecutive lines (so into as few
		 * pages as possible) and spread over the cache sets alike: the data caches behave as
		 * above but the TLB barely misses. The difference is the TLB's share. */
		for (size_t p = 0; p < counts[i]; p++)
			off[p] = p * line;
		rng_shuffle(&r, off, counts[i]);
		measure_slots(o, buf.data, off, counts[i], &st);
		if ((rc = probe_curve_add(control, (double)counts[i], st.min_ns, st.median_ns)) != 0)
			break;
	}
	free(off);
	buffer_release(&buf);
	return rc ? as_error_set(err, rc, "probe tlb: out of memory") : 0;
}
