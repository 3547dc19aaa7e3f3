/* Command-line options written once, as rows of a table: the parser (getopt-compatible), the usage
 * errors that name the option, and --help, all from the same rows. See docs/cli-conventions.md. */
#ifndef ARCHSCOPE_CLI_PARSE_OPTIONS_H
#define ARCHSCOPE_CLI_PARSE_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

enum opt_kind {
	OPT_KIND_END = 0,   /* closes the table */
	OPT_KIND_GROUP,     /* a heading inside --help's option list (help: the heading) */
	OPT_KIND_HELP,      /* -h, --help: prints the help; opt_parse returns OPT_HELP_SHOWN */
	OPT_KIND_SET_INT,   /* int *: set to .set (a flag sets 1) */
	OPT_KIND_COUNTER,   /* int *: one more each time (-v -v) */
	OPT_KIND_STRING,    /* const char **: the value (the last one given wins) */
	OPT_KIND_STRINGS,   /* struct opt_strings *: every value, in order (repeatable) */
	OPT_KIND_INT,       /* int *: an integer in [min, max] */
	OPT_KIND_U64,       /* uint64_t *: a non-negative integer in [umin, umax] */
	OPT_KIND_DOUBLE,    /* double *: a number in [min, max] ((min, max] with OPT_F_ABOVE_MIN) */
	OPT_KIND_CHOICE,    /* int *: index in .choices of the value (case-insensitive) */
	OPT_KIND_CHOICE_SET,/* unsigned *: bit (1u << index) for each value given (repeatable) */
	OPT_KIND_CALLBACK,  /* .cb(opt, value, NULL); no value with OPT_F_NOARG (value NULL) */
	OPT_KIND_PAIR,      /* .cb(opt, name, value): "NAME VALUE" as two words, or "NAME=VALUE" */
};

/* Row flags. */
enum {
	OPT_F_REQUIRED = 1 << 0,  /* a usage error when the option is not given */
	OPT_F_ABOVE_MIN = 1 << 1, /* DOUBLE: the value must be > min, not >= min */
	OPT_F_NOARG = 1 << 2,     /* CALLBACK: the option takes no value */
	OPT_F_OPTARG = 1 << 3,    /* long only: the value is optional, attached as --name=VALUE; alone,
				   * --name takes .argdef ("--wait-quiet" or "--wait-quiet=60") */
};

struct opt;
/* Called for CALLBACK and PAIR rows with the option's .value; returns 0, or -1 after error()
 * (the parser then adds "see 'archscope CMD --help'"). */
typedef int (*opt_cb)(const struct opt *o, const char *arg, const char *value);

struct opt {
	enum opt_kind kind;
	char short_name;             /* 0: none */
	const char *long_name;       /* without "--"; NULL: none */
	void *value;                 /* where the result goes; its type is given by kind */
	const char *argh;            /* the value's name in --help and in messages ("N", "FILE");
					CHOICE with NULL: "a|b|c" from the choices */
	const char *help;            /* --help text, lines split by '\n'; NULL: not listed */
	unsigned flags;              /* OPT_F_* */
	int set;                     /* SET_INT: the value stored */
	double min, max;             /* INT, DOUBLE: the range, inclusive */
	uint64_t umin, umax;         /* U64: the range, inclusive */
	const char *const *choices;  /* CHOICE, CHOICE_SET: the words, NULL-terminated; STRING: words
					completion suggests (not checked) */
	opt_cb cb;                   /* CALLBACK, PAIR */
	const char *argdef;          /* OPT_F_OPTARG: the value of the option given alone */
};

#define OPT_STRINGS_MAX 64
/* The values of a repeatable STRINGS option, in the order given. */
struct opt_strings {
	int n;
	const char *v[OPT_STRINGS_MAX];
};

/* A section of --help between the description and the option list ("methods:", "groups:"):
 * either fixed text (each line as it prints, indented by the caller) or a function printing it
 * from the command's own table. */
struct opt_section {
	const char *title;           /* printed as "title:" */
	const char *text;
	void (*print)(FILE *out);
};

enum {
	OPT_CMD_STOP_AT_NON_OPTION = 1 << 0, /* the first positional ends the options (sub-commands,
						 "stack CMD ARGS") */
};

/* What --help says around the option list, and the name usage errors give. */
struct opt_cmd {
	const char *name;                      /* "analyze": "see 'archscope analyze --help'" */
	const char *const *usage;              /* usage lines, NULL-terminated ("archscope analyze ...") */
	const char *description;               /* paragraphs after the usage lines; ends with '\n' */
	const struct opt_section *sections;    /* NULL or ended by a { NULL } row */
	const char *epilog;                    /* text after the option list, or NULL */
	unsigned flags;                        /* OPT_CMD_* */
	void (*words)(FILE *out);              /* the words a positional may be (probe groups, bench
						  kernels), one a line, for the shell completion;
						  NULL: none */
};

/* Row constructors: s short name (0: none), l long name (NULL: none), v target, a value name,
 * h help; further designated initializers may follow (.flags = OPT_F_REQUIRED). Tables live on
 * the command's stack, so targets may be its locals. */
