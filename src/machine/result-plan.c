#include "machine/result-plan.h"

SCHEMA_DEFINE(plan_result, "probe --plan", PLAN_RESULT);
