/* Described results: one row per JSON key of a command's `results`, from which the renderer takes
 * the key it writes and every reader (compare, numa model, report, the page) finds the value it
 * reads, so that no key string is spelled twice. The probe answers have their own, typed table
 * (machine/probes.h); the other result types (bench, stat, numa matrix, stack, cluster, topology,
 * model) are described here, each in machine/result-<type>.h as an X-macro list:
 *
 *   #define BENCH_RESULT(X)                                                                 \
 *       X(BR_RUNS, BR_ROOT, ROWS, "runs", "", 0, "one row per kernel, size and thread count") \
 *       X(BR_RUN_KERNEL, BR_RUNS, TEXT, "kernel", "", 0, "the kernel")                        \
 *       X(BR_RUN_GBS, BR_RUNS, SPREAD, "gbs", "GB/s", 0, "bandwidth over the repetitions")
 *   SCHEMA_ENUM(BR, BENCH_RESULT);           -> enum BR_key { BR_ROOT = -1, BR_RUNS, ..., BR_COUNT }
 *   extern const struct schema bench_result; (machine/result-bench.c:
 *                                             SCHEMA_DEFINE(bench_result, "bench", BENCH_RESULT);)
 *   #define BR_KEY(id) SCHEMA_KEY(bench_result, BR_##id)
 *
 * X(ID, PARENT, KIND, key, unit, flags, what): PARENT is the id of the object, row list or map the
 * key sits in (P_ROOT: the results object); parents come before their children. KIND is one of
 * enum schema_kind without its SK_ prefix. A row of a ROWS list or a value of a MAP is read with
 * the row (or value) as base; every other key with the results object (or its nearest enclosing
 * row) as base: schema_get(s, base, id) walks the keys between them. */
#ifndef ARCHSCOPE_MACHINE_SCHEMA_H
#define ARCHSCOPE_MACHINE_SCHEMA_H

#include <jansson.h>
#include <stddef.h>

#include "common/error.h"

/* OBJECT: an object of described keys; ROWS: an array of such objects; MAP: an object whose keys
 * are data (event names, kernel names) and whose values are described by the children; NUMBER: a
 * number, null where not measured; INT: an integer; TEXT: a string; BOOL: true or false; NUMBERS:
 * an array of numbers (null allowed); TEXTS: an array of strings; INTS: an array of integers;
 * MATRIX: an array of arrays of numbers (null allowed); SPREAD: {"min", "median", "max"} numbers;
 * ANSWER: a probe answer {"value", "unit", "confidence", "method", "os_reported", ...}; REF: the
 * object another schema describes, named by the row's unit ("conditions"); ANY: JSON this
 * description does not look into (a program's own output, a foreign document); NUMBER_MAP: an
 * object whose keys are data (a stack's components, a kernel's constants, event names) and whose
 * values are numbers (null allowed); REFS: an array of objects another schema describes, named by
 * the unit (rows two result types share: "numa flow"). */
enum schema_kind {
	SK_OBJECT,
	SK_ROWS,
	SK_MAP,
	SK_NUMBER,
	SK_INT,
	SK_TEXT,
	SK_BOOL,
	SK_NUMBERS,
	SK_TEXTS,
	SK_INTS,
	SK_MATRIX,
	SK_SPREAD,
	SK_ANSWER,
	SK_REF,
	SK_ANY,
	SK_NUMBER_MAP,
	SK_REFS,
};

enum {
	SCHEMA_OPT = 1 << 0,  /* may be absent (a part that did not run, an option not given) */
	SCHEMA_NULL = 1 << 1, /* may be null (every NUMBER may be) */
	SCHEMA_OPEN = 1 << 2, /* OBJECT, ROWS, MAP: may hold keys this description does not name */
	/* OBJECT: may hold keys this description does not name, each a number or null (the ECM's
	 * transfers keyed by their level beside the described keys) */
	SCHEMA_OPEN_NUMBERS = 1 << 3,
	/* may be absent; where present, the only key of its object, which then needs none of the others:
	 * a part that could not run says why ("error"); for a ROWS list such an object stands in for
	 * the list */
	SCHEMA_ALONE = 1 << 4,
};

