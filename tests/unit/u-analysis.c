/* Unit tests of src/analysis on synthetic curves (steps at known places, noise, outliers) and on
 * curves recorded from real machines (tests/fixtures). */
#include <stdlib.h>

#include "analysis/dist.h"
#include "analysis/steps.h"
#include "common/rng.h"
#include "report/csv.h"
#include "harness.h"

/* Deterministic noise in [-amp, amp]. */
static double noise(struct rng *r, double amp)
{
	return amp * (2.0 * (double)(rng_next(r) >> 11) / 9007199254740992.0 - 1.0);
}

static void test_analysis__monotone(void)
{
	double y[] = { 3, 1, 2, 5, 4, 6 }, m[6];
	steps_monotone(y, m, 6);
	double want[] = { 1, 1, 2, 4, 4, 6 };
	for (int i = 0; i < 6; i++)
		CHECK(m[i] == want[i]);
	for (int i = 1; i < 6; i++)
		CHECK(m[i] >= m[i - 1]);
}

static void test_analysis__first_step_contexts(void)
{
	/* Normalised time vs threads: flat to 4 contexts, then a jump and noisy growth. */
	struct rng r;
	rng_init(&r, 7);
	double y[10];
	for (int i = 0; i < 10; i++)
		y[i] = (i < 4 ? 1.0 : 2.0 + 0.3 * (i - 4)) + noise(&r, 0.02);
	struct step_answer a = steps_first(y, 10);
	CHECK(a.index == 3); /* last point before the step: 4 threads (index 3) */
	CHECK(a.confidence > 0.5);
}

static void test_analysis__first_step_none(void)
{
	double flat[] = { 1, 1, 1, 1 };
	CHECK(steps_first(flat, 4).index == -1);
	CHECK(steps_first(flat, 1).index == -1);
	/* Falling only: no step either. */
	double down[] = { 1.0, 0.9 };
	CHECK(steps_first(down, 2).index == -1);
}

static void test_analysis__first_step_single(void)
{
	/* The contexts probe stops once the time doubles: if that happens at M = 2 the curve has one
	 * step, which equals the mean, and it is the first step (one context). */
	double y[] = { 1.0, 2.1 };
	struct step_answer a = steps_first(y, 2);
	CHECK(a.index == 0);
	CHECK(a.confidence > 0 && a.confidence <= 1);
	/* Equal relative steps: the first one. */
	double lin[] = { 1.0, 2.0, 4.0 };
	CHECK(steps_first(lin, 3).index == 0);
}

static void test_analysis__biggest_relative_step_registers(void)
{
	/* Live ranges: flat, a slow rise, the spill step at 16, then smaller relative steps. */
	double y[40];
	for (int k = 0; k < 40; k++)
		y[k] = k < 14 ? 1.0 : k < 16 ? 1.1 : 3.0 + 0.2 * (k - 16);
	struct step_answer a = steps_biggest_relative(y, 40);
	CHECK(a.index == 15);
	CHECK(a.confidence > 0.8);
}

static void test_analysis__scaled_step_prefers_late_step(void)
{
	/* A relative step early and an equal-relative but higher step late: dY*Y picks the late one. */
	double y[] = { 1, 2, 2, 2, 4, 4 };
	CHECK(steps_biggest_relative(y, 6).index == 0);
	CHECK(steps_biggest_scaled(y, 6).index == 3);
}

