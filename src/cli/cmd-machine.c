/* archscope machine show|validate|diff|answers: read machine files (archscope's own or
 * Kerncraft's), check them with errors that name the line and key, print a summary, the canonical
 * YAML, or two machines side by side; list the probe answers a file's archscope section holds. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/parse-options.h"
#include "common/buffer.h"
#include "common/paths-names.h"
#include "machine/machine.h"
#include "cli/util-hwloc.h"
#include "machine/diff.h"
#include "machine/file.h"
#include "machine/probes.h"
#include "machine/result-host.h"
#include "machine/result-machine.h"
#include "machine/schema.h"
#include "report/output.h"
#include "report/emit.h"

/* A number of the level table, or "-" where the file has none. */
static void cell_long(struct emit *e, const char *label, long v, int present, const char *unit)
{
	if (present)
		emit_int(e, NULL, label, v, unit);
	else
		emit_text(e, label, "-");
}

/* show: the whole file in JSON; for people a summary of what the models read. */
static void show_render(struct emit *e, const char *path, const struct mtree *t, const struct machine *m)
{
	emit_heading(e, "%s: %s", path, m->model_name);
	emit_string(e, MR_KEY(FILE), NULL, path);
	emit_json(e, MR_KEY(MACHINE), mnode_to_json(t->root));
	emit_number(e, NULL, "clock", m->clock_hz / 1e9, "GHz", "%.3g");
	emit_text(e, "cores", "%ld socket%s x %ld cores x %ld threads", m->sockets ? m->sockets : 1,
		  m->sockets > 1 ? "s" : "", m->cores_per_socket, m->threads_per_core ? m->threads_per_core : 1);
	emit_number(e, NULL, "cache line", m->cacheline_bytes, "B", "%.0f");
	if (m->flops_dp[0] > 0 || m->flops_sp[0] > 0)
		emit_text(e, "FLOPs per cycle", "DP %g (ADD %g, MUL %g, FMA %g), SP %g (ADD %g, MUL %g, FMA %g)",
			  m->flops_dp[0], m->flops_dp[1], m->flops_dp[2], m->flops_dp[3], m->flops_sp[0], m->flops_sp[1],
			  m->flops_sp[2], m->flops_sp[3]);
	const struct mnode *as = mnode_get(t->root, "archscope");
	if (as) {
		emit_int(e, NULL, "archscope section", (long long)as->n, "entries");
		emit_annotate(e, " (probe results with method, confidence, os_reported)");
	}
	emit_table_begin(e, NULL, "memory hierarchy");
	for (int i = 0; i < m->nlevels; i++) {
		const struct machine_level *L = &m->level[i];
		emit_row_begin(e);
		emit_string(e, NULL, "level", L->name);
		if (L->size_bytes > 0)
			emit_size(e, NULL, "size per group", (uint64_t)L->size_bytes);
		else
			emit_text(e, "size per group", "-");
		cell_long(e, "sets", L->sets, L->has_cache, NULL);
		cell_long(e, "ways", L->ways, L->has_cache, NULL);
		cell_long(e, "line", L->cl_size, L->has_cache, "B");
		cell_long(e, "groups", L->groups, L->groups != 0, NULL);
		cell_long(e, "cores/group", L->cores_per_group, L->cores_per_group != 0, NULL);
		emit_text(e, "upstream throughput", "%s", L->upstream_text[0] ? L->upstream_text : "-");
		emit_row_end(e);
	}
	emit_table_end(e);
	/* the streaming benchmarks: the first (one-core) and last result of each kernel per level */
	const struct mnode *meas = mnode_get(mnode_get(t->root, "benchmarks"), "measurements");
	if (!meas || !meas->n)
		return;
	emit_object_begin(e, NULL, "streaming bandwidth, first entry (one core) and last entry (all cores listed), "
				   "application GB/s");
	for (size_t i = 0; i < meas->n; i++) {
		const struct mnode *res = mnode_get(meas->vals[i]->n ? meas->vals[i]->vals[0] : NULL, "results");
		emit_array_begin(e, NULL, meas->keys[i]);
		for (size_t k = 0; res && k < res->n; k++) {
			const struct mnode *l = res->vals[k];
			if (l->kind == MN_SEQ && l->n)
				emit_text(e, NULL, "%s %s .. %s", res->keys[k], l->vals[0]->text, l->vals[l->n - 1]->text);
		}
		emit_array_end(e);
	}
	emit_object_end(e);
}

