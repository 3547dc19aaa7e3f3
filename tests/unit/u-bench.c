/* Unit tests of src/bench: the kernel table (streams, bytes and flops per iteration as each name
 * says, unique names, a function for every variant, the SIMD variants compute what the scalar
 * ones do), the working sets per level, and the sweep's loop order, failure policy and results. */
#include <stdlib.h>

#include "bench/kernels.h"
#include "bench/levels.h"
#include "bench/run.h"
#include "harness.h"

/* What each kernel's name promises (ECM paper §2, likwid-bench): streams and flops per
 * iteration; bytes follow from the streams. */
static const struct {
	const char *name;
	int reads, writes, rws, flops, bytes;
} expected[] = {
	{ "load", 1, 0, 0, 0, 8 },   { "store", 0, 1, 0, 0, 8 },  { "copy", 1, 1, 0, 0, 16 },
	{ "update", 0, 0, 1, 1, 16 }, { "stream", 2, 1, 0, 2, 24 }, { "triad", 3, 1, 0, 2, 32 },
	{ "daxpy", 1, 0, 1, 2, 24 },  { "sum", 1, 0, 0, 1, 8 },    { "ddot", 2, 0, 0, 2, 16 },
};
#define NEXPECTED (sizeof(expected) / sizeof(expected[0]))

static void test_bench__table_matches_names(void)
{
	size_t n;
	const struct bench_kernel *t = bench_kernel_table(&n);
	CHECK(n >= NEXPECTED);
	for (size_t i = 0; i < n; i++) {
		const struct bench_kernel *k = &t[i];
		size_t e = 0;
		while (e < NEXPECTED && strcmp(expected[e].name, k->name))
			e++;
		if (e == NEXPECTED)
			printf("# unknown kernel %s-%s\n", k->name, k->variant);
		CHECK(e < NEXPECTED);
		if (k->reads != expected[e].reads || k->writes != expected[e].writes || k->rws != expected[e].rws ||
		    k->flops != expected[e].flops)
			printf("# %s-%s: streams %d/%d/%d, %d flops\n", k->name, k->variant, k->reads, k->writes, k->rws, k->flops);
		CHECK(k->reads == expected[e].reads && k->writes == expected[e].writes && k->rws == expected[e].rws);
		CHECK(k->flops == expected[e].flops);
		CHECK(bench_bytes_app(k) == expected[e].bytes);
		CHECK(bench_arrays(k) >= 1 && bench_arrays(k) <= BENCH_MAX_ARRAYS);
		/* write-allocate adds a read per written stream unless the stores are non-temporal */
		CHECK(bench_bytes_real(k) == expected[e].bytes + (k->nontemporal ? 0 : 8 * k->writes));
		size_t vl = strlen(k->variant);
		int nt_name = vl > 3 && !strcmp(k->variant + vl - 3, "-nt");
		CHECK(k->nontemporal == nt_name);
		CHECK(!k->nontemporal || k->writes > 0); /* non-temporal stores need a store stream */
		CHECK((k->isa == NULL) == !strcmp(k->variant, "scalar"));
		CHECK(k->formula && *k->formula);
		CHECK(k->fn != NULL);
	}
}

static void test_bench__names_unique(void)
{
	size_t n;
	const struct bench_kernel *t = bench_kernel_table(&n);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			CHECK(strcmp(t[i].name, t[j].name) || strcmp(t[i].variant, t[j].variant));
	/* every name has a scalar variant, so the best one always exists and is not non-temporal */
	for (size_t e = 0; e < NEXPECTED; e++) {
		CHECK(bench_kernel_find(expected[e].name, "scalar") != NULL);
		const struct bench_kernel *b = bench_kernel_best(expected[e].name);
		CHECK(b && !b->nontemporal && bench_kernel_supported(b));
	}
	CHECK(bench_kernel_best("nosuch") == NULL);
	CHECK(bench_kernel_find("copy", "avx9000") == NULL);
}

