/* The in-core analysis from the kernel to T_OL and T_nOL: code generation, assembly, llvm-mca and
 * the recurrence put together; see incore.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomicfile.h"
#include "common/spawn.h"
#include "model/incore/incore.h"
#include "model/incore/work.h"

double incore_memops_cy(const struct incore_split *c, double loads, double stores)
{
	if (!(c->mixed_cy > 0))
		return 0;
	double l = loads * c->load_cy, s = stores * c->store_cy, lo = fmin(l, s);
	/* how much of the cheaper kind hides under the other, from the loop that does both: 1 where
	 * a load and a store cost no more than the dearer of the two, 0 where they cost the sum */
	double overlap = fmin(c->load_cy, c->store_cy) > 0
				 ? (c->load_cy + c->store_cy - c->mixed_cy) / fmin(c->load_cy, c->store_cy)
				 : 0;
	overlap = fmin(1, fmax(0, overlap));
	return l + s - overlap * lo;
}

int incore_analyse(const struct kernel *k, const struct kbound *b, const char *text, size_t len,
		   const struct incore_config *cfg, double iterations_per_cl, struct incore_result *r, struct as_error *err)
{
	memset(r, 0, sizeof(*r));
	r->cfg = *cfg;
	r->iterations_per_cl = iterations_per_cl;
	if (!cfg->mcpu[0])
		return as_error_set(err, -EINVAL, "the machine file has no 'in-core model: LLVM-MCA: -mcpu=...'");
	if (!spawn_have("llvm-mca") && !spawn_have("llvm-mca-14"))
		return as_error_set(err, -ENOENT, "llvm-mca is not installed (Debian llvm-14; scripts/setup.sh installs it)");
	struct incore_workdir w;
	int rc = incore_workdir_open(&w, err);
	if (rc)
		return rc;
	char *asm_text = NULL;
	if ((rc = incore_codegen_file(k, b, text, len, 0, w.path[W_C], err)) ||
	    (rc = incore_compile(cfg, w.path[W_C], w.path[W_S], 1, &w, err)))
		goto out;
	asm_text = file_read_all(w.path[W_S], NULL);
	if (!asm_text) {
		rc = as_error_set(err, -EIO, "cannot read the compiler's assembly");
		goto out;
	}
	if ((rc = incore_find_loop(asm_text, "archscope_kernel", &r->loop, err)))
		goto out;
	r->unroll = incore_unroll(k, &r->loop);
	if (r->unroll <= 0) {
		rc = as_error_set(err, -EINVAL, "cannot tell how many kernel iterations one pass of the loop does (%s)", r->loop.label);
		goto out;
	}
	FILE *f = fopen(w.path[W_LOOP], "w");
	if (!f || fputs(r->loop.text, f) < 0 || fclose(f)) {
		rc = as_error_set(err, -EIO, "cannot write the loop's assembly");
		goto out;
	}
	if ((rc = incore_mca_run(cfg, &w, &r->mca, err)))
		goto out;
	double scale = iterations_per_cl / r->unroll;
	r->t_ol_ports = r->mca.t_ol_pass * scale;
	r->t_ol = r->t_ol_ports;
	r->t_nol = r->mca.t_nol_pass * scale;
	/* Line-crossing accesses: llvm-mca knows no addresses, so a load that spans two lines costs it
	 * what an aligned one costs; probe instr measured both. Each such access per cache line of
	 * work adds the difference to T_nOL, loads and stores alike: it occupies L1's data path for
	 * a second line, time in which L1 serves no transfer from L2. */
	int vb = incore_loop_vector_bytes(&r->loop);
	for (int i = 0; vb > 0 && i < cfg->nsplit; i++) {
		const struct incore_split *c = &cfg->split[i];
		if (c->width_bits != 8 * vb)
			continue;
		r->split_width_bits = c->width_bits;
		/* The loop's loads and stores at the throughput probe instr measured for the width: where
		 * llvm-mca's model of the -mcpu moves more of them per cycle than this core does (znver5
		 * as modelled: three 512-bit loads per cycle; the Zen 5 guest: two, and one store), the
		 * non-overlapping time is theirs. */
		double nld = r->loop.load_bytes / vb * scale, nst = r->loop.store_bytes / vb * scale;
		r->t_nol_memops = incore_memops_cy(c, nld, nst);
		if (r->t_nol_memops > r->t_nol) {
			r->t_nol = r->t_nol_memops;
			r->t_nol_from_memops = 1;
		}
		incore_split_count(k, b, vb, &r->split_loads, &r->split_stores);
		r->t_split = r->split_loads * fmax(0.0, c->load_split_cy - c->load_cy) +
			     r->split_stores * fmax(0.0, c->store_split_cy - c->store_cy);
		r->t_nol += r->t_split;
		break; /* one row per width (a file that repeats the width counts it once) */
	}
	double sim = r->mca.cycles_per_pass * scale;
	/* a dependency chain (a reduction without reassociation) is slower than any port: llvm-mca's
	 * simulated cycles say so, and the overlapping time is at least that */
	if (sim > 1.5 * (r->t_ol > r->t_nol ? r->t_ol : r->t_nol)) {
		r->latency_bound = 1;
		r->t_ol = sim;
	}
	/* the chain's latencies as this machine measured them, where llvm-mca's model of the -mcpu
	 * has others (a 2-cycle scalar add on Golden Cove, 4 in llvm-mca 14's Cooper Lake) */
	incore_chain(&r->mca, cfg->op, cfg->nops, &r->chain);
	/* The recurrence with the measured latencies bounds a pass from below on its own. Scaling
	 * llvm-mca's simulated cycles by the two recurrences' ratio is wrong where its simulation is
	 * not bound by its own recurrence (bench/results/design-measurements.md, mca-recurrence). */
	if (r->latency_bound && r->chain.nprobed > 0 && r->chain.probed_cy_per_pass > 0) {
		r->latency_probed = 1;
		r->t_ol = fmax(r->t_ol_ports, r->chain.probed_cy_per_pass * scale);
	}
out:
	free(asm_text);
	incore_workdir_close(&w);
	if (rc)
		incore_result_free(r);
	return rc;
}

void incore_result_free(struct incore_result *r)
{
	incore_loop_free(&r->loop);
	incore_mca_free(&r->mca);
}