/* diff: the pairs of values, how many differ, and the ratio of the clocks. */
/* For people, beside a size written with decimal prefixes ("49.15 kB"): " (48 KiB)"; else "". */
static const char *binary_size(const char *text, char *buf, size_t len)
{
	double v;
	char unit[32], b[32];
	buf[0] = '\0';
	if (text && machine_quantity(text, &v, unit, sizeof(unit)) == 0 && !strcmp(unit, "B") && v >= 1024 && v < 9.2e18 &&
	    !strstr(text, "iB"))
		snprintf(buf, len, " (%s)", buffer_format_size((size_t)llround(v), b, sizeof(b)));
	return buf;
}

static void diff_render(struct emit *e, char *const path[2], const struct mtree t[2], const struct machine_diff *d,
			int all)
{
	const char *const file_key[2] = { MR_KEY(FILE_A), MR_KEY(FILE_B) },
			 *const model_key[2] = { MR_KEY(MODEL_A), MR_KEY(MODEL_B) };
	struct machine m[2];
	for (int i = 0; i < 2; i++) {
		machine_read(&t[i], &m[i]);
		emit_string(e, file_key[i], i ? "B" : "A", path[i]);
		emit_annotate(e, " (%s)", m[i].model_name);
		emit_string(e, model_key[i], NULL, m[i].model_name);
	}
	emit_bool(e, MR_KEY(ALL), NULL, all);
	emit_table_begin(e, MR_KEY(VALUES), "");
	for (size_t i = 0; i < d->n; i++) {
		const struct machine_diff_row *r = &d->row[i];
		emit_row_begin(e);
		emit_string(e, MR_KEY(VALUE_KEY), "key", r->path);
		char ba[48], bb[48];
		emit_string(e, MR_KEY(VALUE_A), NULL, r->a);
		emit_text(e, "A", "%.60s%s", r->a ? r->a : "-", binary_size(r->a, ba, sizeof(ba)));
		emit_string(e, MR_KEY(VALUE_B), NULL, r->b);
		emit_text(e, "B", "%.60s%s", r->b ? r->b : "-", binary_size(r->b, bb, sizeof(bb)));
		emit_bool(e, MR_KEY(VALUE_DIFFERS), NULL, r->differs);
		emit_text(e, "differs", "%s", r->differs ? "<>" : "");
		emit_row_end(e);
	}
	emit_table_end(e);
	emit_int(e, MR_KEY(DIFFER), "differ", d->ndiffer, NULL);
	emit_annotate(e, " of %zu values%s", d->na, all ? "" : " (core keys; --all for every value)");
	emit_int(e, MR_KEY(VALUES_IN_A), NULL, (long long)d->na, NULL);
	emit_number(e, MR_KEY(CLOCK_RATIO), "clock ratio A / B",
		    m[0].clock_hz > 0 && m[1].clock_hz > 0 ? m[0].clock_hz / m[1].clock_hz : NAN, NULL, "%.3f");
}

static const struct opt_cmd show_cmd = {
	.name = "machine show",
	.usage = (const char *const[]){ "archscope machine show [--yaml | --json] FILE", NULL },
	.description = "A summary of a machine file; --yaml: the file as archscope writes it, --json: as JSON.\n",
};

