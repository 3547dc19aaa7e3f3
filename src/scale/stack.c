/* The speedup-stack arithmetic (paper eq. 2-5) on tier-0 accounts: each thread's time alive is
 * base (useful), spinning, yielding (per primitive), scheduling or join; the CPU slots no live
 * thread used are the imbalance. See stack.h and docs/archscope-stack.md. */
#include "scale/stack.h"

#include <errno.h>
#include <math.h>
#include <string.h>

SCALE_NAMES_DEFINE(SCALE_COMPS, COMP_COUNT, scale_comp_names);
SCALE_NAMES_DEFINE(SCALE_PARTS, PART_COUNT, scale_part_names);
SCALE_NAMES_DEFINE(SCALE_OTHERS, OTHER_COUNT, scale_other_names);
static const char *const prim_names[PRIM_COUNT] = { SCALE_PRIMS(SCALE_X_NAME) };

int scale_part_is_spin(int part)
{
	return part == PART_PTHREAD_SPIN || part == PART_USER_SPIN || part == PART_MPI || part == PART_BARRIER_SPIN ||
	       part == PART_TASKWAIT_SPIN || part == PART_LOCK_SPIN || part == PART_YIELD_SPIN;
}

/* The yielding part of each blocking primitive (the others are handled one by one below). */
static const int prim_part[PRIM_COUNT] = {
	[PRIM_MUTEX] = PART_MUTEX, [PRIM_RWLOCK] = PART_RWLOCK, [PRIM_COND] = PART_COND,
	[PRIM_BARRIER] = PART_BARRIER, [PRIM_SEM] = PART_SEM, [PRIM_SLEEP] = PART_SLEEP,
	[PRIM_FUTEX] = PART_FUTEX, [PRIM_YIELD] = PART_YIELD, [PRIM_PTHREAD_SPIN] = PART_PTHREAD_SPIN,
	[PRIM_JOIN] = -1, [PRIM_OMP_BARRIER] = PART_BARRIER, [PRIM_OMP_TASKWAIT] = PART_TASKWAIT,
	[PRIM_OMP_LOCK] = PART_MUTEX, [PRIM_OMP_IDLE] = -1, [PRIM_MPI] = PART_MPI, [PRIM_CHILD] = -1,
	[PRIM_POLL] = -1, [PRIM_MPI_INIT] = -1,
};

/* The OpenMP waits: the primitive, the part of its spin phase, the part of the rest (asleep). */
static const int omp[3][3] = { { PRIM_OMP_BARRIER, PART_BARRIER_SPIN, PART_BARRIER },
			       { PRIM_OMP_TASKWAIT, PART_TASKWAIT_SPIN, PART_TASKWAIT },
			       { PRIM_OMP_LOCK, PART_LOCK_SPIN, PART_MUTEX } };

int scale_prim_in_part(int prim, int part)
{
	if (prim == PRIM_COUNT) /* spinning found by sampling */
		return part == PART_USER_SPIN;
	if (prim < 0 || prim > PRIM_COUNT || part < 0)
		return 0;
	if (prim_part[prim] == part || (prim == PRIM_YIELD && part == PART_YIELD_SPIN))
		return 1;
	for (int k = 0; k < 3; k++)
		if (omp[k][0] == prim && omp[k][1] == part)
			return 1;
	return 0;
}

int scale_prim_waits_for_others(int prim)
{
	return prim >= 0 && prim < PRIM_COUNT && prim_part[prim] < 0; /* join, child, poll, idle, MPI_Init */
}

static double pos(double x)
{
	return x > 0 ? x : 0;
}

/* One thread's time split into the parts, scheduling, the waits for other tasks and base
 * (thread-seconds, summing to its time alive). */
struct account {
	double part[PART_COUNT], sched, other[OTHER_COUNT], base;
	double part_rq[PART_COUNT]; /* the wake-up queueing inside each blocking part */
	double yield, yield_spin;   /* time in sched_yield; of it, on the CPU throughout */
};

