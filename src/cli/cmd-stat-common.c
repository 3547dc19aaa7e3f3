/* Event selection from the options and the measurement of a program, shared by stat and
 * regress; see stat.h. */
#include "cli/cmd-stat.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/atomicfile.h"
#include "common/cpuset.h"
#include "common/paths.h"
#include "probe/clock.h"
#include "report/emit.h"
#include "topo/cpuinfo.h"

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
	stat_select_init(sel);
	if ((a->all != 0) + (a->group != NULL) + (a->events.n > 0) > 1) {
		error_usage(cmd, "give one of -e, --all and -M");
		return EXIT_USAGE;
	}
	if (a->all)
		rc = stat_select_all(sel, &err);
	else if (a->group) {
		char dir[PATH_MAX];
		rc = stat_select_group(sel, groups_dir(dir, sizeof(dir)), a->group, &err);
		if (rc == -ENOENT || rc == -EINVAL) {
			error_err(&err);
			return EXIT_USAGE;
		}
	} else if (a->events.n) {
		for (int i = 0; i < a->events.n && !rc; i++)
			rc = stat_select_add(sel, a->events.v[i], &err);
		if (rc == -EINVAL) {
			error_usage(cmd, "-e: %s", err.msg);
			stat_select_release(sel);
			return EXIT_USAGE;
		}
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

int cli_stat_measure(struct measure_stat *m, const struct stat_select *sel, char **argv, const struct stat_opts *o)
{
	struct as_error err = { 0 };
	if (measure_stat_init(m, (const char *const *)sel->names, sel->n, o->runs, &err) != 0 ||
	    measure_stat_plan(m, &err) != 0) {
		error_err(&err);
		return EXIT_FAIL;
	}
	struct stat_opts oo = *o;
	if (!oo.progress)
		oo.progress = measure_progress;
	int rc = measure_stat_run(m, argv, &oo, &err);
	progress_done();
	if (rc) {
		error_err(&err);
		return rc == -ENOENT || rc == -EACCES || rc == -ENOEXEC || rc == -ESRCH ? EXIT_USAGE : EXIT_FAIL;
	}
	return 0;
}

static double read_loadavg(double v[3])
{
	v[0] = v[1] = v[2] = NAN;
	FILE *f = fopen("/proc/loadavg", "r");
	if (!f)
		return NAN;
	if (fscanf(f, "%lf %lf %lf", &v[0], &v[1], &v[2]) != 3)
		v[0] = v[1] = v[2] = NAN;
	fclose(f);
	return v[0];
}

static void iso_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void read_line(const char *path, char *buf, size_t len)
{
	buf[0] = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

void stat_conditions_before(struct stat_conditions *c)
{
	memset(c, 0, sizeof(*c));
	iso_now(c->started, sizeof(c->started));
	read_loadavg(c->load_before);
	c->load_after[0] = c->load_after[1] = c->load_after[2] = NAN;
	c->clock_before_ghz = clock_window_ghz();
	c->clock_after_ghz = NAN;
	char mhz[64];
	c->cpu_mhz_os = topo_cpuinfo("cpu MHz", mhz, sizeof(mhz)) == 0 ? strtod(mhz, NULL) : NAN;
	read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", c->governor, sizeof(c->governor));
	if (topo_cpuinfo("model name", c->cpu_model, sizeof(c->cpu_model)) != 0)
		c->cpu_model[0] = 0;
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(c->kernel, sizeof(c->kernel), "%s %s", u.release, u.version);
	gethostname(c->hostname, sizeof(c->hostname) - 1);
	struct as_cpulist allowed;
	if (cpulist_allowed(&allowed, NULL) == 0)
		cpulist_format(&allowed, c->cpus_allowed, sizeof(c->cpus_allowed));
	c->cpus_online = (int)sysconf(_SC_NPROCESSORS_ONLN);
}

void stat_conditions_after(struct stat_conditions *c)
{
	iso_now(c->ended, sizeof(c->ended));
	read_loadavg(c->load_after);
	c->clock_after_ghz = clock_window_ghz();
}

void cli_stat_conditions_render(struct emit *e, const struct stat_conditions *c)
{
	emit_object_begin(e, "conditions", NULL);
	emit_string(e, "started", NULL, c->started);
	emit_string(e, "ended", NULL, c->ended);
	emit_array_begin(e, "loadavg_before", NULL);
	for (int i = 0; i < 3; i++)
		emit_number(e, NULL, NULL, c->load_before[i], NULL, NULL);
	emit_array_end(e);
	emit_array_begin(e, "loadavg_after", NULL);
	for (int i = 0; i < 3; i++)
		emit_number(e, NULL, NULL, c->load_after[i], NULL, NULL);
	emit_array_end(e);
	emit_number(e, "clock_ghz_before", NULL, c->clock_before_ghz, "GHz", NULL);
	emit_number(e, "clock_ghz_after", NULL, c->clock_after_ghz, "GHz", NULL);
	emit_string(e, "clock_method", NULL, "measured: the fastest of three dependent-add chains of ~0.3 ms on archscope's "
					 "own CPU, before and after the runs (core cycles, not TSC)");
	emit_number(e, "cpu_mhz_os", NULL, c->cpu_mhz_os, "MHz", NULL);
	emit_string(e, "governor", NULL, c->governor[0] ? c->governor : NULL);
	emit_string(e, "cpu_model", NULL, c->cpu_model);
	emit_string(e, "kernel", NULL, c->kernel);
	emit_string(e, "archscope", NULL, ARCHSCOPE_VERSION);
	emit_string(e, "hostname", NULL, c->hostname);
	emit_string(e, "cpus_allowed", NULL, c->cpus_allowed);
	emit_int(e, "cpus_online", NULL, c->cpus_online, NULL);
	emit_object_end(e);
	emit_text(e, "conditions", "load %.2f -> %.2f, clock %.2f -> %.2f GHz (measured), governor %s, %s", c->load_before[0],
		  c->load_after[0], c->clock_before_ghz, c->clock_after_ghz, c->governor[0] ? c->governor : "none",
		  c->started);
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
		} else {
			if (out)
				warning("'%s' is left as it was: an interrupted result never replaces a saved one%s", out,
				     json ? " (the JSON follows here)" : "");
			if (json)
				rc = cli_report_to_stderr(cmd, buf, len);
		}
		free(buf);
		buf = NULL;
	}
	if (!json && rc == EXIT_OK) {
		rc = cli_report_render(cmd, 0, fn, ctx, &buf, &len);
		if (rc == EXIT_OK)
			rc = cli_report_to_stderr(cmd, buf, len);
		free(buf);
	}
	return rc;
}

