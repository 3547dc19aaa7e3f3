/* The nodes compared: each node's leader runs the quick probes (probe/: clock, caches, contexts)
 * and bench's load kernel per level (bench/), and rank 0 flags every node whose figure is off the
 * median by more than the run's own noise of that figure. */
#include "cluster/cluster.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/order.h"
#include "bench/levels.h"
#include "bench/run.h"
#include "common/timer.h"
#include "probe/caches.h"
#include "probe/clock.h"
#include "probe/contexts.h"
#include "probe/env.h"

/* (median - min) / min of the recorded curve's point nearest below x. */
static double curve_spread_at(const struct machine_probes_curve *c, double x)
{
	int best = c->n;
	for (int i = 0; i < c->n; i++)
		if (c->pt[i].x <= x)
			best = i;
	if (best == c->n || !(c->pt[best].min > 0))
		return NAN;
	return (c->pt[best].median - c->pt[best].min) / c->pt[best].min;
}

static void fig_init(struct cluster_node_fig *f)
{
	memset(f, 0, sizeof(*f));
	f->clock_ghz = f->clock_spread = f->line_bytes = f->memory_ns = f->memory_spread = f->size_step = NAN;
	for (int i = 0; i < CLUSTER_MAX_LEVELS; i++)
		f->level_bytes[i] = f->level_ns[i] = f->level_spread[i] = NAN;
	for (int i = 0; i <= CLUSTER_MAX_LEVELS; i++)
		f->bw_gbs[i] = f->bw_spread[i] = NAN;
	for (int i = 0; i < 3; i++)
		f->contexts[i] = NAN;
}