static int machine_show(int argc, char **argv)
{
	int yaml = 0, json = 0, rc = EXIT_FAIL;
	const struct opt options[] = {
		OPT_FLAG(0, "yaml", &yaml, "the canonical YAML"),
		OPT_JSON(&json),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &show_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc != 1 || (yaml && json))
		return error_usage(show_cmd.name, argc != 1 ? "show takes one file" : "give --yaml or --json, not both"),
		       EXIT_USAGE;
	struct mtree t;
	struct as_error err = { 0 };
	struct emit *e = NULL;
	if (cli_machine_open(argv[0], &t) != 0)
		return EXIT_USAGE;
	if (yaml) {
		rc = mtree_emit(&t, stdout, &err) == 0 ? EXIT_OK : (error_err(&err), EXIT_FAIL);
	} else if (!(e = emit_new(json ? EMIT_JSON : EMIT_TEXT, stdout))) {
		error("out of memory");
	} else {
		struct machine m;
		machine_read(&t, &m);
		show_render(e, argv[0], &t, &m);
		rc = cli_emit_end(e, "machine");
	}
	mtree_free(&t);
	return rc;
}

static const struct opt_cmd validate_cmd = {
	.name = "machine validate",
	.usage = (const char *const[]){ "archscope machine validate FILE...", NULL },
	.description = "Checks every file: 'FILE: valid', or each problem naming the line and key; exit 2 if any.\n",
};

static int machine_validate(int argc, char **argv)
{
	const struct opt options[] = { OPT_HELP(), OPT_END() };
	argc = opt_parse(argc, argv, &validate_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc < 1)
		return error_usage(validate_cmd.name, "validate needs at least one file"), EXIT_USAGE;
	if (cli_stdin_once(validate_cmd.name, argv, argc) != 0)
		return EXIT_USAGE;
	int bad = 0;
	for (int i = 0; i < argc; i++) {
		struct mtree t;
		if (cli_machine_open(argv[i], &t) != 0) {
			bad++;
			continue;
		}
		printf("%s: valid\n", argv[i]);
		mtree_free(&t);
	}
	return bad ? EXIT_USAGE : EXIT_OK;
}

static const struct opt_cmd diff_cmd = {
	.name = "machine diff",
	.usage = (const char *const[]){ "archscope machine diff [--all] [--json] FILE_A FILE_B", NULL },
	.description = "The core values of two machines side by side, '<>' where they differ (--all: every value).\n"
		       "Exit status 0 when the values compared are the same, 1 when they differ, 2 on a bad file.\n",
};

static int machine_diff(int argc, char **argv)
{
	int all = 0, json = 0, rc = EXIT_FAIL;
	const struct opt options[] = {
		OPT_FLAG(0, "all", &all, "every value, not just the core ones"),
		OPT_JSON(&json),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &diff_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc != 2)
		return error_usage(diff_cmd.name, "diff takes two files"), EXIT_USAGE;
	if (cli_stdin_once(diff_cmd.name, argv, argc) != 0)
		return EXIT_USAGE;
	struct mtree t[2];
	if (cli_machine_open(argv[0], &t[0]) != 0)
		return EXIT_USAGE;
	if (cli_machine_open(argv[1], &t[1]) != 0)
		return mtree_free(&t[0]), EXIT_USAGE;
	struct machine_diff d;
	struct as_error err = { 0 };
	struct emit *e = NULL;
	if (machine_diff_init(&d, t[0].root, t[1].root, all, &err) != 0) {
		error_err(&err);
	} else if (!(e = emit_new(json ? EMIT_JSON : EMIT_TEXT, stdout))) {
		error("out of memory");
	} else {
		diff_render(e, argv, t, &d, all);
		rc = cli_emit_end(e, "machine");
		if (rc == EXIT_OK && d.ndiffer > 0) /* as diff(1) and git diff --exit-code: 1 = they differ */
			rc = EXIT_FAIL;
	}
	machine_diff_release(&d);
	mtree_free(&t[0]);
	mtree_free(&t[1]);
	return rc;
}

static const struct opt_cmd answers_cmd = {
	.name = "machine answers",
	.usage = (const char *const[]){ "archscope machine answers [--json]", NULL },
	.description = "The probe answers 'probe --json' prints and 'probe -o' writes under archscope.probes, from\n"
		       "their one description (src/machine/probes.h): path, kind, unit, the Kerncraft key derived\n"
		       "from each, and what it is.\n",
};

