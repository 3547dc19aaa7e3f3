/* The associativity probe (BlackjackBench §3.1.3): K addresses a level's size apart in several
 * sets, K = 1..max_k; the walk leaves the level once K exceeds its ways. */
#include "probe/assoc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/steps.h"
#include "common/rng.h"
#include "probe/caches.h"
#include "probe/line.h"

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
	for (int k = 1; k <= max_k && !probe_opts_stopped(o); k++) {
		char label[64], sz[32];
		snprintf(label, sizeof(label), "%s level, K = %d", buffer_format_size(level_bytes, sz, sizeof(sz)), k);
		probe_opts_report(o, "assoc", label, k - 1, max_k);
		size_t count = 0;
		for (int a = 0; a < k; a++)
			for (size_t s = 0; s < m; s++)
				off[count++] = (size_t)a * level_bytes + s * line;
		rng_shuffle(&r, off, count);
		if ((rc = probe_slots_measure(o, buf.data, off, count, k, out)) != 0)
			break;
	}
	free(off);
	buffer_release(&buf);
	return rc ? as_error_set(err, rc, "probe assoc: out of memory") : 0;
}

/* The congruent-pages witness for a level the sweep left without an answer (a physically indexed
 * level whose pages lost set alignment): its figures and curve into the row, its answer where it
 * found one. */
static int assoc_by_pages(struct probe_env *env, const struct probe_opts *o, int i, struct machine_probes_assoc *row,
			  struct as_error *err)
{
	struct machine_answer *ways = &row->ways;
	double next_ns = i + 1 < env->nlevels ? env->level_ns[i + 1] : env->memory_ns;
	if (o->quick) { /* seconds per level: not within --quick's budget */
		size_t len = strlen(ways->reason);
		snprintf(ways->reason + len, sizeof(ways->reason) - len,
			 "%scongruent pages: not tried with --quick (it takes seconds)", len ? "; " : "");
		return 0;
	}
	struct probe_evset_result v;
	probe_evset_result_init(&v);
	int rc = probe_evset_ways(o, (size_t)env->level_bytes[i], (size_t)env->line_bytes, next_ns,
				  env->level_ways[i - 1], &v, err);
	if (rc == 0) {
		row->evset_ways = v.ways;
		row->evset_minimal_pages = v.minimal_pages;
		row->evset_class_pages = v.class_pages;
		row->evset_hit_ns = v.hit_ns;
		row->evset_miss_ns = v.miss_ns;
		row->evset_walks = v.tests;
		rc = probe_points_of(&row->evset_curve, &v.curve);
		if (rc)
			as_error_set(err, rc, "probe assoc: out of memory");
	}
	if (rc == 0 && isfinite(v.ways)) {
		ways->value = v.ways;
		ways->confidence = v.confidence;
		machine_probes_text(ways->method, sizeof(ways->method),
				    "pages found by measurement to share a set (smallest self-evicting set, then K of them "
				    "swept); the sweep at level-size distances showed no step");
		ways->reason[0] = 0;
		if (v.reason[0])
			snprintf(ways->reason, sizeof(ways->reason), "%s", v.reason);
		env->level_ways[i] = v.ways;
	} else if (rc == 0) {
		size_t len = strlen(ways->reason);
		snprintf(ways->reason + len, sizeof(ways->reason) - len, "%scongruent pages: %s", len ? "; " : "",
			 v.reason);
	}
	probe_evset_result_release(&v);
	return rc;
}

int probe_assoc_analyze(struct probe_env *env, int i, const struct probe_curve *c, struct machine_probes *rec)
{
	struct machine_probes_assoc *row = &rec->assoc[i];
	double *y = probe_curve_monotone(c);
	if (!y)
		return -ENOMEM;
	double next_ns = i + 1 < env->nlevels ? env->level_ns[i + 1] : env->memory_ns;
	double conf;
	int si;
	double ways = steps_assoc_ways(c->x, c->min_ns, c->n, env->level_ns[i], next_ns, &conf, &si);
	const struct topo_cache *tc = env->topo ? topo_data_cache(env->topo, i + 1) : NULL;
	struct machine_answer *a = &row->ways;
	probe_answer_clear(a);
	probe_answer_set(a, ways, si >= 0 ? conf : 0,
			 "K addresses a level-size apart in several sets; biggest relative step after the curve reaches the level's latency");
	a->os_reported = tc && tc->ways > 0 ? tc->ways : NAN;
	if (!isfinite(ways) && c->n >= 2) {
		/* say what the curve did instead of a step */
		size_t s = 0;
		while (s + 1 < c->n && y[s] < 0.8 * env->level_ns[i])
			s++;
		if (s + 1 >= c->n)
			snprintf(a->reason, sizeof(a->reason),
				 "not found: the curve never reached the level's latency (%.2f ns)", env->level_ns[i]);
		else
			snprintf(a->reason, sizeof(a->reason),
				 "not found: no step of 50 %%, the latency climbs from %.2f ns at K = %.0f to %.2f ns at "
				 "K = %.0f (not LRU, hashed sets, or pages without set alignment)",
				 y[s], c->x[s], y[c->n - 1], c->x[c->n - 1]);
	}
	env->level_ways[i] = ways;
	free(y);
	if (rec->nassoc < i + 1)
		rec->nassoc = i + 1; /* the table holds the row (and frees its curve) */
	return probe_points_of(&row->curve, c);
}

