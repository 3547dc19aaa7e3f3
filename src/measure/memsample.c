/* See memsample.h: data sources, latency bins, histograms and threshold differences (pure). */
#include "measure/memsample.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/number.h"

static const char *const src_names[MEMSAMPLE_NSRC] = { "L1", "LFB", "L2", "L3", "local DRAM", "remote DRAM",
							"remote cache", "other" };
static const char *const src_keys[MEMSAMPLE_NSRC] = { "l1", "lfb", "l2", "l3", "local_dram", "remote_dram",
						       "remote_cache", "other" };

const char *memsample_src_name(int src)
{
	return src >= 0 && src < MEMSAMPLE_NSRC ? src_names[src] : "?";
}

const char *memsample_src_key(int src)
{
	return src >= 0 && src < MEMSAMPLE_NSRC ? src_keys[src] : "?";
}

int memsample_src_decode(uint64_t d)
{
	unsigned op = (unsigned)(d & 0x1f);
	unsigned lvl = (unsigned)((d >> PERF_MEM_LVL_SHIFT) & 0x3fff);
	unsigned num = (unsigned)((d >> PERF_MEM_LVLNUM_SHIFT) & 0xf);
	unsigned remote = (unsigned)((d >> PERF_MEM_REMOTE_SHIFT) & 1);
	unsigned hops = (unsigned)((d >> PERF_MEM_HOPS_SHIFT) & 7);
	/* a store, prefetch or fetch is not a load (op 0 or NA: the kernel did not say: accept) */
	if (op > PERF_MEM_OP_NA && !(op & PERF_MEM_OP_LOAD))
		return MEMSAMPLE_OTHER;
	/* "L3 miss": the sample says where the data was not, not where it came from */
	if ((lvl & PERF_MEM_LVL_MISS) && !(lvl & PERF_MEM_LVL_HIT))
		return MEMSAMPLE_OTHER;
	int rem = remote || hops >= PERF_MEM_HOPS_1; /* HOPS_0 is another core of the same node */
	if (num && num != PERF_MEM_LVLNUM_NA) {
		switch (num) {
		case PERF_MEM_LVLNUM_L1:
			return MEMSAMPLE_L1;
		case PERF_MEM_LVLNUM_LFB:
			return MEMSAMPLE_LFB;
		case PERF_MEM_LVLNUM_L2:
			return rem ? MEMSAMPLE_REMOTE_CACHE : MEMSAMPLE_L2;
		case PERF_MEM_LVLNUM_L3:
		case PERF_MEM_LVLNUM_L4:
		case PERF_MEM_LVLNUM_ANY_CACHE:
			return rem ? MEMSAMPLE_REMOTE_CACHE : MEMSAMPLE_L3;
		case PERF_MEM_LVLNUM_RAM:
			return rem ? MEMSAMPLE_REMOTE_DRAM : MEMSAMPLE_LOCAL_DRAM;
		default:
			return MEMSAMPLE_OTHER; /* CXL, I/O, persistent memory */
		}
	}
	if (lvl & (PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_REM_CCE2))
		return MEMSAMPLE_REMOTE_CACHE;
	if (lvl & (PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_REM_RAM2))
		return MEMSAMPLE_REMOTE_DRAM;
	if (lvl & PERF_MEM_LVL_LOC_RAM)
		return MEMSAMPLE_LOCAL_DRAM;
	if (lvl & PERF_MEM_LVL_L3)
		return MEMSAMPLE_L3;
	if (lvl & PERF_MEM_LVL_L2)
		return MEMSAMPLE_L2;
	if (lvl & PERF_MEM_LVL_LFB)
		return MEMSAMPLE_LFB;
	if (lvl & PERF_MEM_LVL_L1)
		return MEMSAMPLE_L1;
	return MEMSAMPLE_OTHER;
}

int memsample_add(struct memsample_set *set, double latency_cy, uint64_t data_src)
{
	struct memsample *s = array_grow(set->s, &set->cap, set->n, sizeof(*s), 1024);
	if (!s)
		return -ENOMEM;
	set->s = s;
	set->s[set->n++] = (struct memsample){ latency_cy, data_src, memsample_src_decode(data_src) };
	return 0;
}

void memsample_set_release(struct memsample_set *set)
{
	free(set->s);
	memset(set, 0, sizeof(*set));
}

int memsample_bins_parse(const char *spec, struct memsample_bins *b, struct as_error *err)
{
	memset(b, 0, sizeof(*b));
	if (!strcmp(spec, "log2")) {
		/* n edges make n intervals: [e0, e1), ..., [e(n-1), inf) */
		b->edge[0] = 0;
		b->n = 1;
		for (double e = 4; e <= 2048; e *= 2)
			b->edge[b->n++] = e;
		return 0;
	}
	double step, max;
	const char *q;
	if (!strncmp(spec, "lin:", 4) && number_scan_double(spec + 4, &step, &q) == 0 && *q == ':' &&
	    number_parse_double(q + 1, -HUGE_VAL, HUGE_VAL, &max) == 0) {
		if (!(step > 0) || !(max >= step) || max / step > MEMSAMPLE_BINS_MAX - 1)
			return as_error_set(err, -EINVAL, "bins '%s': lin:STEP:MAX needs 0 < STEP <= MAX and at most %d bins",
					    spec, MEMSAMPLE_BINS_MAX);
		for (double e = 0; e <= max + 1e-9 && b->n < MEMSAMPLE_BINS_MAX; e += step)
			b->edge[b->n++] = e;
		return 0;
	}
	const char *p = spec;
	while (*p) {
		const char *end;
		double v;
		if (number_scan_double(p, &v, &end) != 0 || (*end && *end != ',') || !(v >= 0) || (b->n && !(v > b->edge[b->n - 1])) ||
		    b->n == MEMSAMPLE_BINS_MAX)
			return as_error_set(err, -EINVAL,
					    "bins '%s': give log2, lin:STEP:MAX, or increasing edges in cycles like "
					    "0,30,60,200 (at most %d)",
					    spec, MEMSAMPLE_BINS_MAX);
		b->edge[b->n++] = v;
		p = *end ? end + 1 : end;
	}
	if (b->n < 1)
		return as_error_set(err, -EINVAL, "bins '%s': no edges", spec);
	return 0;
}

void memsample_hist_build(const struct memsample_set *set, const struct memsample_bins *b, int cost,
			  struct memsample_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->bins = *b;
	h->cost = cost;
	for (size_t i = 0; i < set->n; i++) {
		const struct memsample *s = &set->s[i];
		if (s->latency_cy < b->edge[0])
			continue;
		int k = b->n - 1; /* the last interval is open to the right */
		for (int j = 0; j + 1 < b->n; j++)
			if (s->latency_cy < b->edge[j + 1]) {
				k = j;
				break;
			}
		double v = cost ? s->latency_cy : 1;
		h->v[k][s->src] += v;
		h->total[s->src] += v;
		h->samples++;
	}
}

void memsample_threshold_diff(const double *counts, int n, double *interval, int *negative)
{
	*negative = 0;
	for (int i = 0; i < n; i++) {
		interval[i] = i + 1 < n ? counts[i] - counts[i + 1] : counts[i];
		if (interval[i] < 0)
			(*negative)++;
	}
}
