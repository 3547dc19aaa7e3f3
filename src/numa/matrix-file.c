/* The NUMA matrix as data (see matrix.h): its empty state, node lookup, and reading it back from
 * what `numa matrix --json` wrote, so `numa model` and `numa load --predict` can use a matrix
 * measured elsewhere, through the description of its results (machine/result-numa.h). Nothing here
 * measures (the fuzz target links it alone). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomicfile.h"
#include "machine/result-numa.h"
#include "numa/matrix.h"
#include "report/output.h"

/* The matrix of key id (machine/result-numa.h) as n x n numbers (null: NAN) into out. 1 when absent
 * and optional. */
static int read_square(const json_t *res, int id, int n, int required, double (*out)[NUMA_MAX_NODES], const char *name,
		       struct as_error *err)
{
	const char *key = SCHEMA_KEY(numa_matrix_result, id);
	const json_t *a = schema_get(&numa_matrix_result, res, id);
	if (!a || json_is_null(a)) {
		if (!required)
			return 1;
		return as_error_set(err, -EINVAL, "matrix file '%s': no results.%s", name, key);
	}
	if (!json_is_array(a) || (int)json_array_size(a) != n)
		return as_error_set(err, -EINVAL, "matrix file '%s': results.%s must be a %d x %d matrix (%d nodes), it has %d rows",
				    name, key, n, n, n, json_is_array(a) ? (int)json_array_size(a) : 0);
	for (int i = 0; i < n; i++) {
		const json_t *row = json_array_get(a, (size_t)i);
		if (!json_is_array(row) || (int)json_array_size(row) != n)
			return as_error_set(err, -EINVAL, "matrix file '%s': results.%s[%d] must have %d entries, it has %d", name,
					    key, i, n, json_is_array(row) ? (int)json_array_size(row) : 0);
		for (int j = 0; j < n; j++) {
			const json_t *v = json_array_get(row, (size_t)j);
			if (json_is_null(v))
				out[i][j] = NAN;
			else if (json_is_number(v) && json_number_value(v) >= 0)
				out[i][j] = json_number_value(v);
			else
				return as_error_set(err, -EINVAL, "matrix file '%s': results.%s[%d][%d] is not a non-negative number",
						    name, key, i, j);
		}
	}
	return 0;
}

/* results.nodes: 1 to NUMA_MAX_NODES distinct node numbers into m. */
static int read_nodes(struct numa_matrix *m, const json_t *res, const char *name, struct as_error *err)
{
	const char *key = NMX_KEY(NODES);
	const json_t *nodes = schema_get(&numa_matrix_result, res, NMX_NODES);
	if (!json_is_array(nodes) || json_array_size(nodes) < 1 || json_array_size(nodes) > NUMA_MAX_NODES)
		return as_error_set(err, -EINVAL, "matrix file '%s': results.%s must list 1 to %d NUMA nodes", name, key,
				    NUMA_MAX_NODES);
	m->n = (int)json_array_size(nodes);
	for (int i = 0; i < m->n; i++) {
		const json_t *v = json_array_get(nodes, (size_t)i);
		if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) >= AS_MAX_CPUS)
			return as_error_set(err, -EINVAL, "matrix file '%s': results.%s[%d] is not a node number", name, key, i);
		m->node[i] = (int)json_integer_value(v);
		for (int k = 0; k < i; k++)
			if (m->node[k] == m->node[i])
				return as_error_set(err, -EINVAL, "matrix file '%s': node %d is listed twice", name, m->node[i]);
	}
	return 0;
}

void numa_matrix_init(struct numa_matrix *m, const struct topo *t)
{
	memset(m, 0, sizeof(*m));
	m->n = t ? t->nnodes : 0;
	for (int i = 0; i < NUMA_MAX_NODES; i++)
		for (int j = 0; j < NUMA_MAX_NODES; j++) {
			m->latency_ns[i][j] = m->latency_median_ns[i][j] = NAN;
			m->latency_random_ns[i][j] = m->latency_random_median_ns[i][j] = NAN;
			m->bandwidth_gbs[i][j] = m->bandwidth_1thread_gbs[i][j] = NAN;
			m->slit[i][j] = m->placed[i][j] = NAN;
		}
	for (int i = 0; i < m->n; i++) {
		m->node[i] = t->nodes[i].os_index;
		for (int j = 0; j < m->n && t->has_distances; j++)
			m->slit[i][j] = (double)t->distance[i][j];
	}
}

int numa_matrix_index(const struct numa_matrix *m, int node)
{
	for (int i = 0; i < m->n; i++)
		if (m->node[i] == node)
			return i;
	return -1;
}

int numa_matrix_parse(struct numa_matrix *m, const char *text, const char *name, struct as_error *err)
{
	numa_matrix_init(m, NULL);
	json_t *root = output_json_parse(text, strlen(text), "matrix file", name, 1, 0, err);
	if (!root)
		return err ? err->code : -EINVAL;
	int rc = 0;
	const json_t *res = output_doc_results(root);
	if (!res)
		res = root;
	/* the figures the model needs first, each named; then the whole of what it holds against the
	 * description of numa matrix's results */
	if ((rc = read_nodes(m, res, name, err)) < 0 ||
	    (rc = read_square(res, NMX_BW, m->n, 1, m->bandwidth_gbs, name, err)) < 0 ||
	    (rc = read_square(res, NMX_BW_1THREAD, m->n, 1, m->bandwidth_1thread_gbs, name, err)) < 0 ||
	    (rc = read_square(res, NMX_LATENCY, m->n, 0, m->latency_ns, name, err)) < 0 ||
	    (rc = read_square(res, NMX_LATENCY_RANDOM, m->n, 0, m->latency_random_ns, name, err)) < 0 ||
	    (rc = read_square(res, NMX_SLIT, m->n, 0, m->slit, name, err)) < 0)
		goto out;
	if ((rc = schema_check(&numa_matrix_result, res, err)) < 0) {
		as_error_prefix(err, "matrix file '%s': results.", name);
		goto out;
	}
	const char *kernel = schema_str(&numa_matrix_result, res, NMX_KERNEL);
	if (kernel)
		snprintf(m->kernel, sizeof(m->kernel), "%s", kernel);
	m->complete = 1;
out:
	json_decref(root);
	return rc;
}

int numa_matrix_read(struct numa_matrix *m, const char *path, struct as_error *err)
{
	size_t len = 0;
	char *text = file_read_input(path, "matrix file", NUMA_MATRIX_MAX_BYTES, &len, err);
	if (!text)
		return err && err->code ? err->code : -EIO;
	int rc = numa_matrix_parse(m, text, strcmp(path, "-") ? path : "<stdin>", err);
	free(text);
	return rc;
}
