#include "machine/result-machine.h"

SCHEMA_DEFINE(machine_result, "machine", MACHINE_RESULT);
