#include "machine/result-conditions.h"

SCHEMA_DEFINE(conditions_result, "conditions", CONDITIONS_RESULT);
