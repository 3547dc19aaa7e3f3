/* Unit tests of model/eval and model/blocking, the pipeline of `archscope model`: binding -D
 * values, a sweep, the full ECM and RooflineASM of a size, the benchmark's arithmetic, and
 * blocking advice on the Kerncraft paper's 2D 5-point Jacobi. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "machine/file.h"
#include "model/blocking.h"
#include "machine/mtree.h"

static const char JACOBI[] = "double a[M][N];\ndouble b[M][N];\ndouble s;\n"
			     "for (int j = 1; j < M - 1; ++j)\n"
			     "  for (int i = 1; i < N - 1; ++i)\n"
			     "    b[j][i] = (a[j][i-1] + a[j][i+1] + a[j-1][i] + a[j+1][i]) * s;\n";

static struct model_define define(const char *name, int64_t v, int64_t to, int64_t step)
{
	struct model_define d = { .v = v, .from = v, .to = to, .step = step, .sweep = step > 0 };
	snprintf(d.name, sizeof(d.name), "%s", name);
	return d;
}

/* The pipeline on Kerncraft's Sandy Bridge file: binding -D values, a sweep of N, the full ECM and
 * RooflineASM with in-core times given, the benchmark's arithmetic, and blocking (the paper's
 * Jacobi: L1 blocked to N <= 1024 gets 2 misses instead of 4). */
static void test_eval__pipeline(void)
{
	struct as_error err = { 0 };
	struct kernel *k = kernel_new();
	struct machine *m = calloc(1, sizeof(*m));
	CHECK(k && m && kernel_parse_buffer(k, "k.c", JACOBI, strlen(JACOBI), &err) == 0);
	struct mtree t;
	CHECK(mtree_load(ARCHSCOPE_SOURCE_DIR "/tests/fixtures/machines/kerncraft-snb-e5-2680.yml", &t, &err) == 0);
	machine_read(&t, m);
	mtree_free(&t);
	struct model_run run;
	struct model_define d[3] = { define("M", 1000, 0, 0), define("N", 100, 2000, 400), define("Q", 1, 0, 0) };
	CHECK(model_run_init(&run, k, d, 1, &err) == -EINVAL && strstr(err.msg, "constant 'N' has no value"));
	CHECK(model_run_init(&run, k, d, 3, &err) == -EINVAL && strstr(err.msg, "no constant 'Q'"));
	CHECK(model_run_init(&run, k, d, 2, &err) == 0);
	CHECK(run.n == 5 && run.sweep == &d[1] && run.xs[4] == 1700);
	struct model_request req = { .models = MODEL_ECMDATA | MODEL_ROOFLINE, .predictor = MODEL_PRED_LC, .cores = 1 };
	CHECK(model_run_all(&run, &req, k, m, NULL, &err) == 0);
	CHECK(run.rows[0].lc == NULL && !run.have_ic && run.rows[4].ic == NULL);
	CHECK(run.rows[0].have_ecm && run.rows[4].have_ecm && run.rows[4].have_rl);
	CHECK_NEAR(run.rows[0].ecm.t[0].cy, 6.00, 0.005);   /* { 6.00 | 6.00 | 0.00 } at N = 100 */
	CHECK_NEAR(run.rows[0].ecm.t[2].cy, 0.00, 0.005);
	CHECK_NEAR(run.rows[4].ecm.t[0].cy, 10.00, 0.005);  /* { 10.00 | 6.00 | 13.06 } at N = 1700 */
	CHECK_NEAR(run.rows[4].ecm.total_cy, 29.06, 0.005);
	/* without in-core times there is no full ECM; with them, the sum and RooflineASM */
	struct model_eval *e = &run.rows[4];
	struct ecm_full f;
	model_eval_ecm(e, &f);
	CHECK(!f.ok);
	struct incore_result ic = { .t_ol = 8, .t_nol = 9 };
	e->ic = &ic;
	model_eval_ecm(e, &f);
	CHECK(f.ok && fabs(f.prediction - 38.06) < 0.005);
	int b;
	CHECK_NEAR(model_eval_roofline_asm(e, &b), e->rl.cy_per_cl, 1e-12);
	CHECK(b == e->rl.bottleneck);
	ic.t_ol = 1000;
	CHECK(model_eval_roofline_asm(e, &b) == 1000 && b == -1);
	/* benchmark: time x clock, or the cycles counter, per cache line of work (8 iterations) */
	e->bench.seconds_per_call = 1e-3;
	e->bench_ghz = 2;
	double cls = (double)e->b.iterations / 8;
	CHECK_NEAR(model_eval_bench_time_cy_per_cl(e), 2e6 / cls, 1e-9);
	CHECK_NEAR(model_eval_bench_cy_per_cl(e), 2e6 / cls, 1e-9);
	e->cnt.available = 1;
	e->cnt.per_call[0] = 3e6;
	CHECK_NEAR(model_eval_bench_cy_per_cl(e), 3e6 / cls, 1e-9);
	CHECK(model_bench_check_memory(&e->b, &err) == 0);
	model_run_release(&run);
	/* one size: the layer conditions are kept, and blocking re-evaluates them */
	d[1] = define("N", 2000, 0, 0);
	CHECK(model_run_init(&run, k, d, 2, &err) == 0 && run.n == 1 && !run.sweep);
	CHECK(model_run_all(&run, &req, k, m, NULL, &err) == 0 && run.rows[0].lc == run.lc);
	struct model_blocking *blk = calloc(1, sizeof(*blk));
	CHECK(blk && model_blocking(&req, k, m, run.vals, &run.rows[0], blk, &err) == 0);
	CHECK(blk->ok && blk->n == 3 && !strcmp(blk->model, "data transfers"));
	const struct model_block *l1 = &blk->level[0];
	CHECK(!strcmp(l1->level, "L1") && l1->found && !strcmp(k->sym[l1->sym], "N") && l1->block_at_most == 1024);
	CHECK(!strcmp(l1->loops, "'i'") && run.lc->cond[l1->cond_now].misses == 4 && run.lc->cond[l1->cond_blocked].misses == 2);
	CHECK(l1->cy_blocked > 0 && l1->cy_blocked < l1->cy_now);
	free(blk);
	model_run_release(&run);
	kernel_free(k);
	free(m);
}


TESTS(T(test_eval__pipeline))
