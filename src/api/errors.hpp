// CUDA's error state: each host thread's last error, and the context-wide
// sticky error that a kernel fault (device assert, illegal address) leaves
// until cudaDeviceReset.
#pragma once
#include <driver_types.h>

namespace cusim::detail {

// Records `error` as the calling host thread's last error (unless it is
// cudaSuccess) and returns it: `return set_error(cudaErrorInvalidValue);`.
cudaError_t set_error(cudaError_t error);

// The sticky error, or cudaSuccess. make_sticky records a kernel fault; like
// a GPU's, it surfaces at the next API call, not as the launch's own error.
cudaError_t sticky_error();
void make_sticky(cudaError_t error);
// cudaDeviceReset. After a fault, CUDA 13 leaves the device unavailable
// (cudaErrorDevicesUnavailable) for the rest of the process; cusim does too.
void reset_context();
// For cusim's own test suite only, which runs many faulting kernels in one
// process: makes the context usable again, which a real process cannot.
void forget_device_fault_for_tests();

// For API entry points: the sticky error, recorded as last error, if the
// context is unusable; cudaSuccess otherwise.
cudaError_t context_error();

}  // namespace cusim::detail