/* The part of a thread's sched_yield time w_yield spent on the CPU: what its time off the CPU
 * (off) and in the run queue (runq) cannot cover once its other blocking waits (other_blocked)
 * have taken theirs. A yield that gives its CPU away leaves the thread runnable (run queue) until
 * it is picked again; one that returns at once, with no other thread to run there, leaves it on
 * the CPU: polled in a loop (OpenBLAS's workers waiting for work), that is spinning. */
static double yield_on_cpu(double w_yield, double other_blocked, double off, double runq)
{
	return w_yield - fmin(w_yield, pos(off + runq - other_blocked));
}

static void thread_account(const struct scale_thread *t, struct account *a)
{
	double alive = pos(t->end_s - t->start_s);
	double w[PRIM_COUNT], wsum = 0;
	for (int p = 0; p < PRIM_COUNT; p++)
		wsum += w[p] = pos(t->wait_s[p]);
	if (wsum > alive) /* clock granularity: never more than the thread lived */
		for (int p = 0; p < PRIM_COUNT; p++)
			w[p] *= alive / wsum;
	wsum = fmin(wsum, alive);
	/* waits on the CPU throughout (pthread spin locks, MPI's polling); the OpenMP waits, which
	 * spin, then sleep: their spin phase is the runtime's share of the thread's CPU time */
	double wspin = w[PRIM_PTHREAD_SPIN] + w[PRIM_MPI];
	double womp = w[PRIM_OMP_BARRIER] + w[PRIM_OMP_TASKWAIT] + w[PRIM_OMP_LOCK];
	double widle = w[PRIM_OMP_IDLE];
	double rt = fmin(pos(t->rt_spin_s), womp + widle);
	double rt_omp = womp + widle > 0 ? rt * womp / (womp + widle) : 0, rt_idle = rt - rt_omp;
	double off = pos(alive - t->run_s - t->runq_s);
	double runq = pos(t->runq_s);
	/* sched_yield that kept the CPU spins, as the waits above */
	double yspin = yield_on_cpu(w[PRIM_YIELD], pos(wsum - wspin - rt - w[PRIM_YIELD]), off, runq);
	wspin += yspin;
	/* the waits off the CPU (asleep, then runnable once woken) */
	double blocked = pos(wsum - wspin - rt);
	/* Off the CPU and not runnable, outside every wrapper: blocked on something no wrapper
	 * sees. */
	double other = pos(off - blocked);
	/* Run-queue time inside the blocking waits is part of those waits, not scheduling: what they
	 * last beyond the thread's off-CPU time is their wake-up queueing (under load, every wake-up
	 * queues). The rest of the run-queue time falls in spin waits and in the work in proportion
	 * to their time (checked against each spin wait timed with the thread's CPU clock). */
	double rq_blocked = fmin(pos(blocked - off), runq);
	/* outside the blocking waits and the OpenMP waits' spin phase (CPU time, no queueing: the
	 * rest of those waits, woken and queueing included, counts as blocking above), the thread
	 * was on the CPU or runnable: the spin waits' share of it holds their queueing */
	double oncpu = alive - blocked - rt;
	double rq = oncpu > 0 ? (runq - rq_blocked) * pos(1 - wspin / oncpu) : 0;
	double rest = pos(alive - wsum - other - rq);
	double spin = fmin(pos(t->spin_s), rest);
	memset(a, 0, sizeof(*a));
	for (int p = 0; p < PRIM_COUNT; p++)
		if (p <= PRIM_YIELD || p == PRIM_PTHREAD_SPIN || p == PRIM_MPI)
			a->part[prim_part[p]] += w[p];
	/* the OpenMP waits: spin phase in spinning, the rest (asleep) in yielding, by construct */
	for (int k = 0; k < 3; k++) {
		double x = womp > 0 ? rt_omp * w[omp[k][0]] / womp : 0;
		a->part[omp[k][1]] += x;
		a->part[omp[k][2]] += w[omp[k][0]] - x;
	}
	a->part[PART_YIELD] -= yspin;
	a->part[PART_YIELD_SPIN] = yspin;
	a->yield = w[PRIM_YIELD];
	a->yield_spin = yspin;
	a->part[PART_OTHER] = other;
	a->part[PART_USER_SPIN] = spin;
	a->other[OTHER_JOIN] = w[PRIM_JOIN];
	a->other[OTHER_CHILD] = w[PRIM_CHILD];
	a->other[OTHER_POLL] = w[PRIM_POLL];
	a->other[OTHER_IDLE] = widle;
	a->other[OTHER_MPI_INIT] = w[PRIM_MPI_INIT];
	(void)rt_idle;
	/* the wake-up queueing, spread over all the waits off the CPU by their time (those for
	 * other tasks among them), kept for the blocking waits of the pthread primitives (for
	 * foreign_load): asleep, then woken, their queueing is the wait's end delayed. An OpenMP
	 * wait's run-queue time is mostly its spinning thread preempted while it still waits, which
	 * other processes do not lengthen: it stays the construct's. */
	if (blocked > 0)
		for (int p = 0; p <= PRIM_YIELD; p++) {
			int k = prim_part[p];
			double wp = p == PRIM_YIELD ? w[p] - yspin : w[p];
			a->part_rq[k] += fmin(rq_blocked * wp / blocked, wp);
		}
	a->sched = rq;
	a->base = rest - spin;
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
	struct account sum = { 0 };
	for (size_t i = 0; i < n; i++) {
		if (!(th[i].end_s > th[i].start_s))
			continue;
		struct account a;
		thread_account(&th[i], &a);
		for (int k = 0; k < PART_COUNT; k++) {
			sum.part[k] += a.part[k];
			sum.part_rq[k] += a.part_rq[k];
		}
		for (int k = 0; k < OTHER_COUNT; k++)
			sum.other[k] += a.other[k];
		sum.sched += a.sched;
		sum.base += a.base;
		out->yield_s += a.yield;
		out->yield_spin_s += a.yield_spin;
	}
	double cap = threads * span_s;
	double base = fmin(sum.base, cap);
	/* The slots base leaves, in order: spinning and scheduling (threads that wanted a CPU), the
	 * blocking waits, then blocked_other and the waits for other tasks share the rest. Where
	 * one level does not fit, it is scaled to what is left and the later ones get nothing. */
	double left = cap - base, spin = sum.sched, block = 0;
	for (int k = 0; k < PART_COUNT; k++)
		if (scale_part_is_spin(k))
			spin += sum.part[k];
		else if (k != PART_OTHER)
			block += sum.part[k];
	double f1 = spin > left ? (spin > 0 ? left / spin : 1) : 1;
	left = pos(left - spin * f1);
	double f2 = block > left ? (block > 0 ? left / block : 1) : 1;
	if (f1 < 1)
		f2 = 0;
	left = pos(left - block * f2);
	double others = 0;
	for (int k = 0; k < OTHER_COUNT; k++)
		others += sum.other[k];
	double other = sum.part[PART_OTHER];
	double f3 = f2 < 1 ? 0 : other + others > left && other > 0 ? left / (other + others) : 1;
	for (int k = 0; k < PART_COUNT; k++) {
		out->part[k] = sum.part[k] * (k == PART_OTHER ? f3 : scale_part_is_spin(k) ? f1 : f2) / span_s;
		out->part_rq[k] = sum.part_rq[k] * f2 / span_s;
	}
	double sched = sum.sched * f1;
	double imbalance = pos(left - other * f3);
	out->scaled = fmin(f1, f2); /* blocked_other sharing with the waits for others is by design */
	for (int k = 0; k < PART_COUNT; k++)
		out->comp[scale_part_is_spin(k) ? COMP_SPINNING : COMP_YIELDING] += out->part[k];
	out->comp[COMP_SCHEDULING] = sched / span_s;
	out->comp[COMP_IMBALANCE] = imbalance / span_s;
	for (int k = 0; k < OTHER_COUNT; k++)
		out->other_s[k] = sum.other[k];
	out->join_s = sum.other[OTHER_JOIN];
	out->base_s = base;
	out->base_raw_s = sum.base;
	out->estimated = base / span_s;
	out->comp[COMP_POSITIVE] = 0; /* needs counters (tier 2) */
	scale_stack_set_actual(out, t1_s > 0 ? t1_s / span_s : NAN);
	return 0;
}

