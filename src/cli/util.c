/* Helpers shared by the command files (see cli.h): error reporting, suggestions, progress, output
 * checks. The envelope's machine block is in util-envelope.c (it reads the topology and the PMU,
 * which the parsers' fuzz build does not link). */
#include "cli/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/atomicfile.h"
#include "common/conditions.h"
#include "common/cpuset.h"
#include "common/paths-names.h"
#include "common/timer.h"
#include "machine/file.h"
#include "measure/counters.h"
#include "machine/mtree.h"
#include "machine/probes.h"
#include "report/emit.h"
#include "report/output.h"
#include "report/plot.h"

int cli_quiet;

/* The one error prefix: every error line of the binary starts "archscope: error: ". */
static void verror(const char *fmt, va_list ap)
{
	fflush(stdout);
	progress_done();
	fputs("archscope: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
	return -1;
}

void usage_hint(const char *cmd)
{
	if (cmd)
		fprintf(stderr, "see 'archscope %s --help'\n", cmd);
	else
		fputs("see 'archscope --help'\n", stderr);
}

int error_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
	usage_hint(cmd);
	return -1;
}

void error_lines(const char *text)
{
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);
		error("%.*s", n, p);
		p += n + (nl != NULL);
	}
}

int error_err(const struct as_error *err)
{
	return error("%s", err->msg[0] ? err->msg : "unknown error");
}