static void test_analysis__qt_three_levels_with_noise(void)
{
	/* Latency vs size with three plateaus (1.5, 5, 20 ns) and a memory plateau (90 ns),
	 * 4 points per octave, 3 % noise and one outlier inside the L2 plateau (high, as an
	 * interrupt makes it: a latency is never measured below the level that serves it). */
	struct rng r;
	rng_init(&r, 11);
	double x[80], y[80];
	size_t n = 0;
	for (double s = 4096; s <= 256.0 * 1048576; s *= 1.189207115) {
		double lat = s <= 48 * 1024 ? 1.5 : s <= 2 * 1048576 ? 5 : s <= 8 * 1048576 ? 20 : 90;
		x[n] = s;
		y[n] = lat * (1 + noise(&r, 0.03));
		n++;
	}
	y[30] *= 3.0;
	double ym[80];
	steps_monotone(y, ym, n);
	struct qt_cluster c[16];
	int k = steps_qt_cluster(x, ym, n, 0.25, c, 16);
	CHECK(k >= 4);
	/* The four largest clusters, in y order, are the four plateaus. */
	int big = 0;
	double lat[4];
	double size[4];
	for (int i = 0; i < k; i++)
		if (c[i].points >= 4 && big < 4) {
			lat[big] = c[i].min_y;
			size[big] = c[i].max_x;
			big++;
		}
	CHECK(big == 4);
	CHECK_NEAR(lat[0], 1.5, 0.1);
	CHECK_NEAR(lat[1], 5, 0.3);
	CHECK_NEAR(lat[2], 20, 1.0);
	CHECK_NEAR(lat[3], 90, 5);
	CHECK(size[0] <= 48 * 1024 && size[0] > 32 * 1024);
	CHECK(size[1] <= 2 * 1048576 && size[1] > 1400 * 1024);
	CHECK(size[2] <= 8 * 1048576 && size[2] > 5 * 1048576);
	for (int i = 1; i < k; i++)
		CHECK(c[i].min_y >= c[i - 1].min_y);
}

static void test_analysis__qt_diameter_rule(void)
{
	/* 10 and 12: diameter 2 <= 0.25*10 joins. 10 and 14: 4 > 0.25*10 from 10's side and
	 * 4 > 0.25*14 = 3.5 from 14's side, so two clusters. */
	double x[] = { 1, 2 }, a[] = { 10, 12 }, b[] = { 10, 14 };
	struct qt_cluster c[4];
	CHECK(steps_qt_cluster(x, a, 2, 0.25, c, 4) == 1);
	CHECK(steps_qt_cluster(x, b, 2, 0.25, c, 4) == 2);
	CHECK(steps_qt_cluster(x, b, 0, 0.25, c, 4) == -1);
	double bad[] = { 1, NAN };
	CHECK(steps_qt_cluster(x, bad, 2, 0.25, c, 4) == -1);
}

/* --- curves recorded on a KVM guest of a Xeon family 6 model 207 (tests/fixtures/kvm-xeon-6-207,
 * `archscope probe --raw DIR --seed 12345`; probe.txt holds what the probe printed). The OS
 * reports L1d 48 KiB 12-way, L2 2 MiB 16-way, L3 260 MiB, 64 B lines, 4 KiB pages. */

struct fixture {
	double *x, *y;
	size_t n;
};

static int load(const char *name, struct fixture *f)
{
	char path[512];
	struct as_error err = { 0 };
	snprintf(path, sizeof(path), "%s/tests/fixtures/kvm-xeon-6-207/%s", ARCHSCOPE_SOURCE_DIR, name);
	if (csv_read_xy(path, &f->x, &f->y, &f->n, &err) != 0) {
		printf("# %s\n", err.msg);
		return -1;
	}
	return 0;
}

static void release(struct fixture *f)
{
	free(f->x);
	free(f->y);
}

static void test_analysis__recorded_line(void)
{
	struct fixture f;
	CHECK(load("line.csv", &f) == 0);
	double *y = malloc(f.n * sizeof(double));
	steps_monotone(f.y, y, f.n);
	struct step_answer a = steps_biggest_relative(y, f.n);
	CHECK(a.index >= 0);
	CHECK(f.x[a.index] == 64);
	CHECK(a.confidence > 0.5);
	free(y);
	release(&f);
}

