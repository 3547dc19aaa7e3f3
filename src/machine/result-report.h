/* The results of `archscope report`: the page written and what it holds (the page itself is
 * HTML); cli/cmd-report.c writes them from this list. */
#ifndef ARCHSCOPE_MACHINE_RESULT_REPORT_H
#define ARCHSCOPE_MACHINE_RESULT_REPORT_H

#include "machine/schema.h"

#define REPORT_RESULT(X)                                                                                     \
	X(RP_OUTPUT, RP_ROOT, TEXT, "output", "", 0, "the page written (\"standard output\" for -o -)")            \
	X(RP_BYTES, RP_ROOT, INT, "bytes", "B", 0, "its size")                                                    \
	X(RP_FIGURES, RP_ROOT, INT, "figures", "", 0, "figures drawn (inline SVG)")                               \
	X(RP_TABLES, RP_ROOT, INT, "tables", "", 0, "tables")                                                     \
	X(RP_ANSWERS, RP_ROOT, INT, "answers", "", 0, "probe answers shown")                                      \
	X(RP_FLAGGED, RP_ROOT, INT, "flagged", "", 0, "answers flagged noisy or implausible")                     \
	X(RP_INPUTS, RP_ROOT, TEXTS, "inputs", "", 0, "the documents read")                                        \
	X(RP_WARNINGS, RP_ROOT, TEXTS, "warnings", "", 0, "the warnings at the top of the page")

SCHEMA_ENUM(RP, REPORT_RESULT);
extern const struct schema report_result;
#define RP_KEY(id) SCHEMA_KEY(report_result, RP_##id)

#endif
