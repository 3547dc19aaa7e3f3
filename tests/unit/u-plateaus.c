/* Unit tests of analysis/plateaus.c: where a falling curve reaches its second plateau, on
 * synthetic curves and on the coherence witness recorded on a Zen 5 guest. */
#include "analysis/plateaus.h"
#include "harness.h"

static void test_plateaus__synthetic_step(void)
{
	double y[] = { 40, 41, 39, 40, 3, 3.1, 2.9, 3 }; /* 8..1024 B, line 64 B */
	struct plateau_split s;
	plateaus_split_falling(y, 8, 2, &s);
	CHECK(s.index == 4);
	CHECK(s.ratio > 10);
	CHECK(s.confidence > 0.9);
}

static void test_plateaus__partial_step_counts_as_fast(void)
{
	/* An adjacent-line prefetcher can slow D = 64 B a little (the line beside the other
	 * thread's): on a log scale 6 ns sits with the fast plateau (4 ns), not the slow one (80). */
	double y[] = { 80, 82, 79, 6, 4, 4.1, 3.9, 4 };
	struct plateau_split s;
	plateaus_split_falling(y, 8, 2, &s);
	CHECK(s.index == 3);
}

static void test_plateaus__flat_has_no_split(void)
{
	double y[] = { 5, 5.2, 4.9, 5.1, 5, 5.05, 4.95, 5 };
	struct plateau_split s;
	plateaus_split_falling(y, 8, 2, &s);
	CHECK(s.index == -1);
	CHECK(s.confidence == 0);
	double bad[] = { 5, -1, 3 };
	plateaus_split_falling(bad, 3, 2, &s);
	CHECK(s.index == -1);
}

static void test_plateaus__rebound_lowers_confidence(void)
{
	double clean[] = { 40, 40, 40, 4, 4, 4, 4, 4 }, rebound[] = { 40, 40, 40, 4, 30, 4, 4, 4 };
	struct plateau_split a, b;
	plateaus_split_falling(clean, 8, 2, &a);
	plateaus_split_falling(rebound, 8, 2, &b);
	CHECK(a.index == 3 && b.index == 3);
	CHECK(b.confidence < a.confidence);
}

/* The x and median columns of a three-column curve (x,min_ns,median_ns). */
static size_t read_sharing(const char *path, double *x, double *y, size_t max)
{
	FILE *f = fopen(path, "r");
	char line[256];
	size_t n = 0;
	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		double d, lo, med;
		if (sscanf(line, "%lf,%lf,%lf", &d, &lo, &med) == 3) {
			x[n] = d;
			y[n] = med;
			n++;
		}
	}
	fclose(f);
	return n;
}

static void test_plateaus__recorded_zen5_sharing(void)
{
	/* AMD Zen 5 guest: the stride witness sees 256 B there (prefetchers); the coherence unit
	 * is 64 B in each of the three recorded runs. */
	const char *runs[] = { "run1", "run2", "run3" };
	for (int r = 0; r < 3; r++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/tests/fixtures/amd-zen5-26-2/%s/line-sharing.csv", ARCHSCOPE_SOURCE_DIR,
			 runs[r]);
		double x[16], y[16];
		size_t n = read_sharing(path, x, y, 16);
		CHECK(n == 8);
		struct plateau_split s;
		plateaus_split_falling(y, n, 2, &s);
		CHECK(s.index > 0);
		CHECK_NEAR(x[s.index], 64, 0);
		CHECK(s.confidence > 0.8);
	}
}

static void test_plateaus__doubling_end_synthetic(void)
{
	/* 512 B .. 256 KiB: a fault every page of 4 KiB, 16 KiB or 64 KiB, 10 us each, 2 % noise */
	double x[10], y[10];
	static const double pages[] = { 4096, 16384, 65536 };
	static const double noise[] = { 1.02, 0.98, 1.01, 0.99, 1.0, 1.02, 0.97, 1.01, 1.0, 0.99 };
	for (int p = 0; p < 3; p++) {
		for (int i = 0; i < 10; i++) {
			x[i] = 512.0 * (1 << i);
			y[i] = 10000.0 * (x[i] < pages[p] ? x[i] / pages[p] : 1.0) * noise[i];
		}
		struct doubling_end d;
		plateaus_doubling_end(x, y, 10, &d);
		CHECK(d.index >= 0);
		CHECK(x[d.index] == pages[p]);
		CHECK(d.confidence > 0.9);
	}
	/* one point far off (a busy neighbour) does not move it */
	for (int i = 0; i < 10; i++)
		y[i] = 10000.0 * (x[i] < 4096 ? x[i] / 4096 : 1.0);
	y[2] *= 1.5;
	y[6] *= 1.8;
	struct doubling_end d;
	plateaus_doubling_end(x, y, 10, &d);
	CHECK(d.index == 3);
	/* flat, and doubling to the end: no answer */
	for (int i = 0; i < 10; i++)
		y[i] = 100;
	plateaus_doubling_end(x, y, 10, &d);
	CHECK(d.index == -1);
	for (int i = 0; i < 10; i++)
		y[i] = x[i];
	plateaus_doubling_end(x, y, 10, &d);
	CHECK(d.index == -1);
}

static void test_plateaus__recorded_zen5_faults(void)
{
	/* the fault witness of the TLB page size on the Zen 5 guest: 4 KiB in each run (run 2 was
	 * taken while another process built the project: its 1 and 2 KiB points are 40-50 % high) */
	const char *runs[] = { "run1", "run2", "run3" };
	for (int r = 0; r < 3; r++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/tests/fixtures/amd-zen5-26-2/%s/tlb-faults.csv", ARCHSCOPE_SOURCE_DIR, runs[r]);
		double x[16], y[16];
		size_t n = read_sharing(path, x, y, 16);
		CHECK(n == 10);
		struct doubling_end d;
		plateaus_doubling_end(x, y, n, &d);
		CHECK(d.index >= 0);
		CHECK_NEAR(x[d.index], 4096, 0);
	}
}

TESTS(T(test_plateaus__doubling_end_synthetic), T(test_plateaus__recorded_zen5_faults), T(test_plateaus__synthetic_step), T(test_plateaus__partial_step_counts_as_fast), T(test_plateaus__flat_has_no_split),
      T(test_plateaus__rebound_lowers_confidence), T(test_plateaus__recorded_zen5_sharing))
