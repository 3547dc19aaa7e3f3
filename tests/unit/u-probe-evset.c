/* Unit tests of the congruent-pages witness of the associativity probe (src/probe/evset.c): the
 * search runs on simulated levels (pages of random colour, LRU sets that thrash on a cyclic walk
 * once a colour holds more pages than ways, a lower level indexed within the page, a TLB-like step
 * that is not a set overflow, and noise that only adds time); no hardware is timed here. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "probe/evset.h"
#include "report/csv.h"
#include "harness.h"

struct sim {
	int colours, ways, lower_ways;
	size_t npool;
	int colour[4096];
	double hit_ns, miss_ns, lower_ns;
	size_t step_pages;  /* a step of +6 % above this many pages, as a TLB's reach gives; 0: none */
	double noise;       /* up to this fraction added to each walk */
	int spike_every;    /* every Nth walk is twice as slow (a preempted walk); 0: never */
	int walks;
	int flat;           /* a level without sets: the walk never depends on the pages */
	struct rng r;
};

static double sim_walk(void *ctx, const size_t *pages, size_t n)
{
	struct sim *s = ctx;
	s->walks++;
	int count[256] = { 0 };
	for (size_t i = 0; i < n; i++)
		count[s->colour[pages[i]]]++;
	double t;
	if (s->flat) {
		t = s->hit_ns;
	} else if ((int)n <= s->lower_ways) {
		t = s->lower_ns; /* every line at one offset fits the lower level's set */
	} else {
		size_t miss = 0;
		for (int c = 0; c < s->colours; c++)
			if (count[c] > s->ways)
				miss += (size_t)count[c];
		t = ((double)miss * s->miss_ns + (double)(n - miss) * s->hit_ns) / (double)n;
	}
	if (s->step_pages && n > s->step_pages)
		t *= 1.06;
	t *= 1 + s->noise * (double)rng_below(&s->r, 1000) / 1000.0;
	if (s->spike_every && s->walks % s->spike_every == 0)
		t *= 2;
	return t;
}

static void sim_init(struct sim *s, int colours, int ways, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	s->colours = colours;
	s->ways = ways;
	s->lower_ways = 12;
	s->npool = (size_t)(2 * colours * ways);
	s->hit_ns = 3.8;
	s->miss_ns = 12.0;
	s->lower_ns = 1.1;
	rng_init(&s->r, seed);
	for (size_t p = 0; p < s->npool; p++)
		s->colour[p] = (int)rng_below(&s->r, (uint64_t)colours);
}

static int run(struct sim *s, uint64_t seed, struct probe_evset_result *out)
{
	struct probe_opts o = { .seed = seed };
	struct as_error err = { 0 };
	return probe_evset_search(sim_walk, s, &o, s->npool, s->miss_ns, (double)s->lower_ways, out, &err);
}

/* Zen 5's L2 in a guest: 1 MiB, 16 ways, 16 page colours at random, a 12-way L1 below, a TLB
 * step at 96 pages, up to 6 % noise and a preempted walk every 23: the ways and the smallest
 * self-evicting set, for every seed. */
static void test_probe_evset__sixteen_ways_random_colours(void)
{
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct sim s;
		sim_init(&s, 16, 16, seed);
		s.step_pages = 96;
		s.noise = 0.06; s.spike_every = 23;
		struct probe_evset_result r;
		CHECK(run(&s, seed, &r) == 0);
		CHECK_NEAR(r.ways, 16, 0);
		CHECK(r.minimal_pages == 17);
		CHECK(r.class_pages >= 17);
		CHECK(r.confidence > 0.5);
		CHECK(r.reason[0] == 0);
		probe_evset_result_release(&r);
	}
}

/* An 8-way level with 32 colours (Zen 4's L2, 1 MiB) and one with 32 colours of 16 ways (an
 * Intel 2 MiB L2), with a preempted walk every 37: the spikes never drop a page the set needs. */
static void test_probe_evset__other_geometries_and_spikes(void)
{
	const int geo[2][2] = { { 32, 8 }, { 32, 16 } };
	for (int g = 0; g < 2; g++)
		for (uint64_t seed = 11; seed <= 13; seed++) {
			struct sim s;
			sim_init(&s, geo[g][0], geo[g][1], seed);
			s.lower_ways = 8;
			s.noise = 0.02;
			s.spike_every = 37;
			struct probe_evset_result r;
			CHECK(run(&s, seed, &r) == 0);
			CHECK_NEAR(r.ways, geo[g][1], 0);
			CHECK(r.minimal_pages == geo[g][1] + 1);
			probe_evset_result_release(&r);
		}
}

/* A level whose walks never depend on the pages: no answer, and a reason instead of a number. */
static void test_probe_evset__no_sets_no_answer(void)
{
	struct sim s;
	sim_init(&s, 16, 16, 5);
	s.flat = 1;
	s.noise = 0.02;
	struct probe_evset_result r;
	CHECK(run(&s, 5, &r) == 0);
	CHECK(isnan(r.ways));
	CHECK(strstr(r.reason, "not found") != NULL);
	probe_evset_result_release(&r);
}

/* The sweep's rule on hand-made curves: a lasting step gives the K before it; a spike that does
 * not last, or a step under 15 %, gives none. */
static void test_probe_evset__sweep_rule(void)
{
	double y[24], step;
	for (int k = 0; k < 24; k++)
		y[k] = k < 16 ? 3.8 : 5.2 + 0.2 * (k - 16);
	CHECK_NEAR(probe_evset_sweep_ways(y, 24, 0.02, &step), 16, 0);
	CHECK(step > 0.3);
	y[5] = 9.0; /* a spike */
	CHECK_NEAR(probe_evset_sweep_ways(y, 24, 0.02, &step), 16, 0);
	for (int k = 0; k < 24; k++)
		y[k] = k < 16 ? 3.8 : 4.1;
	CHECK(isnan(probe_evset_sweep_ways(y, 24, 0.02, &step)));
	CHECK(probe_evset_overflows(4.2, 3.8, 0.04));
	CHECK(!probe_evset_overflows(3.9, 3.8, 0.04));
	CHECK(!probe_evset_overflows(NAN, 3.8, 0.04));
}

/* Recorded on the Zen 5 guest (tests/fixtures/amd-zen5-26-2/evset): the congruent-pages sweep
 * gives 16 ways, with a step of more than 50 %. */
static void test_probe_evset__zen5_recorded(void)
{
	char path[512];
	double *x, *y;
	size_t n;
	struct as_error err = { 0 };
	snprintf(path, sizeof(path), "%s/tests/fixtures/amd-zen5-26-2/evset/assoc-L2-pages.csv", ARCHSCOPE_SOURCE_DIR);
	CHECK(csv_read_xy(path, &x, &y, &n, &err) == 0);
	double step;
	double ways = probe_evset_sweep_ways(y, n, 0.02, &step);
	free(x);
	free(y);
	CHECK_NEAR(ways, 16, 0);
	CHECK(step > 0.5);
}

TESTS(T(test_probe_evset__zen5_recorded), T(test_probe_evset__sixteen_ways_random_colours), T(test_probe_evset__other_geometries_and_spikes),
      T(test_probe_evset__no_sets_no_answer), T(test_probe_evset__sweep_rule))