/* Runs k once over n elements of arrays filled the same way; returns its value. */
static double run_once(const struct bench_kernel *k, double *const *arr, size_t n)
{
	for (int a = 0; a < BENCH_MAX_ARRAYS; a++)
		for (size_t i = 0; i < n; i++)
			arr[a][i] = 1.0 + (double)((i * 7 + (size_t)a * 3) % 11) * 0.125;
	return k->fn(arr, n, 1.5);
}

static void test_bench__variants_compute_like_scalar(void)
{
	enum { N = 4 * BENCH_ELEM_ALIGN };
	double *x[BENCH_MAX_ARRAYS], *y[BENCH_MAX_ARRAYS];
	for (int a = 0; a < BENCH_MAX_ARRAYS; a++) {
		x[a] = aligned_alloc(64, N * sizeof(double));
		y[a] = aligned_alloc(64, N * sizeof(double));
		CHECK(x[a] && y[a]);
	}
	size_t n;
	const struct bench_kernel *t = bench_kernel_table(&n);
	int compared = 0;
	for (size_t i = 0; i < n; i++) {
		const struct bench_kernel *k = &t[i], *s = bench_kernel_find(k->name, "scalar");
		if (!bench_kernel_supported(k) || k == s)
			continue;
		double vs = run_once(s, x, N), vk = run_once(k, y, N);
		/* fused multiply-adds round once: agree to a few ulps, not bit for bit */
		CHECK_NEAR(vk, vs, 1e-12 * (1 + fabs(vs)));
		for (int a = 0; a < bench_arrays(k); a++)
			for (size_t e = 0; e < N; e++)
				CHECK_NEAR(y[a][e], x[a][e], 1e-12 * (1 + fabs(x[a][e])));
		compared++;
	}
	for (int a = 0; a < BENCH_MAX_ARRAYS; a++) {
		free(x[a]);
		free(y[a]);
	}
	printf("# %d variants compared with scalar\n", compared);
}

static void test_bench__levels_from_sizes(void)
{
	const double bytes[] = { 32768, 1048576, 33554432 };
	struct bench_levels lv;
	bench_levels_from(bytes, 3, &lv);
	CHECK(lv.n == 4);
	CHECK_STR(lv.name[0], "L1");
	CHECK_STR(lv.name[2], "L3");
	CHECK_STR(lv.name[3], "MEM");
	CHECK(lv.size[0] == 16384);
	CHECK(lv.size[1] == 185363); /* geometric middle of 32 KiB and 1 MiB */
	CHECK(lv.size[3] > lv.size[2] && lv.size[3] <= (size_t)512 << 20);
	CHECK(lv.level_bytes[1] == 1048576 && lv.level_bytes[3] == 0);
	/* private L1 and L2 grow with the threads; the shared L3 and memory do not */
	CHECK(bench_levels_size(&lv, 0, 4) == 4 * 16384);
	CHECK(bench_levels_size(&lv, 1, 2) == 2 * 185363);
	CHECK(bench_levels_size(&lv, 2, 4) == lv.size[2]);
	CHECK(bench_levels_size(&lv, 3, 4) == lv.size[3]);
}

struct trace {
	int n, stop_after_failure;
	int order[32][3]; /* level, threads, kernel of each run started */
	int failures;
};

static int record(void *arg, const struct bench_sweep_point *pt, const struct as_error *err)
{
	struct trace *tr = arg;
	if (err) {
		tr->failures++;
		return tr->stop_after_failure;
	}
	if (tr->n < 32) {
		tr->order[tr->n][0] = pt->level;
		tr->order[tr->n][1] = pt->threads;
		tr->order[tr->n][2] = pt->kernel;
	}
	tr->n++;
	return 0;
}

