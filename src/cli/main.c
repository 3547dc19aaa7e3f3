/* archscope: one binary, one command table. `archscope` alone lists the commands on stderr and
 * exits 2 (`archscope help` lists them on stdout, exit 0); an unknown
 * command exits 2 with a suggestion; every command's output stream is checked at exit. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/conditions.h"
#include "probe/clock.h"
#include "cli/cli.h"

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const struct cli_command commands[] = {
	{ "topology", cmd_topology, "sockets, cores, threads, caches and NUMA nodes as the OS reports them" },
	{ "probe", cmd_probe, "effective hardware by measurement (clock, caches, TLB, instructions, registers, c2c, ...)" },
	{ "bench", cmd_bench, "streaming kernels: bandwidth per working set and thread count (likwid-bench, ECM)" },
	{ "machine", cmd_machine, "read, check and compare machine files (archscope's and Kerncraft's)" },
	{ "model", cmd_model, "Roofline and ECM data models of a C loop kernel: layer conditions, cache simulation (Kerncraft)" },
	{ "events", cmd_events, "every event this CPU's PMUs, the kernel and tracefs offer, and whether it opens here" },
	{ "stat", cmd_stat, "count a program's events over repeated runs: mean, stddev, per-run values (EvSel)" },
	{ "compare", cmd_compare, "compare two stat results: Welch t-test, Benjamini-Hochberg q, Hedges' g, ratio with 95 % interval" },
	{ "regress", cmd_regress, "fit each event against a program parameter: constant, linear, quadratic, exponential, power (AICc)" },
	{ "phases", cmd_phases, "split a program's run into phases (ramp-up, compute) by its footprint, counters per phase" },
	{ "memhist", cmd_memhist, "load-latency histograms by data source (L1 ... remote DRAM), live (PEBS, IBS) or recorded" },
	{ "stack", cmd_stack, "speedup stack of a multi-threaded program: base speedup and one component per delimiter" },
	{ "whatif", cmd_whatif, "causal profile: the program's speedup if one code site were faster (virtual speedups)" },
	{ "numa", cmd_numa, "NUMA latency and bandwidth matrices, load on the links between nodes, a contention model" },
	{ "tune", cmd_tune, "register and L1 blocking from probed values, a generated kernel vs OpenBLAS (BlackjackBench)" },
	{ "report", cmd_report, "one self-contained HTML page of the machine: answers with evidence, curves, heatmaps, Roofline" },
	{ "cluster", cmd_cluster, "nodes of a cluster compared, latency and bandwidth between ranks, layers, LogGP (under mpirun)" },
	{ "analyze", cmd_analyze, "re-derive an answer from a saved curve (CSV) with the probes' statistics" },
	{ "help", cmd_help, "list the commands, or show one command's help" },
	{ "version", cmd_version, "print the version" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void list_commands(FILE *out)
{
	fprintf(out, "usage: archscope [--version] [--help] <command> [<args>]\n\n"
		     "archscope measures what a machine really is and how fast code should run on it.\n\n"
		     "commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nsee 'archscope <command> --help' for a command's options.\n");
}

/* "did you mean" lines for a word that names no command. */
static void suggest_command(const char *word)
{
	const char *names[NCOMMANDS];
	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	cli_suggest(word, names, NCOMMANDS, "");
}

static int cmd_help(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--help") != 0 && strcmp(argv[1], "-h") != 0) {
		for (size_t i = 0; i < NCOMMANDS; i++)
			if (strcmp(commands[i].name, argv[1]) == 0 && commands[i].fn != cmd_help) {
				char *args[] = { argv[1], "--help", NULL };
				return commands[i].fn(2, args);
			}
		error("no command '%s'", argv[1]);
		suggest_command(argv[1]);
		usage_hint(NULL);
		return EXIT_USAGE;
	}
	list_commands(stdout);
	return EXIT_OK;
}

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("archscope %s\n", ARCHSCOPE_VERSION);
	return EXIT_OK;
}

static int check_stdout(void)
{
	/* A full disk or a closed pipe must not pass as success with a truncated result. */
	int failed = fflush(stdout) != 0 || ferror(stdout);
	int e = errno;
	if (fclose(stdout) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	if (failed) {
		fprintf(stderr, "archscope: error: write error on standard output: %s\n", strerror(e ? e : EIO));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	if (argc < 2) { /* no command is a usage error (git and perf exit non-zero too): the list on stderr */
		list_commands(stderr);
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
		name = "help";
	else if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0)
		name = "version";
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(commands[i].name, name) == 0) {
			cond_clock_source(clock_window_ghz); /* each step's clock (common/conditions.h) */
			int rc = commands[i].fn(argc - 1, argv + 1);
			int out = check_stdout();
			cli_conditions_summary(); /* after the results: the conditions of every step measured */
			return rc ? rc : out;
		}
	}
	error("'%s' is not an archscope command", name);
	suggest_command(name);
	usage_hint(NULL);
	return EXIT_USAGE;
}
