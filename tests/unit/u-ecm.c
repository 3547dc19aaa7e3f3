/* Unit tests of the ECM model for streaming kernels against the ECM paper's Table 2 (Core 2 and
 * Core i7 columns) and Table 3 (the Intel L1 and L2 parts of a store), of the calibration from
 * load-kernel measurements, of ECMData with fitted transfer costs, and of the full model's sums,
 * saturation and scaling. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "model/ecm.h"

static const struct ecm_streams LOAD = { .reads = 1 }, STORE = { .writes = 1 }, COPY = { .reads = 1, .writes = 1 },
				 STREAM_TRIAD = { .reads = 2, .writes = 1 }, VECTOR_TRIAD = { .reads = 3, .writes = 1 },
				 UPDATE = { .rws = 1 }, COPY_NT = { .reads = 1, .writes = 1, .nontemporal = 1 };

/* Intel cores of the paper: one 16-byte load and one 16-byte store per cycle, a 32-byte bus
 * between the caches (2 cycles per 64-byte line). */
static struct ecm_params intel(int nlevels_below_l1, const double *cy)
{
	struct ecm_params p = { .cl_bytes = 64, .l1_load_bpc = 16, .l1_store_bpc = 16, .loads_stores_overlap = 1,
				.ntransfers = nlevels_below_l1 };
	for (int i = 0; i < nlevels_below_l1; i++)
		p.cy_per_cl[i] = cy[i];
	return p;
}

static void test_ecm__paper_core_i7(void)
{
	/* L2 <-> L1 and L3 <-> L2 at 2 cy/line; memory: 15 - 8 = ~6.7 cy/line (the paper derives it
	 * from the memory clock and bus width; Table 2 prints whole cycles). */
	const double cy[] = { 2, 2, 6.7 };
	struct ecm_params p = intel(3, cy);
	const double load[] = { 4, 6, 8, 15 }, copy[] = { 4, 10, 16, 36 }, triad[] = { 8, 16, 24, 51 };
	for (int l = 0; l < 4; l++) {
		CHECK_NEAR(ecm_predict(&p, &LOAD, l), load[l], 0.5);
		CHECK_NEAR(ecm_predict(&p, &COPY, l), copy[l], 0.5);
		CHECK_NEAR(ecm_predict(&p, &STREAM_TRIAD, l), triad[l], 0.5);
	}
	/* Table 3: a store costs 4 cycles in L1 and 4 more for the L2 part (allocate + evict). */
	CHECK_NEAR(ecm_predict(&p, &STORE, 0), 4, 1e-9);
	CHECK_NEAR(ecm_predict(&p, &STORE, 1), 8, 1e-9);
	CHECK(ecm_lines_crossing(&STREAM_TRIAD, 0, 3) == 4);
}

static void test_ecm__paper_core2(void)
{
	/* No L3; memory at 14 cy/line (load: 6 + 14 = 20). */
	const double cy[] = { 2, 14 };
	struct ecm_params p = intel(2, cy);
	const double load[] = { 4, 6, 20 }, copy[] = { 4, 10, 52 }, triad[] = { 8, 16, 72 };
	for (int l = 0; l < 3; l++) {
		CHECK_NEAR(ecm_predict(&p, &LOAD, l), load[l], 1e-9);
		CHECK_NEAR(ecm_predict(&p, &COPY, l), copy[l], 1e-9);
		CHECK_NEAR(ecm_predict(&p, &STREAM_TRIAD, l), triad[l], 1e-9);
	}
	CHECK(ecm_predict(&p, &LOAD, 3) < 0); /* no such level */
}

static void test_ecm__overlap_and_streams(void)
{
	const double cy[] = { 2 };
	struct ecm_params p = intel(1, cy);
	/* the vector triad: 3 loads (12 cy) and a store (4 cy) overlap -> 12; without overlap 16 */
	CHECK_NEAR(ecm_core_cycles(&p, &VECTOR_TRIAD), 12, 1e-9);
	p.loads_stores_overlap = 0;
	CHECK_NEAR(ecm_core_cycles(&p, &VECTOR_TRIAD), 16, 1e-9);
	/* update: one line read and written back, as many lines cross as for copy minus the allocate */
	CHECK(ecm_lines_crossing(&UPDATE, 0, 1) == 2);
	CHECK(ecm_lines_crossing(&VECTOR_TRIAD, 0, 1) == 5);
	/* non-temporal stores skip the caches and write memory once */
	CHECK(ecm_lines_crossing(&COPY_NT, 0, 3) == 1);
	CHECK(ecm_lines_crossing(&COPY_NT, 2, 3) == 2);
	p.l1_load_bpc = 0;
	CHECK(ecm_predict(&p, &LOAD, 0) < 0);
}

