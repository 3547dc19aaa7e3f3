/* Blocking advice (Kerncraft paper §2.4.2): per cache level, the next better layer condition than
 * the one that holds, the largest value of one constant for which it holds (the block size of the
 * loops that constant bounds), and the ECM (or the data transfers) re-evaluated with the constant
 * at that value, a proxy for the blocked kernel that leaves out the block edges. */
#ifndef ARCHSCOPE_MODEL_BLOCKING_H
#define ARCHSCOPE_MODEL_BLOCKING_H

#include "model/eval.h"

struct model_block {
	char level[16];
	int found;              /* 0: the best condition holds already, or none gets better by making one
				 * constant smaller */
	int sym;                /* the constant to block */
	int64_t block_at_most;  /* its largest value for which the better condition holds */
	char loops[128];        /* the loops whose bounds use it: "'i', 'j'" */
	int cond_now, cond_blocked; /* indices into the size's layer conditions */
	double cy_now, cy_blocked;  /* the model's cycles per cache line of work (0: not available) */
};

struct model_blocking {
	int ok;                 /* 0: no layer conditions; error says why */
	char error[512];
	const char *model;      /* what cy_now and cy_blocked are: "ECM" or "data transfers" */
	int n;                  /* the cache levels */
	struct model_block level[MACHINE_MAX_LEVELS];
};

/* Blocking for size e (evaluated at vals with its layer conditions). Fails as model_eval_size
 * when a re-evaluation does, -ENOMEM. */
int model_blocking(const struct model_request *req, const struct kernel *k, const struct machine *m, const int64_t *vals,
		   const struct model_eval *e, struct model_blocking *out, struct as_error *err);

#endif
