// The device runtime of dynamic parallelism: what device code's runtime
// calls do that host code's do not.
#pragma once
#include <driver_types.h>

namespace cusim::detail {

// Whether the program runs in the legacy model (CUDA_FORCE_CDP1_IF_SUPPORTED).
bool legacy_dynamic_parallelism();
// cudaDeviceSynchronize() called by a CUDA thread.
cudaError_t synchronize_from_device();

}  // namespace cusim::detail
