/* Shared pieces of the command files: the command table type, fatal errors (only cli/ exits),
 * usage errors (exit 2), the machine block of the JSON envelope, and result emission. */
#ifndef ARCHSCOPE_CLI_CLI_H
#define ARCHSCOPE_CLI_CLI_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

struct cli_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

/* Prints "archscope: error: MSG" and exits with code. */
void die(int code, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
/* Prints "archscope CMD: MSG" and "see 'archscope CMD --help'", exits 2. */
void usage_error(const char *cmd, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
/* A one-line note on stderr ("archscope: note: ..."). */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the library error and exits with code (2 for -EINVAL-like input errors if code < 0). */
void die_err(int code, const struct as_error *err) __attribute__((noreturn));

/* Hostname, kernel, OS-reported CPU model and CPU counts, for the JSON envelope. */
json_t *cli_machine_json(void);

/* Prints the envelope as JSON to stdout (steals results). */
void cli_print_json(const char *command, json_t *results);

/* Progress line on stderr when it is a terminal ("\r" updated); cleared by progress_done(). */
void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void progress_done(void);

/* Parses an unsigned integer option value or exits 2 naming the option. */
uint64_t parse_u64_opt(const char *cmd, const char *opt, const char *text);
/* parse_u64_opt, and a usage error (exit 2) unless lo <= value <= hi. */
uint64_t parse_u64_range(const char *cmd, const char *opt, const char *text, uint64_t lo, uint64_t hi);

struct mtree;
/* Loads and checks a machine file; on failure prints every problem and exits 2. */
void cli_machine_load(const char *path, struct mtree *t);

/* The commands. */
int cmd_topology(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_machine(int argc, char **argv);
int cmd_model(int argc, char **argv);

#endif
