/* Unit tests of the ECM model for streaming kernels against the ECM paper's Table 2 (Core 2 and
 * Core i7 columns) and Table 3 (the Intel L1 and L2 parts of a store), of the calibration from
 * load-kernel measurements, and of the full model's sums, saturation and scaling. */
#include <stdio.h>
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

TESTS(T(test_ecm__paper_core_i7), T(test_ecm__paper_core2), T(test_ecm__overlap_and_streams),
      T(test_ecm__calibration_from_loads), T(test_ecm__full))
