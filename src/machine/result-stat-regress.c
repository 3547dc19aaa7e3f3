#include "machine/result-stat-regress.h"

SCHEMA_DEFINE(regress_result, "regress", REGRESS_RESULT);