static void test_analysis__recorded_caches(void)
{
	struct fixture f;
	CHECK(load("caches.csv", &f) == 0);
	struct level lv[8];
	double mem_min, mem_last;
	int k = steps_hierarchy(f.x, f.y, f.n, lv, 8, &mem_min, &mem_last);
	CHECK(k == 3);
	CHECK(lv[0].size == 48 * 1024);
	CHECK(lv[1].size == 2 * 1048576);
	/* The effective last level: far below the advertised 260 MiB on this shared host. */
	CHECK(lv[2].size > 4 * 1048576 && lv[2].size < 260.0 * 1048576);
	CHECK(lv[0].latency < lv[1].latency && lv[1].latency < lv[2].latency);
	CHECK(isfinite(mem_last) && mem_last > 2 * lv[2].latency);
	release(&f);
}

static void test_analysis__recorded_assoc_l1(void)
{
	struct fixture f;
	CHECK(load("assoc-L1.csv", &f) == 0);
	double conf;
	int si;
	/* Latencies of L1 and L2 from the recorded caches curve (probe.txt): 1.43 and 4.58 ns. */
	double ways = steps_assoc_ways(f.x, f.y, f.n, 1.43, 4.58, &conf, &si);
	CHECK(ways == 12);
	CHECK(conf > 0.5);
	/* Demanding a next level far slower than what the step reaches rejects the step. */
	CHECK(isnan(steps_assoc_ways(f.x, f.y, f.n, 1.43, 40.0, &conf, &si)));
	release(&f);
}

static void test_analysis__recorded_assoc_l1_noisy_end(void)
{
	/* A run whose last K before the step rose (1.69 ns up to 3.0 ns at K = 12: a full set loses a
	 * line to any other access): still 12 ways. Latencies from that run: L1 1.67, L2 5.26 ns. */
	struct fixture f;
	CHECK(load("assoc-L1-noisy.csv", &f) == 0);
	double conf;
	int si;
	CHECK(steps_assoc_ways(f.x, f.y, f.n, 1.67, 5.26, &conf, &si) == 12);
	release(&f);
}

static void test_analysis__recorded_assoc_l2_has_no_step(void)
{
	/* In this guest the L2's sets do not line up with virtual addresses: no honest step. */
	struct fixture f;
	CHECK(load("assoc-L2.csv", &f) == 0);
	double conf;
	int si;
	CHECK(isnan(steps_assoc_ways(f.x, f.y, f.n, 4.58, 15.77, &conf, &si)));
	release(&f);
}

static void test_analysis__recorded_assoc_l2_gradual(void)
{
	/* Another run in the same guest (huge pages asked for, level 1.75 MiB at 5.18 ns, L3 at
	 * 16.37 ns): the curve climbs from 5.1 to 15.9 ns over K = 1..35, then jumps to 34.6 ns. The
	 * jump is big, but the curve had left the level's latency long before: no associativity. */
	struct fixture f;
	CHECK(load("assoc-L2-gradual.csv", &f) == 0);
	double conf;
	int si;
	CHECK(isnan(steps_assoc_ways(f.x, f.y, f.n, 5.18, 16.37, &conf, &si)));
	release(&f);
}

static void test_analysis__first_significant(void)
{
	/* Strides 256 B .. 256 KiB: a prefetcher bump after 256 B (8 %), the page step after 4 KiB
	 * (30 %), the PTE-line step after 32 KiB (20 %). Plain first step takes the bump. */
	double y[] = { 20.0, 21.6, 21.6, 21.6, 21.6, 28.1, 28.1, 28.1, 33.7, 33.7, 33.7 };
	size_t n = sizeof(y) / sizeof(y[0]);
	CHECK(steps_first(y, n).index == 0);
	struct step_answer a = steps_first_significant(y, n, 1.0 / 3.0);
	CHECK(a.index == 4);
	CHECK(a.confidence > 0.5 && a.confidence < 1);
	/* Without the bump the answer is the plain first step's. */
	y[1] = y[2] = y[3] = y[4] = 20.0;
	CHECK(steps_first_significant(y, n, 1.0 / 3.0).index == steps_first(y, n).index);
	double flat[] = { 5, 5, 5 };
	CHECK(steps_first_significant(flat, 3, 0.5).index == -1);
}

