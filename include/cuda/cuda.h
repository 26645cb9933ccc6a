// cusim models the runtime API; the driver API's types that runtime code
// commonly includes cuda.h for come from the runtime headers.
#pragma once
#include "cuda_runtime_api.h"
