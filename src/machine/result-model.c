#include "machine/result-model.h"

SCHEMA_DEFINE(model_result, "model", MODEL_RESULT);
