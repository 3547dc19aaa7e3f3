/* Helpers shared by the command files (see cli.h). */
#include "cli/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/cpuset.h"
#include "machine/file.h"
#include "report/output.h"
#include "topo/cpuinfo.h"

void die(int code, const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	progress_done();
	fputs("archscope: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

void usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	fprintf(stderr, "archscope %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee 'archscope %s --help'\n", cmd);
	exit(EXIT_USAGE);
}

void note(const char *fmt, ...)
{
	va_list ap;
	progress_done();
	fputs("archscope: note: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void die_err(int code, const struct as_error *err)
{
	die(code, "%s", err->msg[0] ? err->msg : "unknown error");
}

static int progress_active;

void progress(const char *fmt, ...)
{
	if (!isatty(STDERR_FILENO))
		return;
	va_list ap;
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

json_t *cli_machine_json(void)
{
	json_t *m = json_object();
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	json_object_set_new(m, "hostname", json_string(host));
	struct utsname u;
	if (uname(&u) == 0) {
		json_object_set_new(m, "kernel", json_string(u.release));
		json_object_set_new(m, "arch", json_string(u.machine));
	}
	char model[256];
	if (topo_cpuinfo("model name", model, sizeof(model)) == 0)
		json_object_set_new(m, "cpu_model_os", json_string(model));
	json_object_set_new(m, "cpus_online", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	struct as_cpulist allowed;
	char buf[1024];
	if (cpulist_allowed(&allowed, NULL) == 0)
		json_object_set_new(m, "cpus_allowed", json_string(cpulist_format(&allowed, buf, sizeof(buf))));
	return m;
}

void cli_print_json(const char *command, json_t *results)
{
	json_t *doc = output_envelope(command, cli_machine_json(), results);
	struct as_error err = { 0 };
	int rc = output_json_print(stdout, doc, &err);
	json_decref(doc);
	if (rc)
		die_err(EXIT_FAIL, &err);
}

uint64_t parse_u64_opt(const char *cmd, const char *opt, const char *text)
{
	char *end;
	errno = 0;
	if (!text || !*text || *text == '-')
		usage_error(cmd, "option '%s' needs a non-negative integer, got '%s'", opt, text ? text : "");
	unsigned long long v = strtoull(text, &end, 0);
	if (errno || *end)
		usage_error(cmd, "option '%s' needs a non-negative integer, got '%s'", opt, text);
	return v;
}

uint64_t parse_u64_range(const char *cmd, const char *opt, const char *text, uint64_t lo, uint64_t hi)
{
	uint64_t v = parse_u64_opt(cmd, opt, text);
	if (v < lo || v > hi)
		usage_error(cmd, "%s must be %llu to %llu, got '%s'", opt, (unsigned long long)lo, (unsigned long long)hi, text);
	return v;
}

void cli_machine_load(const char *path, struct mtree *t)
{
	struct as_error err = { 0 };
	if (mtree_load(path, t, &err) != 0) {
		fprintf(stderr, "archscope: error: %s\n", err.msg);
		exit(EXIT_USAGE);
	}
	char *report;
	int n = machine_check(t, path, &report);
	if (n != 0) {
		if (report)
			fputs(report, stderr);
		fprintf(stderr, "archscope: error: machine file '%s': %d problem%s\n", path, n, n == 1 ? "" : "s");
		free(report);
		mtree_free(t);
		exit(EXIT_USAGE);
	}
}
