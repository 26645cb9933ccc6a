// The device limits of cudaDeviceSetLimit / cudaDeviceGetLimit.
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

}  // namespace cusim::detail
