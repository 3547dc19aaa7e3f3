/* Unit tests of src/cli/parse-options.c: every kind of row, getopt's spellings, positionals,
 * the usage errors (text on stderr) and the generated --help. */
#include <stdlib.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/parse-options.h"
#include "harness.h"

/* --- capturing a stream ------------------------------------------------------------------ */

static char captured[8192];
static int cap_fd = -1, cap_saved = -1;
static FILE *cap_tmp;

static void capture_begin(int fd)
{
	fflush(stdout);
	fflush(stderr);
	cap_tmp = tmpfile();
	cap_saved = dup(fd);
	dup2(fileno(cap_tmp), fd);
	cap_fd = fd;
}

static const char *capture_end(void)
{
	fflush(stdout);
	fflush(stderr);
	dup2(cap_saved, cap_fd);
	close(cap_saved);
	rewind(cap_tmp);
	size_t n = fread(captured, 1, sizeof(captured) - 1, cap_tmp);
	captured[n] = '\0';
	fclose(cap_tmp);
	return captured;
}

/* --- a command with one row of every kind ------------------------------------------------ */

static struct vals {
	int json, verbose, monotone, cpu, method, level_calls;
	unsigned models;
	uint64_t seed;
	double diameter;
	const char *out, *level;
	struct opt_strings events;
	int ndefs;
	char def_name[8][32], def_value[8][32];
} v;

static const char *const methods[] = { "monotone", "first-step", "qt", NULL };
static const char *const models[] = { "LC", "ECM", "Roofline", NULL };

static int on_define(const struct opt *o, const char *name, const char *value)
{
	struct vals *t = o->value;
	if (t->ndefs == 8)
		return error("too many -D");
	snprintf(t->def_name[t->ndefs], 32, "%s", name);
	snprintf(t->def_value[t->ndefs], 32, "%s", value);
	t->ndefs++;
	return 0;
}

static int on_level(const struct opt *o, const char *arg, const char *unused)
{
	(void)unused;
	struct vals *t = o->value;
	if (!strcmp(arg, "L9"))
		return error("--level: no level 'L9'");
	t->level = arg;
	t->level_calls++;
	return 0;
}

static int on_list(const struct opt *o, const char *arg, const char *unused)
{
	(void)unused;
	struct vals *t = o->value;
	t->level = arg ? arg : "(list)";
	return 0;
}

static const char *const usage_lines[] = { "archscope test [options] FILE...", "archscope test --list", NULL };
static const struct opt_section sections[] = {
	{ "methods", "  monotone  the curve made non-decreasing\n  qt        QT clustering\n", NULL },
	{ NULL, NULL, NULL },
};
static const struct opt_cmd cmd = {
	.name = "test",
	.usage = usage_lines,
	.description = "Tests the option parser.\n",
	.sections = sections,
	.epilog = "Nothing else.\n",
};

static const struct opt opts[] = {
	OPT_CHOICE('m', "method", &v.method, "METHOD", methods, "the analysis"),
	OPT_SET_INT(0, "no-monotone", &v.monotone, 0, "as it is"),
	OPT_COUNTER('v', "verbose", &v.verbose, "more (repeatable)"),
	OPT_INT(0, "cpu", &v.cpu, "N", 0, 65535, "pin to CPU N"),
	OPT_INT(0, "cores", &v.cpu, "N", 1, 4096, "cores in use"),
	OPT_U64(0, "seed", &v.seed, "N", 0, UINT64_MAX, "seed"),
	OPT_DOUBLE(0, "diameter", &v.diameter, "F", 0, 10, "relative cluster diameter"),
	OPT_STRING('o', "output", &v.out, "FILE", "write FILE\nin two lines"),
	OPT_STRINGS('e', "event", &v.events, "EVENT", "count EVENT (repeatable)"),
	OPT_CHOICE_SET('p', "pmodel", &v.models, "MODEL", models, "a model (repeatable)"),
	OPT_PAIR('D', "define", &v, "NAME VALUE", "binds a constant", on_define),
	OPT_CALLBACK(0, "level", &v, "LEVEL", "a level", on_level),
	OPT_CALLBACK(0, "list", &v, NULL, "the levels", on_list, .flags = OPT_F_NOARG),
	OPT_FLAG(0, "hidden", &v.json, NULL),
	OPT_JSON(&v.json),
	OPT_HELP(),
	OPT_END(),
};

/* The diameter row with its lower bound excluded, as analyze has it. */
static const struct opt opts_above[] = {
	OPT_DOUBLE(0, "diameter", &v.diameter, "F", 0, 10, "diameter", .flags = OPT_F_ABOVE_MIN),
	OPT_STRING('f', "file", &v.out, "F", "required", .flags = OPT_F_REQUIRED),
	OPT_CHOICE('m', "method", &v.method, NULL, methods, "the analysis"),
	OPT_END(),
};

