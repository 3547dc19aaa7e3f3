/* Unit tests of the comparison statistics on synthetic data with known answers: Welch's t, df and
 * p (a published example; closed forms of the t tail for df 1 and 2; numerical integration of the
 * t density; the false-positive rate under unequal variances), Benjamini–Hochberg, Hedges' g and
 * the ratio interval's coverage (seeded normal samples). */
#include <math.h>
#include <stdlib.h>

#include "analysis/stats.h"
#include "common/rng.h"
#include "harness.h"

static void sample(const double *v, size_t n, struct stats_sample *s)
{
	stats_sample(v, n, s);
}

/* Wikipedia's "Welch's t-test" example 1: t = -2.46, p = 0.021 (A1 against A2); its df, printed as
 * 24.9, is 24.9885 by the formula (Python's statistics module, by hand). */
static void test_stats__welch_published(void)
{
	const double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	const double a2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	struct stats_sample a, b;
	sample(a2, 15, &a);
	sample(a1, 15, &b);
	struct stats_welch w;
	CHECK(stats_welch_t(&a, &b, &w) == 0);
	CHECK_NEAR(w.t, -2.46, 0.005);
	CHECK_NEAR(w.df, 24.9885, 0.0001);
	CHECK_NEAR(w.p, 0.021, 0.0005);
	CHECK(!w.exact);
}

/* The t density integrated by Simpson's rule from |t| to far out: an independent p value. */
static double t_tail_numeric(double t, double df)
{
	double c = exp(lgamma((df + 1) / 2) - lgamma(df / 2)) / sqrt(df * M_PI);
	/* substitute x = |t| + u / (1 - u), u in [0, 1) */
	int n = 200000;
	double h = 1.0 / n, sum = 0;
	for (int i = 0; i <= n; i++) {
		double u = i * h;
		if (u >= 1)
			continue;
		double x = fabs(t) + u / (1 - u);
		double f = c * pow(1 + x * x / df, -(df + 1) / 2) / ((1 - u) * (1 - u));
		sum += f * (i == 0 || i == n ? 1 : i % 2 ? 4 : 2);
	}
	return 2 * sum * h / 3;
}

static void test_stats__welch_exact_p(void)
{
	/* df = 2 exactly: two values each, equal variances; p = 1 - |t| / sqrt(t^2 + 2) */
	const double a[] = { 0, 2 }, b[] = { 3, 5 };
	struct stats_sample sa, sb;
	sample(a, 2, &sa);
	sample(b, 2, &sb);
	struct stats_welch w;
	CHECK(stats_welch_t(&sa, &sb, &w) == 0);
	CHECK_NEAR(w.df, 2, 1e-12);
	CHECK_NEAR(w.t, 3 / sqrt(2), 1e-12);
	CHECK_NEAR(w.p, 1 - w.t / sqrt(w.t * w.t + 2), 1e-12);
	/* a non-integer df against the integrated density */
	const double c[] = { 10, 12, 11, 15, 9 }, d[] = { 14, 13, 19, 21, 16, 18, 25 };
	sample(c, 5, &sa);
	sample(d, 7, &sb);
	CHECK(stats_welch_t(&sa, &sb, &w) == 0);
	CHECK(w.df > 9 && w.df < 10);
	CHECK_NEAR(w.p, t_tail_numeric(w.t, w.df), 1e-6);
	/* NaN values (not counted) are left out, not read as 0 */
	const double e[] = { 10, NAN, 12, 11, 15, 9 };
	struct stats_sample se;
	sample(e, 6, &se);
	CHECK(se.n == 5 && se.mean == sa.mean && se.var == sa.var);
}

static void test_stats__zero_variance(void)
{
	const double k5[] = { 5, 5, 5 }, k7[] = { 7, 7, 7, 7 };
	struct stats_sample a, b;
	struct stats_welch w;
	sample(k5, 3, &a);
	sample(k5, 3, &b);
	CHECK(stats_welch_t(&a, &b, &w) == 0 && w.exact && w.p == 1 && w.t == 0);
	sample(k7, 4, &b);
	CHECK(stats_welch_t(&a, &b, &w) == 0 && w.exact && w.p == 0 && isinf(w.t) && w.t > 0);
	CHECK(stats_hedges_g(&a, &b) == INFINITY);
	/* one side constant, the other not: an ordinary Welch test with df from the noisy side */
	const double n7[] = { 6, 7, 8, 7 };
	sample(n7, 4, &b);
	CHECK(stats_welch_t(&a, &b, &w) == 0 && !w.exact);
	CHECK_NEAR(w.df, 3, 1e-12);
	/* a single value: no test */
	sample(k5, 1, &a);
	CHECK(stats_welch_t(&a, &b, &w) == -1 && isnan(w.p));
}

/* Values near the double's range (found by fuzz-statjson, tests/fixtures/fuzz/): the variance's
 * square overflowed in the degrees of freedom and GSL aborted the process on df NaN. Now a finite
 * variance gives a test, an infinite one none. */
