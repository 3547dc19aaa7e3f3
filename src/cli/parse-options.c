/* Command-line options from a table (see parse-options.h): the parser and its usage errors (one
 * prefix, through error()); the generated --help is parse-options-help.c's. Behaves like
 * getopt_long for what the commands used before: "-x V", "-xV", "--long=V", "--long V", bundles,
 * unique prefixes, "--". */
#include "cli/parse-options.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "common/number.h"

#define MAX_ROWS 256

int opt_takes_value(const struct opt *o)
{
	switch (o->kind) {
	case OPT_KIND_STRING:
	case OPT_KIND_STRINGS:
	case OPT_KIND_INT:
	case OPT_KIND_U64:
	case OPT_KIND_DOUBLE:
	case OPT_KIND_CHOICE:
	case OPT_KIND_CHOICE_SET:
	case OPT_KIND_PAIR:
		return 1;
	case OPT_KIND_CALLBACK:
		return !(o->flags & OPT_F_NOARG);
	default:
		return 0;
	}
}

/* The usage error: "archscope: error: MSG" and "see 'archscope CMD --help'"; returns -1. */
static int usage_fail(const struct opt_cmd *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_fail(const struct opt_cmd *cmd, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return error_usage(cmd->name, "%s", msg);
}

/* "a, b, c" (last_sep ", ") or "a, b or c" (last_sep " or "). */
static void choices_join(const char *const *c, const char *last_sep, char *buf, size_t len)
{
	size_t w = 0;
	buf[0] = '\0';
	for (int i = 0; c[i] && w < len; i++)
		w += (size_t)snprintf(buf + w, len - w, "%s%s", i == 0 ? "" : c[i + 1] ? ", " : last_sep, c[i]);
}

static int choice_index(const struct opt *o, const char *arg)
{
	for (int i = 0; o->choices[i]; i++)
		if (!strcasecmp(o->choices[i], arg))
			return i;
	return -1;
}

/* The noun for a value in messages: "METHOD" -> "method"; "value" when there is none. */
static void value_noun(const struct opt *o, char *buf, size_t len)
{
	const char *a = o->argh && !strchr(o->argh, '|') && !strchr(o->argh, ' ') ? o->argh : "value";
	size_t i = 0;
	for (; a[i] && i + 1 < len; i++)
		buf[i] = (char)(a[i] >= 'A' && a[i] <= 'Z' ? a[i] - 'A' + 'a' : a[i]);
	buf[i] = '\0';
}

static int parse_number(const struct opt_cmd *cmd, const struct opt *o, const char *name, const char *arg)
{
	int rc;
	if (o->kind == OPT_KIND_U64) {
		uint64_t v;
		if ((rc = number_parse_u64(arg, o->umin, o->umax, &v)) == -EINVAL)
			return usage_fail(cmd, "option '%s' needs a non-negative decimal integer, got '%s'", name, arg);
		if (rc)
			return usage_fail(cmd, "%s must be %llu to %llu, got '%s'", name, (unsigned long long)o->umin,
					  (unsigned long long)o->umax, arg);
		*(uint64_t *)o->value = v;
		return 0;
	}
	if (o->kind == OPT_KIND_INT) {
		int64_t v;
		/* the row's bounds, clamped to int */
		int64_t lo = o->min > (double)INT32_MIN ? (int64_t)o->min : INT32_MIN;
		int64_t hi = o->max < (double)INT32_MAX ? (int64_t)o->max : INT32_MAX;
		if ((rc = number_parse_i64(arg, INT64_MIN, INT64_MAX, &v)) == -EINVAL || (o->min >= 0 && *arg == '-' && v != 0))
			return usage_fail(cmd, "option '%s' needs %s decimal integer, got '%s'", name,
					  o->min >= 0 ? "a non-negative" : "a", arg);
		if (rc || v < lo || v > hi)
			return usage_fail(cmd, "%s must be %.0f to %.0f, got '%s'", name, o->min, o->max, arg);
		*(int *)o->value = (int)v;
		return 0;
	}
	double v;
	if ((rc = number_parse_double(arg, -INFINITY, INFINITY, &v)) == -EINVAL)
		return usage_fail(cmd, "option '%s' needs a decimal number, got '%s'", name, arg);
	if (rc || (o->flags & OPT_F_ABOVE_MIN ? !(v > o->min) || v > o->max : !(v >= o->min) || v > o->max))
		return usage_fail(cmd, "%s must be %s%g %s %g, got '%s'", name, o->flags & OPT_F_ABOVE_MIN ? "above " : "",
				  o->min, o->flags & OPT_F_ABOVE_MIN ? "and at most" : "to", o->max, arg);
	*(double *)o->value = v;
	return 0;
}

/* Stores the value of one option. name: as the user wrote it ("-m", "--method"). */
static int apply(const struct opt_cmd *cmd, const struct opt *o, const char *name, const char *arg, const char *arg2)
{
	char list[1024], noun[64];
	int k;
	switch (o->kind) {
	case OPT_KIND_SET_INT:
		*(int *)o->value = o->set;
		return 0;
	case OPT_KIND_COUNTER:
		(*(int *)o->value)++;
		return 0;
	case OPT_KIND_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPT_KIND_STRINGS: {
		struct opt_strings *l = o->value;
		if (l->n >= OPT_STRINGS_MAX)
			return usage_fail(cmd, "%s given more than %d times", name, OPT_STRINGS_MAX);
		l->v[l->n++] = arg;
		return 0;
	}
	case OPT_KIND_INT:
	case OPT_KIND_U64:
	case OPT_KIND_DOUBLE:
		return parse_number(cmd, o, name, arg);
	case OPT_KIND_CHOICE:
	case OPT_KIND_CHOICE_SET:
		k = choice_index(o, arg);
		if (k < 0) {
			choices_join(o->choices, " or ", list, sizeof(list));
			value_noun(o, noun, sizeof(noun));
			return usage_fail(cmd, "unknown %s '%s': %s must be %s", noun, arg, name, list);
		}
		if (o->kind == OPT_KIND_CHOICE)
			*(int *)o->value = k;
		else
			*(unsigned *)o->value |= 1u << k;
		return 0;
	case OPT_KIND_CALLBACK:
	case OPT_KIND_PAIR:
		if (o->cb(o, arg, arg2) < 0) {
			usage_hint(cmd->name);
			return -1;
		}
		return 0;
	default:
		return 0;
	}
}

/* A PAIR option's NAME and VALUE: "NAME=VALUE" in one word, or NAME and the next word. */
static int apply_pair(const struct opt_cmd *cmd, const struct opt *o, const char *name, const char *arg, int argc,
		      char **argv, int *i)
{
	const char *eq = strchr(arg, '=');
	if (eq) {
		char key[256];
		if ((size_t)(eq - arg) >= sizeof(key))
			return usage_fail(cmd, "%s: name too long in '%s'", name, arg);
		snprintf(key, sizeof(key), "%.*s", (int)(eq - arg), arg);
		return apply(cmd, o, name, key, eq + 1);
	}
	/* "N 100" in one word (quoted) is NAME and VALUE with a space for '=': say what form is
	 * expected, rather than take the next word as its value */
	if (strpbrk(arg, " \t"))
		return usage_fail(cmd, "%s '%s': give NAME=VALUE or NAME and VALUE as two words (as %s N=100), not "
				  "both in one word", name, arg, name);
	if (*i + 1 >= argc)
		return usage_fail(cmd, "%s %s needs a value: %s %s", name, arg, name, o->argh ? o->argh : "NAME VALUE");
	return apply(cmd, o, name, arg, argv[++*i]);
}

/* The value of an option that takes one: attached, or the next word. */
static int take_value(const struct opt_cmd *cmd, const struct opt *o, const char *name, const char *attached, int argc,
		      char **argv, int *i)
{
	const char *arg = attached;
	if (!arg) {
		if (*i + 1 >= argc)
			return usage_fail(cmd, "option '%s' needs a value", name);
		arg = argv[++*i];
	}
	if (o->kind == OPT_KIND_PAIR)
		return apply_pair(cmd, o, name, arg, argc, argv, i);
	return apply(cmd, o, name, arg, NULL);
}

static const struct opt *find_long(const struct opt_cmd *cmd, const struct opt *opts, const char *word, size_t len)
{
	const struct opt *found = NULL;
	int nfound = 0;
	for (const struct opt *o = opts; o->kind != OPT_KIND_END; o++) {
		if (!o->long_name || strncmp(o->long_name, word, len) != 0)
			continue;
		if (o->long_name[len] == '\0')
			return o; /* exact */
		nfound++;
		found = o;
	}
	if (nfound == 1)
		return found;
	if (nfound > 1) {
		char list[1024];
		size_t w = 0;
		for (const struct opt *o = opts; o->kind != OPT_KIND_END && w < sizeof(list); o++)
			if (o->long_name && strncmp(o->long_name, word, len) == 0)
				w += (size_t)snprintf(list + w, sizeof(list) - w, "%s--%s", w ? ", " : "", o->long_name);
		usage_fail(cmd, "option '--%.*s' is ambiguous: %s", (int)len, word, list);
		return NULL;
	}
	char typed[256];
	snprintf(typed, sizeof(typed), "%.*s", (int)len, word);
	error("unknown option '--%s'", typed);
	const char *names[MAX_ROWS];
	size_t n = 0;
	for (const struct opt *o = opts; o->kind != OPT_KIND_END && n < MAX_ROWS; o++)
		if (o->long_name && o->help)
			names[n++] = o->long_name;
	cli_suggest(typed, names, n, "--");
	usage_hint(cmd->name);
	return NULL;
}

static int parse_long(const struct opt_cmd *cmd, const struct opt *opts, int argc, char **argv, int *i,
		      const struct opt **used)
{
	const char *word = argv[*i] + 2, *eq = strchr(word, '=');
	size_t len = eq ? (size_t)(eq - word) : strlen(word);
	if (len == 0)
		return usage_fail(cmd, "unknown option '%s'", argv[*i]);
	if (!strcmp(word, OPT_COMPLETION_HELPER)) {
		opt_completion_print(stdout, cmd, opts);
		return OPT_HELP_SHOWN;
	}
	const struct opt *o = find_long(cmd, opts, word, len);
	if (!o)
		return -1;
	*used = o;
	char name[128];
	snprintf(name, sizeof(name), "--%s", o->long_name);
	if (o->kind == OPT_KIND_HELP) {
		opt_help_print(stdout, cmd, opts);
		return OPT_HELP_SHOWN;
	}
	if (!opt_takes_value(o)) {
		if (eq)
			return usage_fail(cmd, "option '%s' takes no value", name);
		return apply(cmd, o, name, NULL, NULL);
	}
	if ((o->flags & OPT_F_OPTARG) && !eq)
		return apply(cmd, o, name, o->argdef, NULL);
	return take_value(cmd, o, name, eq ? eq + 1 : NULL, argc, argv, i);
}

/* A bundle of short options: flags first, then at most one that takes the rest or the next word. */
static int parse_short(const struct opt_cmd *cmd, const struct opt *opts, int argc, char **argv, int *i,
		       unsigned char *seen)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		const struct opt *o = opts;
		while (o->kind != OPT_KIND_END && o->short_name != *p)
			o++;
		if (o->kind == OPT_KIND_END)
			return usage_fail(cmd, "unknown option '-%c'", *p);
		seen[o - opts] = 1;
		char name[3] = { '-', *p, '\0' };
		if (o->kind == OPT_KIND_HELP) {
			opt_help_print(stdout, cmd, opts);
			return OPT_HELP_SHOWN;
		}
		if (opt_takes_value(o))
			return take_value(cmd, o, name, p[1] ? p + 1 : NULL, argc, argv, i);
		if (apply(cmd, o, name, NULL, NULL) < 0)
			return -1;
	}
	return 0;
}

