/* Unit tests of phases' segmented regression (src/analysis/segments.c) on synthetic footprints
 * with known breakpoints: noise, outliers, a flat program, more than two phases, too few points. */
#include <errno.h>
#include <stdlib.h>

#include "analysis/segments.h"
#include "common/rng.h"
#include "report/csv.h"
#include "harness.h"

#define FIX ARCHSCOPE_SOURCE_DIR "/tests/fixtures/measure/"

/* Deterministic noise in [-amp, amp]. */
static double noise(struct rng *r, double amp)
{
	return amp * (2.0 * (double)(rng_next(r) >> 11) / 9007199254740992.0 - 1.0);
}

/* A footprint sampled every dt s: a ramp of `rate` B/s up to t_ramp, then flat, plus noise. */
static void ramp_series(double *t, double *y, size_t n, double dt, double t_ramp, double rate, double amp,
			unsigned seed)
{
	struct rng r;
	rng_init(&r, seed);
	for (size_t i = 0; i < n; i++) {
		t[i] = dt * (double)(i + 1);
		y[i] = 4e6 + rate * (t[i] < t_ramp ? t[i] : t_ramp) + noise(&r, amp);
	}
}

static void test_phases__ramp_exact(void)
{
	double t[300], y[300];
	ramp_series(t, y, 300, 0.01, 1.234, 1e9, 0, 1);
	struct segments_fit f;
	struct as_error err = { 0 };
	CHECK(segments_fit(t, y, 300, 2, &f, &err) == 0);
	CHECK(f.k == 2);
	CHECK_NEAR(f.bp[0], 1.234, 0.002);
	CHECK_NEAR(f.slope[0], 1e9, 1e6);
	CHECK_NEAR(f.slope[1], 0, 1e6);
	CHECK(f.outliers == 0);
	CHECK_NEAR(segments_eval(&f, 2.0), 4e6 + 1.234e9, 1e6);
}

static void test_phases__ramp_noise(void)
{
	/* 1 GB/s for 2 s, then 6 s flat; noise +-20 MB (1 % of the plateau) */
	size_t n = 800;
	double *t = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
	ramp_series(t, y, n, 0.01, 2.0, 1e9, 2e7, 2);
	struct segments_fit f;
	struct as_error err = { 0 };
	CHECK(segments_fit(t, y, n, 2, &f, &err) == 0);
	CHECK_NEAR(f.bp[0], 2.0, 0.05);
	CHECK(f.bp_lo[0] <= 2.0 && f.bp_hi[0] >= 2.0); /* the interval holds the true breakpoint */
	CHECK(f.bp_hi[0] - f.bp_lo[0] < 0.2);
	CHECK_NEAR(f.slope[0], 1e9, 3e7);
	CHECK_NEAR(f.sigma, 2e7 / sqrt(3.0), 3e6); /* uniform noise: sd = amp / sqrt 3 */
	free(t);
	free(y);
}

static void test_phases__ramp_outliers(void)
{
	size_t n = 600;
	double *t = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
	ramp_series(t, y, n, 0.01, 1.5, 5e8, 1e6, 3);
	/* 10 spikes (a page cache burst, a reading between fork and exec) far above and below */
	for (size_t i = 20; i < n; i += 60)
		y[i] += (i % 120 ? 3e8 : -2e8);
	struct segments_fit f;
	struct as_error err = { 0 };
	CHECK(segments_fit(t, y, n, 2, &f, &err) == 0);
	CHECK(f.outliers == 10);
	CHECK_NEAR(f.bp[0], 1.5, 0.02);
	CHECK_NEAR(f.slope[1], 0, 5e6);
	free(t);
	free(y);
}

static void test_phases__flat(void)
{
	/* a program whose footprint does not change: auto finds one segment with no slope */
	double t[200], y[200];
	ramp_series(t, y, 200, 0.01, 0, 0, 4096, 4);
	struct segments_fit f;
	double bic[SEGMENTS_MAX];
	struct as_error err = { 0 };
	CHECK(segments_fit_auto(t, y, 200, 6, &f, bic, &err) == 0);
	CHECK(f.k == 1);
	CHECK_NEAR(f.slope[0], 0, 1e4);
	for (int k = 2; k <= 6; k++)
		CHECK(bic[k - 1] > bic[0]);
	/* exactly constant: every fit is exact; one segment still wins */
	for (int i = 0; i < 200; i++)
		y[i] = 8192;
	CHECK(segments_fit_auto(t, y, 200, 6, &f, NULL, &err) == 0);
	CHECK(f.k == 1);
	CHECK(f.slope[0] == 0);
}

