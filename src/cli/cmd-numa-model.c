/* archscope numa model: what concurrent flows get, predicted from a measured matrix by max-min
 * fair sharing over threads (progressive filling; numa/model.h). */
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/cmd-numa.h"
#include "cli/parse-options.h"
#include "machine/result-numa.h"

static const struct opt_cmd model_cmd = {
	.name = "numa model",
	.usage = (const char *const[]){ "archscope numa model --matrix FILE --flow SRC:DST:THREADS... [--json]", NULL },
	.description = "Predicts each flow's bandwidth when the flows run together: every thread's rate rises equally\n"
		       "until it reaches its own limit (the one-thread bandwidth of its pair) or a resource it uses is\n"
		       "full: the memory of node j (bandwidth[j][j]) and, for i != j, the path i->j (bandwidth[i][j]).\n"
		       "A flow gets the sum of its threads. FILE is what 'numa matrix --json' writes.\n",
	.epilog = "example: archscope numa model --matrix m.json --flow 0:0:4 --flow 1:0:8\n",
};

int cmd_numa_model(int argc, char **argv)
{
	int json = 0;
	const char *matrix_path = NULL;
	struct opt_strings flows = { 0 };
	const struct opt options[] = {
		OPT_STRING('m', "matrix", &matrix_path, "FILE", "the matrix ('numa matrix --json' output)", .flags = OPT_F_REQUIRED),
		OPT_STRINGS('f', "flow", &flows, "SRC:DST:THREADS", "a flow: THREADS threads on node SRC reading node DST (repeat)"),
		OPT_JSON(&json),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &model_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc > 0)
		return error_usage("numa model", "unexpected argument '%s' (flows are given with --flow)", argv[0]), EXIT_USAGE;
	struct numa_flow f[NUMA_MAX_FLOWS];
	int rc = cli_numa_flows("numa model", flows.v, flows.n, f);
	if (rc)
		return rc;
	struct numa_matrix *m = malloc(sizeof(*m));
	if (!m)
		return error("out of memory"), EXIT_FAIL;
	struct as_error err = { 0 };
	struct numa_prediction pred[NUMA_MAX_FLOWS];
	if (numa_matrix_read(m, matrix_path, &err) != 0 || numa_model_predict(m, f, flows.n, pred, &err) != 0) {
		free(m);
		return error_err(&err), EXIT_USAGE;
	}
	struct emit *e = emit_new(json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (!e) {
		free(m);
		return error("out of memory"), EXIT_FAIL;
	}
	emit_string(e, NMO_KEY(MATRIX), "matrix", matrix_path);
	emit_int(e, NMO_KEY(NODE_COUNT), "nodes in the matrix", m->n, NULL);
	cli_numa_flows_render(e, NMO_KEY(FLOWS), f, flows.n, pred, NULL, NULL);
	emit_string(e, NMO_KEY(METHOD), "method",
		    "max-min fair sharing over threads by progressive filling; limits: bandwidth_1thread_gbs[i][j] per thread, "
		    "bandwidth_gbs[j][j] for memory j, bandwidth_gbs[i][j] for the path i->j");
	free(m);
	return cli_emit_end(e, "numa model");
}