static void test_analysis__recorded_tlb(void)
{
	struct fixture page, pages, ctl;
	CHECK(load("tlb-page.csv", &page) == 0);
	double *y = malloc(page.n * sizeof(double));
	steps_monotone(page.y, y, page.n);
	struct step_answer a = steps_first(y, page.n);
	CHECK(a.index >= 0 && page.x[a.index] == 4096);
	free(y);
	release(&page);
	CHECK(load("tlb-entries.csv", &pages) == 0);
	CHECK(load("tlb-control.csv", &ctl) == 0);
	CHECK(pages.n == ctl.n);
	struct level lv[8];
	double base, walk;
	int k = steps_tlb_levels(pages.x, pages.y, ctl.y, pages.n, lv, 8, &base, &walk);
	CHECK(k == 2);
	CHECK(lv[0].size == 96);
	CHECK(lv[1].size == 2048);
	CHECK(isfinite(walk) && walk > lv[1].latency);
	release(&pages);
	release(&ctl);
}


static void test_analysis__knee_synthetic(void)
{
	/* Cost per iteration y0 max(1, s/F) for 1..20 streams, 3 % noise and one slow outlier in the
	 * flat part: the fit finds F. */
	struct rng r;
	rng_init(&r, 11);
	static const int fs[] = { 1, 3, 5, 8, 13 };
	for (size_t k = 0; k < sizeof(fs) / sizeof(fs[0]); k++) {
		double y[20];
		for (int s = 1; s <= 20; s++)
			y[s - 1] = 10.0 * (s > fs[k] ? (double)s / fs[k] : 1.0) * (1 + noise(&r, 0.03));
		if (fs[k] > 3)
			y[1] *= 1.10;
		double conf;
		int f = steps_knee_proportional(y, 20, &conf);
		CHECK(f == fs[k]);
		CHECK(conf > 0.5);
	}
	double conf;
	CHECK(steps_knee_proportional(NULL, 3, &conf) == -1);
	/* Flat to the end: at least n in flight. */
	double flat[6] = { 5, 5, 5, 5, 5, 5 };
	CHECK(steps_knee_proportional(flat, 6, &conf) == 6);
}

static void test_analysis__first_rise_synthetic(void)
{
	/* Live ranges on a wide core: falling while latency-bound, flat while the variables fit, a
	 * creeping rise after the first spill at K = 16 (the biggest relative step would be the
	 * latency-bound start or a later jump). */
	double y[60];
	for (int k = 3; k < 63; k++) {
		double v = k < 8 ? 2.0 / (k / 2) : 0.5;
		if (k > 16)
			v = 0.5 * (1 + 0.04 * (k - 16));
		y[k - 3] = v;
	}
	y[8] = 0.6; /* a slow outlier while the variables fit: the monotone curve ignores it */
	struct step_answer a = steps_first_rise(y, 60, 0.03);
	CHECK(a.index >= 0);
	CHECK(a.index + 3 == 16);
	double flat[10] = { 1, 0.5, 0.5, 0.505, 0.51, 0.5, 0.51, 0.505, 0.5, 0.5 };
	CHECK(steps_first_rise(flat, 10, 0.03).index == -1);
	CHECK(steps_first_rise(flat, 2, 0.03).index == -1);
}

static void test_analysis__recorded_instr_knee(void)
{
	/* Cost per iteration of 1..20 streams; published latency x throughput: int add 1 x 5 (the
	 * loop's own adds share the five ALUs), double fma 4 x 2, double div 13 / 4. */
	struct fixture f;
	double conf;
	CHECK(load("instr-add-int32-32.csv", &f) == 0);
	int add = steps_knee_proportional(f.y, f.n, &conf);
	release(&f);
	CHECK(add >= 4 && add <= 5);
	CHECK(load("instr-fma-double-64.csv", &f) == 0);
	int fma = steps_knee_proportional(f.y, f.n, &conf);
	release(&f);
	CHECK(fma >= 6 && fma <= 10);
	CHECK(load("instr-div-double-64.csv", &f) == 0);
	int div = steps_knee_proportional(f.y, f.n, &conf);
	release(&f);
	CHECK(div >= 2 && div <= 4);
}

