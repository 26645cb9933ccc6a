// <cuda_device_runtime_api.h>: a part of CUDA's runtime headers
// (the device runtime's API) that older code includes by name; cusim's are
// all in cuda_runtime.h.
#pragma once
#include "cuda_runtime.h"