/* allowed: the CPUs the node's leader may use, read before the first attempt pinned it */
static int node_measure_once(const struct cluster_node_opts *o, const struct as_cpulist *allowed,
			     struct cluster_node_fig *out, struct as_error *err)
{
	fig_init(out);
	uint64_t t0 = timer_now_ns();
	struct probe_env env;
	memset(&env, 0, sizeof(env));
	env.allowed = *allowed;
	out->cpus = env.allowed.n;
	out->seed = o->seed;
	env.cpu = o->cpu;
	env.quick = 1;
	env.seed = o->seed;
	env.interrupted = o->stop;
	out->cpu = o->cpu;
	if (cpu_pin_self(o->cpu, err) != 0)
		return err->code ? err->code : -EINVAL;
	struct as_cpulist pinned = { .n = 1, .cpu = { o->cpu } };
	struct cond_window win;
	cond_window_begin(&win, &pinned, &env.allowed, COND_SHARED);
	/* the probes' answers and curves, in a record of the node's own */
	struct machine_probes *rec = probe_scratch_new();
	int rc = rec ? 0 : as_error_set(err, -ENOMEM, "out of memory");
	if (rc == 0 && (o->figures & CLUSTER_FIG_CLOCK)) {
		probe_clock_find(&env, rec);
		out->clock_ghz = rec->clock.value;
		out->clock_spread = rec->clock.value > 0 ? (rec->clock.value - rec->clock_ev.median_ghz) / rec->clock.value : NAN;
		out->measured |= CLUSTER_FIG_CLOCK;
	}
	if (rc == 0 && (o->figures & (CLUSTER_FIG_CACHES | CLUSTER_FIG_BANDWIDTH))) {
		struct probe_caches_params params = { .huge = HUGE_ALWAYS, .max_bytes = o->max_bytes };
		rc = probe_caches_find(&env, NULL, &params, rec, err);
		const struct machine_probes_curve *c = &rec->caches_ev.curve;
		if (rc == 0) {
			out->measured |= CLUSTER_FIG_CACHES;
			out->line_bytes = rec->caches_ev.line_bytes;
			out->nlevels = rec->ncaches < CLUSTER_MAX_LEVELS ? rec->ncaches : CLUSTER_MAX_LEVELS;
			for (int l = 0; l < out->nlevels; l++) {
				out->level_bytes[l] = rec->cache[l].size.value;
				out->level_ns[l] = rec->cache[l].latency.value;
				out->level_spread[l] = curve_spread_at(c, rec->cache[l].size.value / 2);
			}
			out->memory_ns = rec->memory_latency.value;
			out->memory_spread = c->n ? curve_spread_at(c, c->pt[c->n - 1].x) : NAN;
			out->size_step = 1 / 3.0; /* the quick size series: 1 and 1.5 per octave */
		} else {
			snprintf(out->failed, sizeof(out->failed), "caches: %.180s", err->msg);
		}
	}
	probe_scratch_free(rec);
	if (rc == 0 && (o->figures & CLUSTER_FIG_BANDWIDTH) && !(o->stop && *o->stop)) {
		struct bench_levels lv;
		bench_levels_from(out->level_bytes, out->nlevels, &lv);
		const struct bench_kernel *k = bench_kernel_best("load");
		for (int l = 0; l < lv.n && k && rc == 0 && !(o->stop && *o->stop); l++) {
			size_t size = lv.size[l];
			int is_mem = l == lv.n - 1;
			if (is_mem && o->max_bytes && size > o->max_bytes)
				continue; /* memory's working set does not fit the limit: not measured */
			struct bench_opts bo = { .kernel = k, .size_bytes = size, .reps = 3, .min_time_s = 0.02,
						 .clock_ghz = out->clock_ghz > 0 ? out->clock_ghz : 0 };
			bo.cpus.n = 1;
			bo.cpus.cpu[0] = o->cpu;
			struct bench_result br;
			rc = bench_run(&bo, &br, err);
			if (rc != 0) {
				snprintf(out->failed, sizeof(out->failed), "bandwidth in %s: %.170s", lv.name[l], err->msg);
				break;
			}
			int b = out->nbw++;
			snprintf(out->bw_level[b], sizeof(out->bw_level[b]), "%s", lv.name[l]);
			out->bw_bytes[b] = br.size_bytes;
			out->bw_gbs[b] = br.gbs.median;
			out->bw_spread[b] = br.gbs.median > 0 ? (br.gbs.max - br.gbs.min) / br.gbs.median : NAN;
		}
		if (rc == 0)
			out->measured |= CLUSTER_FIG_BANDWIDTH;
		/* pinning back: bench pins its own threads, this one stays */
	}
	if (rc == 0 && (o->figures & CLUSTER_FIG_CONTEXTS) && !(o->stop && *o->stop)) {
		struct probe_contexts_result xr;
		probe_contexts_result_init(&xr);
		struct machine_probes *xrec = probe_scratch_new();
		rc = xrec ? probe_contexts_find(&env, NULL, &xr, xrec, err) : as_error_set(err, -ENOMEM, "out of memory");
		if (rc == 0) {
			out->measured |= CLUSTER_FIG_CONTEXTS;
			for (int k = 0; k < xr.nkinds && k < 3; k++)
				out->contexts[k] = ((const struct machine_answer *)machine_probes_at(xrec, probe_contexts_entry((enum contexts_kind)k)))->value;
		} else {
			snprintf(out->failed, sizeof(out->failed), "contexts: %.180s", err->msg);
		}
		probe_contexts_result_release(&xr);
		probe_scratch_free(xrec);
	}
	out->seconds = (double)(timer_now_ns() - t0) * 1e-9;
	cond_window_clock(&win, out->clock_ghz, NAN);
	cond_window_end(&win, &out->cond);
	return rc;
}

int cluster_node_measure(const struct cluster_node_opts *o, struct cluster_node_fig *out, struct as_error *err)
{
	/* measured again once where other work disturbed it, after up to a second's wait for a burst
	 * to pass (at most its first time again); then kept flagged (docs/conditions.md) */
	struct as_cpulist *allowed = malloc(sizeof(*allowed));
	if (!allowed)
		return as_error_set(err, -ENOMEM, "out of memory");
	if (cpulist_allowed(allowed, err) != 0) {
		free(allowed);
		return err->code ? err->code : -EIO;
	}
	int rc = node_measure_once(o, allowed, out, err);
	if (rc == 0 && out->cond.noisy && cond_noisy_streak() < COND_BUSY_STREAK && !(o->stop && *o->stop)) {
		struct as_cpulist pinned = { .n = 1, .cpu = { o->cpu } };
		cond_wait_quiet(&pinned, NULL, COND_SHARED, 1.0);
		struct cluster_node_fig *again = malloc(sizeof(*again));
		struct as_error err2 = { 0 };
		if (again && node_measure_once(o, allowed, again, &err2) == 0 && !(o->stop && *o->stop)) {
			again->cond.attempts = 2;
			*out = *again;
		} else {
			out->cond.attempts = 2; /* the second attempt failed or was stopped: the first is kept */
		}
		free(again);
	}
	free(allowed);
	cond_summary_final(&out->cond);
	return rc;
}

