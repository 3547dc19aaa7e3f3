/* archscope report: one self-contained HTML page of a machine (page/page.h), from a run of its own
 * (topology, probe --quick and bench --threads-scaling, each this binary with --json) or from saved
 * --json results (--from FILE...). The page is built from the JSON documents only. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/parse-options.h"
#include "common/atomicfile.h"
#include "common/cpuset.h"
#include "common/interrupt.h"
#include "common/spawn.h"
#include "machine/result-report.h"
#include "page/page.h"
#include "report/emit.h"
#include "report/output.h"
#include "report/plot.h"
#include "topo/system.h"

#define REPORT_MAX_INPUTS 32
#define REPORT_INPUT_MAX_BYTES (16u << 20) /* a saved result, as every JSON reader's cap */

struct report_opts {
	const char *output;
	int from;
	int threads;
	const char *save;
	int force;
	int json;
};

struct report_inputs {
	struct page_source src[REPORT_MAX_INPUTS];
	char *names[REPORT_MAX_INPUTS];
	size_t n;
};

static void inputs_release(struct report_inputs *in)
{
	for (size_t i = 0; i < in->n; i++) {
		json_decref(in->src[i].doc);
		free(in->names[i]);
	}
	in->n = 0;
}

/* Reads one saved result; 0, or EXIT_USAGE after error(). */
static int input_load(struct report_inputs *in, const char *path, const char *name)
{
	struct as_error err = { 0 };
	if (in->n >= REPORT_MAX_INPUTS)
		return error("more than %d inputs", REPORT_MAX_INPUTS), EXIT_USAGE;
	size_t len = 0;
	char *text = file_read_input(path, "result", REPORT_INPUT_MAX_BYTES, &len, &err);
	if (!text)
		return error_err(&err), EXIT_USAGE;
	json_t *doc = output_json_parse(text, len, "result", name, 1, 0, &err);
	free(text);
	if (!doc)
		return error_err(&err), EXIT_USAGE;
	/* the page holds each input to its description (machine/schema.h): a key misspelt or of
	 * another kind is named by its path here, not misread on the page */
	if (page_source_check(doc, name, &err) != 0) {
		json_decref(doc);
		return error_err(&err), EXIT_USAGE;
	}
	in->names[in->n] = strdup(name);
	in->src[in->n].name = in->names[in->n];
	in->src[in->n].doc = doc;
	in->n++;
	return 0;
}

/* The run of its own: this binary's topology, probe --quick and bench --threads-scaling, each with
 * --json into dir. 0, EXIT_FAIL after error(), or INTERRUPT_EXIT. */
static int run_own(const struct report_opts *o, const char *dir, struct report_inputs *in, char *run, size_t runlen)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return error("cannot read /proc/self/exe to run archscope's commands"), EXIT_FAIL;
	exe[n] = '\0';
	char threads[16];
	snprintf(threads, sizeof(threads), "%d", o->threads);
	struct step {
		const char *name, *what;
		char *argv[8];
	} steps[] = {
		{ "topology", "archscope topology", { exe, "topology", "--json", NULL } },
		{ "probe", "archscope probe --quick", { exe, "probe", "--quick", "-q", "--json", NULL } },
		{ "bench", "archscope bench --threads-scaling", { exe, "bench", "--threads-scaling", "-t", threads, "-q", "--json", NULL } },
	};
	double t0 = (double)time(NULL);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		char out[PATH_MAX], errp[PATH_MAX];
		snprintf(out, sizeof(out), "%s/%s.json", dir, steps[i].name);
		snprintf(errp, sizeof(errp), "%s/%s.err", dir, steps[i].name);
		progress("report: %zu/%zu: %s ...", i + 1, sizeof(steps) / sizeof(steps[0]), steps[i].what);
		struct spawn_result r;
		struct as_error err = { 0 };
		int rc = spawn_run(steps[i].argv, out, errp, 0, -1, &r, &err);
		if (interrupt_signal() || (r.exited && r.status == INTERRUPT_EXIT) || (!r.exited && r.status == 2)) {
			progress_done();
			return INTERRUPT_EXIT;
		}
		if (rc)
			return progress_done(), error_err(&err), EXIT_FAIL;
		if (!r.exited || r.status != 0) {
			char head[600];
			spawn_head(errp, head, sizeof(head));
			progress_done();
			return error("'%s' %s %d: %s", steps[i].what, r.exited ? "exited with" : "was ended by signal", r.status,
				     head[0] ? head : "(no message)"),
			       EXIT_FAIL;
		}
		char name[64];
		snprintf(name, sizeof(name), "%s (this run)", steps[i].what);
		rc = input_load(in, out, name);
		if (rc)
			return progress_done(), EXIT_FAIL;
		if (o->save) {
			char dst[PATH_MAX];
			size_t len = 0;
			char *text = file_read_all(out, &len);
			snprintf(dst, sizeof(dst), "%s/%s.json", o->save, steps[i].name);
			if (!text || atomic_file_write(dst, text, len, &err) != 0) {
				free(text);
				progress_done();
				return error("cannot save '%s': %s", dst, err.msg[0] ? err.msg : "cannot read the result"), EXIT_FAIL;
			}
			free(text);
		}
	}
	progress_done();
	snprintf(run, runlen, "this run: archscope topology, probe --quick and bench --threads-scaling -t %d (%.0f s)",
		 o->threads, (double)time(NULL) - t0);
	return 0;
}

