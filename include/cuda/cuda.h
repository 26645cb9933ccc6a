// cusim models the runtime API; the driver API's types that runtime code
// commonly includes cuda.h for come from the runtime headers.
#pragma once
#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__
#endif
#include "cuda_runtime_api.h"
// The driver API version this runtime corresponds to (CUDA 13.0).
#define CUDA_VERSION 13000
