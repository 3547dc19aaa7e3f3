/* The cache-line probe (BlackjackBench §3.1.1): pairs of dependent loads D bytes apart at random
 * places of a buffer far beyond any cache; while D <= line the second load hits. */
#include "probe/line.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/plateaus.h"
#include "analysis/steps.h"
#include "common/rng.h"
#include "common/timer.h"

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
	struct rng r;
	rng_init(&r, o->seed);
	size_t *order = probe_pairs_alloc(&r, blocks);
	if (!order) {
		buffer_release(&buf);
		return as_error_set(err, -ENOMEM, "probe line: out of memory");
	}
	size_t *off = order + blocks;
	/* D starts at 16 B: with 8-byte pointers a pair 8 B apart is one word, which cannot hold
	 * the two links a pair needs. */
	int total = 8, done = 0; /* 6 strides, then the coherence and flush witnesses (probe_line_find) */
	for (size_t d = 16; d <= block && !probe_opts_stopped(o); d *= 2, done++) {
		char label[32];
		snprintf(label, sizeof(label), "D = %zu B", d);
		probe_opts_report(o, "line", label, done, total);
		/* Pair k: the first and the last pointer of a D-extent segment at block k's start. */
		for (size_t b = 0; b < blocks; b++) {
			off[2 * b] = order[b] * block;
			off[2 * b + 1] = order[b] * block + d - sizeof(void *);
		}
		if ((rc = probe_slots_measure(o, buf.data, off, 2 * blocks, (double)d, out)) != 0)
			break;
	}
	free(order);
	buffer_release(&buf);
	return rc ? as_error_set(err, rc, "probe line: out of memory") : 0;
}

void probe_line_result_init(struct probe_line_result *r)
{
	*r = (struct probe_line_result){
		.line = probe_answer_none(), .stride = probe_answer_none(), .coherence = probe_answer_none(),
		.flush = probe_answer_none(), .step_index = -1, .sharing_cpus = { -1, -1 }, .sharing_ratio = NAN,
		.flush_ratio = NAN,
	}; /* zeroed curves are empty (memory.h) */
}

void probe_line_result_release(struct probe_line_result *r)
{
	probe_curve_release(&r->curve);
	probe_curve_release(&r->flush_curve);
}

/* The coherence witness's answer from r->sharing: where the median time per increment falls to
 * the uncontended level (at least a 2x contrast). */
static void line_coherence_analyze(struct probe_line_result *r)
{
	struct probe_answer *a = &r->coherence;
	a->method = "two threads on different cores do atomic increments of counters D bytes apart; the smallest D "
		    "at which they stop contending (median time per increment on the uncontended plateau)";
	if (r->sharing.n == 0) {
		if (!a->reason[0])
			snprintf(a->reason, sizeof(a->reason), "not measured");
		return;
	}
	struct plateau_split sp;
	plateaus_split_falling(r->sharing.median_ns, (size_t)r->sharing.n, 2.0, &sp);
	r->sharing_ratio = sp.ratio;
	if (sp.index < 0) {
		snprintf(a->reason, sizeof(a->reason),
			 "no contention seen between CPUs %d and %d (under 2x between D = %.0f and %.0f B): they may share "
			 "a core's L1",
			 r->sharing_cpus[0], r->sharing_cpus[1], r->sharing.d_bytes[0], r->sharing.d_bytes[r->sharing.n - 1]);
		return;
	}
	a->value = r->sharing.d_bytes[sp.index];
	a->confidence = sp.confidence;
}

/* The flush witness's answer from r->flush_curve: where the median reload time falls from the
 * memory miss to the L1 hit (at least a 2x contrast). */
static void line_flush_analyze(struct probe_line_result *r)
{
	struct probe_answer *a = &r->flush;
	a->method = "load a line, flush (clflush) the line D bytes further, time the reload of the first; the smallest D "
		    "at which the reload hits (median reload time on the fast plateau)";
	const struct probe_curve *c = &r->flush_curve;
	if (c->n == 0) {
		if (!a->reason[0])
			snprintf(a->reason, sizeof(a->reason), "not measured");
		return;
	}
	struct plateau_split sp;
	plateaus_split_falling(c->median_ns, c->n, 2.0, &sp);
	r->flush_ratio = sp.ratio;
	if (sp.index < 0) {
		snprintf(a->reason, sizeof(a->reason),
			 "no contrast (under 2x between D = %.0f and %.0f B): the flush did not evict the loaded line, or "
			 "every reload missed", c->x[0], c->x[c->n - 1]);
		return;
	}
	a->value = c->x[sp.index];
	a->confidence = sp.confidence;
}

