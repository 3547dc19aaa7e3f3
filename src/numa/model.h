/* The contention model: what concurrent flows get, by max-min fair sharing over threads
 * (progressive filling). Every thread's rate rises equally until it reaches its own limit
 * bandwidth_1thread[i][j] or a resource it uses is full; a thread of flow i->j uses the memory of
 * node j (capacity bandwidth[j][j]) and, when i != j, the path i->j (capacity bandwidth[i][j]). */
#ifndef ARCHSCOPE_NUMA_MODEL_H
#define ARCHSCOPE_NUMA_MODEL_H

#include "common/error.h"
#include "numa/matrix.h"
#include "numa/place.h"

enum numa_limit { NUMA_LIMIT_THREAD, NUMA_LIMIT_MEMORY, NUMA_LIMIT_PATH };

struct numa_prediction {
	double thread_gbs;    /* each thread's rate */
	double flow_gbs;      /* threads x thread_gbs */
	enum numa_limit limit; /* what stopped its threads */
	int limit_node;       /* memory node (OS number) or, for a path, its source */
};

/* Predicts every flow (OS node numbers of m) into pred[0..n). Errors: a node m lacks, or a
 * needed figure that is not a positive number (named with its pair). */
int numa_model_predict(const struct numa_matrix *m, const struct numa_flow *f, int n, struct numa_prediction *pred,
		       struct as_error *err);

const char *numa_limit_name(enum numa_limit l);

#endif
