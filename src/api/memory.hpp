// Copies and sets as the device queue runs them (memory.cpp): checked when
// the host calls, run in order with the stream's other work.
#pragma once
#include <cstddef>
#include "support/call_site.hpp"

#include <driver_types.h>

namespace cusim::detail {

// Host memory the driver must stage: not one of cusim's allocations.
bool pageable(const void* p);
// Checks a copy's pointers and direction as the driver does, and records
// its error (set_error) on behalf of `where`, the API function that copies.
cudaError_t check_copy(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind,
                       call_site where = call_site::current());

// cudaMemcpyAsync on the host: asynchronous, except where a side is pageable
// host memory (not from cudaMallocHost/cudaHostAlloc/cudaMallocManaged),
// where CUDA stages it and the call returns after the copy.
cudaError_t copy_in_stream(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind, cudaStream_t stream,
                           call_site where = call_site::current());
// cudaMemsetAsync (and cudaMemset, in the NULL stream) on the host.
// `where`: the API function that sets (for CUSIM_VERBOSE's reports).
cudaError_t set_in_stream(void* ptr, int value, std::size_t count, cudaStream_t stream,
                          call_site where = call_site::current());

}  // namespace cusim::detail
