#include "machine/result-stat-compare.h"

SCHEMA_DEFINE(compare_result, "compare", COMPARE_RESULT);
