#include "machine/result-report.h"

SCHEMA_DEFINE(report_result, "report", REPORT_RESULT);
