#include "machine/result-stat-phases.h"

SCHEMA_DEFINE(phases_result, "phases", PHASES_RESULT);