static void test_analysis__recorded_registers(void)
{
	/* 16 general-purpose registers less the stack pointer; 16 vector registers without AVX-512;
	 * with AVX-512 the spills after 32 cost nothing measurable until far later. */
	struct fixture f;
	CHECK(load("registers-int-wide.csv", &f) == 0);
	struct step_answer a = steps_first_rise(f.y, f.n, 0.03);
	double k = a.index >= 0 ? f.x[a.index] : -1;
	release(&f);
	CHECK(k >= 13 && k <= 15);
	CHECK(load("registers-fp-narrow.csv", &f) == 0);
	a = steps_first_rise(f.y, f.n, 0.03);
	k = a.index >= 0 ? f.x[a.index] : -1;
	release(&f);
	CHECK(k >= 15 && k <= 17);
	CHECK(load("registers-fp-wide.csv", &f) == 0);
	a = steps_first_rise(f.y, f.n, 0.03);
	k = a.index >= 0 ? f.x[a.index] : -1;
	release(&f);
	CHECK(k >= 32);
}

static void test_analysis__dist_mode_of_gaps(void)
{
	/* Scheduler gaps: many short interrupts (20-60 us), a peak of time slices near 4 ms, a few
	 * long waits. The mode is the slice, reported as a measured value inside its bin. */
	struct rng r;
	rng_init(&r, 5);
	double v[600];
	size_t n = 0;
	for (int i = 0; i < 150; i++)
		v[n++] = 20 + 40 * (double)(rng_next(&r) >> 11) / 9007199254740992.0;
	for (int i = 0; i < 400; i++)
		v[n++] = 4000 * (1 + noise(&r, 0.01));
	for (int i = 0; i < 50; i++)
		v[n++] = 8000 + 4000 * (double)(rng_next(&r) >> 11) / 9007199254740992.0;
	struct dist_mode m;
	CHECK(dist_mode_log(v, n, 20, &m) == 0);
	CHECK_NEAR(m.value, 4000, 40);
	CHECK(m.lo <= m.value && m.value < m.hi);
	/* the peak straddles a bin edge (3981 us), so its bin holds part of it; still far more
	 * than any bin of the interrupts (150 over ~10 bins) or the long waits */
	CHECK(m.count >= 150);
	CHECK(dist_mode_log(v, 0, 20, &m) == -1);
	double neg[] = { -1, 0 };
	CHECK(dist_mode_log(neg, 2, 20, &m) == -1);
	double sorted[] = { 1, 2, 3, 4, 5 };
	CHECK(dist_quantile_sorted(sorted, 5, 0.5) == 3);
	CHECK(dist_quantile_sorted(sorted, 5, 0.25) == 2);
	CHECK(dist_quantile_sorted(sorted, 5, 1.0) == 5);
}

TESTS(T(test_analysis__knee_synthetic), T(test_analysis__first_rise_synthetic), T(test_analysis__recorded_instr_knee),
      T(test_analysis__recorded_registers), T(test_analysis__dist_mode_of_gaps), T(test_analysis__recorded_line), T(test_analysis__recorded_caches), T(test_analysis__recorded_assoc_l1),
      T(test_analysis__recorded_assoc_l1_noisy_end), T(test_analysis__recorded_assoc_l2_has_no_step), T(test_analysis__recorded_assoc_l2_gradual), T(test_analysis__first_significant), T(test_analysis__recorded_tlb), T(test_analysis__monotone), T(test_analysis__first_step_contexts), T(test_analysis__first_step_none), T(test_analysis__first_step_single),
      T(test_analysis__biggest_relative_step_registers), T(test_analysis__scaled_step_prefers_late_step),
      T(test_analysis__qt_three_levels_with_noise), T(test_analysis__qt_diameter_rule))