static void remove_dir(const char *dir)
{
	static const char *const names[] = { "topology", "probe", "bench" };
	char p[PATH_MAX];
	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/%s.json", dir, names[i]);
		unlink(p);
		snprintf(p, sizeof(p), "%s/%s.err", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

static void render(struct emit *e, const struct report_opts *o, const struct report_inputs *in, size_t bytes,
		   const struct page_summary *s)
{
	emit_string(e, RP_KEY(OUTPUT), "wrote", strcmp(o->output, "-") ? o->output : "standard output");
	emit_size(e, RP_KEY(BYTES), "size", bytes);
	emit_int(e, RP_KEY(FIGURES), "figures (inline SVG)", s->figures, NULL);
	emit_int(e, RP_KEY(TABLES), "tables", s->tables, NULL);
	emit_int(e, RP_KEY(ANSWERS), "answers", s->answers, NULL);
	emit_int(e, RP_KEY(FLAGGED), "flagged answers", s->flagged, NULL);
	if (s->flagged)
		emit_annotate(e, " (noisy or implausible: each says why on the page)");
	emit_array_begin(e, RP_KEY(INPUTS), "inputs");
	for (size_t i = 0; i < in->n; i++) {
		if (emit_is_text(e))
			emit_text(e, NULL, "%s", in->src[i].name);
		else
			emit_string(e, NULL, NULL, in->src[i].name);
	}
	emit_array_end(e);
	if (emit_is_text(e)) {
		/* the warnings themselves go to stderr as warning() lines */
		emit_int(e, NULL, "warnings", s->nwarnings, NULL);
		return;
	}
	emit_array_begin(e, RP_KEY(WARNINGS), "warnings");
	for (int i = 0; i < s->nwarnings; i++)
		emit_string(e, NULL, NULL, s->warnings[i]);
	emit_array_end(e);
}

static const struct opt_cmd report_cmd = {
	.name = "report",
	.usage = (const char *const[]){ "archscope report -o FILE [-t N] [--save DIR]",
					"archscope report -o FILE --from RESULT.json...", NULL },
	.description =
		"Writes one self-contained HTML page of this machine: the machine and its settings, warnings,\n"
		"the topology with the measured cache sizes, latency against working set with the steps found\n"
		"and the OS-reported sizes, bandwidth per level and thread count, c2c and NUMA heatmaps, the\n"
		"instruction table, the Roofline with the measured ceilings, every answer with its confidence,\n"
		"method and witnesses. Inline SVG and CSS, the inputs embedded as JSON, nothing loaded from a\n"
		"network; readable on a phone and in print.\n\n"
		"Without --from it runs archscope topology, probe --quick and bench --threads-scaling (about\n"
		"20 s); with --from it reads saved --json results of topology, probe, bench, model and numa\n"
		"matrix instead (one topology, probe and numa matrix each; any number of bench and model).\n",
	.epilog = "The page is written atomically; '-o -' writes it to standard output.\n",
};

/* The checks of the options that need no input read: 0, or EXIT_USAGE after error_usage(). */
static int options_check(struct report_opts *o, int argc, char **argv)
{
	if (o->from && argc == 0)
		return error_usage("report", "--from needs the result files to read"), EXIT_USAGE;
	if (!o->from && argc > 0)
		return error_usage("report", "'%s': result files are read with --from", argv[0]), EXIT_USAGE;
	if (o->from && cli_stdin_once("report", argv, argc) != 0)
		return EXIT_USAGE;
	if (o->from && (o->save || o->threads))
		return error_usage("report", "%s measures: not with --from", o->save ? "--save" : "--threads"), EXIT_USAGE;
	int to_stdout = !strcmp(o->output, "-");
	if (to_stdout && o->json)
		return error_usage("report", "-o - writes the page to standard output: not with --json"), EXIT_USAGE;
	if (!to_stdout && cli_output_check("report", o->output, o->force) != 0)
		return EXIT_USAGE;
	if (cli_output_dir_check("report", "--save", o->save) != 0)
		return EXIT_USAGE;
	return 0;
}

/* bench --threads-scaling runs at most one thread per allowed CPU: said before the topology and
 * the probe have run. 0, or EXIT_USAGE after error_usage(). */
static int threads_check(const struct report_opts *o, const struct as_cpulist *allowed)
{
	if (o->threads > 0 && allowed->n > 0 && o->threads > allowed->n) {
		char list[256];
		return error_usage("report", "-t %d: this process may use %d CPU%s (%s), and bench runs one thread per "
				   "CPU: give -t %d or fewer", o->threads, allowed->n, allowed->n == 1 ? "" : "s",
				   cpulist_format(allowed, list, sizeof(list)), allowed->n), EXIT_USAGE;
	}
	return 0;
}

/* The inputs: the files given with --from, or this run's own (in a temporary directory removed
 * after). 0, EXIT_USAGE or EXIT_FAIL after error(), or INTERRUPT_EXIT. */
static int inputs_gather(struct report_opts *o, int argc, char **argv, const struct as_cpulist *allowed,
			 struct report_inputs *in, char *run, size_t runlen)
{
	int rc = 0;
	if (o->from) {
		for (int i = 0; i < argc && rc == 0; i++)
			rc = input_load(in, argv[i], argv[i]);
		return rc;
	}
	if (!o->threads)
		o->threads = allowed->n > 8 ? 8 : allowed->n > 0 ? allowed->n : 1;
	char d[PATH_MAX - 256]; /* room for the files named in it */
	struct as_error err = { 0 };
	if (tmp_dir_make(d, sizeof(d), "archscope-report", &err) != 0) {
		error_err(&err); /* names TMPDIR and the reason */
		return EXIT_FAIL;
	}
	interrupt_install();
	interrupt_cleanup_dir(d);
	rc = run_own(o, d, in, run, runlen);
	interrupt_cleanup_dir(NULL);
	interrupt_restore();
	remove_dir(d);
	return rc;
}

/* The page into memory (*page, *len). 0, or EXIT_USAGE (inputs the page cannot use) or EXIT_FAIL
 * after error(). */
static int page_make(const struct page_input *pin, struct page_summary *sum, char **page, size_t *len)
{
	struct as_error err = { 0 };
	*page = NULL;
	*len = 0;
	FILE *m = open_memstream(page, len);
	if (!m)
		return error("out of memory"), EXIT_FAIL;
	int rc = page_write(m, pin, sum, &err);
	if (fclose(m) != 0 && rc == 0)
		rc = as_error_set(&err, -ENOMEM, "out of memory");
	if (rc) {
		free(*page);
		*page = NULL;
		error_err(&err);
		return rc == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
	}
	if (*len > PAGE_MAX_BYTES)
		warning("the page is %.1f MB, over the %.0f MB it should stay under: its inputs are large", *len / 1e6,
			PAGE_MAX_BYTES / 1e6);
	return 0;
}

/* The page to standard output, or to FILE atomically. 0, or EXIT_FAIL (after error() for a file). */
static int page_save(const struct report_opts *o, const char *page, size_t len)
{
	if (!strcmp(o->output, "-"))
		return fwrite(page, 1, len, stdout) != len ? EXIT_FAIL : 0;
	struct as_error err = { 0 };
	struct atomic_file af;
	int wrc = atomic_file_open_mode(&af, o->output, o->force ? AF_FORCE : 0, &err);
	if (wrc == 0 && fwrite(page, 1, len, af.fp) != len) {
		int e = errno ? errno : EIO; /* a full disk or /dev/full: ENOSPC */
		atomic_file_abort(&af);
		wrc = as_error_set(&err, -e, "cannot write '%s': %s", o->output, strerror(e));
	} else if (wrc == 0) {
		wrc = atomic_file_commit(&af, &err);
	}
	if (wrc != 0)
		return error_err(&err), EXIT_FAIL;
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .threads = 0 };
	const struct opt options[] = {
		OPT_STRING('o', "output", &o.output, "FILE", "the HTML page to write ('-': standard output)",
			   .flags = OPT_F_REQUIRED),
		OPT_FLAG(0, "from", &o.from, "read the saved results given as arguments (the --json output of topology,\n"
					     "probe, bench, model, numa matrix) instead of measuring"),
		OPT_INT('t', "threads", &o.threads, "N", 1, 4096,
			"bench --threads-scaling up to N threads (default: the allowed CPUs, at most 8)"),
		OPT_STRING(0, "save", &o.save, "DIR", "keep this run's results in DIR (topology.json, probe.json, bench.json)"),
		OPT_FLAG(0, "force", &o.force, "write FILE even if it is a symbolic link (its target is replaced),\n"
					       "a device or a FIFO (written into)"),
		OPT_JSON(&o.json),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	argc = opt_parse(argc, argv, &report_cmd, options);
	if (argc < 0)
		return opt_exit_code(argc);
	if (options_check(&o, argc, argv) != 0)
		return EXIT_USAGE;
	struct report_inputs in = { .n = 0 };
	struct topo_system sys;
	struct as_cpulist allowed;
	allowed.n = 0;
	cpulist_allowed(&allowed, NULL);
	if (threads_check(&o, &allowed) != 0)
		return EXIT_USAGE;
	topo_system_read(&sys, allowed.n ? allowed.cpu[0] : 0, NULL);
	char run[256] = "";
	int rc = inputs_gather(&o, argc, argv, &allowed, &in, run, sizeof(run));
	if (rc) {
		inputs_release(&in);
		return rc;
	}

	char date[32] = "";
	time_t now = time(NULL);
	struct tm tm;
	if (gmtime_r(&now, &tm))
		strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	struct page_input pin = {
		.sources = in.src, .n = in.n, .version = ARCHSCOPE_VERSION, .date = date,
		.run = o.from ? NULL : run, .loadavg_start = o.from ? NAN : sys.loadavg1, .cpus = o.from ? 0 : allowed.n,
	};
	struct page_summary sum;
	char *page;
	size_t len;
	rc = page_make(&pin, &sum, &page, &len);
	if (rc) {
		inputs_release(&in);
		return rc;
	}
	int to_stdout = !strcmp(o.output, "-");
	rc = page_save(&o, page, len);
	free(page);
	if (rc && !to_stdout) {
		inputs_release(&in);
		return rc;
	}
	if (!to_stdout) {
		struct emit *e = emit_new(o.json ? EMIT_JSON : EMIT_TEXT, stdout);
		if (!e) {
			inputs_release(&in);
			return error("out of memory"), EXIT_FAIL;
		}
		render(e, &o, &in, len, &sum);
		rc = cli_emit_end(e, "report");
	}
	for (int i = 0; i < sum.nwarnings && !o.json; i++)
		warning("%s", sum.warnings[i]);
	inputs_release(&in);
	return rc;
}
