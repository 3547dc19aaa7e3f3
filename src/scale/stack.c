/* The speedup-stack arithmetic (paper eq. 2-5) on tier-0 accounts: each thread's time alive is
 * base (useful), spinning, yielding (per primitive), scheduling or join; the CPU slots no live
 * thread used are the imbalance. See stack.h and docs/archscope-stack.md. */
#include "scale/stack.h"

#include <errno.h>
#include <math.h>
#include <string.h>

const char *const scale_comp_names[COMP_COUNT] = {
	"base", "positive_interference", "spinning", "yielding", "imbalance", "scheduling", "work_inflation",
};

const char *const scale_part_names[PART_COUNT] = {
	"mutex", "rwlock", "cond", "barrier", "semaphore", "sleep", "futex", "sched_yield", "pthread_spin",
	"user_spin", "blocked_other",
};

/* The part of each yielding primitive (spinning ones are PART_PTHREAD_SPIN, join is imbalance). */
static const int prim_part[PRIM_COUNT] = {
	[PRIM_MUTEX] = PART_MUTEX, [PRIM_RWLOCK] = PART_RWLOCK, [PRIM_COND] = PART_COND,
	[PRIM_BARRIER] = PART_BARRIER, [PRIM_SEM] = PART_SEM, [PRIM_SLEEP] = PART_SLEEP,
	[PRIM_FUTEX] = PART_FUTEX, [PRIM_YIELD] = PART_YIELD, [PRIM_PTHREAD_SPIN] = PART_PTHREAD_SPIN,
	[PRIM_JOIN] = -1,
};

static double pos(double x)
{
	return x > 0 ? x : 0;
}

int scale_stack_build(const struct scale_thread *th, size_t n, int threads, double span_s, double t1_s,
		      struct scale_stack *out)
{
	memset(out, 0, sizeof(*out));
	if (threads < 1 || !(span_s > 0))
		return -EINVAL;
	out->threads = threads;
	out->span_s = span_s;
	out->scaled = 1;
	double base = 0, part[PART_COUNT] = { 0 }, sched = 0;
	for (size_t i = 0; i < n; i++) {
		const struct scale_thread *t = &th[i];
		double alive = pos(t->end_s - t->start_s);
		if (alive <= 0)
			continue;
		double waits = 0, blocked = 0; /* all wrapped waits; those that leave the CPU */
		for (int p = 0; p < PRIM_COUNT; p++) {
			double w = pos(t->wait_s[p]);
			waits += w;
			if (p == PRIM_JOIN)
				out->join_s += w;
			else
				part[prim_part[p]] += w;
			if (p != PRIM_PTHREAD_SPIN)
				blocked += w;
		}
		if (waits > alive) { /* clock granularity: never more than the thread lived */
			waits = alive;
			blocked = fmin(blocked, alive);
		}
		/* Off the CPU and not runnable, outside every wrapper: blocked on something no
		 * wrapper sees. */
		double off = pos(alive - t->run_s - t->runq_s);
		double other = pos(off - blocked);
		/* Run-queue time inside wrapped waits is part of those waits, not scheduling. A blocking
		 * wait is off the CPU, then runnable from its wake-up until it runs: what the blocking
		 * waits last beyond the thread's off-CPU time is their wake-up run-queue wait (under
		 * load, every wake-up queues; a share in proportion to time missed most of it). The
		 * rest of the run-queue time falls in spin waits and in the work in proportion to
		 * their time (checked against each spin wait timed with the thread's CPU clock). */
		double runq = pos(t->runq_s);
		double rq_blocked = fmin(pos(blocked - off), runq);
		double oncpu = alive - blocked, spin_wait = waits - blocked;
		double rq = oncpu > 0 ? (runq - rq_blocked) * pos(1 - spin_wait / oncpu) : 0;
		double rest = pos(alive - waits - other - rq);
		double spin = fmin(pos(t->spin_s), rest);
		part[PART_OTHER] += other;
		part[PART_USER_SPIN] += spin;
		sched += rq;
		base += rest - spin;
	}
	double cap = threads * span_s;
	if (base > cap)
		base = cap;
	double over = sched;
	for (int k = 0; k < PART_COUNT; k++)
		over += part[k];
	double imbalance = cap - base - over;
	if (imbalance < 0) {
		/* More threads wanted a CPU than there are slots: scale the waits to fit. */
		out->scaled = over > 0 ? (cap - base) / over : 1;
		for (int k = 0; k < PART_COUNT; k++)
			part[k] *= out->scaled;
		sched *= out->scaled;
		imbalance = 0;
	}
	for (int k = 0; k < PART_COUNT; k++)
		out->part[k] = part[k] / span_s;
	out->comp[COMP_SPINNING] = out->part[PART_PTHREAD_SPIN] + out->part[PART_USER_SPIN];
	for (int k = 0; k < PART_COUNT; k++)
		if (k != PART_PTHREAD_SPIN && k != PART_USER_SPIN)
			out->comp[COMP_YIELDING] += out->part[k];
	out->comp[COMP_SCHEDULING] = sched / span_s;
	out->comp[COMP_IMBALANCE] = imbalance / span_s;
	out->estimated = base / span_s;
	out->comp[COMP_POSITIVE] = 0; /* needs counters (tier 2) */
	if (t1_s > 0) {
		out->actual = t1_s / span_s;
		out->comp[COMP_BASE] = out->actual;
		out->comp[COMP_INFLATION] = out->estimated - out->actual;
	} else {
		out->actual = NAN;
		out->comp[COMP_BASE] = out->estimated;
	}
	return 0;
}

const char *scale_stack_class(double speedup, int threads)
{
	if (!(speedup == speedup))
		return "unknown";
	if (speedup >= 10.0 / 16.0 * threads)
		return "good";
	if (speedup < 5.0 / 16.0 * threads)
		return "poor";
	return "moderate";
}

const char *scale_stack_dominant(const double comp[COMP_COUNT], int threads)
{
	if (comp[COMP_BASE] >= 0.9 * threads)
		return "none";
	int best = -1;
	for (int k = 0; k < COMP_COUNT; k++) {
		if (k == COMP_BASE || k == COMP_POSITIVE)
			continue;
		if (best < 0 || comp[k] > comp[best])
			best = k;
	}
	return best >= 0 && comp[best] > 0 ? scale_comp_names[best] : "none";
}
