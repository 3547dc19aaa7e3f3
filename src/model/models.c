/* ECMData and Roofline; see models.h. */
#include "model/models.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct machine_bench_level *bench_level(const struct machine *m, const char *name)
{
	for (int i = 0; i < m->nbench; i++)
		if (!strcasecmp(m->bench[i].level, name))
			return &m->bench[i];
	return NULL;
}

static double one_core_bw(const struct machine_bench_level *B, int kernel)
{
	for (int c = 0; c < B->ncores; c++)
		if (B->cores[c] == 1)
			return B->bw[kernel][c];
	return 0;
}

int model_bandwidth(const struct machine *m, int level, double reads, double writes, int cores, double *bw,
		    struct as_error *err)
{
	const char *name = m->level[level].name;
	const struct machine_bench_level *B = bench_level(m, name);
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

int model_ecm_fit(const struct machine *m, struct ecm_fit *fit, struct as_error *err)
{
	memset(fit, 0, sizeof(*fit));
	double cl = m->cacheline_bytes > 0 ? m->cacheline_bytes : 64, ipcl = cl / 8; /* the kernels stream doubles */
	int fitted = 0;
	for (int i = 1; i < m->nlevels; i++) {
		const struct machine_bench_level *lo = bench_level(m, m->level[i - 1].name), *hi = bench_level(m, m->level[i].name);
		if (!lo || !hi || !(m->clock_hz > 0))
			continue;
		double x[MACHINE_MAX_KERNELS][2], y[MACHINE_MAX_KERNELS];
		int n = 0;
		for (int k = 0; k < m->nkernels; k++) {
			const struct machine_bench_kernel *K = &m->kernel[k];
			double blo = one_core_bw(lo, k), bhi = one_core_bw(hi, k), bytes = K->read_bytes + K->write_bytes;
			if (!(blo > 0) || !(bhi > 0) || !(bytes > 0))
				continue;
			/* read and write streams include the read+write ones (Kerncraft's convention) */
			x[n][0] = K->read_streams + K->write_streams - K->rw_streams;
			x[n][1] = K->write_streams;
			y[n] = ipcl * bytes * m->clock_hz * (1 / bhi - 1 / blo);
			n++;
		}
		double a = 0, b = 0, d = 0, e = 0, f = 0;
		for (int j = 0; j < n; j++) {
			a += x[j][0] * x[j][0];
			b += x[j][0] * x[j][1];
			d += x[j][1] * x[j][1];
			e += x[j][0] * y[j];
			f += x[j][1] * y[j];
		}
		double det = a * d - b * b;
		if (n < 3 || !(fabs(det) > 1e-9 * (a * d + 1)))
			continue;
		fit->in[i] = (d * e - b * f) / det;
		fit->out[i] = (a * f - b * e) / det;
		double ss = 0;
		for (int j = 0; j < n; j++) {
			double r = y[j] - fit->in[i] * x[j][0] - fit->out[i] * x[j][1];
			ss += r * r;
		}
		fit->rms[i] = sqrt(ss / n);
		fit->nkernels[i] = n;
		fit->ok[i] = 1;
		fitted++;
	}
	if (!fitted)
		return as_error_set(err, -ENOENT,
				    "the machine file has no one-core benchmark measurements of 3 or more kernels in two neighbouring "
				    "levels to fit transfer costs to");
	return fitted;
}

int model_ecm_data(const struct machine *m, const struct cache_traffic *t, const struct ecm_fit *fit,
		   struct ecm_data *out, struct as_error *err)
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
		int mk = -1; /* memory: the benchmark kernel Kerncraft's rule picks */
		if (L->upstream_is_memory) {
			double bw;
			mk = model_bandwidth(m, i, T->lines_in, T->lines_out, 0, &bw, fit && fit->ok[i] ? NULL : err);
			if (mk >= 0) {
				if (!(fit && fit->ok[i]))
					T->bw_bytes_s = bw;
				out->mem_saturated_cy = (T->lines_in + T->lines_out) * cl / (bw / m->clock_hz);
			} else if (!(fit && fit->ok[i])) {
				return mk;
			}
		}
		if (fit && fit->ok[i]) {
			/* a level's transfers cost nothing rather than a negative time */
			T->cy = fmax(0, T->lines_in * fit->in[i] + T->lines_out * fit->out[i]);
			T->bytes_per_cy = T->cy > 0 ? (T->lines_in + T->lines_out) * cl / T->cy : 0;
			snprintf(T->source, sizeof(T->source), "fit: %.2f cy/line in, %.2f out", fit->in[i], fit->out[i]);
		} else if (L->upstream_is_memory) {
			T->bytes_per_cy = T->bw_bytes_s / m->clock_hz;
			T->cy = out->mem_saturated_cy;
			snprintf(T->source, sizeof(T->source), "%s benchmark", m->kernel[mk].name);
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
