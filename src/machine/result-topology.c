#include "machine/result-topology.h"

SCHEMA_DEFINE(topology_result, "topology", TOPOLOGY_RESULT);
