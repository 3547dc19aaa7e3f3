/* Unit tests of numa's contention model (numa/model.c) and matrix reader: hand-worked cases on the
 * recorded-shape matrices of tests/fixtures/numa/, and seeded random 2- to 6-node matrices checked
 * against a second, independent max-min fair allocation (the bottleneck algorithm over single
 * threads) and against the definition of max-min fairness itself. */
#include <errno.h>
#include <stdlib.h>

#include "common/rng.h"
#include "harness.h"
#include "machine/result-numa.h"
#include "numa/matrix.h"
#include "numa/model.h"

#define FIX ARCHSCOPE_SOURCE_DIR "/tests/fixtures/numa/"

static double uniform(struct rng *r, double lo, double hi)
{
	return lo + (hi - lo) * (double)(rng_next(r) >> 11) / 9007199254740992.0;
}

/* The second implementation: every thread on its own; each round finds the smallest fair share
 * of any resource (what is left over its unfrozen users) or thread limit, and freezes the threads
 * that this bottleneck holds at exactly that share. Resources: memory j = j, path i->j = n+i*n+j. */
#define MAXT 512
static void bottleneck(const struct numa_matrix *m, const struct numa_flow *f, int nf, double *flow_gbs)
{
	int nt = 0, src[MAXT], dst[MAXT], of[MAXT], frozen[MAXT] = { 0 };
	double rate[MAXT], lim[MAXT];
	for (int k = 0; k < nf; k++)
		for (int t = 0; t < f[k].threads; t++, nt++) {
			src[nt] = numa_matrix_index(m, f[k].src);
			dst[nt] = numa_matrix_index(m, f[k].dst);
			of[nt] = k;
			lim[nt] = m->bandwidth_1thread_gbs[src[nt]][dst[nt]];
			rate[nt] = 0;
		}
	int n = m->n, nr = n + n * n;
	double *cap = malloc(sizeof(double) * (size_t)nr);
	for (int r = 0; r < nr; r++)
		cap[r] = r < n ? m->bandwidth_gbs[r][r] : m->bandwidth_gbs[(r - n) / n][(r - n) % n];
	for (int left = nt; left > 0;) {
		double share[MAXT + 64];
		double best = 1e300;
		for (int r = 0; r < nr; r++) {
			double fixed = 0;
			int users = 0;
			for (int t = 0; t < nt; t++) {
				int uses = dst[t] == r || (src[t] != dst[t] && n + src[t] * n + dst[t] == r);
				if (!uses)
					continue;
				if (frozen[t])
					fixed += rate[t];
				else
					users++;
			}
			share[r] = users ? (cap[r] - fixed) / users : 1e300;
			if (share[r] < best)
				best = share[r];
		}
		for (int t = 0; t < nt; t++)
			if (!frozen[t] && lim[t] < best)
				best = lim[t];
		for (int t = 0; t < nt; t++) {
			if (frozen[t])
				continue;
			int path = n + src[t] * n + dst[t];
			if (lim[t] <= best * (1 + 1e-12) || share[dst[t]] <= best * (1 + 1e-12) ||
			    (src[t] != dst[t] && share[path] <= best * (1 + 1e-12))) {
				rate[t] = best;
				frozen[t] = 1;
				left--;
			}
		}
	}
	for (int k = 0; k < nf; k++)
		flow_gbs[k] = 0;
	for (int t = 0; t < nt; t++)
		flow_gbs[of[t]] += rate[t];
	free(cap);
}

/* The definition: feasible, and each flow's threads either run at their own limit or use a full
 * resource on which no other thread gets more. 1 when pred satisfies it. */