static int fig_add(struct cluster_figure *out, double *spread, int n, int max, const char *name, const char *unit,
		   double v, double s)
{
	if (n >= max)
		return n;
	snprintf(out[n].name, sizeof(out[n].name), "%s", name);
	out[n].unit = unit;
	out[n].value = v;
	spread[n] = s;
	return n + 1;
}

int cluster_node_figures(const struct cluster_node_fig *f, struct cluster_figure *out, double *spread, int max)
{
	int n = 0;
	char name[40];
	n = fig_add(out, spread, n, max, "cpus", "", f->cpus, 0);
	if (f->measured & CLUSTER_FIG_CLOCK)
		n = fig_add(out, spread, n, max, "clock", "GHz", f->clock_ghz, f->clock_spread);
	if (f->measured & CLUSTER_FIG_CACHES) {
		for (int l = 0; l < f->nlevels; l++) {
			snprintf(name, sizeof(name), "L%d size", l + 1);
			n = fig_add(out, spread, n, max, name, "B", f->level_bytes[l], f->size_step);
			snprintf(name, sizeof(name), "L%d latency", l + 1);
			n = fig_add(out, spread, n, max, name, "ns", f->level_ns[l], f->level_spread[l]);
		}
		n = fig_add(out, spread, n, max, "memory latency", "ns", f->memory_ns, f->memory_spread);
	}
	if (f->measured & CLUSTER_FIG_BANDWIDTH)
		for (int b = 0; b < f->nbw; b++) {
			snprintf(name, sizeof(name), "%s bandwidth", f->bw_level[b]);
			n = fig_add(out, spread, n, max, name, "GB/s", f->bw_gbs[b], f->bw_spread[b]);
		}
	if (f->measured & CLUSTER_FIG_CONTEXTS) {
		static const char *const kinds[3] = { "fp contexts", "int contexts", "mem contexts" };
		for (int k = 0; k < 3; k++)
			n = fig_add(out, spread, n, max, kinds[k], "", f->contexts[k], 0);
	}
	return n;
}

#define MAX_FIGS 48

/* The index of figure `name` among node i's, or -1. */
static int fig_index(const struct cluster_figure *figs, int nf, const char *name)
{
	for (int m = 0; m < nf; m++)
		if (strcmp(figs[m].name, name) == 0)
			return m;
	return -1;
}

void cluster_nodes_machines(const struct cluster_place *p, int *machine, int *shares_cpus)
{
	for (int n = 0; n < p->nnodes; n++) {
		const struct cluster_rank *me = &p->ranks[p->leader[n]];
		machine[n] = n;
		for (int m = 0; m < n && machine[n] == n; m++)
			if (strcmp(p->ranks[p->leader[m]].boot_id, me->boot_id) == 0)
				machine[n] = machine[m];
		shares_cpus[n] = 0;
	}
	/* two ranks of different nodes of one machine whose CPU sets meet */
	for (int i = 0; i < p->size; i++)
		for (int j = i + 1; j < p->size; j++) {
			const struct cluster_rank *a = &p->ranks[i], *b = &p->ranks[j];
			if (a->node == b->node || machine[a->node] != machine[b->node])
				continue;
			for (int w = 0; w < CLUSTER_MASK_WORDS; w++)
				if (a->cpumask[w] & b->cpumask[w]) {
					shares_cpus[a->node] = shares_cpus[b->node] = 1;
					break;
				}
		}
}

/* The median of a figure over the nodes on node i's machine (same 1) or on the others (same 0);
 * machine NULL: each node its own machine. */
static double median_machines(const double *v, const int *at, int nv, const int *machine, int i, int same,
			      double *scratch)
{
	int k = 0;
	for (int q = 0; q < nv; q++)
		if ((machine ? machine[at[q]] == machine[i] : at[q] == i) == same)
			scratch[k++] = v[q];
	return order_median(scratch, (size_t)k);
}

int cluster_nodes_compare(const struct cluster_node_fig *f, int n, double floor, struct cluster_outlier *out, int max,
			  int *alike)
{
	return cluster_nodes_compare_machines(f, n, NULL, floor, out, max, alike);
}

