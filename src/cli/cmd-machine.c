/* archscope machine show|validate|diff: read machine files (archscope's own or Kerncraft's), check
 * them with errors that name the line and key, print a summary, the canonical YAML, or two
 * machines side by side. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "machine/diff.h"
#include "machine/file.h"
#include "report/table.h"

static void print_usage(FILE *out)
{
	fputs("usage: archscope machine show [--yaml | --json] FILE\n"
	      "       archscope machine validate FILE...\n"
	      "       archscope machine diff [--all] FILE_A FILE_B\n"
	      "\n"
	      "Machine files are YAML in Kerncraft's format (clock, cores, FLOPs per cycle, memory hierarchy,\n"
	      "benchmarks) plus an 'archscope:' section with every probe result; 'archscope probe -o' writes\n"
	      "them, and Kerncraft's own files are read as they are.\n"
	      "\n"
	      "  show       a readable summary; --yaml prints the file as archscope writes it (reading that\n"
	      "             back and writing it again gives the same bytes), --json as JSON\n"
	      "  validate   checks every file; each problem names the line and key; exit 2 if any\n"
	      "  diff       the core values of two machines side by side (--all: every value)\n"
	      "\n"
	      "options:\n"
	      "  --yaml              show: the canonical YAML\n"
	      "  --json              show: one JSON object {\"archscope\", \"command\", \"machine\", \"results\"}\n"
	      "  --all               diff: every value, not just the core ones\n"
	      "  -h, --help          this help\n",
	      out);
}

static void fmt_size(double b, char *out, size_t len)
{
	if (b >= 1 << 30)
		snprintf(out, len, "%.3g GiB", b / (1 << 30));
	else if (b >= 1 << 20)
		snprintf(out, len, "%.3g MiB", b / (1 << 20));
	else if (b >= 1024)
		snprintf(out, len, "%.3g KiB", b / 1024);
	else
		snprintf(out, len, "%.0f B", b);
}

static int show(const char *path, int yaml, int json)
{
	struct mtree t;
	cli_machine_load(path, &t);
	if (yaml) {
		struct as_error err = { 0 };
		int rc = mtree_emit(&t, stdout, &err);
		mtree_free(&t);
		if (rc != 0)
			die_err(EXIT_FAIL, &err);
		return EXIT_OK;
	}
	if (json) {
		cli_print_json("machine", json_pack("{s:s,s:o}", "file", path, "machine", mnode_to_json(t.root)));
		mtree_free(&t);
		return EXIT_OK;
	}
	struct machine m;
	machine_read(&t, &m);
	printf("%s: %s\n", path, m.model_name);
	printf("  clock %.3g GHz; %ld socket%s x %ld cores x %ld threads; cache line %.0f B\n", m.clock_hz / 1e9,
	       m.sockets ? m.sockets : 1, m.sockets > 1 ? "s" : "", m.cores_per_socket, m.threads_per_core ? m.threads_per_core : 1,
	       m.cacheline_bytes);
	if (m.flops_dp[0] > 0 || m.flops_sp[0] > 0)
		printf("  FLOPs per cycle: DP %g (ADD %g, MUL %g, FMA %g), SP %g (ADD %g, MUL %g, FMA %g)\n", m.flops_dp[0],
		       m.flops_dp[1], m.flops_dp[2], m.flops_dp[3], m.flops_sp[0], m.flops_sp[1], m.flops_sp[2], m.flops_sp[3]);
	struct table *tb = table_new(8, "level", "size per group", "sets", "ways", "line B", "groups", "cores/group",
				     "upstream throughput");
	for (int i = 0; i < m.nlevels; i++) {
		const struct machine_level *L = &m.level[i];
		char sz[32];
		fmt_size(L->size_bytes, sz, sizeof(sz));
		table_cell(tb, "%s", L->name);
		table_cell(tb, "%s", L->size_bytes > 0 ? sz : "-");
		table_cell(tb, L->has_cache ? "%ld" : "-", L->sets);
		table_cell(tb, L->has_cache ? "%ld" : "-", L->ways);
		table_cell(tb, L->has_cache ? "%ld" : "-", L->cl_size);
		table_cell(tb, L->groups ? "%ld" : "-", L->groups);
		table_cell(tb, L->cores_per_group ? "%ld" : "-", L->cores_per_group);
		table_cell(tb, "%s", L->upstream_text[0] ? L->upstream_text : "-");
	}
	table_print(tb, stdout, "  ");
	table_free(tb);
	/* benchmarks: the first (one-core) result of each kernel per level */
	const struct mnode *meas = mnode_get(mnode_get(t.root, "benchmarks"), "measurements");
	if (meas && meas->n) {
		printf("  streaming bandwidth, first entry (one core) and last entry (all cores listed), application GB/s:\n");
		for (size_t i = 0; i < meas->n; i++) {
			const struct mnode *res = mnode_get(meas->vals[i]->n ? meas->vals[i]->vals[0] : NULL, "results");
			printf("    %-4s", meas->keys[i]);
			for (size_t k = 0; res && k < res->n; k++) {
				const struct mnode *l = res->vals[k];
				if (l->kind == MN_SEQ && l->n)
					printf("  %s %s .. %s", res->keys[k], l->vals[0]->text, l->vals[l->n - 1]->text);
			}
			printf("\n");
		}
	}
	const struct mnode *as = mnode_get(t.root, "archscope");
	if (as)
		printf("  archscope section: %zu entries (probe results with method, confidence, os_reported)\n", as->n);
	mtree_free(&t);
	return EXIT_OK;
}

