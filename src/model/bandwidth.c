/* Benchmark bandwidths for the models; see bandwidth.h. */
#include "model/bandwidth.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <strings.h>

const struct machine_bench_level *model_bench_level(const struct machine *m, const char *name)
{
	for (int i = 0; i < m->nbench; i++)
		if (!strcasecmp(m->bench[i].level, name))
			return &m->bench[i];
	return NULL;
}

int model_bandwidth(const struct machine *m, int level, double reads, double writes, int cores, double *bw,
		    struct as_error *err)
{
	const char *name = m->level[level].name;
	const struct machine_bench_level *B = model_bench_level(m, name);
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
