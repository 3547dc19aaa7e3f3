/* libFuzzer target for the NUMA matrix reader (`numa model --matrix`, `numa load --predict`): any
 * bytes either fail with a message or give a matrix, on which the contention model then predicts
 * flows between every pair of its nodes (one and several flows at once). Built and run by
 * tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "numa/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	struct numa_matrix m;
	struct as_error err = { 0 };
	int rc = numa_matrix_parse(&m, text, "fuzz.json", &err);
	free(text);
	if (rc != 0) {
		if (!err.msg[0])
			abort(); /* a failure must say why */
		return 0;
	}
	if (m.n < 1 || m.n > NUMA_MAX_NODES)
		abort();
	struct numa_flow f[NUMA_MAX_NODES * NUMA_MAX_NODES];
	struct numa_prediction p[NUMA_MAX_NODES * NUMA_MAX_NODES];
	int n = 0;
	for (int i = 0; i < m.n; i++)
		for (int j = 0; j < m.n; j++) {
			f[n] = (struct numa_flow){ .src = m.node[i], .dst = m.node[j], .threads = 1 + (i + j) % 4 };
			struct as_error e1 = { 0 };
			if (numa_model_predict(&m, &f[n], 1, &p[n], &e1) != 0 && !e1.msg[0])
				abort();
			n++;
		}
	struct as_error e2 = { 0 };
	if (numa_model_predict(&m, f, n, p, &e2) != 0 && !e2.msg[0])
		abort();
	return 0;
}
