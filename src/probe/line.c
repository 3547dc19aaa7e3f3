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
#include "probe/env.h"

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

void probe_line_work_init(struct probe_line_work *w)
{
	*w = (struct probe_line_work){ .sharing_cpus = { -1, -1 } }; /* zeroed curves are empty (memory.h) */
}

void probe_line_work_release(struct probe_line_work *w)
{
	probe_curve_release(&w->curve);
	probe_curve_release(&w->flush_curve);
}

/* The coherence witness's answer from w->sharing into rec: where the median time per increment
 * falls to the uncontended level (at least a 2x contrast). */
static void line_coherence_analyze(const struct probe_line_work *w, struct machine_probes *rec)
{
	const struct sharing_curve *sh = &w->sharing;
	struct machine_answer *a = &rec->line_coherence;
	probe_answer_clear(a);
	probe_answer_set(a, NAN, 0, "two threads on different cores do atomic increments of counters D bytes apart; the "
				    "smallest D at which they stop contending (median time per increment on the "
				    "uncontended plateau)");
	machine_probes_text(a->reason, sizeof(a->reason), w->coherence_why);
	if (sh->n == 0) {
		if (!a->reason[0])
			snprintf(a->reason, sizeof(a->reason), "not measured");
		return;
	}
	struct plateau_split sp;
	plateaus_split_falling(sh->median_ns, (size_t)sh->n, 2.0, &sp);
	rec->line_ev.coherence_contrast = sp.ratio;
	if (sp.index < 0) {
		snprintf(a->reason, sizeof(a->reason),
			 "no contention seen between CPUs %d and %d (under 2x between D = %.0f and %.0f B): they may share "
			 "a core's L1",
			 w->sharing_cpus[0], w->sharing_cpus[1], sh->d_bytes[0], sh->d_bytes[sh->n - 1]);
		return;
	}
	a->value = sh->d_bytes[sp.index];
	a->confidence = sp.confidence;
}

/* The flush witness's answer from w->flush_curve into rec: where the median reload time falls
 * from the memory miss to the L1 hit (at least a 2x contrast). */