static void test_stats__huge_values(void)
{
	const double big[] = { 74.662, 111.531, 8.3e105, 30.0, 31.0 }, small[] = { 101, 101, 102, 101, 101 };
	const double inf_var[] = { 1e200, -1e200, 1 };
	struct stats_sample a, b;
	struct stats_welch w;
	double lo, hi;
	sample(small, 5, &a);
	sample(big, 5, &b);
	CHECK(stats_welch_t(&a, &b, &w) == 0 && isfinite(w.df) && w.df >= 4 - 1e-9 && w.df <= 8 && w.p > 0 && w.p <= 1);
	CHECK(stats_welch_t(&b, &a, &w) == 0 && isfinite(w.p));
	stats_ratio_ci(&a, &b, 0.95, &lo, &hi);
	CHECK(isfinite(lo) && isfinite(hi) && lo <= hi);
	sample(inf_var, 3, &b);
	CHECK(isinf(b.var));
	CHECK(stats_welch_t(&a, &b, &w) == -1 && isnan(w.p));
	stats_ratio_ci(&a, &b, 0.95, &lo, &hi);
	CHECK(isnan(lo) && isnan(hi));
	stats_hedges_g(&a, &b);
}

static void test_stats__bh(void)
{
	const double p[] = { 0.01, 0.04, 0.03, 0.005, NAN };
	double q[5];
	CHECK(stats_bh(p, 5, q) == 4);
	CHECK_NEAR(q[0], 0.02, 1e-12);
	CHECK_NEAR(q[1], 0.04, 1e-12);
	CHECK_NEAR(q[2], 0.04, 1e-12);
	CHECK_NEAR(q[3], 0.02, 1e-12);
	CHECK(isnan(q[4]));
	const double big[] = { 0.9, 0.8 };
	CHECK(stats_bh(big, 2, q) == 2);
	CHECK_NEAR(q[0], 0.9, 1e-12);
	CHECK_NEAR(q[1], 0.9, 1e-12);
}

static void test_stats__hedges(void)
{
	const double a[] = { 1, 2, 3 }, b[] = { 3, 4, 5 };
	struct stats_sample sa, sb;
	sample(a, 3, &sa);
	sample(b, 3, &sb);
	CHECK_NEAR(stats_hedges_g(&sa, &sb), 2 * 0.8, 1e-12);
	CHECK_NEAR(stats_hedges_g(&sb, &sa), -1.6, 1e-12);
}

/* Standard normal from the seeded generator (Box-Muller). */
static double normal(struct rng *r)
{
	double u = ((double)(rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* Under equal means with unequal variances and sizes (sd 1, n 5 against sd 5, n 20), Welch keeps
 * its 5 % false positives (Student's pooled test would not); the ratio interval covers the true
 * ratio about 95 % of the time. Seeded: the same numbers every run. */
static void test_stats__calibration(void)
{
	struct rng r;
	rng_init(&r, 26);
	int sims = 4000, rejected = 0, covered = 0;
	double a[5], b[20];
	for (int s = 0; s < sims; s++) {
		for (int i = 0; i < 5; i++)
			a[i] = 100 + normal(&r);
		for (int i = 0; i < 20; i++)
			b[i] = 100 + 5 * normal(&r);
		struct stats_sample sa, sb;
		stats_sample(a, 5, &sa);
		stats_sample(b, 20, &sb);
		struct stats_welch w;
		CHECK(stats_welch_t(&sa, &sb, &w) == 0);
		rejected += w.p < 0.05;
		double lo, hi;
		double ratio = stats_ratio_ci(&sa, &sb, 0.95, &lo, &hi);
		CHECK(lo <= ratio && ratio <= hi);
		covered += lo <= 1 && 1 <= hi;
	}
	CHECK_NEAR((double)rejected / sims, 0.05, 0.012);
	CHECK_NEAR((double)covered / sims, 0.95, 0.012);
	/* constants: the interval is the ratio itself; a zero mean: no ratio */
	const double k2[] = { 2, 2 }, k3[] = { 3, 3 }, z[] = { 0, 0 };
	struct stats_sample sa, sb;
	double lo, hi;
	stats_sample(k2, 2, &sa);
	stats_sample(k3, 2, &sb);
	CHECK_NEAR(stats_ratio_ci(&sa, &sb, 0.95, &lo, &hi), 1.5, 1e-12);
	CHECK(lo == 1.5 && hi == 1.5);
	stats_sample(z, 2, &sa);
	CHECK(isnan(stats_ratio_ci(&sa, &sb, 0.95, &lo, &hi)) && isnan(lo));
}

TESTS(T(test_stats__welch_published), T(test_stats__welch_exact_p), T(test_stats__zero_variance), T(test_stats__huge_values), T(test_stats__bh),
      T(test_stats__hedges), T(test_stats__calibration))
