#include "machine/result-stat-memhist.h"

SCHEMA_DEFINE(memhist_result, "memhist", MEMHIST_RESULT);
