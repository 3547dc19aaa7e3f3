/* Event selection from the options and the measurement of a program, shared by stat and
 * regress; see stat.h. */
#include "cli/stat.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/paths.h"

const char *stat_groups_dir(char *buf, size_t len)
{
	/* when it is nowhere, buf holds the installed place, which the error about the group names */
	paths_find_data("groups", buf, len, NULL);
	return buf;
}

int stat_select_from_args(const char *cmd, const struct stat_args *a, struct stat_select *sel)
{
	struct as_error err = { 0 };
	int rc = 0;
	stat_select_init(sel);
	if ((a->all != 0) + (a->group != NULL) + (a->events.n > 0) > 1) {
		error_usage(cmd, "give one of -e, --all and -M");
		return EXIT_USAGE;
	}
	if (a->all)
		rc = stat_select_all(sel, &err);
	else if (a->group) {
		char dir[PATH_MAX];
		rc = stat_select_group(sel, stat_groups_dir(dir, sizeof(dir)), a->group, &err);
		if (rc == -ENOENT || rc == -EINVAL) {
			error_err(&err);
			return EXIT_USAGE;
		}
	} else if (a->events.n) {
		for (int i = 0; i < a->events.n && !rc; i++)
			rc = stat_select_add(sel, a->events.v[i], &err);
	} else
		rc = stat_select_default(sel, &err);
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

int stat_measure(struct measure_stat *m, const struct stat_select *sel, int runs, char **argv, int stdout_is_json,
		 int per_thread)
{
	struct as_error err = { 0 };
	if (measure_stat_init(m, (const char *const *)sel->names, sel->n, runs, &err) != 0 ||
	    measure_stat_plan(m, &err) != 0) {
		error_err(&err);
		return EXIT_FAIL;
	}
	struct stat_opts o = { .runs = runs, .stdout_fd = stdout_is_json ? 2 : -1, .stderr_fd = 2,
			       .progress = measure_progress, .per_thread = per_thread };
	int rc = measure_stat_run(m, argv, &o, &err);
	progress_done();
	if (rc) {
		error_err(&err);
		return rc == -ENOENT ? EXIT_USAGE : EXIT_FAIL;
	}
	return 0;
}

void stat_command_line(char **argv, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = 0;
	for (int i = 0; argv[i] && used + 2 < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", argv[i]);
}