#define OPT_END() { .kind = OPT_KIND_END }
#define OPT_GROUP(h) { .kind = OPT_KIND_GROUP, .help = (h) }
#define OPT_SET_INT(s, l, v, n, h, ...) { .kind = OPT_KIND_SET_INT, .short_name = (s), .long_name = (l), .value = (v), .set = (n), .help = (h), __VA_ARGS__ }
#define OPT_FLAG(s, l, v, h, ...) OPT_SET_INT(s, l, v, 1, h, __VA_ARGS__)
#define OPT_COUNTER(s, l, v, h, ...) { .kind = OPT_KIND_COUNTER, .short_name = (s), .long_name = (l), .value = (v), .help = (h), __VA_ARGS__ }
#define OPT_STRING(s, l, v, a, h, ...) { .kind = OPT_KIND_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), __VA_ARGS__ }
#define OPT_STRINGS(s, l, v, a, h, ...) { .kind = OPT_KIND_STRINGS, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), __VA_ARGS__ }
#define OPT_INT(s, l, v, a, lo, hi, h, ...) { .kind = OPT_KIND_INT, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .min = (lo), .max = (hi), .help = (h), __VA_ARGS__ }
#define OPT_U64(s, l, v, a, lo, hi, h, ...) { .kind = OPT_KIND_U64, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .umin = (lo), .umax = (hi), .help = (h), __VA_ARGS__ }
#define OPT_DOUBLE(s, l, v, a, lo, hi, h, ...) { .kind = OPT_KIND_DOUBLE, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .min = (lo), .max = (hi), .help = (h), __VA_ARGS__ }
#define OPT_CHOICE(s, l, v, a, list, h, ...) { .kind = OPT_KIND_CHOICE, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .choices = (list), .help = (h), __VA_ARGS__ }
#define OPT_CHOICE_SET(s, l, v, a, list, h, ...) { .kind = OPT_KIND_CHOICE_SET, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .choices = (list), .help = (h), __VA_ARGS__ }
#define OPT_CALLBACK(s, l, v, a, h, fn, ...) { .kind = OPT_KIND_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .cb = (fn), __VA_ARGS__ }
#define OPT_PAIR(s, l, v, a, h, fn, ...) { .kind = OPT_KIND_PAIR, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .cb = (fn), __VA_ARGS__ }

/* The rows every command shares, with the same words everywhere. */
#define OPT_JSON(v) OPT_FLAG(0, "json", v, "one JSON object: {\"archscope\", \"command\", \"machine\", \"results\"}")
#define OPT_PLOT(v) OPT_STRING(0, "plot", v, "DIR", "draw the curves with gnuplot into DIR (SVG and PNG)")
#define OPT_RAW(v) OPT_STRING(0, "raw", v, "DIR", "save every measured curve as CSV in DIR (for `archscope analyze`)")
#define OPT_QUIET() OPT_FLAG('q', "quiet", &cli_quiet, "no progress lines or notes on stderr (errors still print)")
#define OPT_HELP() { .kind = OPT_KIND_HELP, .short_name = 'h', .long_name = "help", .help = "this help" }

/* The hidden option `--archscope-completion` (an exact word where an option may stand) prints the
 * table for the shell completion instead of parsing (opt_parse returns OPT_HELP_SHOWN), one line
 * an item, fields separated by tabs:
 *   usage   LINE                                  each usage line
 *   option  SHORT LONG KIND VALUE CHOICES         a listed row: "-x" or "", "--long" or "", KIND
 *                                                 flag|value|pair, the value's name ("FILE"),
 *                                                 choices joined by ' ' (CHOICE rows)
 *   word    WORD                                  each word of cmd->words
 * cmake/gen-completion.py reads it at build time to write the bash completion. */
#define OPT_COMPLETION_HELPER "archscope-completion"
void opt_completion_print(FILE *out, const struct opt_cmd *cmd, const struct opt *opts);

/* opt_parse's results besides a count. */
enum { OPT_ERROR = -1, OPT_HELP_SHOWN = -2 };

/* Parses argv[1..argc) (argv[0] is the command's name) against opts, which ends with OPT_END():
 * "-x V", "-xV", "--long=V", "--long V", bundled flags ("-qj"), unique prefixes of long names,
 * "--" ending the options; positionals may come between options unless cmd says otherwise.
 * Returns the number of positional arguments, moved to argv[0..n) (argv[n] = NULL); OPT_ERROR
 * after printing a usage error (error() and "see 'archscope CMD --help'"); OPT_HELP_SHOWN after
 * printing --help to stdout. Never exits: the command does, through opt_exit_code(). */
int opt_parse(int argc, char **argv, const struct opt_cmd *cmd, const struct opt *opts);

/* The exit code for a negative opt_parse() result: 0 after --help, 2 after a usage error. */
static inline int opt_exit_code(int rc)
{
	return rc == OPT_HELP_SHOWN ? 0 : 2;
}

/* Whether option o takes a value (a word of its own or attached). */
int opt_takes_value(const struct opt *o);

/* Prints --help: usage lines, description, sections, the aligned option list, the epilog. */
void opt_help_print(FILE *out, const struct opt_cmd *cmd, const struct opt *opts);

#endif
