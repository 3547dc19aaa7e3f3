/* ECMData and Roofline; see models.h. */
#include "model/models.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int model_bandwidth(const struct machine *m, int level, double reads, double writes, int cores, double *bw,
		    struct as_error *err)
{
	const char *name = m->level[level].name;
	const struct machine_bench_level *B = NULL;
	for (int i = 0; i < m->nbench; i++)
		if (!strcasecmp(m->bench[i].level, name))
			B = &m->bench[i];
	if (!B || m->nkernels == 0)
		return as_error_set(err, -ENOENT, "the machine file has no benchmark measurements for %s", name);
	double target = writes > 0 ? reads / writes : INFINITY;
	int best = -1;
	double best_ratio = INFINITY;
	/* in name order, the first of equals wins, as in Kerncraft */
	int order[MACHINE_MAX_KERNELS];
	for (int i = 0; i < m->nkernels; i++)
		order[i] = i;
	for (int i = 1; i < m->nkernels; i++)
		for (int j = i; j > 0 && strcmp(m->kernel[order[j - 1]].name, m->kernel[order[j]].name) > 0; j--) {
			int x = order[j];
			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	for (int oi = 0; oi < m->nkernels; oi++) {
		int i = order[oi];
		const struct machine_bench_kernel *K = &m->kernel[i];
		int measured = 0;
		for (int c = 0; c < B->ncores; c++)
			measured |= B->bw[i][c] > 0;
		if (!measured)
			continue;
		double r = K->write_streams > 0 ? (double)(K->read_streams + K->write_streams - K->rw_streams) / K->write_streams
						: INFINITY;
		double d = (isinf(r) && isinf(target)) ? 0 : fabs(r - target);
		double bd = best < 0 ? INFINITY : (isinf(best_ratio) && isinf(target)) ? 0 : fabs(best_ratio - target);
		if (best < 0 || d < bd) {
			best = i;
			best_ratio = r;
		}
	}
	if (best < 0)
		return as_error_set(err, -ENOENT, "the machine file has no benchmark measurements for %s", name);
	double v = 0;
	if (cores > 0) {
		for (int c = 0; c < B->ncores; c++)
			if (B->cores[c] == cores)
				v = B->bw[best][c];
		if (v <= 0)
			return as_error_set(err, -ENOENT, "the machine file has no %s measurement of '%s' with %d core%s", name,
					    m->kernel[best].name, cores, cores == 1 ? "" : "s");
	} else {
		long maxc = m->level[level].cores_per_group > 0 ? m->level[level].cores_per_group : 1;
		if (m->cores_per_numa_domain > 0 && m->cores_per_numa_domain < maxc)
			maxc = m->cores_per_numa_domain;
		for (int c = 0; c < B->ncores; c++)
			if (B->cores[c] <= maxc && B->bw[best][c] > v)
				v = B->bw[best][c];
	}
	if (v <= 0)
		return as_error_set(err, -ENOENT, "the machine file has no usable %s bandwidth", name);
	const struct machine_bench_kernel *K = &m->kernel[best];
	if (level > 0 && K->read_bytes + K->write_bytes > 0)
		v *= (K->read_bytes + 2 * K->write_bytes - K->rw_bytes) / (K->read_bytes + K->write_bytes);
	if (!(v > 0))
		return as_error_set(err, -EINVAL,
				    "machine file: benchmark '%s' has streams that give no bandwidth (read and write streams "
				    "include the read+write ones, as in Kerncraft's files)",
				    K->name);
	*bw = v;
	return best;
}

int model_ecm_data(const struct machine *m, const struct cache_traffic *t, struct ecm_data *out, struct as_error *err)
{
	memset(out, 0, sizeof(*out));
	double cl = m->cacheline_bytes > 0 ? m->cacheline_bytes : 64;
	int ci = 0; /* index into t->level: the cache above the current level */
	for (int i = 0; i < m->nlevels; i++) {
		if (i == 0) {
			ci = m->level[0].has_cache ? 1 : 0;
			continue;
		}
		if (ci - 1 >= t->nlevels)
			break;
		const struct level_traffic *above = &t->level[ci - 1];
		const struct machine_level *L = &m->level[i];
		struct ecm_transfer *T = &out->t[out->n++];
		snprintf(T->name, sizeof(T->name), "%s", L->name);
		T->lines_in = above->lines_in;
		T->lines_out = above->lines_out;
		if (L->upstream_is_memory) {
			double bw;
			int k = model_bandwidth(m, i, T->lines_in, T->lines_out, 0, &bw, err);
			if (k < 0)
				return k;
			T->bw_bytes_s = bw;
			T->bytes_per_cy = bw / m->clock_hz;
			T->cy = (T->lines_in + T->lines_out) * cl / T->bytes_per_cy;
			snprintf(T->source, sizeof(T->source), "%s benchmark", m->kernel[k].name);
		} else if (L->upstream_bytes_per_cy > 0) {
			T->bytes_per_cy = L->upstream_bytes_per_cy;
			double lines = L->upstream_full_duplex ? fmax(T->lines_in, T->lines_out) : T->lines_in + T->lines_out;
			T->cy = lines * cl / T->bytes_per_cy;
			snprintf(T->source, sizeof(T->source), "%g B/cy %s", T->bytes_per_cy,
				 L->upstream_full_duplex ? "full-duplex" : "half-duplex");
		} else {
			return as_error_set(err, -EINVAL, "machine file: level %s has no upstream throughput in B/cy ('%s')", L->name,
					    L->upstream_text);
		}
		out->total_cy += T->cy;
		if (L->has_cache)
			ci++;
	}
	return 0;
}

int model_roofline(const struct machine *m, const struct cache_traffic *t, double flops_per_it, int elsize, int cores,
		   struct roofline *out, struct as_error *err)
{
	memset(out, 0, sizeof(*out));
	double cl = m->cacheline_bytes > 0 ? m->cacheline_bytes : 64;
	double ipcl = t->iterations_per_cl;
	double clock = m->clock_hz;
	const double *fl = elsize == 4 ? m->flops_sp : m->flops_dp;
	out->peak_flops_s = fl[0] * clock * cores;
	out->cpu_cy_per_cl = fl[0] > 0 ? flops_per_it * ipcl / fl[0] : 0;
	out->bottleneck = -1;
	out->cy_per_cl = out->cpu_cy_per_cl;
	for (int i = 0; i < m->nlevels && out->n < MACHINE_MAX_LEVELS; i++) {
		double reads, writes, bytes;
		if (i == 0) {
			if (t->nlevels < 1)
				break;
			/* registers <- L1: every access, element by element */
			reads = t->level[0].loads;
			writes = t->level[0].stores;
			bytes = (reads + writes) * elsize;
		} else {
			if (i - 1 >= t->nlevels)
				break;
			reads = t->level[i - 1].lines_in;
			writes = t->level[i - 1].lines_out;
			bytes = (reads + writes) * cl / ipcl;
		}
		struct roofline_level *R = &out->level[out->n++];
		snprintf(R->name, sizeof(R->name), "%s", m->level[i].name);
		R->bytes_per_it = bytes;
		double bw;
		int k = model_bandwidth(m, i, reads, writes, cores, &bw, err);
		if (k < 0)
			return k;
		R->bw_bytes_s = bw;
		snprintf(R->kernel, sizeof(R->kernel), "%s", m->kernel[k].name);
		R->intensity = bytes > 0 ? flops_per_it / bytes : INFINITY;
		R->perf_flops_s = R->intensity * bw;
		R->cy_per_cl = bytes * ipcl / bw * clock;
		if (R->cy_per_cl > out->cy_per_cl) {
			out->cy_per_cl = R->cy_per_cl;
			out->bottleneck = out->n - 1;
		}
	}
	out->perf_flops_s = out->cy_per_cl > 0 ? flops_per_it * ipcl / out->cy_per_cl * clock : 0;
	return 0;
}