/* Pointwise fastest of two sweeps over the same K (the shorter's points, where one was cut). */
void probe_curve_merge_min(struct probe_curve *into, const struct probe_curve *other)
{
	size_t n = into->n < other->n ? into->n : other->n;
	for (size_t j = 0; j < n; j++) {
		if (into->x[j] != other->x[j])
			break;
		into->min_ns[j] = fmin(into->min_ns[j], other->min_ns[j]);
		into->median_ns[j] = fmin(into->median_ns[j], other->median_ns[j]);
	}
}

/* Level i: its sweeps and, where they show no step, the congruent pages, into rec->assoc[i]. */
static int assoc_level(struct probe_env *env, const struct probe_opts *o, int i, struct machine_probes *rec,
		       struct as_error *err)
{
	struct machine_probes_assoc *row = &rec->assoc[i];
	size_t level = (size_t)env->level_bytes[i], line = (size_t)env->line_bytes;
	size_t lower = i ? (size_t)env->level_bytes[i - 1] : 0;
	int max_k = env->quick ? 24 : 40, sweeps = 1;
	while (max_k > 4 && (size_t)max_k * level > (1u << 30))
		max_k--;
	machine_probes_row_init(MP_ASSOC_LEVELS, row);
	row->level = i + 1;
	row->level_bytes = (double)level;
	struct probe_curve curve = { 0 };
	int rc = probe_assoc_run(o, level, lower, line, max_k, &curve, err);
	if (rc == 0 && (rc = probe_assoc_analyze(env, i, &curve, rec)) != 0)
		as_error_set(err, rc, "probe assoc: out of memory");
	/* No step: sweep again, up to ASSOC_SWEEPS in all, and keep each K's fastest. Another user
	 * of the level (a host's SMT sibling sharing L1, a neighbour in L2) only adds misses, so
	 * it can raise the curve before the ways are full but never lower it; a step that the
	 * fastest curve shows is the level's own. Only the first level: L1 is indexed by the
	 * page offset, so its sweep steps in any guest, and its sweeps take milliseconds; a
	 * later level without a step has the congruent-pages witness below. */
	while (rc == 0 && i == 0 && !isfinite(row->ways.value) && sweeps < (env->quick ? 1 : ASSOC_SWEEPS) &&
	       !probe_opts_stopped(o)) {
		struct probe_curve again = { 0 };
		struct probe_opts ro = *o; /* another shuffle of the addresses; later levels keep the seed */
		ro.seed += 0x9e3779b97f4a7c15ULL * (uint64_t)sweeps;
		rc = probe_assoc_run(&ro, level, lower, line, max_k, &again, err);
		if (rc == 0)
			probe_curve_merge_min(&curve, &again);
		probe_curve_release(&again);
		if (rc == 0 && (rc = probe_assoc_analyze(env, i, &curve, rec)) != 0)
			as_error_set(err, rc, "probe assoc: out of memory");
		sweeps += rc == 0;
	}
	probe_curve_release(&curve);
	row->sweeps = sweeps > 1 ? sweeps : -1;
	if (rc == 0 && i > 0 && !isfinite(row->ways.value) && !probe_opts_stopped(o))
		rc = assoc_by_pages(env, o, i, row, err);
	return rc;
}

int probe_assoc_find(struct probe_env *env, probe_progress_fn *progress, struct machine_probes *rec,
		     struct as_error *err)
{
	for (int i = 0; i < PROBE_MAX_LEVELS; i++)
		env->level_ways[i] = NAN;
	machine_probes_group_release(rec, MP_G_ASSOC); /* a re-measurement: its levels are measured again */
	rec->have[MP_ASSOC] = MP_HAVE_NO;
	int rc = probe_caches_need(env, progress, err);
	if (env->nlevels == 0)
		return rc < 0 ? rc : as_error_set(err, -ENOENT, "assoc: no cache level was measured, nothing to probe");
	struct as_error line_err = { 0 };
	probe_line_need(env, progress, &line_err);
	struct probe_opts o = probe_opts_of(env, progress, HUGE_ALWAYS);
	for (int i = 0; i < env->nlevels && i < MACHINE_PROBES_MAX_LEVELS && !probe_opts_stopped(&o); i++) {
		if ((rc = assoc_level(env, &o, i, rec, err)) != 0) { /* the levels done stay, as evidence */
			free(rec->assoc[i].curve.pt);
			free(rec->assoc[i].evset_curve.pt);
			rec->nassoc = i;
			return rc;
		}
		rec->nassoc = i + 1;
	}
	rec->have[MP_ASSOC] = MP_HAVE_YES;
	return 0;
}