void note(const char *fmt, ...)
{
	va_list ap;
	if (cli_quiet)
		return;
	progress_done();
	fputs("archscope: note: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void warning(const char *fmt, ...)
{
	va_list ap;
	progress_done();
	fputs("archscope: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_edit_distance(const char *a, const char *b)
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

/* A word's distance to a name for suggestions: a beginning of >= 2 characters counts as 1. */
static int suggest_distance(const char *word, const char *name)
{
	size_t len = strlen(word);
	if (len >= 2 && strncmp(name, word, len) == 0)
		return 1;
	return cli_edit_distance(word, name);
}

int cli_suggest(const char *word, const char *const *names, size_t n, const char *prefix)
{
	int best = 99, shown = 0;
	for (size_t i = 0; i < n; i++)
		if (names[i] && suggest_distance(word, names[i]) < best)
			best = suggest_distance(word, names[i]);
	if (best > 2)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (names[i] && suggest_distance(word, names[i]) == best) {
			fprintf(stderr, "\tdid you mean '%s%s'?\n", prefix ? prefix : "", names[i]);
			shown++;
		}
	return shown;
}

static int progress_active;

/* Not a terminal (a log, a pipe, CI): a line "archscope: progress: ..." per step, at most one
 * every PROGRESS_LOG_NS so a probe's hundreds of points do not flood the log. */
#define PROGRESS_LOG_NS 1000000000ull

void progress(const char *fmt, ...)
{
	static int tty = -1;
	static uint64_t last_ns;
	if (cli_quiet)
		return;
	if (tty < 0)
		tty = isatty(STDERR_FILENO);
	va_list ap;
	if (!tty) {
		uint64_t now = timer_now_ns();
		if (last_ns && now - last_ns < PROGRESS_LOG_NS)
			return;
		last_ns = now;
		fputs("archscope: progress: ", stderr);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
		return;
	}
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	progress_active = 1;
}

void progress_done(void)
{
	if (progress_active) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		progress_active = 0;
	}
}

int cli_output_dir_check(const char *cmd, const char *opt, const char *dir)
{
	struct as_error err = { 0 };
	if (!dir || plot_dir_prepare(dir, &err) == 0)
		return 0;
	return error_usage(cmd, "%s: %s", opt, err.msg);
}

int cli_plot_done(int pr, const char *dir, const char *name, const struct as_error *err)
{
	if (pr == 0)
		return 0;
	if (pr == 1)
		warning("gnuplot is not installed: wrote %s/%s.gp and its data, but no picture", dir, name);
	else
		warning("no picture %s/%s.svg: %s", dir, name, err && err->msg[0] ? err->msg : "gnuplot failed");
	return -1;
}

/* A file whose probe answers were measured while disturbed (or past a bound) is valid, but its
 * numbers deserve doubt: a warning names them (docs/conditions.md). */
static void machine_flagged_warn(const char *path, const struct mtree *t)
{
	struct machine_probes *p = malloc(sizeof(*p));
	char list[800];
	int n;
	if (p && machine_probes_read(t, p, NULL) > 0 && (n = machine_probes_flagged(p, list, sizeof(list))) > 0)
		warning("machine file '%s': %d answer%s measured while disturbed or past a physical bound (flagged): %s", path,
			n, n == 1 ? "" : "s", list);
	if (p)
		machine_probes_release(p);
	free(p);
	const struct mnode *b = mnode_get(mnode_get(t->root, "archscope"), "benchmarks_flags");
	const struct mnode *noisy = mnode_get(b, "noisy"), *runs = mnode_get(b, "runs"), *first = mnode_get(b, "noisy_first"),
			   *impl = mnode_get(b, "implausible");
	if (noisy && noisy->kind == MN_SCALAR && atoi(noisy->text) > 0)
		warning("machine file '%s': %s of %s benchmark runs measured while disturbed (first: %s)", path, noisy->text,
			runs && runs->kind == MN_SCALAR ? runs->text : "?",
			first && first->kind == MN_SCALAR ? first->text : "?");
	if (impl && impl->kind == MN_SCALAR && impl->text[0])
		warning("machine file '%s': a benchmark past its physical bound: %s", path, impl->text);
}

int cli_resolve_named(const char *what, const char *kind, const char *ext, const char *arg, char *buf, size_t len)
{
	struct as_error err = { 0 };
	if (paths_resolve_named(kind, ext, arg, buf, len, &err) != 0)
		return error("cannot open %s '%s': %s", what, arg, err.msg);
	return 0;
}

int cli_machine_open(const char *arg, struct mtree *t)
{
	struct as_error err = { 0 };
	char path[4096];
	if (cli_resolve_named("machine file", "machines", ".yaml", arg, path, sizeof(path)) != 0)
		return -1;
	if (mtree_load(path, t, &err) != 0)
		return error_err(&err);
	char *report;
	int n = machine_check(t, path, &report);
	if (n == 0) {
		machine_flagged_warn(path, t);
		return 0;
	}
	error_lines(report);
	free(report);
	mtree_free(t);
	return error("machine file '%s': %d problem%s", path, n, n == 1 ? "" : "s");
}

int cli_output_check(const char *cmd, const char *path, int force)
{
	struct as_error err = { 0 };
	struct atomic_file af;
	if (atomic_file_target_check(path, &err) != 0) {
		if (!*path) /* the option is every caller's -o (--output) */
			return error_usage(cmd, "-o '': %s", err.msg);
		if (!force || err.code != -EEXIST) /* --force writes through a link, device or FIFO only */
			return error_usage(cmd, "%s", err.msg);
		return 0; /* --force: written through the link, or into the device or FIFO, at the end */
	}
	if (atomic_file_open(&af, path, &err) != 0)
		return error_usage(cmd, "%s", err.msg);
	atomic_file_abort(&af);
	return 0;
}

int cli_stdin_once(const char *cmd, char *const *paths, int n)
{
	int first = -1;
	for (int i = 0; i < n; i++) {
		if (strcmp(paths[i], "-"))
			continue;
		if (first >= 0)
			return error_usage(cmd, "standard input ('-') is named twice (inputs %d and %d): it can be read once; "
					   "give the other input as a file", first + 1, i + 1);
		first = i;
	}
	return 0;
}

int cli_forced_pmu_check(const char *cmd)
{
	struct as_error err = { 0 };
	if (counters_forced_pmu_check(&err) == 0)
		return 0;
	return error_usage(cmd, "LIBPFM_FORCE_PMU='%s': %s; unset it, or set it to one of them", getenv("LIBPFM_FORCE_PMU"),
			   err.msg);
}

void cli_conditions_summary(void)
{
	char line[600];
	if (*cond_summary(line, sizeof(line)))
		note("%s", line);
}
