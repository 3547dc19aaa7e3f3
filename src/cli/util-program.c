/* What the commands that run a program share (cli.h): the events chosen by the options, the
 * measurement, the program's outcome, and where the report goes. */
#include "cli/cli.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/atomicfile.h"
#include "common/paths.h"
#include "measure/counters.h"
#include "measure/stat-select.h"
#include "measure/stat-show.h"
#include "measure/stat.h"
#include "report/emit.h"

/* The directory of the metric groups: $ARCHSCOPE_SHARE_DIR/groups, else the installed
 * share/archscope/groups relative to the binary, else the source tree's share/groups beside a build
 * directory (common/paths.h). */
static const char *groups_dir(char *buf, size_t len)
{
	/* when it is nowhere, buf holds the installed place, which the error about the group names */
	paths_find_data("groups", buf, len, NULL);
	return buf;
}

int cli_stat_select(const char *cmd, const struct cli_stat_args *a, struct stat_select *sel)
{
	struct as_error err = { 0 };
	int rc = 0;
	measure_stat_select_init(sel);
	if (cli_forced_pmu_check(cmd)) /* every event is encoded for the forced PMU */
		return EXIT_USAGE;
	if ((a->all != 0) + (a->group != NULL) + (a->events.n > 0) > 1) {
		error_usage(cmd, "give one of -e, --all and -M");
		return EXIT_USAGE;
	}
	if (a->all)
		rc = measure_stat_select_all(sel, &err);
	else if (a->group) {
		char dir[PATH_MAX];
		rc = measure_stat_select_group(sel, groups_dir(dir, sizeof(dir)), a->group, &err);
		/* a group that does not exist or whose file is bad (not a regular file, too large, not
		 * text, a line it refuses) is bad input; out of memory and a read error are failures */
		if (rc && rc != -ENOMEM && rc != -EIO) {
			error_err(&err);
			return EXIT_USAGE;
		}
	} else if (a->events.n) {
		for (int i = 0; i < a->events.n && !rc; i++)
			rc = measure_stat_select_add(sel, a->events.v[i], &err);
		if (rc == -EINVAL) {
			error_usage(cmd, "-e: %s", err.msg);
			measure_stat_select_release(sel);
			return EXIT_USAGE;
		}
	} else
		rc = measure_stat_select_default(sel, &err);
	if (rc) {
		error_err(&err);
		return EXIT_FAIL;
	}
	return 0;
}

static void measure_progress(void *ctx, int done, int total)
{
	(void)ctx;
	progress("running: %d of %d", done + 1, total);
}

int cli_stat_measure(struct measure_stat *m, const struct stat_select *sel, char **argv, const struct stat_opts *o)
{
	struct as_error err = { 0 };
	int rc = measure_stat_init(m, (const char *const *)sel->names, sel->n, o->runs, &err);
	m->target = o->target; /* the plan tries a system-wide event on a CPU */
	if (rc != 0 || measure_stat_plan(m, &err) != 0) {
		error_err(&err);
		return EXIT_FAIL;
	}
	struct stat_opts oo = *o;
	if (!oo.progress)
		oo.progress = measure_progress;
	rc = measure_stat_run(m, argv, &oo, &err);
	progress_done();
	if (rc) {
		error_err(&err);
		return rc == -ENOENT || rc == -EACCES || rc == -ENOEXEC || rc == -ESRCH ? EXIT_USAGE : EXIT_FAIL;
	}
	return 0;
}

int cli_report_render(const char *cmd, int json, cli_report_render_fn fn, const void *ctx, char **buf, size_t *len)
{
	*buf = NULL;
	*len = 0;
	FILE *ms = open_memstream(buf, len);
	struct emit *e = ms ? emit_new(json ? EMIT_JSON : EMIT_TEXT, ms) : NULL;
	int rc;
	if (e) {
		fn(e, ctx);
		rc = cli_emit_end(e, cmd);
	} else {
		rc = error("out of memory") ? EXIT_FAIL : EXIT_FAIL;
	}
	if (ms && fclose(ms) != 0 && rc == EXIT_OK)
		rc = error("out of memory") ? EXIT_FAIL : EXIT_FAIL;
	if (rc) {
		free(*buf);
		*buf = NULL;
	}
	return rc;
}

int cli_report_write_file(const char *path, const char *buf, size_t len)
{
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	struct as_error err = { 0 };
	int rc = atomic_file_write(path, buf, len, &err);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (rc)
		return error_err(&err) ? EXIT_FAIL : EXIT_FAIL;
	return EXIT_OK;
}

int cli_report_to_stderr(const char *cmd, const char *buf, size_t len)
{
	progress_done();
	if ((len && fwrite(buf, 1, len, stderr) != len) || fflush(stderr) != 0) {
		/* nowhere left to say it: the exit code does */
		(void)cmd;
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

void cli_report_kept_warning(const char *out, const char *what)
{
	if (access(out, F_OK) == 0)
		warning("'%s' is left as it was: an interrupted result never replaces a saved one (the %s follows on stderr)",
			out, what);
	else
		warning("'%s' not written: an interrupted result is never saved (the %s follows on stderr)", out, what);
}

int cli_report_deliver(const char *cmd, const char *out, int json, int interrupted, cli_report_render_fn fn, const void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	int rc = EXIT_OK;
	if (out || json) {
		rc = cli_report_render(cmd, 1, fn, ctx, &buf, &len);
		if (rc)
			return rc;
		if (out && !interrupted) {
			rc = cli_report_write_file(out, buf, len);
			free(buf);
			buf = NULL;
		}
	}
	if (!json && rc == EXIT_OK) {
		char *text = NULL;
		size_t tlen = 0;
		rc = cli_report_render(cmd, 0, fn, ctx, &text, &tlen);
		if (rc == EXIT_OK)
			rc = cli_report_to_stderr(cmd, text, tlen);
		free(text);
	}
	/* the JSON goes to stderr where it has no file: --json alone, or an interrupted -o FILE (after
	 * the text for people, so that it is the last thing there) */
	if (buf) {
		if (out)
			cli_report_kept_warning(out, "JSON");
		int r2 = cli_report_to_stderr(cmd, buf, len);
		rc = rc ? rc : r2;
	}
	free(buf);
	return rc;
}

void cli_command_line(char **argv, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = 0;
	for (int i = 0; argv[i] && used + 2 < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", argv[i]);
}

int cli_program_report(const char *command, const struct measure_stat *m)
{
	int rc = EXIT_OK, failed, crashed;
	measure_stat_failures(m, &failed, &crashed);
	for (int k = 0; k < m->nrun; k++) {
		const struct stat_run *run = &m->run[k];
		if (!run->exited) {
			error("'%s' crashed in run %d of %d: signal %d (%s)", command, k + 1, m->nrun, run->status,
			      strsignal(run->status));
			return EXIT_FAIL;
		}
		if (run->status != 0 && rc == EXIT_OK) {
			error("'%s' exited with status %d (in %d of %d runs)", command, run->status, failed, m->nrun);
			rc = EXIT_FAIL;
		}
	}
	if (m->interrupted)
		note("interrupted by %s: %d of %d runs measured (the cut run is left out)", strsignal(m->signal), m->nrun,
		     m->runs * m->passes);
	return rc;
}