static char *words[64];

/* Parses a NULL-terminated word list (the command's name first) against table t. */
static int parse_t(const struct opt_cmd *c, const struct opt *t, const char *const *w)
{
	memset(&v, 0, sizeof(v));
	v.monotone = 1;
	v.diameter = 0.25;
	v.method = -1;
	int n = 0;
	while (w[n] && n < 63) {
		words[n] = (char *)w[n];
		n++;
	}
	words[n] = NULL;
	return opt_parse(n, words, c, t);
}

static int parse(const char *const *w)
{
	return parse_t(&cmd, opts, w);
}

/* Parses and returns what was written on stderr. */
static const char *parse_err(const struct opt *t, const char *const *w, int *rc)
{
	capture_begin(2);
	*rc = parse_t(&cmd, t, w);
	return capture_end();
}

/* --- tests ------------------------------------------------------------------------------- */

static void test_options__spellings(void)
{
	const char *w[] = { "test", "-m", "qt", "--cpu=3", "-ofile.txt", "--seed", "010", "-e", "a", "--event=b",
			    "-ec", NULL };
	CHECK(parse(w) == 0);
	CHECK(v.method == 2);
	CHECK(v.cpu == 3);
	CHECK_STR(v.out, "file.txt");
	CHECK(v.seed == 10); /* decimal: a leading zero is no octal */
	CHECK(v.events.n == 3);
	CHECK_STR(v.events.v[0], "a");
	CHECK_STR(v.events.v[1], "b");
	CHECK_STR(v.events.v[2], "c");
	const char *w2[] = { "test", "-mQT", "--diameter", "0.5", "--output", "x", NULL };
	CHECK(parse(w2) == 0);
	CHECK(v.method == 2); /* choices ignore case */
	CHECK_NEAR(v.diameter, 0.5, 0);
	CHECK_STR(v.out, "x");
}

static void test_options__positionals_and_dashdash(void)
{
	const char *w[] = { "test", "a.csv", "--json", "b.csv", "-m", "monotone", "--", "-v", "--json", NULL };
	int n = parse(w);
	CHECK(n == 4);
	CHECK_STR(words[0], "a.csv");
	CHECK_STR(words[1], "b.csv");
	CHECK_STR(words[2], "-v");
	CHECK_STR(words[3], "--json");
	CHECK(words[4] == NULL);
	CHECK(v.json == 1);
	CHECK(v.verbose == 0);
	const char *w2[] = { "test", "-", NULL }; /* "-" (standard input) is a positional */
	CHECK(parse(w2) == 1);
	CHECK_STR(words[0], "-");
}

static void test_options__stop_at_non_option(void)
{
	struct opt_cmd sub = cmd;
	sub.flags = OPT_CMD_STOP_AT_NON_OPTION;
	const char *w[] = { "test", "--json", "show", "--cpu", "2", "FILE", NULL };
	int n = parse_t(&sub, opts, w);
	CHECK(n == 4);
	CHECK(v.json == 1);
	CHECK(v.cpu == 0);
	CHECK_STR(words[0], "show");
	CHECK_STR(words[1], "--cpu");
}

static void test_options__flags_counters_bundles(void)
{
	const char *w[] = { "test", "-vv", "--verbose", "-v", "--no-monotone", "--hidden", NULL };
	CHECK(parse(w) == 0);
	CHECK(v.verbose == 4);
	CHECK(v.monotone == 0);
	CHECK(v.json == 1);
	/* a bundle ends with at most one option that takes a value */
	const char *w2[] = { "test", "-vmqt", NULL };
	CHECK(parse(w2) == 0);
	CHECK(v.verbose == 1);
	CHECK(v.method == 2);
}

static void test_options__prefixes(void)
{
	const char *w[] = { "test", "--diam", "2", "--js", "--out=o", NULL };
	CHECK(parse(w) == 0);
	CHECK_NEAR(v.diameter, 2, 0);
	CHECK(v.json == 1);
	CHECK_STR(v.out, "o");
	int rc;
	const char *w2[] = { "test", "--c", "1", NULL };
	const char *err = parse_err(opts, w2, &rc);
	CHECK(rc == OPT_ERROR);
	CHECK(strstr(err, "archscope: error: option '--c' is ambiguous: --cpu, --cores\n") != NULL);
}

