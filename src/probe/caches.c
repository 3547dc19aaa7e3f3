/* The cache-hierarchy probe (BlackjackBench §3.1.2): a page-segmented random chase over growing
 * buffers, in several passes on fresh buffers, merged per size. */
#include "probe/caches.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "analysis/steps.h"
#include "probe/clock.h"
#include "common/rng.h"
#include "probe/env.h"
#include "probe/line.h"

/* One sweep over sizes[0..nsizes) into out; with adaptive set, stops on the last plateau and
 * returns the number of sizes measured. */
static size_t caches_pass(const struct probe_opts *o, char *base, size_t *off, size_t line, size_t page,
			  const size_t *sizes, size_t nsizes, int adaptive, int pass, int passes,
			  struct rng *r, struct probe_curve *out, int *rc)
{
	double last_step_x = 0;
	size_t i;
	for (i = 0; i < nsizes && !probe_opts_stopped(o); i++) {
		char label[64], sz[32];
		snprintf(label, sizeof(label), "pass %d/%d, %s", pass + 1, passes, buffer_format_size(sizes[i], sz, sizeof(sz)));
		probe_opts_report(o, "caches", label, (int)i, (int)nsizes);
		size_t count = chase_order_segmented(r, sizes[i], line, page, off);
		if ((*rc = probe_slots_measure(o, base, off, count, (double)sizes[i], out)) != 0)
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
	for (int p = 0; p < passes && !rc && !probe_opts_stopped(o); p++, ran++) {
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

/* Per point of the curve (x, monotone y, n points), the QT cluster (25 % diameter) it falls in;
 * 0 when none. */
static int caches_clusters(const double *x, const double *y, size_t n, int *id)
{
	struct qt_cluster *cl = malloc((n ? n : 1) * sizeof(*cl));
	if (!cl)
		return -ENOMEM;
	int k = n ? steps_qt_cluster(x, y, n, 0.25, cl, (int)n) : 0;
	for (size_t i = 0; i < n; i++) {
		id[i] = 0;
		for (int j = 0; j < k; j++)
			if (y[i] >= cl[j].min_y && y[i] <= cl[j].max_y)
				id[i] = j;
	}
	free(cl);
	return 0;
}

int probe_caches_clusters(const struct machine_probes_curve *c, double **monotone, int **cluster)
{
	size_t n = c->n > 0 ? (size_t)c->n : 0;
	double *x = malloc((n ? n : 1) * 2 * sizeof(double)), *min = x ? x + (n ? n : 1) : NULL;
	*monotone = malloc((n ? n : 1) * sizeof(double));
	*cluster = malloc((n ? n : 1) * sizeof(int));
	int rc = x && *monotone && *cluster ? 0 : -ENOMEM;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		x[i] = c->pt[i].x;
		min[i] = c->pt[i].min;
	}
	if (rc == 0) {
		steps_monotone(min, *monotone, n);
		rc = caches_clusters(x, *monotone, n, *cluster);
	}
	free(x);
	if (rc) {
		free(*monotone);
		free(*cluster);
		*monotone = NULL;
		*cluster = NULL;
	}
	return rc;
}

/* The levels found (n of lv) into rec's table and env, with cycles at ghz (0: none). */
static void caches_levels(struct probe_env *env, const struct level *lv, int n, double ghz, struct machine_probes *rec)
{
	rec->ncaches = n < MACHINE_PROBES_MAX_LEVELS ? n : MACHINE_PROBES_MAX_LEVELS;
	for (int i = 0; i < rec->ncaches; i++) {
		const struct topo_cache *tc = env->topo ? topo_data_cache(env->topo, i + 1) : NULL;
		struct machine_probes_cache *l = &rec->cache[i];
		machine_probes_row_init(MP_CACHES_LEVELS, l);
		l->level = i + 1;
		probe_answer_set(&l->size, lv[i].size, lv[i].confidence,
				 "QT clusters of the monotone latency curve give the levels; size = largest buffer whose latency is below halfway to the next level");
		l->size.os_reported = tc ? (double)tc->size_bytes : NAN;
		probe_answer_set(&l->latency, lv[i].latency, lv[i].confidence, "smallest latency in the level's QT cluster");
		l->latency_cy = ghz > 0 ? lv[i].latency * ghz : NAN;
		l->qt_max_x = lv[i].qt_max_x;
		l->points = (int)lv[i].points;
		env->level_bytes[i] = lv[i].size;
		env->level_ns[i] = lv[i].latency;
	}
}

int probe_caches_analyze(struct probe_env *env, const struct probe_caches_work *w, struct machine_probes *rec)
{
	const struct probe_curve *c = &w->curve;
	struct level lv[PROBE_MAX_LEVELS];
	double mem_min = NAN, mem_ns = NAN;
	int n = c->n ? steps_hierarchy(c->x, c->min_ns, c->n, lv, PROBE_MAX_LEVELS, &mem_min, &mem_ns) : 0;
	if (n < 0)
		n = 0;
	/* A plateau at three quarters of memory's latency or more is memory seen through more TLB
	 * misses or a busier machine (the latency creeps on past the last cache), not a cache level:
	 * fold it into memory. Real last-level caches sit far below: 0.1-0.4 of DRAM's latency. */
	while (n > 0 && isfinite(mem_min) && lv[n - 1].latency >= 0.75 * mem_min) {
		mem_min = lv[n - 1].latency;
		n--;
	}
	double ghz = clock_window_between(w->window_ghz[0], w->window_ghz[1]);
	if (!(ghz > 0))
		ghz = env->clock_ghz;
	machine_probes_group_release(rec, MP_G_CACHES); /* a re-measurement */
	rec->have[MP_CACHES] = MP_HAVE_YES;
	caches_levels(env, lv, n, ghz, rec);
	int has_mem = isfinite(mem_ns);
	probe_answer_clear(&rec->memory_latency);
	probe_answer_set(&rec->memory_latency, mem_ns, has_mem ? 0.9 : 0,
			 "page-local pattern: latency of the largest buffer of the page-segmented chase (pages in random "
			 "order, the lines of each 4 KiB page in random order), on the last plateau");
	rec->memory_latency_cy = has_mem && ghz > 0 ? mem_ns * ghz : NAN;
	probe_answer_clear(&rec->memory_latency_random); /* probe_caches_random's */
	rec->memory_latency_random_cy = NAN;
	rec->caches_ev.random_bytes = -1;
	rec->caches_ev.random_huge = NAN;
	rec->caches_ev.clock_ghz = ghz > 0 ? ghz : NAN;
	rec->caches_ev.line_bytes = (double)w->line_bytes;
	machine_probes_text(rec->caches_ev.pages, sizeof(rec->caches_ev.pages), huge_policy_name(w->huge));
	rec->caches_ev.passes = w->passes;
	env->nlevels = n;
	env->memory_ns = mem_ns;
	return probe_points_of(&rec->caches_ev.curve, c);
}

int probe_caches_find(struct probe_env *env, probe_progress_fn *progress, const struct probe_caches_params *params,
		      struct machine_probes *rec, struct as_error *err)
{
	struct probe_caches_work w = { 0 };
	struct as_error line_err = { 0 };
	probe_line_need(env, progress, &line_err);
	w.line_bytes = (size_t)env->line_bytes;
	w.huge = params ? params->huge : HUGE_ALWAYS;
	w.passes = env->quick ? 2 : 3;
	size_t cap = params && params->max_bytes ? params->max_bytes : env->quick ? (256u << 20) : (1u << 30);
	if (!(params && params->max_bytes)) {
		size_t avail = buffer_mem_available();
		if (avail && cap > avail / 4)
			cap = avail / 4;
	}
	struct probe_opts o = probe_opts_of(env, progress, w.huge);
	w.window_ghz[0] = clock_window_ghz();
	int rc = probe_caches_run(&o, w.line_bytes, cap, &w.curve, err);
	w.window_ghz[1] = clock_window_ghz();
	if (rc == 0 && (rc = probe_caches_analyze(env, &w, rec)) != 0)
		as_error_set(err, rc, "probe caches: out of memory");
	probe_curve_release(&w.curve);
	return rc;
}

int probe_caches_random(struct probe_env *env, probe_progress_fn *progress, struct machine_probes *rec,
			struct as_error *err)
{
	size_t bytes = env->quick ? ((size_t)256 << 20) : ((size_t)1 << 30);
	const struct machine_probes_curve *cc = &rec->caches_ev.curve;
	if (cc->n && cc->pt[cc->n - 1].x > (double)bytes)
		bytes = (size_t)cc->pt[cc->n - 1].x;
	size_t avail = buffer_mem_available();
	if (avail && bytes > avail / 4)
		bytes = avail / 4;
	size_t line = env->line_bytes >= 8 && env->line_bytes <= 4096 ? (size_t)env->line_bytes : 64;
	bytes = bytes / BUFFER_HUGE_BYTES * BUFFER_HUGE_BYTES;
	if (bytes < BUFFER_HUGE_BYTES)
		return as_error_set(err, -ENOMEM, "probe caches: too little memory for the random chase");
	struct buffer buf;
	int rc = buffer_alloc(&buf, bytes, HUGE_ALWAYS, err);
	if (rc)
		return as_error_prefix(err, "probe caches, random chase: "), rc;
	size_t *off = malloc((bytes / line + 1) * sizeof(size_t));
	if (!off) {
		buffer_release(&buf);
		return as_error_set(err, -ENOMEM, "probe caches: out of memory for %zu slots", bytes / line);
	}
	struct probe_opts o = probe_opts_of(env, progress, HUGE_ALWAYS);
	char sz[32], label[64];
	snprintf(label, sizeof(label), "random chase over %s", buffer_format_size(bytes, sz, sizeof(sz)));
	probe_opts_report(&o, "caches", label, 0, 1);
	struct rng rg;
	rng_init(&rg, env->seed ^ 0x72616e646f6dull);
	/* one segment as large as the buffer: a single random order over every line */
	size_t count = chase_order_segmented(&rg, bytes, line, bytes, off);
	struct probe_curve c;
	probe_curve_init(&c);
	if (count == 0 || probe_slots_measure(&o, buf.data, off, count, (double)bytes, &c) != 0 || c.n != 1)
		rc = as_error_set(err, -ENOMEM, "probe caches: out of memory for the random chase");
	double huge = buffer_huge_fraction(&buf);
	free(off);
	buffer_release(&buf);
	if (rc == 0 && !probe_opts_stopped(&o)) {
		struct machine_answer *a = &rec->memory_latency_random;
		double ghz = rec->caches_ev.clock_ghz;
		rec->caches_ev.random_bytes = (long long)bytes;
		rec->caches_ev.random_huge = huge;
		probe_answer_clear(a);
		probe_answer_set(a, c.min_ns[0], 0.9,
				 "fully random pattern: one random cycle over every line of the buffer on huge pages (each access "
				 "opens another DRAM page; no prefetcher follows), fastest repetition");
		if (isnan(huge)) {
			snprintf(a->reason, sizeof(a->reason),
				 "whether the buffer was on huge pages is unknown (/proc/self/smaps unreadable)");
		} else if (huge < 0.5) {
			a->confidence = 0.6;
			snprintf(a->reason, sizeof(a->reason),
				 "only %.0f %% of the buffer was on huge pages: TLB misses add to the latency", 100 * huge);
		}
		rec->memory_latency_random_cy = ghz > 0 ? c.min_ns[0] * ghz : NAN;
	}
	probe_curve_release(&c);
	return rc;
}

int probe_caches_need(struct probe_env *env, probe_progress_fn *progress, struct as_error *err)
{
	if (env->nlevels > 0)
		return 0;
	int quick = env->quick;
	env->quick = 1;
	struct machine_probes *scratch = probe_scratch_new(); /* the evidence is dropped */
	int rc = scratch ? probe_caches_find(env, progress, NULL, scratch, err)
			 : as_error_set(err, -ENOMEM, "probe caches: out of memory");
	probe_scratch_free(scratch);
	env->quick = quick;
	return rc;
}