void stat_command_line(char **argv, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = 0;
	for (int i = 0; argv[i] && used + 2 < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", argv[i]);
}

/* --- numbers for people ------------------------------------------------------------------ */

/* A count as an integer with thousands grouped: "1,234,567" (counts are whole; a mean of counts
 * is rounded, as perf stat shows it). */
void stat_fmt_count(double v, char *buf, size_t len)
{
	if (isnan(v)) {
		snprintf(buf, len, "none");
		return;
	}
	char digits[64];
	snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	size_t nd = strlen(digits), w = 0;
	if (v < 0 && llround(v) != 0 && w + 1 < len)
		buf[w++] = '-';
	for (size_t i = 0; i < nd && w + 2 < len; i++) {
		if (i && (nd - i) % 3 == 0)
			buf[w++] = ',';
		buf[w++] = digits[i];
	}
	buf[w] = 0;
}

struct stat_disp stat_disp_of(const char *unit, double mean)
{
	double a = fabs(mean);
	if (!strcmp(unit, "ns") || !strcmp(unit, "us")) {
		double ns = !strcmp(unit, "us") ? 1e3 : 1;
		double v = a * ns;
		if (v >= 1e9 || isnan(v))
			return (struct stat_disp){ ns * 1e-9, "s", "%.3f" };
		if (v >= 1e6)
			return (struct stat_disp){ ns * 1e-6, "ms", "%.3f" };
		if (v >= 1e3)
			return (struct stat_disp){ ns * 1e-3, "us", "%.3f" };
		return (struct stat_disp){ ns, "ns", NULL };
	}
	if (!strcmp(unit, "KiB")) {
		double b = a * 1024;
		if (b >= 1073741824.0)
			return (struct stat_disp){ 1.0 / 1048576, "GiB", "%.2f" };
		if (b >= 1048576.0)
			return (struct stat_disp){ 1.0 / 1024, "MiB", "%.1f" };
		return (struct stat_disp){ 1, "KiB", NULL };
	}
	return (struct stat_disp){ 1, !strcmp(unit, "events") ? "" : unit, NULL };
}

void stat_fmt_disp(const struct stat_disp *d, double v, char *buf, size_t len, int with_unit)
{
	char num[64];
	if (isnan(v))
		snprintf(num, sizeof(num), "none");
	else if (d->fmt)
		snprintf(num, sizeof(num), d->fmt, v * d->k);
	else
		stat_fmt_count(v * d->k, num, sizeof(num));
	snprintf(buf, len, "%s%s%s", num, with_unit && d->unit[0] ? " " : "", with_unit ? d->unit : "");
}