static void test_ecm__calibration_from_loads(void)
{
	/* Measurements made from a known model recover it; the store is then predicted. */
	const double cy[] = { 1.5, 3, 9 };
	struct ecm_params truth = { .cl_bytes = 64, .l1_load_bpc = 128, .l1_store_bpc = 64, .loads_stores_overlap = 1,
				    .ntransfers = 3 };
	for (int i = 0; i < 3; i++)
		truth.cy_per_cl[i] = cy[i];
	double load[4];
	for (int l = 0; l < 4; l++)
		load[l] = ecm_predict(&truth, &LOAD, l);
	struct ecm_params p;
	CHECK(ecm_params_from_loads(&p, 64, load, 4, ecm_predict(&truth, &STORE, 0), 1) == 0);
	CHECK_NEAR(p.l1_load_bpc, 128, 1e-9);
	CHECK_NEAR(p.l1_store_bpc, 64, 1e-9);
	for (int l = 0; l < 4; l++)
		CHECK_NEAR(ecm_predict(&p, &VECTOR_TRIAD, l), ecm_predict(&truth, &VECTOR_TRIAD, l), 1e-9);
	/* a level measured faster than the one above it: rate clamped to 0 and counted */
	double odd[] = { 0.5, 2.0, 1.8, 10 };
	CHECK(ecm_params_from_loads(&p, 64, odd, 4, 1.0, 1) == 1);
	CHECK(p.cy_per_cl[1] == 0);
	CHECK_NEAR(p.cy_per_cl[2], 8.2, 1e-9);
	CHECK(ecm_params_from_loads(&p, 64, odd, 4, 0, 1) == -1);
}

static void test_ecm__full(void)
{
	/* { T_OL || T_nOL | T_L1L2 | T_L2L3 | T_L3MEM } = { 8 || 9 | 6 | 6 | 13.06 }, memory at the
	 * saturated bandwidth 10 cy/CL */
	struct ecm_data d = { .n = 3, .mem_saturated_cy = 10 };
	const char *names[] = { "L2", "L3", "MEM" };
	const double cy[] = { 6, 6, 13.06 };
	for (int i = 0; i < 3; i++) {
		snprintf(d.t[i].name, sizeof(d.t[i].name), "%s", names[i]);
		d.t[i].cy = cy[i];
	}
	struct ecm_full f;
	ecm_full_compute(&d, 8, 9, &f);
	CHECK(f.ok && f.n == 3);
	CHECK(!strcmp(f.name[0], "T_L1L2") && !strcmp(f.name[1], "T_L2L3") && !strcmp(f.name[2], "T_L3MEM"));
	const double cum[] = { 9, 15, 21, 34.06 };
	for (int i = 0; i <= 3; i++)
		CHECK_NEAR(f.cum[i], cum[i], 1e-9);
	CHECK_NEAR(f.prediction, 34.06, 1e-9);
	CHECK_NEAR(f.t_mem, 10, 1e-9);
	CHECK(f.n_s == 4);
	CHECK_NEAR(ecm_full_cy_at(&f, 1), 34.06, 1e-9);
	CHECK_NEAR(ecm_full_cy_at(&f, 2), 17.03, 1e-9);
	CHECK_NEAR(ecm_full_cy_at(&f, 8), 10, 1e-9);
	/* the core bounds every level; without a saturated bandwidth memory is the last transfer */
	d.n = 2;
	d.mem_saturated_cy = 0;
	ecm_full_compute(&d, 20, 1, &f);
	CHECK_NEAR(f.cum[0], 20, 1e-9);
	CHECK_NEAR(f.cum[2], 20, 1e-9);
	CHECK_NEAR(f.t_mem, 6, 1e-9);
	CHECK(f.n_s == 4);
	/* a machine's memory domain: the NUMA domain, else the socket, else one core */
	struct machine m = { .cores_per_socket = 16 };
	CHECK(ecm_domain_cores(&m) == 16);
	m.cores_per_numa_domain = 4;
	CHECK(ecm_domain_cores(&m) == 4);
	m = (struct machine){ 0 };
	CHECK(ecm_domain_cores(&m) == 1);
}

/* ECMData with transfer costs fitted to synthetic one-core benchmarks made from known costs: the
 * fit recovers them, a negative cost is free, saturation takes the matching benchmark. */
