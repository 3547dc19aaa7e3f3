/* archscope numa: the NUMA matrices, the interconnect load generator and the contention model
 * (thesis §4.4, Hydralisk). This file holds the sub-command table and what the sub-commands
 * share; cmd-numa-matrix.c, cmd-numa-load.c and cmd-numa-model.c hold the sub-commands. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd-numa.h"
#include "cli/parse-options.h"
#include "machine/result-numa.h"

int cli_numa_flows(const char *cmd, const char *const *text, int n, struct numa_flow *f)
{
	if (n < 1)
		return error_usage(cmd, "no flow: give one or more SRC:DST:THREADS"), EXIT_USAGE;
	if (n > NUMA_MAX_FLOWS)
		return error_usage(cmd, "%d flows: at most %d", n, NUMA_MAX_FLOWS), EXIT_USAGE;
	for (int k = 0; k < n; k++) {
		struct as_error err = { 0 };
		if (numa_flow_parse(text[k], &f[k], &err) != 0)
			return error_usage(cmd, "%s", err.msg), EXIT_USAGE;
	}
	return 0;
}

int cli_numa_topology(const char *xml, struct topo *t)
{
	struct as_error err = { 0 };
	int rc = xml ? topo_load_xml(t, xml, &err) : topo_load(t, &err);
	if (rc != 0) {
		error_err(&err);
		return xml ? EXIT_USAGE : EXIT_FAIL;
	}
	if (t->nnodes < 1) {
		topo_release(t);
		return error("hwloc reports no NUMA node%s%s%s", xml ? " in '" : "", xml ? xml : "", xml ? "'" : ""), EXIT_FAIL;
	}
	return 0;
}

void cli_numa_one_node_note(struct emit *e, const char *key, int nodes)
{
	emit_int(e, key, "NUMA nodes", nodes, NULL);
	if (nodes == 1)
		emit_annotate(e, " (this machine has one NUMA node: every figure is node 0 reading its own memory)");
}

void cli_numa_flows_render(struct emit *e, const char *key, const struct numa_flow *f, int n,
			   const struct numa_prediction *pred, const double *measured, const struct as_cpulist *cpus)
{
	emit_table_begin(e, key, "flows (GB/s of real bytes)");
	for (int k = 0; k < n; k++) {
		emit_row_begin(e);
		emit_text(e, "flow", "%d:%d:%d", f[k].src, f[k].dst, f[k].threads);
		emit_int(e, NFL_KEY(SRC), NULL, f[k].src, NULL);
		emit_int(e, NFL_KEY(DST), NULL, f[k].dst, NULL);
		emit_int(e, NFL_KEY(THREADS), NULL, f[k].threads, NULL);
		if (cpus) {
			emit_cpulist(e, NFL_KEY(CPUS), "cpus", &cpus[k]);
		}
		if (pred)
			emit_number(e, NFL_KEY(PREDICTED), "predicted", pred[k].flow_gbs, "GB/s", "%.2f");
		else
			emit_null(e, NFL_KEY(PREDICTED), NULL, NULL);
		if (measured)
			emit_number(e, NFL_KEY(MEASURED), "measured", measured[k], "GB/s", "%.2f");
		else
			emit_null(e, NFL_KEY(MEASURED), NULL, NULL);
		if (pred && measured)
			emit_number(e, NFL_KEY(RATIO), "measured / predicted", measured[k] / pred[k].flow_gbs, NULL, "%.3f");
		if (pred) {
			emit_number(e, NFL_KEY(THREAD_GBS), "per thread", pred[k].thread_gbs, "GB/s", "%.2f");
			emit_string(e, NFL_KEY(LIMIT), "limit", numa_limit_name(pred[k].limit));
			emit_int(e, NFL_KEY(LIMIT_NODE), NULL, pred[k].limit_node, NULL);
			if (pred[k].limit == NUMA_LIMIT_PATH)
				emit_annotate(e, " %d->%d", f[k].src, f[k].dst);
			else if (pred[k].limit == NUMA_LIMIT_MEMORY)
				emit_annotate(e, " of node %d", pred[k].limit_node);
		}
		emit_row_end(e);
	}
	emit_table_end(e);
}

static const struct opt_section numa_sections[] = {
	{ "sub-commands",
	  "  matrix   for every pair (CPUs of node i, memory of node j): idle latency by pointer chase,\n"
	  "           bandwidth of one thread and of all CPUs of node i, the firmware's SLIT beside\n"
	  "  load     runs flows SRC:DST:THREADS together (each alone first), bandwidth every second,\n"
	  "           per flow, per link and the cross-talk table; --predict sets the model beside\n"
	  "  model    predicts what flows get together from a matrix, by max-min fair sharing\n"
	  "Each has its own --help: 'archscope numa matrix --help'.\n",
	  NULL },
	{ NULL, NULL, NULL },
};

static const struct opt_cmd numa_cmd = {
	.name = "numa",
	.usage = (const char *const[]){
		"archscope numa matrix [--kernel NAME] [--size BYTES] [--quick] [--seed N] [--json] [--plot DIR] [--quiet]",
		"archscope numa load SRC:DST:THREADS... [--duration S] [--kernel NAME] [--size BYTES] [--no-alone]\n"
		"                    [--predict FILE] [--topology FILE] [--dry-run] [--json] [--quiet]",
		"archscope numa model --matrix FILE --flow SRC:DST:THREADS... [--json]", NULL },
	.description = "NUMA nodes as adjacency matrices of latency and bandwidth, load on the links between them\n"
		       "(Hydralisk), and a model of what concurrent flows get. Nodes are the OS's numbers (numactl's).\n",
	.sections = numa_sections,
	.flags = OPT_CMD_STOP_AT_NON_OPTION,
};

int cmd_numa(int argc, char **argv)
{
	static const struct cli_command subs[] = {
		{ "matrix", cmd_numa_matrix, NULL },
		{ "load", cmd_numa_load, NULL },
		{ "model", cmd_numa_model, NULL },
	};
	const struct opt options[] = { OPT_HELP(), OPT_END() };
	argc = opt_parse(argc, argv, &numa_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc == 0)
		return error_usage("numa", "no subcommand (matrix, load, model)"), EXIT_USAGE;
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (!strcmp(argv[0], subs[i].name))
			return subs[i].fn(argc, argv);
	static const char *const names[] = { "matrix", "load", "model" };
	error_usage("numa", "unknown subcommand '%s' (matrix, load, model)", argv[0]);
	cli_suggest(argv[0], names, 3, "");
	return EXIT_USAGE;
}
