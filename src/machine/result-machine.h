/* The results of `archscope machine`: show (the file), diff (two files' values side by side),
 * answers (the probe table) and schema (the described result types); each sub-command writes its
 * own part, so every top-level key is optional. */
#ifndef ARCHSCOPE_MACHINE_RESULT_MACHINE_H
#define ARCHSCOPE_MACHINE_RESULT_MACHINE_H

#include "machine/schema.h"

#define MACHINE_RESULT(X)                                                                                \
	X(MR_FILE, MR_ROOT, TEXT, "file", "", SCHEMA_OPT, "show: the file shown")                             \
	X(MR_MACHINE, MR_ROOT, ANY, "machine", "", SCHEMA_OPT, "show: the machine file as JSON, key for key")    \
	X(MR_FILE_A, MR_ROOT, TEXT, "file_a", "", SCHEMA_OPT, "diff: the first file")                         \
	X(MR_MODEL_A, MR_ROOT, TEXT, "model_a", "", SCHEMA_OPT, "diff: the first file's model name")          \
	X(MR_FILE_B, MR_ROOT, TEXT, "file_b", "", SCHEMA_OPT, "diff: the second file")                        \
	X(MR_MODEL_B, MR_ROOT, TEXT, "model_b", "", SCHEMA_OPT, "diff: the second file's model name")         \
	X(MR_ALL, MR_ROOT, BOOL, "all", "", SCHEMA_OPT, "diff --all: every value, not only the core keys")    \
	X(MR_VALUES, MR_ROOT, ROWS, "values", "", SCHEMA_OPT, "diff: one row per key path of either file")    \
	X(MR_VALUE_KEY, MR_VALUES, TEXT, "key", "", 0, "the key path (levels by name: memory hierarchy[L2].groups)") \
	X(MR_VALUE_A, MR_VALUES, TEXT, "a", "", SCHEMA_NULL, "its value in the first file (null: absent)")   \
	X(MR_VALUE_B, MR_VALUES, TEXT, "b", "", SCHEMA_NULL, "its value in the second file (null: absent)")  \
	X(MR_VALUE_DIFFERS, MR_VALUES, BOOL, "differs", "", 0, "the two values differ")                       \
	X(MR_DIFFER, MR_ROOT, INT, "differ", "", SCHEMA_OPT, "diff: how many values differ")                  \
	X(MR_VALUES_IN_A, MR_ROOT, INT, "values_in_a", "", SCHEMA_OPT, "diff: values compared in the first file") \
	X(MR_CLOCK_RATIO, MR_ROOT, NUMBER, "clock_ratio", "", SCHEMA_OPT, "diff: the first file's clock over the second's") \
	X(MR_ANSWERS, MR_ROOT, ROWS, "answers", "", SCHEMA_OPT, "answers: one row per entry of the probe table") \
	X(MR_ANSWER_PATH, MR_ANSWERS, TEXT, "path", "", 0, "its path in probe --json results")                 \
	X(MR_ANSWER_FILE_KEY, MR_ANSWERS, TEXT, "file_key", "", 0, "its key path in the machine file")         \
	X(MR_ANSWER_KIND, MR_ANSWERS, TEXT, "kind", "", 0, "answer, object, table, number, ...")               \
	X(MR_ANSWER_UNIT, MR_ANSWERS, TEXT, "unit", "", 0, "its unit (\"\": none)")                             \
	X(MR_ANSWER_KERNCRAFT, MR_ANSWERS, TEXT, "kerncraft", "", 0, "the Kerncraft key derived from it (\"\": none)") \
	X(MR_ANSWER_WHAT, MR_ANSWERS, TEXT, "what", "", 0, "what it is")                                       \
	X(MR_ANSWER_EVIDENCE, MR_ANSWERS, BOOL, "evidence", "", 0,                                              \
	  "evidence, not an answer: in probe --json, not in the machine file")                                    \
	X(MR_ANSWER_OMITTED, MR_ANSWERS, BOOL, "omitted_when_none", "", 0, "absent from probe --json when none") \
	X(MR_FILES, MR_ROOT, ROWS, "files", "", SCHEMA_OPT,                                                     \
	  "list: the machine files, kernels and metric groups found by name, one row each")                     \
	X(MR_FILE_KIND, MR_FILES, TEXT, "kind", "", 0, "machine, kernel or group")                              \
	X(MR_FILE_NAME, MR_FILES, TEXT, "name", "", 0, "the name to give (-m NAME, model NAME, stat -M NAME)")   \
	X(MR_FILE_PATH, MR_FILES, TEXT, "path", "", 0, "the file it names")                                     \
	X(MR_SCHEMAS, MR_ROOT, ROWS, "schemas", "", SCHEMA_OPT, "schema: one row per described result type")  \
	X(MR_SCHEMA_NAME, MR_SCHEMAS, TEXT, "name", "", 0, "its name (machine schema NAME)")                   \
	X(MR_SCHEMA_KEYS, MR_SCHEMAS, INT, "keys", "", 0, "how many keys it describes")                         \
	X(MR_KEYS, MR_ROOT, ROWS, "keys", "", SCHEMA_OPT, "schema NAME: one row per key of those results")     \
	X(MR_KEY_PATH, MR_KEYS, TEXT, "path", "", 0, "its path in the results ([]: a list of rows, {}: by name)") \
	X(MR_KEY_KIND, MR_KEYS, TEXT, "kind", "", 0, "its kind, or the name of the described object it holds") \
	X(MR_KEY_UNIT, MR_KEYS, TEXT, "unit", "", 0, "its unit (\"\": none)")                                   \
	X(MR_KEY_OPTIONAL, MR_KEYS, BOOL, "optional", "", 0, "it may be absent")                                \
	X(MR_KEY_WHAT, MR_KEYS, TEXT, "what", "", 0, "what it is")

SCHEMA_ENUM(MR, MACHINE_RESULT);
extern const struct schema machine_result;
#define MR_KEY(id) SCHEMA_KEY(machine_result, MR_##id)

#endif