static void test_ecm__fit(void)
{
	struct machine *m = calloc(1, sizeof(*m));
	m->clock_hz = 2e9;
	m->cacheline_bytes = 64;
	const char *lv[] = { "L1", "L2", "L3", "MEM" };
	m->nlevels = 4;
	for (int i = 0; i < 4; i++) {
		snprintf(m->level[i].name, sizeof(m->level[i].name), "%s", lv[i]);
		m->level[i].has_cache = i < 3;
		m->level[i].upstream_bytes_per_cy = 32;
	}
	m->level[3].upstream_is_memory = 1;
	m->level[3].cores_per_group = 2;
	/* name, read, write, read+write streams (Kerncraft: read and write include read+write) */
	struct { const char *name; int r, w, rw; } ks[] = { { "load", 1, 0, 0 }, { "store", 0, 1, 0 }, { "copy", 1, 1, 0 },
							     { "update", 1, 1, 1 }, { "triad", 3, 1, 0 } };
	const double cin[] = { 0, 0.6, 5.5, 4.5 }, cout[] = { 0, 2.5, -2.0, 3.0 };
	m->nkernels = 5;
	m->nbench = 4;
	for (int k = 0; k < 5; k++) {
		struct machine_bench_kernel *K = &m->kernel[k];
		snprintf(K->name, sizeof(K->name), "%s", ks[k].name);
		K->read_streams = ks[k].r;
		K->write_streams = ks[k].w;
		K->rw_streams = ks[k].rw;
		K->read_bytes = 8.0 * ks[k].r;
		K->write_bytes = 8.0 * ks[k].w;
		K->rw_bytes = 8.0 * ks[k].rw;
	}
	for (int i = 0; i < 4; i++) {
		struct machine_bench_level *B = &m->bench[i];
		snprintf(B->level, sizeof(B->level), "%s", lv[i]);
		B->ncores = 2;
		B->cores[0] = 1;
		B->cores[1] = 2;
		for (int k = 0; k < 5; k++) {
			const struct machine_bench_kernel *K = &m->kernel[k];
			double in = K->read_streams + K->write_streams - K->rw_streams, out = K->write_streams;
			double cy = 1.0 + 0.25 * k; /* in L1: anything */
			for (int j = 1; j <= i; j++)
				cy += in * cin[j] + out * cout[j];
			/* 8 iterations per cache line of work */
			B->bw[k][0] = 8 * (K->read_bytes + K->write_bytes) * m->clock_hz / cy;
			B->bw[k][1] = 2 * B->bw[k][0];
		}
	}
	struct ecm_fit fit;
	struct as_error err = { 0 };
	CHECK(model_ecm_fit(m, &fit, &err) == 3);
	CHECK(!fit.ok[0]);
	for (int i = 1; i < 4; i++) {
		CHECK(fit.ok[i] && fit.nkernels[i] == 5);
		CHECK_NEAR(fit.in[i], cin[i], 1e-9);
		CHECK_NEAR(fit.out[i], cout[i], 1e-9);
		CHECK(fit.rms[i] < 1e-9);
	}
	/* stream-like traffic: 3 lines in, 1 out at every level */
	struct cache_traffic tr = { 0 };
	tr.nlevels = 3;
	for (int i = 0; i < 3; i++) {
		tr.level[i].lines_in = 3;
		tr.level[i].lines_out = 1;
	}
	struct ecm_data e;
	CHECK(model_ecm_data(m, &tr, &fit, &e, &err) == 0);
	CHECK(e.n == 3);
	CHECK_NEAR(e.t[0].cy, 3 * 0.6 + 2.5, 1e-9);
	CHECK_NEAR(e.t[1].cy, 3 * 5.5 - 2.0, 1e-9);
	CHECK_NEAR(e.t[2].cy, 3 * 4.5 + 3.0, 1e-9);
	/* saturation: Kerncraft's rule picks copy (read/write 2 and triad's 4 tie for 3; first by name),
	 * its best (two-core) bandwidth with write-allocate (x 1.5): 4 lines of 64 B */
	CHECK_NEAR(e.mem_saturated_cy, 4 * 64 / (1.5 * m->bench[3].bw[2][1] / m->clock_hz), 1e-9);
	/* only evictions into L3: negative, so free */
	tr.level[1].lines_in = 0;
	CHECK(model_ecm_data(m, &tr, &fit, &e, &err) == 0);
	CHECK(e.t[1].cy == 0);
	/* without the fit: the upstream throughputs */
	CHECK(model_ecm_data(m, &tr, NULL, &e, &err) == 0);
	CHECK_NEAR(e.t[0].cy, 4 * 64 / 32.0, 1e-9);
	/* two kernels cannot determine two costs and a residual */
	m->nkernels = 2;
	CHECK(model_ecm_fit(m, &fit, &err) < 0);
	CHECK(strstr(err.msg, "3 or more kernels") != NULL);
	free(m);
}

TESTS(T(test_ecm__paper_core_i7), T(test_ecm__paper_core2), T(test_ecm__overlap_and_streams),
      T(test_ecm__calibration_from_loads), T(test_ecm__full), T(test_ecm__fit))
