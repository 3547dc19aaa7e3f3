/* Per-region speedup stacks from the marker library's per-region time accounts (scale/regions.h):
 * the split of a region's thread time follows stack's rules for a whole thread (stack.c),
 * applied to the time between the region's starts and stops. */
#include "scale/regions.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SCALE_RP_NAME(id, name) name,
const char *const scale_region_part_name[SRP_COUNT] = { SCALE_REGION_PARTS(SCALE_RP_NAME) };

/* The part a wait primitive's time goes to (record.h's names): spin waits keep the CPU, the
 * waits for other tasks are imbalance, every other wait blocks. */
static int part_of(const char *prim)
{
	static const char *const spin[] = { "pthread_spin", "mpi" };
	static const char *const others[] = { "join", "wait_child", "poll", "omp_idle", "mpi_init" };
	for (size_t i = 0; i < sizeof(spin) / sizeof(spin[0]); i++)
		if (strcmp(prim, spin[i]) == 0)
			return SRP_SPINNING;
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		if (strcmp(prim, others[i]) == 0)
			return SRP_IMBALANCE;
	return SRP_YIELDING;
}

/* The shares of one region's summed time: A wall, R CPU, Q run queue, W per part (spin, block,
 * others), as stack.c splits a thread's time (its scheduling and blocked_other rules). */
static void split(struct scale_region_stack *s, double A, double R, double Q, const double *W)
{
	double S = W[SRP_SPINNING], Boff = W[SRP_YIELDING] + W[SRP_IMBALANCE];
	double O = fmax(0, A - R - Q);
	double part[SRP_COUNT] = { 0 };
	part[SRP_SPINNING] = S;
	part[SRP_YIELDING] = W[SRP_YIELDING];
	part[SRP_IMBALANCE] = W[SRP_IMBALANCE];
	part[SRP_BLOCKED_OTHER] = fmax(0, O - Boff);
	double Qb = fmin(Q, fmax(0, Boff - O)); /* the blocking waits' wake-up queueing */
	double busy = A - Boff;
	part[SRP_SCHEDULING] = (Q - Qb) * (busy > 0 ? fmax(0, 1 - S / busy) : 0);
	double rest = 0;
	for (int k = 1; k < SRP_COUNT; k++)
		rest += part[k];
	if (rest > A && rest > 0) /* waits read beyond the region's time (clock skew): scaled to fit */
		for (int k = 1; k < SRP_COUNT; k++)
			part[k] *= A / rest;
	part[SRP_BASE] = fmax(0, A - fmin(rest, A));
	s->dominant = -1;
	for (int k = 0; k < SRP_COUNT; k++) {
		s->share[k] = A > 0 ? part[k] / A : 0;
		if (k > 0 && s->share[k] >= 0.05 && (s->dominant < 0 || s->share[k] > s->share[s->dominant]))
			s->dominant = k;
	}
}

/* One region at one thread count: its samples summed per run, then the mean over the runs. */
static void region_at(const struct measure_regions *r, const int *run_threads, int nrun, struct scale_region_stack *s)
{
	double A = 0, sum[MARKER_STACK_MAX] = { 0 };
	int *threads_in = calloc((size_t)nrun, sizeof(int));
	for (int i = 0; i < r->nsample; i++) {
		const struct region_sample *x = &r->s[i];
		if (x->run < 0 || x->run >= nrun || run_threads[x->run] != s->threads || strcmp(x->name, s->name) != 0 ||
		    x->nst != r->nstack || r->nstack < 2)
			continue;
		A += x->time_s;
		for (int k = 0; k < x->nst; k++)
			sum[k] += x->st[k] / 1e9;
		if (threads_in && threads_in[x->run]++ == 0)
			s->runs++;
	}
	for (int run = 0; threads_in && run < nrun; run++)
		s->region_threads = threads_in[run] > s->region_threads ? threads_in[run] : s->region_threads;
	free(threads_in);
	int runs = s->runs > 0 ? s->runs : 1;
	double W[SRP_COUNT] = { 0 };
	for (int k = 0; k < r->nstack; k++) {
		s->wait_s[k] = sum[k] / runs;
		if (k >= 2)
			W[part_of(r->stack_name[k])] += s->wait_s[k];
	}
	s->thread_s = A / runs;
	split(s, s->thread_s, s->wait_s[0], s->wait_s[1], W);
}

static int seen(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

int scale_region_stacks_compute(const struct measure_regions *r, const int *run_threads, int nrun,
				struct scale_region_stacks *out)
{
	memset(out, 0, sizeof(*out));
	int *ns = calloc((size_t)nrun + 1, sizeof(int)), nn = 0;
	const char **names = calloc((size_t)r->nsample + 1, sizeof(char *));
	int nnames = 0;
	if (!ns || !names) {
		free(ns);
		free(names);
		return -ENOMEM;
	}
	for (int run = 0; run < nrun; run++)
		if (!seen(ns, nn, run_threads[run]))
			ns[nn++] = run_threads[run];
	for (int i = 0; i < r->nsample; i++) {
		int dup = 0;
		for (int k = 0; k < nnames && !dup; k++)
			dup = strcmp(names[k], r->s[i].name) == 0;
		if (!dup)
			names[nnames++] = r->s[i].name;
		out->without += r->s[i].nst == 0;
	}
	/* one row per thread count and region name at most */
	out->rs = calloc((size_t)nn * (size_t)nnames + 1, sizeof(*out->rs));
	if (!out->rs) {
		free(ns);
		free(names);
		scale_region_stacks_release(out);
		return -ENOMEM;
	}
	for (int t = 0; t < nn; t++)
		for (int k = 0; k < nnames; k++) {
			struct scale_region_stack *s = &out->rs[out->n];
			s->name = names[k];
			s->threads = ns[t];
			region_at(r, run_threads, nrun, s);
			if (s->runs > 0)
				out->n++;
			else
				memset(s, 0, sizeof(*s));
		}
	free(ns);
	free(names);
	return 0;
}

void scale_region_stacks_release(struct scale_region_stacks *out)
{
	free(out->rs);
	memset(out, 0, sizeof(*out));
}
