/* The flop-counting Roofline; see roofline.h. */
#include "model/roofline.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/bandwidth.h"

int model_roofline(const struct machine *m, const struct cache_traffic *t, double flops_per_it, int elsize, int cores,
		   struct roofline *out, struct as_error *err)
{
	memset(out, 0, sizeof(*out));
	double cl = machine_line_bytes(m);
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
