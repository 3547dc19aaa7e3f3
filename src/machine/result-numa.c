#include "machine/result-numa.h"

SCHEMA_DEFINE(numa_matrix_result, "numa matrix", NUMA_MATRIX_RESULT);
SCHEMA_DEFINE(numa_flow_result, "numa flow", NUMA_FLOW_RESULT);
SCHEMA_DEFINE(numa_load_result, "numa load", NUMA_LOAD_RESULT);
SCHEMA_DEFINE(numa_model_result, "numa model", NUMA_MODEL_RESULT);
