/* Unit tests of scale/whatif: the curve arithmetic (program speedup and its 95 % interval from the
 * rounds' periods), the verdicts, and reading a profiling run's sample file, on synthetic data. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "scale/whatif.h"

static struct whatif_curve_point pt(double line, const double *v, int n)
{
	struct whatif_curve_point p = { .line_speedup = line, .n = n };
	for (int i = 0; i < n; i++)
		p.period_s[i] = v[i];
	return p;
}

static void test_whatif__speedup_and_interval(void)
{
	struct whatif_curve_point base = pt(0, (double[]){ 1.0, 1.02, 0.98 }, 3);
	struct whatif_curve_point p = pt(0.5, (double[]){ 0.8, 0.8, 0.8 }, 3);
	whatif_point_finish(&base, &p);
	CHECK_NEAR(p.program_speedup, 0.2, 1e-12);
	/* (0.8)^2 (0 + 0.02^2 / 3), t(2) = 4.303 */
	CHECK_NEAR(p.ci, 4.303 * 0.8 * 0.02 / sqrt(3), 1e-6);
	/* slower than the baseline: a negative speedup */
	struct whatif_curve_point q = pt(0.5, (double[]){ 1.1, 1.1 }, 2);
	whatif_point_finish(&base, &q);
	CHECK_NEAR(q.program_speedup, -0.1, 1e-12);
}

static void test_whatif__one_run_borrows_the_other_spread(void)
{
	struct whatif_curve_point base = pt(0, (double[]){ 1.0, 1.02, 0.98 }, 3);
	struct whatif_curve_point p = pt(1, (double[]){ 0.9 }, 1);
	whatif_point_finish(&base, &p);
	CHECK_NEAR(p.program_speedup, 0.1, 1e-12);
	CHECK_NEAR(p.ci, 4.303 * 0.9 * sqrt(0.02 * 0.02 + 0.02 * 0.02 / 3), 1e-6);
	/* failed runs (NaN) are left out; a point with no run has no speedup */
	struct whatif_curve_point f = pt(1, (double[]){ NAN, 0.9 }, 2);
	whatif_point_finish(&base, &f);
	CHECK_NEAR(f.program_speedup, 0.1, 1e-12);
	struct whatif_curve_point none = pt(1, (double[]){ NAN }, 1);
	whatif_point_finish(&base, &none);
	CHECK(isnan(none.program_speedup) && isnan(none.ci));
	/* one run on both sides: no interval */
	struct whatif_curve_point b1 = pt(0, (double[]){ 1.0 }, 1), p1 = pt(1, (double[]){ 0.5 }, 1);
	whatif_point_finish(&b1, &p1);
	CHECK_NEAR(p1.program_speedup, 0.5, 1e-12);
	CHECK(isnan(p1.ci));
}

static struct whatif_site site(long samples, const double *ps, const double *ci, int n)
{
	struct whatif_site s = { .samples = samples, .npts = n };
	for (int i = 0; i < n; i++) {
		s.pts[i].line_speedup = i / (double)(n - 1);
		s.pts[i].program_speedup = ps[i];
		s.pts[i].ci = ci[i];
	}
	return s;
}

static void test_whatif__verdicts(void)
{
	struct whatif_site s = site(100, (double[]){ 0, 0.2, 0.45 }, (double[]){ 0.02, 0.03, 0.04 }, 3);
	CHECK(whatif_site_verdict(&s) == WHATIF_RISING);
	s = site(100, (double[]){ 0, 0.01, -0.01 }, (double[]){ 0.02, 0.02, 0.03 }, 3);
	CHECK(whatif_site_verdict(&s) == WHATIF_FLAT);
	s = site(100, (double[]){ 0, 0.05, 0.06 }, (double[]){ 0.02, 0.1, 0.2 }, 3);
	CHECK(whatif_site_verdict(&s) == WHATIF_NOISE);
	s = site(100, (double[]){ 0, -0.1, -0.2 }, (double[]){ 0.02, 0.03, 0.04 }, 3);
	CHECK(whatif_site_verdict(&s) == WHATIF_NEGATIVE);
	s = site(3, (double[]){ 0, 0.2, 0.45 }, (double[]){ 0.02, 0.03, 0.04 }, 3);
	CHECK(whatif_site_verdict(&s) == WHATIF_FEW);
	s = site(100, (double[]){ 0, 0.2, 0.45 }, (double[]){ NAN, NAN, NAN }, 3);
	CHECK(whatif_site_verdict(&s) == WHATIF_NOISE);
	/* sampled in the profile, never in its own rounds (a module the rounds did not place): no
	 * delay was inserted, so no curve; one sample landing is enough to judge the curve */
	s = site(100, (double[]){ 0, 0.2, 0.45 }, (double[]){ 0.02, 0.03, 0.04 }, 3);
	for (int i = 0; i < 3; i++)
		s.pts[i].n = 2;
	CHECK(whatif_site_verdict(&s) == WHATIF_FEW);
	s.pts[2].site_samples = 0.5;
	CHECK(whatif_site_verdict(&s) == WHATIF_RISING);
}