static int is_maxmin_fair(const struct numa_matrix *m, const struct numa_flow *f, int nf, const struct numa_prediction *p)
{
	int n = m->n;
	double used[64 + 64 * 64] = { 0 }, top[64 + 64 * 64] = { 0 };
	for (int k = 0; k < nf; k++) {
		int i = numa_matrix_index(m, f[k].src), j = numa_matrix_index(m, f[k].dst);
		if (p[k].thread_gbs > m->bandwidth_1thread_gbs[i][j] * (1 + 1e-9))
			return 0;
		used[j] += p[k].flow_gbs;
		top[j] = fmax(top[j], p[k].thread_gbs);
		if (i != j) {
			used[n + i * n + j] += p[k].flow_gbs;
			top[n + i * n + j] = fmax(top[n + i * n + j], p[k].thread_gbs);
		}
	}
	for (int k = 0; k < nf; k++) {
		int i = numa_matrix_index(m, f[k].src), j = numa_matrix_index(m, f[k].dst);
		if (used[j] > m->bandwidth_gbs[j][j] * (1 + 1e-9))
			return 0;
		if (i != j && used[n + i * n + j] > m->bandwidth_gbs[i][j] * (1 + 1e-9))
			return 0;
		double x = p[k].thread_gbs;
		int at_limit = x >= m->bandwidth_1thread_gbs[i][j] * (1 - 1e-9);
		int mem = used[j] >= m->bandwidth_gbs[j][j] * (1 - 1e-9) && x >= top[j] * (1 - 1e-9);
		int path = i != j && used[n + i * n + j] >= m->bandwidth_gbs[i][j] * (1 - 1e-9) &&
			   x >= top[n + i * n + j] * (1 - 1e-9);
		if (!at_limit && !mem && !path)
			return 0;
	}
	return 1;
}

static void test_numa__reads_the_recorded_matrices(void)
{
	struct numa_matrix m;
	struct as_error err = { 0 };
	CHECK(numa_matrix_read(&m, FIX "matrix-4node.json", &err) == 0);
	CHECK(m.n == 4 && m.node[3] == 3);
	CHECK_NEAR(m.bandwidth_gbs[1][2], 24, 0);
	CHECK_NEAR(m.bandwidth_1thread_gbs[3][3], 14, 0);
	CHECK_NEAR(m.slit[0][2], 32, 0);
	CHECK_STR(m.kernel, "load-avx512");
	CHECK(numa_matrix_read(&m, FIX "matrix-bad-shape.json", &err) < 0);
	CHECK(strstr(err.msg, "bandwidth_1thread_gbs[0] must have 2 entries, it has 3") != NULL);
	CHECK(numa_matrix_parse(&m, "{\"results\": {\"nodes\": [0], \"bandwidth_gbs\": [[1]]}}", "x", &err) < 0);
	CHECK(strstr(err.msg, "no results.bandwidth_1thread_gbs") != NULL);
	CHECK(numa_matrix_parse(&m, "[1, 2", "x", &err) < 0);
	CHECK(strstr(err.msg, "not JSON") != NULL);
	CHECK(numa_matrix_read(&m, FIX "no-such.json", &err) < 0);
	CHECK(strstr(err.msg, "no-such.json") != NULL);
}

/* Worked by hand (README of the fixtures): 0:0:4 and 1:0:8 on the 2-node matrix. The 8 remote
 * threads fill the path 1->0 (40 GB/s) at 5 GB/s each; the 4 local threads go on to their own
 * limit of 12 GB/s, since memory 0 has 100 - 40 = 60 GB/s left, 15 each. */
static void test_numa__hand_worked_two_nodes(void)
{
	struct numa_matrix m;
	struct as_error err = { 0 };
	CHECK(numa_matrix_read(&m, FIX "matrix-2node.json", &err) == 0);
	struct numa_flow f[2] = { { 0, 0, 4 }, { 1, 0, 8 } };
	struct numa_prediction p[2];
	CHECK(numa_model_predict(&m, f, 2, p, &err) == 0);
	CHECK_NEAR(p[0].flow_gbs, 48, 1e-9);
	CHECK(p[0].limit == NUMA_LIMIT_THREAD);
	CHECK_NEAR(p[1].flow_gbs, 40, 1e-9);
	CHECK(p[1].limit == NUMA_LIMIT_PATH);
	/* The definition check is not vacuous: memory 0 split equally over the 12 threads fails it
	 * (the remote threads would overfill their path). */
	CHECK(is_maxmin_fair(&m, f, 2, p));
	struct numa_prediction wrong[2] = { p[0], p[1] };
	wrong[0].thread_gbs = wrong[1].thread_gbs = 100.0 / 12;
	wrong[0].flow_gbs = 4 * wrong[0].thread_gbs;
	wrong[1].flow_gbs = 8 * wrong[1].thread_gbs;
	CHECK(!is_maxmin_fair(&m, f, 2, wrong));
	/* 8 local threads instead: memory 0 is the limit, 60 GB/s left over 8 threads = 7.5 each. */
	f[0].threads = 8;
	CHECK(numa_model_predict(&m, f, 2, p, &err) == 0);
	CHECK_NEAR(p[0].flow_gbs, 60, 1e-9);
	CHECK(p[0].limit == NUMA_LIMIT_MEMORY && p[0].limit_node == 0);
	CHECK_NEAR(p[1].flow_gbs, 40, 1e-9);
	/* One flow alone: 2 remote threads at their own 8 GB/s. */
	struct numa_flow one = { 0, 1, 2 };
	CHECK(numa_model_predict(&m, &one, 1, p, &err) == 0);
	CHECK_NEAR(p[0].flow_gbs, 16, 1e-9);
}