static int diff(const char *a, const char *b, int all)
{
	struct mtree ta, tb;
	cli_machine_load(a, &ta);
	cli_machine_load(b, &tb);
	struct machine_diff d;
	struct as_error err = { 0 };
	if (machine_diff_init(&d, ta.root, tb.root, all, &err) != 0)
		die_err(EXIT_FAIL, &err);
	printf("A: %s (%s)\nB: %s (%s)\n\n", a, mnode_get(ta.root, "model name")->text, b, mnode_get(tb.root, "model name")->text);
	struct table *t = table_new(4, "key", "A", "B", "differs");
	for (size_t i = 0; i < d.n; i++) {
		const struct machine_diff_row *r = &d.row[i];
		table_cell(t, "%s", r->path);
		table_cell(t, r->a ? "%.60s" : "-", r->a);
		table_cell(t, r->b ? "%.60s" : "-", r->b);
		table_cell(t, "%s", r->differs ? "<>" : "");
	}
	/* the core numbers, typed, as ratios */
	struct machine ma, mb;
	machine_read(&ta, &ma);
	machine_read(&tb, &mb);
	table_print(t, stdout, "");
	printf("\n%d of %zu values differ%s\n", d.ndiffer, d.na, all ? "" : " (core keys; --all for every value)");
	if (ma.clock_hz > 0 && mb.clock_hz > 0)
		printf("clock ratio %s / %s: %.3f\n", a, b, ma.clock_hz / mb.clock_hz);
	table_free(t);
	machine_diff_release(&d);
	mtree_free(&ta);
	mtree_free(&tb);
	return EXIT_OK;
}

int cmd_machine(int argc, char **argv)
{
	enum { OPT_YAML = 256, OPT_JSON, OPT_ALL };
	static const struct option opts[] = {
		{ "yaml", no_argument, NULL, OPT_YAML },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int yaml = 0, json = 0, all = 0, c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_YAML: yaml = 1; break;
		case OPT_JSON: json = 1; break;
		case OPT_ALL: all = 1; break;
		case 'h': print_usage(stdout); return EXIT_OK;
		default: usage_error("machine", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		usage_error("machine", "no subcommand (show, validate, diff)");
	const char *sub = argv[optind++];
	int nfiles = argc - optind;
	if (!strcmp(sub, "show")) {
		if (nfiles != 1)
			usage_error("machine", "show takes one file");
		if (yaml && json)
			usage_error("machine", "give --yaml or --json, not both");
		return show(argv[optind], yaml, json);
	}
	if (!strcmp(sub, "validate")) {
		if (nfiles < 1)
			usage_error("machine", "validate needs at least one file");
		int bad = 0;
		for (int i = optind; i < argc; i++) {
			struct mtree t;
			struct as_error err = { 0 };
			if (mtree_load(argv[i], &t, &err) != 0) {
				fprintf(stderr, "archscope: error: %s\n", err.msg);
				bad++;
				continue;
			}
			char *report;
			int n = machine_check(&t, argv[i], &report);
			if (n) {
				fputs(report ? report : "", stderr);
				bad++;
			} else {
				printf("%s: valid\n", argv[i]);
			}
			free(report);
			mtree_free(&t);
		}
		return bad ? EXIT_USAGE : EXIT_OK;
	}
	if (!strcmp(sub, "diff")) {
		if (nfiles != 2)
			usage_error("machine", "diff takes two files");
		return diff(argv[optind], argv[optind + 1], all);
	}
	usage_error("machine", "unknown subcommand '%s' (show, validate, diff)", sub);
}
