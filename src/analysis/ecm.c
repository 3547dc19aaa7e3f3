/* ECM predictions for streaming kernels; see ecm.h. */
#include "analysis/ecm.h"

#include <math.h>

double ecm_core_cycles(const struct ecm_params *p, const struct ecm_streams *s)
{
	double load = (s->reads + s->rws) * p->cl_bytes / p->l1_load_bpc;
	double store = (s->writes + s->rws) * p->cl_bytes / p->l1_store_bpc;
	return p->loads_stores_overlap ? fmax(load, store) : load + store;
}

int ecm_lines_crossing(const struct ecm_streams *s, int boundary, int nboundaries)
{
	int memory = boundary == nboundaries - 1;
	int lines = s->reads + 2 * s->rws; /* read in, read+write streams evicted again */
	if (!s->nontemporal)
		lines += 2 * s->writes; /* write-allocate read, eviction */
	else if (memory)
		lines += s->writes; /* streamed straight to memory */
	return lines;
}

double ecm_predict(const struct ecm_params *p, const struct ecm_streams *s, int level)
{
	if (!(p->cl_bytes > 0 && p->l1_load_bpc > 0 && p->l1_store_bpc > 0) || level < 0 || level > p->ntransfers)
		return -1;
	double t = ecm_core_cycles(p, s);
	for (int b = 0; b < level; b++) {
		if (!(p->cy_per_cl[b] >= 0))
			return -1;
		t += ecm_lines_crossing(s, b, p->ntransfers) * p->cy_per_cl[b];
	}
	return t;
}

int ecm_params_from_loads(struct ecm_params *p, double cl_bytes, const double *load_cy, int nlevels,
			  double store_l1_cy, int overlap)
{
	*p = (struct ecm_params){ .cl_bytes = cl_bytes, .loads_stores_overlap = overlap };
	if (nlevels < 1 || nlevels > ECM_MAX_LEVELS + 1 || !(load_cy[0] > 0) || !(store_l1_cy > 0))
		return -1;
	p->l1_load_bpc = cl_bytes / load_cy[0];
	p->l1_store_bpc = cl_bytes / store_l1_cy;
	p->ntransfers = nlevels - 1;
	int clamped = 0;
	for (int b = 0; b + 1 < nlevels; b++) {
		/* The load kernel moves one line across each boundary above its level. */
		double d = load_cy[b + 1] - load_cy[b];
		if (!(d > 0)) {
			d = 0;
			clamped++;
		}
		p->cy_per_cl[b] = d;
	}
	return clamped;
}
