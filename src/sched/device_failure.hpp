// Stopping the running grid from device code, as a GPU's fault does: the
// report names the kernel, block, thread and `file:line`, and the grid ends
// with `error` (sticky). On the host (no CUDA thread running) the process
// aborts with the report. trap() (device_api.hpp) is this with
// cudaErrorLaunchFailure.
#pragma once
#include <driver_types.h>

namespace cusim::detail {

[[noreturn]] void stop_grid(const char* what, const char* file, unsigned int line, cudaError_t error);

}  // namespace cusim::detail