int cluster_nodes_compare_machines(const struct cluster_node_fig *f, int n, const int *machine, double floor,
				   struct cluster_outlier *out, int max, int *alike)
{
	size_t nn = (size_t)(n > 0 ? n : 1);
	struct cluster_figure (*figs)[MAX_FIGS] = calloc(nn, sizeof(*figs));
	double (*spread)[MAX_FIGS] = calloc(nn, sizeof(*spread));
	double *v = malloc(nn * sizeof(double)), *others = malloc(nn * sizeof(double));
	int *nf = calloc(nn, sizeof(int)), *at = malloc(nn * sizeof(int)), *idx = malloc(nn * sizeof(int));
	/* per figure (by name), per node: the threshold it was judged by and its value, for the
	 * alike groups; only for up to 256 nodes (the pairwise check is quadratic) */
	int pairwise = n <= 256;
	unsigned char *differ = pairwise ? calloc(nn * nn, 1) : NULL;
	char names[2 * MAX_FIGS][40];
	int nnames = 0, count = 0;
	for (int i = 0; i < n; i++)
		alike[i] = i;
	if (!figs || !spread || !v || !others || !nf || !at || !idx || (pairwise && !differ) || n < 2)
		goto done;
	for (int i = 0; i < n; i++) {
		nf[i] = cluster_node_figures(&f[i], figs[i], spread[i], MAX_FIGS);
		for (int k = 0; k < nf[i]; k++) {
			int seen = 0;
			for (int u = 0; u < nnames && !seen; u++)
				seen = strcmp(names[u], figs[i][k].name) == 0;
			if (!seen && nnames < 2 * MAX_FIGS)
				snprintf(names[nnames++], sizeof(names[0]), "%s", figs[i][k].name);
		}
	}
	/* figure by figure, by name (a node may lack a level the others have) */
	for (int u = 0; u < nnames; u++) {
		const char *name = names[u];
		int nv = 0;
		double noise = floor;
		for (int i = 0; i < n; i++) {
			int m = fig_index(figs[i], nf[i], name);
			if (m < 0 || !isfinite(figs[i][m].value))
				continue;
			v[nv] = figs[i][m].value;
			at[nv] = i;
			idx[nv++] = m;
			if (isfinite(spread[i][m]) && spread[i][m] > noise)
				noise = spread[i][m];
		}
		if (nv < 2)
			continue;
		for (int q = 0; q < nv; q++) {
			int i = at[q], m = idx[q];
			/* integers (cpus, contexts) differ by a whole one or not at all */
			int integral = spread[i][m] == 0 && figs[i][m].unit[0] == 0;
			/* nodes of one machine measured one machine: their differences are not outliers; a
			 * machine's figure (the median of its nodes) is judged against the median of the
			 * other machines' nodes (none: not judged). Counts are what a node was given (the
			 * CPUs its leader may use), not what load disturbed: compared node by node. */
			int by_machine = machine && !integral;
			double med = by_machine ? median_machines(v, at, nv, machine, i, 0, others) : order_median(v, (size_t)nv);
			double val = by_machine ? median_machines(v, at, nv, machine, i, 1, others) : v[q];
			if (isnan(med))
				continue;
			double d = med != 0 ? (val - med) / fabs(med) : (val != 0 ? INFINITY : 0);
			int off = integral ? fabs(val - med) >= 0.5 : fabs(d) > noise;
			if (!off || count >= max)
				continue;
			out[count] = (struct cluster_outlier){ .node = i, .unit = figs[i][m].unit, .value = val, .median = med,
							       .difference = d, .noise = integral ? 0 : noise };
			snprintf(out[count].figure, sizeof(out[count].figure), "%.39s", name);
			count++;
		}
		/* pairwise: which nodes disagree on this figure */
		for (int a = 0; pairwise && a < nv; a++)
			for (int b = a + 1; b < nv; b++) {
				int i = at[a], j = at[b], m = idx[a];
				double base = fmax(fabs(v[a]), fabs(v[b]));
				int integral = spread[i][m] == 0 && figs[i][m].unit[0] == 0;
				if (integral ? fabs(v[a] - v[b]) >= 0.5 : base > 0 && fabs(v[a] - v[b]) / base > noise)
					differ[(size_t)i * nn + j] = differ[(size_t)j * nn + i] = 1;
			}
	}
	/* alike: each node joins the first earlier group all of whose members it agrees with */
	for (int i = 1; pairwise && i < n; i++)
		for (int g = 0; g < i; g++) {
			if (alike[g] != g)
				continue;
			int ok = 1;
			for (int j = g; j < i && ok; j++)
				if (alike[j] == g && differ[(size_t)i * nn + j])
					ok = 0;
			if (ok) {
				alike[i] = g;
				break;
			}
		}
done:
	free(figs);
	free(spread);
	free(v);
	free(others);
	free(nf);
	free(at);
	free(idx);
	free(differ);
	return count;
}
