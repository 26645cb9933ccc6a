// <sm_61_intrinsics.h>: a part of CUDA's runtime headers
// (device functions) that older code includes by name; cusim's are
// all in cuda_runtime.h.
#pragma once
#include "cuda_runtime.h"