struct schema_key {
	int id, parent; /* parent -1: the results object */
	enum schema_kind kind;
	const char *key;
	const char *unit; /* "" where none; REF, REFS: the name of the schema it holds */
	unsigned flags;
	const char *what;
};

struct schema {
	const char *name; /* the command (or part) whose results it describes: "bench", "numa matrix" */
	const struct schema_key *keys;
	int n;
};

/* The ids of a list: P_ROOT (-1, the results object), one per row, P_COUNT. */
#define SCHEMA_ENUM(P, LIST) enum P##_key { P##_ROOT = -1, LIST(SCHEMA_ENUM_ROW_) P##_COUNT }
#define SCHEMA_ENUM_ROW_(id, ...) id,
/* The description of a list, named name ("bench"): const struct schema var. */
#define SCHEMA_DEFINE(var, name, LIST)                                                           \
	static const struct schema_key var##_keys_[] = { LIST(SCHEMA_DEFINE_ROW_) };            \
	const struct schema var = { name, var##_keys_, (int)(sizeof(var##_keys_) / sizeof(var##_keys_[0])) }
#define SCHEMA_DEFINE_ROW_(id, parent, kind, key, unit, flags, what) { id, parent, SK_##kind, key, unit, flags, what },

#define SCHEMA_KEY(s, id) ((s).keys[(id)].key)

/* The kind's name: "object", "rows", "map", "number", "integer", "string", ... */
const char *schema_kind_name(enum schema_kind kind);

/* The path of a key from the results object: "runs[].gbs.median", "events{}.value". */
const char *schema_path(const struct schema *s, int id, char *buf, size_t len);
/* The id of a path as schema_path writes it, or -1. */
int schema_find(const struct schema *s, const char *path);
/* The unit of a key ("" where none). */
const char *schema_unit(const struct schema *s, int id);

/* The value of key id under base: base is the results object, or the row (a ROWS element, a MAP
 * value) that is id's nearest enclosing row. NULL where it is absent or a key on the way is not
 * an object. */
json_t *schema_get(const struct schema *s, const json_t *base, int id);
/* The same as a number (NAN where absent, null or not a number), a string (NULL where absent or not
 * a string), and an integer (def where absent or not an integer). */
double schema_num(const struct schema *s, const json_t *base, int id);
const char *schema_str(const struct schema *s, const json_t *base, int id);
long long schema_int(const struct schema *s, const json_t *base, int id, long long def);
/* A part of the SPREAD id under base (NAN where absent): its min, median or max. */
enum schema_spread_part { SCHEMA_MIN, SCHEMA_MEDIAN, SCHEMA_MAX };
double schema_spread(const struct schema *s, const json_t *base, int id, enum schema_spread_part part);
/* Sets key id under base (its row or the results object), creating the objects on the way;
 * takes the reference to v. 0, or -ENOMEM (v released). */
int schema_set(const struct schema *s, json_t *base, int id, json_t *v);

/* Checks results against s: every key present is described (unless its parent is SCHEMA_OPEN),
 * every value has its kind, every key without SCHEMA_OPT is present. The first difference is
 * -EINVAL with a message naming its path ("runs[3].gbs.median: a string where a number is
 * described"); 0 when results is what s describes. */
int schema_check(const struct schema *s, const json_t *results, struct as_error *err);
/* The check of what a reader reads back (compare's A.json): as schema_check, but a described key
 * that is absent is no error (a file written by an older archscope, or by hand with the keys the
 * reader needs); a key present must be described and have its kind. */
int schema_check_read(const struct schema *s, const json_t *results, struct as_error *err);

/* Checks the results of a document command wrote (its "command": "bench", "numa matrix") against
 * the descriptions of that command's views ("bench", "bench --ecm", "tune gemm", ...): 0 when one
 * of them describes it, else the first difference against the view named command itself (or its first
 * view); -ENOENT when no view of command is described. read: as schema_check_read. */
int schema_check_command(const char *command, const json_t *results, int read, struct as_error *err);

/* Every described schema, for tests and `machine schema`; NULL-terminated. */
extern const struct schema *const schema_all[];
/* The described schema named name, or NULL. */
const struct schema *schema_by_name(const char *name);

#endif