static void line_flush_analyze(const struct probe_line_work *w, struct machine_probes *rec)
{
	struct machine_answer *a = &rec->line_flush;
	probe_answer_clear(a);
	probe_answer_set(a, NAN, 0, "load a line, flush (clflush) the line D bytes further, time the reload of the first; "
				    "the smallest D at which the reload hits (median reload time on the fast plateau)");
	machine_probes_text(a->reason, sizeof(a->reason), w->flush_why);
	const struct probe_curve *c = &w->flush_curve;
	if (c->n == 0) {
		if (!a->reason[0])
			snprintf(a->reason, sizeof(a->reason), "not measured");
		return;
	}
	struct plateau_split sp;
	plateaus_split_falling(c->median_ns, c->n, 2.0, &sp);
	rec->line_ev.flush_contrast = sp.ratio;
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
static void line_decide(struct machine_probes *rec)
{
	struct machine_answer *l = &rec->line, *s = &rec->line_stride, *c = &rec->line_coherence, *f = &rec->line_flush;
	int *witnesses = &rec->line_witnesses_used;
	double os = l->os_reported;
	int hc = isfinite(c->value), hf = isfinite(f->value);
	char *why = l->reason;
	size_t wsz = sizeof(l->reason);
	if (hc && hf && c->value == f->value) {
		*l = *c;
		l->reason[0] = 0;
		machine_probes_text(l->method, sizeof(l->method), METHOD_TWO);
		l->confidence = 1 - (1 - c->confidence) * (1 - f->confidence);
		*witnesses = 2;
	} else if (hc && hf) {
		/* the one the stride witness agrees with; else the more confident (a coherence curve
		 * whose plateau other load took away answers with confidence 0: t0260 in a loaded CI run) */
		int stride_f = isfinite(s->value) && s->value == f->value, stride_c = isfinite(s->value) && s->value == c->value;
		int pick_flush = stride_f || (!stride_c && f->confidence > c->confidence);
		*l = pick_flush ? *f : *c;
		l->reason[0] = 0;
		machine_probes_text(l->method, sizeof(l->method), pick_flush ? METHOD_FLUSH : METHOD_COHERENCE);
		l->confidence *= 0.5;
		*witnesses = 1;
		reason_add(why, wsz, "the witnesses disagree: the coherence unit is %.0f B, the flush witness %.0f B; taking the %s",
			   c->value, f->value,
			   pick_flush ? (stride_f ? "flush witness, which the stride witness agrees with" : "flush witness, the more confident")
				      : stride_c ? "coherence unit, which the stride witness agrees with" : "coherence unit");
	} else if (hc || hf) {
		const struct machine_answer *one = hc ? c : f, *other = hc ? f : c;
		*l = *one;
		l->reason[0] = 0;
		machine_probes_text(l->method, sizeof(l->method), hc ? METHOD_COHERENCE : METHOD_FLUSH);
		l->confidence *= 0.85;
		*witnesses = 1;
		reason_add(why, wsz, "rests on one witness, the %s (the %s: %.150s)", hc ? "coherence unit" : "flush witness",
			   hc ? "flush witness" : "coherence witness", other->reason);
	} else {
		*l = *s;
		l->reason[0] = 0;
		l->confidence *= 0.75;
		*witnesses = 0;
		snprintf(why, wsz,
			 "stride witness only (coherence witness: %.100s; flush witness: %.100s); prefetchers can make it a "
			 "multiple of the line", c->reason, f->reason);
	}
	if (*witnesses > 0 && isfinite(s->value) && s->value != l->value) {
		l->confidence *= *witnesses == 2 ? 0.9 : 0.75;
		reason_add(why, wsz, "%sthe stride witness disagrees: it sees %.0f B (a spatial prefetcher brings in the "
			   "neighbouring lines with the first access)", why[0] ? "; " : "", s->value);
	}
	l->os_reported = os;
}

/* The line group's evidence: the curves of w and what the witnesses' answers left in rec. 0 or
 * -ENOMEM. */
static int line_evidence(const struct probe_line_work *w, struct machine_probes *rec)
{
	if (!(rec->line_ev.cpus = malloc(2 * sizeof(int))))
		return -ENOMEM;
	rec->line_ev.cpus[0] = w->sharing_cpus[0];
	rec->line_ev.cpus[1] = w->sharing_cpus[1];
	rec->line_ev.ncpus = 2;
	const struct sharing_curve *sh = &w->sharing;
	if (probe_points_of(&rec->line_ev.curve, &w->curve) ||
	    probe_points_copy(&rec->line_ev.coherence_curve, sh->d_bytes, sh->min_ns, sh->median_ns,
			      (size_t)(sh->n > 0 ? sh->n : 0)) ||
	    probe_points_of(&rec->line_ev.flush_curve, &w->flush_curve))
		return -ENOMEM;
	return 0;
}

int probe_line_analyze(struct probe_env *env, const struct probe_line_work *w, struct machine_probes *rec)
{
	const struct probe_curve *c = &w->curve;
	double *y = probe_curve_monotone(c);
	if (!y)
		return -ENOMEM;
	machine_probes_group_release(rec, MP_G_LINE); /* a re-measurement */
	rec->line_ev.coherence_contrast = rec->line_ev.flush_contrast = NAN;
	struct step_answer a = steps_biggest_relative(y, c->n);
	free(y);
	const struct topo_cache *l1 = env->topo ? topo_data_cache(env->topo, 1) : NULL;
	probe_answer_clear(&rec->line_stride);
	probe_answer_set(&rec->line_stride, a.index >= 0 ? c->x[a.index] : NAN, a.confidence,
			 "pairs of accesses D bytes apart at random places; biggest relative step of the monotone latency curve");
	line_coherence_analyze(w, rec);
	line_flush_analyze(w, rec);
	probe_answer_clear(&rec->line);
	rec->line.os_reported = l1 && l1->line_bytes ? l1->line_bytes : NAN;
	line_decide(rec);
	env->line_bytes = rec->line.value;
	env->line_witnesses = rec->line_witnesses_used;
	env->line_note[0] = 0;
	if (rec->line_witnesses_used < 2)
		snprintf(env->line_note, sizeof(env->line_note), "%s", rec->line.reason);
	rec->have[MP_LINE] = MP_HAVE_YES;
	return line_evidence(w, rec);
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

int probe_line_find(struct probe_env *env, probe_progress_fn *progress, struct machine_probes *rec,
		    struct as_error *err)
{
	struct probe_line_work w;
	probe_line_work_init(&w);
	struct probe_opts o = probe_opts_of(env, progress, HUGE_NEVER);
	int rc = probe_line_run(&o, &w.curve, err);
	int partner = line_partner_cpu(env);
	if (rc == 0 && partner < 0)
		snprintf(w.coherence_why, sizeof(w.coherence_why), "needs two CPUs, and this process may use only CPU %d",
			 env->cpu);
	if (rc == 0 && partner >= 0 && !probe_opts_stopped(&o)) {
		struct as_error serr = { 0 };
		probe_opts_report(&o, "line", "coherence unit", 6, 8);
		w.sharing_cpus[0] = env->cpu;
		w.sharing_cpus[1] = partner;
		if (probe_sharing_run(env->cpu, partner, env->quick ? 5 : 9, 2000000, env->interrupted, &w.sharing,
				      &serr) != 0)
			snprintf(w.coherence_why, sizeof(w.coherence_why), "%.180s", serr.msg);
	}
	if (rc == 0 && !probe_opts_stopped(&o)) {
		struct as_error ferr = { 0 };
		double tsc = env->tsc_ghz > 0 ? env->tsc_ghz : timer_tsc_calibrate_ghz(20);
		probe_opts_report(&o, "line", "flush witness", 7, 8);
		if (probe_flush_run(env->quick ? 5 : 9, env->quick ? 256 : 512, tsc, env->seed, env->interrupted,
				    &w.flush_curve, &ferr) != 0)
			snprintf(w.flush_why, sizeof(w.flush_why), "%.180s", ferr.msg);
	}
	if (rc == 0 && (rc = probe_line_analyze(env, &w, rec)) != 0)
		as_error_set(err, rc, "probe line: out of memory");
	probe_line_work_release(&w);
	return rc;
}

int probe_line_need(struct probe_env *env, probe_progress_fn *progress, struct as_error *err)
{
	if (env->line_bytes > 0)
		return 0;
	struct probe_env quick = *env;
	quick.quick = 1;
	struct machine_probes *scratch = probe_scratch_new(); /* the evidence is dropped */
	int rc = scratch ? probe_line_find(&quick, progress, scratch, err)
			 : as_error_set(err, -ENOMEM, "probe line: out of memory");
	probe_scratch_free(scratch);
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
