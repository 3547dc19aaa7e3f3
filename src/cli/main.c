/* archscope: one binary, one command table. `archscope` alone lists the commands; an unknown
 * command exits 2 with a suggestion; every command's output stream is checked at exit. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const struct cli_command commands[] = {
	{ "topology", cmd_topology, "sockets, cores, threads, caches and NUMA nodes as the OS reports them" },
	{ "probe", cmd_probe, "effective hardware by measurement (clock, caches, TLB, instructions, registers, c2c, ...)" },
	{ "machine", cmd_machine, "read, check and compare machine files (archscope's and Kerncraft's)" },
	{ "bench", cmd_bench, "streaming kernels: bandwidth per working set and thread count (likwid-bench, ECM)" },
	{ "model", cmd_model, "Roofline and ECM data models of a C loop kernel: layer conditions, cache simulation (Kerncraft)" },
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

static int cmd_help(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--help") != 0 && strcmp(argv[1], "-h") != 0) {
		for (size_t i = 0; i < NCOMMANDS; i++)
			if (strcmp(commands[i].name, argv[1]) == 0 && commands[i].fn != cmd_help) {
				char *args[] = { argv[1], "--help", NULL };
				return commands[i].fn(2, args);
			}
		usage_error("help", "no command '%s'", argv[1]);
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

/* Optimal string alignment distance (Levenshtein with transpositions), for suggestions. */
static int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63)
		return 99;
	int d[64][64];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1];
			int v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
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
	if (argc < 2) {
		list_commands(stdout);
		int rc = check_stdout();
		return rc ? rc : EXIT_OK;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
		name = "help";
	else if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0)
		name = "version";
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(commands[i].name, name) == 0) {
			int rc = commands[i].fn(argc - 1, argv + 1);
			int out = check_stdout();
			return rc ? rc : out;
		}
	}
	fprintf(stderr, "archscope: '%s' is not an archscope command. See 'archscope --help'.\n", name);
	int best = 99;
	for (size_t i = 0; i < NCOMMANDS; i++) {
		int d = edit_distance(name, commands[i].name);
		if (strncmp(commands[i].name, name, strlen(name)) == 0 && strlen(name) >= 2)
			d = 1;
		if (d < best)
			best = d;
	}
	if (best <= 2) {
		fputc('\n', stderr);
		for (size_t i = 0; i < NCOMMANDS; i++) {
			int d = edit_distance(name, commands[i].name);
			if (strncmp(commands[i].name, name, strlen(name)) == 0 && strlen(name) >= 2)
				d = 1;
			if (d == best)
				fprintf(stderr, "\tdid you mean '%s'?\n", commands[i].name);
		}
	}
	return EXIT_USAGE;
}