/* Worked by hand on the 4-node matrix. 2:0:6, 3:0:6 and 1:0:8: 20 threads into memory 0 (60 GB/s)
 * fill it at 3 GB/s each, before any path (3->0 would hold 24/6 = 4) or thread limit (9, 12).
 * 2:0:6, 3:0:6 and 0:0:2: the path 3->0 fills first at 4 GB/s (memory 0 would hold 60/14 = 4.29);
 * then 2->0 at 25/6 = 4.17 (memory 36/8 = 4.5 left); the 2 local threads share the 11 GB/s left. */
static void test_numa__hand_worked_four_nodes(void)
{
	struct numa_matrix m;
	struct as_error err = { 0 };
	CHECK(numa_matrix_read(&m, FIX "matrix-4node.json", &err) == 0);
	struct numa_flow f[3] = { { 2, 0, 6 }, { 3, 0, 6 }, { 1, 0, 8 } };
	struct numa_prediction p[3];
	CHECK(numa_model_predict(&m, f, 3, p, &err) == 0);
	CHECK_NEAR(p[0].flow_gbs, 18, 1e-9);
	CHECK_NEAR(p[1].flow_gbs, 18, 1e-9);
	CHECK_NEAR(p[2].flow_gbs, 24, 1e-9);
	CHECK(p[0].limit == NUMA_LIMIT_MEMORY && p[2].limit == NUMA_LIMIT_MEMORY);
	f[2] = (struct numa_flow){ 0, 0, 2 };
	CHECK(numa_model_predict(&m, f, 3, p, &err) == 0);
	CHECK_NEAR(p[0].flow_gbs, 25, 1e-9);
	CHECK(p[0].limit == NUMA_LIMIT_PATH && p[0].limit_node == 2);
	CHECK_NEAR(p[1].flow_gbs, 24, 1e-9);
	CHECK(p[1].limit == NUMA_LIMIT_PATH && p[1].limit_node == 3);
	CHECK_NEAR(p[2].flow_gbs, 11, 1e-9);
	CHECK(p[2].limit == NUMA_LIMIT_MEMORY);
	double ref[3];
	bottleneck(&m, f, 3, ref);
	for (int k = 0; k < 3; k++)
		CHECK_NEAR(p[k].flow_gbs, ref[k], 1e-9 * ref[k]);
}

static void test_numa__unknown_node_and_missing_figures(void)
{
	struct numa_matrix m;
	struct as_error err = { 0 };
	CHECK(numa_matrix_read(&m, FIX "matrix-2node.json", &err) == 0);
	struct numa_flow f = { 0, 5, 1 };
	struct numa_prediction p;
	CHECK(numa_model_predict(&m, &f, 1, &p, &err) == -ENODEV);
	CHECK(strstr(err.msg, "no node 5") != NULL);
	m.bandwidth_1thread_gbs[1][0] = NAN;
	f = (struct numa_flow){ 1, 0, 1 };
	CHECK(numa_model_predict(&m, &f, 1, &p, &err) == -EINVAL);
	CHECK(strstr(err.msg, "bandwidth_1thread_gbs for CPUs of node 1 reading node 0") != NULL);
}

/* Matrices nobody looked at: seeded random 2- to 6-node matrices and 1 to 8 flows each, the
 * prediction against the bottleneck algorithm (within 1 %) and against the definition. */