static int machine_answers(int argc, char **argv)
{
	int json = 0;
	const struct opt options[] = { OPT_JSON(&json), OPT_HELP(), OPT_END() };
	argc = opt_parse(argc, argv, &answers_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc > 0)
		return error_usage(answers_cmd.name, "answers takes no file ('%s')", argv[0]), EXIT_USAGE;
	struct emit *e = emit_new(json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (!e)
		return error("out of memory"), EXIT_FAIL;
	emit_table_begin(e, MR_KEY(ANSWERS), "");
	for (int id = 0; id < MP_COUNT; id++) {
		const struct machine_probe_field *f = &machine_probe_fields[id];
		char path[256], file[300];
		emit_row_begin(e);
		emit_string(e, MR_KEY(ANSWER_PATH), "results", machine_probes_path(id, 0, path, sizeof(path)));
		emit_string(e, MR_KEY(ANSWER_FILE_KEY), NULL, machine_probes_path(id, 1, file, sizeof(file)));
		emit_string(e, MR_KEY(ANSWER_KIND), "kind", machine_probe_kind_name(f->kind));
		emit_string(e, MR_KEY(ANSWER_UNIT), "unit", f->unit);
		emit_string(e, MR_KEY(ANSWER_KERNCRAFT), "Kerncraft key", f->kerncraft ? f->kerncraft : "");
		emit_string(e, MR_KEY(ANSWER_WHAT), "what", f->what);
		emit_bool(e, MR_KEY(ANSWER_EVIDENCE), NULL, !!(f->flags & MP_F_EVIDENCE));
		emit_bool(e, MR_KEY(ANSWER_OMITTED), NULL, !!(f->flags & MP_F_OMIT));
		emit_row_end(e);
	}
	emit_table_end(e);
	return cli_emit_end(e, "machine");
}

static const struct opt_cmd list_cmd = {
	.name = "machine list",
	.usage = (const char *const[]){ "archscope machine list [--json]", NULL },
	.description = "The machine files, kernels and metric groups archscope finds by name (model stream-triad\n"
		       "-m kvm-xeon-6-207, stat -M FLOPS), each with the file it names: in $ARCHSCOPE_SHARE_DIR, the\n"
		       "installed share/archscope/ beside the program, then the source tree beside a build; a\n"
		       "name found in two places is the first one's. A path (with a slash, or a file here) is\n"
		       "always read as it is.\n",
};

static int machine_list(int argc, char **argv)
{
	static const struct { const char *kind, *dir, *ext; } kinds[] = {
		{ "machine", "machines", ".yaml" }, { "kernel", "kernels", ".c" }, { "group", "groups", ".txt" },
	};
	int json = 0;
	const struct opt options[] = { OPT_JSON(&json), OPT_HELP(), OPT_END() };
	argc = opt_parse(argc, argv, &list_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc > 0)
		return error_usage(list_cmd.name, "list takes no argument ('%s')", argv[0]), EXIT_USAGE;
	struct emit *e = emit_new(json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (!e)
		return error("out of memory"), EXIT_FAIL;
	emit_table_begin(e, MR_KEY(FILES), "");
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct paths_named *l;
		int n;
		if (paths_named_list(kinds[k].dir, kinds[k].ext, &l, &n) != 0) {
			emit_free(e);
			return error("out of memory"), EXIT_FAIL;
		}
		for (int i = 0; i < n; i++) {
			emit_row_begin(e);
			emit_string(e, MR_KEY(FILE_KIND), "kind", kinds[k].kind);
			emit_string(e, MR_KEY(FILE_NAME), "name", l[i].name);
			emit_string(e, MR_KEY(FILE_PATH), "path", l[i].path);
			emit_row_end(e);
		}
		free(l);
	}
	emit_table_end(e);
	return cli_emit_end(e, "machine");
}

static const struct opt_cmd export_cmd = {
	.name = "machine export",
	.usage = (const char *const[]){ "archscope machine export --hwloc FILE.xml -m MACHINE", NULL },
	.description = "Writes this machine's hwloc topology (libhwloc) as XML with the measured values of MACHINE (a\n"
		       "machine file from 'probe -o', or its name) added where hwloc holds them: the memory\n"
		       "attributes Latency (ns) and Bandwidth (MiB/s) from each NUMA node's CPUs to the node, and\n"
		       "the measured size and line of each data cache beside the reported ones (info attributes\n"
		       "ArchscopeMeasuredSize, ArchscopeMeasuredLineSize). 'lstopo --input FILE.xml --memattrs'\n"
		       "shows them; HWLOC_XMLFILE=FILE.xml gives them to every hwloc user.\n",
};

static int machine_export(int argc, char **argv)
{
	const char *hwloc = NULL, *mfile = NULL;
	const struct opt options[] = {
		OPT_STRING(0, "hwloc", &hwloc, "FILE.xml", "write the hwloc XML to FILE.xml (atomically)", .flags = OPT_F_REQUIRED),
		OPT_STRING('m', "machine", &mfile, "MACHINE", "the machine file whose values are added (a path or a name)",
			   .flags = OPT_F_REQUIRED),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &export_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc > 0)
		return error_usage(export_cmd.name, "export takes no argument ('%s')", argv[0]), EXIT_USAGE;
	if (!*hwloc)
		return error_usage(export_cmd.name, "--hwloc '': no file name"), EXIT_USAGE;
	return cli_hwloc_export(mfile, hwloc);
}

static const struct opt_cmd schema_cmd = {
	.name = "machine schema",
	.usage = (const char *const[]){ "archscope machine schema [--json] [NAME]",
					"archscope machine schema --check FILE NAME", NULL },
	.description = "The described result types (src/machine/result-*.h): without NAME their names, with NAME\n"
		       "every key of those results: path, kind, unit and what it is. --check reads FILE (what\n"
		       "'archscope COMMAND --json' wrote, or its results object alone) and checks its results\n"
		       "against the description NAME: exit 0 when they match, 1 with the first difference\n"
		       "(its path), 2 when FILE is not JSON. The probe answers have their own table: 'machine\n"
		       "answers'.\n",
};

static int schema_list(const struct schema *s, int json)
{
	struct emit *e = emit_new(json ? EMIT_JSON : EMIT_TEXT, stdout);
	if (!e)
		return error("out of memory"), EXIT_FAIL;
	emit_table_begin(e, s ? MR_KEY(KEYS) : MR_KEY(SCHEMAS), "");
	for (int i = 0; s ? i < s->n : schema_all[i] != NULL; i++) {
		char path[512];
		emit_row_begin(e);
		if (!s) {
			emit_string(e, MR_KEY(SCHEMA_NAME), "name", schema_all[i]->name);
			emit_int(e, MR_KEY(SCHEMA_KEYS), "keys", schema_all[i]->n, NULL);
		} else {
			emit_string(e, MR_KEY(KEY_PATH), "results", schema_path(s, i, path, sizeof(path)));
			emit_string(e, MR_KEY(KEY_KIND), "kind",
				     s->keys[i].kind == SK_REF ? s->keys[i].unit : schema_kind_name(s->keys[i].kind));
			emit_string(e, MR_KEY(KEY_UNIT), "unit", schema_unit(s, i));
			emit_bool(e, MR_KEY(KEY_OPTIONAL), NULL, (s->keys[i].flags & SCHEMA_OPT) != 0);
			emit_string(e, MR_KEY(KEY_WHAT), "what", s->keys[i].what);
		}
		emit_row_end(e);
	}
	emit_table_end(e);
	return cli_emit_end(e, "machine");
}

/* FILE's results (a whole document's, or FILE itself) against s, and a document's machine block
 * against the host description. */
static int schema_check_file(const struct schema *s, const char *path)
{
	struct as_error err = { 0 };
	json_t *doc = output_json_read(path, "results", 64u << 20, &err);
	if (!doc)
		return error_err(&err), EXIT_USAGE;
	const json_t *results = output_doc_results(doc), *host = output_doc_machine(doc);
	int rc = schema_check(s, results ? results : doc, &err);
	if (!rc && results && host && (rc = schema_check(&host_result, host, &err)) != 0)
		error("%s: its machine block differs from its description: %s", path, err.msg);
	else if (rc)
		error("%s: %s results differ from their description: %s", path, s->name, err.msg);
	json_decref(doc);
	if (rc)
		return EXIT_FAIL;
	printf("%s: %s results as described\n", path, s->name);
	return 0;
}

static int machine_schema(int argc, char **argv)
{
	int json = 0;
	const char *check = NULL;
	const struct opt options[] = {
		OPT_JSON(&json),
		OPT_STRING(0, "check", &check, "FILE", "check FILE's results against the description NAME"),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &schema_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc > 1 || (check && argc != 1))
		return error_usage(schema_cmd.name, check ? "--check needs one NAME" : "at most one NAME"), EXIT_USAGE;
	const struct schema *s = argc ? schema_by_name(argv[0]) : NULL;
	if (argc && !s) {
		char names[512] = "";
		for (int i = 0; schema_all[i]; i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", i ? ", " : "",
				 schema_all[i]->name);
		return error_usage(schema_cmd.name, "no described result '%s' (%s)", argv[0], names), EXIT_USAGE;
	}
	return check ? schema_check_file(s, check) : schema_list(s, json);
}

static const struct opt_section machine_sections[] = {
	{ "sub-commands",
	  "  show       a readable summary; --yaml prints the file as archscope writes it (reading that\n"
	  "             back and writing it again gives the same bytes), --json as JSON\n"
	  "  validate   checks every file; each problem names the line and key; exit 2 if any\n"
	  "  diff       the core values of two machines side by side (--all: every value; --json as JSON)\n"
	  "  answers    the probe answers of archscope's section: path, kind, unit, Kerncraft key\n"
	  "  list       the machine files, kernels and metric groups found by name, with their paths\n"
	  "  export     --hwloc FILE.xml -m (--machine) MACHINE: this machine's hwloc topology with the\n"
	  "             measured latency, bandwidth and cache sizes added\n"
	  "  schema     the other described results (bench, stat, ...): their keys; --check FILE NAME\n"
	  "Each has its own --help: 'archscope machine show --help'.\n",
	  NULL },
	{ NULL, NULL, NULL },
};
static const struct opt_cmd machine_cmd = {
	.name = "machine",
	.flags = OPT_CMD_STOP_AT_NON_OPTION, /* each subcommand parses its own options */
	.usage = (const char *const[]){ "archscope machine show [--yaml | --json] FILE", "archscope machine validate FILE...",
					"archscope machine diff [--all] [--json] FILE_A FILE_B", "archscope machine answers [--json]",
					"archscope machine list [--json]", "archscope machine export --hwloc FILE.xml -m MACHINE",
					"archscope machine schema [--json] [--check FILE] [NAME]", NULL },
	.description = "Machine files are YAML in Kerncraft's format (clock, cores, FLOPs per cycle, memory hierarchy,\n"
		       "benchmarks) plus an 'archscope:' section with every probe result; 'archscope probe -o' writes\n"
		       "them, and Kerncraft's own files are read as they are.\n",
	.sections = machine_sections,
};

int cmd_machine(int argc, char **argv)
{
	static const struct cli_command subs[] = {
		{ "show", machine_show, NULL },
		{ "validate", machine_validate, NULL },
		{ "diff", machine_diff, NULL },
		{ "answers", machine_answers, NULL },
		{ "list", machine_list, NULL },
		{ "export", machine_export, NULL },
		{ "schema", machine_schema, NULL },
	};
	const struct opt options[] = { OPT_HELP(), OPT_END() };
	argc = opt_parse(argc, argv, &machine_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (argc == 0)
		return error_usage("machine", "no subcommand (show, validate, diff, answers, list, export, schema)"), EXIT_USAGE;
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (!strcmp(argv[0], subs[i].name))
			return subs[i].fn(argc, argv);
	return error_usage("machine", "unknown subcommand '%s' (show, validate, diff, answers, list, export, schema)", argv[0]), EXIT_USAGE;
}