static const char METHOD_TWO[] =
	"two witnesses agree: the coherence unit (two cores contending for counters D bytes apart) and the flush "
	"witness (the reload of a line after flushing the line D bytes away); prefetchers move neither";
static const char METHOD_FLUSH[] =
	"one witness: the flush witness (load a line, flush the line D bytes further, time the reload: it misses "
	"while D is inside the line); prefetchers cannot move it";
static const char METHOD_COHERENCE[] =
	"one witness: the coherence unit (two cores doing atomic increments of counters D bytes apart contend while "
	"D is inside the line); prefetchers cannot move it";

/* Appends to a reason (truncated at its size). */
static void reason_add(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void reason_add(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	if (len + 1 >= size)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

/* The answer from the witnesses: the prefetcher-proof ones (coherence, flush) decide; the stride
 * witness stands alone only when neither answered. Two that agree: their combined confidence; one:
 * its confidence x 0.85 and a reason naming the missing one; two that disagree: the one the
 * stride witness agrees with (else the more confident, the coherence unit on a tie), confidence
 * halved. A stride witness that
 * disagrees with the answer costs a little more (x 0.9 beside two witnesses, x 0.75 beside one). */
static void line_decide(struct probe_line_result *r)
{
	struct probe_answer *l = &r->line, *s = &r->stride, *c = &r->coherence, *f = &r->flush;
	double os = l->os_reported;
	int hc = isfinite(c->value), hf = isfinite(f->value);
	char *why = l->reason;
	size_t wsz = sizeof(l->reason);
	if (hc && hf && c->value == f->value) {
		*l = *c;
		l->reason[0] = 0;
		l->method = METHOD_TWO;
		l->confidence = 1 - (1 - c->confidence) * (1 - f->confidence);
		r->witnesses = 2;
	} else if (hc && hf) {
		/* the one the stride witness agrees with; else the more confident (a coherence curve
		 * whose plateau other load took away answers with confidence 0: t0260 in a loaded CI run) */
		int stride_f = isfinite(s->value) && s->value == f->value, stride_c = isfinite(s->value) && s->value == c->value;
		int pick_flush = stride_f || (!stride_c && f->confidence > c->confidence);
		*l = pick_flush ? *f : *c;
		l->reason[0] = 0;
		l->method = pick_flush ? METHOD_FLUSH : METHOD_COHERENCE;
		l->confidence *= 0.5;
		r->witnesses = 1;
		reason_add(why, wsz, "the witnesses disagree: the coherence unit is %.0f B, the flush witness %.0f B; taking the %s",
			   c->value, f->value,
			   pick_flush ? (stride_f ? "flush witness, which the stride witness agrees with" : "flush witness, the more confident")
				      : stride_c ? "coherence unit, which the stride witness agrees with" : "coherence unit");
	} else if (hc || hf) {
		const struct probe_answer *one = hc ? c : f, *other = hc ? f : c;
		*l = *one;
		l->reason[0] = 0;
		l->method = hc ? METHOD_COHERENCE : METHOD_FLUSH;
		l->confidence *= 0.85;
		r->witnesses = 1;
		reason_add(why, wsz, "rests on one witness, the %s (the %s: %.150s)", hc ? "coherence unit" : "flush witness",
			   hc ? "flush witness" : "coherence witness", other->reason);
	} else {
		*l = *s;
		l->reason[0] = 0;
		l->confidence *= 0.75;
		r->witnesses = 0;
		snprintf(why, wsz,
			 "stride witness only (coherence witness: %.100s; flush witness: %.100s); prefetchers can make it a "
			 "multiple of the line", c->reason, f->reason);
	}
	if (r->witnesses > 0 && isfinite(s->value) && s->value != l->value) {
		l->confidence *= r->witnesses == 2 ? 0.9 : 0.75;
		reason_add(why, wsz, "%sthe stride witness disagrees: it sees %.0f B (a spatial prefetcher brings in the "
			   "neighbouring lines with the first access)", why[0] ? "; " : "", s->value);
	}
	l->os_reported = os;
}

int probe_line_analyze(struct probe_env *env, struct probe_line_result *r)
{
	const struct probe_curve *c = &r->curve;
	double *y = probe_curve_monotone(c);
	if (!y)
		return -ENOMEM;
	struct step_answer a = steps_biggest_relative(y, c->n);
	const struct topo_cache *l1 = env->topo ? topo_data_cache(env->topo, 1) : NULL;
	r->stride = (struct probe_answer){
		.value = a.index >= 0 ? c->x[a.index] : NAN,
		.confidence = a.confidence,
		.method = "pairs of accesses D bytes apart at random places; biggest relative step of the monotone latency curve",
		.os_reported = NAN,
	};
	r->step_index = a.index;
	r->step_before_ns = a.index >= 0 ? y[a.index] : NAN;
	r->step_after_ns = a.index >= 0 ? y[a.index + 1] : NAN;
	line_coherence_analyze(r);
	line_flush_analyze(r);
	r->line.os_reported = l1 && l1->line_bytes ? l1->line_bytes : NAN;
	line_decide(r);
	env->line_bytes = r->line.value;
	env->line_witnesses = r->witnesses;
	env->line_note[0] = 0;
	if (r->witnesses < 2)
		snprintf(env->line_note, sizeof(env->line_note), "%s", r->line.reason);
	free(y);
	return 0;
}

/* The CPU for the second counter: another allowed CPU on another core when the topology says
 * which (SMT siblings share an L1 and would not contend), else any other allowed CPU; -1: none. */
static int line_partner_cpu(const struct probe_env *env)
{
	int core = -1, fallback = -1;
	const struct topo *t = env->topo;
	for (int i = 0; t && t->pu && i < t->npus_listed; i++)
		if (t->pu[i].os_index == env->cpu)
			core = t->pu[i].core;
	for (int k = 0; k < env->allowed.n; k++) {
		int cpu = env->allowed.cpu[k];
		if (cpu == env->cpu)
			continue;
		if (fallback < 0)
			fallback = cpu;
		for (int i = 0; core >= 0 && t && t->pu && i < t->npus_listed; i++)
			if (t->pu[i].os_index == cpu && t->pu[i].core != core)
				return cpu;
		if (core < 0)
			return cpu;
	}
	return fallback;
}

int probe_line_find(struct probe_env *env, probe_progress_fn *progress, struct probe_line_result *out,
		    struct as_error *err)
{
	probe_line_result_init(out);
	struct probe_opts o = probe_opts_of(env, progress, HUGE_NEVER);
	int rc = probe_line_run(&o, &out->curve, err);
	int partner = line_partner_cpu(env);
	if (rc == 0 && partner < 0)
		snprintf(out->coherence.reason, sizeof(out->coherence.reason),
			 "needs two CPUs, and this process may use only CPU %d", env->cpu);
	if (rc == 0 && partner >= 0 && !probe_opts_stopped(&o)) {
		struct as_error serr = { 0 };
		probe_opts_report(&o, "line", "coherence unit", 6, 8);
		out->sharing_cpus[0] = env->cpu;
		out->sharing_cpus[1] = partner;
		if (probe_sharing_run(env->cpu, partner, env->quick ? 5 : 9, 2000000, env->interrupted, &out->sharing,
				      &serr) != 0)
			snprintf(out->coherence.reason, sizeof(out->coherence.reason), "%.180s", serr.msg);
	}
	if (rc == 0 && !probe_opts_stopped(&o)) {
		struct as_error ferr = { 0 };
		double tsc = env->tsc_ghz > 0 ? env->tsc_ghz : timer_tsc_calibrate_ghz(20);
		probe_opts_report(&o, "line", "flush witness", 7, 8);
		if (probe_flush_run(env->quick ? 5 : 9, env->quick ? 256 : 512, tsc, env->seed, env->interrupted,
				    &out->flush_curve, &ferr) != 0)
			snprintf(out->flush.reason, sizeof(out->flush.reason), "%.180s", ferr.msg);
	}
	if (rc == 0 && (rc = probe_line_analyze(env, out)) != 0)
		as_error_set(err, rc, "probe line: out of memory");
	return rc;
}

int probe_line_need(struct probe_env *env, probe_progress_fn *progress, struct as_error *err)
{
	if (env->line_bytes > 0)
		return 0;
	struct probe_env quick = *env;
	quick.quick = 1;
	struct probe_line_result r;
	int rc = probe_line_find(&quick, progress, &r, err);
	probe_line_result_release(&r);
	if (rc == 0 && quick.line_bytes > 0) {
		env->line_bytes = quick.line_bytes;
		env->line_witnesses = quick.line_witnesses;
		snprintf(env->line_note, sizeof(env->line_note), "%s", quick.line_note);
		return 0;
	}
	env->line_bytes = 64;
	env->line_witnesses = 0;
	snprintf(env->line_note, sizeof(env->line_note), "no line size measured: 64 B assumed");
	return rc < 0 ? rc : 1;
}
