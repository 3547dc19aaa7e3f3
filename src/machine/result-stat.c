#include "machine/result-stat.h"

SCHEMA_DEFINE(stat_result, "stat", STAT_RESULT);