static void test_options__choice_set_and_pairs(void)
{
	const char *w[] = { "test", "-p", "ecm", "--pmodel=LC", "-D", "N", "1000", "-DM=5", "--define=K=3", "--define", "L",
			    "7", NULL };
	CHECK(parse(w) == 0);
	CHECK(v.models == 3u);
	CHECK(v.ndefs == 4);
	CHECK_STR(v.def_name[0], "N");
	CHECK_STR(v.def_value[0], "1000");
	CHECK_STR(v.def_name[1], "M");
	CHECK_STR(v.def_value[1], "5");
	CHECK_STR(v.def_name[2], "K");
	CHECK_STR(v.def_value[2], "3");
	CHECK_STR(v.def_name[3], "L");
	CHECK_STR(v.def_value[3], "7");
	int rc;
	const char *w2[] = { "test", "-D", "N", NULL };
	const char *err = parse_err(opts, w2, &rc);
	CHECK(rc == OPT_ERROR);
	CHECK(strstr(err, "-D N needs a value: -D NAME VALUE\n") != NULL);
}

static void test_options__callback(void)
{
	const char *w[] = { "test", "--level", "L2", NULL };
	CHECK(parse(w) == 0);
	CHECK_STR(v.level, "L2");
	CHECK(v.level_calls == 1);
	const char *w1[] = { "test", "--list", NULL };
	CHECK(parse(w1) == 0);
	CHECK_STR(v.level, "(list)");
	int rc;
	const char *w2[] = { "test", "--level=L9", NULL };
	const char *err = parse_err(opts, w2, &rc);
	CHECK(rc == OPT_ERROR);
	CHECK_STR(err, "archscope: error: --level: no level 'L9'\nsee 'archscope test --help'\n");
}

static void test_options__usage_errors(void)
{
	int rc;
	const char *w1[] = { "test", "--jsn", NULL };
	const char *err = parse_err(opts, w1, &rc);
	CHECK(rc == OPT_ERROR);
	CHECK_STR(err, "archscope: error: unknown option '--jsn'\n\tdid you mean '--json'?\nsee 'archscope test --help'\n");
	const char *w11[] = { "test", "--=x", NULL };
	err = parse_err(opts, w11, &rc);
	CHECK(rc == OPT_ERROR);
	CHECK(strstr(err, "unknown option '--=x'") != NULL);
	const char *w2[] = { "test", "-x", NULL };
	err = parse_err(opts, w2, &rc);
	CHECK(rc == OPT_ERROR);
	CHECK(strstr(err, "unknown option '-x'") != NULL);
	const char *w3[] = { "test", "--output", NULL };
	err = parse_err(opts, w3, &rc);
	CHECK(strstr(err, "option '--output' needs a value\n") != NULL);
	const char *w4[] = { "test", "--json=1", NULL };
	err = parse_err(opts, w4, &rc);
	CHECK(strstr(err, "option '--json' takes no value\n") != NULL);
	const char *w5[] = { "test", "--cores", "5000", NULL };
	err = parse_err(opts, w5, &rc);
	CHECK(strstr(err, "--cores must be 1 to 4096, got '5000'\n") != NULL);
	const char *w6[] = { "test", "--seed", "-1", NULL };
	err = parse_err(opts, w6, &rc);
	CHECK(strstr(err, "option '--seed' needs a non-negative decimal integer, got '-1'\n") != NULL);
	const char *w7[] = { "test", "--diameter", "abc", NULL };
	err = parse_err(opts, w7, &rc);
	CHECK(strstr(err, "option '--diameter' needs a decimal number, got 'abc'\n") != NULL);
	/* one strict parser: no hex, no trailing text, no space, no inf */
	static const char *const bad[][3] = { { "--seed", "0x10", "non-negative decimal integer" },
					      { "--cores", "32abc", "non-negative decimal integer" },
					      { "--cores", " 3", "non-negative decimal integer" },
					      { "--cores", "", "non-negative decimal integer" },
					      { "--diameter", "inf", "decimal number" },
					      { "--diameter", "0x1p1", "decimal number" },
					      { "--diameter", "1.5e", "decimal number" } };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *wb[] = { "test", bad[i][0], bad[i][1], NULL };
		err = parse_err(opts, wb, &rc);
		CHECK(rc == OPT_ERROR && strstr(err, bad[i][2]) != NULL);
	}
	const char *wr[] = { "test", "--cores", "99999999999999999999999", NULL };
	err = parse_err(opts, wr, &rc);
	CHECK(strstr(err, "--cores must be 1 to 4096") != NULL);
	const char *w8[] = { "test", "--diameter", "11", NULL };
	err = parse_err(opts, w8, &rc);
	CHECK(strstr(err, "--diameter must be 0 to 10, got '11'\n") != NULL);
	const char *w9[] = { "test", "-m", "nosuch", NULL };
	err = parse_err(opts, w9, &rc);
	CHECK(strstr(err, "unknown method 'nosuch': -m must be monotone, first-step or qt\n") != NULL);
	const char *w10[] = { "test", "--pmodel", "Nonsense", NULL };
	err = parse_err(opts, w10, &rc);
	CHECK(strstr(err, "unknown model 'Nonsense': --pmodel must be LC, ECM or Roofline\n") != NULL);
	CHECK(rc == OPT_ERROR);
}

