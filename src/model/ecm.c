/* The ECM model: streaming kernels, ECMData with its fit, the full model; see ecm.h. */
#include "model/ecm.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/bandwidth.h"

/* --- streaming kernels ---------------------------------------------------------------------------- */

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

/* --- ECMData --------------------------------------------------------------------------------------- */

static double one_core_bw(const struct machine_bench_level *B, int kernel)
{
	for (int c = 0; c < B->ncores; c++)
		if (B->cores[c] == 1)
			return B->bw[kernel][c];
	return 0;
}

int model_ecm_fit(const struct machine *m, struct ecm_fit *fit, struct as_error *err)
{
	memset(fit, 0, sizeof(*fit));
	double cl = machine_line_bytes(m), ipcl = cl / 8; /* the kernels stream doubles */
	int fitted = 0;
	for (int i = 1; i < m->nlevels; i++) {
		const struct machine_bench_level *lo = model_bench_level(m, m->level[i - 1].name), *hi = model_bench_level(m, m->level[i].name);
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
	double cl = machine_line_bytes(m);
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

/* --- the full model ------------------------------------------------------------------------------ */

void ecm_full_compute(const struct ecm_data *d, double t_ol, double t_nol, struct ecm_full *f)
{
	memset(f, 0, sizeof(*f));
	f->ok = 1;
	f->t_ol = t_ol;
	f->t_nol = t_nol;
	f->n = d->n;
	double sum = f->t_nol;
	f->cum[0] = fmax(f->t_ol, sum);
	for (int i = 0; i < f->n; i++) {
		snprintf(f->name[i], sizeof(f->name[i]), "T_%s%s", i ? d->t[i - 1].name : "L1", d->t[i].name);
		f->t[i] = d->t[i].cy;
		sum += f->t[i];
		f->cum[i + 1] = fmax(f->t_ol, sum);
	}
	f->prediction = f->cum[f->n];
	/* saturation: memory at the saturated bandwidth (Kerncraft's T_L3MEM), also where the
	 * prediction uses the one-core fitted cost */
	f->t_mem = d->mem_saturated_cy > 0 ? d->mem_saturated_cy : f->n ? f->t[f->n - 1] : 0;
	f->n_s = f->t_mem > 0 ? (int)ceil(f->prediction / f->t_mem - 1e-9) : 0;
}

double ecm_full_cy_at(const struct ecm_full *f, long cores)
{
	return fmax(f->prediction / (double)cores, f->t_mem);
}

long ecm_domain_cores(const struct machine *m)
{
	return m->cores_per_numa_domain > 0 ? m->cores_per_numa_domain : m->cores_per_socket > 0 ? m->cores_per_socket : 1;
}
