#include "machine/result-region.h"

SCHEMA_DEFINE(region_result, "region", REGION_RESULT);
SCHEMA_DEFINE(region_marks_result, "region marks", REGION_MARKS_RESULT);
SCHEMA_DEFINE(region_stack_result, "region stack", REGION_STACK_RESULT);
