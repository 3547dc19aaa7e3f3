/* The NUMA matrix as data (see matrix.h): its empty state, node lookup, and reading it back from
 * what `numa matrix --json` wrote, so `numa model` and `numa load --predict` can use a matrix
 * measured elsewhere. Nothing here measures (the fuzz target links it alone). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomicfile.h"
#include "numa/matrix.h"
#include "report/output.h"

/* results.<key> as an n x n matrix of numbers (null: NAN) into out. 1 when absent and optional. */
static int read_square(json_t *res, const char *key, int n, int required, double (*out)[NUMA_MAX_NODES],
		       const char *name, struct as_error *err)
{
	json_t *a = json_object_get(res, key);
	if (!a || json_is_null(a)) {
		if (!required)
			return 1;
		return as_error_set(err, -EINVAL, "matrix file '%s': no results.%s", name, key);
	}
	if (!json_is_array(a) || (int)json_array_size(a) != n)
		return as_error_set(err, -EINVAL, "matrix file '%s': results.%s must be a %d x %d matrix (%d nodes), it has %d rows",
				    name, key, n, n, n, json_is_array(a) ? (int)json_array_size(a) : 0);
	for (int i = 0; i < n; i++) {
		json_t *row = json_array_get(a, (size_t)i);
		if (!json_is_array(row) || (int)json_array_size(row) != n)
			return as_error_set(err, -EINVAL, "matrix file '%s': results.%s[%d] must have %d entries, it has %d", name,
					    key, i, n, json_is_array(row) ? (int)json_array_size(row) : 0);
		for (int j = 0; j < n; j++) {
			json_t *v = json_array_get(row, (size_t)j);
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
	json_t *res = json_object_get(root, "results");
	if (!res)
		res = root;
	json_t *nodes = json_object_get(res, "nodes");
	if (!json_is_array(nodes) || json_array_size(nodes) < 1 || json_array_size(nodes) > NUMA_MAX_NODES) {
		rc = as_error_set(err, -EINVAL, "matrix file '%s': results.nodes must list 1 to %d NUMA nodes", name, NUMA_MAX_NODES);
		goto out;
	}
	m->n = (int)json_array_size(nodes);
	for (int i = 0; i < m->n; i++) {
		json_t *v = json_array_get(nodes, (size_t)i);
		if (json_is_object(v))
			v = json_object_get(v, "node");
		if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) >= AS_MAX_CPUS) {
			rc = as_error_set(err, -EINVAL, "matrix file '%s': results.nodes[%d] is not a node number", name, i);
			goto out;
		}
		m->node[i] = (int)json_integer_value(v);
		for (int k = 0; k < i; k++)
			if (m->node[k] == m->node[i]) {
				rc = as_error_set(err, -EINVAL, "matrix file '%s': node %d is listed twice", name, m->node[i]);
				goto out;
			}
	}
	if ((rc = read_square(res, "bandwidth_gbs", m->n, 1, m->bandwidth_gbs, name, err)) < 0 ||
	    (rc = read_square(res, "bandwidth_1thread_gbs", m->n, 1, m->bandwidth_1thread_gbs, name, err)) < 0 ||
	    (rc = read_square(res, "latency_ns", m->n, 0, m->latency_ns, name, err)) < 0 ||
	    (rc = read_square(res, "latency_random_ns", m->n, 0, m->latency_random_ns, name, err)) < 0 ||
	    (rc = read_square(res, "slit", m->n, 0, m->slit, name, err)) < 0)
		goto out;
	rc = 0;
	json_t *k = json_object_get(res, "kernel");
	if (json_is_string(k))
		snprintf(m->kernel, sizeof(m->kernel), "%s", json_string_value(k));
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
