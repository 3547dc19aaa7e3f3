/* Blocking advice; see blocking.h. */
#include "model/blocking.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next better condition than act at level size that a block of at least 64 iterations makes
 * hold (shorter blocks are mostly edges), at a size the kernel still binds at: its index, or -1. */
static int next_condition(const struct kernel *k, const struct machine *m, const int64_t *vals0, const struct model_eval *e,
			  int act, double size, struct kbound *kb, int *best_s, int64_t *best_t)
{
	int best_c = -1;
	*best_s = -1;
	*best_t = 0;
	for (int c = act + 1; c < e->lc->ncond && best_c < 0; c++) {
		if (e->lc->cond[c].hits <= e->lc->cond[act].hits)
			continue;
		for (int sy = 0; sy < k->nsyms; sy++) {
			int64_t t = lc_transition(e->lc, c, &e->b, sy, size);
			if (t < 64 || t >= vals0[sy] || t <= *best_t)
				continue;
			int64_t v[POLY_MAX_SYMS];
			memcpy(v, vals0, sizeof(v));
			v[sy] = t;
			struct as_error berr = { 0 };
			if (kernel_bind(k, v, (int64_t)machine_line_bytes(m), kb, &berr) == 0) {
				best_c = c;
				*best_s = sy;
				*best_t = t;
			}
		}
	}
	return best_c;
}

int model_blocking(const struct model_request *req, const struct kernel *k, const struct machine *m, const int64_t *vals0,
		   const struct model_eval *e, struct model_blocking *out, struct as_error *err)
{
	memset(out, 0, sizeof(*out));
	if (!e->lc || e->lc_error[0]) {
		snprintf(out->error, sizeof(out->error), "%s", e->lc_error[0] ? e->lc_error : "no layer conditions");
		return 0;
	}
	out->ok = 1;
	struct ecm_full now;
	model_eval_ecm(e, &now);
	double base = now.ok ? now.prediction : e->have_ecm ? e->ecm.total_cy : 0;
	out->model = now.ok ? "ECM" : "data transfers";
	struct model_eval *x = calloc(1, sizeof(*x));
	struct lc_analysis *xl = calloc(1, sizeof(*xl));
	struct kbound *kb = calloc(1, sizeof(*kb));
	int rc = 0;
	if (!x || !xl || !kb) {
		rc = as_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	/* the cache levels as the layer conditions see them: names, and the share of one core */
	struct cache_traffic lv;
	lc_predict(e->lc, m, req->cores, &lv);
	for (int i = 0; i < lv.nlevels; i++) {
		struct model_block *B = &out->level[out->n++];
		snprintf(B->level, sizeof(B->level), "%s", lv.level[i].name);
		double size = lv.level[i].size_bytes;
		B->cond_now = lc_active(e->lc, size);
		int64_t t;
		int c = next_condition(k, m, vals0, e, B->cond_now, size, kb, &B->sym, &t);
		if (c < 0)
			continue;
		B->found = 1;
		B->cond_blocked = c;
		B->block_at_most = t;
		/* the loops whose bounds use the constant */
		size_t w = 0;
		for (int l = 0; l < k->nloops && w < sizeof(B->loops); l++)
			if ((poly_syms(&k->loop[l].end) | poly_syms(&k->loop[l].start)) & (1u << B->sym))
				w += (size_t)snprintf(B->loops + w, sizeof(B->loops) - w, "%s'%s'", w ? ", " : "", k->loop[l].var);
		int64_t v[POLY_MAX_SYMS];
		memcpy(v, vals0, sizeof(v));
		v[B->sym] = t;
		if ((rc = model_eval_size(req, k, m, v, xl, x, err)))
			goto out;
		x->ic = e->ic;
		struct ecm_full f;
		model_eval_ecm(x, &f);
		B->cy_now = base;
		B->cy_blocked = f.ok ? f.prediction : x->have_ecm ? x->ecm.total_cy : 0;
	}
out:
	free(kb);
	free(xl);
	free(x);
	return rc;
}
