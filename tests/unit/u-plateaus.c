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

/* The d_bytes and median_ns columns of a line-sharing.csv (d_bytes,min_ns,median_ns). */
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

TESTS(T(test_plateaus__synthetic_step), T(test_plateaus__partial_step_counts_as_fast), T(test_plateaus__flat_has_no_split),
      T(test_plateaus__rebound_lowers_confidence), T(test_plateaus__recorded_zen5_sharing))
