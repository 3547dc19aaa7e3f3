#include "machine/result-stat-events.h"

SCHEMA_DEFINE(events_result, "events", EVENTS_RESULT);
