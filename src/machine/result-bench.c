#include "machine/result-bench.h"

SCHEMA_DEFINE(bench_result, "bench", BENCH_RESULT);
SCHEMA_DEFINE(bench_list_result, "bench --list", BENCH_LIST_RESULT);
SCHEMA_DEFINE(bench_ecm_result, "bench --ecm", BENCH_ECM_RESULT);
SCHEMA_DEFINE(bench_scaling_result, "bench --threads-scaling", BENCH_SCALING_RESULT);
