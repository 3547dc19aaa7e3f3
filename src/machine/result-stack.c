#include "machine/result-stack.h"

SCHEMA_DEFINE(stack_result, "stack", STACK_RESULT);