static void test_bench__sweep_order_and_failures(void)
{
	struct bench_levels lv = { .n = 2, .name = { "L1", "MEM" }, .size = { 4096, 8192 } };
	const struct bench_kernel *ks[2] = { bench_kernel_find("load", "scalar"), bench_kernel_find("store", "scalar") };
	struct as_cpulist cpus = { .n = 2, .cpu = { 0, 0 } };
	struct trace tr = { 0 };
	/* 0 repetitions: every run fails at once, nothing is measured */
	struct bench_sweep sw = { .lv = &lv, .kernels = ks, .nkernels = 2, .cpus = &cpus, .max_threads = 2,
				  .run = { .reps = 0 }, .report = record, .arg = &tr };
	struct bench_sweep_result res;
	struct as_error err = { 0 };
	CHECK(bench_sweep_run(&sw, &res, &err) == 0);
	CHECK(tr.n == 8 && tr.failures == 8 && res.done == 8 && !res.stopped);
	/* levels outside, then threads, kernels innermost */
	CHECK(tr.order[1][0] == 0 && tr.order[1][1] == 1 && tr.order[1][2] == 1);
	CHECK(tr.order[2][0] == 0 && tr.order[2][1] == 2 && tr.order[2][2] == 0);
	CHECK(tr.order[4][0] == 1 && tr.order[4][1] == 1);
	CHECK(bench_sweep_state(&res, 1, 2, 1) == BENCH_SWEEP_FAILED && bench_sweep_get(&res, 1, 2, 1) == NULL);
	bench_sweep_release(&res);

	tr = (struct trace){ 0 };
	sw.threads_outer = 1;
	CHECK(bench_sweep_run(&sw, &res, &err) == 0);
	CHECK(tr.order[2][0] == 1 && tr.order[2][1] == 1); /* threads outside: L1, then MEM with 1 thread */
	CHECK(tr.order[4][0] == 0 && tr.order[4][1] == 2);
	bench_sweep_release(&res);

	/* a report that stops at the first failure */
	tr = (struct trace){ .stop_after_failure = 1 };
	CHECK(bench_sweep_run(&sw, &res, &err) == 0);
	CHECK(res.stopped && res.done == 1 && tr.failures == 1);
	CHECK(bench_sweep_entered(&res, 0, 1) && !bench_sweep_entered(&res, 1, 1));
	CHECK(bench_sweep_state(&res, 0, 1, 1) == BENCH_SWEEP_NOT_RUN);
	bench_sweep_release(&res);

	/* a stop flag set before the start: nothing runs */
	volatile int stop = 1;
	sw.stop = &stop;
	tr = (struct trace){ 0 };
	CHECK(bench_sweep_run(&sw, &res, &err) == 0);
	CHECK(res.done == 0 && tr.n == 0 && !bench_sweep_entered(&res, 0, 1));
	bench_sweep_release(&res);
}

static void test_bench__sweep_measures(void)
{
	struct bench_levels lv = { .n = 1, .name = { "MEM" }, .size = { 64 << 10 } };
	const struct bench_kernel *ks[1] = { bench_kernel_find("load", "scalar") };
	struct as_cpulist one = { .n = 1, .cpu = { 0 } };
	struct as_error err = { 0 };
	CHECK(cpulist_allowed(&one, &err) == 0);
	one.n = 1;
	struct bench_sweep sw = { .lv = &lv, .kernels = ks, .nkernels = 1, .cpus = &one, .max_threads = 1,
				  .run = { .reps = 1, .min_time_s = 0.001, .clock_ghz = 1 } };
	struct bench_sweep_result res;
	CHECK(bench_sweep_run(&sw, &res, &err) == 0);
	const struct bench_result *r = bench_sweep_get(&res, 0, 1, 0);
	CHECK(r != NULL);
	CHECK(r->gbs.median > 0 && r->cy_per_cl.min > 0 && r->threads == 1);
	CHECK(r->size_bytes <= (64 << 10) && r->size_bytes > (60 << 10));
	bench_sweep_release(&res);
}

TESTS(T(test_bench__table_matches_names), T(test_bench__names_unique), T(test_bench__variants_compute_like_scalar),
      T(test_bench__levels_from_sizes), T(test_bench__sweep_order_and_failures), T(test_bench__sweep_measures))
