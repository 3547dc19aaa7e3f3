/* libFuzzer target for the command line's number and list parsers: the bytes split at NUL or
 * newline into argv, parsed by opt_parse against a table with every kind of row (integers, u64,
 * doubles, choices, pairs, a cpu-list callback); each word is also read as a cpu list, a size
 * with a unit and a machine-file quantity. Built and run by tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/parse-options.h"
#include "common/buffer.h"
#include "common/cpuset.h"
#include "machine/file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int cpus_cb(const struct opt *o, const char *arg, const char *value)
{
	(void)value;
	struct as_error err = { 0 };
	if (cpulist_parse(arg, o->value, &err) != 0)
		return error("--cpus: %s", err.msg);
	return 0;
}

static int pair_cb(const struct opt *o, const char *name, const char *value)
{
	(void)o;
	char *end;
	long long v = strtoll(value, &end, 0);
	(void)v;
	return *name && !*end ? 0 : error("-D %s: '%s' is not an integer", name, value);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096)
		return 0;
	char *buf = malloc(size + 1), *argv[34];
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	int argc = 0;
	argv[argc++] = "fuzz";
	for (char *p = buf, *w = buf; argc < 33; p++) {
		if (*p == '\n' || *p == 0 || p == buf + size) {
			int end = p == buf + size || *p == 0;
			*p = 0;
			argv[argc++] = w;
			w = p + 1;
			if (end)
				break;
		}
	}
	argv[argc] = NULL;
	static const char *const words[] = { "monotone", "first-step", "qt", "levels", NULL };
	int flag = 0, i = 0, choice = -1;
	unsigned set = 0;
	uint64_t u = 0;
	double d = 0;
	const char *s = NULL;
	struct opt_strings many = { 0 };
	struct as_cpulist cpus;
	const struct opt options[] = {
		OPT_FLAG('f', "flag", &flag, "a flag"),
		OPT_INT('t', "threads", &i, "N", 1, 4096, "an int"),
		OPT_U64(0, "seed", &u, "N", 0, UINT64_MAX, "a u64"),
		OPT_DOUBLE(0, "min-time", &d, "S", 0, 100, "a double", .flags = OPT_F_ABOVE_MIN),
		OPT_STRING('o', "output", &s, "FILE", "a string"),
		OPT_STRINGS('e', "event", &many, "E", "strings"),
		OPT_CHOICE('m', "method", &choice, "M", words, "a choice"),
		OPT_CHOICE_SET('p', "pmodel", &set, "P", words, "a choice set"),
		OPT_CALLBACK(0, "cpus", &cpus, "LIST", "a cpu list", cpus_cb),
		OPT_PAIR('D', "define", NULL, "NAME VALUE", "a pair", pair_cb),
		OPT_QUIET(),
		OPT_HELP(),
		OPT_END(),
	};
	static const char *const usage[] = { "fuzz [options]", NULL };
	static const struct opt_cmd cmd = { .name = "fuzz", .usage = usage };
	int n = opt_parse(argc, argv, &cmd, options);
	if (n > argc)
		abort();
	for (int a = 1; a < argc && argv[a]; a++) {
		struct as_error err = { 0 };
		size_t bytes;
		double v;
		char unit[32];
		if (cpulist_parse(argv[a], &cpus, &err) == 0 && cpus.n > AS_MAX_CPUS)
			abort();
		buffer_parse_size(argv[a], &bytes, &err);
		machine_quantity(argv[a], &v, unit, sizeof(unit));
	}
	free(buf);
	return 0;
}
