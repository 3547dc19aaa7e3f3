#include "machine/result-analyze.h"

SCHEMA_DEFINE(analyze_result, "analyze", ANALYZE_RESULT);