static void test_options__ranges_and_required(void)
{
	int rc;
	const char *w1[] = { "test", "--diameter", "0", "-f", "x", NULL };
	const char *err = parse_err(opts_above, w1, &rc);
	CHECK(rc == OPT_ERROR);
	CHECK(strstr(err, "--diameter must be above 0 and at most 10, got '0'\n") != NULL);
	const char *w2[] = { "test", "--diameter", "10", "-f", "x", NULL };
	CHECK(parse_t(&cmd, opts_above, w2) == 0);
	CHECK_NEAR(v.diameter, 10, 0);
	const char *w3[] = { "test", NULL };
	err = parse_err(opts_above, w3, &rc);
	CHECK(rc == OPT_ERROR);
	CHECK_STR(err, "archscope: error: --file is required\nsee 'archscope test --help'\n");
	const char *w4[] = { "test", "-m", "x", "-f", "y", NULL };
	err = parse_err(opts_above, w4, &rc);
	CHECK(strstr(err, "unknown value 'x': -m must be monotone, first-step or qt\n") != NULL);
}

static void test_options__help(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	opt_help_print(f, &cmd, opts);
	fclose(f);
	CHECK_STR(buf, "usage: archscope test [options] FILE...\n"
		       "       archscope test --list\n"
		       "\n"
		       "Tests the option parser.\n"
		       "\n"
		       "methods:\n"
		       "  monotone  the curve made non-decreasing\n"
		       "  qt        QT clustering\n"
		       "\n"
		       "options:\n"
		       "  -m, --method METHOD      the analysis\n"
		       "  --no-monotone            as it is\n"
		       "  -v, --verbose            more (repeatable)\n"
		       "  --cpu N                  pin to CPU N\n"
		       "  --cores N                cores in use\n"
		       "  --seed N                 seed\n"
		       "  --diameter F             relative cluster diameter\n"
		       "  -o, --output FILE        write FILE\n"
		       "                           in two lines\n"
		       "  -e, --event EVENT        count EVENT (repeatable)\n"
		       "  -p, --pmodel MODEL       a model (repeatable)\n"
		       "  -D, --define NAME VALUE  binds a constant\n"
		       "  --level LEVEL            a level\n"
		       "  --list                   the levels\n"
		       "  --json                   one JSON object: {\"archscope\", \"command\", \"machine\", \"results\"}\n"
		       "  -h, --help               this help\n"
		       "\n"
		       "Nothing else.\n");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	opt_help_print(f, &cmd, opts_above);
	fclose(f);
	/* a choice without a value name shows its words */
	CHECK(strstr(buf, "  -m, --method monotone|first-step|qt\n                the analysis\n") != NULL);
	free(buf);
	/* --help and -h print to stdout and say so */
	const char *w[] = { "test", "--json", "--help", NULL };
	capture_begin(1);
	int rc = parse(w);
	const char *out = capture_end();
	CHECK(rc == OPT_HELP_SHOWN);
	CHECK(opt_exit_code(rc) == 0);
	CHECK(strncmp(out, "usage: archscope test", 21) == 0);
	const char *w2[] = { "test", "-vh", NULL };
	capture_begin(1);
	rc = parse(w2);
	capture_end();
	CHECK(rc == OPT_HELP_SHOWN);
	CHECK(opt_exit_code(OPT_ERROR) == 2);
}

static void test_options__suggest(void)
{
	const char *names[] = { "topology", "probe", "bench", "machine" };
	capture_begin(2);
	int n1 = cli_suggest("topolgy", names, 4, "");
	int n2 = cli_suggest("xyzzy", names, 4, "");
	int n3 = cli_suggest("ma", names, 4, "");
	const char *err = capture_end();
	CHECK(n1 == 1);
	CHECK(n2 == 0);
	CHECK(n3 == 1);
	CHECK_STR(err, "\tdid you mean 'topology'?\n\tdid you mean 'machine'?\n");
	CHECK(cli_edit_distance("abcd", "acbd") == 1);
	CHECK(cli_edit_distance("", "abc") == 3);
}

TESTS(T(test_options__spellings), T(test_options__positionals_and_dashdash), T(test_options__stop_at_non_option),
      T(test_options__flags_counters_bundles), T(test_options__prefixes), T(test_options__choice_set_and_pairs),
      T(test_options__callback), T(test_options__usage_errors), T(test_options__ranges_and_required),
      T(test_options__help), T(test_options__suggest))
