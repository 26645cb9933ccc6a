// CUDA's error state: each host thread's last error, and the context-wide
// sticky error that a kernel fault (device assert, illegal address) leaves
// until cudaDeviceReset.
#pragma once
#include <driver_types.h>

namespace cusim::detail {

// Records `error` as the calling host thread's last error (unless it is
// cudaSuccess) and returns it: `return set_error(cudaErrorInvalidValue);`.
cudaError_t set_error(cudaError_t error);

// The sticky error, or cudaSuccess.
cudaError_t sticky_error();
void make_sticky(cudaError_t error);
void clear_sticky_error();

// For API entry points: the sticky error, recorded as last error, if the
// context is unusable; cudaSuccess otherwise.
cudaError_t context_error();

}  // namespace cusim::detail
