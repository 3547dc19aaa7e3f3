/* memhist's results (`archscope memhist --json`): loads sampled with their latency, as a histogram
 * by latency and data source, or (--thresholds) loads per latency interval. The data sources'
 * keys are measure/memsample.h's (memsample_src_key): a histogram row holds them beside the keys
 * described here, and totals holds one number per source. */
#ifndef ARCHSCOPE_MACHINE_RESULT_STAT_MEMHIST_H
#define ARCHSCOPE_MACHINE_RESULT_STAT_MEMHIST_H

#include "machine/schema.h"

#define MEMHIST_RESULT(X)                                                                                     \
	X(MH_SOURCE, MH_ROOT, TEXT, "source", "", 0, "live, file or thresholds")                                  \
	X(MH_METHOD, MH_ROOT, TEXT, "method", "", 0, "how the samples were taken")                                \
	X(MH_FILE, MH_ROOT, TEXT, "file", "", SCHEMA_OPT, "--from: the file read")                                \
	X(MH_EXIT_STATUS, MH_ROOT, INT, "exit_status", "", SCHEMA_OPT, "the program's exit status")              \
	X(MH_THRESHOLDS, MH_ROOT, ROWS, "thresholds", "", SCHEMA_OPT, "--thresholds: one row per interval")      \
	X(MH_TH_FROM, MH_THRESHOLDS, NUMBER, "from_cy", "cy", 0, "its lower latency")                             \
	X(MH_TH_TO, MH_THRESHOLDS, NUMBER, "to_cy", "cy", 0, "its upper latency (null: none)")                    \
	X(MH_TH_ABOVE, MH_THRESHOLDS, NUMBER, "above", "", 0, "loads above from_cy")                              \
	X(MH_TH_LOADS, MH_THRESHOLDS, NUMBER, "loads", "", 0, "loads in the interval")                            \
	X(MH_NEGATIVE, MH_ROOT, INT, "negative_intervals", "", SCHEMA_OPT, "--thresholds: intervals below 0")     \
	X(MH_MODE, MH_ROOT, TEXT, "mode", "", SCHEMA_OPT, "count, or cost (samples x latency)")                   \
	X(MH_SAMPLES, MH_ROOT, INT, "samples", "", SCHEMA_OPT, "samples taken")                                   \
	X(MH_LOST, MH_ROOT, INT, "lost_samples", "", SCHEMA_OPT, "samples the kernel lost")                       \
	X(MH_BINNED, MH_ROOT, NUMBER, "samples_binned", "", SCHEMA_OPT, "samples in the histogram")              \
	X(MH_HISTOGRAM, MH_ROOT, ROWS, "histogram", "", SCHEMA_OPT | SCHEMA_OPEN,                                \
	  "one row per latency bin; beside these keys, one number per data source")                              \
	X(MH_HI_FROM, MH_HISTOGRAM, NUMBER, "from_cy", "cy", 0, "the bin's lower latency")                        \
	X(MH_HI_TO, MH_HISTOGRAM, NUMBER, "to_cy", "cy", 0, "its upper latency (null: none)")                     \
	X(MH_HI_ALL, MH_HISTOGRAM, NUMBER, "all", "", 0, "every data source")                                     \
	X(MH_TOTALS, MH_ROOT, NUMBER_MAP, "totals", "", SCHEMA_OPT, "the total of each data source")

SCHEMA_ENUM(MH, MEMHIST_RESULT);
extern const struct schema memhist_result;
#define MH_KEY(id) SCHEMA_KEY(memhist_result, MH_##id)

#endif