void scale_stack_set_actual(struct scale_stack *s, double actual)
{
	s->actual = actual;
	if (actual == actual) {
		s->comp[COMP_BASE] = actual;
		s->comp[COMP_INFLATION] = s->estimated - actual;
	} else {
		s->comp[COMP_BASE] = s->estimated;
		s->comp[COMP_INFLATION] = 0;
	}
}

void scale_stack_foreign(struct scale_stack *s, double foreign_cpu_s)
{
	if (!(foreign_cpu_s > 0) || !(s->span_s > 0))
		return;
	/* first the run-queue wait outside the waits, then the wake-up queueing inside the blocking
	 * waits (a woken thread that other processes keep off the CPU waits longer at its barrier:
	 * that longer is theirs, not the barrier's) */
	double left = foreign_cpu_s / s->span_s;
	double f = fmin(s->comp[COMP_SCHEDULING], left);
	s->comp[COMP_SCHEDULING] -= f;
	s->comp[COMP_FOREIGN] += f;
	left -= f;
	double rq = 0;
	for (int k = 0; k < PART_COUNT; k++)
		rq += s->part_rq[k];
	double g = fmin(rq, left);
	for (int k = 0; k < PART_COUNT && g > 0; k++) {
		double x = g * s->part_rq[k] / rq;
		s->part[k] -= x;
		s->part_rq[k] -= x;
		s->comp[COMP_YIELDING] -= x;
		s->comp[COMP_FOREIGN] += x;
	}
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

const char *scale_comp_name(int comp)
{
	return comp >= 0 && comp < COMP_COUNT ? scale_comp_names[comp] : "none";
}

const char *scale_prim_name(int prim)
{
	if (prim == PRIM_COUNT)
		return "user_spin";
	return prim >= 0 && prim < PRIM_COUNT ? prim_names[prim] : "?";
}

int scale_site_shown(int prim, int comp, int part)
{
	if (comp == COMP_SPINNING || comp == COMP_YIELDING)
		return scale_prim_in_part(prim, part);
	if (comp == COMP_IMBALANCE)
		return scale_prim_waits_for_others(prim);
	return !scale_prim_waits_for_others(prim);
}

int scale_stack_dominant_part(const struct scale_stack *s, int comp)
{
	int part = SCALE_NONE;
	if (comp == COMP_SPINNING || comp == COMP_YIELDING)
		for (int q = 0; q < PART_COUNT; q++)
			if (scale_part_is_spin(q) == (comp == COMP_SPINNING) && (part < 0 || s->part[q] > s->part[part]))
				part = q;
	return part;
}

int scale_stack_dominant(const double comp[COMP_COUNT], int threads)
{
	if (comp[COMP_BASE] + comp[COMP_FOREIGN] >= 0.9 * threads)
		return SCALE_NONE;
	int best = -1;
	for (int k = 0; k < COMP_COUNT; k++) {
		if (k == COMP_BASE || k == COMP_POSITIVE || k == COMP_FOREIGN)
			continue;
		if (best < 0 || comp[k] > comp[best])
			best = k;
	}
	return best >= 0 && comp[best] > 0 ? best : SCALE_NONE;
}
