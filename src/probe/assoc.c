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

void probe_assoc_result_init(struct probe_assoc_result *r)
{
	*r = (struct probe_assoc_result){ 0 }; /* zeroed curves are empty (memory.h) */
	for (int i = 0; i < PROBE_MAX_LEVELS; i++)
		probe_evset_result_init(&r->level[i].evset);
}

void probe_assoc_result_release(struct probe_assoc_result *r)
{
	for (int i = 0; i < PROBE_MAX_LEVELS; i++) {
		probe_curve_release(&r->level[i].curve);
		probe_evset_result_release(&r->level[i].evset);
	}
}

/* The congruent-pages witness for a level the sweep left without an answer (a physically indexed
 * level whose pages lost set alignment). */
static int assoc_by_pages(struct probe_env *env, const struct probe_opts *o, int i, struct probe_assoc_level *l,
			  struct as_error *err)
{
	double next_ns = i + 1 < env->nlevels ? env->level_ns[i + 1] : env->memory_ns;
	if (o->quick) { /* seconds per level: not within --quick's budget */
		size_t len = strlen(l->ways.reason);
		snprintf(l->ways.reason + len, sizeof(l->ways.reason) - len,
			 "%scongruent pages: not tried with --quick (it takes seconds)", len ? "; " : "");
		return 0;
	}
	l->evset_tried = 1;
	int rc = probe_evset_ways(o, (size_t)env->level_bytes[i], (size_t)env->line_bytes, next_ns,
				  env->level_ways[i - 1], &l->evset, err);
	if (rc)
		return rc;
	const struct probe_evset_result *v = &l->evset;
	if (isfinite(v->ways)) {
		l->ways.value = v->ways;
		l->ways.confidence = v->confidence;
		l->ways.method = "pages found by measurement to share a set (smallest self-evicting set, then K of them "
				 "swept); the sweep at level-size distances showed no step";
		l->ways.reason[0] = 0;
		if (v->reason[0])
			snprintf(l->ways.reason, sizeof(l->ways.reason), "%s", v->reason);
		env->level_ways[i] = v->ways;
	} else {
		size_t len = strlen(l->ways.reason);
		snprintf(l->ways.reason + len, sizeof(l->ways.reason) - len, "%scongruent pages: %s", len ? "; " : "",
			 v->reason);
	}
	return 0;
}

int probe_assoc_analyze(struct probe_env *env, int i, struct probe_assoc_level *l)
{
	const struct probe_curve *c = &l->curve;
	double *y = probe_curve_monotone(c);
	if (!y)
		return -ENOMEM;
	double next_ns = i + 1 < env->nlevels ? env->level_ns[i + 1] : env->memory_ns;
	double conf;
	int si;
	double ways = steps_assoc_ways(c->x, c->min_ns, c->n, env->level_ns[i], next_ns, &conf, &si);
	const struct topo_cache *tc = env->topo ? topo_data_cache(env->topo, i + 1) : NULL;
	l->ways = (struct probe_answer){
		.value = ways, .confidence = si >= 0 ? conf : 0,
		.method = "K addresses a level-size apart in several sets; biggest relative step after the curve reaches the level's latency",
		.os_reported = tc && tc->ways > 0 ? tc->ways : NAN,
	};
	if (!isfinite(ways) && c->n >= 2) {
		/* say what the curve did instead of a step */
		size_t s = 0;
		while (s + 1 < c->n && y[s] < 0.8 * env->level_ns[i])
			s++;
		if (s + 1 >= c->n)
			snprintf(l->ways.reason, sizeof(l->ways.reason),
				 "not found: the curve never reached the level's latency (%.2f ns)", env->level_ns[i]);
		else
			snprintf(l->ways.reason, sizeof(l->ways.reason),
				 "not found: no step of 50 %%, the latency climbs from %.2f ns at K = %.0f to %.2f ns at "
				 "K = %.0f (not LRU, hashed sets, or pages without set alignment)",
				 y[s], c->x[s], y[c->n - 1], c->x[c->n - 1]);
	}
	l->step_index = si;
	l->step_before_ns = si >= 0 ? y[si] : NAN;
	l->step_after_ns = si >= 0 ? y[si + 1] : NAN;
	env->level_ways[i] = ways;
	free(y);
	return 0;
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

int probe_assoc_find(struct probe_env *env, probe_progress_fn *progress, struct probe_assoc_result *out,
		     struct as_error *err)
{
	probe_assoc_result_init(out);
	for (int i = 0; i < PROBE_MAX_LEVELS; i++)
		env->level_ways[i] = NAN;
	int rc = probe_caches_need(env, progress, err);
	if (env->nlevels == 0)
		return rc < 0 ? rc : as_error_set(err, -ENOENT, "assoc: no cache level was measured, nothing to probe");
	struct as_error line_err = { 0 };
	out->line_assumed = probe_line_need(env, progress, &line_err) != 0;
	size_t line = (size_t)env->line_bytes;
	struct probe_opts o = probe_opts_of(env, progress, HUGE_ALWAYS);
	for (int i = 0; i < env->nlevels && !probe_opts_stopped(&o); i++) {
		struct probe_assoc_level *l = &out->level[i];
		size_t level = (size_t)env->level_bytes[i];
		size_t lower = i ? (size_t)env->level_bytes[i - 1] : 0;
		int max_k = env->quick ? 24 : 40;
		while (max_k > 4 && (size_t)max_k * level > (1u << 30))
			max_k--;
		l->level_bytes = (double)level;
		if ((rc = probe_assoc_run(&o, level, lower, line, max_k, &l->curve, err)) != 0)
			return rc;
		l->sweeps = 1;
		if ((rc = probe_assoc_analyze(env, i, l)) != 0)
			return as_error_set(err, rc, "probe assoc: out of memory");
		/* No step: sweep again, up to ASSOC_SWEEPS in all, and keep each K's fastest. Another user
		 * of the level (a host's SMT sibling sharing L1, a neighbour in L2) only adds misses, so
		 * it can raise the curve before the ways are full but never lower it; a step that the
		 * fastest curve shows is the level's own. Only the first level: L1 is indexed by the
		 * page offset, so its sweep steps in any guest, and its sweeps take milliseconds; a
		 * later level without a step has the congruent-pages witness below. */
		while (i == 0 && !isfinite(l->ways.value) && l->sweeps < (env->quick ? 1 : ASSOC_SWEEPS) &&
		       !probe_opts_stopped(&o)) {
			struct probe_curve again = { 0 };
			struct probe_opts ro = o; /* another shuffle of the addresses; later levels keep the seed */
			ro.seed += 0x9e3779b97f4a7c15ULL * (uint64_t)l->sweeps;
			rc = probe_assoc_run(&ro, level, lower, line, max_k, &again, err);
			if (rc == 0)
				probe_curve_merge_min(&l->curve, &again);
			probe_curve_release(&again);
			if (rc)
				return rc;
			l->sweeps++;
			if ((rc = probe_assoc_analyze(env, i, l)) != 0)
				return as_error_set(err, rc, "probe assoc: out of memory");
		}
		if (i > 0 && !isfinite(l->ways.value) && !probe_opts_stopped(&o) &&
		    (rc = assoc_by_pages(env, &o, i, l, err)) != 0)
			return rc;
		out->nlevels = i + 1;
	}
	return 0;
}
