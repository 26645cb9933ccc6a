// The device limits of cudaDeviceSetLimit / cudaDeviceGetLimit, and the
// model of dynamic parallelism the program asked for (which decides one).
#pragma once
#include <cstddef>

#include <driver_types.h>

namespace cusim::detail {

// Reads a limit; returns the CUDA error for an unknown or unsupported limit.
cudaError_t read_limit(int limit, std::size_t& value);
// Sets a limit; returns the CUDA error for an unsupported limit or value.
cudaError_t write_limit(int limit, std::size_t value);
// cudaDeviceReset: every limit back to its default.
void reset_limits();

// Whether the program runs in the legacy model of dynamic parallelism
// (CUDA_FORCE_CDP1_IF_SUPPORTED: cuda_runtime_api.h asks for it through
// request_legacy_dynamic_parallelism()).
bool legacy_dynamic_parallelism();

}  // namespace cusim::detail