static void test_whatif__samples_file_placed_by_its_mappings(void)
{
	char dir[] = "/tmp/u-whatif.XXXXXX", path[64];
	CHECK(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/" WHATIF_SAMPLES_PREFIX "42.1", dir);
	FILE *f = fopen(path, "w");
	CHECK(f);
	fprintf(f, "L 0\nI 401234 7\nI 7f0000001010 3 4242\nI 10 5\n" /* a thread id, or none (older files) */
		   "00400000-00402000 r-xp 00000000 08:01 1 /usr/bin/prog\n"
		   "7f0000000000-7f0000002000 r-xp 00001000 08:01 2 /usr/lib/libx.so\n"
		   "7f0000002000-7f0000003000 rw-p 00003000 08:01 2 /usr/lib/libx.so\n");
	fclose(f);
	struct whatif_sample *v;
	size_t n;
	long total;
	int rc = whatif_samples_load(dir, &v, &n, &total);
	unlink(path);
	rmdir(dir);
	CHECK(rc == 0);
	CHECK(total == 15); /* every sample counts, placed or not */
	CHECK(n == 2);
	CHECK_STR(v[0].path, "/usr/bin/prog");
	CHECK(v[0].off == 0x1234 && v[0].n == 7);
	CHECK_STR(v[1].path, "/usr/lib/libx.so");
	CHECK(v[1].off == 0x2010 && v[1].n == 3);
	CHECK(v[0].tid == 0 && v[1].tid == 4242);
	free(v);
}

static void test_whatif__openmp_waits_are_never_sites(void)
{
	/* libgomp's and libomp's barrier, wait and spin code, named or stripped */
	CHECK(whatif_is_runtime_wait("/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0", "gomp_team_barrier_wait_end"));
	CHECK(whatif_is_runtime_wait("/usr/lib/x86_64-linux-gnu/libgomp.so.1", "do_spin"));
	CHECK(whatif_is_runtime_wait("/usr/lib/x86_64-linux-gnu/libgomp.so.1", NULL));
	CHECK(whatif_is_runtime_wait("/usr/lib/llvm-19/lib/libomp.so.5", "__kmp_hyper_barrier_release"));
	CHECK(whatif_is_runtime_wait("/usr/lib/llvm-19/lib/libomp.so.5", "_Z19__kmp_wait_templateI10kmp_flag_64ILb0ELb1EELb1ELb0ELb1EEbP8kmp_info"));
	CHECK(whatif_is_runtime_wait("/usr/lib/libiomp5.so", "__kmp_suspend_64"));
	CHECK(whatif_is_runtime_wait("/lib/x86_64-linux-gnu/libc.so.6", "__sched_yield"));
	/* a runtime's work-sharing code, the program's own code and libc's other code are not waits */
	CHECK(!whatif_is_runtime_wait("/usr/lib/x86_64-linux-gnu/libgomp.so.1", "GOMP_loop_dynamic_next"));
	CHECK(!whatif_is_runtime_wait("/usr/bin/prog", "barrier_wait_for_work"));
	CHECK(!whatif_is_runtime_wait("/usr/bin/prog", NULL));
	CHECK(!whatif_is_runtime_wait("/lib/x86_64-linux-gnu/libc.so.6", "memcpy"));
	CHECK(!whatif_is_runtime_wait(NULL, NULL));
}

/* Two threads: A (tid 10) works the whole 1 s span in site 0 (3/4 of its samples) and other code;
 * B (tid 11) works 0.5 s in site 1 and spins in a runtime's wait the rest. A bounds the run. */
static void test_whatif__critical_share_of_the_bounding_thread(void)
{
	struct whatif_sample v[5] = { { .tid = 10, .n = 30 }, { .tid = 10, .n = 10 }, { .tid = 11, .n = 20 },
				      { .tid = 11, .n = 20 }, { .tid = 99, .n = 50 } };
	int mark[5] = { 0, WHATIF_MARK_OTHER, 1, WHATIF_MARK_WAITING, 0 }; /* tid 99: not in the record */
	struct whatif_thread_cpu th[2] = { { 11, 1.0, 0 }, { 10, 0.8, 0.2 } };
	struct whatif_site sites[2];
	int seen = 0;
	int ncrit = whatif_critical_shares(v, mark, 5, th, 2, 1.0, sites, 2, &seen);
	CHECK(ncrit == 1 && seen == 2);
	CHECK_NEAR(sites[0].crit_share, 0.75, 1e-12); /* (0.8 + 0.2 preempted) x 30/40 */
	CHECK_NEAR(sites[1].crit_share, 0.0, 1e-12);  /* B's work (0.5 s) is under 0.9 of A's (0.8 s) */
	/* balanced: both threads bound the run, the shares are their mean */
	struct whatif_thread_cpu bal[2] = { { 10, 0.5, 0 }, { 11, 0.5, 0 } };
	int m2[5] = { 0, 0, 0, 0, 0 };
	ncrit = whatif_critical_shares(v, m2, 5, bal, 2, 1.0, sites, 1, &seen);
	CHECK(ncrit == 2);
	CHECK_NEAR(sites[0].crit_share, 0.5, 1e-12);
	/* within [0, 1] even where CPU time exceeds the span; NaN without a span or a thread */
	struct whatif_thread_cpu big[1] = { { 10, 3.0, 0 } };
	whatif_critical_shares(v, m2, 2, big, 1, 1.0, sites, 1, &seen);
	CHECK_NEAR(sites[0].crit_share, 1.0, 1e-12);
	CHECK(whatif_critical_shares(v, m2, 5, bal, 2, 0, sites, 1, &seen) == 0 && isnan(sites[0].crit_share));
	CHECK(whatif_critical_shares(v, m2, 5, bal, 0, 1.0, sites, 1, &seen) == 0 && isnan(sites[0].crit_share));
}

static void test_whatif__speedups_parse(void)
{
	double v[WHATIF_SPEEDUPS_MAX];
	int n = 0;
	char why[200];
	CHECK(whatif_speedups_parse("0.25,0.5,1", v, &n, why, sizeof(why)) == 0 && n == 3);
	CHECK_NEAR(v[0], 0.25, 1e-12);
	CHECK(whatif_speedups_parse("25,50,100", v, &n, why, sizeof(why)) == 0 && n == 3);
	CHECK_NEAR(v[2], 1.0, 1e-12);
	CHECK(whatif_speedups_parse("0.5,0.5", v, &n, why, sizeof(why)) == -EINVAL);
	CHECK(strstr(why, "'0.5'") != NULL);
	CHECK(whatif_speedups_parse("0.5,", v, &n, why, sizeof(why)) == -EINVAL);
	CHECK(whatif_speedups_parse("fast", v, &n, why, sizeof(why)) == -EINVAL);
	CHECK(whatif_speedups_parse("0", v, &n, why, sizeof(why)) == -EINVAL);
	CHECK(whatif_threads_for_stack((int[]){ 1, 4, 2 }, 3) == 4);
}

TESTS(T(test_whatif__speedup_and_interval), T(test_whatif__critical_share_of_the_bounding_thread),
      T(test_whatif__speedups_parse), T(test_whatif__openmp_waits_are_never_sites), T(test_whatif__one_run_borrows_the_other_spread), T(test_whatif__verdicts),
      T(test_whatif__samples_file_placed_by_its_mappings))
