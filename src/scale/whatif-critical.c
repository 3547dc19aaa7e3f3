/* The critical-path share of whatif's sites beside the speedup stack: which threads bound the
 * profiling run (their work, from the stack's per-thread CPU time and the samples outside waits)
 * and how much of the run's span each site ran in them. Pure arithmetic on recorded data. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scale/whatif.h"

struct acc {
	int tid;
	double cpu_s, runq_s;
	long all, waiting;
	long in[WHATIF_SITES_MAX];
};

static int acc_cmp(const void *a, const void *b)
{
	const struct acc *x = a, *y = b;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

int whatif_critical_shares(const struct whatif_sample *v, const int *mark, size_t n, const struct whatif_thread_cpu *th,
			   size_t nth, double span_s, struct whatif_site *sites, int nsites, int *seen)
{
	*seen = 0;
	for (int s = 0; s < nsites; s++)
		sites[s].crit_share = NAN;
	if (nth == 0 || !(span_s > 0))
		return 0;
	struct acc *a = calloc(nth, sizeof(*a));
	if (!a)
		return 0;
	for (size_t t = 0; t < nth; t++) {
		a[t].tid = th[t].tid;
		a[t].cpu_s = th[t].cpu_s;
		a[t].runq_s = th[t].runq_s > 0 ? th[t].runq_s : 0;
	}
	qsort(a, nth, sizeof(*a), acc_cmp);
	for (size_t i = 0; i < n; i++) {
		struct acc key = { .tid = v[i].tid };
		struct acc *t = v[i].tid ? bsearch(&key, a, nth, sizeof(*a), acc_cmp) : NULL;
		if (!t)
			continue; /* a thread the record does not know (or no tid recorded) */
		t->all += v[i].n;
		if (mark[i] == WHATIF_MARK_WAITING)
			t->waiting += v[i].n;
		else if (mark[i] >= 0 && mark[i] < nsites && mark[i] < WHATIF_SITES_MAX)
			t->in[mark[i]] += v[i].n;
	}
	double most = 0;
	for (size_t t = 0; t < nth; t++) {
		double work = a[t].all > 0 && a[t].cpu_s > 0 ? a[t].cpu_s * (double)(a[t].all - a[t].waiting) / (double)a[t].all : 0;
		a[t].cpu_s = a[t].all > 0 ? a[t].cpu_s : 0; /* only threads with samples count */
		most = work > most ? work : most;
		*seen += a[t].cpu_s > 0;
	}
	int ncrit = 0;
	double sum[WHATIF_SITES_MAX] = { 0 };
	for (size_t t = 0; t < nth && most > 0; t++) {
		if (!(a[t].cpu_s > 0))
			continue;
		double work = a[t].cpu_s * (double)(a[t].all - a[t].waiting) / (double)a[t].all;
		if (work < WHATIF_CRIT_WORK * most)
			continue;
		ncrit++;
		for (int s = 0; s < nsites && s < WHATIF_SITES_MAX; s++)
			sum[s] += (a[t].cpu_s + a[t].runq_s) * (double)a[t].in[s] / (double)a[t].all / span_s;
	}
	for (int s = 0; s < nsites && ncrit > 0 && s < WHATIF_SITES_MAX; s++) {
		double x = sum[s] / ncrit;
		sites[s].crit_share = x < 0 ? 0 : x > 1 ? 1 : x;
	}
	free(a);
	return ncrit;
}
