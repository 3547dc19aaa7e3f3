#include "machine/result-tune.h"

SCHEMA_DEFINE(tune_gemm_result, "tune gemm", TUNE_GEMM_RESULT);
SCHEMA_DEFINE(tune_stencil_result, "tune stencil", TUNE_STENCIL_RESULT);
