#include "machine/result-cluster.h"

SCHEMA_DEFINE(cluster_result, "cluster", CLUSTER_RESULT);
