#include "machine/result-whatif.h"

SCHEMA_DEFINE(whatif_result, "whatif", WHATIF_RESULT);