static void test_numa__random_matrices_match_independent_maxmin(void)
{
	struct rng r;
	rng_init(&r, 0x28u);
	struct numa_matrix *m = malloc(sizeof(*m));
	int cases = 0, memory_bound = 0, path_bound = 0, thread_bound = 0;
	for (int c = 0; c < 400; c++) {
		numa_matrix_init(m, NULL);
		m->n = 2 + (int)rng_below(&r, 5);
		for (int i = 0; i < m->n; i++)
			m->node[i] = i * (1 + (int)(c % 2)); /* odd cases: node numbers 0, 2, 4, ... */
		for (int j = 0; j < m->n; j++)
			m->bandwidth_gbs[j][j] = uniform(&r, 20, 200);
		for (int i = 0; i < m->n; i++)
			for (int j = 0; j < m->n; j++) {
				if (i != j)
					m->bandwidth_gbs[i][j] = uniform(&r, 5, m->bandwidth_gbs[j][j]);
				m->bandwidth_1thread_gbs[i][j] = uniform(&r, 1, fmin(30, m->bandwidth_gbs[i][j]));
			}
		int nf = 1 + (int)rng_below(&r, 8);
		struct numa_flow f[8];
		for (int k = 0; k < nf; k++)
			f[k] = (struct numa_flow){ m->node[rng_below(&r, (uint64_t)m->n)], m->node[rng_below(&r, (uint64_t)m->n)],
						   1 + (int)rng_below(&r, 24) };
		struct numa_prediction p[8];
		struct as_error err = { 0 };
		CHECK(numa_model_predict(m, f, nf, p, &err) == 0);
		double ref[8];
		bottleneck(m, f, nf, ref);
		for (int k = 0; k < nf; k++) {
			CHECK_NEAR(p[k].flow_gbs, ref[k], 0.01 * ref[k]);
			memory_bound += p[k].limit == NUMA_LIMIT_MEMORY;
			path_bound += p[k].limit == NUMA_LIMIT_PATH;
			thread_bound += p[k].limit == NUMA_LIMIT_THREAD;
		}
		CHECK(is_maxmin_fair(m, f, nf, p));
		cases++;
	}
	free(m);
	CHECK(cases == 400);
	/* The cases exercise every kind of limit. */
	CHECK(memory_bound > 20 && path_bound > 20 && thread_bound > 20);
}

/* A matrix file is read through numa matrix's description: a key of another kind or one it does
 * not name is refused with its path; the flow rows numa model writes are "numa flow" rows. */
static void test_numa__matrix_file_against_its_description(void)
{
	struct numa_matrix m;
	struct as_error err = { 0 };
	const char *base = "{\"results\": {\"nodes\": [0], \"bandwidth_gbs\": [[1]], \"bandwidth_1thread_gbs\": [[1]]";
	char text[512];
	snprintf(text, sizeof(text), "%s, \"kernel\": 5}}", base);
	CHECK(numa_matrix_parse(&m, text, "x", &err) == -EINVAL);
	CHECK(strstr(err.msg, "matrix file 'x': results.kernel: a value where a string is described") != NULL);
	snprintf(text, sizeof(text), "%s, \"colour\": 1}}", base);
	CHECK(numa_matrix_parse(&m, text, "x", &err) == -EINVAL);
	CHECK(strstr(err.msg, "results.colour: a key the description does not name") != NULL);
	snprintf(text, sizeof(text), "%s, \"kernel\": \"load-sse\"}}", base);
	CHECK(numa_matrix_parse(&m, text, "x", &err) == 0);
	CHECK_STR(m.kernel, "load-sse");
	json_t *r = json_loads("{\"matrix\": \"m.json\", \"node_count\": 1, \"method\": \"x\", \"flows\": [{\"src\": 0,"
			       " \"dst\": 0, \"threads\": 1, \"predicted_gbs\": 2.5, \"measured_gbs\": null}]}", 0, NULL);
	CHECK(schema_check(&numa_model_result, r, &err) == 0);
	json_array_append_new(schema_get(&numa_model_result, r, NMO_FLOWS), json_pack("{s:i}", NFL_KEY(SRC), 1));
	CHECK(schema_check(&numa_model_result, r, &err) == -EINVAL);
	CHECK(strstr(err.msg, "flows[1].dst: missing") != NULL);
	json_decref(r);
}

TESTS(T(test_numa__matrix_file_against_its_description), T(test_numa__reads_the_recorded_matrices), T(test_numa__hand_worked_two_nodes),
      T(test_numa__hand_worked_four_nodes), T(test_numa__unknown_node_and_missing_figures),
      T(test_numa__random_matrices_match_independent_maxmin))