int opt_parse(int argc, char **argv, const struct opt_cmd *cmd, const struct opt *opts)
{
	unsigned char seen[MAX_ROWS] = { 0 };
	int nrows = 0;
	while (opts[nrows].kind != OPT_KIND_END)
		nrows++;
	if (nrows > MAX_ROWS)
		return error("%s: more than %d option rows", cmd->name, MAX_ROWS);
	int npos = 0, only_positional = 0;
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		if (only_positional || a[0] != '-' || a[1] == '\0') {
			/* npos < i: moving positionals down never overwrites a word not yet read */
			argv[npos++] = a;
			if (cmd->flags & OPT_CMD_STOP_AT_NON_OPTION)
				only_positional = 1;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_positional = 1;
			continue;
		}
		int rc;
		if (a[1] == '-') {
			const struct opt *used = NULL;
			rc = parse_long(cmd, opts, argc, argv, &i, &used);
			if (used)
				seen[used - opts] = 1;
		} else {
			rc = parse_short(cmd, opts, argc, argv, &i, seen);
		}
		if (rc < 0)
			return rc == OPT_HELP_SHOWN ? OPT_HELP_SHOWN : OPT_ERROR;
	}
	argv[npos] = NULL;
	for (int r = 0; r < nrows; r++) {
		const struct opt *o = &opts[r];
		if (!(o->flags & OPT_F_REQUIRED) || seen[r])
			continue;
		char name[128], list[1024] = "";
		if (o->long_name)
			snprintf(name, sizeof(name), "--%s", o->long_name);
		else
			snprintf(name, sizeof(name), "-%c", o->short_name);
		if (o->choices) {
			char joined[1000];
			choices_join(o->choices, ", ", joined, sizeof(joined));
			snprintf(list, sizeof(list), " (%s)", joined);
		}
		return usage_fail(cmd, "%s is required%s", name, list);
	}
	return npos;
}
