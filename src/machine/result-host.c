#include "machine/result-host.h"

SCHEMA_DEFINE(host_result, "host", HOST_RESULT);