static void test_phases__three_phases_auto(void)
{
	/* ramp to 0.5 s, flat to 1.5 s, a second allocation to 2 s, flat to 3 s */
	size_t n = 300;
	double t[300], y[300];
	struct rng r;
	rng_init(&r, 5);
	for (size_t i = 0; i < n; i++) {
		double x = 0.01 * (double)(i + 1);
		t[i] = x;
		y[i] = 2e8 * fmin(x, 0.5) + 4e8 * fmax(0, fmin(x, 2.0) - 1.5) + noise(&r, 2e6);
	}
	struct segments_fit f;
	struct as_error err = { 0 };
	CHECK(segments_fit_auto(t, y, n, 6, &f, NULL, &err) == 0);
	CHECK(f.k == 4);
	CHECK_NEAR(f.bp[0], 0.5, 0.02);
	CHECK_NEAR(f.bp[1], 1.5, 0.02);
	CHECK_NEAR(f.bp[2], 2.0, 0.02);
	for (int j = 0; j < 3; j++)
		CHECK(f.bp[j] < f.bp[j + 1] || j == 2);
}

static void test_phases__too_short(void)
{
	double t[4] = { 0.01, 0.02, 0.03, 0.04 }, y[4] = { 1, 2, 3, 3 };
	struct segments_fit f;
	struct as_error err = { 0 };
	CHECK(segments_fit(t, y, 4, 2, &f, &err) == -ERANGE);
	CHECK(strstr(err.msg, "at least 5 points") != NULL);
	CHECK(segments_fit_auto(t, y, 2, 6, &f, NULL, &err) == -ERANGE);
	double bad[5] = { 0, 1, 1, 2, 3 };
	double yy[5] = { 0 };
	CHECK(segments_fit(bad, yy, 5, 2, &f, &err) == -EINVAL);
}

/* Footprints recorded by phases on the 2-core KVM guest under load (tests/fixtures/measure). */
static void test_phases__recorded_ramp(void)
{
	double *t, *y;
	size_t n;
	struct as_error err = { 0 };
	CHECK(csv_read_xy(FIX "phases-ramp-compute-amd-zen5-26-2.txt", &t, &y, &n, &err) == 0);
	CHECK(n > 200);
	struct segments_fit f;
	int rc = segments_fit(t, y, n, 2, &f, &err);
	free(t);
	free(y);
	CHECK(rc == 0);
	/* the program said its ramp ended at 1.9157 s of a 2.5245 s run */
	CHECK_NEAR(f.bp[0], 1.9157, 0.10 * 2.5245);
	CHECK(f.slope[0] > 15e6 && fabs(f.slope[1]) < 1e6);
}

static void test_phases__recorded_child_teardown(void)
{
	/* sh runs ramp-compute (ramp to 0.9564 s, end 1.4678 s), then sleep 0.3: the child's exit
	 * takes its 32 MiB away; auto gives that drop a segment of its own */
	double *t, *y;
	size_t n;
	struct as_error err = { 0 };
	CHECK(csv_read_xy(FIX "phases-sh-ramp-sleep-amd-zen5-26-2.txt", &t, &y, &n, &err) == 0);
	struct segments_fit f;
	double bic[SEGMENTS_MAX];
	int rc = segments_fit_auto(t, y, n, 6, &f, bic, &err);
	double dur = t[n - 1];
	free(t);
	free(y);
	CHECK(rc == 0);
	CHECK(f.k >= 3);
	/* the start-up (sh, the loader) may get a segment too: some breakpoint is the ramp's end */
	int ramp_end = 0;
	for (int j = 0; j < f.k - 1; j++)
		ramp_end |= fabs(f.bp[j] - 0.9564) <= 0.10 * dur;
	CHECK(ramp_end);
	int drop = 0;
	for (int j = 1; j < f.k; j++)
		drop |= f.slope[j] < -100e6 && f.bp[j - 1] > 1.3 && f.bp[j - 1] < 1.6;
	CHECK(drop);
	CHECK(bic[f.k - 1] <= bic[1]);
}

TESTS(T(test_phases__ramp_exact), T(test_phases__ramp_noise), T(test_phases__ramp_outliers), T(test_phases__flat),
      T(test_phases__three_phases_auto), T(test_phases__too_short), T(test_phases__recorded_ramp),
      T(test_phases__recorded_child_teardown))
