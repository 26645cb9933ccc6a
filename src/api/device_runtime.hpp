// The device runtime of dynamic parallelism: what device code's runtime
// calls do that host code's do not.
#pragma once
#include <cstddef>

#include <driver_types.h>
#include <cusim/detail/kernel_call.hpp>

namespace cusim::detail {

// cudaDeviceSynchronize() called by a CUDA thread.
cudaError_t synchronize_from_device();
// A device-side launch must not hand its child a pointer into the parent's
// shared or local memory, which the child cannot see: reported with the
// launch's source line, the grid stops, and the launch fails (cudaErrorInvalidValue).
cudaError_t check_child_arguments(const kernel_invocation& invocation, const launch_shape& shape);
// Device-side cudaMemcpyAsync (src non-null) and cudaMemsetAsync (src null):
// queued with the block's launches, in order with them.
cudaError_t enqueue_device_memory_operation(void* dst, const void* src, int value, std::size_t count,
                                           cudaMemcpyKind kind, cudaStream_t stream);

}  // namespace cusim::detail
